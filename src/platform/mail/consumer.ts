import { EmailMessage } from "cloudflare:email";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Env } from "../context";
import { errorChain, logError } from "../log";
import type { Background, Sweep } from "../packages";
import { onEveryShard } from "../sweeps";
import { placementOf, tenantOn } from "../tenancy";
import { mimeMessage } from "./mime";
import { enqueueMail } from "./outbox";
import { mailAttempts, mailMessages } from "./schema";
import type { Mailer, MailJob } from "./types";

/** Attempts before a message is given up as failed (the first, then one per retry delay). */
const DEFAULT_RETRY_SECONDS = [60, 300, 1800, 7200];
/** How long a consumer holds a message while sending it: a crash mid-send frees it after this. */
const LEASE_MS = 5 * 60_000;
/** A queued message this long past its next attempt lost its queue message: the sweep sends another. */
const OVERDUE_MS = 10 * 60_000;
const ERROR_LENGTH = 500;

/** MAIL_RETRY_SECONDS = "60,300,1800,7200": the wait before each retry; their count + 1 is the number of attempts. */
export function retryDelays(env: Env): number[] {
  const parsed = (env.MAIL_RETRY_SECONDS ?? "")
    .split(",")
    .filter((part) => part.trim() !== "")
    .map(Number);
  return parsed.length > 0 && parsed.every((value) => Number.isInteger(value) && value >= 0 && value <= 43_200) ? parsed : DEFAULT_RETRY_SECONDS;
}

const isJob = (body: unknown): body is MailJob =>
  typeof body === "object" &&
  body !== null &&
  Number.isInteger((body as MailJob).id) &&
  Number.isInteger((body as MailJob).workspaceId) &&
  typeof (body as MailJob).shard === "string";

/** The `mail` queue's consumer: every message of the batch at once, each acknowledged or retried on its own. */
export function mailConsumer(mailers: Map<string, Mailer>) {
  return async (batch: MessageBatch<unknown>, env: Env, worker: Background): Promise<void> => {
    await Promise.all(
      batch.messages.map(async (message) => {
        if (!isJob(message.body)) {
          logError("mail: unreadable queue message dropped", new Error("not a mail job"), { body: JSON.stringify(message.body).slice(0, 200) });
          return message.ack();
        }
        try {
          // Where the workspace lives now (the message may predate a move), and never while it is being moved:
          // a write to the shard it is leaving would be lost, and the message sent twice.
          const placement = await placementOf(env, message.body.workspaceId);
          if (!placement) return message.ack();
          if (placement.held) return message.retry({ delaySeconds: 30 });
          const retryIn = await deliver(env, worker, { ...message.body, shard: placement.shard }, mailers);
          if (retryIn === null) message.ack();
          else message.retry({ delaySeconds: retryIn });
        } catch (error) {
          // D1 unreachable, say: nothing was recorded, so the queue tries the whole thing again.
          logError("mail: delivery could not be recorded; the queue will retry", error, { message_id: message.body.id });
          message.retry({ delaySeconds: 30 });
        }
      }),
    );
  };
}

/**
 * One attempt at one message: claim it (still queued, nobody else sending), render it with its package's
 * mailer, send it through the EMAIL binding, record the attempt. Returns the seconds until a retry, or null
 * when the message is done with (sent, failed for good, or not this consumer's to send).
 */
async function deliver(env: Env, worker: Background, job: MailJob, mailers: Map<string, Mailer>): Promise<number | null> {
  const now = Date.now();
  const tenant = tenantOn(env, worker.registry, { id: job.workspaceId, shard: job.shard });
  const [claimed] = await tenant
    .update(
      mailMessages,
      { leaseUntil: now + LEASE_MS, attempts: sql`${mailMessages.attempts} + 1`, updatedAt: now },
      eq(mailMessages.id, job.id),
      eq(mailMessages.status, "queued"),
      sql`coalesce(${mailMessages.leaseUntil}, 0) < ${now}`,
    )
    .returning();
  if (!claimed) return null;

  let error: string | null = null;
  let final = false;
  try {
    const mailer = mailers.get(claimed.kind);
    if (!mailer) throw new Error(`no package renders "${claimed.kind}" messages`);
    const content = await mailer({ env, tenant, subjectId: claimed.subjectId, to: claimed.to, fromName: claimed.fromName });
    if ("skip" in content) {
      error = content.skip;
      final = true;
    } else {
      if (!env.MAIL_FROM) throw new Error("MAIL_FROM is not set: the worker has no address to send from");
      const raw = mimeMessage({ from: env.MAIL_FROM, fromName: claimed.fromName, to: claimed.to, replyTo: claimed.replyTo }, content);
      await env.EMAIL.send(new EmailMessage(env.MAIL_FROM, claimed.to, raw));
    }
  } catch (failure) {
    error = errorChain(failure).slice(0, ERROR_LENGTH);
  }

  const delays = retryDelays(env);
  const done = Date.now();
  if (error === null) {
    await tenant.batch([
      tenant.update(mailMessages, { status: "sent", sentAt: done, lastError: null, leaseUntil: null, updatedAt: done }, eq(mailMessages.id, claimed.id)),
      tenant.insert(mailAttempts, { messageId: claimed.id, attempt: claimed.attempts, outcome: "sent", error: null, at: done }),
    ]);
    return null;
  }
  final ||= claimed.attempts > delays.length;
  const retryIn = final ? null : delays[claimed.attempts - 1]!;
  await tenant.batch([
    tenant.update(
      mailMessages,
      { status: final ? "failed" : "queued", lastError: error, leaseUntil: null, nextAttemptAt: done + (retryIn ?? 0) * 1000, updatedAt: done },
      eq(mailMessages.id, claimed.id),
    ),
    tenant.insert(mailAttempts, { messageId: claimed.id, attempt: claimed.attempts, outcome: "failed", error, at: done }),
  ]);
  return retryIn;
}

/** Cron: a queued message long past its next attempt lost its queue message (or was never enqueued): send another. */
export const sweepLostMail: Sweep = onEveryShard("lost mail", async (shard, now, env, shardName) => {
  const due = await shard
    .update(mailMessages, { nextAttemptAt: now })
    .where(
      sql`${mailMessages.id} IN (SELECT id FROM ${mailMessages} WHERE ${and(
        eq(mailMessages.status, "queued"),
        lt(mailMessages.nextAttemptAt, now - OVERDUE_MS),
        sql`coalesce(${mailMessages.leaseUntil}, 0) < ${now}`,
      )} LIMIT 100)`,
    )
    .returning({ id: mailMessages.id, workspaceId: mailMessages.workspaceId });
  await enqueueMail(env, shardName, due);
});
