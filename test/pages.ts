import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { call, freshIp, setPlan, signup, uniqueEmail } from "./helpers";

export const ORIGIN = "http://127.0.0.1:8787";

/** A request to the dashboard (outside /api/v1), as a browser would send it. */
export async function page(
  method: string,
  path: string,
  options: { cookie?: string; form?: Record<string, string | string[]>; origin?: string | null; ip?: string; host?: string } = {},
) {
  const headers: Record<string, string> = { "cf-connecting-ip": options.ip ?? freshIp() };
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.form) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.form)) for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
    body = params.toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const origin = options.host ?? ORIGIN;
  if (method === "POST" && options.origin !== null) headers.origin = options.origin ?? origin;
  const response = await exports.default.fetch(new Request(`${origin}${path}`, { method, headers, body, redirect: "manual" }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function signIn(email: string, password: string, ip = freshIp()) {
  const res = await page("POST", "/login", { form: { email, password }, ip });
  expect(res.status, res.text).toBe(303);
  const cookie = /bp_session=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!;
  return `bp_session=${cookie}`;
}

export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

export async function owner() {
  const ws = await signup("Web Co");
  await setPlan(ws, "enterprise");
  return { ws, cookie: await signIn(ws.email, ws.password) };
}

/** Signs in a new user of `role` in the workspace (made through the API) and returns their page cookie. */
export async function signInAs(ws: { token: string }, role: "admin" | "member" | "viewer") {
  const email = uniqueEmail(role);
  const password = "another long password";
  const created = await call("POST", "/users", { token: ws.token, body: { name: role, email, password, role } });
  expect(created.status, created.text).toBe(201);
  return signIn(email, password);
}

/** A form POST from the signed-in page at `from` (its CSRF token), as the browser sends it. */
export async function submit(cookie: string, from: string, action: string, form: Record<string, string | string[]>) {
  const shown = await page("GET", from, { cookie });
  expect(shown.status, shown.text.slice(0, 300)).toBe(200);
  return page("POST", action, { cookie, form: { csrf: csrfOf(shown.text), ...form } });
}
