import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { call, dbOf, env, expectError, freshIp, signup, uniqueEmail } from "./helpers";

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
