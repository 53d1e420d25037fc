import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import worker from "../src/index";
import { BASE, call, countingDatabases, create, dbOf, expectError, freshIp, recordedEvents, setPlan, signup, userWithRole, type Workspace } from "./helpers";

const toggle = (ws: Workspace, name: string, enabled: boolean) => call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled } });

/** A page at the site root, as a customer's browser asks for it. */
async function open(path: string, init: RequestInit = {}) {
  const response = await exports.default.fetch(new Request(`http://127.0.0.1:8787${path}`, { redirect: "manual", ...init }));
  return { status: response.status, headers: response.headers, text: await response.text() };
}
const tokenOf = (quote: { public_url: string }) => new URL(quote.public_url).pathname.slice(3);

async function shop(name = "Catalogue Co") {
  const ws = await signup(name);
  await setPlan(ws, "enterprise");
  const acme = await create(ws, "customers", { name: "Acme", email: "buyer@acme.example", currency: "USD" });
  const setup = await create(ws, "products", { name: "Setup fee", sku: "SETUP", kind: "service", unit_amount: 50_000, currency: "USD", tax_rate: 20 });
  const licence = await create(ws, "products", { name: "Licence", sku: "LIC", kind: "product", unit_amount: 1_200, currency: "USD", unit: "seat" });
  return { ws, acme, setup, licence };
}

