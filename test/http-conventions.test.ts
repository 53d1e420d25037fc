import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../src/platform/time";
import { call, create, expectError, freshIp, setPlan, signup, userWithRole } from "./helpers";

const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

/** Pins the worker's clock into a fresh minute window (+5 s), so a test owns its rate-limit window. */
function pinClock() {
  const windowStart = (Math.floor(Date.now() / 60_000) + 2) * 60_000;
  clock.now = () => windowStart + 5_000;
  return windowStart;
}

const ORIGIN = { origin: "https://app.example.org" };

describe("429 responses are readable by browsers", () => {
  it("per workspace: the 429 carries CORS headers, the rate-limit headers and Retry-After", async () => {
    pinClock();
    const ws = await signup();
    for (let i = 0; i < 60; i++) expect((await call("GET", "/me", { token: ws.token, headers: ORIGIN })).status).toBe(200);
    for (const method of ["GET", "POST"] as const) {
      const refused = await call(method, method === "GET" ? "/me" : "/contacts", {
        token: ws.token,
        headers: ORIGIN,
        body: method === "POST" ? { name: "A", email: "a@example.com" } : undefined,
      });
      expectError(refused, 429, "rate_limited");
      expect(refused.headers.get("access-control-allow-origin")).toBe("*");
      const exposed = (refused.headers.get("access-control-expose-headers") ?? "").toLowerCase();
      for (const header of ["retry-after", "x-ratelimit-remaining", "ratelimit", "ratelimit-policy", "x-request-id"])
        expect(exposed.split(/,\s*/)).toContain(header);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(refused.headers.get("ratelimit")).toMatch(/r=0;/);
    }
  });

  it("per IP: the anonymous 429 carries CORS headers too", async () => {
    pinClock();
    const ip = freshIp();
    for (let i = 0; i < 60; i++) await call("POST", "/auth/token", { ip, headers: ORIGIN, body: { email: "nobody@example.com", password: "wrong password" } });
    const refused = await call("POST", "/auth/token", { ip, headers: ORIGIN, body: { email: "nobody@example.com", password: "wrong password" } });
    expectError(refused, 429, "rate_limited");
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(refused.headers.get("retry-after")).toBe("55");
  });
});

describe("IETF RateLimit headers beside X-RateLimit-*", () => {
  it("names the policy (quota, window) and the remaining quota and seconds to reset", async () => {
    pinClock();
    const ws = await signup();
    const res = await call("GET", "/me", { token: ws.token });
    expect(res.headers.get("ratelimit-policy")).toBe('"workspace";q=60;w=60');
    expect(res.headers.get("ratelimit")).toBe('"workspace";r=59;t=55');
    const anonymous = await call("GET", "/me");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("ratelimit-policy")).toBe('"ip";q=60;w=60');
    expect(anonymous.headers.get("ratelimit")).toBe('"ip";r=59;t=55');
  });
});

