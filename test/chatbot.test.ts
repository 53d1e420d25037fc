import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call, create, env, expectError, freshIp, noOutboundCalls, setPlan, signup, userWithRole, type Workspace } from "./helpers";
import { page, signIn, submit } from "./pages";

// Answers go in the HTTP response: no response_url, no Bot API call, no fetch at all.
noOutboundCalls();

const encoder = new TextEncoder();
async function hmac(key: Uint8Array, data: Uint8Array) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, data));
}
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

async function post(path: string, body: string, headers: Record<string, string>, ip = freshIp()) {
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { method: "POST", body, headers: { "cf-connecting-ip": ip, ...headers } }));
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers, text };
}

const SLACK_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const TEAMS_SECRET = b64(crypto.getRandomValues(new Uint8Array(32)));
const TELEGRAM_SECRET = "telegram-secret-token-123";

/** A workspace with an overdue invoice, its three integrations acting as a member. */
async function connected() {
  const ws = await signup("Chat Co");
  await setPlan(ws, "enterprise");
  const customer = await create(ws, "customers", { name: "Acme", email: "ap@acme.example", currency: "USD" });
  const invoice = await create(ws, "invoices", {
    customer_id: customer.id,
    currency: "USD",
    issue_date: "2026-01-05",
    due_date: "2026-02-05",
    items: [{ description: "Work", quantity: 1, unit_amount: 10000 }],
  });
  await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token });
  const project = await create(ws, "projects", { name: "Website" });
  const members = (await call("GET", "/users", { token: ws.token })).json.data;
  const owner = members[0];
  for (const [provider, secret] of [
    ["slack", SLACK_SECRET],
    ["teams", TEAMS_SECRET],
    ["telegram", TELEGRAM_SECRET],
  ] as const) {
    const res = await call("PUT", `/chatbot/integrations/${provider}`, { token: ws.token, body: { enabled: true, secret, acts_as_user_id: owner.id } });
    expect(res.status, res.text).toBe(200);
  }
  return { ws, invoice, project, owner };
}

async function slack(ws: Workspace, text: string, options: { secret?: string; timestamp?: number; ip?: string; fields?: Record<string, string> } = {}) {
  const body = new URLSearchParams({
    token: "gIkuvaNzQIHg97ATvDxqgjtO",
    team_id: "T0001",
    team_domain: "example",
    channel_id: "C2147483705",
    channel_name: "general",
    user_id: "U2147483697",
    user_name: "ada",
    command: "/bp",
    text,
    response_url: "https://hooks.slack.com/commands/1234/5678",
    // Unique per real command, as Slack's are: two commands never share a signature.
    trigger_id: `13345224609.738474920.${crypto.randomUUID().replaceAll("-", "")}`,
    ...options.fields,
  }).toString();
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = `v0=${hex(await hmac(encoder.encode(options.secret ?? SLACK_SECRET), encoder.encode(`v0:${timestamp}:${body}`)))}`;
  return post(
    `/chatbot/slack/${ws.workspaceId}`,
    body,
    { "content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": timestamp, "x-slack-signature": signature },
    options.ip,
  );
}

