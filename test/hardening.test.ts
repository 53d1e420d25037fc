import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { SignJWT } from "jose";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { fromBase64 } from "../src/platform/crypto";
import { call, dbOf, env, expectError, freshIp, signup, uniqueEmail, userWithRole } from "./helpers";

async function apiToken(token: string, scopes: string[]) {
  const res = await call("POST", "/api-tokens", { token, body: { name: `t-${scopes.join("-")}`, scopes } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.token as string;
}

describe("idempotency keys belong to a credential and never skip authorization", () => {
  it("does not replay an admin's response to a viewer, a member or a narrower token", async () => {
    const ws = await signup();
    const key = { "idempotency-key": "shared-key-1" };
    const body = { name: "CI", scopes: ["admin"] };
    const original = await call("POST", "/api-tokens", { token: ws.token, body, headers: key });
    expect(original.status).toBe(201);
    const secret: string = original.json.data.token;

    const viewer = await userWithRole(ws, "viewer");
    const member = await userWithRole(ws, "member");
    const reader = await apiToken(ws.token, ["contacts:read"]);
    for (const token of [viewer, member, reader]) {
      const replay = await call("POST", "/api-tokens", { token, body, headers: key });
      expectError(replay, 403, "forbidden");
      expect(replay.text).not.toContain(secret);
      expect(replay.headers.get("idempotent-replayed")).toBeNull();
    }
    // Users and SSO tokens: the same rule.
    const user = { name: "N", email: uniqueEmail("n"), password: "long enough password", role: "admin" };
    expect((await call("POST", "/users", { token: ws.token, body: user, headers: { "idempotency-key": "k2" } })).status).toBe(201);
    expectError(await call("POST", "/users", { token: viewer, body: user, headers: { "idempotency-key": "k2" } }), 403, "forbidden");
  });

  it("keeps keys per credential: another admin runs afresh, the same user's next session replays", async () => {
    const ws = await signup();
    const admin = await userWithRole(ws, "admin");
    const key = { "idempotency-key": "per-credential" };
    const body = { name: "A", email: "a@x.co" };
    const first = await call("POST", "/contacts", { token: ws.token, body, headers: key });
    expect(first.status).toBe(201);
    // Another credential: a different key, so the request runs (and meets the unique e-mail).
    expectError(await call("POST", "/contacts", { token: admin, body, headers: key }), 409, "conflict");
    // The same user signed in again: the same key, replayed.
    const again = await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password }, ip: freshIp() });
    const replay = await call("POST", "/contacts", { token: again.json.token, body, headers: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
    // An API token's keys are its own, even its creator's.
    const token = await apiToken(ws.token, ["write"]);
    expectError(await call("POST", "/contacts", { token, body, headers: key }), 409, "conflict");
  });
});

describe("owner powers need the owner's session", () => {
  it("refuses an admin-scoped API token, even the owner's, every owner-only action", async () => {
    const ws = await signup();
    const ownersAdminToken = await apiToken(ws.token, ["admin"]);
    const owner2 = { name: "O2", email: uniqueEmail("o2"), password: "long enough password", role: "owner" };
    expectError(await call("POST", "/users", { token: ownersAdminToken, body: owner2 }), 403, "forbidden");
    const admin = await call("POST", "/users", { token: ownersAdminToken, body: { ...owner2, email: uniqueEmail("a"), role: "admin" } });
    expect(admin.status, admin.text).toBe(201);
    expectError(await call("PUT", `/users/${admin.json.data.id}`, { token: ownersAdminToken, body: { role: "owner" } }), 403, "forbidden");
    const me = (await call("GET", "/me", { token: ws.token })).json.data.user;
    expectError(await call("PUT", `/users/${me.id}`, { token: ownersAdminToken, body: { role: "admin" } }), 403, "forbidden");
    expectError(await call("PUT", "/subscription", { token: ownersAdminToken, body: { plan: "pro" } }), 403, "forbidden");
    // The owner's own session still can; the token cannot remove the owner it made.
    const second = await call("POST", "/users", { token: ws.token, body: owner2 });
    expect(second.status).toBe(201);
    expectError(await call("DELETE", `/users/${second.json.data.id}`, { token: ownersAdminToken }), 403, "forbidden");
  });
});

describe("money stays exact", () => {
  it("refuses any amount, line or total beyond 2^53 − 1 minor units, and keeps the largest exact", async () => {
    const ws = await signup();
    const customer = (await call("POST", "/customers", { token: ws.token, body: { name: "C" } })).json.data;
    const invoice = (items: unknown[]) => call("POST", "/invoices", { token: ws.token, body: { customer_id: customer.id, items } });
    const hundredLines = Array.from({ length: 100 }, () => ({ description: "x", quantity: 1_000_000, unit_amount: 1e13 }));
    expect(expectError(await invoice(hundredLines), 400, "validation_error").details[0].path).toBe("items.0");
    expectError(await invoice([{ description: "x", quantity: 999999.9999, unit_amount: 9999999999999 }]), 400, "validation_error");
    const sum = expectError(
      await invoice([
        { description: "a", quantity: 1, unit_amount: 5e15 },
        { description: "b", quantity: 1, unit_amount: 5e15 },
      ]),
      400,
      "validation_error",
    );
    expect(sum.details).toEqual([{ path: "items", message: "the invoice total must not exceed 9007199254740991 minor units" }]);
    expectError(await invoice([{ description: "x", quantity: 1, unit_amount: 9007199254740992 }]), 400, "validation_error");
    const largest = await invoice([{ description: "x", quantity: 1, unit_amount: 9007199254740991 }]);
    expect(largest.status).toBe(201);
    expect(largest.text).toContain('"total":9007199254740991');
    expectError(await call("POST", "/deals", { token: ws.token, body: { name: "D", value: 2 ** 53 } }), 400, "validation_error");
    expect((await call("GET", "/invoices?include_total=true", { token: ws.token })).json.meta.total).toBe(1);
  });
});

describe("bad input that used to answer 500", () => {
  it("sends an invoice with no body, an empty body, or an empty JSON body", async () => {
    const ws = await signup();
    const customer = (await call("POST", "/customers", { token: ws.token, body: { name: "C", email: "ap@c.example" } })).json.data;
    const make = async () =>
      (await call("POST", "/invoices", { token: ws.token, body: { customer_id: customer.id, items: [{ description: "x", quantity: 1, unit_amount: 100 }] } }))
        .json.data;
    for (const headers of [{}, { "content-type": "application/json" }, { "content-length": "0" }] as Record<string, string>[]) {
      const invoice = await make();
      const res = await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token, headers });
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(200);
      expect(res.json.data).toMatchObject({ status: "sent", sent_to: "ap@c.example" });
    }
    // A body-required route with no body names the missing fields.
    const empty = expectError(await call("POST", "/contacts", { token: ws.token, headers: { "content-type": "application/json" } }), 400, "validation_error");
    expect(empty.details).toContainEqual({ path: "name", message: "is required" });
  });

  it("answers a cursor with a valid MAC but another shape with invalid_cursor", async () => {
    const ws = await signup();
    const secret = env.CURSOR_SECRET!;
    const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const b64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "");
    for (const position of [
      null,
      42,
      [],
      { r: "contacts" },
      { r: "contacts", w: ws.workspaceId, s: "-id", v: null, i: "7" },
      { r: "contacts", w: ws.workspaceId, s: "-id", v: {}, i: 7 },
    ]) {
      const payload = b64url(new TextEncoder().encode(JSON.stringify(position)));
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload))).slice(0, 16);
      const res = await call("GET", `/contacts?cursor=${payload}.${b64url(mac)}`, { token: ws.token });
      expectError(res, 400, "invalid_cursor");
    }
  });

  it("refuses (401) a well-signed SSO token whose claims have the wrong types", async () => {
    const ws = await signup();
    await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { app_url: "https://hrm.example/app", enabled: true } });
    const secret: string = (await call("POST", "/sso/apps/hrm-pro/secret", { token: ws.token })).json.data.secret;
    const good = (await call("POST", "/sso/token", { token: ws.token, body: { app: "hrm-pro" } })).json.data.token as string;
    const claims = JSON.parse(atob(good.split(".")[1]!.replaceAll("-", "+").replaceAll("_", "/")));
    const key = fromBase64(secret);
    for (const broken of [{ sid: { $ne: 1 } }, { sid: 12 }, { sid: "1 OR 1=1" }, { sub: 5 }, { workspace_id: "1" }]) {
      const jwt = await new SignJWT({ ...claims, ...broken }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);
      expectError(await call("POST", "/sso/refresh", { headers: { authorization: `Bearer ${jwt}` } }), 401, "unauthorized");
    }
    expect((await call("POST", "/sso/refresh", { headers: { authorization: `Bearer ${good}` } })).status).toBe(200);
  });
});

