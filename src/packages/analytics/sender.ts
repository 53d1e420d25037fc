import { logError } from "../../platform/log";
import type { AnalyticsEvent, AnalyticsMessage } from "./collect";

/**
 * The collector's hand-off to the analytics queue. A page view is cheap only if the queue is not called
 * once per request: an isolate gathers the events of its concurrent requests and sends them as one
 * message (up to 100 events and 100 KB each; Queues allows 128 KB) at the latest FLUSH_AFTER_MS after
 * an event arrived — one queue operation for many page views. Every request keeps the isolate alive
 * (waitUntil) until a flush that includes its event has run; the response does not wait for it. A
 * failed send is retried once, then logged with the number of events lost.
 */
const FLUSH_AFTER_MS = 20;
const MAX_EVENTS = 100;
const MAX_BYTES = 100_000;

let pending: AnalyticsEvent[] = [];
let pendingBytes = 0;

export function sendSoon(ctx: ExecutionContext, queue: Queue<unknown>, event: AnalyticsEvent): void {
  const size = JSON.stringify(event).length;
  if (pendingBytes + size > MAX_BYTES) ctx.waitUntil(flush(queue));
  pending.push(event);
  pendingBytes += size;
  ctx.waitUntil(pending.length >= MAX_EVENTS ? flush(queue) : new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS)).then(() => flush(queue)));
}

async function flush(queue: Queue<unknown>): Promise<void> {
  if (pending.length === 0) return;
  const message: AnalyticsMessage = { v: 1, events: pending };
  pending = [];
  pendingBytes = 0;
  try {
    await queue.send(message, { contentType: "json" });
  } catch (first) {
    try {
      await queue.send(message, { contentType: "json" });
    } catch (error) {
      logError("analytics: sending collected events to the queue failed twice; they are lost", error, { events: message.events.length, first: String(first) });
    }
  }
}
