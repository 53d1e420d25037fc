import { describe, expect, it } from "vitest";
import { call, expectError, freshIp, signup, uniqueEmail, userWithRole } from "./helpers";

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
