import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { PBKDF2_ITERATIONS, PBKDF2_MAX_ITERATIONS, parsePasswordHash } from "../src/platform/auth/password";
import { hashToken } from "../src/platform/auth/tokens";
import { call, env, expectError, freshIp, signup, uniqueEmail, userWithRole } from "./helpers";

describe("signup, token, /me", () => {
  it("signs up, logs in and reads /me", async () => {
    const ws = await signup("Globex");
    const login = await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password }, ip: freshIp() });
    expect(login.status).toBe(200);
    expect(login.json).toEqual({ token: expect.stringMatching(/^bps_[0-9A-Za-z]{43}$/), token_type: "Bearer", expires_in: 3600, workspace_id: ws.workspaceId });

    const me = await call("GET", "/me", { token: login.json.token });
    expect(me.status).toBe(200);
    expect(me.json.data.user).toMatchObject({ email: ws.email, role: "owner", name: "Owner" });
    expect(me.json.data.workspace).toEqual({ id: ws.workspaceId, name: "Globex", plan: "starter" });
  });

  it("stores only a SHA-256 of tokens and a PBKDF2 hash within the Workers cap", async () => {
    const ws = await signup();
    const row = await env.DB.prepare("SELECT token_hash FROM tokens WHERE token_hash = ?")
      .bind(await hashToken(ws.token))
      .first();
    expect(row).not.toBeNull();
    const leaked = await env.DB.prepare("SELECT count(*) AS n FROM tokens WHERE token_hash = ? OR prefix = ?").bind(ws.token, ws.token).first<{ n: number }>();
    expect(leaked?.n).toBe(0);

    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_MAX_ITERATIONS).toBe(100_000);
    const user = await env.DB.prepare("SELECT password_hash FROM users WHERE email = ?").bind(ws.email).first<{ password_hash: string }>();
    const parsed = parsePasswordHash(user!.password_hash);
    expect(parsed?.iterations).toBe(PBKDF2_ITERATIONS);
    expect(parsed?.salt.length).toBe(16);
    expect(user!.password_hash).not.toContain(ws.password);
  });

  it("answers a taken e-mail with 409 and writes no second workspace", async () => {
    const ws = await signup();
    const before = await env.DB.prepare("SELECT count(*) AS n FROM workspaces").first<{ n: number }>();
    const res = await call("POST", "/auth/signup", {
      body: { workspace_name: "Dup", name: "X", email: ws.email.toUpperCase(), password: "long enough password" },
      ip: freshIp(),
    });
    const error = expectError(res, 409, "conflict");
    expect(error.details).toEqual([{ path: "email", message: "already registered" }]);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM workspaces").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it("validates signup fields and refuses short passwords", async () => {
    const res = await call("POST", "/auth/signup", { body: { workspace_name: "", name: "A", email: "nope", password: "short" }, ip: freshIp() });
    const error = expectError(res, 400, "validation_error");
    expect(error.details.map((d: { path: string }) => d.path).sort()).toEqual(["email", "password", "workspace_name"]);
  });

  it("gives the same 401 for a wrong password and an unknown e-mail", async () => {
    const ws = await signup();
    const wrongPassword = await call("POST", "/auth/token", { body: { email: ws.email, password: "not the password" }, ip: freshIp() });
    const unknownEmail = await call("POST", "/auth/token", { body: { email: uniqueEmail("ghost"), password: "not the password" }, ip: freshIp() });
    expectError(wrongPassword, 401, "unauthorized");
    expectError(unknownEmail, 401, "unauthorized");
    const strip = (body: any) => ({ ...body, error: { ...body.error, request_id: undefined } });
    expect(strip(wrongPassword.json)).toEqual(strip(unknownEmail.json));
    expect(wrongPassword.headers.get("www-authenticate")).toBe('Bearer realm="api"');
  });
});

