import { describe, expect, it } from "vitest";
import { call, create, env, expectError, recordedEvents, setPlan, signup, userWithRole, type Workspace } from "./helpers";

/** A minimal valid create body per resource, given the ids of rows it may reference in the same workspace. */
type Refs = { customer: number; contact: number; project: number; employee: number };
const bodies: Record<string, (refs: Refs, n: number) => Record<string, unknown>> = {
  contacts: (_, n) => ({ name: `Contact ${n}`, email: `contact${n}@example.com` }),
  customers: (_, n) => ({ name: `Customer ${n}` }),
  employees: (_, n) => ({ name: `Employee ${n}`, email: `employee${n}@example.com` }),
  leads: (_, n) => ({ name: `Lead ${n}`, email: `lead${n}@example.com` }),
  deals: (refs, n) => ({ name: `Deal ${n}`, value: 1000 * n, customer_id: refs.customer, contact_id: refs.contact }),
  projects: (refs, n) => ({ name: `Project ${n}`, customer_id: refs.customer }),
  tasks: (refs, n) => ({ title: `Task ${n}`, project_id: refs.project, assignee_id: refs.employee }),
  invoices: (refs) => ({ customer_id: refs.customer, items: [{ description: "Work", quantity: 1, unit_amount: 100 }] }),
};
const updates: Record<string, Record<string, unknown>> = {
  contacts: { company: "Renamed Inc" },
  customers: { tax_id: "DE123" },
  employees: { department: "Ops" },
  leads: { status: "contacted" },
  deals: { value: 5 },
  projects: { status: "on_hold" },
  tasks: { priority: "high" },
  invoices: { notes: "updated" },
};

async function seed(ws: Workspace): Promise<Refs> {
  const customer = await create(ws, "customers", { name: "Seed customer", email: "seed@example.com" });
  const contact = await create(ws, "contacts", { name: "Seed contact", email: `seed-${ws.workspaceId}@example.com` });
  const project = await create(ws, "projects", { name: "Seed project" });
  const employee = await create(ws, "employees", { name: "Seed employee", email: `seed-${ws.workspaceId}@example.com` });
  return { customer: customer.id, contact: contact.id, project: project.id, employee: employee.id };
}

