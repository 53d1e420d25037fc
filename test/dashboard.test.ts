import { afterEach, describe, expect, it } from "vitest";
import { allWidgets } from "../src/dashboard/widget-runner";
import { platform } from "../src/index";
import { Tenant } from "../src/platform/tenancy";
import { database } from "../src/platform/tenancy/database";
import { clock } from "../src/platform/time";
import { buckets, periodOf } from "../src/platform/widgets";
import { call, countingD1, create, dbOf, env, expectError, fetchWith, setPlan, shardOf, signup, userWithRole, type Workspace } from "./helpers";

const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

const DAY = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

type Widget = { key: string; package: string; title: string; kind: string; unit: string; data: any };
async function dashboard(ws: Workspace | string, query = "") {
  const res = await call("GET", `/dashboard${query}`, { token: typeof ws === "string" ? ws : ws.token });
  expect(res.status, res.text).toBe(200);
  return {
    widgets: Object.fromEntries((res.json.data as Widget[]).map((w) => [w.key, w])) as Record<string, Widget>,
    list: res.json.data as Widget[],
    meta: res.json.meta,
  };
}

const KEYS = [
  "account.revenue",
  "account.outstanding",
  "account.overdue_invoices",
  "account.revenue_by_month",
  "account.invoices_by_status",
  "account.top_customers",
  "sales.pipeline_by_stage",
  "sales.won_value",
  "sales.win_rate",
  "sales.leads_by_source",
  "sales.new_contacts",
  "hrm.headcount",
  "hrm.headcount_by_department",
  "hrm.new_joiners",
  "taskly.tasks_by_status",
  "taskly.overdue_tasks",
  "taskly.completed_tasks",
  "taskly.project_progress",
  "analytics.visitors",
  "analytics.checkout_conversion",
  "recruitment.pipeline",
  "timesheets.logged_by_project",
  "products.top_by_revenue",
  "leave.out_today",
  "quotes.open_value",
  "quotes.by_status",
  "attendance.present_today",
  "expenses.by_category",
  "account.profit",
  "helpdesk.open_tickets",
  "helpdesk.sla_breaches",
];

/** A small company whose every widget value is known by hand. */
async function company() {
  const ws = await signup("Known Co");
  await setPlan(ws, "enterprise");
  const now = Date.now();
  const today = dateOf(now);
  const daysAgo = (n: number) => dateOf(now - n * DAY);

  const acme = await create(ws, "customers", { name: "Acme", email: "ap@acme.example" });
  const globex = await create(ws, "customers", { name: "Globex", email: "ap@globex.example" });
  const invoice = (customer: number, body: Record<string, unknown>) => create(ws, "invoices", { customer_id: customer, ...body });
  const send = (id: number) => call("POST", `/invoices/${id}/send`, { token: ws.token });
  const pay = (id: number, amount: number) => call("POST", "/payments", { token: ws.token, body: { invoice_id: id, amount } });
  const i1 = await invoice(acme.id, { items: [{ description: "a", quantity: 1, unit_amount: 10_000 }] });
  const i2 = await invoice(acme.id, { currency: "EUR", items: [{ description: "b", quantity: 1, unit_amount: 5_000, tax_rate: 20 }] });
  const i3 = await invoice(globex.id, { issue_date: daysAgo(40), due_date: daysAgo(10), items: [{ description: "c", quantity: 2, unit_amount: 10_000 }] });
  await invoice(globex.id, { items: [{ description: "d", quantity: 1, unit_amount: 1 }] });
  for (const i of [i1, i2, i3]) await send(i.id);
  await pay(i1.id, 4_000);
  await pay(i2.id, 6_000);

  for (const [stage, value, currency] of [
    ["proposal", 5_000, "USD"],
    ["proposal", 1_000, "EUR"],
    ["meeting", 3_000, "USD"],
    ["won", 7_000, "USD"],
    ["lost", 2_000, "USD"],
    ["won", 800, "EUR"],
  ] as const) {
    await create(ws, "deals", { name: `${stage} ${value}`, stage, value, currency });
  }
  for (const source of ["website", "website", "website", "referral", null, null]) await create(ws, "leads", { name: "L", email: "l@x.co", source });
  for (let i = 0; i < 4; i++) await create(ws, "contacts", { name: `C${i}`, email: `c${i}@x.co` });

  const e1 = await create(ws, "employees", { name: "E1", email: "e1@x.co", department: "Engineering", date_of_joining: daysAgo(3) });
  const e2 = await create(ws, "employees", { name: "E2", email: "e2@x.co", department: "Engineering", date_of_joining: daysAgo(1) });
  await create(ws, "employees", { name: "E3", email: "e3@x.co", department: "Sales", date_of_joining: "2020-01-01" });
  const e4 = await create(ws, "employees", { name: "E4", email: "e4@x.co", date_of_joining: today });
  await create(ws, "employees", { name: "E5", email: "e5@x.co", department: "Sales", status: "inactive", date_of_joining: "2020-01-01" });
  await create(ws, "employees", { name: "E6", email: "e6@x.co", status: "left", date_of_joining: "2020-01-01" });

  const p1 = await create(ws, "projects", { name: "P1" });
  const p2 = await create(ws, "projects", { name: "P2" });
  const p3 = await create(ws, "projects", { name: "P3", status: "on_hold" });
  const t1 = await create(ws, "tasks", { title: "T1", project_id: p1.id, status: "done" });
  await create(ws, "tasks", { title: "T2", project_id: p1.id, due_date: daysAgo(1) });
  await create(ws, "tasks", { title: "T3", project_id: p1.id, status: "in_progress", due_date: dateOf(now + DAY) });
  const t4 = await create(ws, "tasks", { title: "T4", project_id: p1.id, due_date: daysAgo(1) });
  await call("DELETE", `/tasks/${t4.id}`, { token: ws.token });
  const t5 = await create(ws, "tasks", { title: "T5", project_id: p2.id });
  await create(ws, "tasks", { title: "T6", project_id: p3.id, status: "done" });

  const opening = await create(ws, "job-openings", { title: "Engineer" });
  for (const stage of ["applied", "applied", "interview"])
    await create(ws, "candidates", { job_opening_id: opening.id, name: stage, email: `${stage}${Math.random()}@x.co`, stage });
  await create(ws, "time-entries", { employee_id: e1.id, task_id: t1.id, date: today, minutes: 120 });
  await create(ws, "time-entries", { employee_id: e2.id, task_id: t5.id, date: daysAgo(2), minutes: 60 });
  return { ws, acme, p1, p2, e1, e2, e4, today };
}

