import { type SQL, sql } from "drizzle-orm";
import type { Env } from "../context";
import { logError } from "../log";
import type { Tenant } from "../tenancy";
import { mailMessages } from "./schema";
import type { MailJob } from "./types";

export type QueuedMail = {
  /** The mailer that renders it (a package's `mailers` key). */
  kind: string;
  subjectId: number | SQL;
  /** The recipient, or SQL reading it in the same statement (a customer's billing e-mail). */
  to: string | SQL;
  replyTo: string | null | SQL;
  fromName: string | SQL;
};

/**
 * The outbox row for a message, to put in the caller's batch (after the change that sends it, and only
 * if that changed a row when `onlyIfChanged`). RETURNING its id, for `enqueueMail` once the batch committed.
 */
export function queueMail(tenant: Tenant, mail: QueuedMail, now: number, options: { onlyIfChanged?: boolean } = {}) {
  const where = options.onlyIfChanged ? sql`changes() > 0` : sql`1`;
  return tenant
    .insertSelect(mailMessages, sql`SELECT ${queuedMessage({ ...mail, workspaceId: tenant.workspaceId }, now)} WHERE ${where}`)
    .returning({ id: mailMessages.id, workspaceId: mailMessages.workspaceId });
}

/**
 * The select list of a new queued message, in the table's column order, for INSERT … SELECT (a sweep
 * queues many at once, reading each one's values from its own row).
 */
export function queuedMessage(mail: QueuedMail & { workspaceId: number | SQL }, now: number): SQL {
  // id, workspace_id, kind, subject_id, to, reply_to, from_name, status, attempts, last_error,
  // next_attempt_at, lease_until, sent_at, created_at, updated_at.
  return sql`NULL, ${mail.workspaceId}, ${mail.kind}, ${mail.subjectId}, ${mail.to}, ${mail.replyTo}, ${mail.fromName}, 'queued', 0, NULL, ${now}, NULL, NULL, ${now}, ${now}`;
}

/** The queue takes at most this many messages per sendBatch. */
const SEND_BATCH = 100;

/**
 * Hands committed messages (of one or many workspaces on a shard) to the queue; a failure is logged and left
 * to the sweep (the rows stay queued).
 */
export async function enqueueMail(env: Env, shard: string, messages: { id: number; workspaceId: number }[]): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH) {
    const chunk = messages.slice(i, i + SEND_BATCH);
    try {
      await env.MAIL_QUEUE.sendBatch(chunk.map(({ id, workspaceId }) => ({ body: { id, workspaceId, shard } satisfies MailJob })));
    } catch (error) {
      logError("mail: enqueue failed; the sweep will retry", error, { messages: chunk.length });
    }
  }
}
