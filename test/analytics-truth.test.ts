/**
 * Analytics ground truth: a generated day of traffic (test/analytics-truth/traffic.ts) goes through the real worker
 * and the real queue consumer, and every report must equal the figures worked out from the specification alone
 * (test/analytics-truth/expected.ts). Blind: nothing here is derived from the implementation.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "../src/platform/time";
import { Either, expectedReports, type GoalFigures, type Query } from "./analytics-truth/expected";
import { BOT_UA, CUSTOM_FUNNEL, DAY, DOMAIN, GOALS, generateTraffic, type Hit } from "./analytics-truth/traffic";
import { call, env, freshIp, setPlan, signup, type Workspace } from "./helpers";

const realNow = clock.now;
let now = Date.UTC(2026, 5, 9, 0, 5);
beforeEach(() => {
  clock.now = () => now;
});
afterEach(() => {
  clock.now = realNow;
});

type Site = { id: number; domain: string; site_key: string };

/** Expected figures with `Either` (a value the spec leaves between neighbours, e.g. a rounding tie) as expect.toBeOneOf. */
function matcher(value: unknown): unknown {
  if (value instanceof Either) return expect.toBeOneOf(value.values);
  if (Array.isArray(value)) return value.map(matcher);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, matcher(v)]));
  return value;
}

const pick = (object: unknown, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, (object as Record<string, unknown> | undefined)?.[key]]));
const queryString = (query: Query) =>
  Object.entries(query)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join("&");
const byValue = (a: { value: string }, b: { value: string }) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/** A fresh session token at the current test time (the clock jumps by days). */
async function login(ws: Workspace): Promise<string> {
  const res = await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password }, ip: freshIp() });
  expect(res.status, res.text).toBe(200);
  return res.json.token ?? res.json.data?.token;
}

/** What the tracker sends from one browser: user agent, CF-IPCountry and the `cf` object as the edge sets them. */
function collect(site: Site, hit: Hit) {
  const headers: Record<string, string> = { "user-agent": hit.ua };
  if (hit.country) headers["cf-ipcountry"] = hit.country;
  return call("POST", "/analytics/collect", { body: { site: site.site_key, ...hit.body }, ip: hit.ip, headers, ...(hit.cf ? { cf: hit.cf } : {}) });
}

/** A server-side event: bearer token, `visitor`, no user agent or location. */
function serverEvent(site: Site, token: string, hit: Hit) {
  return call("POST", "/analytics/events", { token, body: { site: site.site_key, visitor: hit.visitor, ...hit.body }, ip: hit.ip });
}

const storedCount = async (siteId: number) =>
  (await env.ANALYTICS_DB.prepare("SELECT count(*) AS n FROM analytics_events WHERE site_id = ?").bind(siteId).first<{ n: number }>())!.n;

/** Waits until the real queue consumer has written exactly `n` events of the site. */
async function landed(siteId: number, n: number) {
  await vi.waitUntil(async () => (await storedCount(siteId)) >= n, { timeout: 60_000, interval: 20 });
  expect(await storedCount(siteId), "events stored").toBe(n);
}

const STAT_KEYS = ["visitors", "visits", "pageviews", "events", "bounce_rate", "visit_duration_seconds", "revenue", "goals"] as const;
const PREVIOUS_KEYS = STAT_KEYS.filter((key) => key !== "goals");
const BOTS = new Set<string>(Object.values(BOT_UA));
const isBot = (hit: Hit) => hit.kind === "collect" && BOTS.has(hit.ua);

