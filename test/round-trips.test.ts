import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { BASE, call, countingDatabases, create, env, expectError, freshIp, setPlan, signup } from "./helpers";

/**
 * One D1 round trip per request on the hot paths: counted with a wrapper around the real local D1 (test
 * only), at the moment the response is returned — event fan-out after the response does not count.
 */
async function roundTrips(token: string, method: string, path: string, body?: unknown) {
  const counting = countingDatabases();
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": freshIp(), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const response = await worker.fetch(request, { ...env, ...counting.bindings } as typeof env, ctx);
  const calls = counting.calls();
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return calls;
}

describe("one D1 round trip per request", () => {
  it("on reads, lists with computed fields, creates, updates, state changes with events, and deletes", async () => {
    const ws = await signup("Round Trips");
    await setPlan(ws, "enterprise");
    await call("GET", "/me", { token: ws.token }); // the token is verified (and cached) first
    const contact = await create(ws, "contacts", { name: "A", email: "a@rt.example" });
    const project = await create(ws, "projects", { name: "Website" });
    const employee = await create(ws, "employees", { name: "Ana", email: "ana@rt.example" });
    const task = await create(ws, "tasks", { title: "T", project_id: project.id, assignee_id: employee.id });
    const deal = await create(ws, "deals", { name: "Big Co", value: 1000, currency: "USD" });
    const customer = await create(ws, "customers", { name: "Acme", email: "ap@acme.example", currency: "USD" });
    const invoice = await create(ws, "invoices", {
      customer_id: customer.id,
      currency: "USD",
      items: [{ description: "x", quantity: 1, unit_amount: 10_000 }],
    });
    const opening = await create(ws, "job-openings", { title: "Engineer" });
    const candidate = await create(ws, "candidates", { name: "Alan", email: "alan@rt.example", job_opening_id: opening.id });
    const cases: [string, string, unknown?][] = [
      ["GET", `/contacts/${contact.id}`],
      ["GET", "/contacts?limit=25"],
      ["GET", "/contacts?limit=25&include_total=true"],
      ["GET", "/projects"], // task counts and logged_minutes in the same statement
      ["GET", `/projects/${project.id}`],
      ["GET", `/tasks?project_id=${project.id}`],
      ["POST", "/contacts", { name: "B", email: "b@rt.example" }],
      ["PATCH", `/contacts/${contact.id}`, { company: "Initech" }],
      ["PUT", `/tasks/${task.id}/status`, { status: "in_progress" }],
      ["PUT", `/tasks/${task.id}/status`, { status: "done" }], // fires task.completed in the same batch
      ["PATCH", `/deals/${deal.id}`, { stage: "won" }], // a guarded transition with its event
      ["POST", `/invoices/${invoice.id}/send`], // the first send also writes its public link's row to the directory
      ["POST", `/invoices/${invoice.id}/send`], // sent again: the shard alone
      ["POST", "/payments", { invoice_id: invoice.id, amount: 2500 }],
      ["POST", "/time-entries", { employee_id: employee.id, task_id: task.id, date: "2026-11-20", minutes: 60 }], // the daily cap in the writing statement
      ["POST", `/candidates/${candidate.id}/hire`, {}],
      ["DELETE", `/contacts/${contact.id}`],
      ["GET", "/dashboard"],
    ];
    const firstSend = cases.findIndex(([, path]) => path.endsWith("/send"));
    for (const [i, [method, path, body]] of cases.entries()) {
      expect(await roundTrips(ws.token, method, path, body), `${method} ${path}`).toBe(i === firstSend ? 2 : 1);
    }
  });
});

describe("the assistant's reads", () => {
  it("reads each path once per message, however many readings try the same name", async () => {
    const ws = await signup("Assistant Reads");
    await setPlan(ws, "enterprise");
    await call("GET", "/me", { token: ws.token });
    const project = await create(ws, "projects", { name: "Mobile App" });
    const employee = await create(ws, "employees", { name: "Shafi Goldwasser", email: "shafi@rt.example" });
    await create(ws, "tasks", { title: "Fix dashboard", project_id: project.id, assignee_id: employee.id });
    await create(ws, "tasks", { title: "Fix login", project_id: project.id, assignee_id: employee.id });
    // (A task named with its project's name is searched for as a task, a project and with each word: 17 reads of
    // D1 once each; 33 when every repeated search went to D1 again.)
    const trips = await roundTrips(ws.token, "POST", "/assistant/messages", { message: "mark fix dashboard mobile app done" });
    expect(trips).toBeLessThanOrEqual(20);
  });
});

describe("read replicas: D1 sessions and bookmarks", () => {
  it("answers with X-D1-Bookmark; a bookmark sent back reads at least that state; a bad one is a 400", async () => {
    const ws = await signup("Bookmarks");
    const written = await call("POST", "/contacts", { token: ws.token, body: { name: "Grace", email: "grace@bm.example" } });
    const bookmark = written.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8,32}){3}$/);
    const read = await call("GET", `/contacts/${written.json.data.id}`, { token: ws.token, headers: { "x-d1-bookmark": bookmark! } });
    expect(read.status).toBe(200);
    expect(read.json.data.name).toBe("Grace");
    // The session moved on from (or stayed at) the write's position, never before it.
    expect(read.headers.get("x-d1-bookmark")! >= bookmark!).toBe(true);
    const next = await call("PATCH", `/contacts/${written.json.data.id}`, {
      token: ws.token,
      body: { name: "Grace H." },
      headers: { "x-d1-bookmark": bookmark! },
    });
    expect(next.headers.get("x-d1-bookmark")! > bookmark!).toBe(true);
    const bad = expectError(await call("GET", "/contacts", { token: ws.token, headers: { "x-d1-bookmark": "not-a-bookmark" } }), 400, "validation_error");
    expect(bad.details).toEqual([{ path: "X-D1-Bookmark", message: "must be a bookmark from a previous response's X-D1-Bookmark" }]);
  });
});