async function countRows(ws: Workspace, table: string): Promise<number> {
  const row = await (await dbOf(ws.workspaceId))
    .prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`)
    .bind(ws.workspaceId)
    .first<{ n: number }>();
  return row!.n;
}

describe("products", () => {
  it("keep a catalogue with unique SKUs (409), several without one, and filters", async () => {
    const { ws, setup } = await shop();
    expect(setup).toMatchObject({
      name: "Setup fee",
      sku: "SETUP",
      kind: "service",
      unit_amount: 50_000,
      currency: "USD",
      tax_rate: 20,
      unit: null,
      active: true,
    });
    const duplicate = expectError(await call("POST", "/products", { token: ws.token, body: { name: "Again", sku: "SETUP", unit_amount: 1 } }), 409, "conflict");
    expect(duplicate.details[0].path).toBe("sku");
    await create(ws, "products", { name: "No SKU 1", unit_amount: 100 });
    const second = await create(ws, "products", { name: "No SKU 2", unit_amount: 100, active: false });
    expect(second.currency).toBe("USD");
    // Another workspace may use the same SKU.
    const other = await signup("Other Catalogue");
    expect((await call("POST", "/products", { token: other.token, body: { name: "Setup", sku: "SETUP", unit_amount: 1 } })).status).toBe(201);
    const inactive = await call("GET", "/products?active=false", { token: ws.token });
    expect(inactive.json.data.map((p: { name: string }) => p.name)).toEqual(["No SKU 2"]);
    const goods = await call("GET", "/products?kind=product", { token: ws.token });
    expect(goods.json.data.map((p: { name: string }) => p.name)).toEqual(["Licence"]);
    expectError(await call("POST", "/products", { token: ws.token, body: { name: "Free", unit_amount: -1 } }), 400, "validation_error");
  });

  it("fill invoice lines named by product_id unless the line gives them, and keep the product on the line", async () => {
    const { ws, acme, setup, licence } = await shop();
    const res = await call("POST", "/invoices", {
      token: ws.token,
      body: {
        customer_id: acme.id,
        items: [
          { product_id: setup.id, quantity: 3 },
          { product_id: licence.id, quantity: 10, unit_amount: 1_000, description: "Licences (discounted)" },
          { description: "Travel", quantity: 1, unit_amount: 5_000 },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data.items).toEqual([
      { product_id: setup.id, description: "Setup fee", quantity: 3, unit_amount: 50_000, tax_rate: 20, amount: 150_000, tax_amount: 30_000 },
      { product_id: licence.id, description: "Licences (discounted)", quantity: 10, unit_amount: 1_000, tax_rate: 0, amount: 10_000, tax_amount: 0 },
      { description: "Travel", quantity: 1, unit_amount: 5_000, tax_rate: 0, amount: 5_000, tax_amount: 0 },
    ]);
    expect(res.json.data).toMatchObject({ subtotal: 165_000, tax_total: 30_000, total: 195_000, currency: "USD" });
    // A line without a product needs its description and price.
    const bare = expectError(
      await call("POST", "/invoices", { token: ws.token, body: { customer_id: acme.id, items: [{ quantity: 1 }] } }),
      400,
      "validation_error",
    );
    expect(bare.details.map((d: { path: string }) => d.path).sort()).toEqual(["items.0.description", "items.0.unit_amount"]);
  });

  it("refuse a line naming an inactive product, another workspace's, or one priced in another currency: 400 on that line, nothing written", async () => {
    const { ws, acme, setup } = await shop();
    const retired = await create(ws, "products", { name: "Old plan", unit_amount: 900, active: false });
    const euro = await create(ws, "products", { name: "EU support", unit_amount: 9_000, currency: "EUR" });
    const other = await shop("Someone Else");
    const before = await countRows(ws, "invoices");
    const post = (items: unknown[], extra: Record<string, unknown> = {}) =>
      call("POST", "/invoices", { token: ws.token, body: { customer_id: acme.id, items, ...extra } });

    const inactive = expectError(
      await post([
        { product_id: setup.id, quantity: 1 },
        { product_id: retired.id, quantity: 1 },
      ]),
      400,
      "validation_error",
    );
    expect(inactive.details).toEqual([expect.objectContaining({ path: "items.1.product_id", message: expect.stringContaining("inactive") })]);
    const foreign = expectError(await post([{ product_id: other.setup.id, quantity: 1 }]), 400, "validation_error");
    expect(foreign.details).toEqual([expect.objectContaining({ path: "items.0.product_id", message: expect.stringContaining("no product") })]);
    const currency = expectError(await post([{ product_id: euro.id, quantity: 1 }], { currency: "USD" }), 400, "validation_error");
    expect(currency.details).toEqual([expect.objectContaining({ path: "items.0.unit_amount" })]);
    expectError(
      await post([
        { product_id: euro.id, quantity: 1 },
        { product_id: setup.id, quantity: 1 },
      ]),
      400,
      "validation_error",
    );
    expect(await countRows(ws, "invoices")).toBe(before);
    // Priced by the line itself, any product goes; alone, a EUR product makes a EUR invoice.
    expect((await post([{ product_id: euro.id, quantity: 1, unit_amount: 10_000 }], { currency: "USD" })).status).toBe(201);
    const eur = await post([{ product_id: euro.id, quantity: 2 }]);
    expect(eur.json.data).toMatchObject({ currency: "EUR", total: 18_000 });
  });

  it("while disabled: its routes and a line naming a product answer 403 package_disabled; plain lines still work", async () => {
    const { ws, acme, setup } = await shop();
    expect((await toggle(ws, "products", false)).status).toBe(200);
    expectError(await call("GET", "/products", { token: ws.token }), 403, "package_disabled");
    const line = expectError(
      await call("POST", "/invoices", { token: ws.token, body: { customer_id: acme.id, items: [{ product_id: setup.id, quantity: 1 }] } }),
      403,
      "package_disabled",
    );
    expect(line.details[0].package).toBe("products");
    expect(
      (await call("POST", "/invoices", { token: ws.token, body: { customer_id: acme.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }] } })).status,
    ).toBe(201);
    // The package graph: products needs account.
    expectError(await toggle(ws, "account", false), 409, "package_required");
    expect((await toggle(ws, "products", true)).status).toBe(200);
    expect((await call("GET", `/products/${setup.id}`, { token: ws.token })).json.data.name).toBe("Setup fee");
  });

  it("read what 20 product lines need in one round trip, then write in one batch", async () => {
    const { ws, acme } = await shop();
    await call("GET", "/me", { token: ws.token });
    const catalogue = [];
    for (let n = 0; n < 20; n++) catalogue.push(await create(ws, "products", { name: `Item ${n}`, unit_amount: 100 + n }));
    const counting = countingDatabases();
    const ctx = createExecutionContext();
    const body = { customer_id: acme.id, items: catalogue.map((product) => ({ product_id: product.id, quantity: 2 })) };
    const request = new Request(`${BASE}/invoices`, {
      method: "POST",
      headers: { authorization: `Bearer ${ws.token}`, "cf-connecting-ip": freshIp(), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const response = await worker.fetch(request, { ...env, ...counting.bindings } as typeof env, ctx);
    const calls = counting.calls();
    const created = (await response.json()) as { data: { items: unknown[]; subtotal: number } };
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(201);
    expect(created.data.items).toHaveLength(20);
    expect(created.data.subtotal).toBe(catalogue.reduce((sum, product) => sum + 2 * product.unit_amount, 0));
    expect(calls).toBe(2);
  });
});

describe("quotes", () => {
  async function draftQuote(ws: Workspace, customerId: number, productId: number, extra: Record<string, unknown> = {}) {
    const res = await call("POST", "/quotes", {
      token: ws.token,
      body: { customer_id: customerId, valid_until: "2099-12-31", items: [{ product_id: productId, quantity: 3 }], notes: "Valid for a while.", ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return res.json.data;
  }

  it("are numbered per workspace, sent through the mail queue with a public page, accepted there once, and fire quote.accepted", async () => {
    const { ws, acme, setup } = await shop("Quote Co");
    const first = await draftQuote(ws, acme.id, setup.id);
    const second = await draftQuote(ws, acme.id, setup.id);
    expect([first.number, second.number]).toEqual(["QUO-000001", "QUO-000002"]);
    expect(first).toMatchObject({ status: "draft", total: 180_000, public_url: null, invoice_id: null });
    expect((await open(`/q/${"a".repeat(43)}`)).status).toBe(404);

    const sent = await call("POST", `/quotes/${first.id}/send`, { token: ws.token });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json.data).toMatchObject({ status: "sent", sent_to: "buyer@acme.example" });
    expect(sent.json.data.public_url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/q\/[0-9A-Za-z]{43}$/);
    // The mail queue's real consumer renders and sends it.
    const db = await dbOf(ws.workspaceId);
    await vi.waitUntil(
      async () =>
        (
          await db
            .prepare("SELECT status FROM mail_messages WHERE workspace_id = ? AND kind = 'quote' AND subject_id = ?")
            .bind(ws.workspaceId, first.id)
            .first<{ status: string }>()
        )?.status === "sent",
      { timeout: 10_000, interval: 250 },
    );

    const token = tokenOf(sent.json.data);
    const page = await open(`/q/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    for (const expected of ["Quote Co", "QUO-000001", "Setup fee", "$1,800.00", "Accept quote", "Decline", `/q/${token}.pdf`])
      expect(page.text).toContain(expected);
    const pdf = await open(`/q/${token}.pdf`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.text.startsWith("%PDF-")).toBe(true);

    // A form on another site cannot answer for the customer (by its Origin, or the browser's Sec-Fetch-Site).
    expect((await open(`/q/${token}/accept`, { method: "POST", headers: { origin: "https://evil.example" } })).status).toBe(404);
    expect((await open(`/q/${token}/accept`, { method: "POST", headers: { origin: "null", "sec-fetch-site": "cross-site" } })).status).toBe(404);
    expect((await call("GET", `/quotes/${first.id}`, { token: ws.token })).json.data.status).toBe("sent");
    // The page sends no Referer, so a browser posts its own form with `Origin: null` and Sec-Fetch-Site same-origin.
    const accepted = await open(`/q/${token}/accept`, { method: "POST", headers: { origin: "null", "sec-fetch-site": "same-origin" } });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("location")).toBe(`/q/${token}`);
    const after = (await call("GET", `/quotes/${first.id}`, { token: ws.token })).json.data;
    expect(after.status).toBe("accepted");
    expect(after.decided_at).not.toBeNull();
    expect(after.viewed_at).not.toBeNull();
    // Answering again changes nothing; the page says it was accepted and offers no buttons.
    await open(`/q/${token}/decline`, { method: "POST", headers: { origin: "http://127.0.0.1:8787" } });
    const again = await open(`/q/${token}`);
    expect(again.text).toContain("You accepted this quote");
    expect(again.text).not.toContain("Accept quote");
    expect((await recordedEvents(ws.workspaceId, "quote.accepted")).map((event) => event.data.id)).toEqual([first.id]);
    expect(await recordedEvents(ws.workspaceId, "quote.declined")).toEqual([]);
  });

  it("turn into a draft invoice with the same lines once, only when accepted (409 otherwise)", async () => {
    const { ws, acme, setup } = await shop();
    const quote = await draftQuote(ws, acme.id, setup.id);
    const early = expectError(await call("POST", `/quotes/${quote.id}/invoice`, { token: ws.token }), 409, "invalid_transition");
    expect(early.details[0]).toMatchObject({ from: "draft", allowed_from: ["accepted"] });
    const invoicesBefore = await countRows(ws, "invoices");
    expect((await call("POST", `/quotes/${quote.id}/accept`, { token: ws.token })).json.data.status).toBe("accepted");
    const invoiced = await call("POST", `/quotes/${quote.id}/invoice`, { token: ws.token });
    expect(invoiced.status, invoiced.text).toBe(201);
    expect(invoiced.json.data.status).toBe("invoiced");
    const invoice = (await call("GET", `/invoices/${invoiced.json.data.invoice_id}`, { token: ws.token })).json.data;
    expect(invoice).toMatchObject({
      status: "draft",
      customer_id: acme.id,
      currency: "USD",
      items: quote.items,
      subtotal: quote.subtotal,
      total: quote.total,
      notes: quote.notes,
    });
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    expectError(await call("POST", `/quotes/${quote.id}/invoice`, { token: ws.token }), 409, "invalid_transition");
    expect(await countRows(ws, "invoices")).toBe(invoicesBefore + 1);
    expect((await recordedEvents(ws.workspaceId, "invoice.created")).map((event) => event.data.id)).toContain(invoice.id);
    // The next ordinary invoice continues the sequence without a gap.
    const next = await create(ws, "invoices", { customer_id: acme.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }] });
    expect(Number(next.number.slice(4))).toBe(Number(invoice.number.slice(4)) + 1);

    const declined = await draftQuote(ws, acme.id, setup.id);
    expect((await call("POST", `/quotes/${declined.id}/decline`, { token: ws.token })).json.data.status).toBe("declined");
    expectError(await call("POST", `/quotes/${declined.id}/accept`, { token: ws.token }), 409, "invalid_transition");
    expectError(await call("POST", `/quotes/${declined.id}/invoice`, { token: ws.token }), 409, "invalid_transition");
    expect((await recordedEvents(ws.workspaceId, "quote.declined")).map((event) => event.data.id)).toEqual([declined.id]);
  });

  it("expire by the cron once past valid_until; the page says so", async () => {
    const { ws, acme, setup } = await shop();
    const quote = await draftQuote(ws, acme.id, setup.id, { issue_date: "2026-01-01", valid_until: "2026-01-31" });
    const sent = (await call("POST", `/quotes/${quote.id}/send`, { token: ws.token })).json.data;
    const run = async (day: string) => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: Date.parse(`${day}T09:00:00Z`) }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    await run("2026-01-31");
    expect((await call("GET", `/quotes/${quote.id}`, { token: ws.token })).json.data.status).toBe("sent");
    await run("2026-02-01");
    expect((await call("GET", `/quotes/${quote.id}`, { token: ws.token })).json.data.status).toBe("expired");
    const page = await open(`/q/${tokenOf(sent)}`);
    expect(page.text).toContain("This quote has expired");
    expect(page.text).not.toContain("Accept quote");
    expectError(await call("POST", `/quotes/${quote.id}/accept`, { token: ws.token }), 409, "invalid_transition");
  });

  it("are another workspace's 404, need write access to invoices to invoice, and viewers cannot write", async () => {
    const { ws, acme, setup } = await shop();
    const quote = await draftQuote(ws, acme.id, setup.id);
    const stranger = await signup("Stranger");
    expectError(await call("GET", `/quotes/${quote.id}`, { token: stranger.token }), 404, "not_found");
    expectError(await call("POST", `/quotes/${quote.id}/accept`, { token: stranger.token }), 404, "not_found");
    expectError(await call("POST", `/quotes/${quote.id}/invoice`, { token: stranger.token }), 404, "not_found");
    expectError(await call("GET", `/quotes/${quote.id}/pdf`, { token: stranger.token }), 404, "not_found");
    const foreignCustomer = expectError(
      await call("POST", "/quotes", { token: stranger.token, body: { customer_id: acme.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }] } }),
      400,
      "validation_error",
    );
    expect(foreignCustomer.details[0].path).toBe("customer_id");
    const viewer = await userWithRole(ws, "viewer");
    expect((await call("GET", `/quotes/${quote.id}`, { token: viewer })).status).toBe(200);
    expectError(await call("POST", `/quotes/${quote.id}/accept`, { token: viewer }), 403, "forbidden");
    await call("POST", `/quotes/${quote.id}/accept`, { token: ws.token });
    const quotesOnly = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "q", scopes: ["quotes:write"] } })).json.data.token;
    expectError(await call("POST", `/quotes/${quote.id}/invoice`, { token: quotesOnly }), 403, "forbidden");
    expect((await call("GET", `/quotes/${quote.id}`, { token: ws.token })).json.data.status).toBe("accepted");
  });

  it("follow the package graph: quotes need sales and account; a line naming a product needs products on", async () => {
    const { ws, acme, setup } = await shop();
    expectError(await toggle(ws, "sales", false), 409, "package_required");
    expect((await toggle(ws, "products", false)).status).toBe(200);
    expectError(
      await call("POST", "/quotes", { token: ws.token, body: { customer_id: acme.id, items: [{ product_id: setup.id, quantity: 1 }] } }),
      403,
      "package_disabled",
    );
    expect((await toggle(ws, "quotes", false)).status).toBe(200);
    expectError(await call("GET", "/quotes", { token: ws.token }), 403, "package_disabled");
    expect((await toggle(ws, "helpdesk", false)).status).toBe(200); // it needs sales too
    expect((await toggle(ws, "sales", false)).status).toBe(200);
    expectError(await toggle(ws, "quotes", true), 409, "dependency_disabled");
    const list = (await call("GET", "/packages", { token: ws.token })).json.data as { name: string; depends_on: string[]; dependents: string[] }[];
    expect(list.find((p) => p.name === "quotes")?.depends_on.sort()).toEqual(["account", "sales"]);
    expect(list.find((p) => p.name === "products")?.depends_on).toEqual(["account"]);
    expect(list.find((p) => p.name === "account")?.dependents).toEqual(expect.arrayContaining(["products", "quotes"]));
  });
});

