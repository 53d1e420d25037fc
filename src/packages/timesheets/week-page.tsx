import { type Context, Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { formatMinutes } from "../../platform/format";
import type { ApiRecord } from "../../platform/web/components";
import { Notice, type PageStatus, posted, render, signedIn, text } from "../../platform/web/page";
import { api, mayWrite, type PageContext, pageContext, titleOf } from "../../platform/web/records";
import type { PageSession } from "../../platform/web/session";
import { taskResource } from "../taskly/tasks";
import { timeEntryResource } from "./time-entries";

/**
 * The week grid: one employee's time for a week, a row per task and a column per day, each cell the
 * minutes logged (typed as 1:30 or 1.5 hours). Saving writes each changed cell through the API (create,
 * update, or delete when emptied); a cell the API refuses (the 24-hour day) keeps what was typed and says
 * why, while the others are saved. A cell with several entries is shown, not edited, here.
 */
export const weekPages = new Hono<AppEnv>();

const DAY_MS = 86_400_000;
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The Monday of the week `date` falls in (UTC). */
export function mondayOf(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return new Date(ms - weekday * DAY_MS).toISOString().slice(0, 10);
}
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** "1:30", "1.5", "90m" → 90 minutes; "" → 0; anything else → null. */
export function parseDuration(value: string): number | null {
  const typed = value.trim().toLowerCase();
  if (typed === "") return 0;
  let match = /^(\d{1,2}):([0-5]\d)$/.exec(typed);
  if (match) return Number(match[1]) * 60 + Number(match[2]);
  match = /^(\d{1,4})\s*m(in)?$/.exec(typed);
  if (match) return Number(match[1]);
  match = /^(\d{1,2}(?:\.\d{1,2})?)\s*h?$/.exec(typed);
  if (match) return Math.round(Number(match[1]) * 60);
  return null;
}
const shown = (minutes: number) => (minutes === 0 ? "" : `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`);

type Entry = { id: number; task_id: number; date: string; minutes: number };
type Grid = { employeeId: number | null; monday: string; employees: ApiRecord[]; tasks: Map<number, string>; entries: Entry[]; openTasks: ApiRecord[] };

async function loadGrid(ctx: PageContext, employeeParam: string | undefined, weekParam: string | undefined): Promise<Grid> {
  const today = new Date().toISOString().slice(0, 10);
  const monday = mondayOf(/^\d{4}-\d\d-\d\d$/.test(weekParam ?? "") ? weekParam! : today);
  const employees = await api<ApiRecord[]>(ctx, "GET", "/employees?status=active&sort=name&limit=100");
  const list = employees.ok ? employees.data : [];
  const employeeId = /^\d+$/.test(employeeParam ?? "") ? Number(employeeParam) : ((list[0]?.id as number | undefined) ?? null);
  if (employeeId === null) return { employeeId, monday, employees: list, tasks: new Map(), entries: [], openTasks: [] };
  const [entries, open] = await Promise.all([
    api<Entry[]>(ctx, "GET", `/time-entries?employee_id=${employeeId}&date_from=${monday}&date_to=${addDays(monday, 6)}&limit=100`),
    api<ApiRecord[]>(ctx, "GET", "/tasks?status=todo,in_progress,review&sort=-id&limit=100"),
  ]);
  const rows = entries.ok ? entries.data : [];
  const openTasks = open.ok ? open.data : [];
  const tasks = new Map<number, string>(
    openTasks.filter((task) => rows.some((entry) => entry.task_id === task.id)).map((task) => [task.id, titleOf(taskResource, task)]),
  );
  const missing = [...new Set(rows.map((entry) => entry.task_id))].filter((id) => !tasks.has(id));
  if (missing.length > 0) {
    const found = await api<ApiRecord[]>(ctx, "GET", `/tasks?ids=${missing.join(",")}&include_deleted=true&limit=100`);
    for (const task of found.ok ? found.data : []) tasks.set(task.id, titleOf(taskResource, task));
  }
  for (const id of missing) if (!tasks.has(id)) tasks.set(id, `Task #${id}`);
  return { employeeId, monday, employees: list, tasks, entries: rows, openTasks };
}

function weekPage(
  ctx: PageContext,
  grid: Grid,
  state: { typed?: Map<string, string>; errors?: Map<string, string>; notice?: string; status?: PageStatus } = {},
) {
  const days = DAYS.map((_, i) => addDays(grid.monday, i));
  const editable = mayWrite(ctx);
  const cellOf = (task: number, date: string) => grid.entries.filter((entry) => entry.task_id === task && entry.date === date);
  const total = (date: string) => grid.entries.filter((entry) => entry.date === date).reduce((sum, entry) => sum + entry.minutes, 0);
  const weekTotal = grid.entries.reduce((sum, entry) => sum + entry.minutes, 0);
  const link = (week: string) => `/app/time-entries/week?employee_id=${grid.employeeId ?? ""}&week=${week}`;
  return render(ctx.c, ctx.session, {
    status: state.status ?? 200,
    title: "Week",
    active: "/app/time-entries/week",
    body: (
      <>
        <div class="bar">
          <div>
            <h1>Week of {grid.monday}</h1>
            <p class="lead flush">
              <a href={link(addDays(grid.monday, -7))}>← Previous week</a> · <a href={link(addDays(grid.monday, 7))}>Next week →</a>
            </p>
          </div>
          <form method="get" action="/app/time-entries/week" class="period">
            <div class="field">
              <label for="week-employee">Employee</label>
              <select id="week-employee" name="employee_id">
                {grid.employees.map((employee) => (
                  <option value={String(employee.id)} selected={employee.id === grid.employeeId}>
                    {String(employee.name)}
                  </option>
                ))}
              </select>
            </div>
            <input type="hidden" name="week" value={grid.monday} />
            <button type="submit" class="secondary small">
              Show
            </button>
          </form>
        </div>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.errors && state.errors.size > 0 ? <Notice kind="error">Some cells were not saved; their messages are below them.</Notice> : null}
        {grid.employeeId === null ? (
          <p class="empty">No active employees yet.</p>
        ) : (
          <form method="post" action="/app/time-entries/week" class="card flush" novalidate>
            <input type="hidden" name="csrf" value={ctx.session.csrf} />
            <input type="hidden" name="employee_id" value={String(grid.employeeId)} />
            <input type="hidden" name="week" value={grid.monday} />
            <div class="table-wrap">
              <table class="week">
                <thead>
                  <tr>
                    <th scope="col">Task</th>
                    {days.map((date, i) => (
                      <th scope="col" class="num">
                        {DAYS[i]} <span class="meta">{date.slice(5)}</span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {[...grid.tasks].map(([task, label]) => (
                    <tr>
                      <th scope="row">
                        <a href={`/app/tasks/${task}`}>{label}</a>
                      </th>
                      {days.map((date) => {
                        const entries = cellOf(task, date);
                        const key = `${task}:${date}`;
                        const minutes = entries.reduce((sum, entry) => sum + entry.minutes, 0);
                        if (!editable || entries.length > 1) return <td class="num">{shown(minutes) || "—"}</td>;
                        const error = state.errors?.get(key);
                        return (
                          <td class="num">
                            <label class="sr-only" for={`cell-${task}-${date}`}>{`${label}, ${date}`}</label>
                            <input
                              id={`cell-${task}-${date}`}
                              class="short"
                              type="text"
                              inputmode="decimal"
                              name={`cell[${task}][${date}]`}
                              value={state.typed?.get(key) ?? shown(minutes)}
                              aria-invalid={error ? "true" : undefined}
                              aria-describedby={error ? `cell-${task}-${date}-error` : undefined}
                            />
                            {error ? (
                              <p class="field-error" id={`cell-${task}-${date}-error`}>
                                {error}
                              </p>
                            ) : null}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                  {editable ? (
                    <tr>
                      <th scope="row">
                        <label class="sr-only" for="new-task">
                          Add a task
                        </label>
                        <select id="new-task" name="new_task">
                          <option value="">+ add a task…</option>
                          {grid.openTasks
                            .filter((task) => !grid.tasks.has(task.id))
                            .map((task) => (
                              <option value={String(task.id)}>{titleOf(taskResource, task)}</option>
                            ))}
                        </select>
                      </th>
                      {days.map((date) => (
                        <td class="num">
                          <label class="sr-only" for={`new-${date}`}>{`New task, ${date}`}</label>
                          <input id={`new-${date}`} class="short" type="text" inputmode="decimal" name={`new[${date}]`} value="" />
                        </td>
                      ))}
                    </tr>
                  ) : null}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">Total ({formatMinutes(weekTotal)})</th>
                    {days.map((date) => (
                      <td class="num">{shown(total(date)) || "—"}</td>
                    ))}
                  </tr>
                </tfoot>
              </table>
            </div>
            {editable ? (
              <div class="form-actions pad">
                <button type="submit">Save the week</button>
                <span class="hint">Type 1:30 or 1.5 (hours); empty a cell to remove its time.</span>
              </div>
            ) : null}
          </form>
        )}
      </>
    ),
  });
}

weekPages.get(
  "/app/time-entries/week",
  signedIn(async (c, session) => {
    const ctx = pageContext(c, session, timeEntryResource);
    const grid = await loadGrid(ctx, c.req.query("employee_id"), c.req.query("week"));
    return weekPage(ctx, grid, { notice: c.req.query("done") === "saved" ? "Saved." : undefined });
  }),
);

weekPages.post(
  "/app/time-entries/week",
  posted(async (c: Context<AppEnv>, session: PageSession, form: FormData) => {
    const ctx = pageContext(c, session, timeEntryResource);
    const grid = await loadGrid(ctx, text(form, "employee_id"), text(form, "week"));
    if (grid.employeeId === null) return c.redirect("/app/time-entries/week", 303);
    const typed = new Map<string, string>();
    const wanted: { task: number; date: string; minutes: number; key: string }[] = [];
    const errors = new Map<string, string>();
    const days = new Set(DAYS.map((_, i) => addDays(grid.monday, i)));
    for (const [name, value] of form.entries()) {
      const match = /^cell\[(\d{1,16})\]\[(\d{4}-\d\d-\d\d)\]$/.exec(name);
      if (!match || typeof value !== "string" || !days.has(match[2]!)) continue;
      const key = `${match[1]}:${match[2]}`;
      typed.set(key, value);
      const minutes = parseDuration(value);
      if (minutes === null) errors.set(key, "type hours as 1:30 or 1.5");
      else wanted.push({ task: Number(match[1]), date: match[2]!, minutes, key });
    }
    const newTask = text(form, "new_task");
    for (const date of days) {
      const value = text(form, `new[${date}]`);
      if (value === "") continue;
      const minutes = parseDuration(value);
      if (!/^\d+$/.test(newTask)) errors.set(`new:${date}`, "choose the task first");
      else if (minutes === null) errors.set(`new:${date}`, "type hours as 1:30 or 1.5");
      else wanted.push({ task: Number(newTask), date, minutes, key: `${newTask}:${date}` });
    }
    // Nothing is written while any cell cannot be read.
    if (errors.size > 0) return weekPage(ctx, grid, { typed, errors, status: 400 });
    for (const cell of wanted) {
      const entries = grid.entries.filter((entry) => entry.task_id === cell.task && entry.date === cell.date);
      if (entries.length > 1) continue;
      const entry = entries[0];
      const result =
        entry && cell.minutes === 0
          ? await api(ctx, "DELETE", `/time-entries/${entry.id}`)
          : entry
            ? entry.minutes === cell.minutes
              ? null
              : await api(ctx, "PUT", `/time-entries/${entry.id}`, { minutes: cell.minutes })
            : cell.minutes > 0
              ? await api(ctx, "POST", "/time-entries", { employee_id: grid.employeeId, task_id: cell.task, date: cell.date, minutes: cell.minutes })
              : null;
      if (result && !result.ok) errors.set(cell.key, result.error.message);
    }
    if (errors.size > 0) {
      const fresh = await loadGrid(ctx, String(grid.employeeId), grid.monday);
      return weekPage(ctx, fresh, { typed, errors, status: 400 });
    }
    return c.redirect(`/app/time-entries/week?employee_id=${grid.employeeId}&week=${grid.monday}&done=saved`, 303);
  }),
);
