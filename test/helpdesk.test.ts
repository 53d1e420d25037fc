import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { call, dbOf, expectError, recordedEvents, setPlan, shardOf, signup, uniqueEmail, type Workspace } from "./helpers";
import { owner, page, submit } from "./pages";

const DOMAIN = env.SUPPORT_DOMAIN;
const supportOf = (ws: Workspace) => `support+${ws.workspaceId}@${DOMAIN}`;

type Mail = { from?: string; subject?: string; text?: string; html?: string; messageId?: string; inReplyTo?: string; date?: string; headers?: string[] };

/** An RFC 5322 message as a mail server hands it over (CRLF lines), text or HTML. */
function rfc822(to: string, mail: Mail): string {
  const lines = [
    `From: Ana Silva <${mail.from ?? "ana@contoso.example"}>`,
    `To: ${to}`,
    `Subject: ${mail.subject ?? "The invoice link is broken"}`,
    `Date: ${mail.date ?? "Tue, 24 Nov 2026 09:00:00 +0000"}`,
    ...(mail.messageId === "" ? [] : [`Message-ID: ${mail.messageId ?? `<${crypto.randomUUID()}@contoso.example>`}`]),
    ...(mail.inReplyTo ? [`In-Reply-To: ${mail.inReplyTo}`, `References: ${mail.inReplyTo}`] : []),
    ...(mail.headers ?? []),
    "MIME-Version: 1.0",
    `Content-Type: ${mail.html ? "text/html" : "text/plain"}; charset=utf-8`,
    "",
    mail.html ?? mail.text ?? "Hello, the PDF link on my invoice says not found.",
  ];
  return lines.join("\r\n");
}

/**
 * Delivers a message to the worker's email() handler as Email Routing does (the same shape `wrangler dev`
 * builds at /cdn-cgi/local/email): the envelope, the raw stream, its size, and setReject recording the reason.
 */
async function deliver(to: string, raw: string | Uint8Array, options: { from?: string; rawSize?: number } = {}) {
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  let rejected: string | null = null;
  const message = {
    from: options.from ?? "ana@contoso.example",
    to,
    headers: new Headers(),
    raw: new Response(bytes).body!,
    rawSize: options.rawSize ?? bytes.byteLength,
    setReject: (reason: string) => {
      rejected = reason;
    },
    forward: async () => ({ messageId: "" }),
    reply: async () => ({ messageId: "" }),
  } as unknown as ForwardableEmailMessage;
  const ctx = createExecutionContext();
  await worker.email(message, env, ctx);
  await waitOnExecutionContext(ctx);
  return { rejected: rejected as string | null };
}

const tickets = async (ws: Workspace, query = "") => (await call("GET", `/tickets${query}`, { token: ws.token })).json.data as Record<string, unknown>[];
const replies = async (ws: Workspace, ticketId: number) =>
  (await call("GET", `/ticket-replies?ticket_id=${ticketId}&sort=id`, { token: ws.token })).json.data as Record<string, unknown>[];

async function helpdeskWorkspace(name = "Support Co") {
  const ws = await signup(name);
  await setPlan(ws, "pro");
  return ws;
}

