import type { IsolateState } from "../../platform/isolate";
import { logError } from "../../platform/log";
import type { AnalyticsEventInput as AnalyticsEvent, AnalyticsMessageInput as AnalyticsMessage } from "./message";

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

export class EventSender {
  private pending: AnalyticsEvent[] = [];
  private pendingBytes = 0;

  sendSoon(ctx: ExecutionContext, queue: Queue<unknown>, event: AnalyticsEvent): void {
    const size = JSON.stringify(event).length;
    if (this.pendingBytes + size > MAX_BYTES) ctx.waitUntil(this.flush(queue));
    this.pending.push(event);
    this.pendingBytes += size;
    const flushed =
      this.pending.length >= MAX_EVENTS ? this.flush(queue) : new Promise((resolve) => setTimeout(resolve, FLUSH_AFTER_MS)).then(() => this.flush(queue));
    ctx.waitUntil(flushed);
  }

  private async flush(queue: Queue<unknown>): Promise<void> {
    if (this.pending.length === 0) return;
    const message: AnalyticsMessage = { v: 1, events: this.pending };
    this.pending = [];
    this.pendingBytes = 0;
    try {
      await queue.send(message, { contentType: "json" });
    } catch (first) {
      try {
        await queue.send(message, { contentType: "json" });
      } catch (error) {
        logError("analytics: sending collected events to the queue failed twice; they are lost", error, {
          events: message.events.length,
          first: String(first),
        });
      }
    }
  }
}

/** The isolate's sender: one buffer per isolate, shared by its concurrent requests. */
export const senderOf = (isolate: IsolateState): EventSender => isolate.get("analytics.sender", () => new EventSender());
