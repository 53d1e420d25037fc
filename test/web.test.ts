import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clock } from "../src/platform/time";
import { call, create, freshIp, uniqueEmail, userWithRole } from "./helpers";
import { csrfOf, ORIGIN, owner, page, signIn } from "./pages";

describe("signing in", () => {
  it("sets bp_session (HttpOnly, SameSite=Lax, Path=/, Secure except on a loopback http origin) and signs out by revoking it", async () => {
    const { ws } = await owner();
    const res = await page("POST", "/login?next=/app/settings/api", { form: { email: ws.email, password: ws.password } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/app/settings/api");
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^bp_session=bps_[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    const secure = await page("POST", "/login", { form: { email: ws.email, password: ws.password }, host: "https://dash.example.com" });
    expect(secure.headers.get("set-cookie")).toMatch(/; Secure/);
    // Somewhere else after signing in? Only this dashboard's own pages.
    expect((await page("POST", "/login?next=https://evil.example/", { form: { email: ws.email, password: ws.password } })).headers.get("location")).toBe(
      "/app",
    );

    const session = `bp_session=${/bp_session=([^;]+)/.exec(cookie)![1]}`;
    const app = await page("GET", "/app", { cookie: session });
    expect(app.status).toBe(200);
    const out = await page("POST", "/logout", { cookie: session, form: { csrf: csrfOf(app.text) } });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login");
    expect(out.headers.get("set-cookie")).toMatch(/bp_session=; Max-Age=0/);
    // The session is revoked, not just forgotten by the browser.
    const after = await page("GET", "/app", { cookie: session });
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/login?next=%2Fapp");
  });

  it("gives one message for a wrong e-mail and a wrong password, refuses other origins, and is rate-limited per IP", async () => {
    const { ws } = await owner();
    const wrongPassword = await page("POST", "/login", { form: { email: ws.email, password: "not the password" } });
    const wrongEmail = await page("POST", "/login", { form: { email: uniqueEmail("nobody"), password: "not the password" } });
    for (const res of [wrongPassword, wrongEmail]) {
      expect(res.status).toBe(401);
      expect(res.text).toContain("Wrong e-mail or password.");
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect((await page("POST", "/login", { form: { email: ws.email, password: ws.password }, origin: "https://evil.example" })).status).toBe(403);
    expect((await page("POST", "/login", { form: { email: ws.email, password: ws.password }, origin: null })).status).toBe(403);

    const ip = freshIp();
    const statuses: number[] = [];
    // (Windows are whole minutes: the 61 attempts are made at one moment, not across a minute's turn.)
    const realNow = clock.now;
    const moment = Date.now();
    clock.now = () => moment;
    try {
      for (let i = 0; i < 61; i++) statuses.push((await page("POST", "/login", { form: { email: ws.email, password: "wrong" }, ip })).status);
    } finally {
      clock.now = realNow;
    }
    expect(statuses.slice(0, 60).every((status) => status === 401)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it("sends a visitor without a valid session to /login: no cookie, a garbage one, a revoked one", async () => {
    const { ws } = await owner();
    expect((await page("GET", "/")).headers.get("location")).toBe("/login");
    for (const cookie of [undefined, "bp_session=garbage", "bp_session=bps_0000000000000000000000000000000000000000"]) {
      const res = await page("GET", "/app/settings/webhooks", { cookie });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/login?next=%2Fapp%2Fsettings%2Fwebhooks");
    }
    const token = (await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password } })).json.token;
    expect((await page("GET", "/app", { cookie: `bp_session=${token}` })).status).toBe(200);
    await call("DELETE", "/auth/token", { token });
    expect((await page("GET", "/app", { cookie: `bp_session=${token}` })).status).toBe(303);
    // An API token is not a dashboard session.
    const apiToken = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "x" } })).json.data.token;
    expect((await page("GET", "/app", { cookie: `bp_session=${apiToken}` })).status).toBe(303);
  });
});

