import { exports } from "cloudflare:workers";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { fromBase64 } from "../src/platform/crypto";
import { clock } from "../src/platform/time";
import { verifySsoToken } from "../src/sso/verify";
import { call, env, expectError, freshIp, signup, type Workspace } from "./helpers";

const ISSUER = "http://127.0.0.1:8787";
const APP_URL = "https://hrm.example/app";
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

async function configure(ws: Workspace, app = "hrm-pro") {
  const updated = await call("PUT", `/sso/apps/${app}`, { token: ws.token, body: { app_url: APP_URL, enabled: true } });
  expect(updated.status, updated.text).toBe(200);
  const rotated = await call("POST", `/sso/apps/${app}/secret`, { token: ws.token });
  expect(rotated.status).toBe(200);
  return rotated.json.data.secret as string;
}

async function ssoToken(ws: Workspace, app = "hrm-pro") {
  const res = await call("POST", "/sso/token", { token: ws.token, body: { app } });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { token: string; expires_in: number; app_url: string; launch_url: string };
}

const refresh = (jwt: string) => call("POST", "/sso/refresh", { headers: { authorization: `Bearer ${jwt}` } });
const b64url = (value: object) => btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

describe("SSO apps", () => {
  it("lists the four apps, configures one, and shows its secret once", async () => {
    const ws = await signup();
    const before = await call("GET", "/sso/apps", { token: ws.token });
    expect(before.json.data.map((a: { app: string }) => a.app)).toEqual(["hrm-pro", "sales-pro", "accounting-pro", "project-management-pro"]);
    expect(before.json.data[0]).toMatchObject({ app_url: null, enabled: false, secret_set: false });
    const secret = await configure(ws);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fromBase64(secret)).toHaveLength(32);
    const after = await call("GET", "/sso/apps", { token: ws.token });
    expect(after.json.data[0]).toMatchObject({ app: "hrm-pro", app_url: APP_URL, enabled: true, secret_set: true });
    expect(after.text).not.toContain(secret);
    expectError(await call("PUT", "/sso/apps/crm-pro", { token: ws.token, body: { enabled: true } }), 404, "not_found");
    expectError(await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { app_url: "javascript:alert(1)" } }), 400, "validation_error");
  });

  it("issues tokens only to sessions, for enabled apps", async () => {
    const ws = await signup();
    expectError(await call("POST", "/sso/token", { token: ws.token, body: { app: "hrm-pro" } }), 409, "conflict");
    await configure(ws);
    const apiToken = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "t", scopes: ["admin"] } })).json.data.token;
    expectError(await call("POST", "/sso/token", { token: apiToken, body: { app: "hrm-pro" } }), 403, "forbidden");
    expectError(await call("POST", "/sso/token", { body: { app: "hrm-pro" } }), 401, "unauthorized");
  });
});

