import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import type { AnalyticsEventInput, AnalyticsMessageInput } from "../src/packages/analytics/message";
import { configOf } from "../src/platform/config";
import { ipKey } from "../src/platform/rate-limit/limiter";
import { clock } from "../src/platform/time";
import { call, env, expectError, freshIp, setPlan, signup, userWithRole, type Workspace } from "./helpers";

const realNow = clock.now;
let now = Date.UTC(2026, 5, 10, 10, 0);
beforeEach(() => {
  now = Date.UTC(2026, 5, 10, 10, 0);
  clock.now = () => now;
});
afterEach(() => {
  clock.now = realNow;
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (hh: number, mm = 0, day = 10) => Date.UTC(2026, 5, day, hh, mm);

const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

type Site = { id: number; domain: string; site_key: string; created_at: string };

async function addSite(ws: Workspace, domain = "shop.example.com"): Promise<Site> {
  const res = await call("POST", "/analytics/sites", { token: ws.token, body: { domain } });
  expect(res.status, res.text).toBe(201);
  return res.json.data;
}

async function workspace() {
  const ws = await signup("Shop Co");
  await setPlan(ws, "enterprise");
  return ws;
}

type Hit = {
  name?: string;
  path?: string;
  url?: string;
  referrer?: string;
  props?: unknown;
  revenue?: unknown;
  ip?: string;
  ua?: string;
  country?: string;
  time?: number;
  contentType?: string;
};

/** What the tracker sends, from one browser (IP + user agent) at a time on the test clock. */
function collect(site: Site, hit: Hit = {}) {
  if (hit.time !== undefined) now = hit.time;
  const body = {
    site: site.site_key,
    name: hit.name ?? "pageview",
    url: hit.url ?? `https://${site.domain}${hit.path ?? "/"}`,
    ...(hit.referrer !== undefined ? { referrer: hit.referrer } : {}),
    ...(hit.props !== undefined ? { props: hit.props } : {}),
    ...(hit.revenue !== undefined ? { revenue: hit.revenue } : {}),
  };
  const headers: Record<string, string> = { "user-agent": hit.ua ?? DESKTOP };
  if (hit.country) headers["cf-ipcountry"] = hit.country;
  if (hit.contentType) headers["content-type"] = hit.contentType;
  return call("POST", "/analytics/collect", { body, ip: hit.ip ?? "203.0.113.1", headers });
}

const eventCount = async (siteId: number) =>
  (await env.ANALYTICS_DB.prepare("SELECT count(*) AS n FROM analytics_events WHERE site_id = ?").bind(siteId).first<{ n: number }>())!.n;

/** Waits until the analytics queue's consumer (the real one) has written `n` events of the site. */
async function landed(siteId: number, n: number) {
  await vi.waitUntil(async () => (await eventCount(siteId)) >= n, { timeout: 10_000, interval: 20 });
  expect(await eventCount(siteId)).toBe(n);
}

/** Sends events one after another, each written before the next is sent (so visits are decided in order). */
async function sequence(site: Site, hits: Hit[]) {
  for (const hit of hits) {
    const before = await eventCount(site.id);
    const res = await collect(site, hit);
    expect(res.status, res.text).toBe(202);
    await landed(site.id, before + 1);
  }
}

const rows = async (db: D1Database, query: string, ...values: unknown[]) =>
  (
    await db
      .prepare(query)
      .bind(...values)
      .all<Record<string, any>>()
  ).results;

async function get(ws: Workspace | string, path: string) {
  const res = await call("GET", path, { token: typeof ws === "string" ? ws : ws.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

async function runCron(time: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: time }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("sites", () => {
  it("are added by admins with a public key, read by members, and invisible to other workspaces", async () => {
    const ws = await workspace();
    const created = await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "https://www.Shop.Example.com/landing" } });
    expect(created.status, created.text).toBe(201);
    const site = created.json.data as Site;
    expect(site).toMatchObject({ domain: "shop.example.com" });
    expect(site.site_key).toMatch(/^site_[0-9A-Za-z]{16,22}$/);
    expect(Date.parse(site.created_at)).not.toBeNaN();

    expectError(await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "not a domain" } }), 400, "validation_error");
    expectError(await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "shop.example.com", extra: 1 } }), 400, "validation_error");
    const member = await userWithRole(ws, "member");
    const viewer = await userWithRole(ws, "viewer");
    const admin = await userWithRole(ws, "admin");
    expectError(await call("POST", "/analytics/sites", { token: member, body: { domain: "blog.example.com" } }), 403, "forbidden");
    expect((await call("POST", "/analytics/sites", { token: admin, body: { domain: "blog.example.com" } })).status).toBe(201);
    expect((await get(member, "/analytics/sites")).map((s: Site) => s.domain)).toEqual(["shop.example.com", "blog.example.com"]);
    expect(await get(member, `/analytics/sites/${site.id}`)).toEqual(site);
    const denied = expectError(await call("GET", "/analytics/sites", { token: viewer }), 403, "forbidden");
    expect(denied.message).toMatch(/member or above/);

    const other = await workspace();
    expect(await get(other, "/analytics/sites")).toEqual([]);
    for (const path of [
      `/analytics/sites/${site.id}`,
      `/analytics/sites/${site.id}/stats`,
      `/analytics/sites/${site.id}/timeseries`,
      `/analytics/sites/${site.id}/breakdown?property=page`,
      `/analytics/sites/${site.id}/funnels`,
      `/analytics/sites/${site.id}/funnels/checkout`,
      `/analytics/sites/${site.id}/funnels/checkout/report`,
    ]) {
      expectError(await call("GET", path, { token: other.token }), 404, "not_found");
    }
    expectError(await call("DELETE", `/analytics/sites/${site.id}`, { token: other.token }), 404, "not_found");
    expectError(
      await call("POST", `/analytics/sites/${site.id}/funnels`, {
        token: other.token,
        body: {
          name: "x",
          steps: [
            { type: "page", value: "/" },
            { type: "page", value: "/a" },
          ],
        },
      }),
      404,
      "not_found",
    );
    // A server-side event with another workspace's site key is refused too.
    expectError(
      await call("POST", "/analytics/events", {
        token: other.token,
        body: { site: site.site_key, name: "purchase", url: "https://shop.example.com/", visitor: "u1" },
      }),
      404,
      "not_found",
    );
    expect((await get(ws, `/analytics/sites/${site.id}`)).id).toBe(site.id);
  });
});

