import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import Stripe from "stripe";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { call, dbOf, expectError, setPlan, shardOf, signup, userWithRole, type Workspace } from "./helpers";
import { owner, page, signInAs, submit } from "./pages";

/** A customer and a draft invoice of 1,250.00 + 20% tax on one line and 12 × 15.00 on another. */
async function draftInvoice(ws: Workspace, customer: Record<string, unknown> = {}, invoice: Record<string, unknown> = {}) {
  const created = await call("POST", "/customers", { token: ws.token, body: { name: "Initech", email: "ap@initech.example", ...customer } });
  expect(created.status, created.text).toBe(201);
  const res = await call("POST", "/invoices", {
    token: ws.token,
    body: {
      customer_id: created.json.data.id,
      due_date: "2026-12-20",
      items: [
        { description: "Website design", quantity: 1, unit_amount: 125000, tax_rate: 20 },
        { description: "Hosting (months)", quantity: 12, unit_amount: 1500 },
      ],
      ...invoice,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data;
}

async function sentInvoice(ws: Workspace, invoice: Record<string, unknown> = {}) {
  const draft = await draftInvoice(ws, {}, invoice);
  const sent = await call("POST", `/invoices/${draft.id}/send`, { token: ws.token });
  expect(sent.status, sent.text).toBe(200);
  return sent.json.data;
}

/** A page at the site root (not /api/v1), as a customer's browser asks for it. */
async function open(path: string, init: RequestInit = {}) {
  const response = await exports.default.fetch(new Request(`http://127.0.0.1:8787${path}`, { redirect: "manual", ...init }));
  return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
}
const text = (body: Uint8Array) => new TextDecoder().decode(body);
const tokenOf = (invoice: { public_url: string }) => new URL(invoice.public_url).pathname.slice(3);

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return text;
}

describe("sending an invoice", () => {
  it("queues the e-mail, and the mail queue sends it through the EMAIL binding", async () => {
    const ws = await signup("Mail Co");
    await setPlan(ws, "pro");
    const draft = await draftInvoice(ws);
    expect(draft.delivery).toBeNull();
    expect(draft.public_url).toBeNull();
    const sent = await call("POST", `/invoices/${draft.id}/send`, { token: ws.token });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json.data.delivery).toEqual({ status: "queued", to: "ap@initech.example", attempts: 0, last_error: null, sent_at: null });
    expect(sent.json.data.public_url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/i\/[0-9A-Za-z]{43}$/);
    // The real queue's consumer renders the message (PDF attached) and sends it.
    await vi.waitUntil(async () => (await call("GET", `/invoices/${draft.id}`, { token: ws.token })).json.data.delivery.status === "sent", {
      timeout: 10_000,
      interval: 250,
    });
    const deliveries = await call("GET", `/invoices/${draft.id}/deliveries`, { token: ws.token });
    expect(deliveries.status).toBe(200);
    expect(deliveries.json.data).toHaveLength(1);
    expect(deliveries.json.data[0]).toMatchObject({ kind: "invoice", to: "ap@initech.example", status: "sent", attempts: 1, last_error: null });
    expect(deliveries.json.data[0].history).toEqual([expect.objectContaining({ attempt: 1, outcome: "sent", error: null })]);
    // Sent again to another address: a second message; the public link stays the same.
    const again = await call("POST", `/invoices/${draft.id}/send`, { token: ws.token, body: { to: "ceo@initech.example" } });
    expect(again.json.data.public_url).toBe(sent.json.data.public_url);
    expect(again.json.data.delivery).toMatchObject({ status: "queued", to: "ceo@initech.example" });
  });

  it("refuses a recipient that is not an e-mail, writing nothing", async () => {
    const ws = await signup();
    const draft = await draftInvoice(ws);
    const error = expectError(await call("POST", `/invoices/${draft.id}/send`, { token: ws.token, body: { to: "not-an-email" } }), 400, "validation_error");
    expect(error.details[0].path).toBe("to");
    const after = await call("GET", `/invoices/${draft.id}`, { token: ws.token });
    expect(after.json.data).toMatchObject({ status: "draft", public_url: null, delivery: null });
    expect((await call("GET", `/invoices/${draft.id}/deliveries`, { token: ws.token })).json.data).toEqual([]);
  });

  it("retries a send the binding refuses, then marks it failed with the binding's reason", async () => {
    const ws = await signup();
    const draft = await draftInvoice(ws);
    const { name: shard, db } = await shardOf(ws.workspaceId);
    // A queued message written directly (so no queue message exists for it), consumed here with a binding that refuses.
    const now = Date.now();
    const { id } = (await db
      .prepare(
        "INSERT INTO mail_messages (workspace_id, kind, subject_id, \"to\", reply_to, from_name, status, attempts, next_attempt_at, created_at, updated_at) VALUES (?, 'invoice', ?, 'ap@initech.example', NULL, 'Acme', 'queued', 0, ?, ?, ?) RETURNING id",
      )
      .bind(ws.workspaceId, draft.id, now, now, now)
      .first<{ id: number }>())!;
    const refusing = { ...env, EMAIL: env.EMAIL_REFUSING };
    const outcomes = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const batch = createMessageBatch("mail", [
        { id: `mail-${id}-${attempt}`, timestamp: new Date(), attempts: attempt, body: { id, workspaceId: ws.workspaceId, shard } },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, refusing);
      const result = await getQueueResult(batch, ctx);
      outcomes.push(result.retryMessages.length > 0 ? "retry" : result.explicitAcks.length > 0 ? "ack" : "none");
    }
    expect(outcomes).toEqual(["retry", "retry", "retry", "retry", "ack"]);
    const [message] = (await call("GET", `/invoices/${draft.id}/deliveries`, { token: ws.token })).json.data;
    expect(message).toMatchObject({ status: "failed", attempts: 5 });
    expect(message.last_error).toContain("not allowed");
    expect(message.history.map((attempt: { outcome: string }) => attempt.outcome)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
  });
});

describe("the public page and the PDF", () => {
  it("shows a sent invoice without a login, marks the first view, and serves the same PDF as the API", async () => {
    const ws = await signup("Page Co");
    const invoice = await sentInvoice(ws);
    const token = tokenOf(invoice);
    const page = await open(`/i/${token}`, {
      headers: { "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/131 Safari/537.36" },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = text(page.body);
    for (const expected of ["Page Co", invoice.number, "Website design", "$1,680.00", "Download PDF", `/i/${token}.pdf`]) expect(html).toContain(expected);
    expect(html).not.toContain("Pay $");
    const viewed = (await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data.viewed_at;
    expect(viewed).not.toBeNull();
    await open(`/i/${token}`);
    expect((await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data.viewed_at).toBe(viewed);

    const pdf = await open(`/i/${token}.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const content = await pdfText(pdf.body);
    for (const expected of [invoice.number, "$1,680.00", "$1,430.00", "$250.00", "Website design", "Page Co"]) expect(content).toContain(expected);
    const api = await exports.default.fetch(
      new Request(`http://127.0.0.1:8787/api/v1/invoices/${invoice.id}/pdf`, { headers: { authorization: `Bearer ${ws.token}` } }),
    );
    expect(api.status).toBe(200);
    expect(await pdfText(new Uint8Array(await api.arrayBuffer()))).toContain(invoice.number);
  });

  it("404s a wrong or unknown token, a draft, and another workspace's invoice; says when it is void", async () => {
    const ws = await signup();
    const other = await signup();
    const invoice = await sentInvoice(ws);
    const token = tokenOf(invoice);
    // One character changed (never to itself: a token ending in x would otherwise be its own "wrong" token).
    expect((await open(`/i/${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`)).status).toBe(404);
    expect((await open(`/i/${"0".repeat(43)}`)).status).toBe(404);
    expect((await open("/i/short")).status).toBe(404);
    expectError(await call("GET", `/invoices/${invoice.id}/pdf`, { token: other.token }), 404, "not_found");
    expectError(await call("GET", `/invoices/${invoice.id}/deliveries`, { token: other.token }), 404, "not_found");
    const voided = await call("POST", `/invoices/${invoice.id}/void`, { token: ws.token });
    expect(voided.status, voided.text).toBe(200);
    const page = await open(`/i/${token}`);
    expect(page.status).toBe(200);
    expect(text(page.body)).toContain("This invoice is void");
  });
});

/** A Stripe event for a paid Checkout Session, signed with the SDK's own test-header helper. */
async function stripeEvent(secret: string, session: Record<string, unknown>, timestamp?: number) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    type: "checkout.session.completed",
    data: { object: { object: "checkout.session", payment_status: "paid", ...session } },
  });
  const header = await new Stripe("sk_test_unused").webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, header };
}

const WEBHOOK_SECRET = "whsec_testsigningsecret0123456789";
const postEvent = (ws: Workspace, event: { payload: string; header: string }) =>
  call("POST", `/payments/stripe/${ws.workspaceId}`, { body: event.payload, headers: { "stripe-signature": event.header } });

describe("Stripe", () => {
  it("connects with sealed keys that are never shown, admins only", async () => {
    const ws = await signup();
    const member = await userWithRole(ws, "member");
    const body = { provider: "stripe", secret_key: "sk_test_51ExampleKey000", webhook_secret: WEBHOOK_SECRET };
    expectError(await call("PUT", "/payments/processor", { token: member, body }), 403, "forbidden");
    const bad = expectError(
      await call("PUT", "/payments/processor", { token: ws.token, body: { ...body, secret_key: "pk_test_1", webhook_secret: "nope" } }),
      400,
      "validation_error",
    );
    expect(bad.details.map((detail: { path: string }) => detail.path).sort()).toEqual(["secret_key", "webhook_secret"]);
    expect((await call("GET", "/payments/processor", { token: ws.token })).json.data).toMatchObject({ provider: null, connected: false });
    const put = await call("PUT", "/payments/processor", { token: ws.token, body });
    expect(put.status, put.text).toBe(200);
    expect(put.json.data).toMatchObject({ provider: "stripe", connected: true, webhook_url: `http://127.0.0.1:8787/api/v1/payments/stripe/${ws.workspaceId}` });
    expect(put.text).not.toContain("sk_test_51ExampleKey000");
    const stored = await (await dbOf(ws.workspaceId))
      .prepare("SELECT secret_key, webhook_secret FROM payment_processors WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<Record<string, string>>();
    expect(stored!.secret_key).toMatch(/^v2:/);
    expect(JSON.stringify(stored)).not.toContain("ExampleKey");
  });

  it("pays through a Checkout Session for the balance due, then books Stripe's event once", async () => {
    const ws = await signup("Card Co");
    await call("PUT", "/payments/processor", {
      token: ws.token,
      body: { provider: "stripe", secret_key: "sk_test_51CardCo000", webhook_secret: WEBHOOK_SECRET },
    });
    const invoice = await sentInvoice(ws);
    const token = tokenOf(invoice);
    expect(text((await open(`/i/${token}`)).body)).toContain("Pay $1,680.00");

    // Pay → the SDK asks the stand-in for a session (it checks the request) → 303 to its page.
    // As a browser posts the page's own form: the page sends no Referer, so Origin is null and Sec-Fetch-Site says same-origin.
    const pay = await open(`/i/${token}/checkout`, { method: "POST", headers: { origin: "null", "sec-fetch-site": "same-origin" } });
    expect(pay.status).toBe(303);
    const redirect = new URL(pay.headers.get("location")!);
    expect(Object.fromEntries(redirect.searchParams)).toMatchObject({
      amount: "168000",
      currency: "usd",
      workspace: String(ws.workspaceId),
      invoice: String(invoice.id),
      email: "ap@initech.example",
    });
    expect((await open(`/i/${token}/checkout`, { method: "POST", headers: { origin: "https://evil.example" } })).status).toBe(404);
    expect((await open(`/i/${token}/checkout`, { method: "POST", headers: { origin: "null", "sec-fetch-site": "cross-site" } })).status).toBe(404);

    const session = {
      id: "cs_test_1",
      amount_total: 168000,
      currency: "usd",
      payment_intent: "pi_card_1",
      metadata: { workspace_id: String(ws.workspaceId), invoice_id: String(invoice.id) },
    };
    const paid = await postEvent(ws, await stripeEvent(WEBHOOK_SECRET, session));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toEqual({ received: true, outcome: "recorded" });
    const again = await postEvent(ws, await stripeEvent(WEBHOOK_SECRET, session));
    expect(again.json).toEqual({ received: true, outcome: "duplicate" });
    const payments = (await call("GET", `/payments?invoice_id=${invoice.id}`, { token: ws.token })).json.data;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 168000, currency: "USD", method: "card", processor: "stripe", processor_payment_id: "pi_card_1" });
    expect((await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data).toMatchObject({ status: "paid", amount_due: 0 });
    expect(text((await open(`/i/${token}`)).body)).toContain("Paid in full");
  });

  it("refuses forged and stale signatures (400, nothing written) and ignores foreign or mismatched sessions (200)", async () => {
    const ws = await signup();
    const other = await signup();
    await call("PUT", "/payments/processor", {
      token: ws.token,
      body: { provider: "stripe", secret_key: "sk_test_51Refuse000", webhook_secret: WEBHOOK_SECRET },
    });
    const invoice = await sentInvoice(ws);
    const session = (changes: Record<string, unknown> = {}) => ({
      id: "cs_test_2",
      amount_total: 168000,
      currency: "usd",
      payment_intent: `pi_${crypto.randomUUID().slice(0, 8)}`,
      metadata: { workspace_id: String(ws.workspaceId), invoice_id: String(invoice.id) },
      ...changes,
    });
    const forged = await postEvent(ws, await stripeEvent("whsec_somebodyelsessecret000000", session()));
    expect(expectError(forged, 400, "validation_error").details[0].path).toBe("Stripe-Signature");
    expectError(await postEvent(ws, await stripeEvent(WEBHOOK_SECRET, session(), Math.floor(Date.now() / 1000) - 400)), 400, "validation_error");
    expectError(await call("POST", `/payments/stripe/${ws.workspaceId}`, { body: "{}" }), 400, "validation_error");
    // Signed for the workspace with no processor: cannot be verified.
    expectError(await postEvent(other, await stripeEvent(WEBHOOK_SECRET, session())), 400, "validation_error");
    const ignored = [
      session({ metadata: { workspace_id: String(other.workspaceId), invoice_id: String(invoice.id) } }),
      session({ metadata: { workspace_id: String(ws.workspaceId), invoice_id: "999999999" } }),
      session({ amount_total: 100 }),
      session({ currency: "eur" }),
    ];
    for (const body of ignored) {
      const res = await postEvent(ws, await stripeEvent(WEBHOOK_SECRET, body));
      expect(res.status, res.text).toBe(200);
      expect(res.json.outcome).toMatch(/^ignored/);
    }
    expect((await call("GET", `/payments?invoice_id=${invoice.id}`, { token: ws.token })).json.data).toEqual([]);
    expect((await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data.status).toBe("sent");
  });
});

describe("reminders", () => {
  const at = (day: string) => Date.parse(`${day}T09:00:00Z`);
  async function runCron(now: number) {
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now }), env, ctx);
    await waitOnExecutionContext(ctx);
  }
  const reminders = async (ws: Workspace, id: number) =>
    (await call("GET", `/invoices/${id}/deliveries`, { token: ws.token })).json.data.filter((message: { kind: string }) => message.kind === "reminder").length;

  it("e-mails an unpaid invoice 3, 7 and 14 days after its due date, each once; a setting turns them off", async () => {
    const ws = await signup();
    const quiet = await signup();
    const invoice = await sentInvoice(ws, { issue_date: "2025-12-01", due_date: "2026-01-10" });
    const silent = await sentInvoice(quiet, { issue_date: "2025-12-01", due_date: "2026-01-10" });
    const off = await call("PATCH", "/settings/invoicing", { token: quiet.token, body: { invoice_reminders: false } });
    expect(off.json.data).toEqual({ currency: "USD", invoice_reminders: false });
    const counts = [];
    for (const day of ["2026-01-12", "2026-01-13", "2026-01-13", "2026-01-16", "2026-01-17", "2026-01-24", "2026-01-30"]) {
      await runCron(at(day));
      counts.push(await reminders(ws, invoice.id));
    }
    expect(counts).toEqual([0, 1, 1, 1, 2, 3, 3]);
    expect(await reminders(quiet, silent.id)).toBe(0);
  });
});

