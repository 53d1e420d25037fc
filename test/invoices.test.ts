import { describe, expect, it } from "vitest";
import { computeInvoice } from "../src/packages/account/money";
import { call, create, dbOf, expectError, recordedEvents, setPlan, signup, type Workspace } from "./helpers";

async function customer(ws: Workspace, extra: Record<string, unknown> = {}) {
  return create(ws, "customers", { name: "Initech", email: "ap@initech.example", ...extra });
}

async function draft(
  ws: Workspace,
  customerId: number,
  items: Record<string, unknown>[] = [{ description: "Consulting", quantity: 2, unit_amount: 5000, tax_rate: 10 }],
) {
  return create(ws, "invoices", { customer_id: customerId, items, due_date: "2099-01-31" });
}

async function sent(ws: Workspace, customerId: number, items?: Parameters<typeof draft>[2]) {
  const invoice = await draft(ws, customerId, items);
  const res = await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

const pay = (ws: Workspace, invoiceId: number, amount: number, extra: Record<string, unknown> = {}) =>
  call("POST", "/payments", { token: ws.token, body: { invoice_id: invoiceId, amount, method: "card", ...extra } });

describe("invoice money", () => {
  it("rounds each line half away from zero and sums the rounded lines", () => {
    const result = computeInvoice([
      { description: "a", quantity: 3, unit_amount: 333, tax_rate: 7.5 }, // 999, tax 74.925 → 75
      { description: "b", quantity: 0.5, unit_amount: 101, tax_rate: 10 }, // 50.5 → 51, tax 5.1 → 5
      { description: "c", quantity: 1, unit_amount: 1, tax_rate: 50 }, // 1, tax 0.5 → 1
      { description: "d", quantity: 1.2345, unit_amount: 10_000_000_000 }, // exact with BigInt
    ]);
    expect(result.lines.map((l) => [l.amount, l.tax_amount])).toEqual([
      [999, 75],
      [51, 5],
      [1, 1],
      [12_345_000_000, 0],
    ]);
    expect(result.subtotal).toBe(999 + 51 + 1 + 12_345_000_000);
    expect(result.taxTotal).toBe(81);
    expect(result.total).toBe(result.subtotal + 81);
  });

  it("computes subtotal, tax_total, total, amount_due and numbers invoices per workspace", async () => {
    const ws = await signup();
    const c = await customer(ws);
    const invoice = await draft(ws, c.id, [
      { description: "Design", quantity: 3, unit_amount: 333, tax_rate: 7.5 },
      { description: "Hosting", quantity: 1, unit_amount: 1000 },
    ]);
    expect(invoice).toMatchObject({
      number: "INV-000001",
      status: "draft",
      currency: "USD",
      issue_date: new Date().toISOString().slice(0, 10),
      subtotal: 1999,
      tax_total: 75,
      total: 2074,
      amount_paid: 0,
      amount_due: 2074,
      sent_at: null,
    });
    expect(invoice.items[0]).toEqual({ description: "Design", quantity: 3, unit_amount: 333, tax_rate: 7.5, amount: 999, tax_amount: 75 });
    expect((await draft(ws, c.id)).number).toBe("INV-000002");
    const other = await signup();
    expect((await draft(other, (await customer(other)).id)).number).toBe("INV-000001");
  });

  it("validates invoices field by field", async () => {
    const ws = await signup();
    const c = await customer(ws);
    const cases: [Record<string, unknown>, string][] = [
      [{ items: [{ description: "x", quantity: 1, unit_amount: 1 }] }, "customer_id"],
      [{ customer_id: c.id }, "items"],
      [{ customer_id: c.id, items: [] }, "items"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 0, unit_amount: 1 }] }, "items.0.quantity"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: -1 }] }, "items.0.unit_amount"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1.5 }] }, "items.0.unit_amount"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1, tax_rate: 101 }] }, "items.0.tax_rate"],
      [{ customer_id: c.id, items: [{ quantity: 1, unit_amount: 1 }] }, "items.0.description"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }], currency: "dollars" }, "currency"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }], issue_date: "2026-02-30" }, "issue_date"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }], issue_date: "2026-05-02", due_date: "2026-05-01" }, "due_date"],
      [{ customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }], total: 5 }, "total"],
      [{ customer_id: 999999, items: [{ description: "x", quantity: 1, unit_amount: 1 }] }, "customer_id"],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await call("POST", "/invoices", { token: ws.token, body }), 400, "validation_error");
      expect(
        error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const count = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM invoices WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
  });
});

