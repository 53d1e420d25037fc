import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { platform } from "../src/index";
import { skills } from "../src/packages/assistant/understand";
import { planWithModel } from "../src/packages/assistant/workers-ai";
import { clock } from "../src/platform/time";
import { call, create, expectError, fetchWith, recordedEvents, setPlan, signup, userWithRole } from "./helpers";

const realNow = clock.now;
let outbound: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  // The assistant never calls out: any fetch from the worker during these tests fails them.
  outbound = vi.spyOn(globalThis, "fetch");
});
afterEach(() => {
  expect(outbound).not.toHaveBeenCalled();
  vi.restoreAllMocks();
  clock.now = realNow;
});

async function ask(token: string, message: string, conversationId?: string) {
  const res = await call("POST", "/assistant/messages", { token, body: { message, ...(conversationId ? { conversation_id: conversationId } : {}) } });
  expect(res.status, res.text).toBe(200);
  return res.json.data as {
    conversation_id: string;
    reply: {
      text: string;
      intent: string;
      data?: any;
      records?: { resource: string; id: number; label: string }[];
      action?: { id: string; kind: string; summary: string; expires_at: string };
    };
  };
}

const today = () => new Date().toISOString().slice(0, 10);

/** A small company the answers can be checked against. */
async function company() {
  const ws = await signup("Assist Co");
  await setPlan(ws, "enterprise");
  const ada = await create(ws, "contacts", { name: "Ada Lovelace", email: "ada@example.com", phone: "+442071234567", company: "Analytical Engines" });
  await create(ws, "contacts", { name: "Alan Turing", email: "alan@example.com" });
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
  const ana = await create(ws, "employees", { name: "Ana Garcia", email: "ana@assist.co", department: "Engineering", date_of_joining: "2026-01-10" });
  await create(ws, "employees", { name: "Linus Torvalds", email: "linus@assist.co", department: "Engineering", date_of_joining: "2025-03-01" });
  await create(ws, "employees", { name: "Grace Hopper", email: "grace@assist.co", department: "Sales", date_of_joining: "2024-05-01" });
  const task = await create(ws, "tasks", { title: "Write copy", project_id: website.id, assignee_id: ana.id, due_date: today() });
  await create(ws, "tasks", { title: "Ship it", project_id: website.id, due_date: "2099-01-01" });
  const bigCo = await create(ws, "deals", { name: "Big Co", value: 2_500_000, currency: "USD", stage: "negotiation" });
  await create(ws, "deals", { name: "Small Fry", value: 50_000, currency: "USD", stage: "negotiation" });
  await create(ws, "deals", { name: "Acme East", value: 100_000, currency: "USD" });
  await create(ws, "deals", { name: "Acme West", value: 100_000, currency: "USD" });
  await create(ws, "leads", { name: "Sophie", email: "sophie@lead.example", source: "website" });
  await create(ws, "leads", { name: "Bob", email: "bob@lead.example", source: "referral" });
  return { ws, ada, invoice, website, ana, task, bigCo };
}

