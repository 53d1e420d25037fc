import { describe, expect, it } from "vitest";
import { call, create, env, expectError, recordedEvents, setPlan, signup, type Workspace } from "./helpers";

// The shared write path: every write is conditional statements plus guards in one D1 batch, so a
// batch either commits whole or not at all, and rules hold against the row as it is when D1 runs it.

const batchable: Record<string, { create: (n: number) => Record<string, unknown>; rename: (n: number) => Record<string, unknown> }> = {
  contacts: { create: (n) => ({ name: `C${n}`, email: `c${n}@x.co` }), rename: (n) => ({ name: `C${n}+` }) },
  customers: { create: (n) => ({ name: `Cu${n}` }), rename: (n) => ({ name: `Cu${n}+` }) },
  employees: { create: (n) => ({ name: `E${n}`, email: `e${n}@x.co` }), rename: (n) => ({ name: `E${n}+` }) },
  leads: { create: (n) => ({ name: `L${n}`, email: `l${n}@x.co` }), rename: (n) => ({ name: `L${n}+` }) },
  deals: { create: (n) => ({ name: `D${n}` }), rename: (n) => ({ name: `D${n}+` }) },
  projects: { create: (n) => ({ name: `P${n}` }), rename: (n) => ({ name: `P${n}+` }) },
  tasks: { create: (n) => ({ title: `T${n}`, project_id: 0 }), rename: (n) => ({ title: `T${n}+` }) },
};

async function batch(ws: Workspace, resource: string, operations: unknown[]) {
  return call("POST", `/${resource}/batch`, { token: ws.token, body: { operations } });
}

describe("atomic batches: several operations on one row", () => {
  it("apply in order or not at all, in every resource", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const project = await create(ws, "projects", { name: "Home" });
    for (const [resource, shape] of Object.entries(batchable)) {
      const body = (n: number) => (resource === "tasks" ? { ...shape.create(n), project_id: project.id } : shape.create(n));
      const row = await create(ws, resource, body(1));

      // Two updates of one row, then a delete: all apply, in order.
      const ok = await batch(ws, resource, [
        { op: "update", id: row.id, data: shape.rename(1) },
        { op: "update", id: row.id, data: shape.rename(2) },
        { op: "delete", id: row.id },
      ]);
      expect(ok.status, `${resource}: ${ok.text}`).toBe(200);
      expect(ok.json.data.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200]);
      expectError(await call("GET", `/${resource}/${row.id}`, { token: ws.token }), 404, "not_found");

      // Delete, then update the same row: the update is a 404 at its index, and the delete is not written.
      const other = await create(ws, resource, body(2));
      const refused = expectError(
        await batch(ws, resource, [
          { op: "delete", id: other.id },
          { op: "update", id: other.id, data: shape.rename(3) },
        ]),
        400,
        "validation_error",
      );
      expect(refused.details, resource).toEqual([
        { index: 1, path: "operations.1.id", message: `${resource === "customers" ? "customer" : resource.replace(/s$/, "")} not found` },
      ]);
      expect((await call("GET", `/${resource}/${other.id}`, { token: ws.token })).json.data, resource).toEqual(other);
    }
  });

  it("judges each deal stage move against the stage the move before it leaves", async () => {
    const ws = await signup();
    const deal = await create(ws, "deals", { name: "Big Co" });
    const moves = await batch(ws, "deals", [
      { op: "update", id: deal.id, data: { stage: "proposal" } },
      { op: "update", id: deal.id, data: { stage: "won" } },
    ]);
    expect(moves.status, moves.text).toBe(200);
    expect(moves.json.data.results[1].data).toMatchObject({ stage: "won", status: "won", closed_at: expect.any(String) });
    const events = await recordedEvents(ws.workspaceId, "deal.stage_changed");
    expect(events.map((e) => [e.previous_attributes?.stage, e.data.stage])).toEqual([
      ["initial_contact", "proposal"],
      ["proposal", "won"],
    ]);

    // won → lost directly is refused at index 1, and the rename at index 0 is not written either.
    const refused = expectError(
      await batch(ws, "deals", [
        { op: "update", id: deal.id, data: { name: "Renamed" } },
        { op: "update", id: deal.id, data: { stage: "lost" } },
      ]),
      400,
      "validation_error",
    );
    expect(refused.details).toEqual([expect.objectContaining({ index: 1, path: "operations.1.data.stage" })]);
    expect((await call("GET", `/deals/${deal.id}`, { token: ws.token })).json.data).toMatchObject({ name: "Big Co", stage: "won" });
  });

  it("moves a task done then to review in one batch: both apply, task.completed fires once", async () => {
    const ws = await signup();
    const project = await create(ws, "projects", { name: "P" });
    const task = await create(ws, "tasks", { title: "T", project_id: project.id });
    const res = await batch(ws, "tasks", [
      { op: "update", id: task.id, data: { status: "done" } },
      { op: "update", id: task.id, data: { status: "review" } },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results[0].data).toMatchObject({ status: "done", completed_at: expect.any(String) });
    expect(res.json.data.results[1].data).toMatchObject({ status: "review", completed_at: null });
    const completed = await recordedEvents(ws.workspaceId, "task.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toMatchObject({ id: task.id, status: "done" });
  });

  it("commits nothing of a batch whose row another request changed meanwhile", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    for (let round = 0; round < 6; round++) {
      const deal = await create(ws, "deals", { name: `Race ${round}` });
      const left = await create(ws, "deals", { name: "left" });
      const right = await create(ws, "deals", { name: "right" });
      const [a, b] = await Promise.all([
        batch(ws, "deals", [
          { op: "update", id: left.id, data: { value: 111 } },
          { op: "update", id: deal.id, data: { stage: "won" } },
        ]),
        batch(ws, "deals", [
          { op: "update", id: right.id, data: { value: 222 } },
          { op: "update", id: deal.id, data: { stage: "lost" } },
        ]),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0], `${a.text} ${b.text}`).toBe(200);
      expect([400, 409]).toContain(statuses[1]);
      const winner = a.status === 200 ? "won" : "lost";
      const [final, l, r] = await Promise.all([deal, left, right].map(async (d) => (await call("GET", `/deals/${d.id}`, { token: ws.token })).json.data));
      expect(final.stage).toBe(winner);
      // The losing batch wrote nothing: its other deal keeps its value.
      expect([l.value, r.value]).toEqual(winner === "won" ? [111, 0] : [0, 222]);
    }
  });
});

