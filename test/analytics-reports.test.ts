import { exports } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "../src/platform/time";
import { call, env, expectError, setPlan, signup, userWithRole, type Workspace } from "./helpers";

// Goals, filters, comparison, realtime, export, shared links, attribution and the visitor's order, through the
// worker and the real queue consumer. (The blind ground-truth test is test/analytics-truth.test.ts.)

const realNow = clock.now;
let now = Date.UTC(2026, 5, 10, 10, 0);
beforeEach(() => {
  now = Date.UTC(2026, 5, 10, 10, 0);
  clock.now = () => now;
});
afterEach(() => {
  clock.now = realNow;
});
const at = (hh: number, mm = 0, day = 10) => Date.UTC(2026, 5, day, hh, mm);

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

type Site = { id: number; domain: string; site_key: string };
type Hit = { ip: string; ua?: string; time: number; path?: string; url?: string; name?: string; referrer?: string; load?: string; seq?: number } & Record<
  string,
  unknown
>;

async function setup(): Promise<{ ws: Workspace; site: Site }> {
  const ws = await signup("Reports Co");
  await setPlan(ws, "enterprise");
  const res = await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "shop.example.com" } });
  return { ws, site: res.json.data };
}

const eventCount = async (siteId: number) =>
  (await env.ANALYTICS_DB.prepare("SELECT count(*) AS n FROM analytics_events WHERE site_id = ?").bind(siteId).first<{ n: number }>())!.n;

/** Sends hits (each at its time) and waits for the consumer to have written them all. */
async function send(site: Site, hits: Hit[], options: { concurrent?: boolean } = {}) {
  const before = await eventCount(site.id);
  const one = (hit: Hit) => {
    const { ip, ua, time, path, url, cf, country, ...rest } = hit;
    now = time;
    return call("POST", "/analytics/collect", {
      ip,
      headers: { "user-agent": ua ?? CHROME, ...(country ? { "cf-ipcountry": String(country) } : {}) },
      ...(cf ? { cf: cf as Record<string, unknown> } : {}),
      body: { site: site.site_key, name: "pageview", url: url ?? `https://shop.example.com${path ?? "/"}`, ...rest },
    });
  };
  const results = options.concurrent ? await Promise.all(hits.map(one)) : [];
  if (!options.concurrent) for (const hit of hits) results.push(await one(hit));
  for (const res of results) expect(res.status, res.text).toBe(202);
  await vi.waitUntil(async () => (await eventCount(site.id)) >= before + hits.length, { timeout: 10_000, interval: 20 });
}

