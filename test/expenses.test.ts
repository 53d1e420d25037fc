import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call, create, expectError, freshIp, recordedEvents, setPlan, signup, userWithRole, type Workspace } from "./helpers";

/** A real PNG's first bytes (signature + IHDR): what file-type reads to say image/png. */
const PNG = Uint8Array.from(
  Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f60000000049454e44ae426082",
    "hex",
  ),
);
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

async function upload(token: string, id: number, body: Uint8Array | string, contentType = "image/png", query = "") {
  const res = await exports.default.fetch(
    new Request(`${BASE}/expenses/${id}/receipt${query}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": contentType, "cf-connecting-ip": freshIp() },
      body,
    }),
  );
  const text = await res.text();
  return { status: res.status, json: text.startsWith("{") ? JSON.parse(text) : null, text };
}

async function download(token: string, id: number) {
  return exports.default.fetch(new Request(`${BASE}/expenses/${id}/receipt`, { headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": freshIp() } }));
}

async function company(name = "Spend Co") {
  const ws = await signup(name);
  await setPlan(ws, "enterprise");
  const vendor = await create(ws, "vendors", { name: "Rail Co", email: "tickets@rail.example", currency: "EUR" });
  const project = await create(ws, "projects", { name: "Client rollout" });
  const employee = await create(ws, "employees", { name: "Ana Lopez", email: "ana@spend.example" });
  return { ws, vendor, project, employee };
}

const expense = (ws: Workspace, body: Record<string, unknown>) => create(ws, "expenses", { category: "Travel", amount: 8_900, date: "2026-11-02", ...body });

describe("expenses", () => {
  it("are submitted with the vendor's currency by default, filtered, and approved by admins only (expense.approved once)", async () => {
    const { ws, vendor, project, employee } = await company();
    const train = await expense(ws, { vendor_id: vendor.id, project_id: project.id, billable: true, employee_id: employee.id, description: "Train" });
    expect(train).toMatchObject({ status: "submitted", currency: "EUR", billable: true, project_id: project.id, receipt: null });
    const lunch = await expense(ws, { category: "Meals", amount: 2_400, currency: "USD" });
    expect(lunch.currency).toBe("USD");
    expect((await expense(ws, { category: "Office" })).currency).toBe("USD"); // no vendor: the workspace's
    const meals = await call("GET", "/expenses?category=meals", { token: ws.token });
    expect(meals.json.data.map((e: { id: number }) => e.id)).toEqual([lunch.id]);
    expect((await call("GET", `/expenses?vendor_id=${vendor.id}&date_from=2026-11-01&date_to=2026-11-30`, { token: ws.token })).json.data).toHaveLength(1);

    const member = await userWithRole(ws, "member");
    expectError(await call("POST", `/expenses/${train.id}/approve`, { token: member }), 403, "forbidden");
    const approved = await call("POST", `/expenses/${train.id}/approve`, { token: ws.token });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json.data.status).toBe("approved");
    expect(expectError(await call("POST", `/expenses/${train.id}/approve`, { token: ws.token }), 409, "invalid_transition").details[0]).toMatchObject({
      from: "approved",
      allowed_from: ["submitted", "rejected"],
    });
    expectError(await call("POST", `/expenses/${lunch.id}/reimburse`, { token: ws.token }), 409, "invalid_transition");
    expect((await call("POST", `/expenses/${train.id}/reimburse`, { token: ws.token })).json.data.status).toBe("reimbursed");
    expect((await recordedEvents(ws.workspaceId, "expense.approved")).map((event) => event.data.id)).toEqual([train.id]);
    // An approved expense's amount is locked; it cannot be deleted.
    expectError(await call("PATCH", `/expenses/${train.id}`, { token: ws.token, body: { amount: 1 } }), 409, "conflict");
    expectError(await call("DELETE", `/expenses/${train.id}`, { token: ws.token }), 409, "conflict");
    // A member submits; status is not theirs to write.
    expect((await call("POST", "/expenses", { token: member, body: { category: "Taxi", amount: 1_500, date: "2026-11-03" } })).status).toBe(201);
    expectError(await call("PATCH", `/expenses/${lunch.id}`, { token: ws.token, body: { status: "approved" } }), 400, "validation_error");
  });

  it("refuse bad input with nothing written: billable without a project, another workspace's vendor, project or employee", async () => {
    const { ws } = await company();
    const other = await company("Other Spend");
    const before = (await call("GET", "/expenses?include_total=true", { token: ws.token })).json.meta.total;
    const billable = expectError(
      await call("POST", "/expenses", { token: ws.token, body: { category: "Travel", amount: 1, date: "2026-11-02", billable: true } }),
      400,
      "validation_error",
    );
    expect(billable.details[0].path).toBe("project_id");
    for (const field of ["vendor_id", "project_id", "employee_id"] as const) {
      const id = { vendor_id: other.vendor.id, project_id: other.project.id, employee_id: other.employee.id }[field];
      const refused = expectError(
        await call("POST", "/expenses", { token: ws.token, body: { category: "Travel", amount: 1, date: "2026-11-02", [field]: id } }),
        400,
        "validation_error",
      );
      expect(refused.details[0].path).toBe(field);
    }
    expectError(await call("POST", "/expenses", { token: ws.token, body: { category: "Travel", amount: 0, date: "2026-11-02" } }), 400, "validation_error");
    // A project while projects (taskly) are switched off.
    for (const name of ["timesheets", "taskly"])
      expect((await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } })).status).toBe(200);
    const projects = (await call("GET", "/expenses?include_total=true", { token: ws.token })).json.meta.total;
    const off = expectError(
      await call("POST", "/expenses", { token: ws.token, body: { category: "Travel", amount: 1, date: "2026-11-02", project_id: 1 } }),
      400,
      "validation_error",
    );
    expect(off.details[0]).toMatchObject({ path: "project_id", message: expect.stringContaining("taskly") });
    expect((await call("GET", "/expenses?include_total=true", { token: ws.token })).json.meta.total).toBe(projects);
    expect((await call("GET", "/expenses?include_total=true", { token: ws.token })).json.meta.total).toBe(before);
  });

  it("keep a receipt in R2 only when its bytes are an image or a PDF of at most 10 MiB, and give it back to the workspace alone", async () => {
    const { ws } = await company();
    const taxi = await expense(ws, { category: "Taxi" });
    const key = `w/${ws.workspaceId}/expenses/${taxi.id}/receipt`;

    // A text file claiming to be a PNG, an empty body, a file over 10 MiB: refused, nothing stored.
    const text = await upload(ws.token, taxi.id, "just some words, not a picture", "image/png");
    expect(text.status, text.text).toBe(400);
    expect(text.json.error.details[0].path).toBe("body");
    expect((await upload(ws.token, taxi.id, new Uint8Array(), "image/png")).status).toBe(400);
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(PNG);
    const tooBig = await upload(ws.token, taxi.id, huge, "image/png");
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error.code).toBe("payload_too_large");
    expect(await env.FILES.head(key)).toBeNull();

    // A PNG sent as octet-stream: stored as what its bytes are.
    const stored = await upload(ws.token, taxi.id, PNG, "application/octet-stream", "?filename=taxi.png");
    expect(stored.status, stored.text).toBe(200);
    expect(stored.json.data.receipt).toMatchObject({
      content_type: "image/png",
      size: PNG.byteLength,
      filename: "taxi.png",
      url: `/api/v1/expenses/${taxi.id}/receipt`,
    });
    expect((await env.FILES.head(key))?.size).toBe(PNG.byteLength);
    const back = await download(ws.token, taxi.id);
    expect(back.status).toBe(200);
    expect(back.headers.get("content-type")).toBe("image/png");
    expect(back.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(PNG);
    // The approval event carries the receipt as the API shows it.
    await call("POST", `/expenses/${taxi.id}/approve`, { token: ws.token });
    expect((await recordedEvents(ws.workspaceId, "expense.approved"))[0]!.data.receipt).toMatchObject({ content_type: "image/png", filename: "taxi.png" });
    await call("POST", `/expenses/${taxi.id}/reject`, { token: ws.token });
    // A PDF replaces it; a viewer may read it but not write it.
    expect((await upload(ws.token, taxi.id, PDF, "application/pdf")).json.data.receipt.content_type).toBe("application/pdf");
    const viewer = await userWithRole(ws, "viewer");
    expect((await download(viewer, taxi.id)).status).toBe(200);
    expect((await upload(viewer, taxi.id, PNG)).status).toBe(403);

    // Another workspace: 404 both ways, and its own expense with the same id path never reaches this object.
    const stranger = await signup("Stranger");
    expect((await download(stranger.token, taxi.id)).status).toBe(404);
    expect((await upload(stranger.token, taxi.id, PNG)).status).toBe(404);
    expect(await env.FILES.head(`w/${stranger.workspaceId}/expenses/${taxi.id}/receipt`)).toBeNull();

    // Removing the receipt, and deleting an expense, take the file out of R2.
    expect((await call("DELETE", `/expenses/${taxi.id}/receipt`, { token: ws.token })).json.data.receipt).toBeNull();
    expect(await env.FILES.head(key)).toBeNull();
    expect((await download(ws.token, taxi.id)).status).toBe(404);
    await upload(ws.token, taxi.id, PNG);
    expect((await call("DELETE", `/expenses/${taxi.id}`, { token: ws.token })).status).toBe(200);
    expect(await env.FILES.head(key)).toBeNull();
  });

  it("show spend by category and profit on the dashboard, and answer it in words", async () => {
    const { ws } = await company("Profit Co");
    const customer = await create(ws, "customers", { name: "Acme", email: "ap@acme.example", currency: "USD" });
    const invoice = await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "Work", quantity: 1, unit_amount: 100_000 }] });
    await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token });
    expect((await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoice.id, amount: 100_000 } })).status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const spent = [
      await expense(ws, { category: "Travel", amount: 30_000, currency: "USD", date: today }),
      await expense(ws, { category: "Travel", amount: 5_000, currency: "USD", date: today }),
      await expense(ws, { category: "Software", amount: 12_000, currency: "USD", date: today }),
    ];
    await expense(ws, { category: "Software", amount: 99_999, currency: "USD", date: today }); // submitted: not spent yet
    for (const { id } of spent) expect((await call("POST", `/expenses/${id}/approve`, { token: ws.token })).status).toBe(200);
    const byCategory = await call("GET", "/dashboard/widgets/expenses.by_category?period=30d", { token: ws.token });
    expect(byCategory.status, byCategory.text).toBe(200);
    expect(byCategory.json.data.data.items).toEqual([
      { label: "Travel", value: { USD: 35_000 } },
      { label: "Software", value: { USD: 12_000 } },
    ]);
    const profit = await call("GET", "/dashboard/widgets/account.profit?period=30d", { token: ws.token });
    expect(profit.json.data).toMatchObject({ key: "account.profit", package: "expenses", data: { value: { USD: 100_000 - 47_000 } } });
    const answer = await call("POST", "/assistant/messages", { token: ws.token, body: { message: "expenses by category this month" } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data.reply.text).toMatch(/Travel/);
    expect(answer.json.data.reply.text).toMatch(/350\.00/);
    // Switched off: its routes, its widgets and its words are gone; its data stays.
    expect((await call("PUT", "/packages/expenses", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await call("GET", "/expenses", { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/dashboard/widgets/account.profit", { token: ws.token }), 403, "package_disabled");
    expect((await call("PUT", "/packages/expenses", { token: ws.token, body: { enabled: true } })).status).toBe(200);
    expect((await call("GET", "/expenses", { token: ws.token })).json.data).toHaveLength(4);
  });
});