describe("SSO tokens", () => {
  it("are HS256 JWTs with the contract's claims that jose verifies", async () => {
    const ws = await signup();
    const secret = await configure(ws);
    const grant = await ssoToken(ws);
    expect(grant.expires_in).toBe(60);
    expect(grant.app_url).toBe(APP_URL);
    expect(grant.launch_url).toBe(`${APP_URL}#sso_token=${grant.token}`);
    expect(decodeProtectedHeader(grant.token)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(grant.token, fromBase64(secret), { algorithms: ["HS256"], audience: "hrm-pro", issuer: ISSUER });
    const me = (await call("GET", "/me", { token: ws.token })).json.data.user;
    expect(payload).toEqual({
      iss: ISSUER,
      aud: "hrm-pro",
      sub: String(me.id),
      workspace_id: ws.workspaceId,
      email: me.email,
      name: me.name,
      role: "owner",
      iat: expect.any(Number),
      nbf: payload.iat,
      exp: payload.iat! + 60,
      jti: expect.any(String),
      sid: expect.stringMatching(/^\d+$/),
    });
    expect(await verifySsoToken(grant.token, secret, { audience: "hrm-pro", issuer: ISSUER })).toEqual(payload);
  });

  it("are refused by our verifier when forged, tampered, misaddressed, expired, unsigned or re-keyed", async () => {
    const ws = await signup();
    const secret = await configure(ws);
    const grant = await ssoToken(ws);
    const [header, payload, signature] = grant.token.split(".") as [string, string, string];
    const claims = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
    const key = fromBase64(secret);
    const options = { audience: "hrm-pro", issuer: ISSUER };
    const refused = async (token: string, reason: RegExp, extra: Partial<typeof options> & { now?: number } = {}) =>
      expect(verifySsoToken(token, secret, { ...options, ...extra })).rejects.toThrow(reason);

    await refused(`${b64url({ alg: "none", typ: "JWT" })}.${payload}.`, /algorithm none/);
    await refused(await new SignJWT(claims).setProtectedHeader({ alg: "HS512" }).sign(key), /algorithm HS512/);
    await refused(`${header}.${b64url({ ...claims, role: "admin" })}.${signature}`, /bad signature/);
    await refused(grant.token, /wrong audience/, { audience: "sales-pro" });
    await refused(grant.token, /wrong issuer/, { issuer: "https://evil.example" });
    await refused(grant.token, /expired/, { now: (claims.exp + 11) * 1000 });
    await expect(verifySsoToken(grant.token, secret, { ...options, now: (claims.exp + 9) * 1000 })).resolves.toBeTruthy(); // 10 s leeway
    await refused(grant.token, /not yet valid/, { now: (claims.nbf - 11) * 1000 });
    const { exp: _, ...withoutExp } = claims;
    await refused(await new SignJWT(withoutExp).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key), /exp is required/);
    await refused("not.a.jwt", /malformed|signature/);

    const rotated = (await call("POST", "/sso/apps/hrm-pro/secret", { token: ws.token })).json.data.secret;
    await expect(verifySsoToken(grant.token, rotated, options)).rejects.toThrow(/bad signature/);
  });
});

describe("SSO refresh", () => {
  it("exchanges a valid token for a fresh one with the same sub, aud and sid", async () => {
    const ws = await signup();
    const secret = await configure(ws);
    const grant = await ssoToken(ws);
    const res = await refresh(grant.token);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.token).not.toBe(grant.token);
    const [before, after] = await Promise.all(
      [grant.token, res.json.data.token].map((t) => verifySsoToken(t, secret, { audience: "hrm-pro", issuer: ISSUER })),
    );
    expect(after).toMatchObject({ sub: before!.sub, aud: before!.aud, sid: before!.sid, workspace_id: ws.workspaceId });
    expect(after!.jti).not.toBe(before!.jti);
  });

  it("refuses (401) after the session is revoked, the secret rotated, the app disabled, or the token expired", async () => {
    const ws = await signup();
    await configure(ws);
    // Expired: a token issued 71 s ago is past exp plus the 10 s leeway.
    clock.now = () => Date.now() - 71_000;
    const stale = await ssoToken(ws);
    clock.now = realNow;
    expectError(await refresh(stale.token), 401, "unauthorized");
    expectError(await refresh("garbage"), 401, "unauthorized");
    expectError(await call("POST", "/sso/refresh"), 401, "unauthorized");

    const rotatedAway = await ssoToken(ws);
    await call("POST", "/sso/apps/hrm-pro/secret", { token: ws.token });
    expectError(await refresh(rotatedAway.token), 401, "unauthorized");

    const disabled = await ssoToken(ws);
    await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { enabled: false } });
    expectError(await refresh(disabled.token), 401, "unauthorized");
    await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { enabled: true } });

    const live = await ssoToken(ws);
    expect((await refresh(live.token)).status).toBe(200);
    await call("DELETE", "/auth/token", { token: ws.token });
    const afterLogout = await refresh(live.token);
    expectError(afterLogout, 401, "unauthorized");
    expect(afterLogout.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });
});

