import type { Context, MiddlewareHandler } from "hono";
import { configOf } from "../config";
import type { AppEnv } from "../context";
import { ApiError, errorResponse } from "../errors";
import type { IsolateState } from "../isolate";
import { platformOf } from "../services";
import { clock } from "../time";
import { type LimitDecision, WINDOW_MS } from "./durable-object";
import { durableLimiter, ipKey, type Limiter, workspaceKey } from "./limiter";
import { ANONYMOUS_LIMIT, limitOverride, PLAN_LIMITS } from "./plans";

/** Which bucket counted the request, named in the IETF RateLimit headers: a workspace's, a client IP's, or a collector's. */
export type LimitPolicy = "workspace" | "ip" | "collector";

/**
 * The brief's X-RateLimit-* headers and, beside them, the IETF ones (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "workspace";q=60;w=60` (quota per window of seconds) and
 * `RateLimit: "workspace";r=59;t=42` (remaining, seconds until the window resets).
 */
export function rateLimitHeaders(decision: Pick<LimitDecision, "limit" | "remaining" | "resetAt">, policy: LimitPolicy, now: number): Record<string, string> {
  const reset = Math.max(0, Math.ceil((decision.resetAt - now) / 1000));
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(Math.ceil(decision.resetAt / 1000)),
    "RateLimit-Policy": `"${policy}";q=${decision.limit};w=${WINDOW_MS / 1000}`,
    RateLimit: `"${policy}";r=${decision.remaining};t=${reset}`,
  };
}

function setHeaders(res: Response, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
}

/** The refusal: 429 with Retry-After and every rate-limit header (remaining 0). */
export function rateLimited(decision: Pick<LimitDecision, "limit" | "resetAt">, policy: LimitPolicy, now: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((decision.resetAt - now) / 1000));
  return new ApiError("rate_limited", `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} s`, {
    headers: { "Retry-After": String(retryAfter), ...rateLimitHeaders({ ...decision, remaining: 0 }, policy, now) },
  });
}

/**
 * Counts every request: per workspace for a valid credential (its plan's limit), per client IP otherwise.
 * A key over its limit is refused by the isolate's lease without calling the object until the window ends.
 * Reads (GET/HEAD) run concurrently with the count and their result is discarded when over the limit;
 * writes wait for the count, so a refused write never runs. If the limiter is unreachable the request
 * is served (fail open) and the failure logged.
 */
export function rateLimit(
  limiterFor: (c: Context<AppEnv>) => Limiter,
  collectors: ReadonlyMap<string, number> = new Map(),
  selfCounted: readonly string[] = [],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // An in-process call belongs to a request that was counted already; an inbound endpoint counts
    // its requests itself once it knows whose they are (see countRequest).
    if (c.get("dispatched") || selfCounted.some((prefix) => c.req.path.startsWith(prefix))) return next();
    const principal = c.get("principal");
    const override = limitOverride(c.env.RATE_LIMIT_OVERRIDE);
    const ip = c.req.header("cf-connecting-ip") ?? "unknown";
    // A public route with its own per-IP limit (the analytics collector) counts in its own bucket.
    const own = principal ? undefined : collectors.get(c.req.path);
    const at = clock.now();
    const clientKey = configOf(c.env).clientKey;
    const key = principal ? workspaceKey(principal.workspace.id) : await ipKey(clientKey, ip, at, own ? c.req.path : "");
    const policy: LimitPolicy = principal ? "workspace" : own ? "collector" : "ip";
    const limit = override ?? (principal ? PLAN_LIMITS[principal.workspace.plan] : (own ?? ANONYMOUS_LIMIT));

    // A collector's per-IP ceiling is loose: the first requests of a client in this isolate's window are
    // admitted without asking the object, so a page view from a new visitor costs no Durable Object call.
    // Under an override too (the benchmark measures the path production takes), unless it is tighter than the allowance.
    const local = own && limit > LOCAL_COLLECTOR_ALLOWANCE ? admittedLocally(platformOf(c).isolate, key, limit, at) : null;
    const counting = (local ? Promise.resolve(local) : limiterFor(c).check(key, limit, at, override !== null || !principal)).catch((error: unknown) => {
      // Never an IP address in the logs: a client is named by its workspace only.
      console.error(JSON.stringify({ level: "error", msg: "rate limiter unreachable; failing open", key: principal ? key : "ip", error: String(error) }));
      return null;
    });

    const safe = c.req.method === "GET" || c.req.method === "HEAD";
    let decision: LimitDecision | null;
    if (safe) {
      const running = next();
      decision = await counting;
      await running;
    } else {
      decision = await counting;
      if (decision?.allowed !== false) await next();
    }

    if (decision && !decision.allowed) {
      // A fresh response: nothing of the discarded one (its ETag, its cookies) may leak into the 429.
      c.res = undefined;
      c.res = errorResponse(c, rateLimited(decision, policy, at));
      return;
    }
    // A route that counted a budget of its own and refused (a collector's site) keeps its headers.
    if (decision && !c.res.headers.has("RateLimit-Policy")) setHeaders(c.res, rateLimitHeaders(decision, policy, at));
  };
}

/** Requests of one client a single isolate admits to a collector each minute before counting at the object. */
const LOCAL_COLLECTOR_ALLOWANCE = 30;

/**
 * The local part of a collector's per-IP ceiling: within its first LOCAL_COLLECTOR_ALLOWANCE requests of the
 * window in this isolate a client is admitted here (the ceiling is then at most that much looser per isolate);
 * after that, null — the limiter object counts.
 */
function admittedLocally(isolate: IsolateState, key: string, limit: number, now: number): LimitDecision | null {
  const window = Math.floor(now / WINDOW_MS);
  const counts = isolate.get("rate-limit.collector-clients", () => new Map<string, { window: number; count: number }>());
  let entry = counts.get(key);
  if (!entry || entry.window !== window) {
    if (counts.size >= 50_000) for (const [stale, old] of counts) if (old.window !== window) counts.delete(stale);
    entry = { window, count: 0 };
    counts.set(key, entry);
  }
  entry.count += 1;
  if (entry.count > LOCAL_COLLECTOR_ALLOWANCE) return null;
  return { allowed: true, limit, remaining: limit - entry.count, resetAt: (window + 1) * WINDOW_MS };
}

/**
 * Counts one request of an endpoint that authenticates itself (a chat bot's signed webhook): against the
 * workspace's plan once verified, against the client IP otherwise. Throws 429 when over the limit.
 */
export async function countRequest(
  c: Context<AppEnv>,
  subject: { workspace: { id: number; plan: keyof typeof PLAN_LIMITS } } | { ip: string },
): Promise<Record<string, string>> {
  const override = limitOverride(c.env.RATE_LIMIT_OVERRIDE);
  const at = clock.now();
  const [key, limit] =
    "workspace" in subject
      ? [workspaceKey(subject.workspace.id), PLAN_LIMITS[subject.workspace.plan]]
      : [await ipKey(configOf(c.env).clientKey, subject.ip, at), ANONYMOUS_LIMIT];
  const policy: LimitPolicy = "workspace" in subject ? "workspace" : "ip";
  const decision = await durableLimiter(c.env.RATE_LIMITER, platformOf(c).isolate)
    .check(key, override ?? limit, at, override !== null || !("workspace" in subject))
    .catch(() => null);
  if (decision && !decision.allowed) throw rateLimited(decision, policy, at);
  return decision ? rateLimitHeaders(decision, policy, at) : {};
}
