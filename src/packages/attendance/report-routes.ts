import { z } from "@hono/zod-openapi";
import { access } from "../../platform/auth/permissions";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonContent } from "../../platform/openapi";
import { integerValue } from "../../platform/resource/filters";
import { type Statement, tenantOf } from "../../platform/tenancy";
import { clock, today } from "../../platform/time";
import { buildReport, Report, reportStatements } from "./report";

const ReportQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month YYYY-MM")
    .optional()
    .openapi({ description: "Default: the current month (UTC)", example: "2026-11" }),
  employee_id: integerValue.optional().openapi({ type: "integer", description: "One employee only" }),
});

const report = defineRoute(access.read("attendance"), {
  method: "get",
  path: "/attendance/report",
  operationId: "attendanceReport",
  tags: ["Attendance"],
  summary: "A month's attendance per employee: present, on leave, absent, minutes worked, late arrivals",
  description:
    "Working days are Monday–Friday from the month's start (or the employee's joining date) up to today; while the leave package is enabled, its holidays are not working days and approved leave counts as days on leave. A day with a record is present; a working day before today with neither a record nor leave is absent. Employees who left appear only with records in the month, and without absences.",
  request: { query: ReportQuery },
  responses: { 200: jsonContent(envelope(Report), "The report") },
});

export const reportRoutes = newRouter().openapi(report, async (c) => {
  const query = c.req.valid("query");
  const tenant = tenantOf(c);
  const day = today(clock.now());
  const month = query.month ?? day.slice(0, 7);
  const { statements, leave } = reportStatements(tenant, month, query.employee_id);
  const results = await tenant.batch(statements as [Statement, ...Statement[]]);
  return c.json({ success: true as const, data: buildReport(month, day, leave, results) }, 200);
});