describe("the dashboard", () => {
  it("computes every widget from the workspace's data, in dashboard order", async () => {
    const { ws, acme, p1, p2, e1, e2, e4, today } = await company();
    const { widgets, list, meta } = await dashboard(ws);
    expect(list.map((w) => w.key)).toEqual(KEYS);
    expect(meta).toEqual({ period: "30d", from: dateOf(Date.parse(`${today}T00:00:00Z`) - 29 * DAY), to: today });
    expect(widgets["account.revenue"]).toEqual({
      key: "account.revenue",
      package: "account",
      title: "Revenue",
      kind: "stat",
      unit: "money",
      link: expect.stringMatching(/^\/app\/payments\?paid_after=\d{4}-\d\d-\d\dT00:00:00\.000Z&paid_before=/),
      // Nothing was paid in the 30 days before the period.
      data: { value: { USD: 4_000, EUR: 6_000 }, previous: {} },
    });
    expect(widgets["account.outstanding"]!.data).toEqual({ value: { USD: 26_000 }, previous: null });
    expect(widgets["account.overdue_invoices"]!.data).toEqual({ value: 1, previous: null });
    const months = widgets["account.revenue_by_month"]!.data;
    expect(months.interval).toBe("month");
    expect(months.points).toHaveLength(12);
    expect(months.points.at(-1)).toEqual({ date: `${today.slice(0, 7)}-01`, value: { USD: 4_000, EUR: 6_000 } });
    expect(months.points.slice(0, -1).every((p: { value: object }) => Object.keys(p.value).length === 0)).toBe(true);
    expect(sortItems(widgets["account.invoices_by_status"]!.data.items)).toEqual([
      { label: "draft", value: 1 },
      { label: "paid", value: 1 },
      { label: "partially_paid", value: 1 },
    ]);
    expect(widgets["account.top_customers"]!.data).toEqual({ items: [{ id: acme.id, label: "Acme", value: { USD: 4_000, EUR: 6_000 } }] });

    expect(widgets["sales.pipeline_by_stage"]!.data).toEqual({
      items: [
        { label: "proposal", value: { USD: 5_000, EUR: 1_000 } },
        { label: "meeting", value: { USD: 3_000 } },
      ],
    });
    expect(widgets["sales.won_value"]!.data).toEqual({ value: { USD: 7_000, EUR: 800 }, previous: {} });
    expect(widgets["sales.win_rate"]).toMatchObject({ unit: "percent", data: { value: 66.7 } });
    expect(widgets["sales.leads_by_source"]!.data.items).toEqual([
      { label: "website", value: 3 },
      { label: "unknown", value: 2 },
      { label: "referral", value: 1 },
    ]);
    const contacts = widgets["sales.new_contacts"]!.data;
    expect(contacts.interval).toBe("day");
    expect(contacts.points).toHaveLength(30);
    expect(contacts.points.at(-1)).toEqual({ date: today, value: 4 });
    expect(contacts.points.slice(0, -1).every((p: { value: number }) => p.value === 0)).toBe(true);

    expect(widgets["hrm.headcount"]!.data).toEqual({ value: 4, previous: null });
    expect(widgets["hrm.headcount_by_department"]!.data.items).toEqual([
      { label: "Engineering", value: 2 },
      expect.objectContaining({ value: 1 }),
      expect.objectContaining({ value: 1 }),
    ]);
    expect(sortItems(widgets["hrm.headcount_by_department"]!.data.items).map((i) => i.label)).toEqual(["Engineering", "Sales", "unassigned"]);
    expect(widgets["hrm.new_joiners"]!.data.items.map((i: { id: number }) => i.id)).toEqual([e4.id, e2.id, e1.id]);
    expect(widgets["hrm.new_joiners"]!.data.items[0]).toMatchObject({ id: e4.id, label: "E4", date_of_joining: today });

    expect(sortItems(widgets["taskly.tasks_by_status"]!.data.items)).toEqual([
      { label: "done", value: 2 },
      { label: "in_progress", value: 1 },
      { label: "todo", value: 2 },
    ]);
    expect(widgets["taskly.overdue_tasks"]!.data).toEqual({ value: 1, previous: null });
    expect(widgets["taskly.completed_tasks"]!.data.points.at(-1)).toEqual({ date: today, value: 2 });
    expect(widgets["taskly.project_progress"]!.data.items).toEqual([
      { id: p1.id, label: "P1", value: 33.3, task_count: 3, completed_task_count: 1 },
      { id: p2.id, label: "P2", value: 0, task_count: 1, completed_task_count: 0 },
    ]);
    expect(widgets["recruitment.pipeline"]!.data.items).toEqual([
      { label: "applied", value: 2 },
      { label: "interview", value: 1 },
    ]);
    expect(widgets["timesheets.logged_by_project"]).toMatchObject({
      unit: "minutes",
      data: {
        items: [
          { id: p1.id, label: "P1", value: 120 },
          { id: p2.id, label: "P2", value: 60 },
        ],
      },
    });

    // One widget on its own; a period of 7 days.
    const one = await call("GET", "/dashboard/widgets/sales.win_rate?period=7d", { token: ws.token });
    expect(one.json).toMatchObject({ success: true, data: { key: "sales.win_rate", data: { value: 66.7 } }, meta: { period: "7d" } });
    const picked = await dashboard(ws, "?widgets=hrm.headcount,account.revenue&period=ytd");
    expect(picked.list.map((w) => w.key)).toEqual(["account.revenue", "hrm.headcount"]);
  });

  it("shows zeros, empty money and null percentages for an empty workspace, and never another workspace's data", async () => {
    const { ws: busy } = await company();
    const empty = await signup("Empty Co");
    const { widgets } = await dashboard(empty, "?period=90d");
    expect(widgets["account.revenue"]!.data).toEqual({ value: {}, previous: {} });
    expect(widgets["account.outstanding"]!.data).toEqual({ value: {}, previous: null });
    expect(widgets["account.overdue_invoices"]!.data).toEqual({ value: 0, previous: null });
    expect(widgets["account.revenue_by_month"]!.data.points.map((p: { value: object }) => p.value)).toEqual(Array(12).fill({}));
    expect(widgets["sales.win_rate"]!.data).toEqual({ value: null, previous: null });
    expect(widgets["sales.new_contacts"]!.data.interval).toBe("week");
    expect(widgets["sales.new_contacts"]!.data.points).toHaveLength(13);
    expect(widgets["sales.new_contacts"]!.data.points.every((p: { value: number }) => p.value === 0)).toBe(true);
    for (const key of [
      "account.invoices_by_status",
      "account.top_customers",
      "sales.pipeline_by_stage",
      "hrm.new_joiners",
      "taskly.project_progress",
      "timesheets.logged_by_project",
    ]) {
      expect(widgets[key]!.data, key).toEqual({ items: [] });
    }
    expect(widgets["hrm.headcount"]!.data).toEqual({ value: 0, previous: null });
    expect((await dashboard(busy)).widgets["hrm.headcount"]!.data).toEqual({ value: 4, previous: null });
  });

  it("drops a disabled package's widgets and refuses them one by one", async () => {
    const ws = await signup();
    for (const name of ["recruitment", "timesheets", "leave", "attendance", "hrm"])
      await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } });
    for (const name of ["quotes", "helpdesk"]) await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } }); // both need sales
    await call("PUT", "/packages/sales", { token: ws.token, body: { enabled: false } });
    const { list } = await dashboard(ws);
    expect(list.map((w) => w.package)).not.toContain("sales");
    expect(list.map((w) => w.package)).not.toContain("hrm");
    expect(list).toHaveLength(15);
    expectError(await call("GET", "/dashboard/widgets/sales.win_rate", { token: ws.token }), 403, "package_disabled");
    expect((await call("GET", "/dashboard?widgets=sales.win_rate", { token: ws.token })).json.data).toEqual([]);
  });

  it("shows a token only the widgets of the resources it may read", async () => {
    const ws = await signup();
    const token = async (scopes: string[]) => (await call("POST", "/api-tokens", { token: ws.token, body: { name: "t", scopes } })).json.data.token as string;
    expect((await dashboard(await token(["contacts:read"]))).list.map((w) => w.key)).toEqual(["sales.new_contacts"]);
    expect((await dashboard(await token(["deals:read", "employees:read"]))).list.map((w) => w.key)).toEqual([
      "sales.pipeline_by_stage",
      "sales.won_value",
      "sales.win_rate",
      "hrm.headcount",
      "hrm.headcount_by_department",
      "hrm.new_joiners",
    ]);
    expect((await dashboard(await token(["read"]))).list).toHaveLength(KEYS.length);
    // Web analytics are for members and above: a viewer sees every business widget.
    const viewer = await userWithRole(ws, "viewer");
    expect((await dashboard(viewer)).list.map((w) => w.key)).toEqual(KEYS.filter((key) => !key.startsWith("analytics.")));
    const denied = expectError(await call("GET", "/dashboard/widgets/account.revenue", { token: await token(["contacts:read"]) }), 403, "forbidden");
    expect(denied.message).toMatch(/payments:read/);
  });

  it("refuses unknown periods and widget keys, naming them", async () => {
    const ws = await signup();
    const period = expectError(await call("GET", "/dashboard?period=2w", { token: ws.token }), 400, "validation_error");
    expect(period.details).toEqual([{ path: "period", message: "must be one of 7d, 30d, 90d, 12mo, mtd, ytd" }]);
    const key = expectError(await call("GET", "/dashboard?widgets=account.revenue,account.margin", { token: ws.token }), 400, "validation_error");
    expect(key.details).toEqual([{ path: "widgets", message: "unknown widget account.margin" }]);
    expectError(await call("GET", "/dashboard/widgets/account.margin", { token: ws.token }), 404, "not_found");
    expectError(await call("GET", "/dashboard"), 401, "unauthorized");
  });

  it("computes every business widget in one D1 round trip, and the analytics widgets in one more on their database", async () => {
    const { ws } = await company();
    const shard = await shardOf(ws.workspaceId);
    const business = countingD1(shard.db);
    const analytics = countingD1(env.ANALYTICS_DB);
    const bindings = { [shard.name]: business.binding, ANALYTICS_DB: analytics.binding };
    await fetchWith(bindings, "GET", "/me", { token: ws.token }); // the token is verified (and cached) first
    business.counter.calls = 0;
    business.counter.statements = 0;
    const res = await fetchWith(bindings, "GET", "/dashboard", { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(KEYS.length);
    expect(business.counter.calls).toBe(1);
    expect(business.counter.statements).toBeGreaterThanOrEqual(15); // 20 widgets; a few share a statement
    expect(analytics.counter.calls).toBe(1);
    expect(analytics.counter.statements).toBe(4); // the checkout conversion, also over the previous period
  });
});