describe("chat integrations", () => {
  it("are set by admins, store the secret encrypted and never show it", async () => {
    const { ws, owner } = await connected();
    const list = await call("GET", "/chatbot/integrations", { token: ws.token });
    expect(list.json.data.map((i: { provider: string }) => i.provider)).toEqual(["slack", "teams", "telegram"]);
    expect(list.json.data[0]).toEqual({
      provider: "slack",
      enabled: true,
      acts_as_user_id: owner.id,
      allowed_chats: [],
      endpoint_url: `${BASE}/chatbot/slack/${ws.workspaceId}`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(list.text).not.toContain(SLACK_SECRET);
    const stored = await env.DB.prepare("SELECT secret FROM chatbot_integrations WHERE workspace_id = ?").bind(ws.workspaceId).all<{ secret: string }>();
    for (const row of stored.results) expect(row.secret).toMatch(/^v2:/);

    const member = await userWithRole(ws, "member");
    expectError(await call("PUT", "/chatbot/integrations/slack", { token: member, body: { enabled: false, acts_as_user_id: owner.id } }), 403, "forbidden");
    expectError(await call("GET", "/chatbot/integrations", { token: member }), 403, "forbidden");
    const fresh = await signup("Fresh Co");
    const freshOwner = (await call("GET", "/users", { token: fresh.token })).json.data[0];
    expectError(
      await call("PUT", "/chatbot/integrations/slack", { token: fresh.token, body: { enabled: true, acts_as_user_id: freshOwner.id } }),
      400,
      "validation_error",
    );
    expectError(
      await call("PUT", "/chatbot/integrations/slack", { token: fresh.token, body: { enabled: true, secret: SLACK_SECRET, acts_as_user_id: owner.id } }),
      400,
      "validation_error",
    );
    expectError(
      await call("PUT", "/chatbot/integrations/teams", { token: fresh.token, body: { enabled: true, secret: "not base64!!", acts_as_user_id: freshOwner.id } }),
      400,
      "validation_error",
    );
    expectError(
      await call("PUT", "/chatbot/integrations/discord", { token: fresh.token, body: { enabled: true, secret: SLACK_SECRET, acts_as_user_id: freshOwner.id } }),
      404,
      "not_found",
    );
    // Without a new secret the current one is kept.
    expect((await call("PUT", "/chatbot/integrations/slack", { token: ws.token, body: { enabled: true, acts_as_user_id: owner.id } })).status).toBe(200);
    expect((await slack(ws, "overdue invoices")).status).toBe(200);
  });
});

describe("Slack", () => {
  it("answers a signed slash command in the response; refuses bad or stale signatures with nothing answered", async () => {
    const { ws, invoice } = await connected();
    const ok = await slack(ws, "overdue invoices");
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ response_type: "ephemeral", text: expect.stringContaining(invoice.number) });

    for (const bad of [
      await slack(ws, "overdue invoices", { secret: "wrong-secret-wrong-secret" }),
      await slack(ws, "overdue invoices", { timestamp: Math.floor(Date.now() / 1000) - 301 }),
    ]) {
      expectError(bad, 401, "unauthorized");
      expect(bad.text).not.toContain(invoice.number);
    }
    expectError(await post(`/chatbot/slack/${ws.workspaceId}`, "text=hi", { "content-type": "application/x-www-form-urlencoded" }), 401, "unauthorized");
    // Another workspace's id, or one that does not exist: the same 401.
    const other = await signup("Other Co");
    expectError(await slack(other, "overdue invoices"), 401, "unauthorized");
    expectError(await slack({ ...ws, workspaceId: 999_999 }, "overdue invoices"), 401, "unauthorized");
  });

  it("refuses a disabled integration (401) or package (403), and proposes actions with a dashboard link, read-only", async () => {
    const { ws, owner } = await connected();
    const action = await slack(ws, "create a task Call Acme in Website due Friday");
    expect(action.json.text).toMatch(
      /^Create the task "Call Acme" \(due date \d{4}-\d{2}-\d{2}, project Website\)\. Confirm it in the dashboard: http:\/\/127\.0\.0\.1:8787\/app\/assistant\?action=act_\w+$/,
    );
    const actionId = /action=(act_\w+)/.exec(action.json.text)![1];
    // The link is for the bot's user, who confirms with their own session.
    const confirmed = await call("POST", `/assistant/actions/${actionId}/confirm`, { token: ws.token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.result.title).toBe("Call Acme");

    expect((await call("PUT", "/chatbot/integrations/slack", { token: ws.token, body: { enabled: false, acts_as_user_id: owner.id } })).status).toBe(200);
    expectError(await slack(ws, "overdue invoices"), 401, "unauthorized");
    expect((await call("PUT", "/chatbot/integrations/slack", { token: ws.token, body: { enabled: true, acts_as_user_id: owner.id } })).status).toBe(200);
    expect((await call("PUT", "/packages/chatbot", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await slack(ws, "overdue invoices"), 403, "package_disabled");
  });

  it("counts verified requests against the workspace and refused ones against the client IP", async () => {
    const { ws } = await connected();
    const ip = freshIp();
    const refused = [];
    for (let i = 0; i < 61; i++) refused.push(await slack(ws, "hi", { secret: "wrong-secret-wrong-secret", ip }));
    expect(refused.slice(0, 60).every((res) => res.status === 401)).toBe(true);
    expectError(refused[60]!, 429, "rate_limited");
    // A verified request from that IP is the workspace's, not the IP's.
    expect((await slack(ws, "hi", { ip })).status).toBe(200);
  });
});

describe("Microsoft Teams and Telegram", () => {
  it("Teams: an HMAC-signed activity is answered as a message", async () => {
    const { ws, invoice } = await connected();
    const activity = JSON.stringify({
      type: "message",
      id: "1485983408511",
      timestamp: new Date().toISOString(),
      serviceUrl: "https://smba.trafficmanager.net/emea/",
      channelId: "msteams",
      from: { id: "29:1XJKJMvc5GBtc2JwZq0oj8tHZmzrQgFmB", name: "Ada" },
      conversation: { isGroup: true, id: "19:253b1f341670408fb6fcb79ac4571e9a@thread.skype;messageid=1485983408511" },
      recipient: null,
      textFormat: "plain",
      text: "<at>Business Bot</at>&nbsp;overdue invoices",
      entities: [{ type: "mention", text: "<at>Business Bot</at>", mentioned: { id: "28:c9e8c047-2a74-40a2-b28a-b162d5f5327c", name: "Business Bot" } }],
    });
    const key = Uint8Array.from(atob(TEAMS_SECRET), (ch) => ch.charCodeAt(0));
    const signature = b64(await hmac(key, encoder.encode(activity)));
    const ok = await post(`/chatbot/teams/${ws.workspaceId}`, activity, { "content-type": "application/json", authorization: `HMAC ${signature}` });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ type: "message", text: expect.stringContaining(invoice.number) });
    expectError(
      await post(`/chatbot/teams/${ws.workspaceId}`, activity.replace("overdue", "paid"), {
        "content-type": "application/json",
        authorization: `HMAC ${signature}`,
      }),
      401,
      "unauthorized",
    );
    expectError(await post(`/chatbot/teams/${ws.workspaceId}`, activity, { "content-type": "application/json" }), 401, "unauthorized");
  });

  it("Telegram: the secret-token header authenticates; the answer is a sendMessage in the response", async () => {
    const { ws, invoice } = await connected();
    const update = JSON.stringify({
      update_id: 10000,
      message: {
        message_id: 1365,
        date: 1795312800,
        chat: { id: 1111111, type: "private", first_name: "Ada" },
        from: { id: 1111111, is_bot: false, first_name: "Ada" },
        text: "/ask overdue invoices",
      },
    });
    const ok = await post(`/chatbot/telegram/${ws.workspaceId}`, update, {
      "content-type": "application/json",
      "x-telegram-bot-api-secret-token": TELEGRAM_SECRET,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ method: "sendMessage", chat_id: 1111111, text: expect.stringContaining(invoice.number) });
    const sticker = JSON.stringify({
      update_id: 10001,
      message: { message_id: 1366, date: 1795312800, chat: { id: 1111111, type: "private" }, sticker: { file_id: "x" } },
    });
    expect(
      (await post(`/chatbot/telegram/${ws.workspaceId}`, sticker, { "content-type": "application/json", "x-telegram-bot-api-secret-token": TELEGRAM_SECRET }))
        .json,
    ).toEqual({});
    expectError(
      await post(`/chatbot/telegram/${ws.workspaceId}`, update, { "content-type": "application/json", "x-telegram-bot-api-secret-token": "guess" }),
      401,
      "unauthorized",
    );
    expectError(await post(`/chatbot/telegram/${ws.workspaceId}`, update, { "content-type": "application/json" }), 401, "unauthorized");
  });
});

describe("rate-limit headers and the 401 challenge (security review)", () => {
  it("every chat-bot answer carries the rate-limit headers; a refusal carries WWW-Authenticate too", async () => {
    const { ws } = await connected();
    const ok = await slack(ws, "overdue invoices");
    expect(ok.status).toBe(200);
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit", "ratelimit-policy"])
      expect(ok.headers.get(header), header).toBeTruthy();
    expect(ok.headers.get("ratelimit-policy")).toMatch(/^"workspace";/);
    const bad = await slack(ws, "overdue invoices", { secret: "wrong-secret-wrong-secret" });
    expectError(bad, 401, "unauthorized");
    expect(bad.headers.get("www-authenticate")).toMatch(/^Bearer realm="api"/);
    expect(bad.headers.get("ratelimit-policy")).toMatch(/^"ip";/);
    expect(bad.headers.get("x-ratelimit-remaining")).toBeTruthy();
  });
});

/** A Telegram update from one chat account, signed with the secret token. */
async function telegram(ws: Workspace, text: string, options: { updateId?: number; from?: number; chat?: number } = {}) {
  const from = options.from ?? 5550001;
  const update = JSON.stringify({
    update_id: options.updateId ?? Math.floor(Math.random() * 1e9),
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: options.chat ?? from, type: "private" },
      from: { id: from, is_bot: false, first_name: "Grace", username: "grace" },
      text,
    },
  });
  return post(`/chatbot/telegram/${ws.workspaceId}`, update, { "content-type": "application/json", "x-telegram-bot-api-secret-token": TELEGRAM_SECRET });
}