describe("pages", () => {
  it("carry a nonce CSP without unsafe-inline scripts, refuse framing, and are never cached", async () => {
    const { cookie } = await owner();
    for (const path of ["/login", "/app", "/app/settings/api", "/app/settings/webhooks", "/app/settings/packages", "/app/assistant"]) {
      const res = await page("GET", path, { cookie: path === "/login" ? undefined : cookie });
      expect(res.status, path).toBe(200);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp, path).toMatch(/script-src 'nonce-[A-Za-z0-9+/=_-]+'(;|$)/);
      expect(csp, path).not.toContain("unsafe-inline");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("cache-control")).toBe("no-store");
      // Every inline script carries the nonce.
      const nonce = /'nonce-([^']+)'/.exec(csp)![1];
      for (const tag of res.text.match(/<script[^>]*>/g) ?? []) expect(tag, path).toContain(`nonce="${nonce}"`);
      // Nothing is loaded from anywhere else.
      expect(res.text, path).not.toMatch(/(src|href|action)="https?:\/\/(?!127\.0\.0\.1)/);
    }
  });

  it("the API never accepts the cookie", async () => {
    const { cookie } = await owner();
    const res = await exports.default.fetch(new Request(`${ORIGIN}/api/v1/me`, { headers: { cookie, "cf-connecting-ip": freshIp() } }));
    expect(res.status).toBe(401);
    const write = await exports.default.fetch(
      new Request(`${ORIGIN}/api/v1/contacts`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", "cf-connecting-ip": freshIp() },
        body: JSON.stringify({ name: "x", email: "x@example.com" }),
      }),
    );
    expect(write.status).toBe(401);
  });

  it("refuse a form without the session's CSRF token or from another origin, writing nothing", async () => {
    const { ws, cookie } = await owner();
    const settings = await page("GET", "/app/settings/api", { cookie });
    const csrf = csrfOf(settings.text);
    const tokens = async () => (await call("GET", "/api-tokens", { token: ws.token })).json.data.length;
    const before = await tokens();
    expect((await page("POST", "/app/settings/api", { cookie, form: { name: "no csrf", scopes: "read" } })).status).toBe(403);
    expect((await page("POST", "/app/settings/api", { cookie, form: { name: "bad csrf", scopes: "read", csrf: "x".repeat(43) } })).status).toBe(403);
    expect(
      (await page("POST", "/app/settings/api", { cookie, form: { name: "other origin", scopes: "read", csrf }, origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await page("POST", "/app/settings/api", { cookie, form: { name: "no origin", scopes: "read", csrf }, origin: null })).status).toBe(403);
    // Another user's CSRF token is not this session's.
    const other = await owner();
    const otherCsrf = csrfOf((await page("GET", "/app", { cookie: other.cookie })).text);
    expect((await page("POST", "/app/settings/api", { cookie, form: { name: "someone else's", scopes: "read", csrf: otherCsrf } })).status).toBe(403);
    expect(await tokens()).toBe(before);

    const created = await page("POST", "/app/settings/api", { cookie, form: { name: "CI", scopes: ["contacts:read", "deals:write"], csrf } });
    expect(created.status).toBe(200);
    const secret = /<code id="new-token">([^<]+)<\/code>/.exec(created.text)![1]!;
    expect(secret).toMatch(/^bpk_/);
    expect((await call("GET", "/contacts", { token: secret })).status).toBe(200);
    expect((await call("GET", "/invoices", { token: secret })).status).toBe(403);
    // Shown once: the list shows only its prefix and last four.
    const list = await page("GET", "/app/settings/api", { cookie });
    expect(list.text).not.toContain(secret);
    expect(list.text).toContain(secret.slice(-4));
  });

  it("show an invalid form again with the error next to the field, and nothing written", async () => {
    const { ws, cookie } = await owner();
    const csrf = csrfOf((await page("GET", "/app/settings/api", { cookie })).text);
    const res = await page("POST", "/app/settings/api", { cookie, form: { name: "", scopes: "contacts:fly", csrf } });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/<p class="field-error" id="name-error">[^<]+<\/p>/);
    expect(res.text).toMatch(/<p class="field-error" id="scopes-error">must be one of read, write, admin[^<]*<\/p>/);
    expect((await call("GET", "/api-tokens", { token: ws.token })).json.data).toEqual([]);
    const hook = await page("POST", "/app/settings/webhooks", { cookie, form: { url: "not a url", events: "*", csrf } });
    expect(hook.status).toBe(400);
    expect(hook.text).toMatch(/<p class="field-error" id="url-error">/);
  });

  it("follow roles: a viewer sees the dashboard and packages read-only, not the admin settings", async () => {
    const { ws } = await owner();
    const viewerToken = await userWithRole(ws, "viewer");
    const me = (await call("GET", "/me", { token: viewerToken })).json.data.user;
    const cookie = await signIn(me.email, "another long password");
    const app = await page("GET", "/app", { cookie });
    expect(app.status).toBe(200);
    expect(app.text).not.toContain('href="/app/settings/api"');
    const api = await page("GET", "/app/settings/api", { cookie });
    expect(api.status).toBe(403);
    expect(api.text).toContain("Admins only");
    expect((await page("GET", "/app/settings/webhooks", { cookie })).status).toBe(403);
    const packages = await page("GET", "/app/settings/packages", { cookie });
    expect(packages.status).toBe(200);
    expect(packages.text).not.toContain("Turn off");
    const refused = await page("POST", "/app/settings/packages/sales", { cookie, form: { enabled: "false", csrf: csrfOf(packages.text) } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Only an admin can switch packages.");
    expect((await call("GET", "/packages", { token: ws.token })).json.data.find((p: { name: string }) => p.name === "sales").enabled).toBe(true);
  });

  it("explain package dependencies in words and offer to enable them together", async () => {
    const { ws, cookie } = await owner();
    const csrf = csrfOf((await page("GET", "/app/settings/packages", { cookie })).text);
    const required = await page("POST", "/app/settings/packages/hrm", { cookie, form: { enabled: "false", csrf } });
    expect(required.status).toBe(409);
    expect(required.text).toContain("HRM can&#39;t be turned off while Recruitment, Timesheets, Leave, and Attendance depend on it.");
    for (const name of ["timesheets", "recruitment", "leave", "attendance"])
      await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } });
    await call("PUT", "/packages/hrm", { token: ws.token, body: { enabled: false } });
    const missing = await page("POST", "/app/settings/packages/recruitment", { cookie, form: { enabled: "true", csrf } });
    expect(missing.text).toContain("Recruitment needs HRM, which is off.");
    const together = await page("POST", "/app/settings/packages/recruitment", { cookie, form: { enabled: "true", with_dependencies: "true", csrf } });
    expect(together.text).toContain("Recruitment is on.");
    expect((await call("GET", "/packages", { token: ws.token })).json.data.find((p: { name: string }) => p.name === "hrm").enabled).toBe(true);
  });

  it("render widgets as SVG charts and numbers from the API's data", async () => {
    const { ws, cookie } = await owner();
    await create(ws, "employees", { name: "Ana", email: "ana@web.co", department: "Engineering" });
    const res = await page("GET", "/app?period=7d", { cookie });
    expect(res.text).toContain('<option value="7d" selected="">');
    expect(res.text).toMatch(
      /<section class="card" aria-labelledby="hrm.headcount-title" data-widget="hrm.headcount"><h2 id="hrm.headcount-title"><a href="\/app\/employees\?status=active">Headcount<\/a><\/h2><div class="stat">1<\/div><\/section>/,
    );
    expect(res.text).toMatch(
      /<svg class="chart" viewBox="0 0 560 190" role="img" aria-labelledby="sales.new_contacts-chart-title"><title id="sales.new_contacts-chart-title">New contacts: 7 days, 0 in total<\/title>/,
    );
    expect((await page("GET", "/app?period=nonsense", { cookie })).text).toContain('<option value="30d" selected="">');
  });
});

