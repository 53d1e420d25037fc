import { and, eq, inArray, sql } from "drizzle-orm";
import PostalMime from "postal-mime";
import type { Env } from "../../platform/context";
import { recordEvent } from "../../platform/events";
import { logWarning } from "../../platform/log";
import { workspaceForMail } from "../../platform/mail/inbound";
import type { Background, Mailbox } from "../../platform/packages";
import { rowJson } from "../../platform/resource/row-json";
import { qualified as q, sameWorkspace, type Tenant } from "../../platform/tenancy";
import { htmlToText } from "./html-text";
import { ticketReplies, tickets } from "./schema";
import { contactByEmail, dueAt, nextNumber, takenNumber, ticketResource } from "./tickets";

/** The contract's ceiling for one inbound message. */
export const MAX_INBOUND_BYTES = 5 * 1024 * 1024;
const ADDRESS = /^support\+(\d{1,12})@([^@\s]+)$/i;
const TAG = /\[#(TKT-\d{6,12})\]/i;
const MAX_SUBJECT = 300;
const MAX_BODY = 20_000;

type Inbound = ForwardableEmailMessage;

/** Refused: the sender's server is told why (Email Routing bounces it), the log says so, nothing is written. */
function refuse(message: Inbound, reason: string, fields: Record<string, unknown> = {}) {
  logWarning("helpdesk: inbound e-mail rejected", { reason, to: message.to, size: message.rawSize, ...fields });
  message.setReject(reason);
  return undefined;
}

/** The message ids a message names as its parents (In-Reply-To, References), angle brackets kept as stored. */
const parentIds = (inReplyTo?: string, references?: string) => [...new Set(`${inReplyTo ?? ""} ${references ?? ""}`.match(/<[^<>\s]+>/g) ?? [])].slice(-20);

/** support+{workspace_id}@SUPPORT_DOMAIN: the workspace a message is for. */
function workspaceIdOf(to: string, env: Env): number | null {
  const match = ADDRESS.exec(to.trim());
  if (!match || match[2]!.toLowerCase() !== env.SUPPORT_DOMAIN.toLowerCase()) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

async function receive(message: Inbound, env: Env, worker: Background) {
  if (message.rawSize > MAX_INBOUND_BYTES) return refuse(message, "Message too large: the support address takes at most 5 MiB");
  const workspaceId = workspaceIdOf(message.to, env);
  if (workspaceId === null) return refuse(message, "Unknown support address");
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(await new Response(message.raw).arrayBuffer());
  } catch (error) {
    return refuse(message, "The message could not be parsed as MIME", { error: error instanceof Error ? error.message : String(error) });
  }
  // The From header (the envelope's MAIL FROM may be a bounce address); a message without one is not mail (RFC 5322).
  const from = (email.from?.address ?? "").trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(from) || from.length > 254) return refuse(message, "The message could not be read: it has no From address");
  const found = await workspaceForMail(env, worker, workspaceId);
  if (!found) return refuse(message, "No such workspace: unknown support address", { workspace_id: workspaceId });
  if (!found.tenant.isEnabled("helpdesk"))
    return refuse(message, "This workspace does not take support e-mail (its helpdesk is off)", { workspace_id: workspaceId });
  // Writes during a move would be lost on the shard it leaves: the sender's server retries a temporary refusal.
  if (found.moving) return refuse(message, "Temporarily unavailable: send the message again in a few minutes", { workspace_id: workspaceId });

  const subject = (email.subject ?? "").trim().slice(0, MAX_SUBJECT) || "(no subject)";
  // The text part when there is one; else the HTML part as text (its markup, scripts and styles dropped).
  const body = ((email.text ?? "").trim() || (email.html ? await htmlToText(email.html) : "")).slice(0, MAX_BODY) || "(empty message)";
  // A message without a Message-ID gets one of ours, so a redelivery of it is still told apart from a new one.
  const messageId = (email.messageId ?? "").trim().slice(0, 998) || `<no-id-${crypto.randomUUID()}@${env.SUPPORT_DOMAIN}>`;
  const tenant = found.tenant;
  const parent = await ticketAnswered(tenant, TAG.exec(subject)?.[1]?.toUpperCase(), parentIds(email.inReplyTo, email.references));
  const now = Date.now();
  if (parent && parent.status !== "closed") {
    await tenant.batch([
      tenant
        .insert(ticketReplies, {
          ticketId: parent.id,
          body,
          internal: false,
          author: "requester",
          authorUserId: null,
          fromEmail: from,
          messageId,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing(),
      // The requester wrote again: a ticket waiting on them, or resolved, is open again (only if the reply was new).
      tenant.update(
        tickets,
        { status: sql`CASE WHEN ${q(tickets.status)} IN ('pending', 'resolved') THEN 'open' ELSE ${q(tickets.status)} END`, resolvedAt: null, updatedAt: now },
        eq(tickets.id, parent.id),
        sql`changes() > 0`,
      ),
    ]);
    return undefined;
  }
  // A new request (or a follow-up to a closed ticket, which stays closed): a ticket, numbered, with its event.
  const [, inserted] = await tenant.batch([
    nextNumber(tenant),
    tenant
      .insert(tickets, {
        number: takenNumber(tenant),
        subject:
          subject
            .replace(TAG, "")
            .replace(/\s{2,}/g, " ")
            .trim() || subject,
        body,
        contactId: contactByEmail(tenant, from),
        email: from,
        priority: "medium",
        status: "open",
        assigneeUserId: null,
        source: "email",
        firstResponseDueAt: dueAt(now, "medium"),
        firstRespondedAt: null,
        resolvedAt: null,
        messageId,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: tickets.id }),
    recordEvent(
      tenant,
      {
        type: "ticket.created",
        dataSql: sql`(SELECT ${rowJson(ticketResource)} FROM ${tickets} WHERE ${tenant.scope(tickets, eq(tickets.messageId, messageId))})`,
        onlyIfChanged: true,
      },
      now,
    ),
  ]);
  return inserted.length > 0 ? { eventsOf: { id: found.workspace.id, shard: found.workspace.shard } } : undefined;
}

/**
 * The ticket a message answers: the one its subject's tag names, else the one whose messages (the opening
 * e-mail, a reply of ours or theirs) its In-Reply-To/References name — in this workspace only, so a tag of
 * another workspace's ticket finds nothing here and opens a new ticket.
 */
async function ticketAnswered(tenant: Tenant, tag: string | undefined, parents: string[]): Promise<{ id: number; status: string } | null> {
  if (!tag && parents.length === 0) return null;
  const [tagged, opened, replied] = await tenant.batch([
    tenant.selectFrom({ id: tickets.id, status: tickets.status }, tickets, eq(tickets.number, tag ?? "")),
    tenant.selectFrom({ id: tickets.id, status: tickets.status }, tickets, inArray(tickets.messageId, parents.length > 0 ? parents : [""])).limit(1),
    tenant
      .selectFrom({ id: tickets.id, status: tickets.status }, ticketReplies, inArray(ticketReplies.messageId, parents.length > 0 ? parents : [""]))
      .innerJoin(tickets, and(sameWorkspace(tickets, ticketReplies), eq(tickets.id, ticketReplies.ticketId)))
      .limit(1),
  ]);
  return tagged[0] ?? opened[0] ?? replied[0] ?? null;
}

/** Mail for support+{workspace_id}@SUPPORT_DOMAIN (an Email Routing rule sends it to this worker). */
export const supportMailbox: Mailbox = {
  takes: (to, env) => ADDRESS.test(to.trim()) && to.trim().toLowerCase().endsWith(`@${env.SUPPORT_DOMAIN.toLowerCase()}`),
  receive,
};