describe("every resource", () => {
  it("creates, reads, updates, lists and deletes", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const refs = await seed(ws);
    for (const [resource, body] of Object.entries(bodies)) {
      const created = await create(ws, resource, body(refs, 1));
      expect(created).toMatchObject({ id: expect.any(Number), created_at: expect.any(String), updated_at: expect.any(String) });
      const got = await call("GET", `/${resource}/${created.id}`, { token: ws.token });
      expect(got.json.data, resource).toEqual(created);
      const updated = await call("PUT", `/${resource}/${created.id}`, { token: ws.token, body: updates[resource] });
      expect(updated.status, `${resource}: ${updated.text}`).toBe(200);
      expect(updated.json.data, resource).toMatchObject(updates[resource]!);
      const listed = await call("GET", `/${resource}?limit=100`, { token: ws.token });
      expect(
        listed.json.data.map((r: { id: number }) => r.id),
        resource,
      ).toContain(created.id);
      const deleted = await call("DELETE", `/${resource}/${created.id}`, { token: ws.token });
      expect(deleted.json, `${resource}: ${deleted.text}`).toEqual({ success: true, data: { id: created.id, deleted: true } });
      expectError(await call("GET", `/${resource}/${created.id}`, { token: ws.token }), 404, "not_found");
    }
  });

  it("keeps every resource of workspace B out of workspace A's reach, references included", async () => {
    const a = await signup("A");
    const b = await signup("B");
    await setPlan(a, "enterprise");
    await setPlan(b, "enterprise");
    const aRefs = await seed(a);
    const bRefs = await seed(b);
    for (const [resource, body] of Object.entries(bodies)) {
      const theirs = await create(b, resource, body(bRefs, 2));
      expectError(await call("GET", `/${resource}/${theirs.id}`, { token: a.token }), 404, "not_found");
      expectError(await call("PUT", `/${resource}/${theirs.id}`, { token: a.token, body: updates[resource] }), 404, "not_found");
      expectError(await call("DELETE", `/${resource}/${theirs.id}`, { token: a.token }), 404, "not_found");
      const list = await call("GET", `/${resource}?limit=100`, { token: a.token });
      expect(
        list.json.data.map((r: { id: number }) => r.id),
        resource,
      ).not.toContain(theirs.id);
      if (resource !== "invoices") {
        const batch = await call("POST", `/${resource}/batch`, { token: a.token, body: { operations: [{ op: "delete", id: theirs.id }] } });
        expect(expectError(batch, 400, "validation_error").details[0].path, resource).toBe("operations.0.id");
      }
      expect((await call("GET", `/${resource}/${theirs.id}`, { token: b.token })).status).toBe(200);
    }
    // References to B's rows from A's writes are refused on the field, and nothing is written.
    const foreign: [string, Record<string, unknown>, string][] = [
      ["invoices", bodies.invoices!({ ...aRefs, customer: bRefs.customer }, 3), "customer_id"],
      ["deals", { name: "x", customer_id: bRefs.customer }, "customer_id"],
      ["deals", { name: "x", contact_id: bRefs.contact }, "contact_id"],
      ["projects", { name: "x", customer_id: bRefs.customer }, "customer_id"],
      ["tasks", { title: "x", project_id: bRefs.project }, "project_id"],
      ["tasks", { title: "x", project_id: aRefs.project, assignee_id: bRefs.employee }, "assignee_id"],
    ];
    for (const [resource, body, field] of foreign) {
      const error = expectError(await call("POST", `/${resource}`, { token: a.token, body }), 400, "validation_error");
      expect(error.details, `${resource}.${field}`).toEqual([{ path: field, message: expect.stringContaining("no ") }]);
    }
    const updateRef = await call("PUT", `/tasks/${(await create(a, "tasks", { title: "mine", project_id: aRefs.project })).id}`, {
      token: a.token,
      body: { project_id: bRefs.project },
    });
    expectError(updateRef, 400, "validation_error");
    const payment = await call("POST", "/payments", { token: a.token, body: { invoice_id: 999999, amount: 1 } });
    expectError(payment, 400, "validation_error");
  });

  it("refuses writes from viewers and API tokens without the resource's scope", async () => {
    const ws = await signup();
    const viewer = await userWithRole(ws, "viewer");
    const refs = await seed(ws);
    const tasksOnly = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "t", scopes: ["tasks:write"] } })).json.data.token;
    for (const [resource, body] of Object.entries(bodies)) {
      expect((await call("GET", `/${resource}`, { token: viewer })).status, resource).toBe(200);
      expectError(await call("POST", `/${resource}`, { token: viewer, body: body(refs, 9) }), 403, "forbidden");
      if (resource !== "tasks") expectError(await call("GET", `/${resource}`, { token: tasksOnly }), 403, "forbidden");
    }
    expect((await call("GET", "/tasks", { token: tasksOnly })).status).toBe(200);
  });
});