describe("tickets from e-mail", () => {
  it("an e-mail to the support address opens a ticket linked to the contact, with ticket.created once", async () => {
    const ws = await helpdeskWorkspace();
    const contact = await call("POST", "/contacts", { token: ws.token, body: { name: "Ana Silva", email: "ana@contoso.example" } });
    expect(contact.status, contact.text).toBe(201);
    const { rejected } = await deliver(supportOf(ws), rfc822(supportOf(ws), {}));
    expect(rejected).toBeNull();
    const [ticket, ...more] = await tickets(ws);
    expect(more).toHaveLength(0);
    expect(ticket).toMatchObject({
      number: "TKT-000001",
      subject: "The invoice link is broken",
      body: "Hello, the PDF link on my invoice says not found.",
      email: "ana@contoso.example",
      contact_id: contact.json.data.id,
      priority: "medium",
      status: "open",
      source: "email",
      first_responded_at: null,
      sla_breached: false,
    });
    // Medium: a first reply is due 8 hours after it arrived.
    expect(Date.parse(ticket!.first_response_due_at as string) - Date.parse(ticket!.created_at as string)).toBe(8 * 3_600_000);
    const created = await recordedEvents(ws.workspaceId, "ticket.created");
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({ id: ticket!.id, number: "TKT-000001", source: "email", sla_breached: false });
  });

  it("a second e-mail tagged [#TKT-…] is a reply on that ticket, reopening it; a redelivery adds nothing", async () => {
    const ws = await helpdeskWorkspace();
    const first = "<first@contoso.example>";
    await deliver(supportOf(ws), rfc822(supportOf(ws), { messageId: first }));
    const [ticket] = await tickets(ws);
    const resolved = await call("PUT", `/tickets/${ticket!.id}`, { token: ws.token, body: { status: "resolved" } });
    expect(resolved.json.data).toMatchObject({ status: "resolved" });
    const answer = rfc822(supportOf(ws), {
      subject: `Re: [#${ticket!.number}] The invoice link is broken`,
      text: "Still broken today.",
      messageId: "<second@contoso.example>",
    });
    expect((await deliver(supportOf(ws), answer)).rejected).toBeNull();
    expect((await deliver(supportOf(ws), answer)).rejected).toBeNull(); // Email Routing may deliver twice
    expect((await deliver(supportOf(ws), rfc822(supportOf(ws), { messageId: first }))).rejected).toBeNull();
    expect(await tickets(ws)).toHaveLength(1);
    const thread = await replies(ws, ticket!.id as number);
    expect(thread).toEqual([expect.objectContaining({ body: "Still broken today.", author: "requester", from_email: "ana@contoso.example", internal: false })]);
    const reopened = (await call("GET", `/tickets/${ticket!.id}`, { token: ws.token })).json.data;
    expect(reopened).toMatchObject({ status: "open", resolved_at: null });
  });

  it("finds the ticket from In-Reply-To when the subject lost its tag", async () => {
    const ws = await helpdeskWorkspace();
    await deliver(supportOf(ws), rfc822(supportOf(ws), { messageId: "<opening@contoso.example>" }));
    await deliver(supportOf(ws), rfc822(supportOf(ws), { subject: "Re: your answer", text: "Thanks!", inReplyTo: "<opening@contoso.example>" }));
    const [ticket, ...more] = await tickets(ws);
    expect(more).toHaveLength(0);
    expect(await replies(ws, ticket!.id as number)).toHaveLength(1);
  });

  it("a tag naming another workspace's ticket opens a new ticket here and never writes into the other workspace", async () => {
    const theirs = await helpdeskWorkspace("Other Co");
    const mine = await helpdeskWorkspace("Mine Co");
    await deliver(supportOf(theirs), rfc822(supportOf(theirs), { messageId: "<theirs@contoso.example>" }));
    const [their] = await tickets(theirs);
    // Both workspaces number from TKT-000001: the tag alone is ambiguous, the address decides.
    await deliver(supportOf(mine), rfc822(supportOf(mine), { subject: `Re: [#${their!.number}] hello`, inReplyTo: "<theirs@contoso.example>" }));
    const [ticket, ...more] = await tickets(mine);
    expect(more).toHaveLength(0);
    expect(ticket).toMatchObject({ number: "TKT-000001", subject: "Re: hello" });
    expect(await replies(theirs, their!.id as number)).toEqual([]);
    expect(await replies(mine, ticket!.id as number)).toEqual([]);
  });

  it("stores an HTML-only body as text: markup, scripts and styles gone, entities decoded, and the page shows it escaped", async () => {
    const { ws, cookie } = await owner();
    const html =
      '<html><head><style>p{color:red}</style></head><body><p>Hello <b>team</b>,</p><script>alert("x")</script><p>Line 2 &amp; more &lt;img src=x onerror=alert(1)&gt;</p><img src="x" onerror="alert(2)"></body></html>';
    await deliver(supportOf(ws), rfc822(supportOf(ws), { html }));
    const [ticket] = await tickets(ws);
    expect(ticket!.body).toBe("Hello team,\nLine 2 & more <img src=x onerror=alert(1)>");
    const shown = await page("GET", `/app/tickets/${ticket!.id}`, { cookie });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("Line 2 &amp; more &lt;img src=x onerror=alert(1)&gt;");
    expect(shown.text).not.toContain("<img src=x");
    expect(shown.text).not.toContain('alert("x")');
  });

  it("rejects with a reason, and writes nothing: over 5 MiB, unknown workspace, no From, helpdesk off, not a support address", async () => {
    const ws = await helpdeskWorkspace();
    const big = await deliver(supportOf(ws), rfc822(supportOf(ws), {}), { rawSize: 5 * 1024 * 1024 + 1 });
    expect(big.rejected).toMatch(/5 MiB/);
    const nobody = `support+999999999@${DOMAIN}`;
    expect((await deliver(nobody, rfc822(nobody, {}))).rejected).toMatch(/No such workspace/);
    const headless = new TextEncoder().encode("this is not\r\na mail message at all");
    expect((await deliver(supportOf(ws), headless)).rejected).toMatch(/could not be read/);
    expect((await deliver(`sales@${DOMAIN}`, rfc822(`sales@${DOMAIN}`, {}))).rejected).toMatch(/No mailbox/);
    expect((await deliver(`support+${ws.workspaceId}@elsewhere.example`, rfc822(supportOf(ws), {}))).rejected).toMatch(/No mailbox/);
    expect(await tickets(ws)).toEqual([]);
    expect(await recordedEvents(ws.workspaceId, "ticket.created")).toEqual([]);
    const off = await call("PUT", "/packages/helpdesk", { token: ws.token, body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect((await deliver(supportOf(ws), rfc822(supportOf(ws), {}))).rejected).toMatch(/helpdesk is off/);
    expectError(await call("GET", "/tickets", { token: ws.token }), 403, "package_disabled");
    await call("PUT", "/packages/helpdesk", { token: ws.token, body: { enabled: true } });
    expect(await tickets(ws)).toEqual([]);
  });
});

describe("replies and notes", () => {
  it("a public reply is e-mailed to the requester, threaded and tagged, and answers the SLA; a note is not", async () => {
    const ws = await helpdeskWorkspace("Reply Co");
    await deliver(supportOf(ws), rfc822(supportOf(ws), { messageId: "<open@contoso.example>" }));
    const [ticket] = await tickets(ws);
    const note = await call("POST", "/ticket-replies", { token: ws.token, body: { ticket_id: ticket!.id, body: "Checking the PDF links.", internal: true } });
    expect(note.status, note.text).toBe(201);
    expect(note.json.data).toMatchObject({ internal: true, author: "agent" });
    expect((await call("GET", `/tickets/${ticket!.id}`, { token: ws.token })).json.data.first_responded_at).toBeNull();

    const reply = await call("POST", "/ticket-replies", { token: ws.token, body: { ticket_id: ticket!.id, body: "Fixed — try the link again." } });
    expect(reply.status, reply.text).toBe(201);
    const answered = (await call("GET", `/tickets/${ticket!.id}`, { token: ws.token })).json.data;
    expect(answered.first_responded_at).not.toBeNull();
    expect(answered.sla_breached).toBe(false);

    // The real mail queue sends it; exactly one message (the note is never mailed).
    const db = await dbOf(ws.workspaceId);
    await vi.waitUntil(
      async () =>
        (await db.prepare("SELECT status FROM mail_messages WHERE workspace_id = ?").bind(ws.workspaceId).first<{ status: string }>())?.status === "sent",
      { timeout: 10_000, interval: 250 },
    );
    const messages = await db.prepare('SELECT kind, "to", reply_to FROM mail_messages WHERE workspace_id = ?').bind(ws.workspaceId).all();
    expect(messages.results).toEqual([{ kind: "ticket_reply", to: "ana@contoso.example", reply_to: supportOf(ws) }]);

    // What the consumer sent, as the requester's mail client reads it.
    const { helpdeskMailers } = await import("../src/packages/helpdesk/mail");
    const { mimeMessage } = await import("../src/platform/mail/mime");
    const { tenantOn } = await import("../src/platform/tenancy");
    const { platform } = await import("../src/index");
    const tenant = tenantOn(env, platform.registry, { id: ws.workspaceId, shard: (await shardOf(ws.workspaceId)).name });
    const content = await helpdeskMailers.ticket_reply({ env, tenant, subjectId: reply.json.data.id, to: "ana@contoso.example", fromName: "Reply Co" });
    if ("skip" in content) throw new Error(content.skip);
    const raw = mimeMessage({ from: "billing@business-platform.example", fromName: "Reply Co", to: "ana@contoso.example", replyTo: supportOf(ws) }, content);
    const { default: PostalMime } = await import("postal-mime");
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe(`Re: [#${ticket!.number}] The invoice link is broken`);
    expect(parsed.inReplyTo).toBe("<open@contoso.example>");
    expect(parsed.references).toContain("<open@contoso.example>");
    expect(parsed.messageId).toMatch(new RegExp(`@${DOMAIN.replaceAll(".", "\\.")}>$`));
    expect(parsed.replyTo?.[0]?.address).toBe(supportOf(ws));
    expect(parsed.text).toContain("Fixed — try the link again.");
    expect(parsed.text).not.toContain("Checking the PDF links.");
    const noteMail = await helpdeskMailers.ticket_reply({ env, tenant, subjectId: note.json.data.id, to: "x@example.com", fromName: "Reply Co" });
    expect(noteMail).toEqual({ skip: "an internal note is never e-mailed" });

    // The requester answers our reply (In-Reply-To our Message-ID, no tag): it joins the same ticket.
    await deliver(supportOf(ws), rfc822(supportOf(ws), { subject: "Re: thanks", text: "Works now.", inReplyTo: parsed.messageId }));
    expect((await replies(ws, ticket!.id as number)).map((r) => r.body)).toEqual(["Checking the PDF links.", "Fixed — try the link again.", "Works now."]);
  });

  it("refuses a reply to another workspace's ticket, an empty body, or a viewer, writing nothing", async () => {
    const ws = await helpdeskWorkspace();
    const other = await helpdeskWorkspace("Other Co");
    const theirs = await call("POST", "/tickets", { token: other.token, body: { subject: "Theirs", email: "x@example.com" } });
    const refused = expectError(
      await call("POST", "/ticket-replies", { token: ws.token, body: { ticket_id: theirs.json.data.id, body: "hi" } }),
      400,
      "validation_error",
    );
    expect(refused.details).toEqual([{ path: "ticket_id", message: "no such ticket in this workspace" }]);
    const mine = await call("POST", "/tickets", { token: ws.token, body: { subject: "Mine", email: "y@example.com" } });
    expectError(await call("POST", "/ticket-replies", { token: ws.token, body: { ticket_id: mine.json.data.id, body: "" } }), 400, "validation_error");
    expect(await replies(other, theirs.json.data.id)).toEqual([]);
    expect(await replies(ws, mine.json.data.id)).toEqual([]);
    expectError(await call("GET", `/tickets/${theirs.json.data.id}`, { token: ws.token }), 404, "not_found");
  });
});

describe("SLA, status and assignment", () => {
  it("due times follow the priority (urgent 1 h, high 4 h, medium 8 h, low 24 h), also when it changes", async () => {
    const ws = await helpdeskWorkspace();
    for (const [priority, hours] of [
      ["urgent", 1],
      ["high", 4],
      ["medium", 8],
      ["low", 24],
    ] as const) {
      const created = await call("POST", "/tickets", { token: ws.token, body: { subject: `P ${priority}`, email: "a@example.com", priority } });
      expect(created.status, created.text).toBe(201);
      const t = created.json.data;
      expect(Date.parse(t.first_response_due_at) - Date.parse(t.created_at), priority).toBe(hours * 3_600_000);
    }
    const [low] = await tickets(ws, "?priority=low");
    const raised = (await call("PUT", `/tickets/${low!.id}`, { token: ws.token, body: { priority: "urgent" } })).json.data;
    expect(Date.parse(raised.first_response_due_at) - Date.parse(raised.created_at)).toBe(3_600_000);
  });

  it("flags a breach (unanswered past due, or answered late), lists it, and counts it on the dashboard", async () => {
    const ws = await helpdeskWorkspace();
    const urgent = (await call("POST", "/tickets", { token: ws.token, body: { subject: "Site down", email: "a@example.com", priority: "urgent" } })).json.data;
    const fine = (await call("POST", "/tickets", { token: ws.token, body: { subject: "Question", email: "b@example.com", priority: "low" } })).json.data;
    // Opened two hours ago (the test moves its clock back in the database: an hour cannot be waited for).
    const twoHours = 2 * 3_600_000;
    await (await dbOf(ws.workspaceId))
      .prepare("UPDATE tickets SET created_at = created_at - ?, first_response_due_at = first_response_due_at - ? WHERE workspace_id = ? AND id = ?")
      .bind(twoHours, twoHours, ws.workspaceId, urgent.id)
      .run();
    expect((await call("GET", `/tickets/${urgent.id}`, { token: ws.token })).json.data.sla_breached).toBe(true);
    expect((await tickets(ws, "?sla_breached=true")).map((t) => t.id)).toEqual([urgent.id]);
    expect((await tickets(ws, "?sla_breached=false")).map((t) => t.id)).toEqual([fine.id]);
    const widgets = (await call("GET", "/dashboard?widgets=helpdesk.open_tickets,helpdesk.sla_breaches", { token: ws.token })).json.data;
    expect(widgets).toEqual([
      expect.objectContaining({ key: "helpdesk.open_tickets", data: expect.objectContaining({ value: 2 }) }),
      expect.objectContaining({ key: "helpdesk.sla_breaches", data: expect.objectContaining({ value: 1 }) }),
    ]);
    // Answered late: still a breach, and the record says when.
    await call("POST", "/ticket-replies", { token: ws.token, body: { ticket_id: urgent.id, body: "Sorry — on it." } });
    expect((await call("GET", `/tickets/${urgent.id}`, { token: ws.token })).json.data).toMatchObject({ sla_breached: true });
  });

  it("resolving fires ticket.resolved once and sets resolved_at; closed is final", async () => {
    const ws = await helpdeskWorkspace();
    const t = (await call("POST", "/tickets", { token: ws.token, body: { subject: "Refund", email: "a@example.com" } })).json.data;
    const resolved = (await call("PUT", `/tickets/${t.id}`, { token: ws.token, body: { status: "resolved" } })).json.data;
    expect(resolved.resolved_at).not.toBeNull();
    await call("PUT", `/tickets/${t.id}`, { token: ws.token, body: { status: "resolved" } });
    expect(await recordedEvents(ws.workspaceId, "ticket.resolved")).toHaveLength(1);
    expect((await call("PUT", `/tickets/${t.id}`, { token: ws.token, body: { status: "closed" } })).status).toBe(200);
    expectError(await call("PUT", `/tickets/${t.id}`, { token: ws.token, body: { status: "open" } }), 409, "invalid_transition");
  });

  it("assigns to a user of the workspace only", async () => {
    const ws = await helpdeskWorkspace();
    const other = await helpdeskWorkspace("Other Co");
    const stranger = (await call("GET", "/me", { token: other.token })).json.data.user.id;
    const me = (await call("GET", "/me", { token: ws.token })).json.data.user.id;
    const refused = expectError(
      await call("POST", "/tickets", { token: ws.token, body: { subject: "A", email: "a@example.com", assignee_user_id: stranger } }),
      400,
      "validation_error",
    );
    expect(refused.details).toEqual([{ path: "assignee_user_id", message: "is not a user of this workspace" }]);
    expect(await tickets(ws)).toEqual([]);
    const t = (await call("POST", "/tickets", { token: ws.token, body: { subject: "A", email: uniqueEmail(), assignee_user_id: me } })).json.data;
    expect(t.assignee_user_id).toBe(me);
    expectError(await call("PATCH", `/tickets/${t.id}`, { token: ws.token, body: { assignee_user_id: stranger } }), 400, "validation_error");
    expect((await tickets(ws, `?assignee_user_id=${me}`)).map((x) => x.id)).toEqual([t.id]);
  });
});

describe("the ticket page", () => {
  it("shows the conversation and answers through its form", async () => {
    const { ws, cookie } = await owner();
    await deliver(supportOf(ws), rfc822(supportOf(ws), { text: "Where is my order?" }));
    const [ticket] = await tickets(ws);
    const sent = await submit(cookie, `/app/tickets/${ticket!.id}`, `/app/tickets/${ticket!.id}/reply`, { body: "It ships today." });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    expect(sent.headers.get("location")).toBe(`/app/tickets/${ticket!.id}?done=replied`);
    const shown = await page("GET", `/app/tickets/${ticket!.id}?done=replied`, { cookie });
    expect(shown.text).toContain("Your reply was sent to the requester.");
    expect(shown.text).toContain("Where is my order?");
    expect(shown.text).toContain("It ships today.");
    expect(shown.text).toContain('aria-label="Conversation"');
  });
});

describe("the assistant", () => {
  it("answers 'open urgent tickets' from the definition's filters", async () => {
    const ws = await helpdeskWorkspace();
    const make = async (subject: string, priority: string, status = "open") =>
      expect((await call("POST", "/tickets", { token: ws.token, body: { subject, email: "a@example.com", priority, status } })).status).toBe(201);
    await make("Checkout is down", "urgent");
    await make("Typo on the pricing page", "low");
    await make("Old outage", "urgent", "resolved");
    const res = await call("POST", "/assistant/messages", { token: ws.token, body: { message: "open urgent tickets" } });
    expect(res.status, res.text).toBe(200);
    const reply = res.json.data.reply;
    expect(reply.intent).toBe("list");
    expect(reply.text).toContain("Checkout is down");
    expect(reply.text).not.toContain("Old outage");
    expect(reply.text).not.toContain("Typo on the pricing page");
  });
});
