import { describe, expect, it } from "vitest";
import { call, create, dbOf, env, expectError, setPlan, signup } from "./helpers";

/**
 * Every money total a workspace stores or reports stays an exact integer ≤ 2^53 − 1 minor units: a write
 * that would push a workspace's total of deal values, lead values or invoice totals (per currency) past
 * it is refused with 400 and writes nothing, so no sum the API reports (pipeline, won value, balances,
 * outstanding, revenue) can overflow or turn into a float.
 */
const MAX = Number.MAX_SAFE_INTEGER;

async function workspace() {
  const ws = await signup("Big Numbers Inc");
  await setPlan(ws, "enterprise");
  return ws;
}

const widget = async (ws: { token: string }, key: string) => {
  const res = await call("GET", `/dashboard/widgets/${key}?period=30d`, { token: ws.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data.data;
};

describe("deal values", () => {
  it("refuses a deal that would push the workspace's total past 2^53 − 1, per currency, and writes nothing", async () => {
    const ws = await workspace();
    await create(ws, "deals", { name: "Whale", value: MAX - 10 });
    const refused = expectError(await call("POST", "/deals", { token: ws.token, body: { name: "One too many", value: 11 } }), 400, "validation_error");
    expect(refused.details).toEqual([{ path: "value", message: expect.stringContaining("9007199254740991") }]);
    // Another currency has its own total.
    await create(ws, "deals", { name: "Euro whale", value: MAX, currency: "EUR" });
    // Up to the bound is fine.
    const last = await create(ws, "deals", { name: "Exactly", value: 10 });
    const count = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM deals WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(count!.n).toBe(3);

    // An update that grows it is refused too; a deletion makes room again.
    expectError(await call("PUT", `/deals/${last.id}`, { token: ws.token, body: { value: 11 } }), 400, "validation_error");
    expect((await call("DELETE", `/deals/${last.id}`, { token: ws.token })).status).toBe(200);
    await create(ws, "deals", { name: "Room again", value: 10 });

    // Every sum over deals stays exact.
    const pipeline = await widget(ws, "sales.pipeline_by_stage");
    expect(pipeline.items).toEqual([{ label: "initial_contact", value: { USD: MAX, EUR: MAX } }]);
    expect((await call("GET", "/dashboard", { token: ws.token })).status).toBe(200);
  });

  it("an atomic batch of huge deals is refused whole with per-index details, and the dashboard keeps working", async () => {
    const ws = await workspace();
    const operations = Array.from({ length: 100 }, (_, i) => ({ op: "create", data: { name: `Deal ${i}`, value: MAX } }));
    const refused = expectError(await call("POST", "/deals/batch", { token: ws.token, body: { operations } }), 400, "validation_error");
    expect(refused.details[0]).toMatchObject({ path: "operations.1.data.value" });
    expect((await call("GET", "/deals?include_total=true", { token: ws.token })).json.meta.total).toBe(0);
    // Non-atomic: the first fits, every other one is refused on its own.
    const partial = await call("POST", "/deals/batch", { token: ws.token, body: { atomic: false, operations: operations.slice(0, 3) } });
    expect(partial.status).toBe(200);
    expect(partial.json.data.results.map((result: { status: number }) => result.status)).toEqual([201, 400, 400]);
    const won = await call("PUT", `/deals/${partial.json.data.results[0].data.id}`, { token: ws.token, body: { stage: "won" } });
    expect(won.status).toBe(200);
    expect((await widget(ws, "sales.won_value")).value).toEqual({ USD: MAX });
    expect((await call("GET", "/dashboard", { token: ws.token })).status).toBe(200);
  });
});

describe("lead values", () => {
  it("are bounded the same way", async () => {
    const ws = await workspace();
    await create(ws, "leads", { name: "Huge lead", email: "huge@example.com", value: MAX });
    expectError(await call("POST", "/leads", { token: ws.token, body: { name: "More", email: "more@example.com", value: 1 } }), 400, "validation_error");
    await create(ws, "leads", { name: "No value", email: "none@example.com" });
  });
});

describe("invoice totals and everything summed from them", () => {
  it("refuses an invoice that would push the workspace's invoiced total past the bound; balances, outstanding and revenue stay exact", async () => {
    const ws = await workspace();
    const customer = await create(ws, "customers", { name: "Megacorp", email: "ap@megacorp.example" });
    const big = await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "Everything", quantity: 1, unit_amount: MAX - 3 }] });
    const refused = expectError(
      await call("POST", "/invoices", { token: ws.token, body: { customer_id: customer.id, items: [{ description: "More", quantity: 1, unit_amount: 4 }] } }),
      400,
      "validation_error",
    );
    expect(refused.details[0].path).toBe("items");
    // Editing the draft upwards is refused too.
    expectError(
      await call("PUT", `/invoices/${big.id}`, {
        token: ws.token,
        body: {
          items: [
            { description: "Everything", quantity: 1, unit_amount: MAX - 3 },
            { description: "Extra", quantity: 1, unit_amount: 4 },
          ],
        },
      }),
      400,
      "validation_error",
    );
    expect((await call("POST", `/invoices/${big.id}/send`, { token: ws.token, body: {} })).status).toBe(200);
    expect((await call("GET", `/customers/${customer.id}`, { token: ws.token })).json.data.balance).toBe(MAX - 3);
    expect((await widget(ws, "account.outstanding")).value).toEqual({ USD: MAX - 3 });
    expect((await call("POST", "/payments", { token: ws.token, body: { invoice_id: big.id, amount: MAX - 3 } })).status).toBe(201);
    expect((await widget(ws, "account.revenue")).value).toEqual({ USD: MAX - 3 });
    expect((await widget(ws, "account.top_customers")).items[0].value).toEqual({ USD: MAX - 3 });
    const text = (await call("GET", "/dashboard", { token: ws.token })).text;
    expect(text).not.toMatch(/e\+\d/);
  });
});