describe("periods, in UTC", () => {
  it("cover the right days at month and year boundaries, with every interval", () => {
    const newYear = Date.UTC(2027, 0, 1, 0, 30);
    expect(periodOf("mtd", newYear)).toMatchObject({ from: "2027-01-01", to: "2027-01-01", interval: "day" });
    expect(buckets(periodOf("mtd", newYear))).toEqual(["2027-01-01"]);
    expect(buckets(periodOf("ytd", newYear))).toEqual(["2027-01-01"]);
    expect(periodOf("7d", newYear)).toMatchObject({ from: "2026-12-26", to: "2027-01-01" });
    const months = buckets(periodOf("12mo", newYear));
    expect(months).toHaveLength(12);
    expect([months[0], months.at(-1)]).toEqual(["2026-02-01", "2027-01-01"]);
    const weeks = periodOf("90d", newYear);
    expect(weeks).toMatchObject({ from: "2026-10-04", interval: "week" });
    expect(buckets(weeks)).toHaveLength(13);
    expect(buckets(weeks).at(-1)).toBe("2026-12-27");
    const leap = periodOf("30d", Date.UTC(2028, 2, 1, 12));
    expect(leap).toMatchObject({ from: "2028-02-01", to: "2028-03-01" });
    expect(buckets(leap)).toContain("2028-02-29");
    expect(buckets(periodOf("ytd", Date.UTC(2026, 11, 31, 23, 59)))).toHaveLength(12);
  });

  it("puts payments in the month they were made, at the boundary millisecond, through the worker", async () => {
    const ws = await signup();
    const customer = await create(ws, "customers", { name: "C" });
    const invoice = await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "x", quantity: 1, unit_amount: 1_000 }] });
    const db = await dbOf(ws.workspaceId);
    const insert = (amount: number, paidAt: number) =>
      db
        .prepare(
          "INSERT INTO payments (workspace_id, invoice_id, amount, currency, method, paid_at, created_at, updated_at) VALUES (?, ?, ?, 'USD', 'cash', ?, ?, ?)",
        )
        .bind(ws.workspaceId, invoice.id, amount, paidAt, paidAt, paidAt)
        .run();
    await insert(1, Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    await insert(10, Date.UTC(2027, 0, 1));
    await insert(100, Date.UTC(2026, 1, 1));
    await insert(1000, Date.UTC(2026, 0, 31, 23, 59, 59, 999)); // 13 months back: outside
    clock.now = () => Date.UTC(2027, 0, 1, 8);
    const res = await call("GET", "/dashboard?period=mtd&widgets=account.revenue,account.revenue_by_month", { token: ws.token });
    expect(res.json.meta).toEqual({ period: "mtd", from: "2027-01-01", to: "2027-01-01" });
    const [revenue, byMonth] = res.json.data;
    // The previous period of a one-day mtd is the day before: its last millisecond's payment.
    expect(revenue.data).toEqual({ value: { USD: 10 }, previous: { USD: 1 } });
    const points = Object.fromEntries(byMonth.data.points.map((p: { date: string; value: object }) => [p.date, p.value]));
    expect(points).toMatchObject({ "2026-02-01": { USD: 100 }, "2026-12-01": { USD: 1 }, "2027-01-01": { USD: 10 } });
    expect(Object.keys(points)).toHaveLength(12);
  });
});

