import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { newEventId } from "../src/platform/events";
import type { WebhookMessage } from "../src/webhooks/dispatch";
import { call, create, dbOf, env, expectError, fetchWith, freshIp, setPlan, shardOf, signup, type Workspace } from "./helpers";

/** The local deployment binds two shards: the directory DB (shard 0) and SHARD_1. */
const SHARDS = ["DB", "SHARD_1"] as const;
const shard = (name: string) => (env as unknown as Record<string, D1Database>)[name]!;
const FIRST_SHARD_1_ID = 2 ** 40;

const workspacesPerShard = async () =>
  Object.fromEntries(
    await Promise.all(
      SHARDS.map(
        async (name) => [name, (await env.DB.prepare("SELECT count(*) AS n FROM workspaces WHERE shard = ?").bind(name).first<{ n: number }>())!.n] as const,
      ),
    ),
  );

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController(), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** A fresh session token for the workspace's owner (nothing cached for it in the isolate yet). */
async function freshToken(ws: Workspace) {
  const login = await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password }, ip: freshIp() });
  expect(login.status, login.text).toBe(200);
  return login.json.token as string;
}

/** Two workspaces, one on each shard. */
async function onBothShards(): Promise<Record<(typeof SHARDS)[number], Workspace>> {
  const found: Partial<Record<string, Workspace>> = {};
  while (!found.DB || !found.SHARD_1) {
    const ws = await signup();
    found[(await shardOf(ws.workspaceId)).name] ??= ws;
  }
  return found as Record<(typeof SHARDS)[number], Workspace>;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("placement", () => {
  it("puts a new workspace on the shard with the fewest workspaces", async () => {
    for (let i = 0; i < 4; i++) {
      const before = await workspacesPerShard();
      const fewest = SHARDS.reduce((best, name) => (before[name]! < before[best]! ? name : best), SHARDS[0] as string);
      const ws = await signup();
      expect((await shardOf(ws.workspaceId)).name).toBe(fewest);
    }
    const after = await workspacesPerShard();
    expect(Math.abs(after.DB! - after.SHARD_1!)).toBeLessThanOrEqual(1);
  });
});

describe("a workspace's rows live in its shard only", () => {
  it("keeps A's rows physically in one database and B's in the other, with ids that never collide", async () => {
    const { DB: a, SHARD_1: b } = await onBothShards();
    await setPlan(a, "enterprise");
    await setPlan(b, "enterprise");
    const rowsOf = async (ws: Workspace) => {
      const contact = await create(ws, "contacts", { name: "Ada", email: "ada@shards.example" });
      const project = await create(ws, "projects", { name: "Website" });
      const task = await create(ws, "tasks", { title: "Copy", project_id: project.id });
      await call("PUT", `/tasks/${task.id}/status`, { token: ws.token, body: { status: "in_progress" } });
      // Invoice numbers count per workspace, on its shard.
      const customer = await create(ws, "customers", { name: "C" });
      const invoice = await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "x", quantity: 1, unit_amount: 100 }] });
      expect(invoice.number).toBe("INV-000001");
      return { contact, project, task };
    };
    const [inA, inB] = [await rowsOf(a), await rowsOf(b)];
    expect(inA.contact.id).toBeLessThan(FIRST_SHARD_1_ID);
    expect(inB.contact.id).toBeGreaterThan(FIRST_SHARD_1_ID);

    const count = (db: string, table: string, workspaceId: number) =>
      shard(db)
        .prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`)
        .bind(workspaceId)
        .first<{ n: number }>()
        .then((row) => row!.n);
    for (const table of ["contacts", "projects", "tasks", "events", "task_counts", "invoice_counters"]) {
      expect(await count("DB", table, a.workspaceId), `${table} of A on DB`).toBeGreaterThan(0);
      expect(await count("SHARD_1", table, a.workspaceId), `${table} of A on SHARD_1`).toBe(0);
      expect(await count("SHARD_1", table, b.workspaceId), `${table} of B on SHARD_1`).toBeGreaterThan(0);
      expect(await count("DB", table, b.workspaceId), `${table} of B on DB`).toBe(0);
    }
    // The directory's tables exist on DB only; the shards hold no copy of them.
    const tables = await shard("SHARD_1").prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
    expect(tables.results.map((row) => row.name)).not.toContain("workspaces");
    expect(tables.results.map((row) => row.name)).not.toContain("users");
    expect(tables.results.map((row) => row.name)).not.toContain("tokens");

    // Through the API each sees its own and nothing of the other's, whichever database the id points into.
    expect((await call("GET", `/contacts/${inB.contact.id}`, { token: b.token })).json.data.name).toBe("Ada");
    expectError(await call("GET", `/contacts/${inB.contact.id}`, { token: a.token }), 404, "not_found");
    expectError(await call("GET", `/contacts/${inA.contact.id}`, { token: b.token }), 404, "not_found");
    expect((await call("GET", "/projects", { token: b.token })).json.data).toMatchObject([{ id: inB.project.id, task_count: 1, completed_task_count: 0 }]);
  });

  it("checks every shard for readiness when asked (?shards=all), the directory alone otherwise", async () => {
    expect((await call("GET", "/health/ready?shards=all")).json).toEqual({ status: "ok", database: "ok" });
    const unreachable = { prepare: () => ({ first: () => Promise.reject(new Error("unreachable")) }) };
    const all = await fetchWith({ SHARD_1: unreachable }, "GET", "/health/ready?shards=all");
    expect(all.status).toBe(503);
    expect(all.json).toEqual({ status: "unavailable", database: "unavailable" });
    expect((await fetchWith({ SHARD_1: unreachable }, "GET", "/health/ready")).status).toBe(200);
    expect((await fetchWith({ DB: unreachable }, "GET", "/health/ready")).status).toBe(503);
    expectError(await call("GET", "/health/ready?shards=some"), 400, "validation_error");
  });
});

describe("background jobs walk every shard", () => {
  it("the cron fans out the outbox of workspaces on both shards, and only on the shard the directory maps them to", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    const both = await onBothShards();
    const old = Date.now() - 10 * 60_000;
    const ids: Record<string, string> = {};
    for (const [name, ws] of Object.entries(both)) {
      const hook = await call("POST", "/webhooks", { token: ws.token, body: { url: "https://receiver.example/hooks", events: ["*"] } });
      const db = await dbOf(ws.workspaceId);
      await db
        .prepare("UPDATE webhook_endpoints SET created_at = ? WHERE id = ?")
        .bind(old - 1, hook.json.data.id)
        .run();
      ids[name] = newEventId();
      await db
        .prepare("INSERT INTO events (id, workspace_id, type, data, created_at) VALUES (?, ?, 'employee.onboarded', '{}', ?)")
        .bind(ids[name], ws.workspaceId, old)
        .run();
    }
    // A stray row of DB's workspace on the other shard (what a move leaves until it deletes) is not sent.
    const stray = newEventId();
    await shard("SHARD_1")
      .prepare("INSERT INTO events (id, workspace_id, type, data, created_at) VALUES (?, ?, 'employee.onboarded', '{}', ?)")
      .bind(stray, both.DB.workspaceId, old)
      .run();
    await runCron();
    for (const [name, ws] of Object.entries(both)) {
      const event = await shard(name).prepare("SELECT enqueued_at FROM events WHERE id = ?").bind(ids[name]).first<{ enqueued_at: number | null }>();
      expect(event!.enqueued_at, name).not.toBeNull();
      await vi.waitUntil(async () => {
        const row = await shard(name).prepare("SELECT status FROM webhook_deliveries WHERE event_id = ?").bind(ids[name]).first<{ status: string }>();
        return row?.status === "succeeded";
      });
      expect(ws.workspaceId).toBeGreaterThan(0);
    }
    const strayRow = await shard("SHARD_1").prepare("SELECT enqueued_at FROM events WHERE id = ?").bind(stray).first<{ enqueued_at: number | null }>();
    expect(strayRow!.enqueued_at).toBeNull();
    await shard("SHARD_1").prepare("DELETE FROM events WHERE id = ?").bind(stray).run();
  });
});

describe("a workspace being moved", () => {
  it("answers reads, refuses writes with 503 and Retry-After (writing nothing), and its outbox waits", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    const ws = await signup();
    const db = await dbOf(ws.workspaceId);
    const contact = await create(ws, "contacts", { name: "Grace", email: "grace@move.example" });
    await call("POST", "/webhooks", { token: ws.token, body: { url: "https://receiver.example/hooks", events: ["*"] } });
    const waiting = newEventId();
    await db
      .prepare("INSERT INTO events (id, workspace_id, type, data, created_at) VALUES (?, ?, 'employee.onboarded', '{}', ?)")
      .bind(waiting, ws.workspaceId, Date.now() - 60_000)
      .run();

    await env.DB.prepare("UPDATE workspaces SET moving_since = ? WHERE id = ?").bind(Date.now(), ws.workspaceId).run();
    const token = await freshToken(ws);
    expect((await call("GET", `/contacts/${contact.id}`, { token })).status).toBe(200);
    expect((await call("GET", "/contacts", { token })).json.data).toHaveLength(1);
    const refused = expectError(await call("POST", "/contacts", { token, body: { name: "Alan", email: "alan@move.example" } }), 503, "service_unavailable");
    expect(refused.message).toMatch(/being moved/);
    const again = await call("PATCH", `/contacts/${contact.id}`, { token, body: { name: "G" } });
    expect(again.status).toBe(503);
    expect(again.headers.get("retry-after")).toBe("5");
    await runCron();
    const held = await db.prepare("SELECT enqueued_at FROM events WHERE id = ?").bind(waiting).first<{ enqueued_at: number | null }>();
    expect(held!.enqueued_at).toBeNull();
    expect((await db.prepare("SELECT count(*) AS n FROM contacts WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n).toBe(1);

    await env.DB.prepare("UPDATE workspaces SET moving_since = NULL WHERE id = ?").bind(ws.workspaceId).run();
    const after = await freshToken(ws);
    expect((await call("POST", "/contacts", { token: after, body: { name: "Alan", email: "alan@move.example" } })).status).toBe(201);
    await runCron();
    const sent = await db.prepare("SELECT enqueued_at FROM events WHERE id = ?").bind(waiting).first<{ enqueued_at: number | null }>();
    expect(sent!.enqueued_at).not.toBeNull();
  });
});

describe("the webhook consumer finds a delivery through the directory", () => {
  /** A pending delivery of the workspace's endpoint, written on its shard with no queue message. */
  async function pending(ws: Workspace) {
    const hook = await call("POST", "/webhooks", { token: ws.token, body: { url: "https://receiver.example/hooks", events: ["*"] } });
    const db = await dbOf(ws.workspaceId);
    const eventId = newEventId();
    await db
      .prepare("INSERT INTO events (id, workspace_id, type, data, created_at, enqueued_at) VALUES (?, ?, 'employee.onboarded', '{}', ?, ?)")
      .bind(eventId, ws.workspaceId, Date.now(), Date.now())
      .run();
    const row = await db
      .prepare(
        "INSERT INTO webhook_deliveries (workspace_id, endpoint_id, event_id, event_type, attempt, status, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, 'employee.onboarded', 0, 'pending', ?, ?, ?) RETURNING id",
      )
      .bind(ws.workspaceId, hook.json.data.id, eventId, Date.now(), Date.now(), Date.now())
      .first<{ id: number }>();
    return { db, deliveryId: row!.id };
  }
  async function consume(body: WebhookMessage) {
    const batch = createMessageBatch("webhooks", [{ id: `msg-${body.deliveryId}-${Math.random()}`, timestamp: new Date(), attempts: 1, body }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    return getQueueResult(batch, ctx);
  }
  const status = async (db: D1Database, id: number) =>
    (await db.prepare("SELECT status FROM webhook_deliveries WHERE id = ?").bind(id).first<{ status: string }>())!.status;

  it("holds back a moving workspace's deliveries, reads a moved one's from its shard now, and never another workspace's", async () => {
    const sent = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    const { DB: a, SHARD_1: b } = await onBothShards();

    // Held by a move: tried again later, nothing sent.
    const held = await pending(a);
    await env.DB.prepare("UPDATE workspaces SET moving_since = ? WHERE id = ?").bind(Date.now(), a.workspaceId).run();
    const later = await consume({ deliveryId: held.deliveryId, workspaceId: a.workspaceId, shard: "DB" });
    expect(later.retryMessages).toHaveLength(1);
    expect(later.explicitAcks).toEqual([]);
    expect(sent).not.toHaveBeenCalled();
    expect(await status(held.db, held.deliveryId)).toBe("pending");
    await env.DB.prepare("UPDATE workspaces SET moving_since = NULL WHERE id = ?").bind(a.workspaceId).run();

    // A message naming the shard the delivery was on before a move: the directory's shard wins.
    const moved = await pending(b);
    expect((await consume({ deliveryId: moved.deliveryId, workspaceId: b.workspaceId, shard: "DB" })).explicitAcks).toHaveLength(1);
    expect(await status(moved.db, moved.deliveryId)).toBe("succeeded");

    // A delivery id that belongs to another workspace is not claimed.
    const other = await pending(a);
    await consume({ deliveryId: other.deliveryId, workspaceId: b.workspaceId, shard: "DB" });
    expect(await status(other.db, other.deliveryId)).toBe("pending");
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
