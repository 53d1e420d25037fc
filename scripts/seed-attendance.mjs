// The demo company's attendance (scripts/seed.mjs calls it): the last ~30 working days of ~15 employees —
// clock-ins around 08:30–09:40, clock-outs around 17:00–18:30, a few absences — with worked and late minutes
// computed as the API computes them against the default workday start (09:00, UTC), and today a few
// employees still clocked in (open records). Pure: SQL strings from the arguments, nothing read or written.

const DAY = 86_400_000;
const WORKDAY_START = 9 * 60;
const COLUMNS = ["id", "workspace_id", "employee_id", "date", "clock_in", "clock_out", "note", "worked_minutes", "late_minutes", "created_at", "updated_at"];

const quote = (value) =>
  value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
const hhmm = (minutes) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
const dateOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const isWeekday = (ms) => ![0, 6].includes(new Date(ms).getUTCDay());

/**
 * INSERT statements for the demo's attendance rows.
 * @param {{ workspaceId: number, firstId: number, employeeIds: number[], now: number, rand: () => number,
 *           joinedOn?: Record<number, string> }} options — `firstId` is the first attendance id to use;
 *           `rand` a seeded PRNG in [0, 1); `joinedOn` (optional) keeps records after each employee's joining date.
 * @returns {string[]}
 */
export function demoAttendanceSql({ workspaceId, firstId, employeeIds, now, rand, joinedOn = {} }) {
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const staff = employeeIds.slice(0, 15);
  const startOfToday = Date.parse(`${dateOf(now)}T00:00:00Z`);
  const rows = [];
  let id = firstId;
  const add = (employeeId, dayMs, clockIn, clockOut, note = null) => {
    const date = dateOf(dayMs);
    // The day's first arrival on a weekday is late after the workday start (the API's rule).
    const late = isWeekday(dayMs) ? Math.max(0, clockIn - WORKDAY_START) : 0;
    const stamp = dayMs + (clockOut ?? clockIn) * 60_000;
    rows.push({
      id: id++,
      workspace_id: workspaceId,
      employee_id: employeeId,
      date,
      clock_in: hhmm(clockIn),
      clock_out: clockOut === null ? null : hhmm(clockOut),
      note,
      worked_minutes: clockOut === null ? null : clockOut - clockIn,
      late_minutes: late,
      created_at: stamp,
      updated_at: stamp,
    });
  };
  // Arrivals bunch just before nine; about one in five is late, a few by more than half an hour.
  const arrival = () => (rand() < 0.8 ? between(8 * 60 + 30, 9 * 60) : between(9 * 60 + 1, 9 * 60 + 40));

  // The last 30 working days before today.
  const days = [];
  for (let ms = startOfToday - DAY; days.length < 30; ms -= DAY) if (isWeekday(ms)) days.unshift(ms);
  for (const dayMs of days) {
    for (const employeeId of staff) {
      if (joinedOn[employeeId] && dateOf(dayMs) < joinedOn[employeeId]) continue;
      if (rand() < 0.07) continue; // absent
      const clockIn = arrival();
      const clockOut = between(17 * 60, 18 * 60 + 30);
      add(employeeId, dayMs, clockIn, clockOut, rand() < 0.03 ? "Forgot to clock out; fixed by an admin" : null);
    }
  }
  // Today: the first few are in (never after this minute), and still clocked in.
  const minuteNow = Math.floor((now - startOfToday) / 60_000);
  for (const employeeId of staff.slice(0, 5)) add(employeeId, startOfToday, Math.max(0, Math.min(arrival(), minuteNow - between(1, 30))), null);

  const out = [];
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows.slice(i, i + 200).map((row) => `(${COLUMNS.map((column) => quote(row[column])).join(", ")})`);
    out.push(`INSERT INTO attendance (${COLUMNS.join(", ")}) VALUES\n${values.join(",\n")};`);
  }
  return out;
}
