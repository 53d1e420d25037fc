import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";

export const BASE = "http://127.0.0.1:8787/api/v1";

let ipCounter = 0;
/** A distinct client IP per helper call site, so anonymous per-IP limits never couple tests. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export type CallOptions = {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  ip?: string;
};

/** One request through the real worker (exports.default.fetch); the body is always consumed. */
export async function call(method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  // Anonymous requests are limited per client IP: each call is its own client unless a test says otherwise.
  headers["cf-connecting-ip"] = options.ip ?? freshIp();
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body }));
  const text = await response.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

let emailCounter = 0;
export function uniqueEmail(label = "user"): string {
  emailCounter += 1;
  return `${label}-${Date.now().toString(36)}-${emailCounter}@example.com`;
}

export type Workspace = { token: string; workspaceId: number; email: string; password: string };

/** Signs up a fresh workspace and returns its owner's session token. */
export async function signup(name = "Acme"): Promise<Workspace> {
  const email = uniqueEmail("owner");
  const password = "correct horse battery";
  const res = await call("POST", "/auth/signup", { body: { workspace_name: name, name: "Owner", email, password }, ip: freshIp() });
  expect(res.status, res.text).toBe(201);
  return { token: res.json.data.token, workspaceId: res.json.data.workspace_id, email, password };
}

/** Moves the workspace to a plan (owner only), e.g. so a test may send more than 60 requests a minute. */
export async function setPlan(ws: Workspace, plan: "starter" | "pro" | "enterprise") {
  const res = await call("PUT", "/subscription", { token: ws.token, body: { plan } });
  expect(res.status, res.text).toBe(200);
  return res;
}

/** Adds a user with a role to the workspace and logs them in. */
export async function userWithRole(owner: Workspace, role: "admin" | "member" | "viewer"): Promise<string> {
  const email = uniqueEmail(role);
  const password = "another long password";
  const created = await call("POST", "/users", { token: owner.token, body: { name: role, email, password, role } });
  expect(created.status, created.text).toBe(201);
  const login = await call("POST", "/auth/token", { body: { email, password }, ip: freshIp() });
  expect(login.status, login.text).toBe(200);
  return login.json.token;
}

/** Asserts the contract's error envelope and returns the error. */
export function expectError(res: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.json?.success, res.text).toBe(false);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe("string");
  expect(res.json.error.request_id).toBe(res.headers.get("x-request-id"));
  return res.json.error as { code: string; message: string; details?: any; request_id: string };
}

export { env };

/** POST /{resource} and return the created object (asserting 201). */
export async function create(ws: Workspace, resource: string, body: Record<string, unknown>): Promise<any> {
  const res = await call("POST", `/${resource}`, { token: ws.token, body });
  expect(res.status, `${resource}: ${res.text}`).toBe(201);
  return res.json.data;
}

/** The events recorded in the outbox for a workspace, oldest first. */
export async function recordedEvents(workspaceId: number, type?: string) {
  const rows = await env.DB.prepare(
    `SELECT type, data, previous_attributes FROM events WHERE workspace_id = ? ${type ? "AND type = ?" : ""} ORDER BY created_at, rowid`,
  )
    .bind(...(type ? [workspaceId, type] : [workspaceId]))
    .all<{ type: string; data: string; previous_attributes: string | null }>();
  return rows.results.map((row) => ({
    type: row.type,
    data: JSON.parse(row.data),
    previous_attributes: row.previous_attributes ? JSON.parse(row.previous_attributes) : undefined,
  }));
}
