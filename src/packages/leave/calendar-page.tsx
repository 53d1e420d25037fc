import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import type { Dispatched } from "../../platform/dispatch";
import { clock, today } from "../../platform/time";
import { TableWrap } from "../../platform/web/components";
import { refusalPage, render, signedIn } from "../../platform/web/page";
import { api, type PageContext, pageContext } from "../../platform/web/records";
import { leaveRequestResource } from "./leave-requests";

/**
 * /app/leave/calendar?month=YYYY-MM: the team's leave as a month grid — a row per employee with pending or
 * approved leave in the month, a column per day; weekends and holidays shaded, approved and pending leave
 * marked by a letter as well as a colour. Read through the API as the signed-in user (its rules, its
 * refusals: 403 package_disabled while leave is off). No script; the table scrolls inside its card.
 */
export const calendarPages = new Hono<AppEnv>();

export const CALENDAR_PATH = "/app/leave/calendar";
const isMonth = (value: string | undefined): value is string => /^\d{4}-(0[1-9]|1[0-2])$/.test(value ?? "");
const shiftMonth = (month: string, by: number) => {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + by, 1)).toISOString().slice(0, 7);
};
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

type Request = {
  id: number;
  employee_id: number;
  start_date: string;
  end_date: string;
  half_day: boolean;
  status: "pending" | "approved";
  days: number;
  employee?: { label: string } | null;
  leave_type?: { label: string } | null;
};
type Holiday = { id: number; date: string; name: string };