describe("the collector", () => {
  it("refuses only an unknown site, a foreign host or an unreadable body, in the error shape, writing nothing for them", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const bad: [Hit, string][] = [
      [{ url: "https://evil.example.com/" }, "url"],
      [{ url: "https://evilshop.example.com/" }, "url"],
      [{ url: "ftp://shop.example.com/" }, "url"],
      [{ url: "/relative" }, "url"],
      [{ name: " ¿? " }, "name"],
      [{ revenue: { amount: 100, currency: "ZZZ" } }, "revenue.currency"],
      [{ revenue: { amount: -1, currency: "USD" } }, "revenue.amount"],
      [{ revenue: { amount: "12,50", currency: "EUR" } }, "revenue.amount"],
    ];
    for (const [hit, path] of bad) {
      const error = expectError(await collect(site, hit), 400, "validation_error");
      expect(
        error.details.map((d: { path: string }) => d.path),
        JSON.stringify(hit),
      ).toContain(path);
    }
    expectError(
      await call("POST", "/analytics/collect", { body: { site: "site_unknown", name: "pageview", url: "https://shop.example.com/" } }),
      404,
      "not_found",
    );
    expectError(await call("POST", "/analytics/collect", { body: "{not json", headers: { "content-type": "text/plain" } }), 400, "invalid_json");

    // Subdomains are the site; text/plain (sendBeacon, no CORS preflight) is JSON too; a bot is accepted and dropped.
    const accepted = await collect(site, { url: "https://www.shop.example.com/a", contentType: "text/plain;charset=UTF-8" });
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.json).toEqual({ success: true });
    expect(accepted.headers.get("access-control-allow-origin")).toBe("*");
    expect(accepted.headers.get("access-control-allow-credentials")).toBeNull();
    expect((await collect(site, { ua: GOOGLEBOT, path: "/bot" })).status).toBe(202);
    expect((await collect(site, { ua: "", path: "/no-agent" })).status).toBe(202);
    expect((await collect(site, { path: "/b", props: { plan: "pro", seats: 3 }, revenue: { amount: 4900, currency: "EUR" }, name: "purchase" })).status).toBe(
      202,
    );
    await landed(site.id, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await rows(
      env.ANALYTICS_DB,
      "SELECT name, path, props, revenue_amount, revenue_currency FROM analytics_events WHERE site_id = ? ORDER BY id",
      site.id,
    );
    expect(stored).toEqual([
      { name: "pageview", path: "/a", props: null, revenue_amount: null, revenue_currency: null },
      { name: "purchase", path: "/b", props: JSON.stringify({ plan: "pro", seats: 3 }), revenue_amount: 4900, revenue_currency: "EUR" },
    ]);

    const preflight = await call("OPTIONS", "/analytics/collect", { headers: { origin: "https://shop.example.com", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    // Only the collector takes text/plain: everywhere else it is 415.
    expectError(
      await call("POST", "/contacts", { token: ws.token, body: JSON.stringify({ name: "x" }), headers: { "content-type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
  });

  it("normalises what a page sends instead of refusing it: names, revenue in major units, over-long and extra properties", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const props = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, i]));
    const hits: Hit[] = [
      { name: "  Add To Cart ", path: "/p1", revenue: { amount: 10.5, currency: "usd" } },
      { name: "purchase", path: "/p2", revenue: { amount: "49.99", currency: "EUR" } },
      { name: "purchase", path: "/p3", revenue: { amount: "500", currency: "JPY" } },
      { name: "purchase", path: "/p4", revenue: { amount: 4900, currency: "EUR" } },
      { name: "Sign Up!", path: "/p5", props: { plan: "p".repeat(250), nested: { a: 1 }, flag: true, empty: null } },
      { name: "big", path: "/p6", props },
      { url: `https://shop.example.com/p7?${"q".repeat(3000)}` },
    ];
    for (const hit of hits) expect((await collect(site, hit)).status, JSON.stringify(hit)).toBe(202);
    await landed(site.id, hits.length);
    const stored = await rows(
      env.ANALYTICS_DB,
      "SELECT name, path, props, revenue_amount AS amount, revenue_currency AS currency FROM analytics_events WHERE site_id = ? ORDER BY path",
      site.id,
    );
    expect(stored.map((row) => [row.name, row.amount, row.currency])).toEqual([
      ["add_to_cart", 1050, "USD"],
      ["purchase", 4999, "EUR"],
      ["purchase", 500, "JPY"],
      ["purchase", 4900, "EUR"],
      ["sign_up", null, null],
      ["big", null, null],
      ["pageview", null, null],
    ]);
    expect(JSON.parse(stored[4]!.props)).toEqual({ plan: "p".repeat(200), flag: "true" });
    expect(Object.keys(JSON.parse(stored[5]!.props))).toEqual(Array.from({ length: 30 }, (_, i) => `k${i}`));
    // Revenue counts on purchases only: the add_to_cart's is stored, never summed.
    now = at(23);
    expect((await get(ws, `/analytics/sites/${site.id}/stats?from=2026-06-10&to=2026-06-10`)).revenue).toEqual({ EUR: 9899, JPY: 500 });
  });

  it("counts each site at 10,000 events a minute and each client IP under a loose 3,000, by a keyed name the limiter forgets", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const batch = await Promise.all(
        Array.from({ length: i === 30 ? 30 : 100 }, () => call("POST", "/analytics/collect", { body: { site: site.site_key }, ip })),
      );
      statuses.push(...batch.map((res) => res.status));
    }
    // The object counts 3,000; the isolate admits a client's first 30 of the minute on its own (a loose ceiling).
    expect(statuses.filter((status) => status === 400)).toHaveLength(3030);
    const over = await call("POST", "/analytics/collect", { body: { site: site.site_key }, ip });
    expectError(over, 429, "rate_limited");
    expect(over.headers.get("x-ratelimit-limit")).toBe("3000");
    expect((await collect(site, { ip: freshIp() })).status).toBe(202);

    // The limiter object of that IP is named by a keyed hash (never the IP) and deletes its counter after the window.
    const name = await ipKey(configOf(env).clientKey, ip, now, "/api/v1/analytics/collect");
    expect(name).toMatch(/^ip:[0-9a-f]{32}$/);
    expect(name).not.toContain(ip);
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
    expect(await runInDurableObject(stub, (_, state) => state.storage.kv.get("counter"))).toBeTruthy();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (_, state) => [...state.storage.kv.list()].length)).toBe(0);

    // A site over its budget is refused whoever sends (its counter filled through the real binding).
    const busy = await addSite(ws, "busy.example.com");
    const siteCounter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`site:${busy.id}`));
    await siteCounter.take(10_000, now, true, 10_000);
    const refused = await collect(busy, { ip: freshIp() });
    expectError(refused, 429, "rate_limited");
    expect(refused.headers.get("ratelimit-policy")).toBe('"collector";q=10000;w=60');
  }, 60_000);

  it("serves the tracker like a static asset: never rate-limited, cached, revalidated by ETag, about 1 KB gzipped", async () => {
    const ip = freshIp();
    const loads = await Promise.all(Array.from({ length: 80 }, () => call("GET", "/analytics/script.js", { ip })));
    expect(loads.map((res) => res.status)).toEqual(Array(80).fill(200));
    const res = loads[0]!;
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    const tag = res.headers.get("etag")!;
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await call("GET", "/analytics/script.js", { ip, headers: { "if-none-match": tag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(res.text).toContain("currentScript");
    expect(res.text).toContain("keepalive");
    expect(res.text).toContain("sendBeacon");
    const gzipped = await new Response(new Blob([res.text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    expect(gzipped.byteLength).toBeLessThanOrEqual(2048);
  });
});

describe("visitors, without cookies and without keeping who they are", () => {
  it("hashes a browser to one visitor per day, a new one the next day, and stores no IP or user agent anywhere", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const ip = "198.18.7.42";
    await sequence(site, [
      { ip, ua: DESKTOP, time: at(10, 0), path: "/" },
      { ip, ua: DESKTOP, time: at(10, 5), path: "/pricing" },
      { ip, ua: FIREFOX, time: at(10, 6), path: "/" },
      { ip, ua: DESKTOP, time: at(10, 0, 11), path: "/" },
    ]);
    const events = await rows(env.ANALYTICS_DB, "SELECT visitor, ts FROM analytics_events WHERE site_id = ? ORDER BY ts", site.id);
    const [first, second, firefox, nextDay] = events.map((row) => row.visitor as string);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(second).toBe(first);
    expect(firefox).not.toBe(first);
    expect(nextDay).not.toBe(first);
    expect(await rows(env.ANALYTICS_DB, "SELECT day, visitor, source FROM analytics_visitor_days WHERE site_id = ? ORDER BY day, visitor", site.id)).toEqual(
      [
        { day: "2026-06-10", visitor: first, source: "browser" },
        { day: "2026-06-10", visitor: firefox, source: "browser" },
        { day: "2026-06-11", visitor: nextDay, source: "browser" },
      ].sort((a, b) => a.day.localeCompare(b.day) || a.visitor!.localeCompare(b.visitor!)),
    );
    now = at(12, 0, 11);
    expect((await get(ws, `/analytics/sites/${site.id}/stats?period=7d`)).visitors).toBe(3);

    // Nothing that identifies the client is kept: no table of either database holds the IP or the user agent.
    for (const db of [env.ANALYTICS_DB, env.DB]) {
      const tables = await rows(
        db,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
      );
      for (const { name } of tables) {
        const dump = JSON.stringify(await rows(db, `SELECT * FROM "${name}"`));
        expect(dump, name).not.toContain(ip);
        expect(dump, name).not.toContain("Chrome/131");
        expect(dump, name).not.toContain("Firefox/133");
      }
    }
  });

  it("creates the day's salt on first use and deletes it 48 hours after the day began (the cron)", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    await sequence(site, [{ time: at(9, 0, 20) }]);
    const days = async () =>
      (await rows(env.ANALYTICS_DB, "SELECT day FROM analytics_salts WHERE day >= '2026-06-19' AND day <= '2026-06-23' ORDER BY day")).map((row) => row.day);
    expect(await days()).toContain("2026-06-20");
    await runCron(Date.UTC(2026, 5, 21, 23, 59));
    expect(await days()).toEqual(["2026-06-20", "2026-06-21"]);
    await runCron(Date.UTC(2026, 5, 22, 0, 0));
    expect(await days()).toEqual(["2026-06-21", "2026-06-22"]);
  });

  it("continues a visit across midnight under yesterday's id", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    await sequence(site, [
      { time: Date.UTC(2026, 5, 14, 23, 50), path: "/" },
      { time: Date.UTC(2026, 5, 15, 0, 5), path: "/pricing" },
    ]);
    const visits = await rows(env.ANALYTICS_DB, "SELECT day, pageviews, events, started_at, last_at FROM analytics_visits WHERE site_id = ?", site.id);
    expect(visits).toEqual([{ day: "2026-06-14", pageviews: 2, events: 2, started_at: Date.UTC(2026, 5, 14, 23, 50), last_at: Date.UTC(2026, 5, 15, 0, 5) }]);
    now = Date.UTC(2026, 5, 15, 12);
    expect(await get(ws, `/analytics/sites/${site.id}/stats?period=7d`)).toMatchObject({
      visitors: 2,
      visits: 1,
      pageviews: 2,
      bounce_rate: 0,
      visit_duration_seconds: 900,
    });
  });
});

describe("stats, series and breakdowns", () => {
  /**
   * One day of a small site, every number known by hand:
   * A (desktop, DE, from news.ycombinator.com): / 10:00, /pricing?plan=pro 10:10, signup 10:12 — one visit of 12 min;
   * B (iPhone, US): /pricing 10:05 — a bounce;
   * C (desktop, DE, from google): /blog/x 10:00 and / 10:45 — two visits (45 min apart), two bounces;
   * D (desktop, no country): purchase 11:00 with 4,900 USD and no pageview — one visit, not a bounce.
   */
  async function knownDay() {
    const ws = await workspace();
    const site = await addSite(ws);
    const A = { ip: "192.0.2.1", ua: DESKTOP, country: "DE" };
    const B = { ip: "192.0.2.2", ua: IPHONE, country: "US" };
    const C = { ip: "192.0.2.3", ua: DESKTOP, country: "de" };
    const D = { ip: "192.0.2.4", ua: DESKTOP };
    await sequence(site, [
      { ...A, time: at(10, 0), path: "/", referrer: "https://news.ycombinator.com/item?id=1" },
      { ...C, time: at(10, 0), path: "/blog/x", referrer: "https://www.google.com/" },
      { ...B, time: at(10, 5), path: "/pricing" },
      { ...A, time: at(10, 10), path: "/pricing?plan=pro", referrer: "https://news.ycombinator.com/item?id=1" },
      { ...A, time: at(10, 12), path: "/pricing?plan=pro", name: "signup", props: { plan: "pro" } },
      // C's second visit came from the site itself: a direct visit.
      { ...C, time: at(10, 45), path: "/", referrer: "https://shop.example.com/blog/x" },
      { ...D, time: at(11, 0), path: "/checkout/done", name: "purchase", revenue: { amount: 4900, currency: "USD" } },
    ]);
    now = at(18, 0);
    return { ws, site };
  }

  it("computes every stats field from the rollups, as counted by hand", async () => {
    const { ws, site } = await knownDay();
    const stats = await get(ws, `/analytics/sites/${site.id}/stats?period=7d`);
    expect(stats).toEqual({
      visitors: 4,
      visits: 5,
      pageviews: 5,
      events: 7,
      bounce_rate: 60,
      visit_duration_seconds: 144,
      revenue: { USD: 4900 },
      goals: [],
    });
    expect(await get(ws, `/analytics/sites/${site.id}/stats?from=2026-06-10&to=2026-06-10`)).toEqual(stats);
    expect(await get(ws, `/analytics/sites/${site.id}/stats?from=2026-06-11&to=2026-06-12`)).toEqual({
      visitors: 0,
      visits: 0,
      pageviews: 0,
      events: 0,
      bounce_rate: null,
      visit_duration_seconds: null,
      revenue: {},
      goals: [],
    });
    for (const query of [
      "period=2w",
      "from=2026-06-10",
      "from=2026-06-12&to=2026-06-10",
      "period=7d&from=2026-06-10&to=2026-06-11",
      "from=2025-01-01&to=2026-06-10",
      "from=2026-13-01&to=2026-13-02",
    ]) {
      expectError(await call("GET", `/analytics/sites/${site.id}/stats?${query}`, { token: ws.token }), 400, "validation_error");
    }
  });

  it("breaks visitors, visits, pageviews, events and bounce rate down by page, referrer (the visit's), country, device and event", async () => {
    const { ws, site } = await knownDay();
    const breakdown = async (property: string, limit = "") =>
      (await get(ws, `/analytics/sites/${site.id}/breakdown?period=7d&property=${property}${limit}`)).items;
    const item = (value: string, visitors: number, visits: number, pageviews: number, events: number, bounce_rate: number | null) => ({
      value,
      visitors,
      visits,
      pageviews,
      events,
      bounce_rate,
      conversion_rate: null,
    });
    // Visits: A (/, /pricing, signup; from HN), B (/pricing, bounced), C (/blog/x from Google, bounced; then / direct,
    // bounced), D (a purchase, no pageview).
    expect(await breakdown("page")).toEqual([item("/", 2, 2, 2, 2, 50), item("/pricing", 2, 2, 2, 2, 50), item("/blog/x", 1, 1, 1, 1, 100)]);
    expect(await breakdown("page", "&limit=1")).toEqual([item("/", 2, 2, 2, 2, 50)]);
    expect(await breakdown("page", "&limit=1&page=3")).toEqual([item("/blog/x", 1, 1, 1, 1, 100)]);
    expect(await breakdown("referrer")).toEqual([
      item("Direct / None", 3, 3, 2, 3, 66.7),
      item("news.ycombinator.com", 1, 1, 2, 3, 0),
      item("google.com", 1, 1, 1, 1, 100),
    ]);
    expect(await breakdown("country")).toEqual([item("DE", 2, 3, 4, 5, 66.7), item("(unknown)", 1, 1, 0, 1, 0), item("US", 1, 1, 1, 1, 100)]);
    expect(await breakdown("device")).toEqual([item("desktop", 3, 4, 4, 6, 50), item("mobile", 1, 1, 1, 1, 100)]);
    expect(await breakdown("event")).toEqual([item("purchase", 1, 1, 0, 1, 0), item("signup", 1, 1, 0, 1, 0)]);
    for (const query of ["property=color", "property=page&limit=0", "property=page&limit=101", "property=page&limit=ten", "property=page&page=0", ""]) {
      expectError(await call("GET", `/analytics/sites/${site.id}/breakdown?period=7d&${query}`, { token: ws.token }), 400, "validation_error");
    }
  });

  it("gives every interval of a series, by hour, day or month, for each metric", async () => {
    const { ws, site } = await knownDay();
    const series = (query: string) => get(ws, `/analytics/sites/${site.id}/timeseries?${query}`);
    const days = await series("period=7d");
    expect(days.interval).toBe("day");
    expect(days.points.map((p: { date: string }) => p.date)).toEqual([
      "2026-06-04",
      "2026-06-05",
      "2026-06-06",
      "2026-06-07",
      "2026-06-08",
      "2026-06-09",
      "2026-06-10",
    ]);
    expect(days.points.map((p: { value: number }) => p.value)).toEqual([0, 0, 0, 0, 0, 0, 4]);
    expect((await series("period=7d&metric=pageviews")).points.at(-1).value).toBe(5);
    expect((await series("period=7d&metric=events")).points.at(-1).value).toBe(7);
    const revenue = await series("period=7d&metric=revenue");
    expect(revenue.points.map((p: { value: object }) => p.value)).toEqual([{}, {}, {}, {}, {}, {}, { USD: 4900 }]);

    const hours = await series("from=2026-06-10&to=2026-06-10&interval=hour&metric=events");
    expect(hours.points).toHaveLength(24);
    expect(hours.points[10]).toEqual({ date: "2026-06-10T10:00:00Z", value: 6 });
    expect(hours.points[11]).toEqual({ date: "2026-06-10T11:00:00Z", value: 1 });
    expect(hours.points.reduce((sum: number, p: { value: number }) => sum + p.value, 0)).toBe(7);
    const hourlyVisitors = await series("from=2026-06-10&to=2026-06-10&interval=hour");
    expect([hourlyVisitors.points[10].value, hourlyVisitors.points[11].value]).toEqual([3, 1]);
    expect((await series("from=2026-06-10&to=2026-06-10&interval=hour&metric=pageviews")).points[10].value).toBe(5);

    const months = await series("period=ytd");
    expect(months.interval).toBe("month");
    expect(months.points.map((p: { date: string }) => p.date)).toEqual(["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01", "2026-06-01"]);
    expect(months.points.at(-1).value).toBe(4);
    expectError(await call("GET", `/analytics/sites/${site.id}/timeseries?period=90d&interval=hour`, { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", `/analytics/sites/${site.id}/timeseries?period=7d&metric=sessions`, { token: ws.token }), 400, "validation_error");
  });
});

describe("server-side events", () => {
  it("take the caller's visitor id (the same person across days), a recent timestamp, and the analytics:write scope", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const token = async (scopes: string[]) =>
      (await call("POST", "/api-tokens", { token: ws.token, body: { name: "backend", scopes } })).json.data.token as string;
    const writer = await token(["analytics:write"]);
    const reader = await token(["analytics:read"]);
    const send = (body: Record<string, unknown>, as = writer) =>
      call("POST", "/analytics/events", {
        token: as,
        body: { site: site.site_key, name: "purchase", url: "https://shop.example.com/thanks", visitor: "customer-42", ...body },
      });

    const denied = expectError(await send({}, reader), 403, "forbidden");
    expect(denied.message).toMatch(/analytics:write/);
    expectError(await send({ timestamp: new Date(now + 5 * MIN).toISOString() }), 400, "validation_error");
    expectError(await send({ timestamp: new Date(now - 25 * HOUR).toISOString() }), 400, "validation_error");
    expectError(await send({ visitor: "" }), 400, "validation_error");
    expectError(await send({ visitor: "v".repeat(201) }), 400, "validation_error");
    expectError(await send({ url: "https://elsewhere.example.org/" }), 400, "validation_error");
    expectError(await send({ site: "site_nope" }), 404, "not_found");
    expectError(await call("POST", "/analytics/events", { body: { site: site.site_key } }), 401, "unauthorized");

    expect((await send({ timestamp: new Date(now - 23 * HOUR).toISOString(), revenue: { amount: 1999, currency: "USD" } })).status).toBe(202);
    await landed(site.id, 1);
    now += DAY;
    expect((await send({ revenue: { amount: 500, currency: "USD" } })).status).toBe(202);
    await landed(site.id, 2);
    expect((await send({ visitor: "customer-43", name: "signup" })).status).toBe(202);
    await landed(site.id, 3);

    const stored = await rows(env.ANALYTICS_DB, "SELECT visitor, country, device, ts FROM analytics_events WHERE site_id = ? ORDER BY id", site.id);
    expect(stored[0]!.visitor).toBe(stored[1]!.visitor);
    expect(stored[0]!.visitor).not.toBe(stored[2]!.visitor);
    expect(stored[0]!.ts).toBe(Date.UTC(2026, 5, 9, 11, 0));
    expect(JSON.stringify(stored)).not.toContain("customer-42");
    expect(await get(reader, `/analytics/sites/${site.id}/stats?period=7d`)).toMatchObject({ visitors: 2, events: 3, pageviews: 0, revenue: { USD: 2499 } });
  });
});

describe("funnels", () => {
  const step = (value: string, type: "page" | "event" = "event") => ({ type, value });

  it("are defined with 2–8 steps within a window; checkout is built in and cannot be deleted", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const path = `/analytics/sites/${site.id}/funnels`;
    const bad = [
      { name: "one", steps: [step("/a", "page")] },
      { name: "nine", steps: Array.from({ length: 9 }, (_, i) => step(`e${i}`)) },
      { name: "type", steps: [step("/a", "page"), { type: "click", value: "x" }] },
      { name: "path", steps: [step("pricing", "page"), step("/b", "page")] },
      { name: "event", steps: [step("/a", "page"), step("Bad Event")] },
      { name: "window", steps: [step("/a", "page"), step("/b", "page")], window_minutes: 0 },
      { name: "window", steps: [step("/a", "page"), step("/b", "page")], window_minutes: 10_081 },
      { steps: [step("/a", "page"), step("/b", "page")] },
    ];
    for (const body of bad) expectError(await call("POST", path, { token: ws.token, body }), 400, "validation_error");
    const created = await call("POST", path, {
      token: ws.token,
      body: { name: "Signup", steps: [step("/pricing", "page"), step("/signup/*", "page"), step("signup")], window_minutes: 30 },
    });
    expect(created.status, created.text).toBe(201);
    const funnel = created.json.data;
    expect(funnel).toMatchObject({ site_id: site.id, name: "Signup", window_minutes: 30, built_in: false });

    const list = await get(ws, path);
    expect(list.map((f: { id: unknown }) => f.id)).toEqual(["checkout", funnel.id]);
    expect(list[0]).toEqual({
      id: "checkout",
      site_id: site.id,
      name: "Checkout",
      steps: ["view_item", "add_to_cart", "begin_checkout", "add_payment_info", "purchase"].map((value) => step(value)),
      window_minutes: 1440,
      built_in: true,
    });
    expect(await get(ws, `${path}/${funnel.id}`)).toEqual(funnel);
    expectError(await call("DELETE", `${path}/checkout`, { token: ws.token }), 409, "conflict");
    const viewer = await userWithRole(ws, "viewer");
    expectError(await call("DELETE", `${path}/${funnel.id}`, { token: viewer }), 403, "forbidden");
    expect((await call("DELETE", `${path}/${funnel.id}`, { token: ws.token })).json.data).toEqual({ id: funnel.id, deleted: true });
    expectError(await call("GET", `${path}/${funnel.id}`, { token: ws.token }), 404, "not_found");
    expectError(await call("GET", `${path}/${funnel.id}/report`, { token: ws.token }), 404, "not_found");
    expectError(await call("GET", `${path}/not-a-funnel`, { token: ws.token }), 404, "not_found");
  });

  it("count a visitor at step k only after step k−1 and within the window of their step 1; revenue is the completers'", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const t0 = at(9, 0, 8);
    let expected = 0;
    const send = async (visitor: string, name: string, time: number, revenue?: { amount: number; currency: string }) => {
      now = time;
      const res = await call("POST", "/analytics/events", {
        token: ws.token,
        body: { site: site.site_key, name, url: "https://shop.example.com/shop", visitor, ...(revenue ? { revenue } : {}) },
      });
      expect(res.status, res.text).toBe(202);
      await landed(site.id, ++expected);
    };
    const all = ["view_item", "add_to_cart", "begin_checkout", "add_payment_info"];
    // v1 completes within minutes, with a purchase of 50.00.
    for (const [i, name] of all.entries()) await send("v1", name, t0 + i * MIN);
    await send("v1", "purchase", t0 + 4 * MIN, { amount: 5000, currency: "USD" });
    // v2 put something in the cart before viewing any item: step 2 came first, so only step 1 counts.
    await send("v2", "add_to_cart", t0);
    await send("v2", "view_item", t0 + MIN);
    await send("v2", "begin_checkout", t0 + 2 * MIN);
    // v3 came back to the cart 25 hours later: after the window.
    await send("v3", "view_item", t0);
    await send("v3", "add_to_cart", t0 + 25 * HOUR);
    // v4 paid two days later: reaches step 4 only, and its purchase is not the funnel's revenue.
    for (const [i, name] of all.entries()) await send("v4", name, t0 + i * MIN);
    await send("v4", "purchase", t0 + 2 * DAY, { amount: 7000, currency: "USD" });
    // v5 viewed twice and added to the cart.
    await send("v5", "view_item", t0);
    await send("v5", "view_item", t0 + MIN);
    await send("v5", "add_to_cart", t0 + 2 * MIN);

    now = at(12, 0, 11);
    const report = await get(ws, `/analytics/sites/${site.id}/funnels/checkout/report?period=7d`);
    expect(report).toEqual({
      steps: [
        { index: 1, label: "view_item", visitors: 5, conversion_rate: 100, dropoff_rate: null },
        { index: 2, label: "add_to_cart", visitors: 3, conversion_rate: 60, dropoff_rate: 40 },
        { index: 3, label: "begin_checkout", visitors: 2, conversion_rate: 40, dropoff_rate: 33.3 },
        { index: 4, label: "add_payment_info", visitors: 2, conversion_rate: 40, dropoff_rate: 0 },
        { index: 5, label: "purchase", visitors: 1, conversion_rate: 20, dropoff_rate: 50 },
      ],
      conversion_rate: 20,
      revenue: { USD: 5000 },
    });
    // A period without the starts counts nothing.
    expect((await get(ws, `/analytics/sites/${site.id}/funnels/checkout/report?from=2026-06-09&to=2026-06-11`)).steps[0].visitors).toBe(0);

    // The dashboard shows the same conversion, all sites together, and the visitors per day.
    const dashboard = await get(ws, "/dashboard?period=7d&widgets=analytics.checkout_conversion,analytics.visitors");
    expect(dashboard[0]).toMatchObject({ key: "analytics.visitors", kind: "series", unit: "count" });
    expect(dashboard[0].data.points.map((p: { value: number }) => p.value)).toEqual([0, 0, 0, 5, 1, 1, 0]);
    expect(dashboard[1]).toMatchObject({ key: "analytics.checkout_conversion", kind: "stat", unit: "percent", data: { value: 20 } });
  });

  it("match pages by exact path or * wildcard, in order, within the funnel's window", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    const created = await call("POST", `/analytics/sites/${site.id}/funnels`, {
      token: ws.token,
      body: { name: "Signup", steps: [step("/pricing", "page"), step("/signup/*", "page"), step("signup")], window_minutes: 30 },
    });
    const funnel = created.json.data;
    const visitor = (n: number) => ({ ip: `192.0.2.${n}` });
    await sequence(site, [
      { ...visitor(6), time: at(9, 0), path: "/pricing" },
      { ...visitor(6), time: at(9, 5), path: "/signup/step-1?ref=x" },
      { ...visitor(6), time: at(9, 6), path: "/signup/step-1", name: "signup" },
      { ...visitor(7), time: at(9, 0), path: "/signup/a" },
      { ...visitor(7), time: at(9, 1), path: "/pricing" },
      { ...visitor(8), time: at(9, 0), path: "/pricing" },
      { ...visitor(8), time: at(9, 29), path: "/pricing/more" },
      { ...visitor(8), time: at(9, 31), path: "/signup/late" },
    ]);
    now = at(12, 0);
    const report = await get(ws, `/analytics/sites/${site.id}/funnels/${funnel.id}/report?period=7d`);
    expect(report.steps.map((s: { label: string; visitors: number }) => [s.label, s.visitors])).toEqual([
      ["/pricing", 3],
      ["/signup/*", 1],
      ["signup", 1],
    ]);
    expect(report.conversion_rate).toBe(33.3);
    expect(report.revenue).toEqual({});
  });
});

