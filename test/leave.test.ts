import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../src/platform/time";
import { call, create, dbOf, expectError, recordedEvents, setPlan, signup, userWithRole, type Workspace } from "./helpers";
import { page, signIn } from "./pages";

const realNow = clock.now;
/** Moves the worker's clock to a UTC moment ("2026-11-18 09:20"). */
const at = (moment: string) => {
  const ms = Date.parse(`${moment.replace(" ", "T")}:00Z`);
  clock.now = () => ms;
};
afterEach(() => {
  clock.now = realNow;
});

// November 2026: Monday the 2nd, Saturday the 7th, Wednesday the 11th (a holiday below), Monday the 16th.
async function company(name = "Leave Co") {
  const ws = await signup(name);
  await setPlan(ws, "enterprise");
  const ada = await create(ws, "employees", { name: "Ada", email: `ada@${name.replaceAll(" ", "").toLowerCase()}.example` });
  const bob = await create(ws, "employees", { name: "Bob", email: `bob@${name.replaceAll(" ", "").toLowerCase()}.example` });
  const annual = await create(ws, "leave-types", { name: "Annual leave", days_per_year: 10 });
  const sick = await create(ws, "leave-types", { name: "Sick leave", days_per_year: 5, paid: true });
  await create(ws, "holidays", { date: "2026-11-11", name: "Armistice Day" });
  return { ws, ada, bob, annual, sick };
}

const ask = (ws: Workspace | string, body: Record<string, unknown>) => call("POST", "/leave-requests", { token: typeof ws === "string" ? ws : ws.token, body });
const act = (token: string, id: number, action: "approve" | "reject" | "cancel") => call("POST", `/leave-requests/${id}/${action}`, { token });
const total = async (ws: Workspace, query = "") => (await call("GET", `/leave-requests?include_total=true${query}`, { token: ws.token })).json.meta.total;

