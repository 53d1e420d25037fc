import { describe, expect, it, vi } from "vitest";
import { platform } from "../src/index";
import { skills } from "../src/packages/assistant/understand";
import { planWithModel } from "../src/packages/assistant/workers-ai";
import { ask, company } from "./assistant-fixture";
import { call, expectError, fetchWith, noOutboundCalls, userWithRole } from "./helpers";

noOutboundCalls();

describe("conversations", () => {
  it("keep the asking user's messages; others get 404; bad messages get 400", async () => {
    const { ws } = await company();
    const first = await ask(ws.token, "overdue invoices");
    await ask(ws.token, "revenue this month", first.conversation_id);
    const read = await call("GET", `/assistant/conversations/${first.conversation_id}`, { token: ws.token });
    expect(read.status).toBe(200);
    expect(read.json.data.messages.map((message: { role: string; text: string }) => [message.role, message.text.split("\n")[0]])).toEqual([
      ["user", "overdue invoices"],
      ["assistant", "1 invoice (overdue, all time):"],
      ["user", "revenue this month"],
      ["assistant", expect.stringMatching(/^Revenue \(paid in [A-Z][a-z]+ \d{4}\): 34\.50 USD\.$/)],
    ]);
    expect(read.json.data.messages[1].reply.records).toHaveLength(1);
    const member = await userWithRole(ws, "member");
    expectError(await call("GET", `/assistant/conversations/${first.conversation_id}`, { token: member }), 404, "not_found");
    expectError(
      await call("POST", "/assistant/messages", { token: member, body: { message: "hello", conversation_id: first.conversation_id } }),
      404,
      "not_found",
    );
    expectError(
      await call("POST", "/assistant/messages", { token: ws.token, body: { message: "and last month?", conversation_id: "conv_nope" } }),
      404,
      "not_found",
    );
    expectError(await call("GET", "/assistant/conversations/conv_nope", { token: ws.token }), 404, "not_found");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: { message: "   " } }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: { message: "x".repeat(2001) } }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: {} }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { body: { message: "hi" } }), 401, "unauthorized");
  });

  it("help, greetings and dashboard metrics stay answered", async () => {
    const { ws } = await company();
    expect((await ask(ws.token, "what can you do?")).reply.intent).toBe("help");
    const visitors = await ask(ws.token, "visitors this week");
    expect(visitors.reply).toMatchObject({ intent: "metric", data: { widget: "analytics.visitors" } });
    // The win rate is the deals closed in the period, won against lost: the counts behind it, and the rate said.
    const sales = await company();
    await call("PATCH", `/deals/${sales.bigCo.id}`, { token: sales.ws.token, body: { stage: "won" } });
    await call("PATCH", `/deals/${sales.smallFry.id}`, { token: sales.ws.token, body: { stage: "lost" } });
    const winRate = await ask(sales.ws.token, "win rate this quarter");
    expect(winRate.reply).toMatchObject({ intent: "metric", data: { answer: { kind: "groups", group_by: "status" } } });
    expect(winRate.reply.text).toMatch(/^Win rate \(from .+\): 50% — 1 won, 1 lost\.$/);
  });

  it("answers a list question in few D1 round trips", async () => {
    const { ws } = await company();
    const { countingDatabases } = await import("./helpers");
    const counting = countingDatabases();
    await fetchWith(counting.bindings, "GET", "/me", { token: ws.token });
    counting.reset();
    expect((await fetchWith(counting.bindings, "POST", "/assistant/messages", { token: ws.token, body: { message: "overdue invoices" } })).status).toBe(200);
    // The list page and the conversation's writes: two round trips.
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
    expect(
      await planWithModel(standIn({ name: "list_records", arguments: { resource: "secrets" } }), "m", skills(platform.registry), "x", "2026-11-22"),
    ).toBeNull();
    expect(await planWithModel(standIn({ name: "drop_tables", arguments: {} }), "m", skills(platform.registry), "x", "2026-11-22")).toBeNull();
    // Wired into the route: what the built-in engine does not read, the model's plan answers through the same tools.
    const res = await fetchWith(
      { AI: standIn({ name: "get_metric", arguments: { widget: "account.outstanding" } }), ASSISTANT_MODEL: "@hf/test-model" },
      "POST",
      "/assistant/messages",
      { token: ws.token, body: { message: "anything" } },
    );
    expect(res.json.data.reply.text).toBe("Outstanding: 1,500.00 USD.");
  });
});
