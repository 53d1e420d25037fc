import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../src/platform/time";
import { call, create, dbOf, expectError, setPlan, signup, userWithRole, type Workspace } from "./helpers";
import { csrfOf, page, signIn } from "./pages";

const realNow = clock.now;
/** Moves the worker's clock to a UTC moment ("2026-11-18 09:20"). */
const at = (moment: string) => {
  const ms = Date.parse(`${moment.replace(" ", "T")}:00Z`);
  clock.now = () => ms;
};
afterEach(() => {
  clock.now = realNow;
});

const clockIn = (ws: Workspace, employeeId: number) => call("POST", "/attendance/clock-in", { token: ws.token, body: { employee_id: employeeId } });
const clockOut = (ws: Workspace, employeeId: number) => call("POST", "/attendance/clock-out", { token: ws.token, body: { employee_id: employeeId } });

async function company() {
  const ws = await signup("Clock Co");
  await setPlan(ws, "enterprise");
  const ada = await create(ws, "employees", { name: "Ada", email: "ada@clock.co", date_of_joining: "2026-01-05" });
  const bob = await create(ws, "employees", { name: "Bob", email: "bob@clock.co", date_of_joining: "2026-11-10" });
  const gone = await create(ws, "employees", { name: "Gone", email: "gone@clock.co", status: "left", date_of_joining: "2025-01-01" });
  return { ws, ada, bob, gone };
}