describe("conditional GETs", () => {
  it("a resource carries a weak ETag; If-None-Match answers 304 with no body and the same validators", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const contact = await create(ws, "contacts", { name: "Ada Lovelace", email: "ada@example.com" });
    const first = await call("GET", `/contacts/${contact.id}`, { token: ws.token });
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag")!;
    expect(tag).toMatch(/^W\/"[A-Za-z0-9+/=_-]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");

    const again = await call("GET", `/contacts/${contact.id}`, { token: ws.token, headers: { "if-none-match": tag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(tag);
    expect(again.headers.get("x-request-id")).toBeTruthy();
    expect(again.headers.get("x-ratelimit-remaining")).toBeTruthy();

    // A change makes a new tag: the old one no longer matches.
    expect((await call("PUT", `/contacts/${contact.id}`, { token: ws.token, body: { company: "Analytical Engines" } })).status).toBe(200);
    const changed = await call("GET", `/contacts/${contact.id}`, { token: ws.token, headers: { "if-none-match": tag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(tag);
  });

  it("lists carry an ETag too, and writes and errors carry none", async () => {
    const ws = await signup();
    await create(ws, "contacts", { name: "Grace Hopper", email: "grace@example.com" });
    const list = await call("GET", "/contacts", { token: ws.token });
    const tag = list.headers.get("etag")!;
    expect(tag).toMatch(/^W\//);
    expect((await call("GET", "/contacts", { token: ws.token, headers: { "if-none-match": `"other", ${tag}` } })).status).toBe(304);
    const created = await call("POST", "/contacts", { token: ws.token, body: { name: "Alan Turing", email: "alan@example.com" } });
    expect(created.headers.get("etag")).toBeNull();
    expect(created.headers.get("cache-control")).toBe("private, no-cache");
    const missing = await call("GET", "/contacts/999999", { token: ws.token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("etag")).toBeNull();
  });

  it("/openapi.json is publicly cacheable with an ETag and revalidates to 304", async () => {
    const res = await call("GET", "/openapi.json");
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d{3,}/);
    const tag = res.headers.get("etag")!;
    expect(tag).toBeTruthy();
    expect((await call("GET", "/openapi.json", { headers: { "if-none-match": tag } })).status).toBe(304);
  });
});

describe("Link headers on lists", () => {
  it("a page with more rows links to the next one with the same cursor as meta.next_cursor, keeping the filters", async () => {
    const ws = await signup();
    for (const name of ["Ann", "Bob", "Cid"]) await create(ws, "contacts", { name, email: `${name.toLowerCase()}@example.com`, company: "Initech" });
    const page = await call("GET", "/contacts?limit=2&company=Initech", { token: ws.token });
    expect(page.json.meta.has_more).toBe(true);
    const link = page.headers.get("link")!;
    const match = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(match, link).not.toBeNull();
    const next = new URL(match![1]!);
    expect(next.pathname).toBe("/api/v1/contacts");
    expect(next.searchParams.get("cursor")).toBe(page.json.meta.next_cursor);
    expect(next.searchParams.get("limit")).toBe("2");
    expect(next.searchParams.get("company")).toBe("Initech");
    const last = await call("GET", `/contacts${next.search}`, { token: ws.token });
    expect(last.json.data).toHaveLength(1);
    expect(last.headers.get("link")).toBeNull();
  });

  it("the admin lists link to their next page as well", async () => {
    const ws = await signup();
    for (let i = 0; i < 3; i++) expect((await call("POST", "/api-tokens", { token: ws.token, body: { name: `t${i}` } })).status).toBe(201);
    const page = await call("GET", "/api-tokens?limit=2", { token: ws.token });
    expect(page.headers.get("link")).toContain(`cursor=${encodeURIComponent(page.json.meta.next_cursor)}`);
  });
});

describe("one rule for empty cursors, and PATCH everywhere (security review)", () => {
  it("an empty ?cursor= is refused on every paged list", async () => {
    const ws = await signup();
    for (const path of ["/contacts", "/users", "/api-tokens", "/webhooks", "/invoices"]) {
      const res = await call("GET", `${path}?cursor=`, { token: ws.token });
      const error = expectError(res, 400, "validation_error");
      expect(error.details[0].path, path).toBe("cursor");
    }
  });

  it("PATCH is an alias of PUT on every route that has PUT", async () => {
    const ws = await signup();
    const member = (
      await call("POST", "/users", {
        token: ws.token,
        body: { name: "M", email: `m-${ws.workspaceId}@example.com`, password: "member password 1", role: "member" },
      })
    ).json.data;
    const patched = await call("PATCH", `/users/${member.id}`, { token: ws.token, body: { role: "viewer" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data.role).toBe("viewer");
    expect((await call("PATCH", "/packages/recruitment", { token: ws.token, body: { enabled: false } })).json.data.enabled).toBe(false);
    const doc = (await call("GET", "/openapi.json")).json;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) if (item.put) expect(item.patch, path).toBeDefined();
  });
});

describe("public assets are long-cached with an ETag", () => {
  it("the tracker script", async () => {
    const res = await call("GET", "/analytics/script.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=86400/);
    const tag = res.headers.get("etag")!;
    expect(tag).toBeTruthy();
    expect((await call("GET", "/analytics/script.js", { headers: { "if-none-match": tag } })).status).toBe(304);
  });
});

async function apiToken(token: string, scopes: string[]) {
  const res = await call("POST", "/api-tokens", { token, body: { name: `t-${scopes.join("-")}`, scopes } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.token as string;
}

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
