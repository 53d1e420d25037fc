import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "../src/platform/time";
import { call, env, freshIp, setPlan, signup, type Workspace } from "./helpers";
import { csrfOf, ORIGIN, page, signIn, signInAs } from "./pages";

// The analytics pages, through the worker: the sites list with its snippets, a site's dashboard (numbers,
// filters as links, pickers, panels, funnels, export), who may see it, and the shared links' public page
// with its password. Events are collected as a browser sends them and land through the real queue consumer.

const realNow = clock.now;
const NOW = Date.UTC(2026, 5, 10, 10, 0);
beforeEach(() => {
  clock.now = () => NOW;
});
afterEach(() => {
  clock.now = realNow;
});

const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

type Site = { id: number; domain: string; site_key: string };
type Hit = { name?: string; path: string; referrer?: string; ip: string; ua: string; revenue?: unknown };

const eventCount = async (siteId: number) =>
  (await env.ANALYTICS_DB.prepare("SELECT count(*) AS n FROM analytics_events WHERE site_id = ?").bind(siteId).first<{ n: number }>())!.n;

/** Sends the hits as the tracker would, then waits until the queue's consumer has written them all. */
async function collect(site: Site, hits: Hit[]) {
  const before = await eventCount(site.id);
  for (const hit of hits) {
    const res = await call("POST", "/analytics/collect", {
      body: {
        site: site.site_key,
        name: hit.name ?? "pageview",
        url: `https://${site.domain}${hit.path}`,
        ...(hit.referrer ? { referrer: hit.referrer } : {}),
        ...(hit.revenue ? { revenue: hit.revenue } : {}),
      },
      ip: hit.ip,
      headers: { "user-agent": hit.ua },
    });
    expect(res.status, res.text).toBe(202);
  }
  await vi.waitUntil(async () => (await eventCount(site.id)) >= before + hits.length, { timeout: 10_000, interval: 20 });
}

const decode = (html: string) =>
  html.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">");

/** The big number of a top stat card. */
function stat(html: string, key: string): string {
  const match = new RegExp(`data-stat="${key}"[^>]*>.*?<div class="stat">([^<]*)</div>`, "s").exec(html);
  expect(match, `no ${key} stat`).not.toBeNull();
  return decode(match![1]!);
}

/** The link of a breakdown row (the page that filters by it). */
function rowLink(html: string, property: string, value: string): string {
  const table = new RegExp(`<table data-rows="${property}">(.*?)</table>`, "s").exec(html)?.[1] ?? "";
  const match = new RegExp(`<tr data-value="${value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}"><td><a href="([^"]+)"`).exec(table);
  expect(match, `no ${property} row ${value}`).not.toBeNull();
  return decode(match![1]!);
}

/** Every script of the page carries the response's CSP nonce; no inline handler, no style attribute. */
function expectStrictCsp(res: { headers: Headers; text: string }) {
  const csp = res.headers.get("content-security-policy") ?? "";
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, csp).toBeTruthy();
  expect(csp).toContain("style-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  const scripts = res.text.match(/<script\b[^>]*>/g) ?? [];
  for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  expect(res.text).not.toMatch(/\son[a-z]+="/i);
  expect(res.text).not.toMatch(/\sstyle="/i);
}

let ws: Workspace;
let cookie: string;
let site: Site;

beforeAll(async () => {
  clock.now = () => NOW;
  ws = await signup("Pages Shop");
  await setPlan(ws, "enterprise");
  cookie = await signIn(ws.email, ws.password);
  const created = await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "shop.example.com" } });
  expect(created.status, created.text).toBe(201);
  site = created.json.data;
  const goal = await call("POST", `/analytics/sites/${site.id}/goals`, { token: ws.token, body: { type: "event", value: "signup" } });
  expect(goal.status, goal.text).toBe(201);
  await collect(site, [
    // From Google: two pages. From Twitter (t.co) on a phone: one. Direct, in Firefox: the blog, a signup and a purchase.
    { path: "/", referrer: "https://www.google.com/", ip: "203.0.113.10", ua: DESKTOP },
    { path: "/pricing", ip: "203.0.113.10", ua: DESKTOP },
    { path: "/", referrer: "https://t.co/abc", ip: "203.0.113.11", ua: IPHONE },
    { path: "/blog", ip: "203.0.113.12", ua: FIREFOX },
    { name: "signup", path: "/blog", ip: "203.0.113.12", ua: FIREFOX },
    { name: "view_item", path: "/shop/tea", ip: "203.0.113.12", ua: FIREFOX },
    { name: "add_to_cart", path: "/shop/tea", ip: "203.0.113.12", ua: FIREFOX },
    { name: "purchase", path: "/checkout", ip: "203.0.113.12", ua: FIREFOX, revenue: { amount: 4900, currency: "EUR" } },
  ]);
  clock.now = realNow;
});

