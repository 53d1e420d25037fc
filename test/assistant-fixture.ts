import { expect } from "vitest";
import { call, create, setPlan, signup } from "./helpers";

/**
 * What the assistant's tests share: the guard that it never calls out, asking and reading a proposed call, and a
 * small company the answers can be checked against.
 */

export type Reply = {
  text: string;
  intent: string;
  data?: any;
  records?: { resource: string; id: number; label: string }[];
  action?: { id: string; kind: string; summary: string; expires_at: string };
};

export async function ask(token: string, message: string, conversationId?: string) {
  const res = await call("POST", "/assistant/messages", { token, body: { message, ...(conversationId ? { conversation_id: conversationId } : {}) } });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { conversation_id: string; reply: Reply };
}

/** The call a proposed action would make. */
export async function requestOf(token: string, reply: Reply) {
  expect(reply.action, reply.text).toBeDefined();
  const res = await call("GET", `/assistant/actions/${reply.action!.id}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json.data.request as { method: string; path: string; body?: Record<string, unknown> };
}

/** Each message proposes exactly that call: method, path, and the body fields given. */
export async function expectRequests(token: string, cases: readonly (readonly [string, string, string, Record<string, unknown>?])[]) {
  for (const [message, method, path, body] of cases) {
    const { reply } = await ask(token, message);
    expect(reply.action, `${message} → ${reply.text}`).toBeDefined();
    const request = await requestOf(token, reply);
    expect({ method: request.method, path: request.path }, message).toEqual({ method, path });
    expect(request.body ?? {}, message).toMatchObject(body ?? {});
  }
}

/**
 * The message proposes that call: its method and path, and a body that includes the fields given ("exactly": is
 * no more than they). Returns the request for further checks.
 */
export async function expectRequest(
  token: string,
  message: string,
  method: string,
  path: string,
  body?: Record<string, unknown>,
  match: "includes" | "exactly" = "includes",
) {
  const request = await requestOf(token, (await ask(token, message)).reply);
  expect({ method: request.method, path: request.path }, message).toEqual({ method, path });
  if (body && match === "exactly") expect(request.body, message).toEqual(body);
  else if (body) expect(request.body, message).toMatchObject(body);
  return request;
}

/** Each message proposes a call of that method on a path starting so (an id the test does not know may follow). */
export async function expectProposals(token: string, cases: readonly (readonly [string, string, string, Record<string, unknown>?])[]) {
  for (const [message, method, path, body] of cases) {
    const { reply } = await ask(token, message);
    const request = await requestOf(token, reply);
    expect(request.method, message).toBe(method);
    expect(request.path.startsWith(path), `${message} → ${request.path}`).toBe(true);
    if (body) expect(request.body ?? {}, message).toMatchObject(body);
  }
}

/** An invoice created and sent, so that it is owed. */
export async function sentInvoice(ws: Awaited<ReturnType<typeof signup>>, body: Record<string, unknown>) {
  const invoice = await create(ws, "invoices", body);
  const sent = await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token });
  expect(sent.status, sent.text).toBe(200);
  return invoice;
}

export const today = () => new Date().toISOString().slice(0, 10);

/** A small company the answers can be checked against. */
export async function company() {
  const ws = await signup("Assist Co");
  await setPlan(ws, "enterprise");
  const ada = await create(ws, "contacts", { name: "Ada Lovelace", email: "ada@example.com", phone: "+442071234567", company: "Analytical Engines" });
  const alan = await create(ws, "contacts", { name: "Alan Turing", email: "alan@example.com" });
  const acme = await create(ws, "customers", { name: "Acme", email: "ap@acme.example", currency: "USD" });
  const invoice = await create(ws, "invoices", {
    customer_id: acme.id,
    currency: "USD",
    issue_date: "2026-01-05",
    due_date: "2026-02-05",
    items: [{ description: "Work", quantity: 1, unit_amount: 153450 }],
  });
  expect((await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token })).status).toBe(200);
  await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoice.id, amount: 3450 } });
  const website = await create(ws, "projects", { name: "Website" });
  const ana = await create(ws, "employees", {
    name: "Ana Garcia",
    email: "ana@assist.co",
    department: "Engineering",
    designation: "Engineer",
    date_of_joining: "2026-01-10",
  });
  const linus = await create(ws, "employees", { name: "Linus Torvalds", email: "linus@assist.co", department: "Engineering", date_of_joining: "2025-03-01" });
  const grace = await create(ws, "employees", { name: "Grace Hopper", email: "grace@assist.co", department: "Sales", date_of_joining: "2024-05-01" });
  const task = await create(ws, "tasks", { title: "Write copy", project_id: website.id, assignee_id: ana.id, due_date: today() });
  const shipped = await create(ws, "tasks", { title: "Ship it", project_id: website.id, due_date: "2099-01-01", status: "done" });
  const bigCo = await create(ws, "deals", { name: "Big Co", value: 2_500_000, currency: "USD", stage: "negotiation" });
  const smallFry = await create(ws, "deals", { name: "Small Fry", value: 50_000, currency: "USD", stage: "negotiation" });
  const east = await create(ws, "deals", { name: "Acme East", value: 100_000, currency: "USD" });
  const west = await create(ws, "deals", { name: "Acme West", value: 120_000, currency: "USD" });
  const sophie = await create(ws, "leads", { name: "Sophie Brown", email: "sophie@lead.example", source: "website" });
  await create(ws, "leads", { name: "Bob Stone", email: "bob@lead.example", source: "referral" });
  const opening = await create(ws, "job-openings", { title: "Backend Engineer", department: "Engineering" });
  const candidate = await create(ws, "candidates", { job_opening_id: opening.id, name: "Joan Clarke", email: "joan@mail.example" });
  return { ws, ada, alan, acme, invoice, website, ana, linus, grace, task, shipped, bigCo, smallFry, east, west, sophie, opening, candidate };
}
