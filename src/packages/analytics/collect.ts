import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import { packageDisabled, principalOf } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import { configOf } from "../../platform/config";
import type { AppEnv, Env } from "../../platform/context";
import { sha256Hex } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import type { IsolateState } from "../../platform/isolate";
import { defineRoute, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { PackageSwitches } from "../../platform/package-state";
import type { PackageRegistry } from "../../platform/packages";
import { durableLimiter } from "../../platform/rate-limit/limiter";
import { rateLimited } from "../../platform/rate-limit/middleware";
import { platformOf } from "../../platform/services";
import { acrossWorkspaces, analyticsOf, directoryFor, type Tenant } from "../../platform/tenancy";
import { clock } from "../../platform/time";
import { attribute } from "./attribution";
import type { AnalyticsEventInput, AnalyticsMessageInput } from "./message";
import { absoluteUrl, eventName, ordering, props, revenue } from "./normalize";
import { sites } from "./schema";
import { TRACKER_SCRIPT } from "./script";
import { senderOf } from "./sender";
import { browserVisitor, saltCache } from "./visitor";

const tags = ["Analytics"];
/** The reference's words for this file's tag (the manifest lists them). */
export const analyticsTags = {
  Analytics:
    "Self-hosted, cookie-less web analytics for the workspace's own sites: a tracker script, a public collector, server-side events, stats, breakdowns and checkout funnels. No cookies; no IP address or user agent is stored.",
};

const event = {
  name: eventName,
  url: absoluteUrl,
  referrer: z
    .string()
    .max(16_384)
    .transform((value) => value.slice(0, 2048))
    .optional(),
  props: props.optional(),
  revenue: revenue.optional(),
  ...ordering,
};
const CollectBody = z.object({ site: z.string().min(1).max(64).openapi({ example: "site_3kTZ…" }), ...event }).openapi("CollectEvent", {
  example: {
    site: "site_3kTZ…",
    name: "add_to_cart",
    url: "https://shop.example.com/products/42",
    referrer: "https://www.google.com/",
    props: { sku: "TEA-042" },
  },
});
const ServerEventBody = z
  .object({
    site: z.string().min(1).max(64).openapi({ description: "The site's site_key" }),
    ...event,
    visitor: z.string().min(1).max(200).openapi({ description: "Your own opaque id for the visitor (hashed with the site, never stored as sent)" }),
    timestamp: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time" })
      .optional()
      .openapi({ description: "When it happened; at most 24 h ago, not in the future" }),
  })
  .openapi("ServerEvent", {
    example: {
      site: "site_3kTZ…",
      name: "purchase",
      url: "https://shop.example.com/checkout/done",
      visitor: "customer-8841",
      revenue: { amount: 4900, currency: "EUR" },
    },
  });

type Site = typeof sites.$inferSelect;
const SITE_CACHE_MS = 60_000;
type SiteCache = Map<string, { site: Site | null; collecting: boolean; at: number }>;
const siteCache = (isolate: IsolateState): SiteCache => isolate.get("analytics.sites", () => new Map());

/**
 * A site by its public key, and whether its workspace has the analytics package on: read once a minute
 * per isolate at most (the collector's hot path does no D1 round trip).
 */
async function siteByKey(
  env: Env,
  worker: { registry: PackageRegistry; isolate: IsolateState },
  key: string,
  now: number,
): Promise<{ site: Site | null; collecting: boolean }> {
  const cache = siteCache(worker.isolate);
  const cached = cache.get(key);
  if (cached && now - cached.at < SITE_CACHE_MS) return cached;
  // A public key names its site, and the site its workspace: the lookup is across workspaces.
  const site = (await acrossWorkspaces(env, "analytics").select(sites, eq(sites.siteKey, key)).get()) ?? null;
  let collecting = false;
  if (site) {
    const directory = directoryFor(env, worker.registry, site.workspaceId);
    const [state] = await directory.rows<{ on: number }>(sql`SELECT ${new PackageSwitches(directory, worker.registry).enabledSql("analytics")} AS "on"`);
    collecting = state?.on === 1;
  }
  if (cache.size > 10_000) cache.clear();
  const entry = { site, collecting, at: now };
  cache.set(key, entry);
  return entry;
}

/** Forgets a deleted site at once in this isolate. */
export function forgetSite(isolate: IsolateState, key: string): void {
  siteCache(isolate).delete(key);
}

/** The url's host must be the site's domain or one of its subdomains. */
function onSite(url: URL, domain: string): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return host === domain || host.endsWith(`.${domain}`);
}

type Agent = { bot: boolean; device: string; browser: string; browserVersion: string; os: string; osVersion: string };

/**
 * Whether a user agent is a bot (isbot's maintained list), its device class, browser and OS (ua-parser-js).
 * A browser sends many events with one user agent: each agent is classified once per isolate.
 */