describe("web analytics revenue", () => {
  it("refuses more than 1,000,000,000 minor units in one event, and reports saturate at 2^53 − 1 instead of failing", async () => {
    const ws = await workspace();
    const site = (await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "big.example.com" } })).json.data;
    const tooMuch = await call("POST", "/analytics/collect", {
      body: { site: site.site_key, name: "purchase", url: "https://big.example.com/done", revenue: { amount: MAX, currency: "EUR" } },
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" },
    });
    expect(expectError(tooMuch, 400, "validation_error").details[0].path).toBe("revenue.amount");
    // Rollups that already hold huge amounts (as an old build could have written): sums stay integers ≤ 2^53 − 1.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (const day of [today, yesterday]) {
      await env.ANALYTICS_DB.prepare("INSERT INTO analytics_daily_revenue (workspace_id, site_id, day, currency, amount) VALUES (?, ?, ?, 'EUR', ?)")
        .bind(ws.workspaceId, site.id, day, MAX)
        .run();
    }
    const stats = await call("GET", `/analytics/sites/${site.id}/stats?period=7d`, { token: ws.token });
    expect(stats.status, stats.text).toBe(200);
    expect(stats.json.data.revenue).toEqual({ EUR: MAX });
    const series = await call("GET", `/analytics/sites/${site.id}/timeseries?period=7d&metric=revenue`, { token: ws.token });
    expect(series.status, series.text).toBe(200);
    expect(series.text).not.toMatch(/e\+\d/);
  });
});

describe("money stays exact", () => {
  it("refuses any amount, line or total beyond 2^53 − 1 minor units, and keeps the largest exact", async () => {
    const ws = await signup();
    const customer = (await call("POST", "/customers", { token: ws.token, body: { name: "C" } })).json.data;
    const invoice = (items: unknown[]) => call("POST", "/invoices", { token: ws.token, body: { customer_id: customer.id, items } });
    const hundredLines = Array.from({ length: 100 }, () => ({ description: "x", quantity: 1_000_000, unit_amount: 1e13 }));
    expect(expectError(await invoice(hundredLines), 400, "validation_error").details[0].path).toBe("items.0");
    expectError(await invoice([{ description: "x", quantity: 999999.9999, unit_amount: 9999999999999 }]), 400, "validation_error");
    const sum = expectError(
      await invoice([
        { description: "a", quantity: 1, unit_amount: 5e15 },
        { description: "b", quantity: 1, unit_amount: 5e15 },
      ]),
      400,
      "validation_error",
    );
    expect(sum.details).toEqual([{ path: "items", message: "the invoice total must not exceed 9007199254740991 minor units" }]);
    expectError(await invoice([{ description: "x", quantity: 1, unit_amount: 9007199254740992 }]), 400, "validation_error");
    const largest = await invoice([{ description: "x", quantity: 1, unit_amount: 9007199254740991 }]);
    expect(largest.status).toBe(201);
    expect(largest.text).toContain('"total":9007199254740991');
    expectError(await call("POST", "/deals", { token: ws.token, body: { name: "D", value: 2 ** 53 } }), 400, "validation_error");
    expect((await call("GET", "/invoices?include_total=true", { token: ws.token })).json.meta.total).toBe(1);
  });
});