describe("currency", () => {
  it("defaults an invoice to its customer's currency, and a customer to the workspace's", async () => {
    const ws = await signup();
    const patched = await call("PATCH", "/settings/invoicing", { token: ws.token, body: { currency: "EUR" } });
    expect(patched.json.data).toEqual({ currency: "EUR", invoice_reminders: true });
    const customer = await call("POST", "/customers", { token: ws.token, body: { name: "Euro GmbH" } });
    expect(customer.json.data.currency).toBe("EUR");
    const gbp = await draftInvoice(ws, { currency: "GBP" });
    expect(gbp.currency).toBe("GBP");
    const explicit = await draftInvoice(ws, { currency: "GBP" }, { currency: "USD" });
    expect(explicit.currency).toBe("USD");
    expectError(await call("PATCH", "/settings/invoicing", { token: ws.token, body: { currency: "euro" } }), 400, "validation_error");
    const viewer = await userWithRole(ws, "viewer");
    expectError(await call("PATCH", "/settings/invoicing", { token: viewer, body: { invoice_reminders: false } }), 403, "forbidden");
  });
});

describe("reminding by hand, and the invoice's page in the web app", () => {
  it("queues a reminder for a sent invoice (409 for a draft), from the API and from the page's button", async () => {
    const { ws, cookie } = await owner();
    const draft = await draftInvoice(ws);
    const refused = expectError(await call("POST", `/invoices/${draft.id}/remind`, { token: ws.token }), 409, "invalid_transition");
    expect(refused.details[0]).toMatchObject({ path: "status", from: "draft" });
    const shownDraft = await page("GET", `/app/invoices/${draft.id}`, { cookie });
    expect(shownDraft.text).not.toContain("Send reminder");
    expect(shownDraft.text).not.toContain('aria-label="Delivery"');

    const sent = await call("POST", `/invoices/${draft.id}/send`, { token: ws.token });
    expect(sent.status).toBe(200);
    const shown = await page("GET", `/app/invoices/${draft.id}`, { cookie });
    expect(shown.text).toContain('aria-label="Delivery"');
    expect(shown.text).toContain(sent.json.data.public_url);
    expect(shown.text).toContain('data-copy="public-link"');
    expect(shown.text).toContain(`${sent.json.data.public_url}.pdf`);
    const reminded = await submit(cookie, `/app/invoices/${draft.id}`, `/app/invoices/${draft.id}/remind`, {});
    expect(reminded.status, reminded.text.slice(0, 300)).toBe(303);
    const kinds = (await call("GET", `/invoices/${draft.id}/deliveries`, { token: ws.token })).json.data.map((message: { kind: string }) => message.kind);
    expect(kinds).toEqual(["reminder", "invoice"]);
    const viewer = await signInAs(ws, "viewer");
    expect((await page("GET", `/app/invoices/${draft.id}`, { cookie: viewer })).text).not.toContain("Send reminder");
  });
});