async function get(ws: Workspace | string, path: string) {
  const res = await call("GET", path, { token: typeof ws === "string" ? ws : ws.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

describe("bodies", () => {
  it("refuses an oversize collector body with 413, writing nothing", async () => {
    const { site } = await setup();
    const big = { site: site.site_key, name: "pageview", url: "https://shop.example.com/", props: { blob: "x".repeat(200_000) } };
    expectError(await call("POST", "/analytics/collect", { body: big, headers: { "user-agent": CHROME } }), 413, "payload_too_large");
    expect(await eventCount(site.id)).toBe(0);
  });
});

describe("the visitor's order", () => {
  it("counts a checkout fired in one click in the order the page fired it, however the requests arrive", async () => {
    const { ws, site } = await setup();
    const steps = ["view_item", "add_to_cart", "begin_checkout", "add_payment_info", "purchase"];
    // Five visitors, each firing all five steps in the same millisecond, sent in reverse order at once.
    for (let v = 0; v < 5; v++) {
      const ip = `198.51.100.${v + 1}`;
      const hits = steps.map((name, seq) => ({
        ip,
        time: at(10, v),
        name,
        load: `load${v}`,
        seq,
        ...(name === "purchase" ? { revenue: { amount: "19.99", currency: "EUR" } } : {}),
      }));
      await send(site, hits.reverse(), { concurrent: true });
    }
    now = at(12);
    const report = await get(ws, `/analytics/sites/${site.id}/funnels/checkout/report?from=2026-06-10&to=2026-06-10`);
    expect(report.steps.map((step: { visitors: number }) => step.visitors)).toEqual([5, 5, 5, 5, 5]);
    expect(report.conversion_rate).toBe(100);
    expect(report.revenue).toEqual({ EUR: 9995 });
    const ord = await env.ANALYTICS_DB.prepare(
      "SELECT name, ord FROM analytics_events WHERE site_id = ? AND visitor = (SELECT min(visitor) FROM analytics_events WHERE site_id = ?) ORDER BY ord",
    )
      .bind(site.id, site.id)
      .all<{ name: string }>();
    expect(ord.results.map((row) => row.name)).toEqual(steps);
  });
});

describe("attribution", () => {
  it("keeps UTM tags, source, channel, entry and exit pages on the visit; browser, OS, region and city on the events", async () => {
    const { ws, site } = await setup();
    await send(site, [
      {
        ip: "203.0.113.1",
        time: at(10),
        url: "https://shop.example.com/landing?utm_source=newsletter&utm_medium=email&utm_campaign=june",
        cf: { region: "Bavaria", city: "Munich" },
        country: "DE",
      },
      { ip: "203.0.113.1", time: at(10, 2), path: "/pricing", cf: { region: "Bavaria", city: "Munich" }, country: "DE" },
      { ip: "203.0.113.2", ua: IPHONE, time: at(10, 5), path: "/", referrer: "https://t.co/abc" },
      { ip: "203.0.113.3", time: at(10, 6), path: "/app#/settings", referrer: "https://www.google.com/search?q=shop" },
    ]);
    now = at(12);
    const visit = await env.ANALYTICS_DB.prepare(
      "SELECT entry_page, exit_page, source, channel, utm_source, utm_medium, utm_campaign FROM analytics_visits WHERE site_id = ? ORDER BY started_at",
    )
      .bind(site.id)
      .all();
    expect(visit.results).toEqual([
      {
        entry_page: "/landing",
        exit_page: "/pricing",
        source: "newsletter",
        channel: "Email",
        utm_source: "newsletter",
        utm_medium: "email",
        utm_campaign: "june",
      },
      { entry_page: "/", exit_page: "/", source: "Twitter", channel: "Organic Social", utm_source: "", utm_medium: "", utm_campaign: "" },
      {
        entry_page: "/app#/settings",
        exit_page: "/app#/settings",
        source: "Google",
        channel: "Organic Search",
        utm_source: "",
        utm_medium: "",
        utm_campaign: "",
      },
    ]);
    const events = await env.ANALYTICS_DB.prepare(
      "SELECT browser, browser_version, os, region, city, channel FROM analytics_events WHERE site_id = ? ORDER BY ts",
    )
      .bind(site.id)
      .all();
    expect(events.results[0]).toEqual({ browser: "Chrome", browser_version: "131", os: "Windows", region: "Bavaria", city: "Munich", channel: "Email" });
    expect(events.results[2]).toMatchObject({ browser: "Mobile Safari", os: "iOS", region: "", city: "" });
    const breakdown = async (property: string, filters = "") =>
      (
        await get(
          ws,
          `/analytics/sites/${site.id}/breakdown?from=2026-06-10&to=2026-06-10&property=${property}${filters ? `&filters=${encodeURIComponent(filters)}` : ""}`,
        )
      ).items.map((item: { value: string; visitors: number }) => [item.value, item.visitors]);
    expect(await breakdown("channel")).toEqual([
      ["Email", 1],
      ["Organic Search", 1],
      ["Organic Social", 1],
    ]);
    expect(await breakdown("utm_campaign")).toEqual([["june", 1]]);
    expect(await breakdown("city")).toEqual([
      ["(unknown)", 2],
      ["Munich", 1],
    ]);
    // Equal visitors: the visit with more events first (/landing → /pricing), then by value.
    expect(await breakdown("exit_page")).toEqual([
      ["/pricing", 1],
      ["/", 1],
      ["/app#/settings", 1],
    ]);
    expect(await breakdown("browser", "channel!=Email")).toEqual([
      ["Chrome", 1],
      ["Mobile Safari", 1],
    ]);
    expect(await breakdown("page", "entry_page==/landing")).toEqual([
      ["/landing", 1],
      ["/pricing", 1],
    ]);
  });
});

describe("goals, filters and comparison", () => {
  it("count goals with their conversion rates, sum revenue goals, filter every report, and compare periods", async () => {
    const { ws, site } = await setup();
    const member = await userWithRole(ws, "member");
    const viewer = await userWithRole(ws, "viewer");
    const goal = (body: unknown, token = member) => call("POST", `/analytics/sites/${site.id}/goals`, { token, body });
    const signupGoal = await goal({ type: "event", value: "signup" });
    expect(signupGoal.status, signupGoal.text).toBe(201);
    expect(signupGoal.json.data).toMatchObject({ type: "event", value: "signup", name: "signup", revenue: false });
    expect((await goal({ type: "page", value: "/thanks" })).status).toBe(201);
    expect((await goal({ type: "event", value: "donation", revenue: true })).status).toBe(201);
    expectError(await goal({ type: "event", value: "signup" }), 409, "conflict");
    expectError(await goal({ type: "page", value: "thanks" }), 400, "validation_error");
    expectError(await goal({ type: "event", value: "Sign Up" }), 400, "validation_error");
    expectError(await goal({ type: "event", value: "x" }, viewer), 403, "forbidden");

    // The day before: 2 visitors. The day: 4 visitors, 2 sign up, 1 reaches /thanks, 1 donates 5 EUR.
    await send(site, [
      { ip: "192.0.2.10", time: at(9, 0, 9), path: "/" },
      { ip: "192.0.2.11", time: at(9, 5, 9), path: "/" },
    ]);
    await send(site, [
      { ip: "192.0.2.1", time: at(10), path: "/", country: "DE" },
      { ip: "192.0.2.1", time: at(10, 1), name: "signup", path: "/", country: "DE" },
      { ip: "192.0.2.2", time: at(10, 2), path: "/", country: "DE" },
      { ip: "192.0.2.2", time: at(10, 3), name: "signup", path: "/", country: "DE" },
      { ip: "192.0.2.2", time: at(10, 4), path: "/thanks", country: "DE" },
      { ip: "192.0.2.3", time: at(10, 5), path: "/", country: "US" },
      { ip: "192.0.2.3", time: at(10, 6), name: "donation", path: "/", revenue: { amount: 500, currency: "EUR" }, country: "US" },
      { ip: "192.0.2.4", time: at(10, 7), path: "/pricing", country: "US", props: { plan: "pro" } },
    ]);
    now = at(12);
    const stats = await get(member, `/analytics/sites/${site.id}/stats?from=2026-06-10&to=2026-06-10&compare=previous_period`);
    expect(stats).toMatchObject({ visitors: 4, visits: 4, pageviews: 5, events: 8, revenue: { EUR: 500 } });
    expect(
      stats.goals.map((g: { name: string; uniques: number; total: number; conversion_rate: number }) => [g.name, g.uniques, g.total, g.conversion_rate]),
    ).toEqual([
      ["signup", 2, 2, 50],
      ["Visit /thanks", 1, 1, 25],
      ["donation", 1, 1, 25],
    ]);
    expect(stats.previous).toMatchObject({ visitors: 2, visits: 2, pageviews: 2, events: 2, revenue: {} });
    expect(stats.change).toMatchObject({ visitors: 100, visits: 100, pageviews: 150, events: 300, revenue: { EUR: null } });
    const lastYear = await get(member, `/analytics/sites/${site.id}/stats?from=2026-06-10&to=2026-06-10&compare=previous_year`);
    expect(lastYear.previous.visitors).toBe(0);
    expect(lastYear.change.visitors).toBeNull();

    const filtered = (filters: string, extra = "") =>
      get(member, `/analytics/sites/${site.id}/stats?from=2026-06-10&to=2026-06-10&filters=${encodeURIComponent(filters)}${extra}`);
    expect(await filtered("country==DE")).toMatchObject({ visitors: 2, visits: 2, pageviews: 3, events: 5 });
    expect(await filtered("country!=DE")).toMatchObject({ visitors: 2, events: 3, revenue: { EUR: 500 } });
    expect(await filtered("page~=PRIC")).toMatchObject({ visitors: 1, pageviews: 1 });
    expect(await filtered("goal==signup")).toMatchObject({ visitors: 2, events: 5 });
    expect(await filtered("prop:plan==pro")).toMatchObject({ visitors: 1 });
    expect(await filtered("country==DE;goal==signup")).toMatchObject({ visitors: 2 });
    const series = await get(
      member,
      `/analytics/sites/${site.id}/timeseries?from=2026-06-10&to=2026-06-10&filters=${encodeURIComponent("country==US")}&metric=events`,
    );
    expect(series.points).toEqual([{ date: "2026-06-10", value: 3 }]);
    const compared = await get(member, `/analytics/sites/${site.id}/timeseries?from=2026-06-10&to=2026-06-10&compare=previous_period`);
    expect(compared.previous.points).toEqual([{ date: "2026-06-09", value: 2 }]);
    expect(compared.change).toBe(100);

    const rows = (await get(member, `/analytics/sites/${site.id}/breakdown?from=2026-06-10&to=2026-06-10&property=country&filters=goal==signup`)).items;
    // With a goal filter a row counts its converters; the US visitors converted nobody, so no row.
    expect(rows.map((row: { value: string; visitors: number; conversion_rate: number }) => [row.value, row.visitors, row.conversion_rate])).toEqual([
      ["DE", 2, 100],
    ]);

    for (const [filters, message] of [
      ["colour==red", /colour/],
      ["country=DE", /operator/],
      ["country>>DE", /operator/],
      ["goal==nope", /nope/],
    ] as const) {
      const error = expectError(
        await call("GET", `/analytics/sites/${site.id}/stats?period=7d&filters=${encodeURIComponent(filters)}`, { token: member }),
        400,
        "validation_error",
      );
      expect(error.details[0].message, filters).toMatch(message);
    }
    expectError(await call("GET", `/analytics/sites/${site.id}/stats?period=7d&compare=last_week`, { token: member }), 400, "validation_error");

    const goals = await get(member, `/analytics/sites/${site.id}/goals`);
    expect(goals).toHaveLength(3);
    expect((await call("DELETE", `/analytics/sites/${site.id}/goals/${goals[2].id}`, { token: member })).status).toBe(200);
    expect((await get(member, `/analytics/sites/${site.id}/stats?from=2026-06-10&to=2026-06-10`)).revenue).toEqual({});
  });
});

describe("realtime, export and isolation", () => {
  it("gives the last five minutes, a ZIP of CSVs, and answers 404 for another workspace's site", async () => {
    const { ws, site } = await setup();
    await send(site, [
      { ip: "192.0.2.1", time: at(10), path: "/old" },
      { ip: "192.0.2.2", time: at(11, 57), path: "/now", referrer: "https://www.bing.com/" },
      { ip: "192.0.2.3", time: at(11, 58), path: "/now" },
    ]);
    now = at(12);
    expect(await get(ws, `/analytics/sites/${site.id}/realtime`)).toEqual({
      visitors: 2,
      pages: [{ value: "/now", visitors: 2 }],
      sources: [
        { value: "Direct / None", visitors: 1 },
        { value: "Bing", visitors: 1 },
      ],
    });

    const res = await call("GET", `/analytics/sites/${site.id}/export?from=2026-06-10&to=2026-06-10`, { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="shop\.example\.com-2026-06-10-2026-06-10\.zip"$/);
    const raw = await (
      await exports.default.fetch(
        new Request(`http://localhost/api/v1/analytics/sites/${site.id}/export?from=2026-06-10&to=2026-06-10`, {
          headers: { authorization: `Bearer ${ws.token}`, "cf-connecting-ip": "192.0.2.200" },
        }),
      )
    ).arrayBuffer();
    const files = unzipSync(new Uint8Array(raw));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "visitors.csv",
        "pages.csv",
        "sources.csv",
        "channels.csv",
        "countries.csv",
        "browsers.csv",
        "operating_systems.csv",
        "goals.csv",
      ]),
    );
    expect(strFromU8(files["visitors.csv"]!)).toBe("date,visitors,visits,pageviews,events,bounce_rate,visit_duration_seconds\r\n2026-06-10,3,3,3,3,100,0\r\n");
    expect(strFromU8(files["pages.csv"]!)).toBe("name,visitors,visits,pageviews,events,bounce_rate\r\n/now,2,2,2,2,100\r\n/old,1,1,1,1,100\r\n");

    const other = await signup("Other Co");
    await setPlan(other, "enterprise");
    for (const path of ["stats", "realtime", "export", "goals", "shared-links", "breakdown?property=page", "timeseries"]) {
      expectError(await call("GET", `/analytics/sites/${site.id}/${path}`, { token: other.token }), 404, "not_found");
    }
    expectError(await call("POST", `/analytics/sites/${site.id}/goals`, { token: other.token, body: { type: "event", value: "x" } }), 404, "not_found");
  });
});

describe("shared links", () => {
  it("are made by admins, show their token once, keep only hashes, and close when deleted", async () => {
    const { ws, site } = await setup();
    const member = await userWithRole(ws, "member");
    expectError(await call("POST", `/analytics/sites/${site.id}/shared-links`, { token: member, body: { name: "x" } }), 403, "forbidden");
    expectError(
      await call("POST", `/analytics/sites/${site.id}/shared-links`, { token: ws.token, body: { name: "x", password: "short" } }),
      400,
      "validation_error",
    );
    const created = await call("POST", `/analytics/sites/${site.id}/shared-links`, { token: ws.token, body: { name: "Investors", password: "correct horse" } });
    expect(created.status, created.text).toBe(201);
    const link = created.json.data;
    expect(link).toMatchObject({ name: "Investors", has_password: true, site_id: site.id });
    expect(link.token).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(link.url).toMatch(new RegExp(`^http://[^/]+/share/${link.token}$`));
    const stored = await env.ANALYTICS_DB.prepare("SELECT token_hash, password_hash FROM analytics_shared_links WHERE id = ?")
      .bind(link.id)
      .first<Record<string, string>>();
    expect(stored!.token_hash).not.toContain(link.token);
    expect(stored!.password_hash).toMatch(/^pbkdf2-sha256\$/);
    const listed = await get(ws, `/analytics/sites/${site.id}/shared-links`);
    expect(listed).toEqual([{ ...link, token: null, url: null }]);
    // The link through another site of the workspace: not found.
    const otherSite = (await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "blog.example.com" } })).json.data;
    expectError(await call("DELETE", `/analytics/sites/${otherSite.id}/shared-links/${link.id}`, { token: ws.token }), 404, "not_found");
    expect((await call("DELETE", `/analytics/sites/${site.id}/shared-links/${link.id}`, { token: ws.token })).status).toBe(200);
    expectError(await call("DELETE", `/analytics/sites/${site.id}/shared-links/${link.id}`, { token: ws.token }), 404, "not_found");
    expect(await get(ws, `/analytics/sites/${site.id}/shared-links`)).toEqual([]);
  });
});