describe("cross-field rules on the row as it will be", () => {
  it("refuses a project update whose end_date would fall before the stored start_date", async () => {
    const ws = await signup();
    const project = await create(ws, "projects", { name: "P", start_date: "2026-03-01", end_date: "2026-06-30" });
    const early = expectError(await call("PUT", `/projects/${project.id}`, { token: ws.token, body: { end_date: "2026-02-01" } }), 400, "validation_error");
    expect(early.details).toEqual([{ path: "end_date", message: "must not be before start_date" }]);
    expectError(await call("PATCH", `/projects/${project.id}`, { token: ws.token, body: { start_date: "2026-07-01" } }), 400, "validation_error");
    expectError(
      await call("POST", "/projects", { token: ws.token, body: { name: "Q", start_date: "2026-03-01", end_date: "2026-01-01" } }),
      400,
      "validation_error",
    );
    // Clearing one side lifts the rule; moving both together is judged together.
    expect((await call("PUT", `/projects/${project.id}`, { token: ws.token, body: { start_date: "2027-01-01", end_date: "2027-02-01" } })).status).toBe(200);
    expect((await call("PUT", `/projects/${project.id}`, { token: ws.token, body: { start_date: null } })).status).toBe(200);
    const batchRefused = expectError(
      await batch(ws, "projects", [{ op: "update", id: project.id, data: { start_date: "2027-03-01" } }]),
      400,
      "validation_error",
    );
    expect(batchRefused.details).toEqual([{ index: 0, path: "operations.0.data.end_date", message: "must not be before start_date" }]);
    expect((await call("GET", `/projects/${project.id}`, { token: ws.token })).json.data).toMatchObject({ start_date: null, end_date: "2027-02-01" });
  });

  it("refuses an invoice whose due_date would fall before its issue_date, the default issue date included", async () => {
    const ws = await signup();
    const customer = await create(ws, "customers", { name: "C" });
    const invoice = await create(ws, "invoices", {
      customer_id: customer.id,
      issue_date: "2026-05-10",
      items: [{ description: "x", quantity: 1, unit_amount: 1 }],
    });
    expectError(await call("PUT", `/invoices/${invoice.id}`, { token: ws.token, body: { due_date: "2026-05-01" } }), 400, "validation_error");
    const defaulted = await call("POST", "/invoices", {
      token: ws.token,
      body: { customer_id: customer.id, due_date: "2000-01-01", items: [{ description: "x", quantity: 1, unit_amount: 1 }] },
    });
    expect(expectError(defaulted, 400, "validation_error").details).toEqual([{ path: "due_date", message: "must not be before issue_date" }]);
  });
});