describe("the e-mail itself", () => {
  it("is MIME with a text and an HTML part, the PDF attached, the workspace as sender name and the sender as Reply-To", async () => {
    const ws = await signup("Mime & Co");
    const draft = await draftInvoice(ws);
    const { mimeMessage } = await import("../src/platform/mail/mime");
    const { invoiceMailers } = await import("../src/packages/account/invoice-mail");
    const { tenantOn } = await import("../src/platform/tenancy");
    const { platform } = await import("../src/index");
    const { name: shard } = await shardOf(ws.workspaceId);
    const tenant = tenantOn(env, platform.registry, { id: ws.workspaceId, shard });
    // The renderer the mail queue's consumer runs, and the MIME it sends through the binding.
    const content = await invoiceMailers.invoice({ env, tenant, subjectId: draft.id, to: "ap@initech.example", fromName: "Mime & Co" });
    if ("skip" in content) throw new Error(content.skip);
    const raw = mimeMessage(
      { from: "billing@business-platform.example", fromName: "Mime & Co", to: "ap@initech.example", replyTo: "owner@mime.example" },
      content,
    );
    const { default: PostalMime } = await import("postal-mime");
    const parsed = await PostalMime.parse(raw);
    expect(parsed.from).toMatchObject({ name: "Mime & Co", address: "billing@business-platform.example" });
    expect(parsed.to?.[0]?.address).toBe("ap@initech.example");
    expect(parsed.replyTo?.[0]?.address).toBe("owner@mime.example");
    expect(parsed.subject).toBe(`Invoice ${draft.number} from Mime & Co`);
    expect(parsed.text).toContain("$1,680.00");
    expect(parsed.html).toContain("$1,680.00");
    expect(parsed.messageId).toBeTruthy();
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]).toMatchObject({ filename: `${draft.number}.pdf`, mimeType: "application/pdf" });
    const pdf = new Uint8Array(parsed.attachments[0]!.content as ArrayBuffer);
    expect(await pdfText(pdf)).toContain(draft.number);
  });
});