describe("bearer tokens", () => {
  it("answers missing, malformed, garbage, expired and revoked tokens with 401", async () => {
    const missing = await call("GET", "/me");
    expectError(missing, 401, "unauthorized");
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="api"');

    for (const header of ["Basic abc", "Bearer", "Bearer bps_short", `Bearer bps_${"x".repeat(43)}`, "Bearer bps_%%%"]) {
      const res = await call("GET", "/me", { headers: { authorization: header } });
      expectError(res, 401, "unauthorized");
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="api", error="invalid_token"');
    }

    const ws = await signup();
    await env.DB.prepare("UPDATE tokens SET expires_at = ? WHERE token_hash = ?")
      .bind(Date.now() - 1000, await hashToken(ws.token))
      .run();
    expectError(await call("GET", "/me", { token: ws.token }), 401, "unauthorized");

    const other = await signup();
    expect((await call("GET", "/me", { token: other.token })).status).toBe(200);
    expect((await call("DELETE", "/auth/token", { token: other.token })).status).toBe(200);
    expectError(await call("GET", "/me", { token: other.token }), 401, "unauthorized");
  });

  it("refreshes a session and revokes the old one", async () => {
    const ws = await signup();
    const refreshed = await call("POST", "/auth/refresh", { token: ws.token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json).toMatchObject({ token_type: "Bearer", expires_in: 3600, workspace_id: ws.workspaceId });
    expect(refreshed.json.token).not.toBe(ws.token);
    expectError(await call("GET", "/me", { token: ws.token }), 401, "unauthorized");
    expect((await call("GET", "/me", { token: refreshed.json.token })).status).toBe(200);
  });
});

describe("roles and API tokens", () => {
  it("lets a viewer read but not write, and a member not administer", async () => {
    const owner = await signup();
    const viewer = await userWithRole(owner, "viewer");
    const member = await userWithRole(owner, "member");
    expect((await call("GET", "/me", { token: viewer })).json.data.user.role).toBe("viewer");
    expectError(await call("POST", "/api-tokens", { token: viewer, body: { name: "x" } }), 403, "forbidden");
    expectError(await call("GET", "/users", { token: member }), 403, "forbidden");
    expectError(
      await call("POST", "/users", { token: member, body: { name: "x", email: uniqueEmail(), password: "0123456789", role: "viewer" } }),
      403,
      "forbidden",
    );
  });

  it("keeps owners safe from admins and keeps one owner", async () => {
    const owner = await signup();
    const admin = await userWithRole(owner, "admin");
    const me = await call("GET", "/me", { token: owner.token });
    const ownerId = me.json.data.user.id;
    expectError(await call("PUT", `/users/${ownerId}`, { token: admin, body: { role: "member" } }), 403, "forbidden");
    expectError(await call("DELETE", `/users/${ownerId}`, { token: admin }), 403, "forbidden");
    expectError(
      await call("POST", "/users", { token: admin, body: { name: "o", email: uniqueEmail(), password: "0123456789", role: "owner" } }),
      403,
      "forbidden",
    );
    expectError(await call("PUT", `/users/${ownerId}`, { token: owner.token, body: { role: "admin" } }), 409, "conflict");
  });

  it("applies a role change to existing sessions at once and removes a user's tokens", async () => {
    const owner = await signup();
    const admin = await userWithRole(owner, "admin");
    const adminId = (await call("GET", "/me", { token: admin })).json.data.user.id;
    expect((await call("GET", "/users", { token: admin })).status).toBe(200);
    const demoted = await call("PUT", `/users/${adminId}`, { token: owner.token, body: { role: "viewer" } });
    expect(demoted.status).toBe(200);
    expect(demoted.json.data.role).toBe("viewer");
    expectError(await call("GET", "/users", { token: admin }), 403, "forbidden");
    expect((await call("DELETE", `/users/${adminId}`, { token: owner.token })).status).toBe(200);
    expectError(await call("GET", "/me", { token: admin }), 401, "unauthorized");
  });

  it("issues API tokens shown once, scoped, and revocable at once", async () => {
    const owner = await signup();
    const created = await call("POST", "/api-tokens", { token: owner.token, body: { name: "CI", scopes: ["contacts:read", "read"] } });
    expect(created.status).toBe(201);
    const apiToken: string = created.json.data.token;
    expect(apiToken).toMatch(/^bpk_[0-9A-Za-z]{43}$/);
    expect(created.json.data).toMatchObject({ name: "CI", prefix: "bpk_", last_four: apiToken.slice(-4), last_used_at: null });

    const me = await call("GET", "/me", { token: apiToken });
    expect(me.status).toBe(200);
    expect(me.json.data.token).toEqual({ type: "api", scopes: ["contacts:read", "read"], expires_at: null });
    // Scope "read" does not reach the admin area.
    expectError(await call("GET", "/api-tokens", { token: apiToken }), 403, "forbidden");
    // Session-only endpoints refuse API tokens.
    expectError(await call("POST", "/auth/refresh", { token: apiToken }), 403, "forbidden");

    const listed = await call("GET", "/api-tokens", { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(apiToken);
    expect(listed.json.data[0]).toMatchObject({ id: created.json.data.id, last_four: apiToken.slice(-4) });
    expect(listed.json.data[0].last_used_at).not.toBeNull();

    const revoked = await call("DELETE", `/api-tokens/${created.json.data.id}`, { token: owner.token });
    expect(revoked.json).toEqual({ success: true, data: { id: created.json.data.id, deleted: true } });
    expectError(await call("GET", "/me", { token: apiToken }), 401, "unauthorized");
  });

  it("lets an admin-scoped token administer and refuses bad scopes and past expiry", async () => {
    const owner = await signup();
    const admin = await call("POST", "/api-tokens", { token: owner.token, body: { name: "ops", scopes: ["admin"] } });
    expect((await call("GET", "/users", { token: admin.json.data.token })).status).toBe(200);
    const bad = await call("POST", "/api-tokens", { token: owner.token, body: { name: "x", scopes: ["root"], expires_at: "2000-01-01T00:00:00Z" } });
    expect(expectError(bad, 400, "validation_error").details[0].path).toBe("scopes.0");
    const past = await call("POST", "/api-tokens", { token: owner.token, body: { name: "x", expires_at: "2000-01-01T00:00:00Z" } });
    expect(expectError(past, 400, "validation_error").details).toEqual([{ path: "expires_at", message: "must be in the future" }]);
  });

  it("cannot see or revoke another workspace's users or tokens", async () => {
    const a = await signup("A");
    const b = await signup("B");
    const bToken = await call("POST", "/api-tokens", { token: b.token, body: { name: "b" } });
    const bUserId = (await call("GET", "/me", { token: b.token })).json.data.user.id;
    expectError(await call("DELETE", `/api-tokens/${bToken.json.data.id}`, { token: a.token }), 404, "not_found");
    expectError(await call("PUT", `/users/${bUserId}`, { token: a.token, body: { role: "viewer" } }), 404, "not_found");
    expectError(await call("DELETE", `/users/${bUserId}`, { token: a.token }), 404, "not_found");
    const users = await call("GET", "/users", { token: a.token });
    expect(users.json.data.map((u: { id: number }) => u.id)).not.toContain(bUserId);
    expect((await call("GET", "/me", { token: bToken.json.data.token })).status).toBe(200);
  });
});

describe("scheduled sweep", () => {
  it("deletes expired tokens and keeps live ones", async () => {
    const live = await signup();
    const expired = await signup();
    await env.DB.prepare("UPDATE tokens SET expires_at = ? WHERE token_hash = ?")
      .bind(Date.now() - 1, await hashToken(expired.token))
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController(), env, ctx);
    await waitOnExecutionContext(ctx);
    const count = (token: string) =>
      hashToken(token).then((hash) => env.DB.prepare("SELECT count(*) AS n FROM tokens WHERE token_hash = ?").bind(hash).first<{ n: number }>());
    expect((await count(expired.token))?.n).toBe(0);
    expect((await count(live.token))?.n).toBe(1);
  });
});

describe("paged admin lists", () => {
  it("pages users and API tokens newest first with signed cursors", async () => {
    const owner = await signup();
    for (let i = 0; i < 3; i++) await call("POST", "/api-tokens", { token: owner.token, body: { name: `t${i}` } });
    const first = await call("GET", "/api-tokens?limit=2", { token: owner.token });
    expect(first.json.data.map((t: { name: string }) => t.name)).toEqual(["t2", "t1"]);
    expect(first.json.meta).toEqual({ limit: 2, has_more: true, next_cursor: expect.any(String) });
    const second = await call("GET", `/api-tokens?limit=2&cursor=${encodeURIComponent(first.json.meta.next_cursor)}`, { token: owner.token });
    expect(second.json.data.map((t: { name: string }) => t.name)).toEqual(["t0"]);
    expect(second.json.meta.has_more).toBe(false);
    expectError(await call("GET", `/users?cursor=${encodeURIComponent(first.json.meta.next_cursor)}`, { token: owner.token }), 400, "invalid_cursor");
    expectError(await call("GET", "/users?limit=0", { token: owner.token }), 400, "validation_error");
    const users = await call("GET", "/users", { token: owner.token });
    expect(users.json.meta).toEqual({ limit: 25, has_more: false, next_cursor: null });
  });
});

async function apiToken(token: string, scopes: string[]) {
  const res = await call("POST", "/api-tokens", { token, body: { name: `t-${scopes.join("-")}`, scopes } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.token as string;
}

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