/** A request through the real worker with some variables changed (production settings, missing secrets). */
async function withEnv(
  overrides: Record<string, string | undefined>,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "cf-connecting-ip": freshIp(), ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`http://127.0.0.1:8787/api/v1${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
    { ...env, ...overrides } as typeof env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe("configuration: no public fallback keys", () => {
  it("refuses to serve without its secrets, says so in the log, and reports 503 on /health/ready", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const production = { ALLOW_INSECURE_WEBHOOK_URLS: "false", PUBLIC_BASE_URL: "https://api.example.com" };
    for (const missing of [
      { CURSOR_SECRET: undefined },
      { SIGNING_SECRETS_KEY: undefined },
      { SIGNING_SECRETS_KEY: "no-key-id" },
      { PUBLIC_BASE_URL: undefined },
    ]) {
      const env2 = { ...production, ...missing };
      const me = await withEnv(env2, "GET", "/health/ready");
      expect(me.status, JSON.stringify(missing)).toBe(503);
      expect(me.json).toEqual({ status: "unavailable", database: "ok", configuration: "invalid" });
      const signupRes = await withEnv(env2, "POST", "/auth/signup", {
        body: { workspace_name: "x", name: "x", email: uniqueEmail(), password: "long enough password" },
      });
      expect(signupRes.status).toBe(503);
      expect(signupRes.json.error.code).toBe("service_unavailable");
      expect(signupRes.text).not.toMatch(/CURSOR_SECRET|SIGNING_SECRETS_KEY|PUBLIC_BASE_URL/);
      expect((await withEnv(env2, "GET", "/health")).status).toBe(200);
    }
    expect(errors.mock.calls.map((call) => String(call[0])).join("\n")).toMatch(/configuration error.*CURSOR_SECRET/s);
    expect((await withEnv(production, "GET", "/health/ready")).json).toEqual({ status: "ok", database: "ok" });
    errors.mockRestore();
  });

  it("names PUBLIC_BASE_URL as the SSO issuer, whatever Host the request came with", async () => {
    const ws = await signup();
    await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { app_url: "https://hrm.example/app", enabled: true } });
    await call("POST", "/sso/apps/hrm-pro/secret", { token: ws.token });
    const production = { ALLOW_INSECURE_WEBHOOK_URLS: "false", PUBLIC_BASE_URL: "https://api.example.com/" };
    const grant = await withEnv(production, "POST", "/sso/token", { token: ws.token, body: { app: "hrm-pro" }, headers: { host: "evil.example" } });
    expect(grant.status, grant.text).toBe(200);
    const claims = JSON.parse(atob(grant.json.data.token.split(".")[1].replaceAll("-", "+").replaceAll("_", "/")));
    expect(claims.iss).toBe("https://api.example.com");
    const doc = await withEnv(production, "GET", "/openapi.json");
    expect(doc.json.servers[0].url).toBe("https://api.example.com/api/v1");
    // Refreshing checks the same issuer; in local development it is the request's origin.
    expect((await withEnv(production, "POST", "/sso/refresh", { headers: { authorization: `Bearer ${grant.json.data.token}` } })).status).toBe(200);
    expectError(await call("POST", "/sso/refresh", { headers: { authorization: `Bearer ${grant.json.data.token}` } }), 401, "unauthorized");
  });

  it("opens secrets sealed under an older key and re-seals them under the current one", async () => {
    const ws = await signup();
    const oldRing = { SIGNING_SECRETS_KEY: `old:${btoa(String.fromCharCode(...new Uint8Array(32).fill(9)))}` };
    const created = await withEnv(oldRing, "POST", "/webhooks", { token: ws.token, body: { url: "https://hooks.example.com/x", events: ["*"] } });
    expect(created.status, created.text).toBe(201);
    const stored = async () =>
      (await (await dbOf(ws.workspaceId)).prepare("SELECT secret FROM webhook_endpoints WHERE id = ?").bind(created.json.data.id).first<{ secret: string }>())!
        .secret;
    expect(await stored()).toMatch(/^v2:old:/);
    // The current ring puts a new key first and keeps the old one: the cron re-seals, then the old key may go.
    const rotated = { SIGNING_SECRETS_KEY: `${env.SIGNING_SECRETS_KEY},${oldRing.SIGNING_SECRETS_KEY}` };
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController(), { ...env, ...rotated } as typeof env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await stored()).toMatch(/^v2:test2:/);
    // The re-sealed secret still signs deliveries that verify with the secret shown at creation.
    const deliveries: { body: string; headers: Record<string, string> }[] = [];
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      deliveries.push({ body: await request.text(), headers: Object.fromEntries(request.headers) });
      return new Response("ok");
    });
    const test = await call("POST", `/webhooks/${created.json.data.id}/test`, { token: ws.token });
    expect(test.status).toBe(200);
    await vi.waitUntil(() => deliveries.length > 0, { timeout: 5000 });
    const delivery = deliveries[0]!;
    expect(new Webhook(created.json.data.secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: "webhook.test" });
    fetchSpy.mockRestore();
  });
});

describe("CORS", () => {
  it("answers preflights from any origin without credentials or rate limiting", async () => {
    const ws = await signup();
    for (let i = 0; i < 70; i++) {
      const preflight = await call("OPTIONS", "/contacts", {
        headers: {
          origin: "https://app.example.org",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, idempotency-key",
        },
        ip: "203.0.113.77",
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
      expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
      expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
      expect(preflight.headers.get("x-ratelimit-limit")).toBeNull();
    }
    const res = await call("GET", "/contacts", { token: ws.token, headers: { origin: "https://app.example.org" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toMatch(/X-RateLimit-Remaining/);
    const error = await call("GET", "/contacts", { headers: { origin: "https://app.example.org" } });
    expect(error.status).toBe(401);
    expect(error.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("small things integrators notice", () => {
  it("names the missing scope or role in a 403", async () => {
    const ws = await signup();
    const reader = await apiToken(ws.token, ["contacts:read"]);
    const denied = expectError(await call("POST", "/contacts", { token: reader, body: { name: "A", email: "a@x.co" } }), 403, "forbidden");
    expect(denied.message).toBe("This API token lacks the scope contacts:write (or one of write, admin)");
    expect(denied.details).toEqual([
      { path: "", message: denied.message, missing_scope: "contacts:write", accepted_scopes: ["contacts:write", "write", "admin"] },
    ]);
    const viewer = await userWithRole(ws, "viewer");
    expect(expectError(await call("POST", "/contacts", { token: viewer, body: { name: "A", email: "a@x.co" } }), 403, "forbidden").message).toBe(
      "Your role (viewer) cannot write contacts; that needs member or above",
    );
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const ws = await signup();
    const res = await call("DELETE", "/contacts", { token: ws.token });
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    expectError(await call("GET", "/no-such-thing", { token: ws.token }), 404, "not_found");
  });

  it("words validation in the API's terms and checks currencies against ISO 4217", async () => {
    const ws = await signup();
    const nul = expectError(await call("POST", "/contacts", { token: ws.token, body: { name: null, email: "a@x.co" } }), 400, "validation_error");
    expect(nul.details).toEqual([{ path: "name", message: "must be a string" }]);
    const kinds = expectError(
      await call("POST", "/leads", { token: ws.token, body: { name: "L", email: "l@x.co", status: "hot", value: "12" } }),
      400,
      "validation_error",
    );
    expect(kinds.details).toEqual([
      { path: "status", message: "must be one of new, contacted, qualified, unqualified, converted" },
      { path: "value", message: "must be a number" },
    ]);
    for (const currency of ["ABC", "XYZ", "usdollar"]) {
      const bad = expectError(await call("POST", "/deals", { token: ws.token, body: { name: "D", currency } }), 400, "validation_error");
      expect(bad.details[0]).toEqual({ path: "currency", message: "must be an ISO 4217 currency code such as USD" });
    }
    expect((await call("POST", "/deals", { token: ws.token, body: { name: "D", currency: "jpy" } })).json.data.currency).toBe("JPY");
    const all = JSON.stringify((await call("POST", "/customers", { token: ws.token, body: { name: 5, billing: { country: 7 }, tax_id: [] } })).json);
    expect(all).not.toMatch(/Invalid input|expected string|received/);
  });
});
