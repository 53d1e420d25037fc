import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { principalOf } from "../../platform/auth/caller";
import { access } from "../../platform/auth/permissions";
import type { Env } from "../../platform/context";
import { base64Url, randomBytes } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { isGuardFailure } from "../../platform/errors-db";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { enqueueMail, queueMail } from "../../platform/mail/outbox";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, booleanFilter, integerValue } from "../../platform/resource/filters";
import { readBack } from "../../platform/resource/writes";
import { qualified as q, tenantOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { ticketReplies, tickets } from "./schema";
import { ticketOf } from "./tickets";

export const TicketReply = z
  .object({
    id: z.number().int(),
    ticket_id: z.number().int(),
    body: z.string().openapi({ description: "Plain text (an HTML e-mail is stored as its sanitised text)" }),
    internal: z.boolean().openapi({ description: "An internal note: never e-mailed, never shown to the requester" }),
    author: z.enum(["requester", "agent"]),
    author_user_id: z.number().int().nullable().openapi({ description: "The user who wrote an agent's reply or note" }),
    from_email: z.string().nullable().openapi({ description: "The requester's address, for a reply that came by e-mail" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("TicketReply");

const CreateTicketReply = z
  .strictObject({
    ticket_id: fields.id(),
    body: fields.text(20_000).min(1, "must not be empty"),
    internal: z.boolean().optional(),
  })
  .openapi("CreateTicketReply");

type ReplyRow = Row<typeof ticketReplies>;

export const toTicketReply = (row: ReplyRow): z.infer<typeof TicketReply> => ({
  id: row.id,
  ticket_id: row.ticketId,
  body: row.body,
  internal: row.internal,
  author: row.author,
  author_user_id: row.authorUserId,
  from_email: row.fromEmail,
  created_at: isoTimestamp(row.createdAt),
  updated_at: isoTimestamp(row.updatedAt),
});

/** The address a workspace's requesters write to, and reply to (Reply-To of every answer). */
export const supportAddress = (env: Env, workspaceId: number) => `support+${workspaceId}@${env.SUPPORT_DOMAIN}`;

/** A Message-ID of our own for an outgoing reply: the requester's answer names it in In-Reply-To. */
const newMessageId = (env: Env) => `<${base64Url(randomBytes(12))}@${env.SUPPORT_DOMAIN}>`;

/** The thread is written by the route below (a public reply also e-mails the requester) and by inbound mail. */
export const ticketReplyResource: ResourceDefinition<typeof ticketReplies, z.infer<typeof CreateTicketReply>, never, z.infer<typeof TicketReply>> = {
  name: "ticket-replies",
  singular: "ticket reply",
  tags: ["Tickets"],
  description:
    "A ticket's thread: the requester's e-mails, agents' public replies (e-mailed to the requester, threaded under their messages) and internal notes. Replies are not edited or deleted: the thread is a record of what was said.",
  table: ticketReplies,
  schemas: { output: TicketReply, create: CreateTicketReply, update: z.never() as never },
  ui: { title: "id", columns: ["ticket_id", "author", "internal", "created_at"], writes: { create: true }, multiline: ["body"], relatedTable: false },
  toOutput: toTicketReply,
  toInsert: () => {
    throw new Error("ticket replies are written by POST /ticket-replies's own route");
  },
  toUpdate: () => ({}),
  references: [{ field: "ticket_id", table: tickets, what: "ticket" }],
  examples: { create: { ticket_id: 1, body: "Thanks — the link works again; here is your PDF.", internal: false }, update: {} },
  sortable: { id: ticketReplies.id, created_at: ticketReplies.createdAt },
  filters: {
    ticket_id: anyOf(ticketReplies.ticketId, integerValue, "Ticket id (comma list = any of)"),
    internal: booleanFilter((on) => eq(ticketReplies.internal, on), "Internal notes (true) or the public thread (false)"),
  },
  searchable: [ticketReplies.body],
  uniques: [],
  routes: { create: false, update: false, delete: false, batch: false, timeline: false },
};

const createReply = defineRoute(access.write("ticket-replies"), {
  method: "post",
  path: "/ticket-replies",
  operationId: "createTicketReply",
  tags: ["Tickets"],
  summary: "Reply to a ticket, or add an internal note",
  description:
    "A public reply (internal false, the default) is e-mailed to the ticket's requester through the mail queue, with the subject tag [#TKT-000123] and In-Reply-To/References naming their messages, and sets the ticket's first_responded_at the first time. An internal note is only stored. An unknown ticket (or another workspace's) → 400.",
  request: { body: jsonBodyOf(CreateTicketReply, ticketReplyResource.examples.create) },
  responses: { 201: jsonContent(envelope(TicketReply), "The reply") },
});

export const replyRoutes = newRouter().openapi(createReply, async (c) => {
  const input = c.req.valid("json");
  const tenant = tenantOf(c);
  const principal = principalOf(c);
  const now = Date.now();
  const internal = input.internal ?? false;
  const messageId = internal ? null : newMessageId(c.env);
  const mine = ticketOf(tenant, input.ticket_id);
  const inserted = sql`last_insert_rowid()`;
  // One batch: the ticket must be this workspace's (else nothing is written), the reply, the first response, the e-mail.
  const statements = [
    tenant.assertThat(sql`EXISTS (SELECT 1 FROM ${tickets} WHERE ${mine})`, "ticket-replies:ticket"),
    tenant.insert(ticketReplies, {
      ticketId: input.ticket_id,
      body: input.body,
      internal,
      author: "agent",
      authorUserId: principal.user.id,
      fromEmail: null,
      messageId,
      createdAt: now,
      updatedAt: now,
    }),
    readBack(ticketReplyResource, tenant, inserted),
    ...(internal
      ? []
      : [
          tenant.update(tickets, { firstRespondedAt: sql`coalesce(${q(tickets.firstRespondedAt)}, ${now})`, updatedAt: now }, eq(tickets.id, input.ticket_id)),
          queueMail(
            tenant,
            {
              kind: "ticket_reply",
              subjectId: sql`(SELECT ${ticketReplies.id} FROM ${ticketReplies} WHERE ${tenant.scope(ticketReplies, eq(ticketReplies.messageId, messageId!))})`,
              to: sql`(SELECT ${tickets.email} FROM ${tickets} WHERE ${mine})`,
              replyTo: supportAddress(c.env, tenant.workspaceId),
              fromName: principal.workspace.name,
            },
            now,
          ),
        ]),
  ] as const;
  let results: unknown[];
  try {
    results = await tenant.batch(statements as never);
  } catch (error) {
    if (isGuardFailure(error)) throw ApiError.validation([{ path: "ticket_id", message: "no such ticket in this workspace" }]);
    throw error;
  }
  const [row] = results[2] as ReplyRow[];
  if (!internal) await enqueueMail(c.env, principal.shard, results[4] as { id: number; workspaceId: number }[]);
  return c.json({ success: true as const, data: toTicketReply(row!) }, 201);
});
