import { sql } from "drizzle-orm";
import type { Env } from "../../platform/context";
import { logError } from "../../platform/log";
import { acrossWorkspaces } from "../../platform/tenancy";
import { columns, ingest, rows } from "./ingest";
import { type AnalyticsEvent, AnalyticsMessage } from "./message";
import { deadLetters } from "./schema";

/**
 * The analytics queue's consumer. A message it cannot read is poison: it goes straight to the
 * dead-letter queue (and is logged) while the rest of the batch is written; if writing fails, the
 * whole batch is retried (the written check makes a redelivery write nothing twice). An event's key is
 * its message's id and its place in the message.
 */
export async function consumeAnalytics(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const good: { message: Message<unknown>; events: AnalyticsEvent[] }[] = [];
  for (const message of batch.messages) {
    const parsed = AnalyticsMessage.safeParse(message.body);
    if (parsed.success) good.push({ message, events: parsed.data.events });
    else {
      logError("analytics: unreadable message sent to the dead-letter queue", parsed.error, { message_id: message.id });
      await env.ANALYTICS_DLQ.send(message.body, { contentType: "json" });
      message.ack();
    }
  }
  if (good.length === 0) return;
  try {
    await ingest(
      acrossWorkspaces(env, "analytics"),
      good.flatMap(({ message, events }) => events.map((event, i) => ({ key: `${message.id}:${i}`, event }))),
    );
    for (const { message } of good) message.ack();
  } catch (error) {
    logError("analytics: writing a batch failed; it will be retried", error, { messages: good.length });
    for (const { message } of good) message.retry({ delaySeconds: 5 });
  }
}

/** The dead-letter queue's consumer: keeps each message for the operator, and logs it. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = acrossWorkspaces(env, "analytics");
  const now = Date.now();
  const letters = batch.messages.map((message) => [JSON.stringify(message.body).slice(0, 100_000), "unreadable or undeliverable analytics event", now]);
  await db.rows(sql`INSERT INTO ${deadLetters} (body, reason, received_at) SELECT ${columns(3)} FROM json_each(${rows(letters)}) j`);
  console.error(JSON.stringify({ level: "error", msg: "analytics: dead letters stored", count: letters.length }));
  batch.ackAll();
}