describe("the queue", () => {
  const event = (site: Site & { workspace_id: number }, overrides: Partial<AnalyticsEventInput> = {}): AnalyticsEventInput => ({
    workspaceId: site.workspace_id,
    siteId: site.id,
    kind: "server",
    visitor: "00112233aabbccdd",
    name: "pageview",
    path: "/",
    referrer: "",
    country: "",
    device: "",
    ts: now,
    ...overrides,
  });
  const message = (...events: AnalyticsEventInput[]): AnalyticsMessageInput => ({ v: 1, events });

  it("sends a poison message to the dead-letter queue, where it is kept and logged, while the rest of the batch lands", async () => {
    const ws = await workspace();
    const site = { ...(await addSite(ws)), workspace_id: ws.workspaceId };
    const marker = `poison-${crypto.randomUUID()}`;
    await env.ANALYTICS_QUEUE.sendBatch([
      { body: { v: 99, marker } },
      { body: message(event(site)) },
      { body: message(event(site, { visitor: "ffeeddccbbaa9988" })) },
    ]);
    await landed(site.id, 2);
    await vi.waitUntil(async () => (await rows(env.ANALYTICS_DB, "SELECT id FROM analytics_dead_letters WHERE body LIKE ?", `%${marker}%`)).length === 1, {
      timeout: 10_000,
      interval: 20,
    });
  });

  it("writes a redelivered message once, and retries a whole batch whose write failed", async () => {
    const ws = await workspace();
    const site = { ...(await addSite(ws)), workspace_id: ws.workspaceId };
    const deliver = async (id: string, body: unknown, bindings: Partial<typeof env> = {}) => {
      const batch = createMessageBatch("analytics", [{ id, timestamp: new Date(), attempts: 1, body }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, { ...env, ...bindings } as typeof env);
      return getQueueResult(batch, ctx);
    };
    const id = `m-${crypto.randomUUID()}`;
    // One message carries the events an isolate gathered: each is written once, however often it comes.
    const two = message(event(site), event(site, { name: "signup", ts: now + 1000 }));
    expect((await deliver(id, two)).explicitAcks).toEqual([id]);
    expect((await deliver(id, two)).explicitAcks).toEqual([id]);
    expect(await eventCount(site.id)).toBe(2);
    expect(
      await rows(env.ANALYTICS_DB, "SELECT visitors, visits, pageviews, events, bounces, duration_ms FROM analytics_daily WHERE site_id = ?", site.id),
    ).toEqual([{ visitors: 1, visits: 1, pageviews: 1, events: 2, bounces: 0, duration_ms: 1000 }]);

    // The analytics database refuses the write (a fault injected around the real binding): nothing is acked.
    let batches = 0;
    const failingWrites = new Proxy(env.ANALYTICS_DB, {
      get(target, property) {
        // The first batch (the reads) goes through; the second (the writes) fails.
        if (property === "batch")
          return (statements: D1PreparedStatement[]) => (++batches === 2 ? Promise.reject(new Error("D1 is unavailable")) : target.batch(statements));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const other = `m-${crypto.randomUUID()}`;
    const failed = await deliver(other, message(event(site, { visitor: "0123456789abcdef" })), { ANALYTICS_DB: failingWrites });
    expect(failed.explicitAcks).toEqual([]);
    expect(failed.retryMessages.map((m) => m.msgId)).toEqual([other]);
    expect(batches).toBe(2);
    expect(await eventCount(site.id)).toBe(2);
  });
});

describe("retention and deletion", () => {
  it("deletes raw events after 400 days (the rollups stay) and a deleted site's rows in chunks", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    await sequence(site, [{ time: at(10, 0) }, { time: at(10, 1), ip: "192.0.2.77" }]);
    const cron = at(10, 0) + 401 * DAY;
    await env.ANALYTICS_DB.prepare(
      "INSERT INTO analytics_events (event_key, workspace_id, site_id, visitor, visit_id, name, path, referrer, country, device, ts) VALUES (?, ?, ?, 'aaaaaaaaaaaaaaaa', 'v', 'pageview', '/', '', '', '', ?)",
    )
      .bind(`recent-${crypto.randomUUID()}`, ws.workspaceId, site.id, cron - DAY)
      .run();
    await runCron(cron);
    expect(await rows(env.ANALYTICS_DB, "SELECT ts FROM analytics_events WHERE site_id = ?", site.id)).toEqual([{ ts: cron - DAY }]);
    expect(await rows(env.ANALYTICS_DB, "SELECT pageviews FROM analytics_daily WHERE site_id = ?", site.id)).toEqual([{ pageviews: 2 }]);
    expect(await rows(env.ANALYTICS_DB, "SELECT count(*) AS n FROM analytics_visits WHERE site_id = ?", site.id)).toEqual([{ n: 0 }]);

    // Deleting the site: gone at once from the API and the collector; its raw rows go with the cron.
    const other = await addSite(ws, "other.example.com");
    await sequence(other, [{ time: at(10, 0) }]);
    expect((await call("DELETE", `/analytics/sites/${other.id}`, { token: ws.token })).json.data).toEqual({ id: other.id, deleted: true });
    expectError(await call("GET", `/analytics/sites/${other.id}/stats`, { token: ws.token }), 404, "not_found");
    expectError(await collect(other, { time: at(10, 5) }), 404, "not_found");
    expectError(await call("DELETE", `/analytics/sites/${other.id}`, { token: ws.token }), 404, "not_found");
    expect(await rows(env.ANALYTICS_DB, "SELECT count(*) AS n FROM analytics_daily WHERE site_id = ?", other.id)).toEqual([{ n: 0 }]);
    await runCron(at(10, 10));
    await runCron(at(10, 11));
    for (const table of ["analytics_events", "analytics_visits", "analytics_visitor_days", "analytics_deleted_sites"]) {
      expect(await rows(env.ANALYTICS_DB, `SELECT count(*) AS n FROM ${table} WHERE site_id = ?`, other.id), table).toEqual([{ n: 0 }]);
    }
    expect(await eventCount(site.id)).toBe(1);
  });

  it("stops collecting while the package is disabled, and keeps the data", async () => {
    const ws = await workspace();
    const site = await addSite(ws);
    await sequence(site, [{ time: at(10, 0) }]);
    expect((await call("PUT", "/packages/analytics", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await call("GET", `/analytics/sites/${site.id}/stats`, { token: ws.token }), 403, "package_disabled");
    // The collector learns it within a minute (it keeps a site's state that long).
    expectError(await collect(site, { time: at(10, 2) }), 403, "package_disabled");
    expect((await get(ws, "/dashboard")).map((w: { key: string }) => w.key)).not.toContain("analytics.visitors");
    expect((await call("PUT", "/packages/analytics", { token: ws.token, body: { enabled: true } })).status).toBe(200);
    expect((await collect(site, { time: at(10, 4) })).status).toBe(202);
    now = at(12, 0);
    await landed(site.id, 2);
    expect((await get(ws, `/analytics/sites/${site.id}/stats?period=7d`)).pageviews).toBe(2);
  });
});
