import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { qualified as q, type Tenant, tableAs } from "../../platform/tenancy";
import { attendance, attendanceSettings } from "./schema";

/** The workday start of a workspace that has not set one. */
export const DEFAULT_WORKDAY_START = "09:00";

/** A time of day, HH:MM (24-hour, UTC). */
export const clockTime = () =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM (24-hour, UTC)")
    .openapi({ example: "09:05" });

/** The UTC date and minute of a moment: ["2026-11-20", "09:05"]. */
export function dateAndTime(ms: number): [string, string] {
  const iso = new Date(ms).toISOString();
  return [iso.slice(0, 10), iso.slice(11, 16)];
}

/** Minutes since midnight of an HH:MM value, in SQL. */
export const minutesOf = (time: SQL) => sql`(CAST(substr(${time}, 1, 2) AS INTEGER) * 60 + CAST(substr(${time}, 4, 2) AS INTEGER))`;

/** The workspace's workday start, in SQL (the default until an admin sets one). */
export const workdayStart = (tenant: Tenant) =>
  sql`coalesce((SELECT ${q(attendanceSettings.workdayStart)} FROM ${attendanceSettings} WHERE ${tenant.scope(attendanceSettings)}), ${DEFAULT_WORKDAY_START})`;

/**
 * Worked minutes from clock-in to clock-out, both HH:MM: a clock-out earlier than the clock-in is on the
 * next day (a night shift), so a record spans at most 24 hours. NULL while the record is open.
 */
export const workedMinutes = (clockIn: SQL, clockOut: SQL) =>
  sql`CASE WHEN ${clockOut} IS NULL THEN NULL ELSE (${minutesOf(clockOut)} - ${minutesOf(clockIn)} + 1440) % 1440 END`;

/**
 * Late minutes of a record: how far its clock-in is after the workspace's workday start — for the day's
 * first arrival on a weekday only (back from lunch, or working a Saturday, is not late). `self` excludes the
 * record itself on an update.
 */
export function lateMinutes(tenant: Tenant, employeeId: SQL, date: SQL, clockIn: SQL, self?: SQL): SQL {
  const earlier = alias(attendance, "earlier");
  const notSelf = self ? sql` AND ${earlier.id} <> ${self}` : sql``;
  return sql`CASE WHEN strftime('%w', ${date}) IN ('0', '6') OR EXISTS (SELECT 1 FROM ${tableAs(earlier)} WHERE ${tenant.scope(earlier, sql`${earlier.employeeId} = ${employeeId}`, sql`${earlier.date} = ${date}`, sql`${earlier.clockIn} < ${clockIn}${notSelf}`)})
    THEN 0 ELSE max(0, ${minutesOf(clockIn)} - ${minutesOf(workdayStart(tenant))}) END`;
}