/** Teams: a signed activity with its id and timestamp. */
async function teams(ws: Workspace, text: string, options: { id?: string; timestamp?: string } = {}) {
  const activity = JSON.stringify({
    type: "message",
    id: options.id ?? String(Date.now()),
    timestamp: options.timestamp ?? new Date().toISOString(),
    from: { id: "29:grace", name: "Grace" },
    conversation: { id: "19:general@thread.skype" },
    text,
  });
  const key = Uint8Array.from(atob(TEAMS_SECRET), (ch) => ch.charCodeAt(0));
  return post(`/chatbot/teams/${ws.workspaceId}`, activity, {
    "content-type": "application/json",
    authorization: `HMAC ${b64(await hmac(key, encoder.encode(activity)))}`,
  });
}

describe("linking chat accounts (no fallback user)", () => {
  it("tells an unlinked account how to link; /link gives a one-time code that answers it as its user, with that user's role", async () => {
    const { ws, invoice } = await connected();
    // Connected without acts_as_user_id: unlinked accounts are not answered as anyone.
    const put = await call("PUT", "/chatbot/integrations/telegram", { token: ws.token, body: { enabled: true } });
    expect(put.json.data.acts_as_user_id).toBeNull();
    const unlinked = await telegram(ws, "/ask overdue invoices");
    expect(unlinked.json.text).toContain("send /link");
    expect(unlinked.text).not.toContain(invoice.number);

    const asked = await telegram(ws, "/link");
    const code = /code is ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(asked.json.text)?.[1];
    expect(code, asked.text).toBeTruthy();
    expect(asked.json.text).toContain("/app/settings/chat");
    const viewer = await userWithRole(ws, "viewer");
    expectError(await call("POST", "/chatbot/links", { token: viewer, body: { code: "ZZZZ-ZZZZ" } }), 400, "validation_error");
    const other = await signup("Elsewhere");
    expectError(await call("POST", "/chatbot/links", { token: other.token, body: { code } }), 400, "validation_error");
    const linked = await call("POST", "/chatbot/links", { token: viewer, body: { code: code!.toLowerCase() } });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.json.data).toMatchObject({ provider: "telegram", chat_user_id: "5550001", chat_user_name: "grace", user: { name: "viewer" } });
    expectError(await call("POST", "/chatbot/links", { token: viewer, body: { code } }), 400, "validation_error");

    // Answered as the viewer: reads work, and an action is only proposed (read-only), never done.
    const answered = await telegram(ws, "/ask overdue invoices");
    expect(answered.json.text).toContain(invoice.number);
    const mine = await call("GET", "/chatbot/links", { token: viewer });
    expect(mine.json.data).toHaveLength(1);
    expect((await call("GET", "/chatbot/links", { token: ws.token })).json.data).toHaveLength(1);
    const member = await userWithRole(ws, "member");
    expect((await call("GET", "/chatbot/links", { token: member })).json.data).toEqual([]);
    expectError(await call("DELETE", `/chatbot/links/${linked.json.data.id}`, { token: member }), 404, "not_found");
    expect((await call("DELETE", `/chatbot/links/${linked.json.data.id}`, { token: viewer })).status).toBe(200);
    expect((await telegram(ws, "/ask overdue invoices")).json.text).toContain("send /link");
  });

  it("answers only in allowed chats", async () => {
    const { ws, invoice, owner } = await connected();
    await call("PUT", "/chatbot/integrations/slack", { token: ws.token, body: { enabled: true, acts_as_user_id: owner.id, allowed_chats: ["C0OTHER"] } });
    const refused = await slack(ws, "overdue invoices");
    expect(refused.status).toBe(200);
    expect(refused.json.text).toContain("not set up for the bot");
    expect(refused.text).not.toContain(invoice.number);
    await call("PUT", "/chatbot/integrations/slack", { token: ws.token, body: { enabled: true, acts_as_user_id: owner.id, allowed_chats: ["T0001"] } });
    expect((await slack(ws, "overdue invoices")).json.text).toContain(invoice.number);
  });
});