describe("embedding", () => {
  it("serves the embed script and the demo pro app, whose backend verifies tokens", async () => {
    const script = await call("GET", "/sso/embed.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(script.text).toContain("postMessage");
    const ws = await signup();
    await configure(ws);
    const grant = await ssoToken(ws);
    const verify = (token: string) =>
      exports.default.fetch(
        new Request("http://127.0.0.1:8787/demo/pro-app/verify", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token }),
        }),
      );
    const ok = await verify(grant.token);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { claims: { aud: string } }).claims.aud).toBe("hrm-pro");
    const bad = await verify(`${grant.token}x`);
    expect(bad.status).toBe(401);
    await bad.text();
    const page = await exports.default.fetch("http://127.0.0.1:8787/demo/pro-app");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<!doctype html>");
    // The stand-in dashboard is gone: the real one embeds apps at /app/apps/{app}.
    expect((await exports.default.fetch("http://127.0.0.1:8787/demo/dashboard")).status).toBe(404);
  });
});

describe("the demo pro app (security review)", () => {
  const demo = (body: string | null, headers: Record<string, string> = { "content-type": "application/json" }, ip = freshIp()) =>
    exports.default.fetch(new Request("http://127.0.0.1:8787/demo/pro-app/verify", { method: "POST", headers: { ...headers, "cf-connecting-ip": ip }, body }));

  it("answers bad input with 400 in the error shape, never 500, and counts against the per-IP limit", async () => {
    for (const body of ["null", "[]", '"token"', '{"token": 5}', "{}"]) {
      const res = await demo(body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("validation_error");
    }
    const broken = await demo("{not json");
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    const ip = freshIp();
    let last: Response | undefined;
    // (Windows are whole minutes: the 61 calls are made at one moment, not across a minute's turn.)
    const realNow = clock.now;
    const moment = Date.now();
    clock.now = () => moment;
    try {
      for (let i = 0; i < 61; i++) {
        last = await demo("null", undefined, ip);
        if (i < 60) expect(last.headers.get("x-ratelimit-remaining")).toBe(String(59 - i));
        await last.text();
      }
    } finally {
      clock.now = realNow;
    }
    expect(last!.status).toBe(429);
  });

  it("is not served in production (no local flag, no DEMO)", async () => {
    const { default: worker } = await import("../src/index");
    const { createExecutionContext } = await import("cloudflare:test");
    const production = { ...env, ALLOW_INSECURE_WEBHOOK_URLS: "false", PUBLIC_BASE_URL: "https://api.example.com" } as typeof env;
    for (const path of ["/demo/pro-app", "/demo/pro-app/verify"]) {
      const res = await worker.fetch(
        new Request(`https://api.example.com${path}`, {
          method: path.endsWith("verify") ? "POST" : "GET",
          headers: { "content-type": "application/json" },
          body: path.endsWith("verify") ? "{}" : undefined,
        }),
        production,
        createExecutionContext(),
      );
      expect(res.status, path).toBe(404);
      await res.text();
    }
    const withDemo = await worker.fetch(
      new Request("https://api.example.com/demo/pro-app"),
      { ...production, DEMO: "true" } as typeof env,
      createExecutionContext(),
    );
    expect(withDemo.status).toBe(200);
    await withDemo.text();
  });
});

describe("app_url (security review)", () => {
  it("must be https on a public host outside local development", async () => {
    const { default: worker } = await import("../src/index");
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const ws = await signup();
    const production = { ...env, ALLOW_INSECURE_WEBHOOK_URLS: "false", PUBLIC_BASE_URL: "https://api.example.com" } as typeof env;
    const put = async (app_url: string) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request("https://api.example.com/api/v1/sso/apps/hrm-pro", {
          method: "PUT",
          headers: { authorization: `Bearer ${ws.token}`, "content-type": "application/json", "cf-connecting-ip": freshIp() },
          body: JSON.stringify({ app_url }),
        }),
        production,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return { status: res.status, json: (await res.json()) as { error?: { details: { path: string }[] } } };
    };
    for (const url of [
      "http://hrm.example.com/",
      "https://127.0.0.1/",
      "https://localhost:8443/",
      "https://10.0.0.5/",
      "https://[::1]/",
      "https://169.254.169.254/",
    ]) {
      const res = await put(url);
      expect(res.status, url).toBe(400);
      expect(res.json.error!.details[0]!.path).toBe("app_url");
    }
    expect((await put("https://hrm-pro.example.com/")).status).toBe(200);
  });
});