/** Every page of a list (at most 10 of 100): a month's leave of a large team still fits. */
async function all<T>(ctx: PageContext, path: string): Promise<Dispatched<T[]>> {
  const rows: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const result: Dispatched<T[]> = await api<T[]>(ctx, "GET", `${path}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (!result.ok) return result;
    rows.push(...result.data);
    cursor = (result.meta?.next_cursor as string | null | undefined) ?? null;
    if (!cursor) break;
  }
  return { ok: true, status: 200, data: rows };
}

async function calendarPage(ctx: PageContext, month: string) {
  const [year, index] = month.split("-").map(Number) as [number, number];
  const count = new Date(Date.UTC(year, index, 0)).getUTCDate();
  const days = Array.from({ length: count }, (_, i) => {
    const date = `${month}-${String(i + 1).padStart(2, "0")}`;
    return { date, day: i + 1, weekday: new Date(`${date}T00:00:00Z`).getUTCDay() };
  });
  const first = days[0]!.date;
  const last = days.at(-1)!.date;
  const [requests, holidays] = await Promise.all([
    all<Request>(ctx, `/leave-requests?status=pending,approved&date_from=${first}&date_to=${last}&expand=employee_id,leave_type_id&sort=start_date`),
    all<Holiday>(ctx, `/holidays?date_from=${first}&date_to=${last}&sort=date`),
  ]);
  if (!requests.ok) return refusalPage(ctx.c, ctx.session, requests.error, requests.status, "/app/leave-requests");
  const closed = new Map((holidays.ok ? holidays.data : []).map((holiday) => [holiday.date, holiday.name]));
  const now = today(clock.now());

  // One row per employee, by name; a day's cell is the request covering it (approved before pending).
  const people = new Map<number, { name: string; requests: Request[] }>();
  for (const request of requests.data) {
    const person = people.get(request.employee_id) ?? { name: request.employee?.label ?? `Employee ${request.employee_id}`, requests: [] };
    person.requests.push(request);
    people.set(request.employee_id, person);
  }
  const rows = [...people.entries()].sort(([a, x], [b, y]) => x.name.localeCompare(y.name) || a - b);
  const covering = (list: Request[], date: string) =>
    list.filter((r) => r.start_date <= date && r.end_date >= date).sort((a, b) => (a.status === b.status ? 0 : a.status === "approved" ? -1 : 1))[0];
  const title = `${MONTHS[index - 1]} ${year}`;

  return render(ctx.c, ctx.session, {
    title: `Leave calendar ${month}`,
    active: CALENDAR_PATH,
    body: (
      <>
        <div class="bar">
          <div>
            <h1>Leave calendar, {title}</h1>
            <p class="lead flush">
              <a href={`${CALENDAR_PATH}?month=${shiftMonth(month, -1)}`} rel="prev">
                ← Previous month
              </a>{" "}
              · <a href={`${CALENDAR_PATH}?month=${shiftMonth(month, 1)}`}>Next month →</a>
            </p>
          </div>
          <form method="get" action={CALENDAR_PATH} class="period">
            <div class="field">
              <label for="calendar-month">Month</label>
              <input id="calendar-month" type="month" name="month" value={month} />
            </div>
            <button type="submit" class="secondary small">
              Show
            </button>
          </form>
        </div>
        <ul class="legend leave-legend" aria-label="Legend">
          <li>
            <span class="leave-key approved">A</span> approved leave
          </li>
          <li>
            <span class="leave-key pending">P</span> pending (awaiting approval)
          </li>
          <li>
            <span class="leave-key">½</span> half a day
          </li>
          <li>
            <span class="leave-key closed">–</span> weekend or holiday (not a working day)
          </li>
        </ul>
        {rows.length === 0 ? (
          <div class="card empty">
            <p>No pending or approved leave in {title}.</p>
          </div>
        ) : (
          <div class="card flush">
            <TableWrap label={`Leave calendar ${title}`}>
              <table class="leave-calendar">
                <caption class="sr-only">
                  Leave in {title}: a row per employee, a column per day. A is approved leave, P pending; weekends and holidays are marked –.
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Employee</th>
                    {days.map((d) => {
                      const holiday = closed.get(d.date);
                      const off = holiday !== undefined || d.weekday === 0 || d.weekday === 6;
                      return (
                        <th
                          scope="col"
                          class={`day${off ? " closed" : ""}${d.date === now ? " today" : ""}`}
                          title={holiday ? `${d.date}: ${holiday}` : d.date}
                        >
                          <span>{d.day}</span>
                          <small>{holiday ? "Hol" : WEEKDAYS[d.weekday]!.slice(0, 2)}</small>
                        </th>
                      );
                    })}
                  </tr>
                </thead>
                <tbody>
                  {rows.map(([employeeId, person]) => (
                    <tr>
                      <th scope="row">
                        <a href={`/app/leave-requests?employee_id=${employeeId}&date_from=${first}&date_to=${last}`}>{person.name}</a>
                      </th>
                      {days.map((d) => {
                        const holiday = closed.get(d.date);
                        const off = holiday !== undefined || d.weekday === 0 || d.weekday === 6;
                        const request = covering(person.requests, d.date);
                        if (off) {
                          return (
                            <td class="day closed" title={holiday ? `${d.date}: ${holiday}` : `${d.date}: weekend`}>
                              –
                            </td>
                          );
                        }
                        if (!request) return <td class="day" />;
                        const mark = `${request.status === "approved" ? "A" : "P"}${request.half_day ? "½" : ""}`;
                        const what = `${person.name}, ${d.date}: ${request.leave_type?.label ?? "leave"}${request.half_day ? " (half day)" : ""}, ${request.status}`;
                        return (
                          <td class={`day ${request.status}`} title={what}>
                            {/* The letter is what shows; the words after it are what a screen reader says too. */}
                            <a href={`/app/leave-requests/${request.id}`}>
                              {mark}
                              <span class="sr-only"> {what}</span>
                            </a>
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </div>
        )}
        {closed.size > 0 ? (
          <p class="hint">
            Holidays this month:{" "}
            {[...closed.entries()].map(([date, name], i) => (
              <>
                {i > 0 ? "; " : ""}
                {date} {name}
              </>
            ))}
            .
          </p>
        ) : null}
        <p class="hint">
          <a href="/app/leave-requests?status=pending">Pending requests</a> · <a href="/app/holidays">Holidays</a> · <a href="/app/leave-types">Leave types</a>
        </p>
      </>
    ),
  });
}

calendarPages.get(
  CALENDAR_PATH,
  signedIn(async (c, session) => {
    const month = c.req.query("month");
    return calendarPage(pageContext(c, session, leaveRequestResource), isMonth(month) ? month : today(clock.now()).slice(0, 7));
  }),
);