describe("replays and Slack's Events API", () => {
  it("answers a repeated Telegram update_id, Slack signature or Teams activity id once; refuses a stale Teams activity", async () => {
    const { ws, invoice } = await connected();
    const first = await telegram(ws, "/ask overdue invoices", { updateId: 777 });
    expect(first.json.text).toContain(invoice.number);
    expect((await telegram(ws, "/ask overdue invoices", { updateId: 777 })).json).toEqual({});

    const once = await teams(ws, "overdue invoices", { id: "act-1" });
    expect(once.json.text).toContain(invoice.number);
    expect((await teams(ws, "overdue invoices", { id: "act-1" })).json).toEqual({ type: "message", text: "" });
    expectError(await teams(ws, "overdue invoices", { id: "act-2", timestamp: "2017-03-01T10:00:00.000Z" }), 401, "unauthorized");

    // The very same signed Slack request, sent twice.
    const body = new URLSearchParams({ team_id: "T0001", channel_id: "C1", user_id: "U1", text: "overdue invoices", trigger_id: "t-1" }).toString();
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": `v0=${hex(await hmac(encoder.encode(SLACK_SECRET), encoder.encode(`v0:${timestamp}:${body}`)))}`,
    };
    expect((await post(`/chatbot/slack/${ws.workspaceId}`, body, headers)).json.text).toContain(invoice.number);
    expect((await post(`/chatbot/slack/${ws.workspaceId}`, body, headers)).json).toEqual({ response_type: "ephemeral", text: "" });
  });

  it("answers Slack's url_verification with its challenge (signed), and other events with nothing", async () => {
    const { ws } = await connected();
    const signed = async (payload: object) => {
      const body = JSON.stringify(payload);
      const timestamp = String(Math.floor(Date.now() / 1000));
      return post(`/chatbot/slack/${ws.workspaceId}`, body, {
        "content-type": "application/json",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": `v0=${hex(await hmac(encoder.encode(SLACK_SECRET), encoder.encode(`v0:${timestamp}:${body}`)))}`,
      });
    };
    const challenge = await signed({ type: "url_verification", token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    expect(challenge.status, challenge.text).toBe(200);
    expect(challenge.json).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
    const event = await signed({ type: "event_callback", event_id: "Ev1", event: { type: "app_mention", text: "overdue invoices" } });
    expect(event.json).toEqual({ response_type: "ephemeral", text: "" });
    const forged = await post(`/chatbot/slack/${ws.workspaceId}`, JSON.stringify({ type: "url_verification", challenge: "x" }), {
      "content-type": "application/json",
    });
    expectError(forged, 401, "unauthorized");
  });
});

describe("Settings → Chat", () => {
  it("links an account with the code from /link, lists it and unlinks it", async () => {
    const { ws, invoice } = await connected();
    await call("PUT", "/chatbot/integrations/telegram", { token: ws.token, body: { enabled: true } });
    const code = /code is ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec((await telegram(ws, "/link", { from: 5550002 })).json.text)![1]!;
    const cookie = await signIn(ws.email, ws.password);
    const wrong = await submit(cookie, "/app/settings/chat", "/app/settings/chat", { code: "AAAA-AAAA" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('id="code-error"');
    const linked = await submit(cookie, "/app/settings/chat", "/app/settings/chat", { code });
    expect(linked.status, linked.text.slice(0, 200)).toBe(303);
    const shown = await page("GET", "/app/settings/chat?done=linked", { cookie });
    expect(shown.text).toContain("Linked: the bot now answers that account as you.");
    expect(shown.text).toContain("grace");
    expect((await telegram(ws, "/ask overdue invoices", { from: 5550002 })).json.text).toContain(invoice.number);
    const id = (await call("GET", "/chatbot/links", { token: ws.token })).json.data[0].id;
    expect((await submit(cookie, "/app/settings/chat", `/app/settings/chat/${id}/unlink`, {})).status).toBe(303);
    expect((await call("GET", "/chatbot/links", { token: ws.token })).json.data).toEqual([]);
  });
});