describe("query plans of the widgets", () => {
  it("never scan a table: every aggregate reads through an index that starts with workspace_id", async () => {
    const tenant = new Tenant(database(env.DB), 1);
    const period = periodOf("90d");
    const tables = [
      "payments",
      "invoices",
      "customers",
      "deals",
      "leads",
      "contacts",
      "employees",
      "tasks",
      "projects",
      "candidates",
      "time_entries",
      "task_counts",
      "payment_days",
      "invoice_balances",
    ];
    for (const { widget } of allWidgets(platform.registry).filter((entry) => (entry.widget.source ?? "business") === "business")) {
      for (const statement of widget.query({ tenant, period, now: Date.now() }).statements) {
        const item = "share" in statement ? statement.statement : statement;
        const query =
          (item as unknown as { toSQL?: () => { sql: string; params: unknown[] }; getQuery: () => { sql: string; params: unknown[] } }).toSQL?.() ??
          (item as unknown as { getQuery: () => { sql: string; params: unknown[] } }).getQuery();
        const plan = (
          await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
            .bind(...query.params)
            .all<{ detail: string }>()
        ).results.map((r) => r.detail);
        for (const line of plan) {
          const scanned = /^SCAN (\w+)/.exec(line)?.[1];
          expect(tables.includes(scanned ?? ""), `${widget.key}: ${line}`).toBe(false);
        }
        // A workspace-leading index, or a rollup's primary key (which starts with workspace_id).
        expect(plan.join(" | "), widget.key).toMatch(/INDEX (\w+_workspace_\w+|sqlite_autoindex_\w+) \(workspace_id=\?/);
      }
    }
  });
});

function sortItems<T extends { label: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.label.localeCompare(b.label));
}