describe("invoice states", () => {
  it("sends a draft to the billing e-mail, locks its items, and re-sends", async () => {
    const ws = await signup();
    const c = await customer(ws, { billing: { email: "billing@initech.example", country: "us" } });
    const invoice = await draft(ws, c.id);
    const first = await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token });
    expect(first.json.data).toMatchObject({ status: "sent", sent_to: "billing@initech.example" });
    expect(first.json.data.sent_at).not.toBeNull();

    const locked = await call("PUT", `/invoices/${invoice.id}`, { token: ws.token, body: { items: [{ description: "x", quantity: 1, unit_amount: 1 }] } });
    expect(expectError(locked, 409, "conflict").details).toEqual([{ path: "items", message: "is locked once the invoice is sent" }]);
    const notes = await call("PUT", `/invoices/${invoice.id}`, { token: ws.token, body: { notes: "Thanks!" } });
    expect(notes.json.data.notes).toBe("Thanks!");

    const again = await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token, body: { to: "ceo@initech.example" } });
    expect(again.json.data).toMatchObject({ status: "sent", sent_to: "ceo@initech.example" });
    expect(Date.parse(again.json.data.sent_at)).toBeGreaterThanOrEqual(Date.parse(first.json.data.sent_at));
  });

  it("refuses to send without any e-mail, and paid or void invoices", async () => {
    const ws = await signup();
    const noEmail = await create(ws, "customers", { name: "Anon" });
    const invoice = await draft(ws, noEmail.id);
    expect(expectError(await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token }), 400, "validation_error").details[0].path).toBe("to");

    const c = await customer(ws);
    const voided = await draft(ws, c.id);
    expect((await call("POST", `/invoices/${voided.id}/void`, { token: ws.token })).json.data.status).toBe("void");
    const error = expectError(await call("POST", `/invoices/${voided.id}/send`, { token: ws.token }), 409, "invalid_transition");
    expect(error.details).toEqual([
      {
        path: "status",
        message: "Cannot send an invoice that is void",
        from: "void",
        to: "sent",
        allowed: [],
        allowed_from: ["draft", "sent", "partially_paid"],
      },
    ]);

    const paid = await sent(ws, c.id);
    expect((await pay(ws, paid.id, paid.total)).status).toBe(201);
    expectError(await call("POST", `/invoices/${paid.id}/send`, { token: ws.token }), 409, "invalid_transition");
  });

  it("voids drafts and unpaid sent invoices only, and deletes only drafts", async () => {
    const ws = await signup();
    const c = await customer(ws);
    const d = await draft(ws, c.id);
    const s = await sent(ws, c.id);
    const partial = await sent(ws, c.id);
    await pay(ws, partial.id, 100);
    expect((await call("POST", `/invoices/${s.id}/void`, { token: ws.token })).json.data.status).toBe("void");
    expectError(await call("POST", `/invoices/${partial.id}/void`, { token: ws.token }), 409, "invalid_transition");
    expectError(await call("POST", `/invoices/${s.id}/void`, { token: ws.token }), 409, "invalid_transition");
    expectError(await call("DELETE", `/invoices/${partial.id}`, { token: ws.token }), 409, "conflict");
    expect((await call("DELETE", `/invoices/${d.id}`, { token: ws.token })).json.data).toEqual({ id: d.id, deleted: true });
    expectError(await call("POST", `/invoices/${d.id}/void`, { token: ws.token }), 404, "not_found");
  });
});

