import { z } from "@hono/zod-openapi";
import { and, eq, isNull, lt, type SQL, sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, booleanFilter, integerValue } from "../../platform/resource/filters";
import { qualified as q, type Tenant } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { contacts } from "../sales/schema";
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketPriority, type TicketStatus, ticketCounters, tickets } from "./schema";
import { ticketSection } from "./thread";

/** Hours to the first public reply, by priority (the contract's SLA). */
export const SLA_HOURS: Record<TicketPriority, number> = { urgent: 1, high: 4, medium: 8, low: 24 };
const HOUR_MS = 3_600_000;

/** The first-response due time of a ticket created at `createdAt` (ms or the row's column) with this priority. */
export const dueAt = (createdAt: number | SQL, priority: TicketPriority): SQL => sql`${createdAt} + ${SLA_HOURS[priority] * HOUR_MS}`;

/** Now, in milliseconds, as D1 reads its clock: a breach is judged when the row is read. */
const NOW_MS = sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`;

/** Breached: answered after its due time, or still unanswered (and not resolved or closed) past it. */
export const slaBreached = (): SQL =>
  sql`(CASE WHEN ${q(tickets.firstRespondedAt)} IS NOT NULL THEN ${q(tickets.firstRespondedAt)} > ${q(tickets.firstResponseDueAt)}
            ELSE ${q(tickets.status)} IN ('open', 'pending') AND ${q(tickets.firstResponseDueAt)} < ${NOW_MS} END)`.mapWith(Boolean);

export const Ticket = z
  .object({
    id: z.number().int(),
    number: z.string().openapi({ example: "TKT-000123", description: "The tag replies carry in their subject: [#TKT-000123]" }),
    subject: z.string(),
    body: z.string().nullable().openapi({ description: "The request: the opening e-mail as plain text (HTML is stored sanitised, as text)" }),
    contact_id: z.number().int().nullable(),
    email: z.string().openapi({ description: "The requester's address: public replies are e-mailed there" }),
    priority: z.enum(TICKET_PRIORITIES),
    status: z.enum(TICKET_STATUSES),
    assignee_user_id: z.number().int().nullable().openapi({ description: "A user of the workspace (GET /users)" }),
    source: z.enum(["email", "api"]),
    first_response_due_at: fields
      .timestamp()
      .openapi({ description: "created_at + the priority's first-response time (urgent 1 h, high 4 h, medium 8 h, low 24 h)" }),
    first_responded_at: fields.timestamp().nullable().openapi({ description: "When the first public reply went out" }),
    resolved_at: fields.timestamp().nullable(),
    sla_breached: z.boolean().openapi({ description: "Answered after its due time, or open or pending and unanswered past it" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Ticket");

export const ticketEvents = {
  "ticket.created": { description: "A ticket was opened (from an e-mail to the support address, or the API)", data: Ticket },
  "ticket.resolved": { description: "A ticket's status became resolved", data: Ticket },
} satisfies Record<string, EventDeclaration>;

const writable = {
  subject: fields.text(300).min(1, "must not be empty"),
  body: fields.text(20_000).nullable(),
  contact_id: fields.id().nullable(),
  email: fields.email(),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  assignee_user_id: fields.id().nullable(),
};
const CreateTicket = z.strictObject(writable).partial().required({ subject: true, email: true }).openapi("CreateTicket");
const UpdateTicket = z.strictObject(writable).partial().openapi("UpdateTicket");

type TicketRow = Row<typeof tickets> & { slaBreached?: boolean | number };

export function toTicket(row: TicketRow): z.infer<typeof Ticket> {
  return {
    id: row.id,
    number: row.number,
    subject: row.subject,
    body: row.body,
    contact_id: row.contactId,
    email: row.email,
    priority: row.priority,
    status: row.status,
    assignee_user_id: row.assigneeUserId,
    source: row.source,
    first_response_due_at: isoTimestamp(row.firstResponseDueAt),
    first_responded_at: isoTimestamp(row.firstRespondedAt),
    resolved_at: isoTimestamp(row.resolvedAt),
    sla_breached: Boolean(row.slaBreached),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** Statements that take the workspace's next ticket number (before the INSERT that reads it, in the same batch). */
export const nextNumber = (tenant: Tenant) =>
  tenant.insert(ticketCounters, { last: 1 }).onConflictDoUpdate({ target: ticketCounters.workspaceId, set: { last: sql`${ticketCounters.last} + 1` } });
export const takenNumber = (tenant: Tenant) =>
  sql`(SELECT 'TKT-' || printf('%06d', ${ticketCounters.last}) FROM ${ticketCounters} WHERE ${tenant.scope(ticketCounters)})`;

/** The contact of the workspace with this e-mail address, if any (a ticket from them is linked to it). */
export const contactByEmail = (tenant: Tenant, email: string) =>
  sql`(SELECT ${contacts.id} FROM ${contacts} WHERE ${tenant.scope(contacts, sql`lower(${q(contacts.email)}) = ${email.toLowerCase()}`)} ORDER BY ${contacts.id} LIMIT 1)`;

/** Closed is final; every other status may move to any other (a requester's e-mail reopens a resolved ticket). */
const NEXT: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ["pending", "resolved", "closed"],
  pending: ["open", "resolved", "closed"],
  resolved: ["open", "pending", "closed"],
  closed: [],
};

export const ticketResource: ResourceDefinition<typeof tickets, z.infer<typeof CreateTicket>, z.infer<typeof UpdateTicket>, z.infer<typeof Ticket>> = {
  name: "tickets",
  singular: "ticket",
  tags: ["Tickets"],
  description:
    "Support requests: opened by an e-mail to the workspace's support address or through the API, numbered TKT-000001, answered with public replies (e-mailed to the requester) and internal notes, due for a first reply by their priority's SLA.",
  table: tickets,
  schemas: { output: Ticket, create: CreateTicket, update: UpdateTicket },
  ui: {
    title: "subject",
    columns: ["subject", "number", "email", "priority", "status", "sla_breached", "assignee_user_id"],
    multiline: ["body"],
    // The request is the conversation's first message.
    hiddenInDetail: ["body"],
    section: ticketSection,
    notices: { replied: "Your reply was sent to the requester.", noted: "The note was added (the requester does not see it)." },
    actions: [
      {
        name: "resolve",
        label: "Resolve",
        method: "PUT",
        path: "",
        body: { status: "resolved" },
        when: (t) => t.status === "open" || t.status === "pending",
        primary: true,
        done: "The ticket is resolved.",
      },
      {
        name: "reopen",
        label: "Reopen",
        method: "PUT",
        path: "",
        body: { status: "open" },
        when: (t) => t.status === "resolved",
        done: "The ticket is open again.",
      },
    ],
  },
  toOutput: toTicket,
  beforeCreate: (tenant) => [nextNumber(tenant)],
  toInsert: (input, now, tenant) => {
    const priority = input.priority ?? "medium";
    const status = input.status ?? "open";
    return {
      number: takenNumber(tenant),
      subject: input.subject,
      body: input.body ?? null,
      // Named by the caller, or else the contact with the requester's address.
      contactId: input.contact_id !== undefined ? input.contact_id : contactByEmail(tenant, input.email),
      email: input.email,
      priority,
      status,
      assigneeUserId: input.assignee_user_id ?? null,
      source: "api" as const,
      firstResponseDueAt: dueAt(now, priority),
      firstRespondedAt: null,
      resolvedAt: status === "resolved" || status === "closed" ? now : null,
      messageId: null,
    };
  },
  toUpdate: ({ contact_id, assignee_user_id, priority, status, ...rest }, now) => ({
    ...rest,
    ...(contact_id !== undefined ? { contactId: contact_id } : {}),
    ...(assignee_user_id !== undefined ? { assigneeUserId: assignee_user_id } : {}),
    // A new priority moves the due time (from when the ticket was opened).
    ...(priority !== undefined ? { priority, firstResponseDueAt: dueAt(q(tickets.createdAt), priority) } : {}),
    ...(status !== undefined
      ? {
          status,
          resolvedAt:
            status === "resolved" || status === "closed" ? sql`CASE WHEN ${q(tickets.resolvedAt)} IS NULL THEN ${now} ELSE ${q(tickets.resolvedAt)} END` : null,
        }
      : {}),
  }),
  references: [{ field: "contact_id", table: contacts, what: "contact" }],
  transitions: [
    {
      field: "status",
      column: tickets.status,
      allowed: (from) => NEXT[from as TicketStatus] ?? [],
      message: (from, to) => `A ${from} ticket cannot become ${to}${from === "closed" ? " (closed is final: open a new ticket)" : ""}`,
    },
  ],
  events: [
    { type: "ticket.created", on: "create" },
    { type: "ticket.resolved", on: "change", field: "status", column: tickets.status, to: "resolved" },
  ],
  computed: { slaBreached: slaBreached() },
  outputSql: {
    sla_breached: sql`json(CASE WHEN ${slaBreached()} THEN 'true' ELSE 'false' END)`,
  },
  examples: {
    create: { subject: "Cannot download my invoice", body: "The PDF link says not found.", email: "ana@contoso.example", priority: "high" },
    update: { status: "pending", priority: "urgent" },
  },
  sortable: { id: tickets.id, created_at: tickets.createdAt, updated_at: tickets.updatedAt, first_response_due_at: tickets.firstResponseDueAt },
  filters: {
    status: anyOf(tickets.status, z.enum(TICKET_STATUSES), "Status (comma list = any of)"),
    priority: anyOf(tickets.priority, z.enum(TICKET_PRIORITIES), "Priority (comma list = any of)"),
    assignee_user_id: anyOf(tickets.assigneeUserId, integerValue, "Assignee's user id (comma list = any of)"),
    contact_id: anyOf(tickets.contactId, integerValue, "Contact id (comma list = any of)"),
    unassigned: booleanFilter((on) => (on ? isNull(tickets.assigneeUserId) : sql`${tickets.assigneeUserId} IS NOT NULL`), "Only tickets nobody is assigned to"),
    sla_breached: booleanFilter((on) => (on ? slaBreached() : sql`NOT ${slaBreached()}`), "Tickets past their first-response time (true) or within it"),
    overdue: booleanFilter(
      (on) => (on ? and(isNull(tickets.firstRespondedAt), sql`${tickets.status} IN ('open', 'pending')`, lt(tickets.firstResponseDueAt, NOW_MS)) : undefined),
      "Open or pending, unanswered and past their first-response time",
    ),
  },
  searchable: [tickets.subject, tickets.email, tickets.number],
  uniques: [],
};

export const ticketOf = (tenant: Tenant, id: number | SQL) => tenant.scope(tickets, eq(tickets.id, id));
