// The demo company's leave (scripts/seed.mjs calls it): three leave types, the public holidays of the years
// around `now`, and ~40 requests over the past months and the next weeks — mostly approved, some pending,
// a few rejected or cancelled — with their working days counted as the API counts them (Monday–Friday,
// minus holidays), no two pending or approved requests of one employee sharing a day, approvals within each
// year's allowance, and at least one employee on approved leave today. Pure: SQL strings from the
// arguments, nothing read or written.

const DAY = 86_400_000;
const TYPE_COLUMNS = ["id", "workspace_id", "name", "days_per_year", "paid", "created_at", "updated_at"];
const HOLIDAY_COLUMNS = ["id", "workspace_id", "date", "name", "created_at", "updated_at"];
const REQUEST_COLUMNS = [
  "id",
  "workspace_id",
  "employee_id",
  "leave_type_id",
  "start_date",
  "end_date",
  "half_day",
  "reason",
  "status",
  "days",
  "decided_at",
  "created_at",
  "updated_at",
];

const quote = (value) =>
  value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
const dateOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const msOf = (date) => Date.parse(`${date}T00:00:00Z`);
const isWeekend = (ms) => [0, 6].includes(new Date(ms).getUTCDay());

/** Easter Sunday of a year (the anonymous Gregorian algorithm), as UTC milliseconds. */
function easter(year) {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/**
 * A year's public holidays, neither country's in particular: New Year's Day, Good Friday, Easter Monday,
 * Labour Day, Christmas and Boxing Day; one that falls on a weekend is observed on the next free weekday.
 */
export function demoHolidays(year) {
  const fixed = [
    [`${year}-01-01`, "New Year's Day"],
    [dateOf(easter(year) - 2 * DAY), "Good Friday"],
    [dateOf(easter(year) + DAY), "Easter Monday"],
    [`${year}-05-01`, "Labour Day"],
    [`${year}-12-25`, "Christmas Day"],
    [`${year}-12-26`, "Boxing Day"],
  ];
  const taken = new Set(fixed.map(([date]) => date));
  const out = [...fixed];
  for (const [date, name] of fixed) {
    if (!isWeekend(msOf(date))) continue;
    let ms = msOf(date) + DAY;
    while (isWeekend(ms) || taken.has(dateOf(ms))) ms += DAY;
    taken.add(dateOf(ms));
    out.push([dateOf(ms), `${name} (observed)`]);
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

const REASONS = {
  annual: ["Family holiday", "Long weekend", "Wedding", "Moving house", "Visiting parents", "Beach week", null, null],
  sick: ["Flu", "Dentist", "Migraine", "Back pain", null],
  unpaid: ["Extended trip", "Personal matters", "Course exam"],
};

/**
 * INSERT statements for the demo's leave types, holidays and requests.
 * @param {{ workspaceId: number, firstTypeId: number, firstHolidayId: number, firstRequestId: number,
 *           employeeIds: number[], now: number, rand: () => number }} options — the first ids to use for
 *           each table (leave_types, holidays, leave_requests); `rand` a seeded PRNG in [0, 1).
 * @returns {string[]}
 */
export function demoLeaveSql({ workspaceId, firstTypeId, firstHolidayId, firstRequestId, employeeIds, now, rand }) {
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const today = msOf(dateOf(now));
  const created = today - 400 * DAY;

  const types = [
    { key: "annual", id: firstTypeId, name: "Annual leave", days_per_year: 25, paid: 1 },
    { key: "sick", id: firstTypeId + 1, name: "Sick leave", days_per_year: 10, paid: 1 },
    { key: "unpaid", id: firstTypeId + 2, name: "Unpaid leave", days_per_year: 20, paid: 0 },
  ];

  // The holidays of every year a request may fall in: from ~7 months back to the year after this one.
  const years = [];
  for (let year = new Date(today - 220 * DAY).getUTCFullYear(); year <= new Date(today).getUTCFullYear() + 1; year++) years.push(year);
  const holidays = years.flatMap((year) => demoHolidays(year)).map(([date, name], i) => ({ id: firstHolidayId + i, date, name }));
  const closed = new Set(holidays.map((holiday) => holiday.date));
  const working = (ms) => !isWeekend(ms) && !closed.has(dateOf(ms));
  const workingDays = (start, end) => {
    let count = 0;
    for (let ms = msOf(start); ms <= msOf(end); ms += DAY) if (working(ms)) count++;
    return count;
  };

  const staff = employeeIds.slice(0, 16);
  const booked = new Map(); // employee → [start, end][] of pending or approved requests
  const used = new Map(); // `${employee}:${type}:${year}` → approved days
  const requests = [];
  const overlaps = (employee, start, end) => (booked.get(employee) ?? []).some(([s, e]) => s <= end && e >= start);

  /** A request as the API would have written it, or null when it cannot be (no working day, an overlap, a new year inside). */
  const add = (employee, type, startMs, endMs, status, halfDay = false) => {
    const start = dateOf(startMs);
    const end = dateOf(endMs);
    if (start.slice(0, 4) !== end.slice(0, 4) || overlaps(employee, start, end)) return null;
    const days = halfDay ? 0.5 : workingDays(start, end);
    if (days === 0) return null;
    const year = start.slice(0, 4);
    const key = `${employee}:${type.id}:${year}`;
    if (status === "approved" && (used.get(key) ?? 0) + days > type.days_per_year) status = startMs > today ? "pending" : "rejected";
    if (status === "approved") used.set(key, (used.get(key) ?? 0) + days);
    if (status === "approved" || status === "pending") booked.set(employee, [...(booked.get(employee) ?? []), [start, end]]);
    // Asked for one to four weeks ahead (sick leave on the day), decided a day or two later — never after now.
    const asked = Math.min(now - 3_600_000, type.key === "sick" ? startMs + 8 * 3_600_000 : startMs - between(7, 28) * DAY + between(9, 17) * 3_600_000);
    const decided = status === "pending" ? null : Math.min(now - 60_000, asked + between(2, 40) * 3_600_000);
    requests.push({
      id: firstRequestId + requests.length,
      workspace_id: workspaceId,
      employee_id: employee,
      leave_type_id: type.id,
      start_date: start,
      end_date: end,
      half_day: halfDay ? 1 : 0,
      reason: pick(REASONS[type.key]),
      status,
      days,
      // Cancelling is not a decision: a cancelled request keeps the approval's time, if it had one.
      decided_at: status === "cancelled" ? (rand() < 0.5 ? decided : null) : decided,
      created_at: asked,
      updated_at: decided ?? asked,
    });
    return requests.at(-1);
  };

  /** The day `length` working days from a working day (itself for 1). */
  const after = (startMs, length) => {
    let endMs = startMs;
    for (let n = 1; n < length; ) {
      endMs += DAY;
      if (working(endMs)) n++;
    }
    return endMs;
  };

  // Today: the first employee is away on annual leave spanning today (from the last working day before it
  // up to two working days ahead, within this year), the second off sick today when it is a working day.
  const year = dateOf(today).slice(0, 4);
  let from = today;
  while (!working(from) && dateOf(from - DAY).startsWith(year)) from -= DAY;
  let until = today;
  for (let n = 0; n < 2 && dateOf(until + DAY).startsWith(year); ) {
    until += DAY;
    if (working(until)) n++;
  }
  add(staff[0], types[0], from, until, "approved");
  if (working(today)) add(staff[1], types[1], today, today, "approved");

  // The past ~6 months and the next ~6 weeks.
  for (let attempts = 0; requests.length < 40 && attempts < 400; attempts++) {
    const employee = pick(staff);
    const roll = rand();
    const startMs = today + between(-180, 42) * DAY;
    const future = startMs > today;
    // Sickness is not booked ahead.
    const type = roll < 0.68 || (future && roll < 0.9) ? types[0] : roll < 0.9 ? types[1] : types[2];
    const halfDay = type.key !== "unpaid" && rand() < 0.12;
    const days = halfDay ? 1 : type.key === "sick" ? between(1, 3) : type.key === "unpaid" ? between(2, 5) : pick([1, 2, 3, 5, 5, 4, 10]);
    const r = rand();
    const status = future
      ? r < 0.5
        ? "pending"
        : r < 0.94
          ? "approved"
          : "cancelled"
      : type.key === "sick"
        ? "approved"
        : r < 0.84
          ? "approved"
          : r < 0.93
            ? "rejected"
            : "cancelled";
    if (working(startMs)) add(employee, type, startMs, after(startMs, days), status, halfDay);
  }

  const insert = (table, columns, rows) => {
    const out = [];
    for (let i = 0; i < rows.length; i += 200) {
      const values = rows.slice(i, i + 200).map((row) => `(${columns.map((column) => quote(row[column])).join(", ")})`);
      out.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES\n${values.join(",\n")};`);
    }
    return out;
  };
  return [
    ...insert(
      "leave_types",
      TYPE_COLUMNS,
      types.map((type) => ({ ...type, workspace_id: workspaceId, created_at: created, updated_at: created })),
    ),
    ...insert(
      "holidays",
      HOLIDAY_COLUMNS,
      holidays.map((holiday) => ({ ...holiday, workspace_id: workspaceId, created_at: created, updated_at: created })),
    ),
    ...insert(
      "leave_requests",
      REQUEST_COLUMNS,
      requests.sort((a, b) => a.created_at - b.created_at).map((request, i) => ({ ...request, id: firstRequestId + i })),
    ),
  ];
}