function agentOf(isolate: IsolateState, userAgent: string): Agent {
  const agents = isolate.get("analytics.agents", () => new Map<string, Agent>());
  let agent = agents.get(userAgent);
  if (!agent) {
    const parsed = new UAParser(userAgent).getResult();
    const type = parsed.device.type;
    agent = {
      bot: isbot(userAgent),
      device: type === "mobile" || type === "tablet" ? type : "desktop",
      browser: (parsed.browser.name ?? "").slice(0, 64),
      browserVersion: (parsed.browser.major ?? "").slice(0, 32),
      os: (parsed.os.name ?? "").slice(0, 64),
      osVersion: (parsed.os.version ?? "").slice(0, 32),
    };
    if (agents.size >= 2_000) agents.clear();
    agents.set(userAgent, agent);
  }
  return agent;
}

type Input = Omit<z.infer<typeof CollectBody>, "site">;
type Client = Pick<AnalyticsEventInput, "kind" | "visitor" | "previousVisitor" | "country" | "region" | "city" | "device" | "ts"> &
  Partial<Pick<AnalyticsEventInput, "browser" | "browserVersion" | "os" | "osVersion">>;

/** The queued event: the path, where the visit came from (had it started here) and the client's traits. */
function eventOf(site: Site, input: Input, client: Client): AnalyticsEventInput {
  const url = new URL(input.url);
  const origin = attribute({ landingUrl: url, referrer: input.referrer, siteDomain: site.domain });
  const utm = origin.utm;
  return {
    workspaceId: site.workspaceId,
    siteId: site.id,
    name: input.name,
    // A hash route (#/settings, #!/settings: the tracker's data-hash-routing) is part of the page; an anchor is not.
    path: `${url.pathname || "/"}${/^#!?\//.test(url.hash) ? url.hash : ""}`.slice(0, 2048),
    referrer: origin.referrer,
    source: origin.source,
    channel: origin.channel,
    ...(utm.source || utm.medium || utm.campaign || utm.term || utm.content ? { utm } : {}),
    ...(input.props && Object.keys(input.props).length > 0 ? { props: input.props } : {}),
    ...(input.revenue ? { revenue: input.revenue } : {}),
    ...(input.load !== undefined ? { load: input.load } : {}),
    ...(input.seq !== undefined ? { seq: input.seq } : {}),
    ...client,
  };
}

function checkUrl(site: Site, url: string): void {
  if (!onSite(new URL(url), site.domain)) {
    throw ApiError.validation([{ path: "url", message: `must be on ${site.domain} or one of its subdomains` }]);
  }
}

/** The edge's location of the client: country from CF-IPCountry (or cf.country), region and city from `cf`. */
function locationOf(c: Context<AppEnv>): { country: string; region: string; city: string } {
  const cf = (c.req.raw as { cf?: { country?: unknown; region?: unknown; city?: unknown } }).cf;
  const country = (c.req.header("cf-ipcountry") ?? (typeof cf?.country === "string" ? cf.country : "")).toUpperCase();
  const text = (value: unknown) => (typeof value === "string" ? value.trim().slice(0, 128) : "");
  return { country: /^[A-Z]{2}$/.test(country) && country !== "XX" && country !== "T1" ? country : "", region: text(cf?.region), city: text(cf?.city) };
}

/** Events per site and minute, and the loose per-IP ceiling (the manifest's collector limit). */
export const SITE_EVENTS_PER_MINUTE = 10_000;

const collect = defineRoute(access.public, {
  method: "post",
  path: "/analytics/collect",
  operationId: "collectEvent",
  tags,
  summary: "Record a pageview or an event from a web page (what the tracker script sends)",
  description:
    "Public, cookie-less, CORS *, counted per client IP at 600 a minute. Validates the event and queues it: 202 means accepted, not yet counted. A bot's user agent is accepted and dropped. No IP address or user agent is stored: the visitor id is a hash with a daily salt.",
  request: {
    body: {
      required: true,
      content: {
        "application/json": { schema: CollectBody },
        "text/plain": {
          schema: z
            .string()
            .openapi({ description: "The same JSON object sent as text/plain (no CORS preflight), as the tracker and navigator.sendBeacon do" }),
        },
      },
    },
  },
  responses: { 202: jsonContent(z.object({ success: z.literal(true) }), "Accepted") },
  errors: ["not_found", "package_disabled"],
});

const serverEvent = defineRoute(access.write("analytics"), {
  method: "post",
  path: "/analytics/events",
  operationId: "sendServerEvent",
  tags,
  summary: "Record an event from your server (a purchase confirmed by your backend)",
  description:
    "Like /analytics/collect, with your own visitor id (the same id links a visitor's events across days) and an optional timestamp up to 24 hours old.",
  request: { body: jsonBodyOf(ServerEventBody) },
  responses: { 202: jsonContent(z.object({ success: z.literal(true) }), "Accepted") },
  errors: ["not_found"],
});