describe("the e-mail on the wire", () => {
  it("keeps every line within 78 characters (base64 parts), so no mail server refuses it", async () => {
    const { mimeMessage } = await import("../src/platform/mail/mime");
    const raw = mimeMessage(
      { from: "billing@business-platform.example", fromName: "Zoë's Café", to: "ap@initech.example", replyTo: null },
      {
        subject: "Invoice € 1",
        text: "Amount due: €1,234.00 · thank you",
        html: `<p>${"x".repeat(2000)} €</p>`,
        attachments: [{ filename: "a.pdf", contentType: "application/pdf", data: new Uint8Array(10_000) }],
      },
    );
    const longest = Math.max(...raw.split(/\r?\n/).map((line) => line.length));
    expect(longest).toBeLessThanOrEqual(78);
    const { default: PostalMime } = await import("postal-mime");
    const parsed = await PostalMime.parse(raw);
    expect(parsed.text).toContain("€1,234.00 · thank you");
    expect(parsed.from?.name).toBe("Zoë's Café");
    expect(new Uint8Array(parsed.attachments[0]!.content as ArrayBuffer).length).toBe(10_000);
  });
});

describe("the PDF's characters", () => {
  it("prints what its fonts cannot draw as ?, and a currency symbol they lack as the code", async () => {
    const ws = await signup("Zoë's Café");
    const draft = await draftInvoice(
      ws,
      { currency: "INR" },
      {
        items: [
          { description: "東京 consulting for Zoë", quantity: 2, unit_amount: 150000 },
          { description: "€ fees", quantity: 1, unit_amount: 100 },
        ],
      },
    );
    const response = await exports.default.fetch(
      new Request(`http://127.0.0.1:8787/api/v1/invoices/${draft.id}/pdf`, { headers: { authorization: `Bearer ${ws.token}` } }),
    );
    expect(response.status).toBe(200);
    const content = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(content).toContain("?? consulting for Zoë");
    expect(content).toContain("3,001.00 INR");
    expect(content).toContain("Zoë's Café");
  });
});
