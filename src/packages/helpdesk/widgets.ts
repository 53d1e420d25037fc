import { count, sql } from "drizzle-orm";
import { defineWidget } from "../../platform/widgets";
import { tickets } from "./schema";
import { slaBreached } from "./tickets";

export const helpdeskWidgets = [
  defineWidget({
    key: "helpdesk.open_tickets",
    link: () => "/app/tickets?status=open,pending",
    title: "Open tickets",
    description: "Tickets open or pending now, whatever their age",
    kind: "stat",
    unit: "count",
    reads: ["tickets"],
    // One indexed count on (workspace, status).
    query: ({ tenant }) => ({
      statements: [tenant.selectFrom({ value: count() }, tickets, sql`${tickets.status} IN ('open', 'pending')`)],
      build: ([rows]) => ({ value: Number((rows as { value: number }[])[0]?.value ?? 0) }),
    }),
  }),
  defineWidget({
    key: "helpdesk.sla_breaches",
    link: () => "/app/tickets?sla_breached=true&status=open,pending",
    title: "SLA breaches",
    description: "Open or pending tickets answered late or still unanswered past their first-response time, now",
    kind: "stat",
    unit: "count",
    reads: ["tickets"],
    query: ({ tenant }) => ({
      statements: [tenant.selectFrom({ value: count() }, tickets, sql`${tickets.status} IN ('open', 'pending')`, slaBreached())],
      build: ([rows]) => ({ value: Number((rows as { value: number }[])[0]?.value ?? 0) }),
    }),
  }),
];
