import { createExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { packages } from "../src/index";
import { createPlatform } from "../src/platform/create";
import type { Limiter } from "../src/platform/rate-limit/limiter";
import { clock } from "../src/platform/time";
import { call, dbOf, env, expectError, setPlan, signup } from "./helpers";

const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

const count = async (workspaceId: number) =>
  (await dbOf(workspaceId))
    .prepare("SELECT count(*) AS n FROM contacts WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>()
    .then((r) => r?.n);

let pinned = 0;
/** Pins the worker's clock to a fresh minute window, plus `offsetMs`; `advance` moves it on. */
function pinClock(offsetMs = 0): number {
  const windowStart = (Math.floor(Date.now() / 60_000) + 2) * 60_000;
  pinned = windowStart + offsetMs;
  clock.now = () => pinned;
  return windowStart;
}
const advance = (ms: number) => {
  pinned += ms;
};

describe("per-workspace limits", () => {
  it("lets 60 requests of a Starter workspace through counting down, refuses the 61st, and leaves others alone", async () => {
    const windowStart = pinClock(5_000);
    const ws = await signup();
    const other = await signup();
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await call("GET", "/me", { token: ws.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("60");
      expect(res.headers.get("x-ratelimit-reset")).toBe(String((windowStart + 60_000) / 1000));
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));

    const refused = await call("POST", "/contacts", { token: ws.token, body: { name: "Late", email: "late@example.com" } });
    expectError(refused, 429, "rate_limited");
    expect(refused.headers.get("retry-after")).toBe("55");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await count(ws.workspaceId)).toBe(0);
    expectError(await call("GET", "/contacts", { token: ws.token }), 429, "rate_limited");

    const unaffected = await call("GET", "/me", { token: other.token });
    expect(unaffected.status).toBe(200);
    expect(unaffected.headers.get("x-ratelimit-remaining")).toBe("59");
  });

  it("starts counting again in the next window", async () => {
    pinClock(59_000);
    const ws = await signup();
    for (let i = 0; i < 60; i++) expect((await call("GET", "/me", { token: ws.token })).status).toBe(200);
    expectError(await call("GET", "/me", { token: ws.token }), 429, "rate_limited");
    advance(1_000);
    const next = await call("GET", "/me", { token: ws.token });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe("59");
  });

  it("applies a plan change from the next request", async () => {
    pinClock();
    const ws = await signup();
    expect((await call("GET", "/subscription", { token: ws.token })).json.data).toEqual({
      plan: "starter",
      rate_limit_per_minute: 60,
      updated_at: expect.any(String),
    });
    const upgraded = await setPlan(ws, "pro");
    expect(upgraded.json.data).toMatchObject({ plan: "pro", rate_limit_per_minute: 300 });
    const next = await call("GET", "/me", { token: ws.token });
    expect(next.headers.get("x-ratelimit-limit")).toBe("300");
    expect(next.json.data.workspace.plan).toBe("pro");
    const event = await (await dbOf(ws.workspaceId))
      .prepare("SELECT type, data FROM events WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ type: string; data: string }>();
    expect(event?.type).toBe("subscription.updated");
    expect(JSON.parse(event!.data)).toEqual({ plan: "pro", previous_plan: "starter", change: "upgrade" });
    // The same plan again is a no-op: no second event.
    await setPlan(ws, "pro");
    const events = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM events WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(events?.n).toBe(1);
  });

  it("lets only the owner change the plan", async () => {
    const ws = await signup();
    const apiToken = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "admin", scopes: ["admin"] } })).json.data.token;
    expectError(await call("PUT", "/subscription", { token: apiToken, body: { plan: "pro" } }), 403, "forbidden");
    expectError(await call("PUT", "/subscription", { token: ws.token, body: { plan: "platinum" } }), 400, "validation_error");
  });

  it("never lets more than the limit through when 100 requests arrive at once", async () => {
    pinClock();
    const ws = await signup();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call("POST", "/contacts", { token: ws.token, body: { name: `C${i}`, email: `c${i}@example.com` } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect(await count(ws.workspaceId)).toBe(60);
  });
});

describe("anonymous limits", () => {
  it("limits wrong-password attempts per client IP and tags 401s with the headers", async () => {
    pinClock();
    const ws = await signup();
    const ip = "203.0.113.7";
    for (let i = 0; i < 60; i++) {
      const res = await call("POST", "/auth/token", { body: { email: ws.email, password: `wrong-${i}-password` }, ip });
      expect(res.status).toBe(401);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(59 - i));
    }
    const blocked = await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password }, ip });
    expectError(blocked, 429, "rate_limited");
    expect(blocked.headers.get("retry-after")).not.toBeNull();
    // Another client is not affected, and a bad token counts against the IP too.
    expect((await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password }, ip: "203.0.113.8" })).status).toBe(200);
    const badToken = await call("GET", "/me", { headers: { authorization: "Bearer bps_nope" }, ip });
    expectError(badToken, 429, "rate_limited");
  });

  it("puts the headers on every kind of error response", async () => {
    const ws = await signup();
    for (const res of [
      await call("GET", "/me"),
      await call("GET", "/contacts/999999", { token: ws.token }),
      await call("POST", "/contacts", { token: ws.token, body: {} }),
      await call("POST", "/contacts", { token: ws.token, body: "{" }),
      await call("GET", "/no-such-route", { token: ws.token }),
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get("x-ratelimit-limit"), res.text).not.toBeNull();
      expect(res.headers.get("x-ratelimit-remaining")).not.toBeNull();
      expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    }
  });
});

describe("limiter failure", () => {
  it("serves the request when the limiter is unreachable (fail open)", async () => {
    const broken: Limiter = {
      check: () => Promise.reject(new Error("durable object unreachable")),
      setLimit: () => Promise.reject(new Error("durable object unreachable")),
    };
    const { app } = createPlatform(packages, { limiter: () => broken });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await app.request("/api/v1/no-such-route", {}, env, createExecutionContext());
    expect(res.status).toBe(404);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("failing open"));
  });
});
