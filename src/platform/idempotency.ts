import { and, eq, lt, or, sql } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";

import type { Principal } from "./auth/principal";
import type { AppEnv } from "./context";
import { sha256Hex } from "./crypto";

import { ApiError } from "./errors";
import { idempotencyKeys } from "./schema";
import { onEveryShard } from "./sweeps";
import { tenantOf } from "./tenancy";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A request that has not finished after this long is presumed dead and its key can be taken over. */
const LOCK_MS = 60_000;
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** Whose keys these are: a user's sessions share them; an API token has its own. */
function credentialOf(principal: Principal): string {
  return principal.tokenKind === "session" ? `user:${principal.user.id}` : `token:${principal.tokenId}`;
}

/**
 * Idempotency-Key on an authenticated POST, as route middleware after authorization: a caller that
 * may not make the request is refused before any replay, and a key belongs to its workspace and
 * credential, so another caller's key is simply a different key. The first request runs and its
 * response is stored; the same key with the same request replays it (Idempotent-Replayed: true), with
 * another request → 422, while the first is still running → 409. 5xx responses are not stored, so the
 * client can retry.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const key = c.req.header("idempotency-key");
  const principal = c.get("principal");
  if (c.req.method !== "POST" || key === undefined || !principal) return next();
  if (!KEY_SHAPE.test(key)) {
    throw ApiError.validation([{ path: "Idempotency-Key", message: "must be 1–255 printable ASCII characters" }]);
  }

  // Keys live with the workspace's data, on its shard.
  const tenant = tenantOf(c);
  const scope = { credential: credentialOf(principal), key };
  const requestHash = await sha256Hex(`${c.req.method} ${c.req.path}\n${c.get("bodyText") ?? ""}`);
  const now = Date.now();
  // Claim the key: a new row, or an expired / abandoned one taken over, in one conditional statement.
  const claimed = await tenant
    .insert(idempotencyKeys, {
      ...scope,
      requestHash,
      responseStatus: null,
      responseBody: null,
      lockedUntil: now + LOCK_MS,
      expiresAt: now + IDEMPOTENCY_TTL_MS,
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.workspaceId, idempotencyKeys.credential, idempotencyKeys.key],
      set: { requestHash, responseStatus: null, responseBody: null, lockedUntil: now + LOCK_MS, expiresAt: now + IDEMPOTENCY_TTL_MS },
      setWhere: or(
        lt(idempotencyKeys.expiresAt, now),
        and(sql`${idempotencyKeys.responseStatus} IS NULL`, lt(idempotencyKeys.lockedUntil, now), eq(idempotencyKeys.requestHash, requestHash)),
      ),
    })
    .returning({ key: idempotencyKeys.key })
    .get();

  const where = and(eq(idempotencyKeys.credential, scope.credential), eq(idempotencyKeys.key, key));
  if (!claimed) {
    const stored = await tenant.select(idempotencyKeys, where).get();
    if (!stored || stored.responseStatus === null || stored.responseBody === null) {
      throw new ApiError("idempotency_in_progress", "A request with this Idempotency-Key is in progress; retry shortly");
    }
    if (stored.requestHash !== requestHash) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was used with a different request");
    }
    return c.body(stored.responseBody, stored.responseStatus as 200, {
      "content-type": "application/json",
      "idempotent-replayed": "true",
    });
  }

  await next();
  if (c.res.status >= 500) {
    await tenant.delete(idempotencyKeys, where).run();
    return;
  }
  const body = await c.res.clone().text();
  await tenant.update(idempotencyKeys, { responseStatus: c.res.status, responseBody: body }, where).run();
};

export const sweepIdempotencyKeys = onEveryShard("expired idempotency keys", (shard, now) =>
  shard.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).run(),
);