const script = defineRoute(access.public, {
  method: "get",
  path: "/analytics/script.js",
  operationId: "getTrackerScript",
  tags,
  summary: "The tracker script for your pages (about 1 KB gzipped; never rate-limited)",
  description:
    "Load it in your pages with a deferred script element whose `src` is `{base_url}/api/v1/analytics/script.js` and whose `data-site` attribute is your site's `site_key`. It sends a pageview on load and on history changes, and exposes `window.bpa(name, {props, revenue})`.",
  responses: { 200: { description: "JavaScript", content: { "text/javascript": { schema: z.string() } } } },
});

/**
 * The tracker, served like a static asset: never rate-limited (a manifest static router), cached for a day
 * and revalidated by ETag. `npm run dev` and deploys also write it to public/ (scripts/build-assets.mjs), so
 * Cloudflare serves it before the worker runs; this route answers where the asset is absent (tests).
 */
export const trackerRoutes = newRouter().openapi(script, async (c) => {
  const tag = await platformOf(c).isolate.get("analytics.script-etag", async () => `"${(await sha256Hex(TRACKER_SCRIPT)).slice(0, 32)}"`);
  const headers = {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": "public, max-age=86400, stale-while-revalidate=604800",
    "access-control-allow-origin": "*",
    etag: tag,
  };
  if (c.req.header("if-none-match")?.includes(tag)) return c.body(null, 304, headers) as never;
  return c.body(TRACKER_SCRIPT, 200, headers);
});

export const collectRoutes = newRouter()
  .openapi(collect, async (c) => {
    // A text/plain body reaches the validator as JSON (the platform's body reader converts it).
    const { site: key, ...input } = c.req.valid("json") as z.infer<typeof CollectBody>;
    const now = clock.now();
    const platform = platformOf(c);
    const { site, collecting } = await siteByKey(c.env, platform, key, now);
    if (!site) throw ApiError.notFound("site");
    if (!collecting) throw packageDisabled("analytics");
    checkUrl(site, input.url);
    const userAgent = c.req.header("user-agent") ?? "";
    const agent = userAgent ? agentOf(platform.isolate, userAgent) : null;
    if (!agent || agent.bot) return c.json({ success: true as const }, 202);
    // The site's own budget (the per-IP ceiling was counted by the platform before the body was read).
    const decision = await durableLimiter(c.env.RATE_LIMITER, platform.isolate)
      .check(`site:${site.id}`, SITE_EVENTS_PER_MINUTE, now, true)
      .catch(() => null);
    if (decision && !decision.allowed) throw rateLimited(decision, "collector", now);
    const ip = c.req.header("cf-connecting-ip") ?? "";
    const ids = await browserVisitor(acrossWorkspaces(c.env, "analytics"), saltCache(platform.isolate), site.id, ip, userAgent, now);
    const { bot: _bot, ...traits } = agent;
    senderOf(platform.isolate).sendSoon(
      c.executionCtx as ExecutionContext,
      c.env.ANALYTICS_QUEUE,
      eventOf(site, input, { kind: "browser", ...ids, ...locationOf(c), ...traits, ts: now }),
    );
    return c.json({ success: true as const }, 202);
  })
  .openapi(serverEvent, async (c) => {
    const input = c.req.valid("json");
    const now = clock.now();
    const { site } = await siteByKey(c.env, platformOf(c), input.site, now);
    const workspaceId = principalOf(c).workspace.id;
    if (!site || site.workspaceId !== workspaceId) throw ApiError.notFound("site");
    checkUrl(site, input.url);
    const ts = input.timestamp ? Date.parse(input.timestamp) : now;
    if (ts > now + 60_000) throw ApiError.validation([{ path: "timestamp", message: "must not be in the future" }]);
    if (ts < now - 24 * 3_600_000) throw ApiError.validation([{ path: "timestamp", message: "must be at most 24 hours old" }]);
    const { visitor: own, timestamp: _timestamp, site: _site, ...rest } = input;
    // The caller's id, hashed with a key of the workspace: a leaked table does not give the ids back.
    const visitor = await configOf(c.env).clientKey.hex(["analytics-visitor", workspaceId, site.id, own], 16);
    const event = eventOf(site, rest, { kind: "server", visitor, country: "", region: "", city: "", device: "", ts });
    // A backend's event is on the queue before the 202 (its caller may rely on it).
    await c.env.ANALYTICS_QUEUE.send({ v: 1, events: [event] } satisfies AnalyticsMessageInput, { contentType: "json" });
    return c.json({ success: true as const }, 202);
  });

/** The caller's workspace on the analytics database: every analytics query goes through it. */
export const analyticsTenant = (c: Context<AppEnv>): Tenant => analyticsOf(c);

/** The site of the caller's workspace, or 404 (another workspace's site looks exactly like a missing one). */
export async function siteOf(tenant: Tenant, id: number): Promise<Site> {
  const site = await tenant.select(sites, eq(sites.id, id)).get();
  if (!site) throw ApiError.notFound("site");
  return site;
}
