import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, expect, vi } from "vitest";
import { clock } from "../src/platform/time";

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
  /** The request's `cf` object as Cloudflare's edge would set it (country, region, city…). */
  cf?: Record<string, unknown>;
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
  const response = await exports.default.fetch(new Request(`${BASE}${path}`, { method, headers, body, ...(options.cf ? { cf: options.cf } : {}) }));
  const text = await response.text();
  let json: any;
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

/** The shard (binding name and database) that holds a workspace's business rows, read from the directory. */
export async function shardOf(workspaceId: number): Promise<{ name: string; db: D1Database }> {
  const row = await env.DB.prepare("SELECT shard FROM workspaces WHERE id = ?").bind(workspaceId).first<{ shard: string }>();
  if (!row) throw new Error(`no workspace ${workspaceId}`);
  return { name: row.shard, db: (env as unknown as Record<string, D1Database>)[row.shard]! };
}

/** The database that holds a workspace's business rows (its shard). */
export const dbOf = async (workspaceId: number) => (await shardOf(workspaceId)).db;

/** The events recorded in the outbox for a workspace, oldest first. */
export async function recordedEvents(workspaceId: number, type?: string) {
  const rows = await (await dbOf(workspaceId))
    .prepare(`SELECT type, data, previous_attributes FROM events WHERE workspace_id = ? ${type ? "AND type = ?" : ""} ORDER BY created_at, rowid`)
    .bind(...(type ? [workspaceId, type] : [workspaceId]))
    .all<{ type: string; data: string; previous_attributes: string | null }>();
  return rows.results.map((row) => ({
    type: row.type,
    data: JSON.parse(row.data),
    previous_attributes: row.previous_attributes ? JSON.parse(row.previous_attributes) : undefined,
  }));
}

/**
 * A D1 binding that counts round trips (each statement run on its own, each batch): test-only, wrapped
 * around the real local D1. Pass it as DB with `fetchWith`.
 */
export function countingD1(d1: D1Database) {
  const counter = { calls: 0, statements: 0 };
  const real = new WeakMap<object, D1PreparedStatement>();
  const counted = <T>(run: () => T): T => {
    counter.calls++;
    counter.statements++;
    return run();
  };
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapper = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values)),
      first: (...args: [string?]) => counted(() => statement.first(...(args as []))),
      all: () => counted(() => statement.all()),
      run: () => counted(() => statement.run()),
      raw: (options?: { columnNames?: boolean }) => counted(() => statement.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    real.set(wrapper, statement);
    return wrapper;
  };
  const binding = {
    prepare: (query: string) => wrap(d1.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      counter.calls++;
      counter.statements += statements.length;
      return d1.batch(statements.map((statement) => real.get(statement) ?? statement));
    },
    exec: (query: string) => {
      counter.calls++;
      return d1.exec(query);
    },
    withSession: (constraint?: string) => {
      const session = d1.withSession(constraint as D1SessionConstraint);
      return Object.assign(Object.create(binding), {
        prepare: (query: string) => wrap(session.prepare(query)),
        batch: (statements: D1PreparedStatement[]) => {
          counter.calls++;
          counter.statements += statements.length;
          return session.batch(statements.map((statement) => real.get(statement) ?? statement));
        },
        getBookmark: () => session.getBookmark(),
      });
    },
  } as unknown as D1Database;
  return { binding, counter };
}

/** Counting wrappers around every database binding (directory and shards), summed: test-only. */
export function countingDatabases() {
  const names = String(env.SHARDS)
    .split(",")
    .map((name) => name.trim());
  const wrapped = names.map((name) => [name, countingD1((env as unknown as Record<string, D1Database>)[name]!)] as const);
  return {
    bindings: Object.fromEntries(wrapped.map(([name, counting]) => [name, counting.binding])),
    calls: () => wrapped.reduce((sum, [, counting]) => sum + counting.counter.calls, 0),
    reset: () => {
      for (const [, counting] of wrapped) {
        counting.counter.calls = 0;
        counting.counter.statements = 0;
      }
    },
  };
}

/** One request through the real worker module with some bindings or variables replaced. */
export async function fetchWith(overrides: Record<string, unknown>, method: string, path: string, options: CallOptions = {}) {
  const { default: worker } = await import("../src/index");
  const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
  const headers: Record<string, string> = { "cf-connecting-ip": options.ip ?? freshIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${BASE}${path}`, { method, headers, body }), { ...env, ...overrides } as typeof env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/**
 * Any fetch from the worker during a test fails it (the assistant and the chat bot never call out: answers go in
 * the HTTP response); the clock is put back after each test. Call at a file's top.
 */
export function noOutboundCalls() {
  const realNow = clock.now;
  let outbound: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    outbound = vi.spyOn(globalThis, "fetch");
  });
  afterEach(() => {
    expect(outbound).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    clock.now = realNow;
  });
}
