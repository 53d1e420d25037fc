import { eq, isNull, lt, or, sql } from "drizzle-orm";
import { configOf } from "../platform/config";
import type { Env } from "../platform/context";

import { logError } from "../platform/log";
import type { Background } from "../platform/packages";
import { events } from "../platform/schema";
import { openSecret } from "../platform/secrets";
import { acrossWorkspaces, isShard, placementOf, type Tenant, tenantOn, type Values } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { outboundUrlProblem } from "../platform/url-policy";
import type { WebhookMessage } from "./dispatch";
import { webhookDeliveries, webhookEndpoints } from "./schema";
import { signedHeaders } from "./signing";

export const DELIVERY_TIMEOUT_MS = 15_000;
/** Seconds to wait after failed attempt n (1-based): 8 attempts in all. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** An endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
/** A delivery of a workspace held by a shard move waits this long (a move holds writes for seconds). */
const HELD_RETRY_SECONDS = 30;

/** The delay before the next attempt: the schedule ±20 % jitter, or the receiver's Retry-After if later. */
export function retryDelaySeconds(attempt: number, retryAfterSeconds: number | null, random = Math.random): number {
  const base = RETRY_SCHEDULE_SECONDS[Math.min(attempt, RETRY_SCHEDULE_SECONDS.length) - 1]!;
  const jittered = Math.round(base * (0.8 + 0.4 * random()));
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(1, jittered, retryAfterSeconds ?? 0));
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

type Attempt =
  | { kind: "delivered"; status: number; body: string }
  | { kind: "gone"; status: number; body: string }
  | { kind: "failed"; status: number | null; body: string | null; error: string; retryAfter: number | null };

/** What a delivery keeps of the receiver's answer: its first 2 KiB, as text. */
export const RESPONSE_BODY_BYTES = 2048;

/** The first `limit` bytes of a body as UTF-8 text; the rest is not read. */
async function bodyPrefix(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes.slice(0, limit));
}

async function attempt(url: string, headers: Record<string, string>, body: string, now: number): Promise<Attempt> {
  try {
    const response = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    const answered = await bodyPrefix(response, RESPONSE_BODY_BYTES).catch(() => "");
    if (response.status >= 200 && response.status < 300) return { kind: "delivered", status: response.status, body: answered };
    if (response.status === 410) return { kind: "gone", status: 410, body: answered };
    const retryAfter = response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers.get("retry-after"), now) : null;
    return { kind: "failed", status: response.status, body: answered, error: `HTTP ${response.status}`, retryAfter };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const reason = timedOut ? `timeout after ${DELIVERY_TIMEOUT_MS} ms` : `network error: ${String(error)}`;
    return { kind: "failed", status: null, body: null, error: reason, retryAfter: null };
  }
}

/**
 * One queue message = one attempt of one delivery. The delivery row is claimed with a conditional
 * UPDATE first, so a duplicate message (queues are at-least-once) finds it settled or in flight and
 * is acknowledged without a second POST.
 */
export async function deliver(message: Message<WebhookMessage>, env: Env, worker: Background, now = Date.now()): Promise<void> {
  const place = await workspaceOfMessage(message.body, env, now);
  if (place === "gone") return message.ack();
  if (place === "held") return message.retry({ delaySeconds: HELD_RETRY_SECONDS });
  const tenant = tenantOn(env, worker.registry, place);
  const id = message.body.deliveryId;
  const claimed = await tenant
    .update(
      webhookDeliveries,
      { attempt: sql`${webhookDeliveries.attempt} + 1`, lockedUntil: now + DELIVERY_TIMEOUT_MS + 5_000, updatedAt: now },
      eq(webhookDeliveries.id, id),
      eq(webhookDeliveries.status, "pending"),
      or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
    )
    .returning()
    .get();
  if (!claimed) return message.ack();

  const [endpoint, event] = await tenant.batch([
    tenant.select(webhookEndpoints, eq(webhookEndpoints.id, claimed.endpointId)),
    tenant.select(events, eq(events.id, claimed.eventId)),
  ]);
  const target = endpoint[0];
  const outboxEvent = event[0];
  const settle = (values: Values<typeof webhookDeliveries>) =>
    tenant.update(webhookDeliveries, { ...values, lockedUntil: null, updatedAt: Date.now() }, eq(webhookDeliveries.id, id));

  const refusal =
    !target || !outboxEvent
      ? "endpoint or event no longer exists"
      : !target.enabled
        ? "endpoint is disabled"
        : outboundUrlProblem(target.url, env.ALLOW_INSECURE_WEBHOOK_URLS === "true");
  if (refusal || !target || !outboxEvent) {
    await settle({ status: "failed", lastError: refusal ?? "unknown", nextAttemptAt: null }).run();
    return message.ack();
  }

  const { body, headers } = await signedRequest(env, target, outboxEvent, now);
  const started = Date.now();
  const result = await attempt(target.url, headers, body, now);
  const outcome = settlement(tenant, target, claimed.attempt, result, Date.now() - started, now);
  await tenant.batch([settle(outcome.delivery), outcome.endpoint]);
  if (outcome.retryInSeconds === null) message.ack();
  else message.retry({ delaySeconds: outcome.retryInSeconds });
}