describe("attendance", () => {
  it("clocks in and out: worked and late minutes, one open record, and the refusals", async () => {
    const { ws, ada, bob, gone } = await company();
    at("2026-11-18 09:20");
    const opened = await clockIn(ws, ada.id);
    expect(opened.status, opened.text).toBe(201);
    expect(opened.json.data).toMatchObject({
      employee_id: ada.id,
      date: "2026-11-18",
      clock_in: "09:20",
      clock_out: null,
      worked_minutes: null,
      late_minutes: 20,
    });
    // A second clock-in while the record is open.
    const twice = expectError(await clockIn(ws, ada.id), 409, "conflict");
    expect(twice.message).toMatch(/already clocked in/);

    at("2026-11-18 17:45");
    const closed = await clockOut(ws, ada.id);
    expect(closed.status, closed.text).toBe(200);
    expect(closed.json.data).toMatchObject({ id: opened.json.data.id, clock_out: "17:45", worked_minutes: 505, late_minutes: 20 });
    expect(expectError(await clockOut(ws, ada.id), 409, "conflict").message).toMatch(/not clocked in/);

    // Back in the evening: not late (not the day's first arrival).
    at("2026-11-18 18:30");
    expect((await clockIn(ws, ada.id)).json.data.late_minutes).toBe(0);
    at("2026-11-18 19:00");
    expect((await clockOut(ws, ada.id)).json.data.worked_minutes).toBe(30);

    // Across midnight, and a clock-out forgotten for days: counted until the clock-out.
    at("2026-11-18 22:00");
    await clockIn(ws, bob.id);
    at("2026-11-19 06:30");
    expect((await clockOut(ws, bob.id)).json.data).toMatchObject({ date: "2026-11-18", clock_in: "22:00", clock_out: "06:30", worked_minutes: 510 });
    at("2026-11-16 09:00");
    await clockIn(ws, bob.id);
    at("2026-11-18 09:00");
    expect((await clockOut(ws, bob.id)).json.data.worked_minutes).toBe(2880);

    // Who cannot clock in or out: an employee who left, and an employee of another workspace.
    expect(expectError(await clockIn(ws, gone.id), 400, "validation_error").details).toEqual([
      { path: "employee_id", message: expect.stringMatching(/has left/) },
    ]);
    const other = await signup("Other Co");
    const stranger = await create(other, "employees", { name: "Stranger", email: "s@other.co" });
    expectError(await clockIn(ws, stranger.id), 400, "validation_error");
    expectError(await clockOut(ws, stranger.id), 400, "validation_error");
    expectError(await clockIn(other, ada.id), 400, "validation_error");
    expectError(await call("POST", "/attendance/clock-in", { token: ws.token, body: { employee_id: "1" } }), 400, "validation_error");
    expect((await call("GET", `/attendance?employee_id=${ada.id}`, { token: other.token })).json.data).toEqual([]);

    // A viewer reads but does not clock anyone in.
    const viewer = await userWithRole(ws, "viewer");
    expectError(await call("POST", "/attendance/clock-in", { token: viewer, body: { employee_id: bob.id } }), 403, "forbidden");
    expect(
      (await call("GET", `/attendance?employee_id=${ada.id}&sort=id`, { token: viewer })).json.data.map((r: { worked_minutes: number }) => r.worked_minutes),
    ).toEqual([505, 30]);
  });

  it("measures lateness against the workspace's workday_start, which only admins change", async () => {
    const { ws, ada, bob } = await company();
    expect((await call("GET", "/attendance/settings", { token: ws.token })).json.data).toEqual({ workday_start: "09:00" });
    const member = await userWithRole(ws, "member");
    expectError(await call("PATCH", "/attendance/settings", { token: member, body: { workday_start: "08:00" } }), 403, "forbidden");
    expectError(await call("PATCH", "/attendance/settings", { token: ws.token, body: { workday_start: "8am" } }), 400, "validation_error");
    expectError(await call("PATCH", "/attendance/settings", { token: ws.token, body: { workday_start: "24:00" } }), 400, "validation_error");
    at("2026-11-18 08:40");
    expect((await clockIn(ws, ada.id)).json.data.late_minutes).toBe(0);

    const changed = await call("PATCH", "/attendance/settings", { token: ws.token, body: { workday_start: "08:00" } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data).toEqual({ workday_start: "08:00" });
    expect((await call("GET", "/attendance/settings", { token: member })).json.data).toEqual({ workday_start: "08:00" });
    expect((await clockIn(ws, bob.id)).json.data.late_minutes).toBe(40);
    // Existing records keep the lateness computed when they were written.
    expect((await call("GET", `/attendance?employee_id=${ada.id}`, { token: ws.token })).json.data[0].late_minutes).toBe(0);
    // Another workspace still has the default.
    const other = await signup("Other Co");
    expect((await call("GET", "/attendance/settings", { token: other.token })).json.data).toEqual({ workday_start: "09:00" });
  });

  it("lets exactly one of concurrent clock-ins through", async () => {
    const { ws, ada } = await company();
    const results = await Promise.all(Array.from({ length: 6 }, () => clockIn(ws, ada.id)));
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.status === 409)) expect(res.json.error.code).toBe("conflict");
    expect((await call("GET", `/attendance?employee_id=${ada.id}&open=true`, { token: ws.token })).json.data).toHaveLength(1);
  });

  it("keeps worked and late minutes consistent when admins write records by hand", async () => {
    const { ws, ada, bob } = await company();
    const record = await create(ws, "attendance", { employee_id: ada.id, date: "2026-11-02", clock_in: "09:30", clock_out: "17:00" });
    expect(record).toMatchObject({ worked_minutes: 450, late_minutes: 30 });
    const put = (id: number, body: object) => call("PUT", `/attendance/${id}`, { token: ws.token, body });
    expect((await put(record.id, { clock_out: "18:00" })).json.data).toMatchObject({ worked_minutes: 510, late_minutes: 30 });
    expect((await put(record.id, { clock_in: "08:45" })).json.data).toMatchObject({ worked_minutes: 555, late_minutes: 0 });
    expect((await put(record.id, { clock_in: "22:00", clock_out: "06:00" })).json.data).toMatchObject({ worked_minutes: 480, late_minutes: 780 });
    expect((await put(record.id, { note: "night shift" })).json.data).toMatchObject({ worked_minutes: 480, note: "night shift" });
    // Reopened: no worked minutes until it is closed again.
    expect((await put(record.id, { clock_out: null })).json.data).toMatchObject({ clock_out: null, worked_minutes: null });
    // The read-only fields are not input, and times are HH:MM.
    expectError(await put(record.id, { worked_minutes: 10 }), 400, "validation_error");
    expectError(
      await call("POST", "/attendance", { token: ws.token, body: { employee_id: ada.id, date: "2026-11-03", clock_in: "9:00" } }),
      400,
      "validation_error",
    );
    // Ada's record is open again: neither a second open record nor a clock-in.
    expectError(await call("POST", "/attendance", { token: ws.token, body: { employee_id: ada.id, date: "2026-11-03", clock_in: "09:00" } }), 409, "conflict");
    expectError(await clockIn(ws, ada.id), 409, "conflict");
    expect((await put(record.id, { clock_out: "23:00" })).status).toBe(200);
    expect((await clockIn(ws, ada.id)).status).toBe(201);

    // A later record of the same day is not late; the day's first is.
    const morning = await create(ws, "attendance", { employee_id: bob.id, date: "2026-11-12", clock_in: "09:10", clock_out: "12:00" });
    const afternoon = await create(ws, "attendance", { employee_id: bob.id, date: "2026-11-12", clock_in: "13:00", clock_out: "17:00" });
    expect([morning.late_minutes, afternoon.late_minutes]).toEqual([10, 0]);
    expectError(
      await call("POST", "/attendance", { token: ws.token, body: { employee_id: 999_999, date: "2026-11-03", clock_in: "09:00" } }),
      400,
      "validation_error",
    );

    const dates = async (query: string) => (await call("GET", `/attendance?${query}`, { token: ws.token })).json.data.map((r: { date: string }) => r.date);
    expect(await dates(`employee_id=${bob.id}&sort=id`)).toEqual(["2026-11-12", "2026-11-12"]);
    expect(await dates("date_from=2026-11-02&date_to=2026-11-11")).toEqual(["2026-11-02"]);
    expect(await dates(`late=true&employee_id=${bob.id}`)).toEqual(["2026-11-12"]);
    expect(await dates("open=true")).toHaveLength(1);
  });

  it("reports a month per employee: present, on leave, absent, minutes worked and late arrivals", async () => {
    const { ws, ada, bob, gone } = await company();
    const carl = await create(ws, "employees", { name: "Carl", email: "carl@clock.co", status: "left" });
    const day = (employee: number, date: string, clock_in: string, clock_out: string) =>
      create(ws, "attendance", { employee_id: employee, date, clock_in, clock_out });
    await day(ada.id, "2026-11-02", "09:00", "17:00");
    await day(ada.id, "2026-11-03", "09:15", "17:15");
    await day(ada.id, "2026-11-04", "10:00", "18:00");
    await day(ada.id, "2026-11-07", "10:00", "12:00"); // a Saturday
    await day(bob.id, "2026-11-12", "09:00", "17:30");
    await day(gone.id, "2026-11-03", "09:00", "13:00");
    await day(ada.id, "2026-10-30", "09:00", "17:00"); // another month
    at("2026-11-18 09:05");
    await clockIn(ws, ada.id);

    // The leave package's rows, written directly (its API is another package's): approved leave on
    // Thu 5 and Fri 6, half a day on Mon 9, a pending request that does not count, and a holiday on Wed 11.
    const db = await dbOf(ws.workspaceId);
    const now = Date.now();
    const type = await db
      .prepare("INSERT INTO leave_types (workspace_id, name, days_per_year, paid, created_at, updated_at) VALUES (?, 'Annual', 25, 1, ?, ?) RETURNING id")
      .bind(ws.workspaceId, now, now)
      .first<{ id: number }>();
    const leave = (employee: number, start: string, end: string, halfDay: boolean, status: string) =>
      db
        .prepare(
          "INSERT INTO leave_requests (workspace_id, employee_id, leave_type_id, start_date, end_date, half_day, status, days, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
        )
        .bind(ws.workspaceId, employee, type!.id, start, end, halfDay ? 1 : 0, status, now, now);
    await db.batch([
      leave(ada.id, "2026-11-05", "2026-11-06", false, "approved"),
      leave(ada.id, "2026-11-09", "2026-11-09", true, "approved"),
      leave(ada.id, "2026-11-16", "2026-11-17", false, "pending"),
      db
        .prepare("INSERT INTO holidays (workspace_id, date, name, created_at, updated_at) VALUES (?, '2026-11-11', 'Armistice Day', ?, ?)")
        .bind(ws.workspaceId, now, now),
    ]);

    const report = async () => {
      const res = await call("GET", "/attendance/report?month=2026-11", { token: ws.token });
      expect(res.status, res.text).toBe(200);
      return res.json.data;
    };
    const withLeave = await report();
    expect(withLeave).toMatchObject({ month: "2026-11", through: "2026-11-18", working_days: 12, workday_start: "09:00", leave_included: true });
    expect(withLeave.employees.map((row: { name: string }) => row.name)).toEqual(["Ada", "Bob", "Gone"]);
    expect(withLeave.employees.find((row: { employee_id: number }) => row.employee_id === carl.id)).toBeUndefined();
    expect(withLeave.employees[0]).toEqual({
      employee_id: ada.id,
      name: "Ada",
      status: "active",
      days_present: 5,
      days_on_leave: 2.5,
      days_absent: 5.5,
      worked_minutes: 3 * 480 + 120,
      late_arrivals: 3,
      late_minutes: 15 + 60 + 5,
    });
    // Bob joined on the 10th: absent on the 10th, 13th, 16th and 17th (the 11th is a holiday).
    expect(withLeave.employees[1]).toMatchObject({ days_present: 1, days_on_leave: 0, days_absent: 4, worked_minutes: 510, late_arrivals: 0 });
    // Someone who left shows their records, never absences.
    expect(withLeave.employees[2]).toMatchObject({ status: "left", days_present: 1, days_absent: 0, worked_minutes: 240 });
    // One employee only.
    const one = (await call("GET", `/attendance/report?month=2026-11&employee_id=${bob.id}`, { token: ws.token })).json.data;
    expect(one.employees).toHaveLength(1);
    expect(one.employees[0]).toMatchObject({ employee_id: bob.id, days_absent: 4 });

    // Without the leave package: no leave, and the holiday is a working day.
    expect((await call("PUT", "/packages/leave", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    const withoutLeave = await report();
    expect(withoutLeave).toMatchObject({ working_days: 13, leave_included: false });
    expect(withoutLeave.employees[0]).toMatchObject({ days_present: 5, days_on_leave: 0, days_absent: 9 });
    expect(withoutLeave.employees[1]).toMatchObject({ days_absent: 5 });

    // A past month counts to its end; a future month counts nothing; the month is checked.
    const october = (await call("GET", "/attendance/report?month=2026-10", { token: ws.token })).json.data;
    expect(october).toMatchObject({ through: "2026-10-31", working_days: 22 });
    expect(october.employees[0]).toMatchObject({ name: "Ada", days_present: 1, days_absent: 21, worked_minutes: 480 });
    const december = (await call("GET", "/attendance/report?month=2026-12", { token: ws.token })).json.data;
    expect(december).toMatchObject({ through: null, working_days: 0 });
    expect(december.employees[0]).toMatchObject({ days_present: 0, days_absent: 0 });
    expectError(await call("GET", "/attendance/report?month=2026-13", { token: ws.token }), 400, "validation_error");
    // Without a month: the current one.
    expect((await call("GET", "/attendance/report", { token: ws.token })).json.data.month).toBe("2026-11");
  });

  it("shows who is present today on the dashboard and to the assistant", async () => {
    const { ws, ada, bob } = await company();
    at("2026-11-17 09:00");
    await clockIn(ws, bob.id);
    await clockOut(ws, bob.id);
    at("2026-11-18 09:00");
    const widget = async () => (await call("GET", "/dashboard/widgets/attendance.present_today", { token: ws.token })).json.data;
    expect((await widget()).data).toEqual({ value: 0, previous: null });
    await clockIn(ws, ada.id);
    await clockOut(ws, ada.id);
    await clockIn(ws, ada.id);
    await clockIn(ws, bob.id);
    expect(await widget()).toMatchObject({ key: "attendance.present_today", kind: "stat", data: { value: 2 } });
    const all = (await call("GET", "/dashboard", { token: ws.token })).json.data;
    expect(all.some((entry: { key: string }) => entry.key === "attendance.present_today")).toBe(true);

    const ask = async (message: string) => {
      const res = await call("POST", "/assistant/messages", { token: ws.token, body: { message } });
      expect(res.status, res.text).toBe(200);
      return res.json.data.reply as { intent: string; text: string; action?: { id: string } };
    };
    // The metric counts employees (Ada's two records today are one); "who" lists the open records.
    for (const message of ["how many are in today", "attendance today", "how many have clocked in"]) {
      const reply = await ask(message);
      expect(reply.intent, message).toBe("metric");
      expect(reply.text).toBe("Present today: 2.");
    }
    const open = await ask("who is clocked in");
    expect(open.intent).toBe("list");
    expect(open.text).toMatch(/^2 attendance records \(still clocked in/);
    expect(open.text.match(/still clocked in/g)).toHaveLength(3);
  });

  it("clocks a person in from the assistant's words ('clock in Bob'), after the user confirms", async () => {
    const { ws, bob } = await company();
    const ask = async (message: string) => {
      const res = await call("POST", "/assistant/messages", { token: ws.token, body: { message } });
      expect(res.status, res.text).toBe(200);
      return res.json.data.reply as { intent: string; text: string; action?: { id: string } };
    };
    const requestOf = async (reply: { action?: { id: string } }) =>
      (await call("GET", `/assistant/actions/${reply.action!.id}`, { token: ws.token })).json.data.request;
    const proposed = await ask("clock in Bob");
    expect(proposed.intent).toBe("action");
    expect(proposed.text).toBe("Clock in Bob. Confirm to do it (within 10 minutes).");
    expect(await requestOf(proposed)).toEqual({ method: "POST", path: "/attendance/clock-in", body: { employee_id: bob.id } });
    // Nothing is written before the confirmation.
    expect((await call("GET", "/attendance", { token: ws.token })).json.data).toEqual([]);
    const confirmed = await call("POST", `/assistant/actions/${proposed.action!.id}/confirm`, { token: ws.token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.result).toMatchObject({ employee_id: bob.id, clock_out: null });
    const out = await ask("please clock out bob now");
    expect(await requestOf(out)).toEqual({ method: "POST", path: "/attendance/clock-out", body: { employee_id: bob.id } });
    expect((await ask("clock in Zed")).text).toBe("I couldn't find an employee named Zed.");
  });

  it("serves the report page with a clock-in form, and answers 403 package_disabled while switched off", async () => {
    const { ws, ada } = await company();
    const cookie = await signIn(ws.email, ws.password);
    at("2026-11-18 10:00");
    const shown = await page("GET", "/app/attendance/report?month=2026-11", { cookie });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("Attendance, 2026-11");
    expect(shown.text).toContain('class="table-wrap"');
    const posted = await page("POST", "/app/attendance/clock", {
      cookie,
      form: { csrf: csrfOf(shown.text), employee_id: String(ada.id), action: "in", month: "2026-11" },
    });
    expect(posted.status).toBe(303);
    expect((await call("GET", `/attendance?employee_id=${ada.id}&open=true`, { token: ws.token })).json.data[0]).toMatchObject({
      clock_in: "10:00",
      late_minutes: 60,
    });
    const again = await page("POST", "/app/attendance/clock", {
      cookie,
      form: { csrf: csrfOf(shown.text), employee_id: String(ada.id), action: "in", month: "2026-11" },
    });
    expect(again.status).toBe(409);
    expect(again.text).toContain("already clocked in");

    expect((await call("PUT", "/packages/attendance", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await call("GET", "/attendance", { token: ws.token }), 403, "package_disabled");
    expectError(await clockIn(ws, ada.id), 403, "package_disabled");
    expectError(await call("GET", "/attendance/report", { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/attendance/settings", { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/dashboard/widgets/attendance.present_today", { token: ws.token }), 403, "package_disabled");
    expect((await page("GET", "/app/attendance/report", { cookie })).status).toBe(403);
  });
});