describe("rollups kept by triggers", () => {
  it("always equal a recount, through every kind of write", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const p1 = await create(ws, "projects", { name: "P1" });
    const p2 = await create(ws, "projects", { name: "P2" });
    const tasks = [];
    for (let i = 0; i < 12; i++) tasks.push(await create(ws, "tasks", { title: `T${i}`, project_id: i % 2 ? p1.id : p2.id, status: i % 3 ? "todo" : "done" }));
    await call("PUT", `/tasks/${tasks[0].id}/status`, { token: ws.token, body: { status: "review" } });
    await call("PUT", `/tasks/${tasks[1].id}`, { token: ws.token, body: { project_id: p2.id, status: "done" } });
    await call("DELETE", `/tasks/${tasks[2].id}`, { token: ws.token });
    await call("DELETE", `/tasks/${tasks[3].id}`, { token: ws.token });
    await call("POST", `/tasks/${tasks[3].id}/restore`, { token: ws.token });
    await call("POST", "/tasks/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "update", id: tasks[4].id, data: { status: "in_progress" } },
          { op: "delete", id: tasks[5].id },
          { op: "create", data: { title: "B", project_id: p1.id } },
        ],
      },
    });
    const customer = await create(ws, "customers", { name: "C", email: "ap@c.example" });
    const invoices = [];
    for (const currency of ["USD", "EUR", "USD"])
      invoices.push(await create(ws, "invoices", { customer_id: customer.id, currency, items: [{ description: "x", quantity: 3, unit_amount: 1000 }] }));
    for (const invoice of invoices) await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token });
    const paid = await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoices[0].id, amount: 1000 } });
    expect(paid.status, paid.text).toBe(201);
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoices[1].id, amount: 3000 } });
    await call("DELETE", `/payments/${paid.json.data.id}`, { token: ws.token });
    await call("POST", `/invoices/${invoices[2].id}/void`, { token: ws.token });
    await call(
      "PUT",
      `/invoices/${(await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "d", quantity: 1, unit_amount: 5 }] })).id}`,
      {
        token: ws.token,
        body: { items: [{ description: "d", quantity: 2, unit_amount: 7 }] },
      },
    );

    const db = await dbOf(ws.workspaceId);
    const rows = async (query: string) => (await db.prepare(query).bind(ws.workspaceId).all()).results;
    expect(await rows("SELECT project_id, status, tasks FROM task_counts WHERE workspace_id = ? AND tasks > 0 ORDER BY 1, 2")).toEqual(
      await rows("SELECT project_id, status, count(*) AS tasks FROM tasks WHERE workspace_id = ? AND deleted_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2"),
    );
    expect(await rows("SELECT day, currency, amount, payments FROM payment_days WHERE workspace_id = ? AND payments > 0 ORDER BY 1, 2")).toEqual(
      await rows(
        "SELECT CAST(paid_at / 86400000 AS INTEGER) AS day, currency, sum(amount) AS amount, count(*) AS payments FROM payments WHERE workspace_id = ? GROUP BY 1, 2 ORDER BY 1, 2",
      ),
    );
    expect(await rows("SELECT status, currency, invoices, due FROM invoice_balances WHERE workspace_id = ? AND invoices > 0 ORDER BY 1, 2")).toEqual(
      await rows(
        "SELECT status, currency, count(*) AS invoices, sum(total - amount_paid) AS due FROM invoices WHERE workspace_id = ? GROUP BY 1, 2 ORDER BY 1, 2",
      ),
    );
    const { widgets } = await dashboard(ws);
    expect(widgets["account.outstanding"]!.data).toEqual({ value: { USD: 3000 }, previous: null });
    expect(widgets["account.revenue"]!.data).toEqual({ value: { EUR: 3000 }, previous: {} });
  });
});
