import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import { packageDisabled, principalOf } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import type { AppEnv, Env } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import type { IsolateState } from "../../platform/isolate";
import { defineRoute, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { PackageSwitches } from "../../platform/package-state";
import type { PackageRegistry } from "../../platform/packages";
import { platformOf } from "../../platform/services";
import { acrossWorkspaces, analyticsOf, directoryFor, type Tenant } from "../../platform/tenancy";
import { clock } from "../../platform/time";
import { type AnalyticsEvent, type AnalyticsMessage, MAX_EVENT_REVENUE } from "./message";
import { sites } from "./schema";
import { TRACKER_SCRIPT } from "./script";
import { senderOf } from "./sender";
import { browserVisitor, saltCache, visitorId } from "./visitor";

const tags = ["Analytics"];
/** The reference's words for this file's tag (the manifest lists them). */
export const analyticsTags = {
  Analytics:
    "Self-hosted, cookie-less web analytics for the workspace's own sites: a tracker script, a public collector, server-side events, stats, breakdowns and checkout funnels. No cookies; no IP address or user agent is stored.",
};

const MAX_PROPS = 30;
const eventName = z
  .string()
  .refine((name) => name === "pageview" || /^[a-z0-9_.:-]{1,64}$/.test(name), "must be pageview or 1–64 of a-z, 0-9, _ . : -")
  .openapi({ example: "begin_checkout" });
const absoluteUrl = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL")
  .openapi({ example: "https://shop.example.com/products/42?ref=mail" });
const props = z
  .record(z.string().min(1).max(64), z.union([z.string().max(200, "must be at most 200 characters"), z.number().finite()]))
  .refine((value) => Object.keys(value).length <= MAX_PROPS, `must have at most ${MAX_PROPS} properties`)
  .openapi({ description: "Up to 30 properties: string (≤ 200 characters) or number values", example: { plan: "pro" } });
const revenue = z
  .strictObject({ amount: fields.amount().max(MAX_EVENT_REVENUE, `must be at most ${MAX_EVENT_REVENUE} minor units per event`), currency: fields.currency() })
  .openapi({ description: "Integer minor units and an ISO 4217 currency", example: { amount: 4900, currency: "USD" } });

const event = {
  name: eventName,
  url: absoluteUrl,
  referrer: z.string().max(2048).optional(),
  props: props.optional(),
  revenue: revenue.optional(),
};
const CollectBody = z.strictObject({ site: z.string().min(1).max(64).openapi({ example: "site_3kTZ…" }), ...event }).openapi("CollectEvent", {
  example: {
    site: "site_3kTZ…",
    name: "add_to_cart",
    url: "https://shop.example.com/products/42",
    referrer: "https://www.google.com/",
    props: { sku: "TEA-042" },
  },
});
const ServerEventBody = z
  .strictObject({
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

/** The referring host, or "" for none and for the site itself. */
function referrerHost(referrer: string | undefined, domain: string): string {
  if (!referrer) return "";
  try {
    const url = new URL(referrer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return "";
    return onSite(url, domain)
      ? ""
      : url.hostname
          .toLowerCase()
          .replace(/^www\./, "")
          .slice(0, 255);
  } catch {
    return "";
  }
}

/**
 * Whether a user agent is a bot (isbot's maintained list), and its device class (ua-parser-js). A browser
 * sends many events with one user agent: each agent is classified once per isolate.
 */
function agentOf(isolate: IsolateState, userAgent: string): { bot: boolean; device: string } {
  const agents = isolate.get("analytics.agents", () => new Map<string, { bot: boolean; device: string }>());
  let agent = agents.get(userAgent);
  if (!agent) {
    const type = new UAParser(userAgent).getDevice().type;
    agent = { bot: isbot(userAgent), device: type === "mobile" || type === "tablet" ? type : "desktop" };
    if (agents.size >= 2_000) agents.clear();
    agents.set(userAgent, agent);
  }
  return agent;
}

function eventOf(
  site: Site,
  input: z.infer<typeof CollectBody>,
  extra: Pick<AnalyticsEvent, "source" | "visitor" | "previousVisitor" | "country" | "device" | "ts">,
): AnalyticsEvent {
  const url = new URL(input.url);
  return {
    workspaceId: site.workspaceId,
    siteId: site.id,
    name: input.name,
    path: url.pathname || "/",
    referrer: referrerHost(input.referrer, site.domain),
    ...(input.props ? { props: input.props } : {}),
    ...(input.revenue ? { revenue: input.revenue } : {}),
    ...extra,
  };
}

function checkUrl(site: Site, url: string): void {
  if (!onSite(new URL(url), site.domain)) {
    throw ApiError.validation([{ path: "url", message: `must be on ${site.domain} or one of its subdomains` }]);
  }
}

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
  summary: "The tracker script for your pages (under 2 KB gzipped)",
  description:
    "Load it in your pages with a deferred script element whose `src` is `{base_url}/api/v1/analytics/script.js` and whose `data-site` attribute is your site's `site_key`. It sends a pageview on load and on history changes, and exposes `window.bpa(name, {props, revenue})`.",
  responses: { 200: { description: "JavaScript", content: { "text/javascript": { schema: z.string() } } } },
});

export const collectRoutes = newRouter()
  .openapi(script, (c) =>
    c.body(TRACKER_SCRIPT, 200, {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=86400, stale-while-revalidate=604800",
      "access-control-allow-origin": "*",
    }),
  )
  .openapi(collect, async (c) => {
    // A text/plain body reaches the validator as JSON (the platform's body reader converts it).
    const input = c.req.valid("json") as z.infer<typeof CollectBody>;
    const now = clock.now();
    const { site, collecting } = await siteByKey(c.env, platformOf(c), input.site, now);
    if (!site) throw ApiError.notFound("site");
    if (!collecting) throw packageDisabled("analytics");
    checkUrl(site, input.url);
    const userAgent = c.req.header("user-agent") ?? "";
    const agent = userAgent ? agentOf(platformOf(c).isolate, userAgent) : null;
    if (!agent || agent.bot) return c.json({ success: true as const }, 202);
    const ip = c.req.header("cf-connecting-ip") ?? "";
    const ids = await browserVisitor(acrossWorkspaces(c.env, "analytics"), saltCache(platformOf(c).isolate), site.id, ip, userAgent, now);
    const country = (c.req.header("cf-ipcountry") ?? "").toUpperCase();
    senderOf(platformOf(c).isolate).sendSoon(
      c.executionCtx as ExecutionContext,
      c.env.ANALYTICS_QUEUE,
      eventOf(site, input, {
        source: "browser",
        ...ids,
        country: /^[A-Z]{2}$/.test(country) && country !== "XX" ? country : "",
        device: agent.device,
        ts: now,
      }),
    );
    return c.json({ success: true as const }, 202);
  })
  .openapi(serverEvent, async (c) => {
    const input = c.req.valid("json");
    const now = clock.now();
    const { site } = await siteByKey(c.env, platformOf(c), input.site, now);
    if (!site || site.workspaceId !== principalOf(c).workspace.id) throw ApiError.notFound("site");
    checkUrl(site, input.url);
    const ts = input.timestamp ? Date.parse(input.timestamp) : now;
    if (ts > now + 60_000) throw ApiError.validation([{ path: "timestamp", message: "must not be in the future" }]);
    if (ts < now - 24 * 3_600_000) throw ApiError.validation([{ path: "timestamp", message: "must be at most 24 hours old" }]);
    const { visitor: own, timestamp: _timestamp, ...rest } = input;
    // A backend's event is on the queue before the 202 (its caller may rely on it).
    const event = eventOf(site, rest, { source: "server", visitor: await visitorId(site.id, own), country: "", device: "", ts });
    await c.env.ANALYTICS_QUEUE.send({ v: 1, events: [event] } satisfies AnalyticsMessage, { contentType: "json" });
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