describe("filters", () => {
  it("filters employees by department, designation, branch, status and joining date", async () => {
    const ws = await signup();
    await create(ws, "employees", { name: "Ann", email: "ann@x.co", department: "Eng", designation: "Dev", branch: "Berlin", date_of_joining: "2024-01-10" });
    await create(ws, "employees", {
      name: "Bob",
      email: "bob@x.co",
      department: "Eng",
      designation: "Lead",
      branch: "Paris",
      status: "inactive",
      date_of_joining: "2025-06-01",
    });
    await create(ws, "employees", { name: "Cid", email: "cid@x.co", department: "Sales", branch: "Berlin", status: "left", date_of_joining: "2023-03-03" });
    const names = async (query: string) => {
      const res = await call("GET", `/employees?${query}`, { token: ws.token });
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((e: { name: string }) => e.name).sort();
    };
    expect(await names("department=Eng")).toEqual(["Ann", "Bob"]);
    expect(await names("designation=Lead")).toEqual(["Bob"]);
    expect(await names("branch=Berlin")).toEqual(["Ann", "Cid"]);
    expect(await names("status=inactive,left")).toEqual(["Bob", "Cid"]);
    expect(await names("joined_after=2024-01-10")).toEqual(["Ann", "Bob"]);
    expect(await names("joined_before=2024-01-09")).toEqual(["Cid"]);
    expect(await names("sort=date_of_joining")).toEqual(["Ann", "Bob", "Cid"]);
    expect((await call("GET", "/employees?sort=date_of_joining", { token: ws.token })).json.data.map((e: { name: string }) => e.name)).toEqual([
      "Cid",
      "Ann",
      "Bob",
    ]);
    expectError(await call("GET", "/employees?status=retired", { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", "/employees?joined_after=2024-13-01", { token: ws.token }), 400, "validation_error");
    const today = new Date().toISOString().slice(0, 10);
    expect((await create(ws, "employees", { name: "Dee", email: "dee@x.co" })).date_of_joining).toBe(today);
    expectError(await call("POST", "/employees", { token: ws.token, body: { name: "Ann 2", email: "ANN@x.co" } }), 409, "conflict");
  });

  it("filters leads by status and source, deals by stage and status, projects by status and customer", async () => {
    const ws = await signup();
    await create(ws, "leads", { name: "L1", email: "l1@x.co", source: "web", value: 100, currency: "eur" });
    await create(ws, "leads", { name: "L2", email: "l2@x.co", source: "referral", status: "qualified" });
    const ids = async (path: string) => (await call("GET", path, { token: ws.token })).json.data.map((r: { name: string }) => r.name).sort();
    expect(await ids("/leads?status=new")).toEqual(["L1"]);
    expect(await ids("/leads?source=referral")).toEqual(["L2"]);
    expect((await call("GET", "/leads?source=web", { token: ws.token })).json.data[0]).toMatchObject({ value: 100, currency: "EUR", status: "new" });

    await create(ws, "deals", { name: "D1", stage: "meeting" });
    await create(ws, "deals", { name: "D2", stage: "won" });
    await create(ws, "deals", { name: "D3" });
    expect(await ids("/deals?stage=meeting")).toEqual(["D1"]);
    expect(await ids("/deals?status=open")).toEqual(["D1", "D3"]);
    expect(await ids("/deals?status=won,lost")).toEqual(["D2"]);

    const customer = await create(ws, "customers", { name: "C" });
    await create(ws, "projects", { name: "P1", customer_id: customer.id });
    await create(ws, "projects", { name: "P2", status: "completed" });
    expect(await ids(`/projects?customer_id=${customer.id}`)).toEqual(["P1"]);
    expect(await ids("/projects?status=completed")).toEqual(["P2"]);
    expectError(
      await call("POST", "/projects", { token: ws.token, body: { name: "bad", start_date: "2026-02-01", end_date: "2026-01-01" } }),
      400,
      "validation_error",
    );
  });

  it("filters tasks by project, status, priority, assignee and sorts by due date with undated last", async () => {
    const ws = await signup();
    const p1 = await create(ws, "projects", { name: "P1" });
    const p2 = await create(ws, "projects", { name: "P2" });
    const emp = await create(ws, "employees", { name: "E", email: "e@x.co" });
    await create(ws, "tasks", { title: "T1", project_id: p1.id, priority: "urgent", due_date: "2026-12-01" });
    await create(ws, "tasks", { title: "T2", project_id: p1.id, status: "review", assignee_id: emp.id, due_date: "2026-11-30" });
    await create(ws, "tasks", { title: "T3", project_id: p2.id });
    const titles = async (query: string, sorted = true) => {
      const res = await call("GET", `/tasks?${query}`, { token: ws.token });
      expect(res.status, res.text).toBe(200);
      const list = res.json.data.map((t: { title: string }) => t.title);
      return sorted ? list.sort() : list;
    };
    expect(await titles(`project_id=${p1.id}`)).toEqual(["T1", "T2"]);
    expect(await titles("status=review")).toEqual(["T2"]);
    expect(await titles("priority=urgent,low")).toEqual(["T1"]);
    expect(await titles(`assignee_id=${emp.id}`)).toEqual(["T2"]);
    expect(await titles("sort=due_date", false)).toEqual(["T2", "T1", "T3"]);
    expect(await titles("sort=-due_date", false)).toEqual(["T3", "T1", "T2"]);
    expect(await titles("sort=due_date&q=t3", false)).toEqual(["T3"]);
  });
});

describe("events from writes", () => {
  it("fires employee.onboarded once per created employee, batches included", async () => {
    const ws = await signup();
    await create(ws, "employees", { name: "Solo", email: "solo@x.co" });
    await call("POST", "/employees/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "create", data: { name: "A", email: "a@x.co" } },
          { op: "create", data: { name: "B", email: "b@x.co" } },
        ],
      },
    });
    await call("PUT", `/employees/${(await call("GET", "/employees?limit=1", { token: ws.token })).json.data[0].id}`, {
      token: ws.token,
      body: { branch: "X" },
    });
    const events = await recordedEvents(ws.workspaceId, "employee.onboarded");
    expect(events.map((e) => e.data.name)).toEqual(["Solo", "A", "B"]);
    const ids = (await call("GET", "/employees?sort=id", { token: ws.token })).json.data.map((e: { id: number }) => e.id);
    expect(events.map((e) => e.data.id)).toEqual(ids);
  });
});