describe("a chat-prepared action (security review)", () => {
  it("shows its summary, the record it changes and the call it makes before the Confirm button", async () => {
    const { ws, cookie } = await owner();
    const deal = await create(ws, "deals", { name: "Big Co renewal", value: 500000 });
    const asked = await call("POST", "/assistant/messages", { token: ws.token, body: { message: `move deal Big Co renewal to won` } });
    expect(asked.status, asked.text).toBe(200);
    const action = asked.json.data.reply.action;
    expect(action).toBeDefined();
    const res = await page("GET", `/app/assistant?action=${action.id}`, { cookie });
    expect(res.status).toBe(200);
    const card = res.text.slice(res.text.indexOf('id="pending-action"'));
    expect(card).toContain(action.summary.replace(/"/g, "&quot;"));
    expect(card).toContain(`Big Co renewal (deals #${deal.id})`);
    expect(card).toMatch(/(PUT|POST|PATCH) \/api\/v1\/deals\/\d+/);
    expect(card.indexOf("Big Co renewal")).toBeLessThan(card.indexOf("Confirm action"));
    // Another user's action, or an unknown one, is not shown.
    const stranger = await owner();
    const other = await page("GET", `/app/assistant?action=${action.id}`, { cookie: stranger.cookie });
    expect(other.text).not.toContain("Big Co renewal");
    expect(other.text).toContain("That action is not available");
  });
});
