import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { tenantOf } from "../../platform/tenancy";
import { clock } from "../../platform/time";
import { attendanceSettings } from "./schema";
import { clockTime, DEFAULT_WORKDAY_START } from "./times";

const tags = ["Attendance"];

const Settings = z
  .object({
    workday_start: z.string().openapi({ description: "HH:MM (UTC): a day's first clock-in after it is late", example: "09:00" }),
  })
  .openapi("AttendanceSettings");

const UpdateSettings = z.strictObject({ workday_start: clockTime() }).openapi("UpdateAttendanceSettings");

const getSettings = defineRoute(access.read("attendance"), {
  method: "get",
  path: "/attendance/settings",
  operationId: "getAttendanceSettings",
  tags,
  summary: "The workspace's workday start",
  description: `Default until an admin changes it: workday_start ${DEFAULT_WORKDAY_START} (UTC).`,
  responses: { 200: jsonContent(envelope(Settings), "The settings") },
});

const patchSettings = defineRoute(access.admin, {
  method: "patch",
  path: "/attendance/settings",
  operationId: "updateAttendanceSettings",
  tags,
  summary: "Change the workday start late arrivals are measured against",
  description:
    "Admins and owners. Applies to records written from now on (clock-ins, and records whose clock_in, date or employee changes); existing late_minutes stay as they were computed.",
  request: { body: jsonBodyOf(UpdateSettings, { workday_start: "08:30" }) },
  responses: { 200: jsonContent(envelope(Settings), "The settings") },
});

export const settingsRoutes = newRouter()
  .openapi(getSettings, async (c) => {
    const row = await tenantOf(c).select(attendanceSettings).get();
    return c.json({ success: true as const, data: { workday_start: row?.workdayStart ?? DEFAULT_WORKDAY_START } }, 200);
  })
  .openapi(patchSettings, async (c) => {
    const { workday_start } = c.req.valid("json");
    const now = clock.now();
    const [row] = await tenantOf(c)
      .insert(attendanceSettings, { workdayStart: workday_start, updatedAt: now })
      .onConflictDoUpdate({ target: attendanceSettings.workspaceId, set: { workdayStart: workday_start, updatedAt: sql`${now}` } })
      .returning();
    return c.json({ success: true as const, data: { workday_start: row!.workdayStart } }, 200);
  });