describe("packages", () => {
  it("lists the catalogue and answers a disabled package's routes with package_disabled", async () => {
    const ws = await signup();
    const member = await userWithRole(ws, "member");
    expectError(await call("PUT", "/packages/sales", { token: member, body: { enabled: false } }), 403, "forbidden");
    for (const name of ["quotes", "helpdesk"]) await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } }); // both need sales
    expect((await call("PUT", "/packages/sales", { token: ws.token, body: { enabled: false } })).json.data).toMatchObject({ name: "sales", enabled: false });
    expect((await call("PUT", "/packages/hrm", { token: ws.token, body: { enabled: false } })).status).toBe(409); // recruitment, timesheets, leave, attendance need it
    for (const name of ["recruitment", "timesheets", "leave", "attendance", "hrm"])
      expect((await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } })).json.data.enabled).toBe(false);
    for (const path of ["/contacts", "/leads", "/deals", "/employees"]) expectError(await call("GET", path, { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/contacts", { token: member }), 403, "package_disabled");
    expect((await call("GET", "/customers", { token: ws.token })).status).toBe(200);
    await call("PUT", "/packages/sales", { token: ws.token, body: { enabled: true } });
    expect((await call("GET", "/contacts", { token: ws.token })).status).toBe(200);
    expect(
      (await call("GET", "/packages", { token: ws.token })).json.data.filter((p: { enabled: boolean }) => !p.enabled).map((p: { name: string }) => p.name),
    ).toEqual([
      "hrm",
      "recruitment",
      "timesheets",
      "quotes",
      "leave",
      "attendance",
      "helpdesk",
      "hrm-pro",
      "sales-pro",
      "accounting-pro",
      "project-management-pro",
    ]);
    expectError(await call("PUT", "/packages/crm", { token: ws.token, body: { enabled: true } }), 404, "not_found");
  });
});

describe("query plans", () => {
  it("serves every list and lookup through an index that starts with workspace_id", async () => {
    const queries = [
      "SELECT * FROM employees WHERE workspace_id = 1 AND department = 'x' ORDER BY id DESC LIMIT 26",
      "SELECT * FROM employees WHERE workspace_id = 1 ORDER BY date_of_joining, id LIMIT 26",
      "SELECT * FROM leads WHERE workspace_id = 1 AND status = 'new' ORDER BY id DESC LIMIT 26",
      "SELECT * FROM deals WHERE workspace_id = 1 ORDER BY value DESC, id DESC LIMIT 26",
      "SELECT * FROM deals WHERE workspace_id = 1 AND stage = 'won' ORDER BY id DESC LIMIT 26",
      "SELECT * FROM customers WHERE workspace_id = 1 AND billing_country = 'US' ORDER BY id DESC LIMIT 26",
      "SELECT * FROM projects WHERE workspace_id = 1 ORDER BY id DESC LIMIT 26",
      "SELECT project_id, count(*), sum(status = 'done') FROM tasks WHERE workspace_id = 1 AND project_id IN (1, 2, 3) AND deleted_at IS NULL GROUP BY project_id",
      "SELECT * FROM tasks WHERE workspace_id = 1 AND deleted_at IS NULL ORDER BY coalesce(tasks.due_date, '9999-12-31'), id LIMIT 26",
      "SELECT * FROM tasks WHERE workspace_id = 1 AND project_id = 3 AND deleted_at IS NULL ORDER BY id DESC LIMIT 26",
      "SELECT * FROM invoices WHERE workspace_id = 1 ORDER BY coalesce(invoices.due_date, '9999-12-31') DESC, id DESC LIMIT 26",
      "SELECT * FROM invoices WHERE workspace_id = 1 AND status IN ('sent', 'paid') ORDER BY id DESC LIMIT 26",
      "SELECT customer_id, sum(total - amount_paid) FROM invoices WHERE workspace_id = 1 AND customer_id IN (1, 2) AND status IN ('sent', 'partially_paid') GROUP BY customer_id",
      "SELECT * FROM payments WHERE workspace_id = 1 AND invoice_id = 4 ORDER BY id DESC LIMIT 26",
      "SELECT * FROM payments WHERE workspace_id = 1 ORDER BY paid_at, id LIMIT 26",
    ];
    for (const query of queries) {
      const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${query}`).all<{ detail: string }>()).results.map((r) => r.detail).join(" | ");
      expect(plan, query).toMatch(/USING (COVERING )?INDEX \w+_workspace_\w+ \(workspace_id=\?/);
      expect(plan, query).not.toMatch(/SCAN|TEMP B-TREE FOR ORDER BY/);
    }
  });
});
