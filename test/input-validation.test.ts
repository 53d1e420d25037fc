import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { fromBase64 } from "../src/platform/crypto";
import { call, env, expectError, signup } from "./helpers";

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