describe("payments", () => {
  it("moves sent → partially_paid → paid, keeps amounts consistent and reverses payments", async () => {
    const ws = await signup();
    const c = await customer(ws);
    const invoice = await sent(ws, c.id); // total 11000
    const first = await pay(ws, invoice.id, 4000, { processor: "stripe", processor_payment_id: "pi_1" });
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({ invoice_id: invoice.id, amount: 4000, currency: "USD", method: "card", processor: "stripe" });
    const after1 = (await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data;
    expect(after1).toMatchObject({ status: "partially_paid", amount_paid: 4000, amount_due: 7000 });

    expectError(await pay(ws, invoice.id, 7001), 400, "validation_error");
    expectError(await pay(ws, invoice.id, 0), 400, "validation_error");
    expectError(await pay(ws, invoice.id, 100, { processor: "stripe", processor_payment_id: "pi_1" }), 409, "conflict");

    const second = await pay(ws, invoice.id, 7000);
    expect((await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data).toMatchObject({ status: "paid", amount_paid: 11000, amount_due: 0 });
    expectError(await pay(ws, invoice.id, 1), 409, "invalid_transition");

    expect((await call("DELETE", `/payments/${second.json.data.id}`, { token: ws.token })).json.data).toEqual({ id: second.json.data.id, deleted: true });
    expect((await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data).toMatchObject({
      status: "partially_paid",
      amount_paid: 4000,
      amount_due: 7000,
    });
    await call("DELETE", `/payments/${first.json.data.id}`, { token: ws.token });
    expect((await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data).toMatchObject({ status: "sent", amount_paid: 0, amount_due: 11000 });
    expectError(await call("DELETE", `/payments/${first.json.data.id}`, { token: ws.token }), 404, "not_found");
    const put = await call("PUT", `/payments/${first.json.data.id}`, { token: ws.token, body: { amount: 1 } });
    expectError(put, 405, "method_not_allowed");
    expect(put.headers.get("allow")).toBe("DELETE, GET, HEAD, OPTIONS");
  });

  it("refuses payments on drafts, void invoices and other workspaces' invoices", async () => {
    const ws = await signup();
    const c = await customer(ws);
    const d = await draft(ws, c.id);
    expectError(await pay(ws, d.id, 100), 409, "invalid_transition");
    await call("POST", `/invoices/${d.id}/void`, { token: ws.token });
    expectError(await pay(ws, d.id, 100), 409, "invalid_transition");
    const other = await signup();
    const theirs = await sent(other, (await customer(other)).id);
    expect(expectError(await pay(ws, theirs.id, 100), 400, "validation_error").details[0].path).toBe("invoice_id");
    expect(
      expectError(
        await call("POST", "/payments", { token: ws.token, body: { invoice_id: d.id, amount: 1, processor_payment_id: "x" } }),
        400,
        "validation_error",
      ).details[0].path,
    ).toBe("processor");
  });

  it("never over-pays under concurrent payments", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const c = await customer(ws);
    const invoice = await sent(ws, c.id, [{ description: "x", quantity: 1, unit_amount: 1000, tax_rate: 0 }]);
    const results = await Promise.all(Array.from({ length: 25 }, () => pay(ws, invoice.id, 100)));
    const accepted = results.filter((r) => r.status === 201).length;
    expect(accepted).toBe(10);
    for (const refused of results.filter((r) => r.status !== 201)) expect([400, 409]).toContain(refused.status);
    const final = (await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data;
    expect(final).toMatchObject({ status: "paid", amount_paid: 1000, amount_due: 0 });
    const sum = await (await dbOf(ws.workspaceId))
      .prepare("SELECT sum(amount) AS s, count(*) AS n FROM payments WHERE invoice_id = ?")
      .bind(invoice.id)
      .first<{ s: number; n: number }>();
    expect(sum).toEqual({ s: 1000, n: 10 });
  });

  it("never repeats an invoice number under concurrent creates", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const c = await customer(ws);
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        call("POST", "/invoices", { token: ws.token, body: { customer_id: c.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }] } }),
      ),
    );
    const numbers = results.map((r) => r.json.data.number).sort();
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => `INV-${String(i + 1).padStart(6, "0")}`));
  });

  it("records invoice.created and payment.received with the invoice's state", async () => {
    const ws = await signup();
    const c = await customer(ws);
    const invoice = await sent(ws, c.id);
    const payment = (await pay(ws, invoice.id, 1000)).json.data;
    const created = await recordedEvents(ws.workspaceId, "invoice.created");
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({ id: invoice.id, number: invoice.number, status: "draft", total: invoice.total });
    const received = await recordedEvents(ws.workspaceId, "payment.received");
    expect(received).toHaveLength(1);
    expect(received[0]!.data).toEqual({
      ...payment,
      invoice: { id: invoice.id, number: invoice.number, status: "partially_paid", amount_due: invoice.total - 1000 },
    });
    // A refused payment records nothing.
    await pay(ws, invoice.id, 999_999);
    expect(await recordedEvents(ws.workspaceId, "payment.received")).toHaveLength(1);
  });
});