describe("leave", () => {
  it("keeps leave types and holidays: allowances in half days, one holiday per date", async () => {
    const { ws, annual } = await company();
    expect(annual).toMatchObject({ name: "Annual leave", days_per_year: 10, paid: true });
    expect((await create(ws, "leave-types", { name: "Unpaid", days_per_year: 20.5, paid: false })).paid).toBe(false);
    for (const days_per_year of [-1, 367, 2.25, "5"])
      expectError(await call("POST", "/leave-types", { token: ws.token, body: { name: "Odd", days_per_year } }), 400, "validation_error");
    expectError(await call("POST", "/leave-types", { token: ws.token, body: { name: "No days" } }), 400, "validation_error");
    const twice = expectError(await call("POST", "/holidays", { token: ws.token, body: { date: "2026-11-11", name: "Again" } }), 409, "conflict");
    expect(twice.details[0].path).toBe("date");
    expectError(await call("POST", "/holidays", { token: ws.token, body: { date: "2026-11-31", name: "No such day" } }), 400, "validation_error");
    // Allowances and holidays are admins' to set; members and viewers read them.
    const member = await userWithRole(ws, "member");
    expectError(await call("POST", "/leave-types", { token: member, body: { name: "Extra", days_per_year: 99 } }), 403, "forbidden");
    expectError(await call("PATCH", `/leave-types/${annual.id}`, { token: member, body: { days_per_year: 99 } }), 403, "forbidden");
    expectError(await call("POST", "/holidays", { token: member, body: { date: "2026-11-12", name: "Mine" } }), 403, "forbidden");
    expect((await call("GET", "/holidays", { token: member })).json.data).toHaveLength(1);
    // Another workspace has its own holidays on the same date.
    const other = await signup("Other Leave");
    await setPlan(other, "enterprise");
    expect((await call("POST", "/holidays", { token: other.token, body: { date: "2026-11-11", name: "Armistice Day" } })).status).toBe(201);
  });

  it("counts working days: weekends and holidays are not leave, a half day is 0.5", async () => {
    const { ws, ada, bob, annual } = await company();
    // Thu 5 → Thu 12: Thu, Fri, (Sat, Sun), Mon, Tue, (Wed holiday), Thu.
    const week = await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-05", end_date: "2026-11-12", reason: "Trip" });
    expect(week.status, week.text).toBe(201);
    expect(week.json.data).toMatchObject({ status: "pending", days: 5, half_day: false, reason: "Trip", decided_at: null });
    const half = await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-16", end_date: "2026-11-16", half_day: true });
    expect(half.status, half.text).toBe(201);
    expect(half.json.data).toMatchObject({ days: 0.5, half_day: true });
    // A single day.
    expect((await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-18", end_date: "2026-11-18" })).json.data.days).toBe(1);

    const refused = async (body: Record<string, unknown>, path: string, message: RegExp) => {
      const error = expectError(await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, ...body }), 400, "validation_error");
      expect(error.details[0].path).toBe(path);
      expect(error.details[0].message).toMatch(message);
    };
    const before = await total(ws);
    await refused({ start_date: "2026-11-19", end_date: "2026-11-20", half_day: true }, "half_day", /single day/);
    await refused({ start_date: "2026-11-20", end_date: "2026-11-19" }, "end_date", /before start_date/);
    await refused({ start_date: "2026-12-28", end_date: "2027-01-04" }, "end_date", /split it at the new year/);
    // Nothing to take leave from: a weekend, a holiday, a half day on a Saturday.
    await refused({ start_date: "2026-11-07", end_date: "2026-11-08" }, "start_date", /covers no working day/);
    await refused({ start_date: "2026-11-11", end_date: "2026-11-11" }, "start_date", /not a working day/);
    await refused({ start_date: "2026-11-21", end_date: "2026-11-21", half_day: true }, "start_date", /not a working day/);
    // days and status are not input.
    expectError(
      await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-19", end_date: "2026-11-19", days: 3 }),
      400,
      "validation_error",
    );
    expectError(
      await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-19", end_date: "2026-11-19", status: "approved" }),
      400,
      "validation_error",
    );
    expect(await total(ws)).toBe(before);
  });

  it("refuses employees who left and another workspace's employees, types and requests", async () => {
    const { ws, ada, annual } = await company();
    const gone = await create(ws, "employees", { name: "Gone", email: "gone@leave.example", status: "left" });
    const left = expectError(
      await ask(ws, { employee_id: gone.id, leave_type_id: annual.id, start_date: "2026-11-02", end_date: "2026-11-02" }),
      400,
      "validation_error",
    );
    expect(left.details).toEqual([{ path: "employee_id", message: expect.stringMatching(/not left/) }]);

    const other = await company("Other Co");
    const foreignEmployee = expectError(
      await ask(ws, { employee_id: other.ada.id, leave_type_id: annual.id, start_date: "2026-11-02", end_date: "2026-11-02" }),
      400,
      "validation_error",
    );
    expect(foreignEmployee.details[0].path).toBe("employee_id");
    const foreignType = expectError(
      await ask(ws, { employee_id: ada.id, leave_type_id: other.annual.id, start_date: "2026-11-02", end_date: "2026-11-02" }),
      400,
      "validation_error",
    );
    expect(foreignType.details[0].path).toBe("leave_type_id");

    const theirs = await ask(other.ws, { employee_id: other.ada.id, leave_type_id: other.annual.id, start_date: "2026-11-02", end_date: "2026-11-03" });
    expect(theirs.status).toBe(201);
    const id = theirs.json.data.id;
    expectError(await call("GET", `/leave-requests/${id}`, { token: ws.token }), 404, "not_found");
    for (const action of ["approve", "reject", "cancel"] as const) expectError(await act(ws.token, id, action), 404, "not_found");
    expectError(await call("PUT", `/leave-requests/${id}`, { token: ws.token, body: { reason: "mine now" } }), 404, "not_found");
    expectError(await call("DELETE", `/leave-requests/${id}`, { token: ws.token }), 404, "not_found");
    expect((await call("GET", `/leave-requests/${id}`, { token: other.ws.token })).json.data.status).toBe("pending");
    expectError(await call("GET", `/employees/${other.ada.id}/leave-balances?year=2026`, { token: ws.token }), 404, "not_found");
  });

  it("refuses overlapping pending or approved requests of one employee (409), even when they race", async () => {
    const { ws, ada, bob, annual, sick } = await company();
    const first = await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-02", end_date: "2026-11-06" });
    expect(first.status).toBe(201);
    const clash = expectError(
      await ask(ws, { employee_id: ada.id, leave_type_id: sick.id, start_date: "2026-11-06", end_date: "2026-11-09" }),
      409,
      "conflict",
    );
    expect(clash.details[0]).toMatchObject({ path: "start_date", conflicting_id: first.json.data.id });
    expect(clash.message).toMatch(/overlaps leave request/);
    // Another employee, or the day after: no clash.
    expect((await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-06", end_date: "2026-11-06" })).status).toBe(201);
    expect((await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-09", end_date: "2026-11-09" })).status).toBe(201);
    // Approved still blocks; rejected and cancelled do not.
    expect((await act(ws.token, first.json.data.id, "approve")).status).toBe(200);
    expectError(await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-04", end_date: "2026-11-04" }), 409, "conflict");
    expect((await act(ws.token, first.json.data.id, "cancel")).json.data.status).toBe("cancelled");
    const again = await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-04", end_date: "2026-11-04" });
    expect(again.status, again.text).toBe(201);
    expect((await act(ws.token, again.json.data.id, "reject")).json.data.status).toBe("rejected");
    expect((await ask(ws, { employee_id: ada.id, leave_type_id: sick.id, start_date: "2026-11-03", end_date: "2026-11-05" })).status).toBe(201);

    // Six overlapping requests at once: exactly one is written.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: `2026-11-2${i % 3}`, end_date: "2026-11-24" })),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of racing.filter((r) => r.status === 409)) expect(res.json.error.code).toBe("conflict");
    expect(await total(ws, `&employee_id=${bob.id}&date_from=2026-11-20&date_to=2026-11-24`)).toBe(1);
  });

  it("approves within the year's allowance only, once, by admins; member and viewer rights", async () => {
    const { ws, ada, annual } = await company();
    const request = (start_date: string, end_date: string, token: string = ws.token) =>
      ask(token, { employee_id: ada.id, leave_type_id: annual.id, start_date, end_date });
    const member = await userWithRole(ws, "member");
    const viewer = await userWithRole(ws, "viewer");
    // Members ask for leave; viewers do not.
    const week = await request("2026-11-02", "2026-11-06", member); // 5 days
    expect(week.status, week.text).toBe(201);
    expectError(await request("2026-11-09", "2026-11-09", viewer), 403, "forbidden");
    const next = (await request("2026-11-16", "2026-11-20")).json.data; // 5 days
    const more = (await request("2026-11-23", "2026-11-23")).json.data; // 1 day: 11 > 10

    expectError(await act(member, week.json.data.id, "approve"), 403, "forbidden");
    expectError(await act(member, week.json.data.id, "reject"), 403, "forbidden");
    at("2026-10-20 10:00");
    const approved = await act(ws.token, week.json.data.id, "approve");
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json.data).toMatchObject({ status: "approved", decided_at: "2026-10-20T10:00:00.000Z" });
    const twice = expectError(await act(ws.token, week.json.data.id, "approve"), 409, "invalid_transition");
    expect(twice.details[0]).toMatchObject({ from: "approved", to: "approved", allowed_from: ["pending"] });
    expect((await act(ws.token, next.id, "approve")).status).toBe(200);

    // 10 of 10 taken: one more day is over the allowance, and nothing changes.
    const over = expectError(await act(ws.token, more.id, "approve"), 409, "conflict");
    expect(over.message).toMatch(/Annual leave allowance for 2026: 10 days a year, 10 days already taken, 1 day requested/);
    expect(over.details[0]).toMatchObject({ allowance: 10, taken: 10, requested: 1, left: 0 });
    const unchanged = (await call("GET", `/leave-requests/${more.id}`, { token: ws.token })).json.data;
    expect(unchanged).toMatchObject({ status: "pending", decided_at: null, updated_at: more.updated_at });

    // The event: once per approval, with the request as the API shows it.
    const events = await recordedEvents(ws.workspaceId, "leave.approved");
    expect(events.map((event) => event.data.id)).toEqual([week.json.data.id, next.id]);
    expect(events[0]!.data).toEqual((await call("GET", `/leave-requests/${week.json.data.id}`, { token: ws.token })).json.data);

    // A member cancels (days given back), then the admin can approve the other.
    expect((await act(member, next.id, "cancel")).json.data.status).toBe("cancelled");
    expectError(await act(member, next.id, "cancel"), 409, "invalid_transition");
    expectError(await act(ws.token, next.id, "approve"), 409, "invalid_transition");
    expect((await act(ws.token, more.id, "approve")).json.data.status).toBe("approved");
    expectError(await act(ws.token, more.id, "reject"), 409, "invalid_transition");
    expectError(await act(viewer, more.id, "cancel"), 403, "forbidden");
    expect((await recordedEvents(ws.workspaceId, "leave.approved")).length).toBe(3);

    // The allowance is per calendar year: next year starts afresh.
    const january = (await request("2027-01-04", "2027-01-08")).json.data;
    expect((await act(ws.token, january.id, "approve")).status).toBe(200);
  });

  it("changes only a pending request's reason, and deletes only pending requests", async () => {
    const { ws, ada, annual } = await company();
    const pending = (await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-02", end_date: "2026-11-03" })).json.data;
    const put = (id: number, body: object) => call("PUT", `/leave-requests/${id}`, { token: ws.token, body });
    expect((await put(pending.id, { reason: "Moving house" })).json.data).toMatchObject({ reason: "Moving house", days: 2, status: "pending" });
    for (const body of [{ start_date: "2026-11-04" }, { status: "approved" }, { days: 1 }, { employee_id: ada.id }])
      expectError(await put(pending.id, body), 400, "validation_error");
    await act(ws.token, pending.id, "approve");
    expectError(await put(pending.id, { reason: "Too late" }), 409, "conflict");
    expectError(await call("DELETE", `/leave-requests/${pending.id}`, { token: ws.token }), 409, "conflict");
    const other = (await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-09", end_date: "2026-11-09" })).json.data;
    expect((await call("DELETE", `/leave-requests/${other.id}`, { token: ws.token })).status).toBe(200);
    // A leave type in use is not deleted.
    expectError(await call("DELETE", `/leave-types/${annual.id}`, { token: ws.token }), 409, "conflict");
  });

  it("lists by employee, type, status, date range and day", async () => {
    const { ws, ada, bob, annual, sick } = await company();
    const a = (await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-02", end_date: "2026-11-06" })).json.data;
    const b = (await ask(ws, { employee_id: bob.id, leave_type_id: sick.id, start_date: "2026-11-05", end_date: "2026-11-10" })).json.data;
    const c = (await ask(ws, { employee_id: ada.id, leave_type_id: sick.id, start_date: "2026-12-01", end_date: "2026-12-01" })).json.data;
    await act(ws.token, b.id, "approve");
    const ids = async (query: string) =>
      (await call("GET", `/leave-requests?sort=id&${query}`, { token: ws.token })).json.data.map((r: { id: number }) => r.id);
    expect(await ids(`employee_id=${ada.id}`)).toEqual([a.id, c.id]);
    expect(await ids(`leave_type_id=${sick.id}`)).toEqual([b.id, c.id]);
    expect(await ids("status=approved")).toEqual([b.id]);
    expect(await ids("status=pending,approved")).toEqual([a.id, b.id, c.id]);
    expect(await ids("date_from=2026-11-07&date_to=2026-11-30")).toEqual([b.id]);
    expect(await ids("on=2026-11-05")).toEqual([a.id, b.id]);
    expect(await ids("on=2026-11-05&status=approved")).toEqual([b.id]);
    expectError(await call("GET", "/leave-requests?on=2026-13-01", { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", "/leave-requests?status=maybe", { token: ws.token }), 400, "validation_error");
  });

  it("answers an employee's balances per year and leave type", async () => {
    const { ws, ada, bob, annual, sick } = await company();
    const unpaid = await create(ws, "leave-types", { name: "Unpaid", days_per_year: 20, paid: false });
    const leave = async (type: number, start_date: string, end_date: string, then?: "approve" | "reject" | "cancel", half_day = false) => {
      const res = await ask(ws, { employee_id: ada.id, leave_type_id: type, start_date, end_date, ...(half_day ? { half_day } : {}) });
      expect(res.status, res.text).toBe(201);
      if (then) expect((await act(ws.token, res.json.data.id, then)).status).toBe(200);
      return res.json.data;
    };
    await leave(annual.id, "2026-11-02", "2026-11-06", "approve"); // 5 taken
    await leave(annual.id, "2026-11-09", "2026-11-09", "approve", true); // 0.5 taken
    await leave(annual.id, "2026-11-16", "2026-11-17"); // 2 pending
    await leave(annual.id, "2026-11-18", "2026-11-18", "reject"); // not counted
    await leave(sick.id, "2026-11-19", "2026-11-19", "cancel"); // not counted
    await leave(sick.id, "2026-11-20", "2026-11-20", "approve"); // 1 taken
    await leave(annual.id, "2027-01-04", "2027-01-05", "approve"); // 2 taken in 2027
    await leave(annual.id, "2027-01-06", "2027-01-06"); // 1 pending in 2027
    // Bob's leave is his own.
    await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-02", end_date: "2026-11-03" });

    const balances = async (year: string) => {
      const res = await call("GET", `/employees/${ada.id}/leave-balances${year ? `?year=${year}` : ""}`, { token: ws.token });
      expect(res.status, res.text).toBe(200);
      expect(res.json.success).toBe(true);
      return res.json.data;
    };
    expect(await balances("2026")).toEqual([
      { leave_type_id: annual.id, name: "Annual leave", allowance: 10, taken: 5.5, pending: 2, left: 4.5 },
      { leave_type_id: sick.id, name: "Sick leave", allowance: 5, taken: 1, pending: 0, left: 4 },
      { leave_type_id: unpaid.id, name: "Unpaid", allowance: 20, taken: 0, pending: 0, left: 20 },
    ]);
    expect(await balances("2027")).toEqual([
      { leave_type_id: annual.id, name: "Annual leave", allowance: 10, taken: 2, pending: 1, left: 8 },
      { leave_type_id: sick.id, name: "Sick leave", allowance: 5, taken: 0, pending: 0, left: 5 },
      { leave_type_id: unpaid.id, name: "Unpaid", allowance: 20, taken: 0, pending: 0, left: 20 },
    ]);
    at("2027-03-01 12:00");
    expect((await balances(""))[0]).toMatchObject({ taken: 2, pending: 1 });
    for (const year of ["26", "twenty", "2026-01", "1066"])
      expectError(await call("GET", `/employees/${ada.id}/leave-balances?year=${year}`, { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", "/employees/999999/leave-balances", { token: ws.token }), 404, "not_found");
    // A viewer reads balances.
    const viewer = await userWithRole(ws, "viewer");
    expect((await call("GET", `/employees/${ada.id}/leave-balances?year=2026`, { token: viewer })).status).toBe(200);
  });

  it("shows who is out today on the dashboard and to the assistant", async () => {
    const { ws, ada, bob, annual, sick } = await company();
    const approved = async (employee: number, type: number, start_date: string, end_date: string) => {
      const res = await ask(ws, { employee_id: employee, leave_type_id: type, start_date, end_date });
      expect(res.status, res.text).toBe(201);
      expect((await act(ws.token, res.json.data.id, "approve")).status).toBe(200);
    };
    await approved(ada.id, annual.id, "2026-11-16", "2026-11-20");
    await approved(bob.id, sick.id, "2026-11-17", "2026-11-17");
    // Pending leave today is not "out".
    await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-18", end_date: "2026-11-18" });
    at("2026-11-18 09:00");
    const widget = async () => {
      const res = await call("GET", "/dashboard/widgets/leave.out_today", { token: ws.token });
      expect(res.status, res.text).toBe(200);
      return res.json.data;
    };
    expect(await widget()).toMatchObject({
      key: "leave.out_today",
      kind: "list",
      data: { items: [{ id: ada.id, label: "Ada", leave_type: "Annual leave", until: "2026-11-20" }] },
    });
    at("2026-11-17 09:00");
    expect((await widget()).data.items.map((item: { label: string }) => item.label)).toEqual(["Ada", "Bob"]);
    at("2026-11-21 09:00");
    expect((await widget()).data.items).toEqual([]);

    at("2026-11-18 09:00");
    const reply = async (message: string) => {
      const res = await call("POST", "/assistant/messages", { token: ws.token, body: { message } });
      expect(res.status, res.text).toBe(200);
      return res.json.data.reply as { intent: string; text: string };
    };
    for (const message of ["who is out today", "who's off today", "who is on leave today"]) {
      const answer = await reply(message);
      expect(answer, message).toMatchObject({ intent: "metric", text: "Out today: Ada." });
    }
    // A period: the requests overlapping it, each with its status.
    const week = await reply("who is off this week");
    expect(week.intent).toBe("list");
    expect(week.text).toMatch(/^3 leave requests \(off in the week of 2026-11-16\)/);
    const pending = await reply("pending leave requests");
    expect(pending.intent).toBe("list");
    expect(pending.text).toMatch(/1 leave request/);
  });

  it("answers 'Ada's leave balance' from the balances route, as the user would read it", async () => {
    const { ws, ada, annual } = await company();
    at("2026-11-18 09:00");
    const a = (await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-16", end_date: "2026-11-17" })).json.data;
    expect((await act(ws.token, a.id, "approve")).status).toBe(200);
    await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-23", end_date: "2026-11-23" });
    const reply = async (message: string) => {
      const res = await call("POST", "/assistant/messages", { token: ws.token, body: { message } });
      expect(res.status, res.text).toBe(200);
      return res.json.data.reply as { intent: string; text: string; records?: { resource: string; id: number }[] };
    };
    for (const message of ["Ada's leave balance", "what's ada's leave balance?", "how much leave left for Ada"]) {
      const answer = await reply(message);
      expect(answer.intent, message).toBe("lookup");
      expect(answer.text, message).toBe("Ada's leave this year: Annual leave 8 of 10 days left (2 taken, 1 pending); Sick leave 5 of 5 days left (0 taken).");
      expect(answer.records).toEqual([expect.objectContaining({ resource: "employees", id: ada.id })]);
    }
    expect((await reply("Bob's leave balance")).text).toBe(
      "Bob's leave this year: Annual leave 10 of 10 days left (0 taken); Sick leave 5 of 5 days left (0 taken).",
    );
    expect((await reply("leave balance of Zed")).text).toBe("I couldn't find an employee named Zed.");
    // Leave off: the route refuses, and so does the assistant.
    await call("PUT", "/packages/leave", { token: ws.token, body: { enabled: false } });
    expect((await reply("Ada's leave balance")).text).toBe(
      "The Leave package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.",
    );
  });

  it("renders the team calendar for a signed-in user, and answers 403 package_disabled while switched off", async () => {
    const { ws, ada, bob, annual } = await company();
    const a = (await ask(ws, { employee_id: ada.id, leave_type_id: annual.id, start_date: "2026-11-16", end_date: "2026-11-17" })).json.data;
    await act(ws.token, a.id, "approve");
    const b = (await ask(ws, { employee_id: bob.id, leave_type_id: annual.id, start_date: "2026-11-19", end_date: "2026-11-19", half_day: true })).json.data;
    const cookie = await signIn(ws.email, ws.password);
    const shown = await page("GET", "/app/leave/calendar?month=2026-11", { cookie });
    expect(shown.status, shown.text.slice(0, 500)).toBe(200);
    expect(shown.text).toContain("Leave calendar, November 2026");
    expect(shown.text).toContain('class="table-wrap"');
    expect(shown.text).toContain("Armistice Day");
    expect(shown.text).toMatch(/Ada, 2026-11-16: Annual leave, approved/);
    expect(shown.text).toMatch(/Bob, 2026-11-19: Annual leave \(half day\), pending/);
    expect(shown.text).toContain("?month=2026-10");
    expect(shown.text).toContain("?month=2026-12");
    expect(shown.text).not.toContain("<script>");
    const empty = await page("GET", "/app/leave/calendar?month=2026-12", { cookie });
    expect(empty.text).toContain("No pending or approved leave in December 2026");
    // The widget's link (the list filtered to a day) and a request's page with its actions.
    const listed = await page("GET", "/app/leave-requests?status=approved&on=2026-11-17", { cookie });
    expect(listed.status).toBe(200);
    expect(listed.text).toContain(`/app/leave-requests/${a.id}`);
    const record = await page("GET", `/app/leave-requests/${a.id}`, { cookie });
    expect(record.status).toBe(200);
    expect(record.text).toContain("Cancel leave");
    expect(record.text).not.toContain(">Approve<");
    expect((await page("GET", `/app/leave-requests/${b.id}`, { cookie })).text).toContain(">Approve<");

    expect((await call("PUT", "/packages/leave", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await call("GET", "/leave-requests", { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/leave-types", { token: ws.token }), 403, "package_disabled");
    expectError(await act(ws.token, a.id, "cancel"), 403, "package_disabled");
    expectError(await call("GET", `/employees/${ada.id}/leave-balances`, { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/dashboard/widgets/leave.out_today", { token: ws.token }), 403, "package_disabled");
    expect((await page("GET", "/app/leave/calendar", { cookie })).status).toBe(403);
    // hrm is untouched.
    expect((await call("GET", `/employees/${ada.id}`, { token: ws.token })).status).toBe(200);
    // Direct check that nothing of the leave package was written while it was off.
    const rows = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM leave_requests WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(2);
  });
});