/**
 * Where the delivery lives now: its workspace's shard (a move keeps its id). A workspace held by a move
 * is tried again once the move has switched. Older messages name their shard, or none (DB), and no workspace.
 */
async function workspaceOfMessage(body: WebhookMessage, env: Env, now: number): Promise<{ id: number; shard: string } | "gone" | "held"> {
  const shard = body.shard && isShard(env, body.shard) ? body.shard : "DB";
  if (body.workspaceId !== undefined) {
    const placement = await placementOf(env, body.workspaceId, now);
    if (!placement) return "gone";
    return placement.held ? "held" : { id: body.workspaceId, shard: placement.shard };
  }
  // A message from before deliveries named their workspace: whose it is, from the delivery itself.
  const [owner] = await acrossWorkspaces(env, { shard })
    .selectFrom({ workspaceId: webhookDeliveries.workspaceId }, webhookDeliveries)
    .where(eq(webhookDeliveries.id, body.deliveryId))
    .limit(1);
  return owner ? { id: owner.workspaceId, shard } : "gone";
}

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** The body every endpoint receives for an event (Standard Webhooks: the event's own id, type and time). */
export function eventPayload(outboxEvent: typeof events.$inferSelect) {
  return {
    id: outboxEvent.id,
    type: outboxEvent.type,
    timestamp: isoTimestamp(outboxEvent.createdAt),
    workspace_id: outboxEvent.workspaceId,
    data: JSON.parse(outboxEvent.data) as unknown,
    ...(outboxEvent.previousAttributes ? { previous_attributes: JSON.parse(outboxEvent.previousAttributes) as unknown } : {}),
  };
}

/** The event as the endpoint receives it, signed with its secret (and the previous one during a rotation). */
async function signedRequest(env: Env, target: Endpoint, outboxEvent: typeof events.$inferSelect, now: number) {
  const body = JSON.stringify(eventPayload(outboxEvent));
  const secrets = [await openSecret(target.secret, configOf(env).sealingKeys)];
  if (target.previousSecret && (target.previousSecretExpiresAt ?? 0) > now) secrets.push(await openSecret(target.previousSecret, configOf(env).sealingKeys));
  return { body, headers: await signedHeaders(secrets, outboxEvent.id, Math.floor(now / 1000), body) };
}

/**
 * What an attempt leaves: the delivery settled or pending a retry, and the endpoint — healthy again,
 * disabled (410 Gone, or failing for DISABLE_AFTER_MS), or failing since its first failure.
 */
function settlement(tenant: Tenant, target: Endpoint, attemptNumber: number, result: Awaited<ReturnType<typeof attempt>>, durationMs: number, now: number) {
  const endpointWhere = eq(webhookEndpoints.id, target.id);
  if (result.kind === "delivered") {
    return {
      delivery: { status: "succeeded", responseStatus: result.status, responseBody: result.body, durationMs, lastError: null, nextAttemptAt: null } as const,
      endpoint: tenant.update(webhookEndpoints, { failingSince: null }, endpointWhere),
      retryInSeconds: null,
    };
  }
  if (result.kind === "gone") {
    return {
      delivery: {
        status: "failed",
        responseStatus: 410,
        responseBody: result.body,
        durationMs,
        lastError: "endpoint answered 410 Gone: disabled",
        nextAttemptAt: null,
      } as const,
      endpoint: tenant.update(webhookEndpoints, { enabled: false, disabledReason: "gone", updatedAt: now }, endpointWhere),
      retryInSeconds: null,
    };
  }
  const failingSince = target.failingSince ?? now;
  const tooLong = now - failingSince >= DISABLE_AFTER_MS;
  const endpoint = tooLong
    ? tenant.update(webhookEndpoints, { enabled: false, disabledReason: "failing", failingSince, updatedAt: now }, endpointWhere)
    : tenant.update(webhookEndpoints, { failingSince }, endpointWhere);
  if (attemptNumber >= MAX_ATTEMPTS || tooLong) {
    return {
      delivery: {
        status: "failed",
        responseStatus: result.status,
        responseBody: result.body,
        durationMs,
        lastError: result.error,
        nextAttemptAt: null,
      } as const,
      endpoint,
      retryInSeconds: null,
    };
  }
  const retryInSeconds = retryDelaySeconds(attemptNumber, result.retryAfter);
  return {
    delivery: {
      status: "pending",
      responseStatus: result.status,
      responseBody: result.body,
      durationMs,
      lastError: result.error,
      nextAttemptAt: now + retryInSeconds * 1000,
    } as const,
    endpoint,
    retryInSeconds,
  };
}

export async function handleWebhookBatch(batch: MessageBatch<WebhookMessage>, env: Env, worker: Background): Promise<void> {
  await Promise.all(
    batch.messages.map((message) =>
      deliver(message, env, worker).catch((error: unknown) => {
        logError("webhook delivery crashed; retrying", error, { delivery_id: message.body.deliveryId });
        message.retry({ delaySeconds: RETRY_SCHEDULE_SECONDS[0]! });
      }),
    ),
  );
}