describe("the assistant answers from the workspace's data", () => {
  it("metrics: revenue, outstanding, headcount in a department", async () => {
    const { ws } = await company();
    const revenue = await ask(ws.token, "revenue this month");
    expect(revenue.reply.intent).toBe("metric");
    expect(revenue.reply.text).toBe("Revenue this month: 34.50 USD.");
    expect(revenue.reply.data).toMatchObject({ widget: "account.revenue", data: { value: { USD: 3450 } } });
    const outstanding = await ask(ws.token, "how much is outstanding?");
    expect(outstanding.reply.text).toBe("Outstanding: 1,500.00 USD.");
    const headcount = await ask(ws.token, "headcount in engineering");
    expect(headcount.reply.text).toBe("Headcount in Engineering: 2.");
    const winRate = await ask(ws.token, "win rate this quarter");
    expect(winRate.reply).toMatchObject({ intent: "metric", data: { widget: "sales.win_rate", data: { value: null } } });
  });

  it("lists with filters, amounts and people, capped at 10 with the rest counted", async () => {
    const { ws, invoice, ana, task } = await company();
    const overdue = await ask(ws.token, "overdue invoices");
    expect(overdue.reply.intent).toBe("list");
    expect(overdue.reply.records).toEqual([{ resource: "invoices", id: invoice.id, label: `${invoice.number} (1,534.50 USD)` }]);
    expect(overdue.reply.text).toContain("1,500.00 USD due");
    const deals = await ask(ws.token, "open deals in negotiation over 10,000");
    expect(deals.reply.records!.map((r) => r.label)).toEqual(["Big Co (25,000.00 USD)"]);
    const mine = await ask(ws.token, "tasks due this week assigned to Ana");
    expect(mine.reply.records).toEqual([{ resource: "tasks", id: task.id, label: `task ${task.id} "Write copy"` }]);
    expect(mine.reply.text).toContain(`for ${ana.name.split(" ")[0]}`);
    const leads = await ask(ws.token, "leads from the website");
    expect(leads.reply.records!.map((r) => r.label)).toEqual(["Sophie"]);
    const count = await ask(ws.token, "how many contacts do we have");
    expect(count.reply).toMatchObject({ intent: "metric", text: "2 contacts.", data: { value: 2 } });

    for (let i = 0; i < 12; i++) await create(ws, "contacts", { name: `Person ${i}`, email: `p${i}@example.com` });
    const all = await ask(ws.token, "list all contacts");
    expect(all.reply.records).toHaveLength(10);
    expect(all.reply.text).toMatch(/^14 contacts:/);
    expect(all.reply.text).toMatch(/…and 4 more\.$/);
  });

  it("lookups by name (typos too) and by number; ambiguity is asked back, never guessed", async () => {
    const { ws, ada, invoice } = await company();
    const phone = await ask(ws.token, "phone of Ada Lovelace");
    expect(phone.reply).toMatchObject({
      intent: "lookup",
      text: "The phone of Ada Lovelace is +442071234567.",
      records: [{ resource: "contacts", id: ada.id, label: "Ada Lovelace" }],
    });
    expect((await ask(ws.token, "what's the email of ada lovelce")).reply.text).toBe("The email of Ada Lovelace is ada@example.com.");
    const status = await ask(ws.token, `status of ${invoice.number}`);
    expect(status.reply.text).toBe(`The status of ${invoice.number} (1,534.50 USD) is partially paid.`);
    const number = invoice.number.replace("INV-", "").replace(/^0+/, "");
    expect((await ask(ws.token, `how much is left to pay on invoice ${number}`)).reply.text).toContain("1,500.00 USD");
    const ambiguous = await ask(ws.token, "how much is the Acme deal worth");
    expect(ambiguous.reply.text).toMatch(/^Two records match "Acme": Acme (East|West) \(1,000\.00 USD\); Acme (East|West) \(1,000\.00 USD\)\. Which one/);
    expect(ambiguous.reply.records).toHaveLength(2);
    const missing = await ask(ws.token, "phone of Charles Babbage");
    expect(missing.reply.text).toBe('I couldn\'t find anything matching "Charles Babbage".');
  });

  it("help, greetings and what nothing answers: suggestions, no records", async () => {
    const { ws } = await company();
    expect((await ask(ws.token, "what can you do?")).reply.intent).toBe("help");
    const unknown = await ask(ws.token, "what's the weather in Berlin");
    expect(unknown.reply.intent).toBe("unknown");
    expect(unknown.reply.records).toBeUndefined();
    expect(unknown.reply.data.suggestions.length).toBeGreaterThan(3);
  });

  it("reads only what the caller could: token scopes, roles, disabled packages, other workspaces", async () => {
    const { ws } = await company();
    const contactsOnly = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "c", scopes: ["contacts:read"] } })).json.data.token;
    const refused = await ask(contactsOnly, "overdue invoices");
    expect(refused.reply.text).toMatch(/^You don't have access to that\. .*invoices:read/);
    expect(refused.reply.records).toBeUndefined();
    expect((await ask(contactsOnly, "revenue this month")).reply.text).toMatch(/don't have access/);
    expect((await ask(contactsOnly, "phone of Ada Lovelace")).reply.text).toBe("The phone of Ada Lovelace is +442071234567.");

    expect((await call("PUT", "/packages/sales", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    const disabled = await ask(ws.token, "open deals");
    expect(disabled.reply.text).toBe("The Sales package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.");
    expect(disabled.reply.records).toBeUndefined();

    const other = await signup("Other Co");
    expect((await ask(other.token, "phone of Ada Lovelace")).reply.text).toBe('I couldn\'t find anything matching "Ada Lovelace".');
    expect((await ask(other.token, "overdue invoices")).reply.text).toBe("No invoices (overdue).");
  });
});

describe("actions", () => {
  it("are proposed, confirmed once through the REST write path (events included), and expire", async () => {
    const { ws, website } = await company();
    const proposed = await ask(ws.token, "create a task Call Acme in Website due Friday");
    expect(proposed.reply.intent).toBe("action");
    const action = proposed.reply.action!;
    expect(action).toMatchObject({ kind: "create_task", id: expect.stringMatching(/^act_/) });
    expect(action.summary).toMatch(/^Create the task "Call Acme" in project Website, due \d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(action.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
    // Nothing is written before the confirmation.
    expect((await call("GET", `/tasks?project_id=${website.id}&q=Call%20Acme`, { token: ws.token })).json.data).toEqual([]);

    const confirmed = await call("POST", `/assistant/actions/${action.id}/confirm`, { token: ws.token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.action).toMatchObject({ id: action.id, status: "done" });
    expect(confirmed.json.data.result).toMatchObject({ title: "Call Acme", project_id: website.id, status: "todo" });
    expect((await call("GET", `/tasks/${confirmed.json.data.result.id}`, { token: ws.token })).json.data.title).toBe("Call Acme");
    expectError(await call("POST", `/assistant/actions/${action.id}/confirm`, { token: ws.token }), 409, "conflict");
    // The write path fires the route's events: completing the task records task.completed.
    const done = await ask(ws.token, `mark task ${confirmed.json.data.result.id} done`);
    expect((await call("POST", `/assistant/actions/${done.reply.action!.id}/confirm`, { token: ws.token })).status).toBe(200);
    expect((await recordedEvents(ws.workspaceId, "task.completed")).map((e) => e.data.title)).toEqual(["Call Acme"]);

    const later = await ask(ws.token, "move deal Big Co to won");
    const now = Date.now();
    clock.now = () => now + 11 * 60_000;
    expectError(await call("POST", `/assistant/actions/${later.reply.action!.id}/confirm`, { token: ws.token }), 404, "not_found");
  });

  it("belong to the user who asked; a viewer is told and refused; a disabled package refuses", async () => {
    const { ws, task } = await company();
    const proposed = await ask(ws.token, `mark task ${task.id} done`);
    const member = await userWithRole(ws, "member");
    expectError(await call("POST", `/assistant/actions/${proposed.reply.action!.id}/confirm`, { token: member }), 404, "not_found");
    expectError(await call("POST", "/assistant/actions/act_doesnotexist/confirm", { token: ws.token }), 404, "not_found");

    const viewer = await userWithRole(ws, "viewer");
    const asViewer = await ask(viewer, `mark task ${task.id} done`);
    expect(asViewer.reply.text).toMatch(/you can't do this \(Your role \(viewer\) cannot write tasks/);
    expectError(await call("POST", `/assistant/actions/${asViewer.reply.action!.id}/confirm`, { token: viewer }), 403, "forbidden");
    expect((await call("GET", `/tasks/${task.id}`, { token: ws.token })).json.data.status).toBe("todo");

    const queued = await ask(ws.token, `mark task ${task.id} done`);
    expect((await call("PUT", "/packages/taskly", { token: ws.token, body: { enabled: false } })).status).toBe(409);
    await call("PUT", "/packages/timesheets", { token: ws.token, body: { enabled: false } });
    expect((await call("PUT", "/packages/taskly", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await call("POST", `/assistant/actions/${queued.reply.action!.id}/confirm`, { token: ws.token }), 403, "package_disabled");
    expect((await ask(ws.token, `mark task ${task.id} done`)).reply.text).toBe(
      "The Projects package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.",
    );
  });

  it("asks for what is missing and never proposes an ambiguous target", async () => {
    const { ws } = await company();
    const noProject = await ask(ws.token, "create a task Call Acme");
    expect(noProject.reply.action).toBeUndefined();
    expect(noProject.reply.text).toBe("To create task, I need which project. Say it again with that included.");
    const ambiguous = await ask(ws.token, "move deal Acme to won");
    expect(ambiguous.reply.action).toBeUndefined();
    expect(ambiguous.reply.text).toMatch(/^Two records match "Acme"/);
  });
});

describe("conversations", () => {
  it("keep the asking user's messages; others get 404; bad messages get 400", async () => {
    const { ws } = await company();
    const first = await ask(ws.token, "overdue invoices");
    await ask(ws.token, "revenue this month", first.conversation_id);
    const read = await call("GET", `/assistant/conversations/${first.conversation_id}`, { token: ws.token });
    expect(read.status).toBe(200);
    expect(read.json.data.messages.map((message: { role: string; text: string }) => [message.role, message.text.split("\n")[0]])).toEqual([
      ["user", "overdue invoices"],
      ["assistant", expect.stringMatching(/^1 invoice \(overdue\):$/)],
      ["user", "revenue this month"],
      ["assistant", "Revenue this month: 34.50 USD."],
    ]);
    expect(read.json.data.messages[1].reply.records).toHaveLength(1);

    const member = await userWithRole(ws, "member");
    expectError(await call("GET", `/assistant/conversations/${first.conversation_id}`, { token: member }), 404, "not_found");
    expectError(
      await call("POST", "/assistant/messages", { token: member, body: { message: "hello", conversation_id: first.conversation_id } }),
      404,
      "not_found",
    );
    expectError(await call("GET", "/assistant/conversations/conv_nope", { token: ws.token }), 404, "not_found");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: { message: "   " } }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: { message: "x".repeat(2001) } }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: {} }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { body: { message: "hi" } }), 401, "unauthorized");
  });

  it("answers a metric and a list question in few D1 round trips", async () => {
    const { ws } = await company();
    const { countingDatabases } = await import("./helpers");
    const counting = countingDatabases();
    await fetchWith(counting.bindings, "GET", "/me", { token: ws.token });
    counting.reset();
    expect((await fetchWith(counting.bindings, "POST", "/assistant/messages", { token: ws.token, body: { message: "overdue invoices" } })).status).toBe(200);
    // The list (with its total) and the conversation's writes: two round trips.
    expect(counting.calls()).toBe(2);
  });
});

describe("the optional Workers AI planner", () => {
  it("maps a model's tool call onto the same tools, validated (a stand-in binding: Workers AI cannot run offline)", async () => {
    const { ws } = await company();
    const standIn = (toolCall: unknown) => ({ run: vi.fn(async () => ({ tool_calls: [toolCall] })) });
    const ai = standIn({ name: "list_records", arguments: JSON.stringify({ resource: "invoices", filters: { overdue: "true" } }) });
    expect(await planWithModel(ai, "@hf/test-model", skills(platform.registry), "what is late?", "2026-11-22")).toEqual({
      intent: "list",
      resource: "invoices",
      query: { overdue: "true" },
      refs: {},
      conditions: [],
    });
    expect(ai.run).toHaveBeenCalledWith(
      "@hf/test-model",
      expect.objectContaining({ tools: expect.arrayContaining([expect.objectContaining({ name: "get_metric" })]) }),
    );
    expect(
      await planWithModel(standIn({ name: "list_records", arguments: { resource: "secrets" } }), "m", skills(platform.registry), "x", "2026-11-22"),
    ).toBeNull();
    expect(await planWithModel(standIn({ name: "drop_tables", arguments: {} }), "m", skills(platform.registry), "x", "2026-11-22")).toBeNull();

    // Wired into the route: with AI and ASSISTANT_MODEL set, the model's plan answers through the same tools.
    const res = await fetchWith(
      { AI: standIn({ name: "get_metric", arguments: { widget: "account.outstanding" } }), ASSISTANT_MODEL: "@hf/test-model" },
      "POST",
      "/assistant/messages",
      {
        token: ws.token,
        body: { message: "anything" },
      },
    );
    expect(res.json.data.reply.text).toBe("Outstanding: 1,500.00 USD.");
  });
});

describe("the kind of record is never swapped", () => {
  it("does not make a contact of 'new lead …' or 'add a customer …' (it says what it can do instead), and still creates contacts", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    for (const message of ["new lead tom baker, tom@contoso.com", "add a customer Wonka, ap@wonka.example"]) {
      const res = await call("POST", "/assistant/messages", { token: ws.token, body: { message } });
      expect(res.status).toBe(200);
      expect(res.json.data.reply.action, message).toBeUndefined();
      expect(res.json.data.reply.intent).toBe("unknown");
    }
    expect((await call("GET", "/contacts", { token: ws.token })).json.data).toEqual([]);
    const contact = await call("POST", "/assistant/messages", { token: ws.token, body: { message: "add contact Ada Lovelace ada@example.com" } });
    expect(contact.json.data.reply.action.kind).toBe("create_contact");
  });
});