describe("invoice and payment lists", () => {
  it("filters invoices by status, customer and overdue, and payments by invoice; sorts by total and due date", async () => {
    const ws = await signup();
    await setPlan(ws, "pro");
    const a = await customer(ws);
    const b = await customer(ws, { name: "Hooli" });
    const late = await create(ws, "invoices", {
      customer_id: a.id,
      items: [{ description: "x", quantity: 1, unit_amount: 300 }],
      issue_date: "2020-01-01",
      due_date: "2020-02-01",
    });
    await call("POST", `/invoices/${late.id}/send`, { token: ws.token });
    const future = await sent(ws, b.id);
    const noDue = await create(ws, "invoices", { customer_id: b.id, items: [{ description: "x", quantity: 1, unit_amount: 100 }] });
    const ids = async (query: string) => (await call("GET", `/invoices?${query}`, { token: ws.token })).json.data.map((i: { id: number }) => i.id);
    expect(await ids("overdue=true")).toEqual([late.id]);
    expect((await ids("overdue=false")).sort()).toEqual([future.id, noDue.id].sort());
    expect(await ids("status=draft")).toEqual([noDue.id]);
    expect((await ids("status=sent,draft")).length).toBe(3);
    expect(await ids(`customer_id=${a.id}`)).toEqual([late.id]);
    expect(await ids("sort=total")).toEqual([noDue.id, late.id, future.id]);
    expect(await ids("sort=due_date")).toEqual([late.id, future.id, noDue.id]);
    expect(await ids("sort=-due_date&limit=1")).toEqual([noDue.id]);
    const page2 = await call("GET", `/invoices?sort=due_date&limit=2`, { token: ws.token });
    const rest = await call("GET", `/invoices?sort=due_date&limit=2&cursor=${encodeURIComponent(page2.json.meta.next_cursor)}`, { token: ws.token });
    expect(rest.json.data.map((i: { id: number }) => i.id)).toEqual([noDue.id]);

    await pay(ws, future.id, 500);
    await pay(ws, late.id, 100);
    const payments = await call("GET", `/payments?invoice_id=${future.id}`, { token: ws.token });
    expect(payments.json.data.map((p: { amount: number }) => p.amount)).toEqual([500]);
    expect((await call("GET", "/payments?sort=paid_at", { token: ws.token })).json.data).toHaveLength(2);
    expectError(await call("GET", "/invoices?overdue=maybe", { token: ws.token }), 400, "validation_error");
  });

  it("shows each customer's balance of sent and partially paid invoices", async () => {
    const ws = await signup();
    const c = await customer(ws, { billing: { name: "Initech AP", city: "Austin", country: "us", postal_code: "78701" } });
    await draft(ws, c.id); // drafts do not count
    const one = await sent(ws, c.id); // 11000
    const two = await sent(ws, c.id); // 11000
    await pay(ws, two.id, 1000);
    const listed = (await call("GET", "/customers", { token: ws.token })).json.data[0];
    expect(listed.balance).toBe(one.total + two.total - 1000);
    expect(listed.billing).toEqual({
      name: "Initech AP",
      email: null,
      address_line1: null,
      address_line2: null,
      city: "Austin",
      state: null,
      postal_code: "78701",
      country: "US",
    });
    const merged = await call("PUT", `/customers/${c.id}`, { token: ws.token, body: { billing: { state: "TX" } } });
    expect(merged.json.data.billing).toMatchObject({ city: "Austin", state: "TX" });
    expect(merged.json.data.balance).toBe(listed.balance);
    expect((await call("GET", "/customers?country=US", { token: ws.token })).json.data).toHaveLength(1);
    expect((await call("GET", "/customers?country=de", { token: ws.token })).json.data).toHaveLength(0);
    expect((await call("GET", "/customers?currency=usd", { token: ws.token })).json.data).toHaveLength(1);
    // A customer with invoices cannot be deleted out from under them.
    expectError(await call("DELETE", `/customers/${c.id}`, { token: ws.token }), 409, "conflict");
  });
});
