import { countDistinct, eq } from "drizzle-orm";
import { defineWidget } from "../../platform/widgets";
import { attendance } from "./schema";

export const attendanceWidgets = [
  defineWidget({
    key: "attendance.present_today",
    link: (period) => `/app/attendance?date_from=${period.today}&date_to=${period.today}`,
    title: "Present today",
    description: "Employees who clocked in today (UTC), now",
    kind: "stat",
    unit: "count",
    reads: ["attendance"],
    // One indexed count on (workspace, date): today's records, by employee.
    query: ({ tenant, period }) => ({
      statements: [tenant.selectFrom({ value: countDistinct(attendance.employeeId) }, attendance, eq(attendance.date, period.today))],
      build: ([rows]) => ({ value: Number((rows as { value: number }[])[0]?.value ?? 0) }),
    }),
  }),
];
