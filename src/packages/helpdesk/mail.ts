import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Mailer } from "../../platform/mail/types";
import { sameWorkspace } from "../../platform/tenancy";
import { ticketReplies, tickets } from "./schema";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The subject every message of a ticket carries: the tag finds the ticket when the requester answers. */
export const taggedSubject = (number: string, subject: string) => `Re: [#${number}] ${subject.replace(/^(re|fwd?|aw):\s*/i, "")}`;

/** References kept in a reply's header: the thread's first message and its latest ones (mail clients need no more). */
const MAX_REFERENCES = 10;

/**
 * An agent's public reply, e-mailed to the requester: plain words (no template around them, as a person writes),
 * threaded under the requester's messages (In-Reply-To the latest, References the thread) with the ticket's tag.
 */
const ticketReplyMail: Mailer = async ({ tenant, subjectId, fromName }) => {
  const [reply] = await tenant
    .selectFrom(
      { body: ticketReplies.body, messageId: ticketReplies.messageId, internal: ticketReplies.internal, ticket: tickets },
      ticketReplies,
      eq(ticketReplies.id, subjectId),
    )
    .innerJoin(tickets, and(sameWorkspace(tickets, ticketReplies), eq(tickets.id, ticketReplies.ticketId)));
  if (!reply) return { skip: "the reply no longer exists" };
  if (reply.internal) return { skip: "an internal note is never e-mailed" };
  const thread = await tenant
    .selectFrom({ messageId: ticketReplies.messageId }, ticketReplies, eq(ticketReplies.ticketId, reply.ticket.id), isNotNull(ticketReplies.messageId))
    .orderBy(desc(ticketReplies.id))
    .limit(MAX_REFERENCES);
  const ticket = reply.ticket;
  const earlier = thread.map((row) => row.messageId!).filter((id) => id !== reply.messageId);
  const references = [...(ticket.messageId ? [ticket.messageId] : []), ...earlier.reverse()];
  const signature = `${fromName} support · ${ticket.number}`;
  return {
    subject: taggedSubject(ticket.number, ticket.subject),
    text: `${reply.body}\n\n--\n${signature}\nReply to this e-mail to add to the conversation; keep [#${ticket.number}] in the subject.`,
    html: `<!doctype html><html><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1a1f26;font-size:15px">${escapeHtml(
      reply.body,
    )
      .split("\n")
      .join("<br>")}<p style="color:#5b6470;font-size:13px">-- <br>${escapeHtml(signature)}</p></body></html>`,
    headers: {
      ...(reply.messageId ? { messageId: reply.messageId } : {}),
      ...(references.length > 0 ? { inReplyTo: references.at(-1)!, references: [...new Set(references)] } : {}),
    },
  };
};

export const helpdeskMailers = { ticket_reply: ticketReplyMail } satisfies Record<string, Mailer>;