describe("widgets and the assistant", () => {
  it("rank products by what was invoiced, and answer in words; the assistant drafts a quote by product", async () => {
    const { ws, acme, setup, licence } = await shop("Widget Co");
    const invoice = async (items: unknown[], status: "send" | "draft") => {
      const created = await create(ws, "invoices", { customer_id: acme.id, items });
      if (status === "send") expect((await call("POST", `/invoices/${created.id}/send`, { token: ws.token })).status).toBe(200);
    };
    await invoice([{ product_id: setup.id, quantity: 2 }], "send");
    await invoice(
      [
        { product_id: licence.id, quantity: 50 },
        { product_id: setup.id, quantity: 1 },
      ],
      "send",
    );
    await invoice([{ product_id: licence.id, quantity: 1_000 }], "draft"); // drafts are not sales
    const widget = await call("GET", "/dashboard/widgets/products.top_by_revenue?period=30d", { token: ws.token });
    expect(widget.status, widget.text).toBe(200);
    expect(widget.json.data.data.items).toEqual([
      { id: setup.id, label: "Setup fee", value: { USD: 150_000 } },
      { id: licence.id, label: "Licence", value: { USD: 60_000 } },
    ]);
    const answer = await call("POST", "/assistant/messages", { token: ws.token, body: { message: "top products by revenue this year" } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data.reply.text).toContain("Setup fee");
    expect(answer.json.data.reply.text).toContain("1,500.00");

    const proposed = await call("POST", "/assistant/messages", { token: ws.token, body: { message: "create a quote for Acme for 3 setup fees" } });
    const reply = proposed.json.data.reply;
    expect(reply.action, reply.text).toMatchObject({ kind: "create_quote" });
    const request = (await call("GET", `/assistant/actions/${reply.action.id}`, { token: ws.token })).json.data.request;
    expect(request).toEqual({ method: "POST", path: "/quotes", body: { customer_id: acme.id, items: [{ product_id: setup.id, quantity: 3 }] } });
    const confirmed = await call("POST", `/assistant/actions/${reply.action.id}/confirm`, { token: ws.token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.result).toMatchObject({ status: "draft", total: 180_000, customer_id: acme.id });
    const open = await call("GET", "/dashboard/widgets/quotes.open_value", { token: ws.token });
    expect(open.json.data.data.value).toEqual({});
  });
});