describe("the site's dashboard", () => {
  it("shows the numbers, the panels, the funnels and the realtime count", async () => {
    const res = await page("GET", `/app/analytics/${site.id}?period=7d`, { cookie });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.text).toContain("shop.example.com");
    expect(stat(res.text, "visitors")).toBe("3");
    expect(stat(res.text, "visits")).toBe("3");
    expect(stat(res.text, "pageviews")).toBe("4");
    expect(stat(res.text, "revenue")).toBe("49.00 EUR");
    expect(res.text).toContain('data-realtime="3"');
    expect(res.text).toContain("3 current visitors");
    // Sources, pages, devices and events as rows that filter.
    for (const [property, value] of [
      ["source", "Google"],
      ["source", "Twitter"],
      ["source", "Direct / None"],
      ["page", "/pricing"],
      ["device", "mobile"],
      ["event", "signup"],
      ["goal", "signup"],
    ]) {
      rowLink(res.text, property!, value!);
    }
    // The checkout funnel with its step bars; the chart is inline SVG with hover values.
    expect(res.text).toMatch(/data-funnel="checkout".*?data-step="1".*?data-step="5"/s);
    expect(res.text).toMatch(/<svg[^>]*data-chart="visitors"/);
    expect(res.text).toMatch(/<title>Jun 10, 2026: 3 visitors/);
    // Pickers: every named period, and the comparisons.
    for (const period of ["today", "7d", "30d", "90d", "mtd", "12mo", "ytd", "custom"]) expect(res.text).toContain(`<option value="${period}"`);
    for (const compare of ["off", "previous_period", "previous_year"]) expect(res.text).toContain(`<option value="${compare}"`);
    // The export, with the same period.
    expect(decode(res.text)).toContain(`href="/app/analytics/${site.id}/export.zip?from=2026-06-04&to=2026-06-10"`);
    expectStrictCsp(res);
  });

  it("narrows to a clicked row (a filter chip shows) and widens again when the chip is removed", async () => {
    const all = await page("GET", `/app/analytics/${site.id}?period=7d`, { cookie });
    const google = rowLink(all.text, "source", "Google");
    expect(google).toBe(`/app/analytics/${site.id}?period=7d&filters=source%3D%3DGoogle`);
    const filtered = await page("GET", google, { cookie });
    expect(filtered.status).toBe(200);
    expect(stat(filtered.text, "visitors")).toBe("1");
    expect(stat(filtered.text, "pageviews")).toBe("2");
    expect(filtered.text).toContain('data-filter="source==Google"');
    expect(filtered.text).toContain("Source is Google");
    expect(filtered.text).not.toContain('<tr data-value="Twitter">');
    // A second filter from another panel adds to the first; the chip of the first removes only it.
    const firefox = await page("GET", `/app/analytics/${site.id}?period=7d&filters=${encodeURIComponent("source==Direct / None")}`, { cookie });
    expect(stat(firefox.text, "visitors")).toBe("1");
    expect(stat(firefox.text, "revenue")).toBe("49.00 EUR");
    const chip = /<a class="pill on" data-filter="source==Google" href="([^"]+)"/.exec(filtered.text)?.[1];
    expect(chip).toBeTruthy();
    const back = await page("GET", decode(chip!), { cookie });
    expect(stat(back.text, "visitors")).toBe("3");
    expect(back.text).not.toContain("data-filters");
  });

  it("filters by a goal: the rows get its conversion rate", async () => {
    const all = await page("GET", `/app/analytics/${site.id}?period=7d`, { cookie });
    const goal = rowLink(all.text, "goal", "signup");
    const res = await page("GET", goal, { cookie });
    expect(res.status).toBe(200);
    expect(res.text).toContain("Goal is signup");
    expect(stat(res.text, "visitors")).toBe("1");
    expect(res.text).toMatch(/<table data-rows="source">.*?Conversion.*?<tr data-value="Direct \/ None">.*?100 %/s);
  });

  it("says what is wrong with a bad filter or period instead of failing", async () => {
    const res = await page("GET", `/app/analytics/${site.id}?period=7d&filters=colour==red`, { cookie });
    expect(res.status).toBe(400);
    expect(res.text).toContain("The filters were not applied");
    expect(res.text).toContain("unknown property colour");
    expect(stat(res.text, "visitors")).toBe("3");
    expect(res.text).not.toContain("filters=colour");
    expect(res.text).not.toContain(`value="colour==red"`);
    const period = await page("GET", `/app/analytics/${site.id}?period=forever`, { cookie });
    expect(period.status).toBe(400);
    expect(period.text).toContain("There is no period");
  });

  it("switches the chart's metric, the panels' tabs and the comparison by links", async () => {
    const res = await page("GET", `/app/analytics/${site.id}?period=7d&metric=pageviews&sources=channel&devices=browser&compare=off`, { cookie });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<svg[^>]*data-chart="pageviews"/);
    rowLink(res.text, "channel", "Organic Search");
    rowLink(res.text, "channel", "Organic Social");
    rowLink(res.text, "browser", "Firefox");
    // No comparison: no change lines.
    expect(res.text).not.toContain('class="change');
    const today = await page("GET", `/app/analytics/${site.id}?period=today`, { cookie });
    expect(today.status).toBe(200);
    expect(today.text).toMatch(/<option value="today" selected/);
    expect(today.text).toMatch(/<title>Jun 10, 2026 10:00 UTC: 3 visitors/);
    // A custom range: its dates show; without both, the picker stays on it and says so.
    const custom = await page("GET", `/app/analytics/${site.id}?period=custom&from=2026-06-01&to=2026-06-10`, { cookie });
    expect(custom.status).toBe(200);
    expect(custom.text).toContain("2026-06-01 – 2026-06-10");
    expect(custom.text).toContain('value="2026-06-01"');
    const half = await page("GET", `/app/analytics/${site.id}?period=custom&from=2026-06-01&to=`, { cookie });
    expect(half.status).toBe(400);
    expect(half.text).toContain("A custom range needs both dates");
    expect(half.text).toMatch(/<option value="custom" selected/);
  });

  it("exports the period as a ZIP of CSVs for the session", async () => {
    const res = await page("GET", `/app/analytics/${site.id}/export.zip?from=2026-06-04&to=2026-06-10`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain("shop.example.com-2026-06-04-2026-06-10.zip");
    expect(res.text.slice(0, 2)).toBe("PK");
  });

  it("is for members and above: a viewer gets the refusal page, another workspace's site is not found", async () => {
    const member = await signInAs(ws, "member");
    const asMember = await page("GET", `/app/analytics/${site.id}?period=7d`, { cookie: member });
    expect(asMember.status).toBe(200);
    expect(asMember.text).not.toContain(`/app/analytics/${site.id}/share`);
    const viewer = await signInAs(ws, "viewer");
    for (const path of ["/app/analytics", `/app/analytics/${site.id}`, `/app/analytics/${site.id}/export.zip`]) {
      const refused = await page("GET", path, { cookie: viewer });
      expect(refused.status, path).toBe(403);
      expect(refused.text).toContain("member or above");
      expect(refused.text).not.toContain("shop.example.com");
    }
    const other = await signup("Other Shop");
    const otherCookie = await signIn(other.email, other.password);
    for (const path of [`/app/analytics/${site.id}`, `/app/analytics/${site.id}/export.zip`]) {
      const missing = await page("GET", path, { cookie: otherCookie });
      expect(missing.status, path).toBe(404);
      expect(missing.text).not.toContain("shop.example.com");
    }
    const otherSites = await page("GET", "/app/analytics", { cookie: otherCookie });
    expect(otherSites.status).toBe(200);
    expect(otherSites.text).not.toContain(site.site_key);
    expect(otherSites.text).not.toContain(`/app/analytics/${site.id}`);
    // Without a session: to the sign-in page.
    const anonymous = await page("GET", `/app/analytics/${site.id}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?next=/);
  });
});

describe("the sites page", () => {
  it("lists the sites with their snippets; admins add a site by the form, with its CSRF token", async () => {
    const res = await page("GET", "/app/analytics", { cookie });
    expect(res.status).toBe(200);
    expect(decode(res.text)).toContain(`<script defer src="${ORIGIN}/api/v1/analytics/script.js" data-site="${site.site_key}"></script>`);
    expect(res.text).toContain(`href="/app/analytics/${site.id}"`);
    expectStrictCsp(res);

    const csrf = csrfOf(res.text);
    const added = await page("POST", "/app/analytics", { cookie, form: { csrf, domain: "https://www.Blog.Example.com/" } });
    expect(added.status, added.text.slice(0, 300)).toBe(303);
    expect((await page("GET", "/app/analytics", { cookie })).text).toContain("blog.example.com");
    const bad = await page("POST", "/app/analytics", { cookie, form: { csrf, domain: "not a domain" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="domain-error"');
    // Without the token, or from another origin: refused, nothing added.
    expect((await page("POST", "/app/analytics", { cookie, form: { domain: "forged.example.com" } })).status).toBe(403);
    expect((await page("POST", "/app/analytics", { cookie, form: { csrf, domain: "forged.example.com" }, origin: "https://evil.example" })).status).toBe(403);
    expect((await page("GET", "/app/analytics", { cookie })).text).not.toContain("forged.example.com");

    // A member sees the snippets but no form; a member's forged POST is refused by the API.
    const member = await signInAs(ws, "member");
    const asMember = await page("GET", "/app/analytics", { cookie: member });
    expect(asMember.text).toContain(site.site_key);
    expect(asMember.text).not.toContain('action="/app/analytics"');
    const memberPost = await page("POST", "/app/analytics", { cookie: member, form: { csrf: csrfOf(asMember.text), domain: "member.example.com" } });
    expect(memberPost.status).toBe(403);
  });

  it("lets admins create and close shared links from the app", async () => {
    const shown = await page("GET", `/app/analytics/${site.id}/share`, { cookie });
    expect(shown.status).toBe(200);
    const created = await page("POST", `/app/analytics/${site.id}/share`, { cookie, form: { csrf: csrfOf(shown.text), name: "From the app" } });
    expect(created.status).toBe(200);
    const url = /<code id="shared-url">([^<]+)<\/code>/.exec(created.text)?.[1];
    expect(url).toMatch(/\/share\/[0-9A-Za-z]{43}$/);
    const path = new URL(url!).pathname;
    expect((await page("GET", `${path}?period=7d`)).status).toBe(200);
    const linkId = /data-link="(\d+)"/.exec(created.text)![1];
    const closed = await page("POST", `/app/analytics/${site.id}/share/${linkId}/delete`, { cookie, form: { csrf: csrfOf(created.text) } });
    expect(closed.status).toBe(303);
    expect((await page("GET", path)).status).toBe(404);
  });
});

describe("a shared link", () => {
  async function share(body: Record<string, string>) {
    const res = await call("POST", `/analytics/sites/${site.id}/shared-links`, { token: ws.token, body });
    expect(res.status, res.text).toBe(201);
    return { id: res.json.data.id as number, path: new URL(res.json.data.url).pathname };
  }

  it("shows the dashboard without a login, read-only, and is gone once deleted", async () => {
    const link = await share({ name: "Investors" });
    const res = await page("GET", `${link.path}?period=7d`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(stat(res.text, "visitors")).toBe("3");
    expect(res.text).not.toContain('class="side"');
    expect(res.text).not.toContain("Sign out");
    expect(res.text).not.toContain("/app/");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    expectStrictCsp(res);
    // Its rows filter within the shared page.
    const google = rowLink(res.text, "source", "Google");
    expect(google.startsWith(`${link.path}?`)).toBe(true);
    expect(stat((await page("GET", google)).text, "visitors")).toBe("1");
    // Its export is this site's only.
    const zip = await page("GET", `${link.path}/export.zip?from=2026-06-04&to=2026-06-10`);
    expect(zip.status).toBe(200);
    expect(zip.text.slice(0, 2)).toBe("PK");

    const deleted = await call("DELETE", `/analytics/sites/${site.id}/shared-links/${link.id}`, { token: ws.token });
    expect(deleted.status).toBe(200);
    expect((await page("GET", link.path)).status).toBe(404);
    expect((await page("GET", `${link.path}/export.zip`)).status).toBe(404);
    expect((await page("GET", `/share/${"x".repeat(43)}`)).status).toBe(404);
    expect((await page("GET", "/share/short")).status).toBe(404);
  });

  it("asks for its password: a wrong one is 401, the right one sets a cookie for this link that opens the dashboard", async () => {
    const link = await share({ name: "Board", password: "open sesame 123" });
    const asked = await page("GET", `${link.path}?period=7d`);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain("data-password-form");
    expect(asked.text).not.toContain('data-stat="visitors"');
    expect((await page("GET", `${link.path}/export.zip`)).status).toBe(401);

    const ip = freshIp();
    const wrong = await page("POST", `${link.path}?period=7d`, { form: { password: "not it at all" }, ip });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("That password is not right");
    expect(wrong.headers.get("set-cookie")).toBeNull();
    // From another origin (or with no origin at all): refused before the password is looked at.
    expect((await page("POST", link.path, { form: { password: "open sesame 123" }, origin: "https://evil.example", ip })).status).toBe(403);
    expect((await page("POST", link.path, { form: { password: "open sesame 123" }, origin: null, ip })).status).toBe(403);

    const right = await page("POST", `${link.path}?period=7d`, { form: { password: "open sesame 123" }, ip });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`${link.path}?period=7d`);
    const setCookie = right.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^bp_share=[^;]+;/);
    expect(setCookie).toContain(`Path=${link.path}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const pass = /^(bp_share=[^;]+)/.exec(setCookie)![1]!;
    const opened = await page("GET", `${link.path}?period=7d`, { cookie: pass });
    expect(opened.status).toBe(200);
    expect(stat(opened.text, "visitors")).toBe("3");
    expect((await page("GET", `${link.path}/export.zip`, { cookie: pass })).status).toBe(200);
    // A made-up cookie is not a pass; the pass of this link opens no other.
    expect((await page("GET", link.path, { cookie: `bp_share=${"A".repeat(43)}` })).text).toContain("data-password-form");
    const other = await share({ name: "Other", password: "another secret 456" });
    expect((await page("GET", other.path, { cookie: pass })).text).toContain("data-password-form");
  });

  it("limits wrong tries per client and link: 10 a minute, then 429", async () => {
    const link = await share({ name: "Guessed", password: "correct password 1" });
    const ip = freshIp();
    clock.now = () => Date.UTC(2026, 5, 10, 12, 0, 5);
    for (let i = 0; i < 10; i++) expect((await page("POST", link.path, { form: { password: `guess ${i}` }, ip })).status).toBe(401);
    const limited = await page("POST", link.path, { form: { password: "correct password 1" }, ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.text).toContain("Too many tries");
    // Another client is not held back.
    expect((await page("POST", link.path, { form: { password: "correct password 1" }, ip: freshIp() })).status).toBe(303);
  });

  it("closes with the package: switched off, the app refuses and the shared link is not found", async () => {
    const shop = await signup("Switched Shop");
    const shopCookie = await signIn(shop.email, shop.password);
    const created = await call("POST", "/analytics/sites", { token: shop.token, body: { domain: "off.example.com" } });
    expect(created.status, created.text).toBe(201);
    const link = await call("POST", `/analytics/sites/${created.json.data.id}/shared-links`, { token: shop.token, body: { name: "Public" } });
    const path = new URL(link.json.data.url).pathname;
    expect((await page("GET", path)).status).toBe(200);
    const off = await call("PUT", "/packages/analytics", { token: shop.token, body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    const refused = await page("GET", `/app/analytics/${created.json.data.id}`, { cookie: shopCookie });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("package is disabled");
    expect((await page("GET", path)).status).toBe(404);
  });
});