describe("analytics ground truth", () => {
  it("reports every figure of a generated day exactly as the spec defines it", { timeout: 900_000 }, async () => {
    const hits = generateTraffic();
    const truth = expectedReports(hits);

    // --- Setup, before the first event (2026-06-09 00:05) ---
    now = Date.UTC(2026, 5, 9, 0, 5);
    const ws = await signup("Truth Shop");
    await setPlan(ws, "enterprise");
    let token = ws.token;
    const created = await call("POST", "/analytics/sites", { token, body: { domain: DOMAIN } });
    expect(created.status, created.text).toBe(201);
    const site = created.json.data as Site;
    const goals = new Map<string, { id: unknown; name: unknown }>();
    for (const goal of GOALS) {
      const res = await call("POST", `/analytics/sites/${site.id}/goals`, { token, body: goal });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data).toMatchObject(goal);
      goals.set(goal.value, { id: res.json.data.id, name: res.json.data.name });
    }
    const funnelRes = await call("POST", `/analytics/sites/${site.id}/funnels`, { token, body: CUSTOM_FUNNEL });
    expect(funnelRes.status, funnelRes.text).toBe(201);
    const customFunnelId = funnelRes.json.data.id;

    // --- Every hit, in time order, on the test clock ---
    let tokenDay = new Date(now).toISOString().slice(0, 10);
    let accepted = 0;
    let acceptedToStore = 0;
    let sinceWait = 0;
    for (const [i, hit] of hits.entries()) {
      now = hit.time;
      const hitDay = new Date(now).toISOString().slice(0, 10);
      if (hit.kind === "server" && hitDay !== tokenDay) {
        token = await login(ws);
        tokenDay = hitDay;
      }
      const res = hit.kind === "collect" ? await collect(site, hit) : await serverEvent(site, token, hit);
      const label = `hit ${i} (${hit.kind} ${hit.body.name} at ${new Date(hit.time).toISOString()})`;
      if (hit.kind === "collect") {
        expect(res.status, `${label}: ${res.text}`).toBe(202); // bots too: accepted and dropped
        expect(res.json, label).toEqual({ success: true });
      } else {
        expect([200, 201, 202], `${label}: ${res.status} ${res.text}`).toContain(res.status);
      }
      accepted += 1;
      if (!isBot(hit)) acceptedToStore += 1;
      // Let the queue drain now and then (at a pause of a second or more, never inside a burst), as a live
      // queue would deliver batches roughly in time order.
      sinceWait += 1;
      const next = hits[i + 1];
      if (sinceWait >= 100 && next && next.time - hit.time >= 1000) {
        await landed(site.id, acceptedToStore);
        sinceWait = 0;
      }
    }
    expect(accepted).toBe(hits.length);
    expect(acceptedToStore, "the generator's and the model's count of non-bot events").toBe(truth.volumes.stored);
    expect(accepted - acceptedToStore).toBe(truth.volumes.bots);
    // Nothing accepted is lost, no bot event is stored, nothing is stored twice: exactly the non-bot events, and
    // still exactly that a moment later.
    await landed(site.id, acceptedToStore);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await storedCount(site.id), "events stored after settling").toBe(acceptedToStore);

    // --- Reports, the next day at noon ---
    now = Date.UTC(2026, 5, 11, 12, 0);
    token = await login(ws);
    const base = `/analytics/sites/${site.id}`;
    const get = async (name: string, path: string) => {
      const res = await call("GET", path, { token });
      expect.soft(res.status, `${name}: ${res.text}`).toBe(200);
      expect.soft(res.json?.success, `${name}: envelope`).toBe(true);
      return res.json?.data;
    };
    const expectedGoals = (figures: GoalFigures[]) => figures.map((g) => ({ ...goals.get(g.value), ...g })).sort(byValue);
    const actualStats = (data: Record<string, unknown> | undefined) => {
      const stats = pick(data, STAT_KEYS);
      if (Array.isArray(stats.goals)) stats.goals = [...stats.goals].sort(byValue); // the spec gives no order
      return stats;
    };

    for (const report of truth.stats) {
      const data = await get(report.name, `${base}/stats?${queryString(report.query)}`);
      const expected = { ...report.expected, goals: expectedGoals(report.expected.goals) };
      expect.soft(actualStats(data), report.name).toEqual(matcher(expected));
    }

    {
      const report = truth.compare;
      const data = await get(report.name, `${base}/stats?${queryString(report.query)}`);
      const expected = { ...report.expected, goals: expectedGoals(report.expected.goals) };
      expect.soft(actualStats(data), report.name).toEqual(matcher(expected));
      expect.soft(pick(data?.previous, PREVIOUS_KEYS), `${report.name}: previous`).toEqual(matcher(report.previous));
      expect.soft(pick(data?.change, PREVIOUS_KEYS), `${report.name}: change`).toEqual(matcher(report.change));
    }

    for (const report of truth.breakdowns) {
      const data = await get(report.name, `${base}/breakdown?${queryString(report.query)}`);
      expect.soft(data?.items, report.name).toEqual(matcher(report.expected));
    }

    for (const report of truth.timeseries) {
      const data = await get(report.name, `${base}/timeseries?${queryString(report.query)}`);
      const points: { date: unknown; value: unknown }[] = data?.points ?? [];
      expect.soft(data?.interval, `${report.name}: interval`).toBe(report.query.interval);
      expect
        .soft(
          points.map((p) => p.value),
          report.name,
        )
        .toEqual(report.values);
      const dates = points.map((p) => String(p.date));
      expect
        .soft(dates.length === report.dates.length && dates.every((date, k) => report.dates[k]!.test(date)), `${report.name}: dates ${JSON.stringify(dates)}`)
        .toBe(true);
    }

    for (const report of truth.funnels) {
      const id = report.funnel === "checkout" ? "checkout" : customFunnelId;
      const data = await get(report.name, `${base}/funnels/${id}/report?${queryString(report.query)}`);
      const steps: Record<string, unknown>[] = data?.steps ?? [];
      // The spec does not say whether `index` counts from 0 or 1: either, as long as it counts the steps in order.
      const n = report.expected.steps.length;
      const indices = steps.map((s) => s.index);
      expect.soft([Array.from({ length: n }, (_, k) => k), Array.from({ length: n }, (_, k) => k + 1)], `${report.name}: step indices`).toContainEqual(indices);
      const withoutIndex = (list: Record<string, unknown>[]) => list.map(({ index: _index, ...rest }) => rest);
      expect
        .soft({ steps: withoutIndex(steps), conversion_rate: data?.conversion_rate, revenue: data?.revenue }, report.name)
        .toEqual(matcher({ ...report.expected, steps: withoutIndex(report.expected.steps) }));
    }

    // --- Bad input ---
    const day = `from=${DAY}&to=${DAY}`;
    const unknownProperty = await call("GET", `${base}/stats?${day}&filters=${encodeURIComponent("colour==red")}`, { token });
    expect.soft(unknownProperty.status, `unknown filter property: ${unknownProperty.text}`).toBe(400);
    expect.soft(unknownProperty.json?.success, "unknown filter property: envelope").toBe(false);
    expect.soft(typeof unknownProperty.json?.error?.code, "unknown filter property: error code").toBe("string");
    expect.soft(JSON.stringify(unknownProperty.json?.error ?? {}), "unknown filter property: names it").toContain("colour");
    const unknownPropertyBreakdown = await call("GET", `${base}/breakdown?${day}&property=page&filters=${encodeURIComponent("colour==red")}`, { token });
    expect.soft(unknownPropertyBreakdown.status, `unknown filter property (breakdown): ${unknownPropertyBreakdown.text}`).toBe(400);
    expect.soft(JSON.stringify(unknownPropertyBreakdown.json?.error ?? {}), "unknown filter property (breakdown): names it").toContain("colour");
    for (const filters of ["country=DE", "country>=DE"]) {
      const unknownOperator = await call("GET", `${base}/stats?${day}&filters=${encodeURIComponent(filters)}`, { token });
      expect.soft(unknownOperator.status, `unknown operator ${filters}: ${unknownOperator.text}`).toBe(400);
      expect.soft(unknownOperator.json?.success, `unknown operator ${filters}: envelope`).toBe(false);
      expect.soft(typeof unknownOperator.json?.error?.message, `unknown operator ${filters}: message`).toBe("string");
    }
    for (const path of [
      `/stats?${day}`,
      `/breakdown?${day}&property=page`,
      `/timeseries?${day}&interval=hour&metric=visitors`,
      `/funnels/checkout/report?${day}`,
    ]) {
      const unknownSite = await call("GET", `/analytics/sites/987654321${path}`, { token });
      expect.soft(unknownSite.status, `unknown site ${path}: ${unknownSite.text}`).toBe(404);
      expect.soft(unknownSite.json?.success, `unknown site ${path}: envelope`).toBe(false);
      expect.soft(typeof unknownSite.json?.error?.code, `unknown site ${path}: error code`).toBe("string");
    }
  });
});
