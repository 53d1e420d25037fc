import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { formatMinutes } from "../../platform/format";
import { clock, today } from "../../platform/time";
import { type ApiRecord, TableWrap } from "../../platform/web/components";
import { Csrf, Notice, posted, refusalPage, render, signedIn, text } from "../../platform/web/page";
import { api, mayWrite, type PageContext, pageContext } from "../../platform/web/records";
import { attendanceResource } from "./attendance";
import { type AttendanceReport, monthBounds } from "./report";

/**
 * /app/attendance/report: a month's attendance per employee (the API's report as a table), with a
 * clock-in / clock-out form for the roles that may write attendance. Everything goes through the API
 * as the signed-in user, so its rules and refusals are the page's.
 */
export const reportPages = new Hono<AppEnv>();

const PATH = "/app/attendance/report";
const isMonth = (value: string | undefined): value is string => /^\d{4}-(0[1-9]|1[0-2])$/.test(value ?? "");
const shiftMonth = (month: string, by: number) => {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + by, 1)).toISOString().slice(0, 7);
};
const days = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

async function reportPage(ctx: PageContext, month: string, state: { notice?: string; error?: string; status?: 200 | 400 | 409 } = {}) {
  const [report, people] = await Promise.all([
    api<AttendanceReport>(ctx, "GET", `/attendance/report?month=${month}`),
    mayWrite(ctx) ? api<ApiRecord[]>(ctx, "GET", "/employees?status=active&sort=name&limit=100") : null,
  ]);
  if (!report.ok) return refusalPage(ctx.c, ctx.session, report.error, report.status, "/app/attendance");
  const data = report.data;
  return render(ctx.c, ctx.session, {
    status: state.status ?? 200,
    title: `Attendance ${month}`,
    active: PATH,
    body: (
      <>
        <div class="bar">
          <div>
            <h1>Attendance, {month}</h1>
            <p class="lead flush">
              <a href={`${PATH}?month=${shiftMonth(month, -1)}`}>← Previous month</a> · <a href={`${PATH}?month=${shiftMonth(month, 1)}`}>Next month →</a>
            </p>
          </div>
          <form method="get" action={PATH} class="period">
            <div class="field">
              <label for="report-month">Month</label>
              <input id="report-month" type="month" name="month" value={month} />
            </div>
            <button type="submit" class="secondary small">
              Show
            </button>
          </form>
        </div>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        {people?.ok && people.data.length > 0 ? (
          <form method="post" action="/app/attendance/clock" class="card spaced period">
            <Csrf session={ctx.session} />
            <input type="hidden" name="month" value={month} />
            <div class="field">
              <label for="clock-employee">Employee</label>
              <select id="clock-employee" name="employee_id">
                {people.data.map((employee) => (
                  <option value={String(employee.id)}>{String(employee.name)}</option>
                ))}
              </select>
            </div>
            <button type="submit" name="action" value="in">
              Clock in
            </button>
            <button type="submit" name="action" value="out" class="secondary">
              Clock out
            </button>
          </form>
        ) : null}
        <p class="hint">
          {data.through
            ? `${data.working_days} working days up to ${data.through}; late after ${data.workday_start} (UTC).${data.leave_included ? " Approved leave and holidays are counted." : ""} Today is never an absence.`
            : "This month has not started yet."}
        </p>
        {data.employees.length === 0 ? (
          <div class="card empty">
            <p>No employees yet.</p>
          </div>
        ) : (
          <div class="card flush">
            <TableWrap label={`Attendance ${month}`}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Employee</th>
                    <th scope="col" class="num">
                      Present
                    </th>
                    <th scope="col" class="num">
                      On leave
                    </th>
                    <th scope="col" class="num">
                      Absent
                    </th>
                    <th scope="col" class="num">
                      Worked
                    </th>
                    <th scope="col" class="num">
                      Late arrivals
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.employees.map((row) => (
                    <tr>
                      <th scope="row">
                        <a href={`/app/attendance?employee_id=${row.employee_id}&date_from=${month}-01&date_to=${monthBounds(month).last}`}>{row.name}</a>
                        {row.status === "active" ? null : <span class="meta"> ({row.status})</span>}
                      </th>
                      <td class="num">{row.days_present}</td>
                      <td class="num">{days(row.days_on_leave)}</td>
                      <td class="num">{days(row.days_absent)}</td>
                      <td class="num">{formatMinutes(row.worked_minutes)}</td>
                      <td class="num">{row.late_arrivals}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </div>
        )}
      </>
    ),
  });
}

reportPages.get(
  PATH,
  signedIn(async (c, session) => {
    const month = c.req.query("month");
    const done = c.req.query("done");
    return reportPage(pageContext(c, session, attendanceResource), isMonth(month) ? month : today(clock.now()).slice(0, 7), {
      notice: done === "in" ? "Clocked in." : done === "out" ? "Clocked out." : undefined,
    });
  }),
);

reportPages.post(
  "/app/attendance/clock",
  posted(async (c, session, form) => {
    const ctx = pageContext(c, session, attendanceResource);
    const month = isMonth(text(form, "month")) ? text(form, "month") : today(clock.now()).slice(0, 7);
    const action = text(form, "action") === "out" ? "out" : "in";
    const employeeId = Number(text(form, "employee_id"));
    const result = await api(ctx, "POST", `/attendance/clock-${action}`, { employee_id: employeeId });
    if (!result.ok) return reportPage(ctx, month, { error: result.error.message, status: result.status === 409 ? 409 : 400 });
    return c.redirect(`${PATH}?month=${month}&done=${action}`, 303);
  }),
);