describe("updates", () => {
  it("leaves updated_at alone for an empty PUT {}", async () => {
    const ws = await signup();
    const contact = await create(ws, "contacts", { name: "A", email: "a@x.co" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await call("PUT", `/contacts/${contact.id}`, { token: ws.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(contact);
    expectError(await call("PUT", "/contacts/999999", { token: ws.token, body: {} }), 404, "not_found");
  });

  it("lists rows changed since a time in the order they changed (incremental sync)", async () => {
    const ws = await signup();
    const first = await create(ws, "contacts", { name: "A", email: "a@x.co" });
    const second = await create(ws, "contacts", { name: "B", email: "b@x.co" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call("PUT", `/contacts/${first.id}`, { token: ws.token, body: { company: "Later" } });
    const changed = await call("GET", `/contacts?updated_after=${encodeURIComponent(since)}&sort=updated_at`, { token: ws.token });
    expect(changed.json.data.map((c: { id: number }) => c.id)).toEqual([first.id]);
    const all = await call("GET", "/contacts?sort=updated_at", { token: ws.token });
    expect(all.json.data.map((c: { id: number }) => c.id)).toEqual([second.id, first.id]);
    expectError(await call("GET", "/contacts?updated_after=yesterday", { token: ws.token }), 400, "validation_error");
    const plan = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT * FROM contacts WHERE workspace_id = ? AND updated_at >= ? ORDER BY updated_at, id LIMIT 26")
      .bind(ws.workspaceId, 0)
      .all<{ detail: string }>();
    const details = plan.results.map((row) => row.detail).join("\n");
    expect(details).toContain("contacts_workspace_updated_idx");
    expect(details).not.toContain("TEMP B-TREE");
  });
});

describe("event payloads", () => {
  it("carry the row exactly as the API shows it", async () => {
    const ws = await signup();
    const project = await create(ws, "projects", { name: "P" });
    const employee = await create(ws, "employees", { name: "Ada", email: "ada@x.co", phone: "+441234567890", department: "R&D" });
    const task = await create(ws, "tasks", { title: "T", project_id: project.id, assignee_id: employee.id, due_date: "2026-12-01" });
    await call("PUT", `/tasks/${task.id}/status`, { token: ws.token, body: { status: "done" } });
    const deal = await create(ws, "deals", { name: "D", value: 1234, currency: "eur" });
    await call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { stage: "lost", lost_reason: "price" } });
    const customer = await create(ws, "customers", { name: "C", email: "c@x.co" });
    const invoice = await create(ws, "invoices", {
      customer_id: customer.id,
      due_date: "2026-12-31",
      notes: "thanks",
      items: [
        { description: "a", quantity: 1.5, unit_amount: 999, tax_rate: 7.25 },
        { description: "b", quantity: 3, unit_amount: 100 },
      ],
    });
    const get = async (path: string) => (await call("GET", path, { token: ws.token })).json.data;
    const events = await recordedEvents(ws.workspaceId);
    const data = (type: string) => events.find((e) => e.type === type)!.data;
    expect(data("employee.onboarded")).toEqual(await get(`/employees/${employee.id}`));
    expect(data("task.completed")).toEqual(await get(`/tasks/${task.id}`));
    expect(data("deal.stage_changed")).toEqual(await get(`/deals/${deal.id}`));
    expect(data("invoice.created")).toEqual(invoice);
  });
});
