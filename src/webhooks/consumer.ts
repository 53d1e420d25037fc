import { eq, isNull, lt, or, sql } from "drizzle-orm";
import { configOf } from "../platform/config";
import type { Env } from "../platform/context";

import { logError } from "../platform/log";
import type { Background } from "../platform/packages";
import { events } from "../platform/schema";
import { openSecret } from "../platform/secrets";
import { acrossWorkspaces, isShard, placementOf, tenantOn, type Values } from "../platform/tenancy";
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
  | { kind: "delivered"; status: number }
  | { kind: "gone"; status: number }
  | { kind: "failed"; status: number | null; error: string; retryAfter: number | null };

async function attempt(url: string, headers: Record<string, string>, body: string, now: number): Promise<Attempt> {
  try {
    const response = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { kind: "delivered", status: response.status };
    if (response.status === 410) return { kind: "gone", status: 410 };
    const retryAfter = response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers.get("retry-after"), now) : null;
    return { kind: "failed", status: response.status, error: `HTTP ${response.status}`, retryAfter };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return { kind: "failed", status: null, error: timedOut ? `timeout after ${DELIVERY_TIMEOUT_MS} ms` : `network error: ${String(error)}`, retryAfter: null };
  }
}

/**
 * One queue message = one attempt of one delivery. The delivery row is claimed with a conditional
 * UPDATE first, so a duplicate message (queues are at-least-once) finds it settled or in flight and
 * is acknowledged without a second POST.
 */
export async function deliver(message: Message<WebhookMessage>, env: Env, worker: Background, now = Date.now()): Promise<void> {
  const { deliveryId: id } = message.body;
  let workspaceId = message.body.workspaceId;
  // The delivery is on its workspace's shard now (a move keeps its id); a workspace held by a move is
  // tried again once the move has switched. Older messages name their shard, or none (DB).
  let shard = message.body.shard && isShard(env, message.body.shard) ? message.body.shard : "DB";
  if (workspaceId !== undefined) {
    const placement = await placementOf(env, workspaceId, now);
    if (!placement) return message.ack();
    if (placement.held) return message.retry({ delaySeconds: HELD_RETRY_SECONDS });
    shard = placement.shard;
  } else {
    // A message from before deliveries named their workspace: whose it is, from the delivery itself.
    const [owner] = await acrossWorkspaces(env, { shard })
      .selectFrom({ workspaceId: webhookDeliveries.workspaceId }, webhookDeliveries)
      .where(eq(webhookDeliveries.id, id))
      .limit(1);
    if (!owner) return message.ack();
    workspaceId = owner.workspaceId;
  }
  const tenant = tenantOn(env, worker.registry, { id: workspaceId, shard });
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

  const body = JSON.stringify({
    id: outboxEvent.id,
    type: outboxEvent.type,
    timestamp: isoTimestamp(outboxEvent.createdAt),
    workspace_id: outboxEvent.workspaceId,
    data: JSON.parse(outboxEvent.data),
    ...(outboxEvent.previousAttributes ? { previous_attributes: JSON.parse(outboxEvent.previousAttributes) } : {}),
  });
  const secrets = [await openSecret(target.secret, configOf(env).sealingKeys)];
  if (target.previousSecret && (target.previousSecretExpiresAt ?? 0) > now) secrets.push(await openSecret(target.previousSecret, configOf(env).sealingKeys));
  const headers = await signedHeaders(secrets, outboxEvent.id, Math.floor(now / 1000), body);

  const started = Date.now();
  const result = await attempt(target.url, headers, body, now);
  const durationMs = Date.now() - started;
  const endpointWhere = eq(webhookEndpoints.id, target.id);

  if (result.kind === "delivered") {
    await tenant.batch([
      settle({ status: "succeeded", responseStatus: result.status, durationMs, lastError: null, nextAttemptAt: null }),
      tenant.update(webhookEndpoints, { failingSince: null }, endpointWhere),
    ]);
    return message.ack();
  }
  if (result.kind === "gone") {
    await tenant.batch([
      settle({ status: "failed", responseStatus: 410, durationMs, lastError: "endpoint answered 410 Gone: disabled", nextAttemptAt: null }),
      tenant.update(webhookEndpoints, { enabled: false, disabledReason: "gone", updatedAt: now }, endpointWhere),
    ]);
    return message.ack();
  }

  const failingSince = target.failingSince ?? now;
  const tooLong = now - failingSince >= DISABLE_AFTER_MS;
  const endpointUpdate = tooLong
    ? tenant.update(webhookEndpoints, { enabled: false, disabledReason: "failing", failingSince, updatedAt: now }, endpointWhere)
    : tenant.update(webhookEndpoints, { failingSince }, endpointWhere);
  if (claimed.attempt >= MAX_ATTEMPTS || tooLong) {
    await tenant.batch([settle({ status: "failed", responseStatus: result.status, durationMs, lastError: result.error, nextAttemptAt: null }), endpointUpdate]);
    return message.ack();
  }
  const delaySeconds = retryDelaySeconds(claimed.attempt, result.retryAfter);
  await tenant.batch([
    settle({ status: "pending", responseStatus: result.status, durationMs, lastError: result.error, nextAttemptAt: now + delaySeconds * 1000 }),
    endpointUpdate,
  ]);
  message.retry({ delaySeconds });
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
