import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { call, create, env, setPlan, shardOf, signup, type Workspace } from "./helpers";

const OPERATOR_TOKEN = "operator-token-for-tests-0123456789abcdef";
const shard = (name: string) => (env as unknown as Record<string, D1Database>)[name]!;

/** One request to the operator routes, with OPERATOR_TOKEN set (or as given) in the worker's environment. */
async function ops(path: string, body: unknown, { token = OPERATOR_TOKEN, configured = OPERATOR_TOKEN as string | null } = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`http://127.0.0.1:8787/ops${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const response = await worker.fetch(request, { ...env, OPERATOR_TOKEN: configured ?? undefined } as typeof env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, json: (await response.json()) as any };
}

const rowsOn = async (name: string, workspaceId: number) =>
  (await shard(name)
    .prepare(
      "SELECT (SELECT count(*) FROM contacts WHERE workspace_id = ?1) + (SELECT count(*) FROM tasks WHERE workspace_id = ?1) + (SELECT count(*) FROM task_counts WHERE workspace_id = ?1) AS n",
    )
    .bind(workspaceId)
    .first<{ n: number }>())!.n;

async function busyWorkspace(): Promise<{ ws: Workspace; from: string; to: string; project: { id: number }; contact: { id: number } }> {
  const ws = await signup("Mover");
  await setPlan(ws, "enterprise");
  const from = (await shardOf(ws.workspaceId)).name;
  const contact = await create(ws, "contacts", { name: "Ada", email: "ada@move.example" });
  const project = await create(ws, "projects", { name: "Website" });
  for (const title of ["a", "b", "c"]) await create(ws, "tasks", { title, project_id: project.id });
  return { ws, from, to: from === "DB" ? "SHARD_1" : "DB", project, contact };
}

describe("the operator routes", () => {
  it("do not exist without OPERATOR_TOKEN, nor for a wrong or short token", async () => {
    const { ws, to } = await busyWorkspace();
    const path = `/workspaces/${ws.workspaceId}/move`;
    expect((await ops(path, { to }, { configured: null })).status).toBe(404);
    expect((await ops(path, { to }, { token: "wrong" })).status).toBe(404);
    expect((await ops(path, { to }, { configured: "short", token: "short" })).status).toBe(404);
    const refused = await ops(path, { to }, { token: `${OPERATOR_TOKEN}x` });
    expect(refused.json).toMatchObject({ success: false, error: { code: "not_found" } });
  });

  it("refuse bad steps clearly, changing nothing", async () => {
    const { ws, from, to } = await busyWorkspace();
    const path = `/workspaces/${ws.workspaceId}/move`;
    expect((await ops(path, { to: "SHARD_9" })).json.error).toMatchObject({ code: "validation_error", details: [{ path: "to" }] });
    expect((await ops(path, { to: from })).json.error.code).toBe("conflict");
    expect((await ops("/workspaces/999999999/move", { to })).status).toBe(404);
    expect((await ops(`${path}/copy`, { to, table: "users" })).json.error).toMatchObject({ code: "validation_error", details: [{ path: "table" }] });
    expect((await ops(`${path}/switch`, { to })).json.error).toMatchObject({ code: "conflict", message: expect.stringMatching(/not held/) });
    expect((await ops(`${path}/prune`, { to, table: "contacts" })).status).toBe(409);
    expect((await ops(`${path}/cleanup`, { to: from })).status).toBe(409);
    expect(await rowsOn(to, ws.workspaceId)).toBe(0);
    expect((await shardOf(ws.workspaceId)).name).toBe(from);
  });
});

describe("moving a workspace", () => {
  it("never switches on a lapsed hold (a script that died), which no longer refuses writes", async () => {
    const { ws, from, to } = await busyWorkspace();
    const path = `/workspaces/${ws.workspaceId}/move`;
    const plan = (await ops(path, { to })).json;
    for (const table of plan.tables) await ops(`${path}/copy`, { to, table });
    await env.DB.prepare("UPDATE workspaces SET moving_since = ? WHERE id = ?")
      .bind(Date.now() - 5 * 60_000 - 1, ws.workspaceId)
      .run();
    expect((await ops(path, { to })).json.moving).toBe(false);
    expect((await ops(`${path}/switch`, { to })).json.error.message).toMatch(/lapsed/);
    const fresh = (await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password } })).json.token;
    expect((await call("POST", "/contacts", { token: fresh, body: { name: "Writes again", email: "again@move.example" } })).status).toBe(201);
    expect((await shardOf(ws.workspaceId)).name).toBe(from);
    while (!(await ops(`${path}/abort`, { to })).json.done);
    expect(await rowsOn(to, ws.workspaceId)).toBe(0);
  });

  it("copies, holds, catches up, switches after verifying, and cleans up; the workspace works on its new shard", async () => {
    const { ws, from, to, project, contact } = await busyWorkspace();
    const path = `/workspaces/${ws.workspaceId}/move`;
    const plan = (await ops(path, { to })).json;
    expect(plan).toMatchObject({ from, to, moving: false });
    expect(plan.tables.indexOf("projects")).toBeLessThan(plan.tables.indexOf("tasks"));
    expect(plan.tables).not.toContain("users");
    const copyAll = async (since?: number) => {
      for (const table of plan.tables) for (let after = 0; after !== null; ) after = (await ops(`${path}/copy`, { to, table, after, since })).json.next;
    };
    const began = Date.now();
    await copyAll();
    // Changes after the first copy: a new contact, a deleted task, a status change.
    const late = await create(ws, "contacts", { name: "Late", email: "late@move.example" });
    const tasks = (await call("GET", "/tasks", { token: ws.token })).json.data;
    await call("PUT", `/tasks/${tasks[0].id}/status`, { token: ws.token, body: { status: "done" } });
    await call("DELETE", `/contacts/${contact.id}`, { token: ws.token });

    const hold = (await ops(`${path}/hold`, { to })).json;
    expect(hold).toMatchObject({ held: true, held_since: expect.any(Number), expires_at: hold.held_since + 5 * 60_000 });
    // Not caught up yet: the switch verifies and refuses.
    expect((await ops(`${path}/switch`, { to, held_since: hold.held_since })).json.error.message).toMatch(/differs from the source in .*contacts.*task_counts/);
    for (const table of [...plan.tables].reverse()) await ops(`${path}/prune`, { to, table });
    await copyAll(began - 1000);
    // A change the catch-up cannot see (no updated_at moved) is still caught: every column is compared.
    await shard(from).prepare("UPDATE contacts SET name = 'Changed quietly' WHERE id = ?").bind(late.id).run();
    expect((await ops(`${path}/switch`, { to, held_since: hold.held_since })).json.error.details).toEqual([{ path: "contacts", message: "differs" }]);
    for (let after = 0; after !== null; ) after = (await ops(`${path}/copy`, { to, table: "contacts", after })).json.next;
    // Only the hold this move took.
    expect((await ops(`${path}/switch`, { to, held_since: hold.held_since - 1 })).json.error.message).toMatch(/another move/);
    expect((await ops(`${path}/switch`, { to, held_since: hold.held_since })).json).toEqual({ switched: true, from });
    expect((await ops(`${path}/abort`, { to })).status).toBe(409);
    expect((await shardOf(ws.workspaceId)).name).toBe(to);

    const fresh = (await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password } })).json.token;
    expect((await call("GET", `/contacts/${late.id}`, { token: fresh })).json.data.name).toBe("Changed quietly");
    expect((await call("GET", `/contacts/${contact.id}`, { token: fresh })).status).toBe(404);
    expect((await call("GET", `/projects/${project.id}`, { token: fresh })).json.data).toMatchObject({ task_count: 3, completed_task_count: 1 });
    expect((await call("POST", "/contacts", { token: fresh, body: { name: "After", email: "after@move.example" } })).status).toBe(201);

    while (!(await ops(`${path}/cleanup`, { to: from })).json.done);
    expect(await rowsOn(from, ws.workspaceId)).toBe(0);
    expect(await rowsOn(to, ws.workspaceId)).toBeGreaterThan(0);
  });

  it("aborts before the switch: the copy is dropped and writes resume on the source", async () => {
    const { ws, from, to } = await busyWorkspace();
    const path = `/workspaces/${ws.workspaceId}/move`;
    const plan = (await ops(path, { to })).json;
    for (const table of plan.tables) await ops(`${path}/copy`, { to, table });
    await ops(`${path}/hold`, { to });
    expect(await rowsOn(to, ws.workspaceId)).toBeGreaterThan(0);
    while (!(await ops(`${path}/abort`, { to })).json.done);
    expect(await rowsOn(to, ws.workspaceId)).toBe(0);
    expect((await shardOf(ws.workspaceId)).name).toBe(from);
    const fresh = (await call("POST", "/auth/token", { body: { email: ws.email, password: ws.password } })).json.token;
    expect((await call("POST", "/contacts", { token: fresh, body: { name: "Still here", email: "still@move.example" } })).status).toBe(201);
  });
});
