import { describe, expect, it } from "vitest";
import { call, create, dbOf } from "./helpers";
import { csrfOf, owner, page, signInAs, submit } from "./pages";

const count = async (workspaceId: number, table: string) =>
  (await (await dbOf(workspaceId)).prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`).bind(workspaceId).first<{ n: number }>())!.n;

describe("record pages: the form → the API's body", () => {
  it("names fields as the API does, sends money typed in major units as minor units, nested fields and references as the API takes them", async () => {
    const { ws, cookie } = await owner();
    const customer = await submit(cookie, "/app/customers/new", "/app/customers", {
      name: "Initech",
      email: "ap@initech.example",
      currency: "eur",
      "billing[city]": "Austin",
      "billing[country]": "us",
    });
    expect(customer.status, customer.text.slice(0, 500)).toBe(303);
    const customerId = Number(/\/app\/customers\/(\d+)\?done=created/.exec(customer.headers.get("location")!)![1]);
    const saved = (await call("GET", `/customers/${customerId}`, { token: ws.token })).json.data;
    expect(saved).toMatchObject({ name: "Initech", currency: "EUR", billing: { city: "Austin", country: "US" } });

    // A reference is a select of the workspace's own rows; money "1,234.5" in EUR is 123450 minor units.
    const form = await page("GET", "/app/deals/new", { cookie });
    expect(form.text).toContain(`<option value="${customerId}">Initech</option>`);
    const deal = await page("POST", "/app/deals", {
      cookie,
      form: { csrf: csrfOf(form.text), name: "Initech renewal", value: "1,234.5", currency: "EUR", customer_id: String(customerId), contact_id: "" },
    });
    expect(deal.status, deal.text.slice(0, 500)).toBe(303);
    const dealId = Number(/\/app\/deals\/(\d+)/.exec(deal.headers.get("location")!)![1]);
    expect((await call("GET", `/deals/${dealId}`, { token: ws.token })).json.data).toMatchObject({
      value: 123450,
      currency: "EUR",
      customer_id: customerId,
      contact_id: null,
    });

    // The record page shows it back in major units, the reference by name, linked.
    const shown = await page("GET", `/app/deals/${dealId}?done=created`, { cookie });
    expect(shown.text).toContain("1,234.50 EUR");
    expect(shown.text).toContain(`<a href="/app/customers/${customerId}">Initech</a>`);
    expect(shown.text).toContain("The deal was created.");

    // An edit clears a nullable field with an empty input and keeps what is not on the form.
    const edit = await page("GET", `/app/deals/${dealId}/edit`, { cookie });
    expect(edit.text).toContain('value="1234.50"');
    const updated = await page("POST", `/app/deals/${dealId}`, { cookie, form: { csrf: csrfOf(edit.text), customer_id: "", value: "99" } });
    expect(updated.status).toBe(303);
    expect((await call("GET", `/deals/${dealId}`, { token: ws.token })).json.data).toMatchObject({ value: 9900, customer_id: null, name: "Initech renewal" });
  });

  it("keeps a line's product when the invoice is edited in the lines editor (a hidden product_id per line)", async () => {
    const { ws, cookie } = await owner();
    const customer = await create(ws, "customers", { name: "Umbrella", email: "ap@umbrella.example", currency: "USD" });
    const product = await create(ws, "products", { name: "Setup fee", unit_amount: 25000, tax_rate: 10 });
    const invoice = await create(ws, "invoices", {
      customer_id: customer.id,
      items: [
        { product_id: product.id, quantity: 1 },
        { description: "Travel", quantity: 1, unit_amount: 5000 },
      ],
    });
    const edit = await page("GET", `/app/invoices/${invoice.id}/edit`, { cookie });
    expect(edit.text).toContain(`name="items[0][product_id]" data-name="product_id" value="${product.id}"`);
    expect(edit.text).not.toContain('name="items[1][product_id]"');
    const saved = await page("POST", `/app/invoices/${invoice.id}`, {
      cookie,
      form: {
        csrf: csrfOf(edit.text),
        customer_id: String(customer.id),
        "items[0][description]": "Setup fee",
        "items[0][quantity]": "2",
        "items[0][unit_amount]": "250.00",
        "items[0][tax_rate]": "10",
        "items[0][product_id]": String(product.id),
        "items[1][description]": "Travel",
        "items[1][quantity]": "1",
        "items[1][unit_amount]": "50.00",
        "items[1][tax_rate]": "0",
      },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(303);
    const items = (await call("GET", `/invoices/${invoice.id}`, { token: ws.token })).json.data.items;
    expect(items.map((item: { product_id?: number; quantity: number }) => [item.product_id ?? null, item.quantity])).toEqual([
      [product.id, 2],
      [null, 1],
    ]);
    // With the catalogue off, the editor leaves the product out (a line naming one would be refused).
    await call("PUT", "/packages/products", { token: ws.token, body: { enabled: false } });
    expect((await page("GET", `/app/invoices/${invoice.id}/edit`, { cookie })).text).not.toContain("[product_id]");
  });

  it("posts invoice lines as items[i][field] with unit prices in major units; blank rows are left out; a bad amount writes nothing", async () => {
    const { ws, cookie } = await owner();
    const customer = await create(ws, "customers", { name: "Umbrella", email: "ap@umbrella.example", currency: "USD" });
    const editor = await page("GET", "/app/invoices/new", { cookie });
    expect(editor.status).toBe(200);
    expect(editor.text).toContain('name="items[0][description]"');
    const lines = {
      customer_id: String(customer.id),
      "items[0][description]": "Design",
      "items[0][quantity]": "2",
      "items[0][unit_amount]": "125.50",
      "items[0][tax_rate]": "",
      "items[1][description]": "",
      "items[1][quantity]": "",
      "items[1][unit_amount]": "",
      "items[2][description]": "Hosting",
      "items[2][quantity]": "1",
      "items[2][unit_amount]": "10",
      "items[2][tax_rate]": "20",
    };
    const bad = await page("POST", "/app/invoices", { cookie, form: { csrf: csrfOf(editor.text), ...lines, "items[2][unit_amount]": "10.999" } });
    expect(bad.status).toBe(400);
    // Messages sit at the line's own path, after the blank row was dropped (the second line is items.1).
    expect(bad.text).toContain('id="items.1.unit_amount-error"');
    expect(bad.text).toContain('value="10.999"');
    expect(await count(ws.workspaceId, "invoices")).toBe(0);

    const made = await page("POST", "/app/invoices", { cookie, form: { csrf: csrfOf(editor.text), ...lines } });
    expect(made.status, made.text.slice(0, 500)).toBe(303);
    const id = Number(/\/app\/invoices\/(\d+)/.exec(made.headers.get("location")!)![1]);
    const invoice = (await call("GET", `/invoices/${id}`, { token: ws.token })).json.data;
    expect(
      invoice.items.map((item: { description: string; quantity: number; unit_amount: number; tax_rate: number }) => [
        item.description,
        item.quantity,
        item.unit_amount,
        item.tax_rate,
      ]),
    ).toEqual([
      ["Design", 2, 12550, 0],
      ["Hosting", 1, 1000, 20],
    ]);
    expect(invoice).toMatchObject({ subtotal: 26100, tax_total: 200, total: 26300, status: "draft" });

    // Sent from its page, then paid through the payment form its page links to (amount prefilled in major units).
    const record = await page("GET", `/app/invoices/${id}`, { cookie });
    expect(record.text).toContain("Design");
    const sent = await page("POST", `/app/invoices/${id}/send`, { cookie, form: { csrf: csrfOf(record.text), to: "" } });
    expect(sent.status, sent.text.slice(0, 400)).toBe(303);
    const after = await page("GET", `/app/invoices/${id}?done=send`, { cookie });
    expect(after.text).toContain("The invoice was sent.");
    const link = /href="(\/app\/payments\/new\?[^"]+)"/.exec(after.text)![1]!.replaceAll("&amp;", "&");
    expect(link).toContain("amount=263.00");
    const payForm = await page("GET", link, { cookie });
    expect(payForm.text).toContain('value="263.00"');
    const paid = await page("POST", "/app/payments", {
      cookie,
      form: { csrf: csrfOf(payForm.text), invoice_id: String(id), amount: "263.00", currency: "USD", method: "bank_transfer" },
    });
    expect(paid.status, paid.text.slice(0, 400)).toBe(303);
    expect((await call("GET", `/invoices/${id}`, { token: ws.token })).json.data).toMatchObject({ status: "paid", amount_due: 0 });
  });

  it("shows the API's refusals where the user can act: 400 next to the field with what was typed, 409 on the form, 404 and 403 as pages", async () => {
    const { ws, cookie } = await owner();
    const bad = await submit(cookie, "/app/contacts/new", "/app/contacts", { name: "Ada", email: "not-an-email", company: "Analytical" });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="email-error"[^>]*>must be a valid e-mail address/);
    expect(bad.text).toContain('value="not-an-email"');
    expect(bad.text).toContain('value="Analytical"');
    expect(await count(ws.workspaceId, "contacts")).toBe(0);

    await create(ws, "contacts", { name: "Ada", email: "ada@example.com" });
    const duplicate = await submit(cookie, "/app/contacts/new", "/app/contacts", { name: "Ada again", email: "ada@example.com" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.text).toContain('id="email-error"');
    expect(await count(ws.workspaceId, "contacts")).toBe(1);

    // Another workspace's record looks exactly like a missing one.
    const other = await owner();
    const theirs = await create(other.ws, "contacts", { name: "Theirs", email: "theirs@example.com" });
    expect((await page("GET", `/app/contacts/${theirs.id}`, { cookie })).status).toBe(404);
    expect((await page("GET", "/app/nowhere", { cookie })).status).toBe(404);
  });

  it("offers a viewer no create, edit or delete controls, and answers a forged POST with 403, writing nothing", async () => {
    const { ws, cookie: ownerCookie } = await owner();
    const contact = await create(ws, "contacts", { name: "Grace", email: "grace@example.com" });
    const viewer = await signInAs(ws, "viewer");
    const list = await page("GET", "/app/contacts", { cookie: viewer });
    expect(list.status).toBe(200);
    expect(list.text).toContain("Grace");
    expect(list.text).not.toContain('href="/app/contacts/new"');
    const record = await page("GET", `/app/contacts/${contact.id}`, { cookie: viewer });
    expect(record.text).not.toContain(`/app/contacts/${contact.id}/edit`);
    expect(record.text).not.toContain("/delete");
    const forged = await page("POST", "/app/contacts", { cookie: viewer, form: { csrf: csrfOf(list.text), name: "Forged", email: "forged@example.com" } });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("needs member");
    const deleted = await page("POST", `/app/contacts/${contact.id}/delete`, { cookie: viewer, form: { csrf: csrfOf(list.text) } });
    expect(deleted.status).toBe(403);
    expect(await count(ws.workspaceId, "contacts")).toBe(1);
    // And without the session's CSRF token even the owner's POST is refused.
    expect((await page("POST", "/app/contacts", { cookie: ownerCookie, form: { csrf: "forged", name: "X", email: "x@example.com" } })).status).toBe(403);
  });
});

describe("boards", () => {
  it("move a deal between stages with a form POST, and refuse a move the API refuses (won → lost) with its reason", async () => {
    const { ws, cookie } = await owner();
    const deal = await create(ws, "deals", { name: "Board deal", value: 1000 });
    const board = await page("GET", "/app/deals?view=board", { cookie });
    expect(board.status).toBe(200);
    expect(board.text).toContain('data-lane="initial_contact"');
    expect(board.text).toContain(`action="/app/deals/${deal.id}/move"`);
    const moved = await page("POST", `/app/deals/${deal.id}/move`, { cookie, form: { csrf: csrfOf(board.text), to: "won", back: "view=board" } });
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe("/app/deals?view=board&done=moved");
    expect((await call("GET", `/deals/${deal.id}`, { token: ws.token })).json.data).toMatchObject({ stage: "won", status: "won" });
    const refused = await page("POST", `/app/deals/${deal.id}/move`, { cookie, form: { csrf: csrfOf(board.text), to: "lost" } });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("Not moved");
    expect((await call("GET", `/deals/${deal.id}`, { token: ws.token })).json.data.stage).toBe("won");
    // The timeline shows the stage change the API recorded.
    const record = await page("GET", `/app/deals/${deal.id}`, { cookie });
    expect(record.text).toContain("deal stage changed");
  });

  it("complete a task through its status route", async () => {
    const { ws, cookie } = await owner();
    const project = await create(ws, "projects", { name: "P" });
    const task = await create(ws, "tasks", { title: "Ship it", project_id: project.id });
    const board = await page("GET", "/app/tasks?view=board", { cookie });
    const done = await page("POST", `/app/tasks/${task.id}/move`, { cookie, form: { csrf: csrfOf(board.text), to: "done" } });
    expect(done.status).toBe(303);
    const saved = (await call("GET", `/tasks/${task.id}`, { token: ws.token })).json.data;
    expect(saved.status).toBe("done");
    expect(saved.completed_at).not.toBeNull();
  });
});

describe("lists", () => {
  it("take the API's parameters, page with a Next link, and export every matching row as CSV with the API's field names", async () => {
    const { ws, cookie } = await owner();
    for (let i = 0; i < 27; i++)
      await create(ws, "contacts", { name: `Person ${String(i).padStart(2, "0")}`, email: `p${i}@example.com`, company: i % 2 ? "Odd" : "Even" });
    await create(ws, "contacts", { name: "=HYPERLINK(1)", email: "formula@example.com", company: "Even" });
    const first = await page("GET", "/app/contacts?company=Even&sort=name", { cookie });
    expect(first.status).toBe(200);
    expect(first.text).toContain("Person 00");
    expect(first.text).not.toContain("Person 01");
    const next = /href="([^"]+)" rel="next"/.exec(first.text);
    expect(next).toBeNull(); // 15 rows: one page
    const all = await page("GET", "/app/contacts?sort=name", { cookie });
    const more = /href="([^"]+)" rel="next"/.exec(all.text)![1]!.replaceAll("&amp;", "&");
    expect(more).toContain("cursor=");
    const second = await page("GET", more, { cookie });
    expect(second.text).toContain("Person 26");

    const csv = await page("GET", "/app/contacts.csv?company=Even", { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const rows = csv.text.trim().split("\r\n");
    expect(rows[0]).toBe("id,name,email,phone,company,created_at,updated_at");
    expect(rows).toHaveLength(1 + 15);
    // A cell a spreadsheet would run as a formula is quoted off.
    expect(csv.text).toContain(`"'=HYPERLINK(1)"`);

    // A bad filter is the API's message on the page, not a crash.
    const bad = await page("GET", "/app/contacts?created_after=yesterday", { cookie });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("ISO 8601");
    expect(ws).toBeTruthy();
  });
});

describe("CSV import", () => {
  const header = "name,email,company";
  const upload = async (cookie: string, resource: string, name: string, content: string | Uint8Array, type = "text/csv") => {
    const shown = await page("GET", `/app/${resource}/import`, { cookie });
    const form = new FormData();
    form.set("csrf", csrfOf(shown.text));
    form.set("file", new File([content], name, { type }));
    const { exports } = await import("cloudflare:workers");
    const response = await exports.default.fetch(
      new Request(`http://127.0.0.1:8787/app/${resource}/import`, {
        method: "POST",
        headers: { cookie, origin: "http://127.0.0.1:8787" },
        body: form,
        redirect: "manual",
      }),
    );
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it("previews a good file and imports it on confirmation; one bad row imports nothing and is named by its row number", async () => {
    const { ws, cookie } = await owner();
    const bad = await upload(cookie, "contacts", "people.csv", `${header}\nAda,ada@example.com,Analytical\nBob,not-an-email,\nCy,ada@example.com,\n`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Nothing was imported");
    expect(bad.text).toContain("Row 3: email: must be a valid e-mail address");
    expect(bad.text).toContain("Row 4: email: the same as row 2");
    expect(await count(ws.workspaceId, "contacts")).toBe(0);

    const good = await upload(cookie, "contacts", "people.csv", `${header}\nAda,ada@example.com,Analytical\n"Lovelace, Ada",ada2@example.com,\n`);
    expect(good.status).toBe(200);
    expect(good.text).toContain("2 rows ready to import");
    expect(await count(ws.workspaceId, "contacts")).toBe(0);
    const csv = /<textarea name="csv"[^>]*>([\s\S]*?)<\/textarea>/.exec(good.text)![1]!.replaceAll("&quot;", '"');
    const confirmed = await page("POST", "/app/contacts/import", { cookie, form: { csrf: csrfOf(good.text), confirm: "1", csv } });
    expect(confirmed.status, confirmed.text.slice(0, 400)).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/app/contacts?done=imported");
    const names = (await call("GET", "/contacts?sort=name", { token: ws.token })).json.data.map((row: { name: string }) => row.name);
    expect(names).toEqual(["Ada", "Lovelace, Ada"]);
  });

  it("keeps the import all or nothing when a row is taken meanwhile, and says what is wrong with a file that is not CSV", async () => {
    const { ws, cookie } = await owner();
    await create(ws, "contacts", { name: "Taken", email: "taken@example.com" });
    const rows = Array.from({ length: 150 }, (_, i) => `P${i},p${i}@example.com,`);
    rows[120] = "Late,taken@example.com,";
    const shown = await page("GET", "/app/contacts/import", { cookie });
    const refused = await page("POST", "/app/contacts/import", {
      cookie,
      form: { csrf: csrfOf(shown.text), confirm: "1", csv: `${header}\n${rows.join("\n")}\n` },
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("Row 122");
    // The first batch of 100 was written, then deleted again.
    expect(await count(ws.workspaceId, "contacts")).toBe(1);

    const binary = await upload(cookie, "customers", "logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), "image/png");
    expect(binary.status).toBe(400);
    expect(binary.text).toContain("is not a CSV file");
    const unknown = await upload(cookie, "customers", "c.csv", "title,price\nx,1\n");
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("The first row must name the columns");
    const big = await upload(cookie, "customers", "c.csv", `name\n${"x\n".repeat(1_100_000)}`);
    expect(big.status).toBe(413);
  });
});

describe("settings", () => {
  it("Users: add a user, change their role, remove them; the API's owner rules hold", async () => {
    const { ws, cookie } = await owner();
    const added = await submit(cookie, "/app/settings/users", "/app/settings/users", {
      name: "Grace",
      email: "grace-users@example.com",
      role: "member",
      password: "a long first password",
    });
    expect(added.status, added.text.slice(0, 300)).toBe(303);
    const users = (await call("GET", "/users", { token: ws.token })).json.data as { id: number; email: string; role: string }[];
    const grace = users.find((user) => user.email === "grace-users@example.com")!;
    expect(grace.role).toBe("member");
    expect((await submit(cookie, "/app/settings/users", `/app/settings/users/${grace.id}`, { role: "admin" })).status).toBe(303);
    expect((await call("GET", "/users", { token: ws.token })).json.data.find((user: { id: number }) => user.id === grace.id).role).toBe("admin");
    const short = await submit(cookie, "/app/settings/users", "/app/settings/users", {
      name: "X",
      email: "x-users@example.com",
      role: "member",
      password: "short",
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('id="password-error"');
    expect((await submit(cookie, "/app/settings/users", `/app/settings/users/${grace.id}/remove`, {})).status).toBe(303);
    expect((await call("GET", "/users", { token: ws.token })).json.data.some((user: { id: number }) => user.id === grace.id)).toBe(false);
  });
});

describe("the dashboard", () => {
  it("links each widget to its list and gives comparable stats their previous period; a new workspace gets its first steps instead of empty cards", async () => {
    const { ws, cookie } = await owner();
    const fresh = await page("GET", "/app", { cookie });
    expect(fresh.text).toContain("Getting started");
    expect(fresh.text).toContain('href="/app/customers/new"');
    expect(fresh.text).not.toContain('data-widget="account.revenue"');

    const customer = await create(ws, "customers", { name: "C" });
    await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "x", quantity: 1, unit_amount: 100 }] });
    const dashboard = (await call("GET", "/dashboard?period=30d", { token: ws.token })).json.data as {
      key: string;
      link: string | null;
      data: { previous?: unknown };
    }[];
    const revenue = dashboard.find((widget) => widget.key === "account.revenue")!;
    expect(revenue.link).toMatch(/^\/app\/payments\?paid_after=/);
    expect(revenue.data.previous).toEqual({});
    expect(dashboard.find((widget) => widget.key === "hrm.headcount")!.data.previous).toBeNull();
    expect(dashboard.find((widget) => widget.key === "account.overdue_invoices")!.link).toBe("/app/invoices?overdue=true");
    const today = new Date().toISOString().slice(0, 10);
    const shown = await page("GET", `/app?from=2026-01-01&to=${today}`, { cookie });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`2026-01-01 – ${today}`);
    expect(shown.text).toContain('href="/app/invoices?overdue=true"');
    expect(shown.text).toContain('data-widget="account.invoices_by_status"');
    expect((await page("GET", "/app?from=2026-02-01&to=2026-01-01", { cookie })).status).toBe(400);
  });
});
