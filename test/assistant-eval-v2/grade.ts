/**
 * The grader of the blind evaluation set (README.md beside this file, "How it is graded").
 *
 * Written blind to how the assistant works: the ground truth of every item is computed here from the
 * records the REST API returns for the seeded demo (every row of each resource, read once as the demo's
 * owner), and the assistant's reply is compared with it through the answer contract only. What is a list
 * filter of the API rather than a field of the record (invoices `overdue`, payments `customer_id`,
 * customers `country`) is asked of the API's own list filter, never re-implemented here.
 *
 * Nothing here imports the worker: it runs in the tests (workerd) and, for checking the grader itself,
 * in Node.
 */
import type { Item } from "./split";

export type Row = Record<string, any>;
/** One GET through the API as the demo's owner (`path` without /api/v1). */
export type Get = (path: string) => Promise<{ status: number; json: any }>;

/** Every resource the set names (in queries, actions, subjects and references). */
export const RESOURCES = [
  "customers",
  "invoices",
  "payments",
  "contacts",
  "leads",
  "deals",
  "employees",
  "projects",
  "tasks",
  "time-entries",
  "job-openings",
  "candidates",
] as const;

/** The field that names a record of each resource (how the set refers to one). */
const LABEL: Record<string, string> = {
  customers: "name",
  invoices: "number",
  contacts: "name",
  leads: "name",
  deals: "name",
  employees: "name",
  projects: "name",
  tasks: "title",
  "job-openings": "title",
  candidates: "name",
};

/** Reference fields (of the records, of the list filters, and of the write bodies): field → the resource it points to. */
const REFS: Record<string, Record<string, string>> = {
  invoices: { customer_id: "customers" },
  payments: { invoice_id: "invoices", customer_id: "customers" },
  deals: { contact_id: "contacts", customer_id: "customers" },
  projects: { customer_id: "customers" },
  tasks: { project_id: "projects", assignee_id: "employees" },
  "time-entries": { employee_id: "employees", task_id: "tasks", project_id: "projects" },
  candidates: { job_opening_id: "job-openings", employee_id: "employees" },
};

/** Through which field a subject of another resource restricts a query (see the set's README). */
const SUBJECT_FIELD: Record<string, Record<string, string>> = {
  invoices: { customers: "customer_id" },
  payments: { customers: "customer_id", invoices: "invoice_id" },
  deals: { customers: "customer_id", contacts: "contact_id" },
  projects: { customers: "customer_id" },
  tasks: { projects: "project_id", employees: "assignee_id" },
  "time-entries": { employees: "employee_id", projects: "project_id", tasks: "task_id" },
  candidates: { "job-openings": "job_opening_id" },
};

/** Money fields (minor units, in the record's `currency`): their aggregates are {CURRENCY: amount} maps. */
const MONEY: Record<string, string[]> = {
  invoices: ["subtotal", "tax_total", "total", "amount_paid", "amount_due"],
  payments: ["amount"],
  deals: ["value"],
  leads: ["value"],
  customers: ["balance"],
};

/** Date fields whose words point forward ("due friday" is the coming Friday); every other date field looks back. */
const FORWARD_QUERY_FIELDS = new Set(["due_date", "expected_close_date", "end_date"]);
/** In an action every date looks forward (due dates, deadlines, starts) except when something happened. */
const BACKWARD_ACTION_FIELDS = new Set(["date", "paid_at", "issue_date"]);
/** Body fields of a write that take a date (or a date-time, compared by its UTC day). */
const DATE_BODY_FIELDS = new Set(["due_date", "expected_close_date", "start_date", "end_date", "date_of_joining", "date", "issue_date", "paid_at"]);
/** Free text compared by containment (a line's description: "Licence" for "3 licences"). */
const LOOSE_TEXT_FIELDS = new Set(["description"]);

/** The item cannot be graded as written: a name that matches no record, or several (without `matches`). */
export class Unresolvable extends Error {}
/** The item asks for something the API cannot express or check (a field no write takes, an unknown date word). */
export class Unverifiable extends Error {}

// ───────────────────────────── the ground truth ─────────────────────────────

export type Truth = {
  now: number;
  rows: Record<string, Row[]>;
  byId: Record<string, Map<number, Row>>;
  /** The live OpenAPI document (request bodies, list filters). */
  openapi: any;
  get: Get;
  /** Ids a list filter returns, by request path (each asked once). */
  filtered: Map<string, Promise<Set<number>>>;
  requests: number;
  /** Names resolved other than exactly, as they happen (`expectationsOf` hands each item its own). */
  notes: string[];
};

/** Every row of a list, following `meta.next_cursor` until `meta.has_more` is false. */
async function fetchAll(truth: Pick<Truth, "get" | "requests">, path: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  const join = path.includes("?") ? "&" : "?";
  do {
    const res = await truth.get(`${path}${join}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    truth.requests++;
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.json)?.slice(0, 300)}`);
    rows.push(...res.json.data);
    cursor = res.json.meta?.has_more ? res.json.meta.next_cursor : null;
  } while (cursor);
  return rows;
}

/** Reads every row of every resource the set names, once, and the OpenAPI document. */
export async function loadTruth(get: Get, now: number, openapi: any): Promise<Truth> {
  const truth: Truth = { now, rows: {}, byId: {}, openapi, get, filtered: new Map(), requests: 0, notes: [] };
  for (const resource of RESOURCES) {
    const rows = await fetchAll(truth, `/${resource}`);
    truth.rows[resource] = rows;
    truth.byId[resource] = new Map(rows.map((row) => [row.id as number, row]));
  }
  return truth;
}

/** The ids a list filter of the API returns (`GET /{resource}?{field}={value}`, every page). */
function filteredIds(truth: Truth, resource: string, field: string, value: string): Promise<Set<number>> {
  const path = `/${resource}?${field}=${encodeURIComponent(value)}`;
  let ids = truth.filtered.get(path);
  if (!ids) {
    ids = fetchAll(truth, path).then((rows) => new Set(rows.map((row) => row.id as number)));
    truth.filtered.set(path, ids);
  }
  return ids;
}

const GENERIC_PARAMS = new Set([
  "limit",
  "cursor",
  "sort",
  "q",
  "created_after",
  "created_before",
  "updated_after",
  "updated_before",
  "include_total",
  "include_deleted",
  "ids",
  "expand",
]);

/** The list filters of `GET /{resource}` in the OpenAPI document (besides paging, sort and search). */
function listFilters(truth: Truth, resource: string): Set<string> {
  const parameters: any[] = truth.openapi?.paths?.[`/${resource}`]?.get?.parameters ?? [];
  return new Set(
    parameters
      .map((parameter) => (parameter.$ref ? deref(truth.openapi, parameter) : parameter))
      .filter((parameter) => parameter?.in === "query" && !GENERIC_PARAMS.has(parameter.name))
      .map((parameter) => parameter.name as string),
  );
}

function deref(doc: any, node: any): any {
  let current = node;
  for (let depth = 0; current?.$ref && depth < 20; depth++) {
    current = String(current.$ref)
      .replace(/^#\//, "")
      .split("/")
      .reduce((at: any, key: string) => at?.[key.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
  }
  return current;
}

// ───────────────────────────── dates ─────────────────────────────

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export type Range = { from: string; to: string };
type Direction = "past" | "future";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_RE = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const WEEKDAYS: Record<string, number> = {
  monday: 0,
  mon: 0,
  tuesday: 1,
  tue: 1,
  tues: 1,
  wednesday: 2,
  wed: 2,
  thursday: 3,
  thu: 3,
  thur: 3,
  thurs: 3,
  friday: 4,
  fri: 4,
  saturday: 5,
  sat: 5,
  sunday: 6,
  sun: 6,
};
const monthIndex = (word: string) => MONTHS.indexOf(word.slice(0, 3));
const monthRange = (year: number, month: number): Range => ({ from: isoDay(Date.UTC(year, month, 1)), to: isoDay(Date.UTC(year, month + 1, 0)) });
const one = (ms: number): Range => ({ from: isoDay(ms), to: isoDay(ms) });

/**
 * A user's date words as an inclusive range of UTC days at `now`: weeks start on Monday; this/last/next
 * week|month|quarter|year are whole calendar periods; "last N days" ends today; a bare month, quarter or
 * day looks back (a month after the current one is last year's) — or forward for due dates and
 * deadlines. `variant` 1 is the other reading of the few ambiguous words ("next friday" as the coming
 * Friday rather than next week's; in a question, "the 15th" of this month when it is behind a
 * forward-looking field — not in a write, `strictDays`, where a new date is the next one).
 */
export function resolveDateWords(words: string, now: number, direction: Direction, variant = 0, strictDays = false): Range {
  const text = words
    .toLowerCase()
    .trim()
    .replace(/[?.!,]+$/, "")
    .replace(/\s+/g, " ")
    .replace(/\bwk\b/g, "week")
    .replace(/\byr\b/g, "year")
    .replace(/\bqtr\b/g, "quarter")
    .replace(/\b(tmrw|tmr|tomorow)\b/g, "tomorrow")
    .replace(/\b(previous|past)\b/g, "last")
    .replace(/\bthe month\b/g, "this month")
    // "in october", "in 2026", "during q3": the period itself.
    .replace(/^(?:in|during)\s+(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|q[1-4]\b|\d{4}$)/, "");
  const today = dayMs(isoDay(now));
  // "h1", "first half": January to June of this year; "h2", July to December.
  const half = /^(?:(h1|1h|first half)|(h2|2h|second half))(?: of (?:the |this )?year)?$/.exec(text);
  if (half) {
    const y = new Date(today).getUTCFullYear();
    return half[1] ? { from: `${y}-01-01`, to: `${y}-06-30` } : { from: `${y}-07-01`, to: `${y}-12-31` };
  }
  const date = new Date(today);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const dom = date.getUTCDate();
  const dow = (date.getUTCDay() + 6) % 7;
  const weekStart = today - dow * DAY;
  const quarter = Math.floor(month / 3);
  if (["now", "today", "right now", "rn", "so far"].includes(text)) return one(today);
  if (text === "yesterday") return one(today - DAY);
  if (text === "tomorrow") return one(today + DAY);
  if (/^(the )?day before yesterday$/.test(text)) return one(today - 2 * DAY);
  if (/^(the )?day after tomorrow$/.test(text)) return one(today + 2 * DAY);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return { from: text, to: text };
  if (/^\d{4}-\d{2}-\d{2}t/.test(text)) return { from: text.slice(0, 10), to: text.slice(0, 10) };
  const yearOnly = text.match(/^(\d{4})$/);
  if (yearOnly) return { from: `${yearOnly[1]}-01-01`, to: `${yearOnly[1]}-12-31` };
  const period = text.match(/^(this|last|next) (week|month|quarter|year)$/);
  if (period) {
    const step = period[1] === "this" ? 0 : period[1] === "last" ? -1 : 1;
    if (period[2] === "week") return { from: isoDay(weekStart + 7 * step * DAY), to: isoDay(weekStart + (7 * step + 6) * DAY) };
    if (period[2] === "month") return monthRange(year, month + step);
    if (period[2] === "quarter") return { from: monthRange(year, (quarter + step) * 3).from, to: monthRange(year, (quarter + step) * 3 + 2).to };
    return { from: `${year + step}-01-01`, to: `${year + step}-12-31` };
  }
  if (/^(the )?week before( last)?( week)?$/.test(text)) return { from: isoDay(weekStart - 14 * DAY), to: isoDay(weekStart - 8 * DAY) };
  const lastN = text.match(/^last (\d+) (day|week|month)s?$/);
  if (lastN) {
    const n = Number(lastN[1]);
    if (lastN[2] === "month") return { from: isoDay(Date.UTC(year, month - n, dom) + DAY), to: isoDay(today) };
    return { from: isoDay(today - (n * (lastN[2] === "week" ? 7 : 1) - 1) * DAY), to: isoDay(today) };
  }
  const ago = text.match(/^(\d+) (day|week)s? ago$/);
  if (ago) return one(today - Number(ago[1]) * (ago[2] === "week" ? 7 : 1) * DAY);
  const ahead = text.match(/^in (\d+) (day|week)s?$/);
  if (ahead) return one(today + Number(ahead[1]) * (ahead[2] === "week" ? 7 : 1) * DAY);
  const quarterWord = text.match(/^q([1-4])(?: (\d{4}))?$/);
  if (quarterWord) {
    const q = Number(quarterWord[1]) - 1;
    const y = quarterWord[2] ? Number(quarterWord[2]) : direction === "past" ? (q > quarter ? year - 1 : year) : q < quarter ? year + 1 : year;
    return { from: monthRange(y, q * 3).from, to: monthRange(y, q * 3 + 2).to };
  }
  const weekday = text.match(/^(?:(this|next|last|on) )?([a-z]+)$/);
  if (weekday && weekday[2]! in WEEKDAYS) {
    const wd = WEEKDAYS[weekday[2]!]!;
    const coming = today + ((wd - dow + 7) % 7 || 7) * DAY;
    const previous = today - ((dow - wd + 7) % 7 || 7) * DAY;
    if (weekday[1] === "this") return one(weekStart + wd * DAY);
    if (weekday[1] === "next") return one(variant === 0 ? weekStart + (7 + wd) * DAY : coming);
    if (weekday[1] === "last") return one(variant === 0 ? previous : weekStart + (wd - 7) * DAY);
    if (direction === "past") return one(wd === dow ? today : previous);
    return one(coming);
  }
  const monthWord = text.match(new RegExp(`^${MONTH_RE}(?: (\\d{4}))?$`));
  if (monthWord) {
    const m = monthIndex(monthWord[1]!);
    const y = monthWord[2] ? Number(monthWord[2]) : direction === "past" ? (m > month ? year - 1 : year) : m < month ? year + 1 : year;
    return monthRange(y, m);
  }
  const monthDay =
    text.match(new RegExp(`^${MONTH_RE} (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?$`)) ??
    text.match(new RegExp(`^(?:the )?(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH_RE}(?:,? (\\d{4}))?$`));
  if (monthDay) {
    const [m, d] = /^\d/.test(monthDay[1]!) ? [monthIndex(monthDay[2]!), Number(monthDay[1])] : [monthIndex(monthDay[1]!), Number(monthDay[2])];
    if (monthDay[3]) return one(Date.UTC(Number(monthDay[3]), m, d));
    const same = Date.UTC(year, m, d);
    if (direction === "past") return one(same > today ? Date.UTC(year - 1, m, d) : same);
    return one(same < today ? Date.UTC(year + 1, m, d) : same);
  }
  const dayOfMonth = text.match(/^(?:the )?(\d{1,2})(?:st|nd|rd|th)$/);
  if (dayOfMonth) {
    const d = Number(dayOfMonth[1]);
    if (variant === 1 && !strictDays) return one(Date.UTC(year, month, d));
    if (direction === "past") return one(d <= dom ? Date.UTC(year, month, d) : Date.UTC(year, month - 1, d));
    return one(d >= dom ? Date.UTC(year, month, d) : Date.UTC(year, month + 1, d));
  }
  const since = text.match(/^since (.+)$/);
  if (since) return { from: resolveDateWords(since[1]!, now, "past", variant, strictDays).from, to: isoDay(today) };
  const endOf = text.match(/^end of (.+)$/);
  if (endOf) return one(dayMs(resolveDateWords(endOf[1]!, now, direction, variant, strictDays).to));
  const startOf = text.match(/^(?:start|beginning) of (.+)$/);
  if (startOf) return one(dayMs(resolveDateWords(startOf[1]!, now, direction, variant, strictDays).from));
  throw new Unverifiable(`unknown date words "${words}"`);
}

// ───────────────────────────── names ─────────────────────────────

const normalize = (value: unknown) =>
  String(value ?? "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ")
    .trim();

/** Damerau–Levenshtein (optimal string alignment) distance, for the few misspelt names. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** How a name was matched, when not exactly: kept so that a tolerant match can be audited. */
type Matched = { rows: Row[]; how: "exact" | "prefix" | "contains" | "near" | "none" };

/** The rows a name matches: exact (any case), else a unique prefix, else a unique substring, else a unique near spelling. */
function matchName(rows: Row[], field: string, name: string): Matched {
  const wanted = normalize(name);
  const label = (row: Row) => normalize(row[field]);
  const exact = rows.filter((row) => label(row) === wanted);
  if (exact.length > 0) return { rows: exact, how: "exact" };
  const prefix = rows.filter((row) => label(row).startsWith(wanted));
  if (prefix.length > 0) return { rows: prefix, how: "prefix" };
  const inside = rows.filter((row) => label(row).includes(wanted));
  if (inside.length > 0) return { rows: inside, how: "contains" };
  const limit = wanted.length >= 10 ? 2 : wanted.length >= 5 ? 1 : 0;
  const scored = rows.map((row) => ({ row, d: distance(label(row), wanted) })).filter(({ d }) => d <= limit);
  const best = Math.min(...scored.map(({ d }) => d));
  const near = scored.filter(({ d }) => d === best).map(({ row }) => row);
  return { rows: near, how: near.length > 0 ? "near" : "none" };
}

type Reference = { resource: string; name?: string; id?: number; project?: string };

/** One record of `resource` named by the set (a name, an id, an invoice number, a task within a project). */
function resolveRecord(truth: Truth, reference: Reference): Row {
  const { resource } = reference;
  const rows = truth.rows[resource];
  if (!rows) throw new Unverifiable(`no rows of ${resource}`);
  if (reference.id !== undefined && reference.id !== null) {
    const row = truth.byId[resource]!.get(Number(reference.id));
    if (!row) throw new Unresolvable(`${resource} ${reference.id} does not exist`);
    return row;
  }
  const name = String(reference.name ?? "");
  if (resource === "payments") {
    // "the payment on INV-000162": that invoice's one payment.
    const number = name.match(/INV-\d+/i)?.[0];
    if (!number) throw new Unresolvable(`cannot tell which payment "${name}" is`);
    const invoice = resolveRecord(truth, { resource: "invoices", name: number });
    const payments = rows.filter((row) => row.invoice_id === invoice.id);
    if (payments.length !== 1) throw new Unresolvable(`${number} has ${payments.length} payments`);
    return payments[0]!;
  }
  let pool = rows;
  if (resource === "tasks" && reference.project) {
    const project = resolveRecord(truth, { resource: "projects", name: reference.project });
    pool = rows.filter((row) => row.project_id === project.id);
  }
  let name2 = name;
  if (resource === "invoices") {
    // "inv 335" / "335" → INV-000335
    const digits = name.match(/^(?:inv[- ]?)?0*(\d{1,6})$/i)?.[1];
    if (digits) name2 = `INV-${digits.padStart(6, "0")}`;
  }
  const matched = matchName(pool, LABEL[resource] ?? "name", name2);
  const found = matched.rows;
  if (found.length === 1 && matched.how !== "exact") truth.notes.push(`${resource} "${name}" → "${found[0]![LABEL[resource] ?? "name"]}" (${matched.how})`);
  const where = reference.project ? ` in ${reference.project}` : "";
  if (found.length === 0) throw new Unresolvable(`no ${resource} named "${name}"${where}`);
  if (found.length > 1) {
    throw new Unresolvable(
      `"${name}"${where} matches ${found.length} ${resource}: ${found
        .slice(0, 4)
        .map((row) => `${row.id} ${row[LABEL[resource] ?? "name"]}`)
        .join(", ")}${found.length > 4 ? ", …" : ""}`,
    );
  }
  return found[0]!;
}

/** A reference value of the set (a name, an id, an object naming a record, null) as the id it means. */
function referenceId(truth: Truth, target: string, value: unknown, context?: Reference | null): number | null {
  if (value === null) return null;
  if (typeof value === "number") return resolveRecord(truth, { resource: target, id: value }).id;
  if (typeof value === "object") return resolveRecord(truth, { resource: target, ...(value as object) } as Reference).id;
  const project = target === "tasks" && context?.resource === "tasks" && normalize(context.name) === normalize(value) ? context.project : undefined;
  return resolveRecord(truth, { resource: target, name: String(value), project }).id;
}

// ───────────────────────────── expectations ─────────────────────────────

export type MoneyMap = Record<string, number>;
export type Value = number | MoneyMap | string | boolean | null;

export type Expectation =
  | {
      kind: "records";
      resource: string;
      ids: number[];
      /** With order + limit: the top-N by this field (any valid top-N under ties). */
      rank?: { field: string; order: "asc" | "desc"; limit: number; values: Map<number, unknown> };
      /** A lookup: this record must be among the ids … */
      lookup?: { id: number };
      /** … and the answer must name this field. */
      field?: string;
    }
  | { kind: "count"; resource: string; value: number }
  | { kind: "value"; resource: string; fn: string; field: string; value: Value; money: boolean; date: boolean }
  | {
      kind: "groups";
      resource: string;
      fn: string;
      field: string | null;
      groupBy: string;
      groups: Map<string, Value>;
      order: "asc" | "desc" | null;
      limit: number | null;
      money: boolean;
    }
  | { kind: "clarify"; candidates: { name: string; ids: number[] }[] }
  | { kind: "action"; methods: string[]; paths: string[]; body: Record<string, Matcher> }
  | { kind: "slot"; missing: string[] }
  | { kind: "refusal" }
  /** A question about a name the workspace does not have: an empty answer, or a reply that says it was not found. */
  | { kind: "notfound"; name: string };

export type Outcome = ({ status: "ok"; expectations: Expectation[] } | { status: "unverifiable" | "unresolvable"; reason: string }) & {
  /** Names that resolved only by a prefix, a substring or a near spelling. */
  notes: string[];
};

type Matcher =
  | { t: "eq"; v: unknown }
  | { t: "text"; v: string; loose: boolean; compact?: boolean }
  | { t: "date"; v: string }
  | { t: "obj"; fields: Record<string, Matcher> }
  | { t: "arr"; items: Matcher[] };

type Query = {
  resource: string;
  filters?: { field: string; op: string; value: unknown }[];
  period?: { field: string; from: string | null; to: string | null } | null;
  aggregate?: { fn: string; field?: string | null; group_by?: string | null; order?: "asc" | "desc" | null; limit?: number | null } | null;
  subject?: (Reference & { matches?: string[] }) | null;
};

type Action = {
  resource: string;
  operation: string;
  target?: Reference | null;
  fields?: Record<string, unknown>;
  missing?: string[];
};

/** The expected answer(s) of an item: one, or two when a date word has two readings (either is right). */
export async function expectationsOf(item: Item, truth: Truth): Promise<Outcome> {
  const before = truth.notes.length;
  const notes = () => [...new Set(truth.notes.slice(before))];
  try {
    const variants: Expectation[] = [];
    for (const variant of [0, 1]) {
      const expectation =
        item.kind === "refusal"
          ? ({ kind: "refusal" } as const)
          : item.kind === "action"
            ? expectAction(item.action as Action, truth, variant)
            : await expectQuery(item.query as Query, truth, variant);
      if (!variants.some((seen) => same(seen, expectation))) variants.push(expectation);
    }
    return { status: "ok", expectations: variants, notes: notes() };
  } catch (error) {
    // A query about a record that does not exist (the writer chose a name the demo lacks, on purpose): the right
    // answer is to say so, or an empty one. Ambiguous names without "matches" stay unresolvable.
    const missing = error instanceof Unresolvable && item.kind === "query" ? /^no \S+ named "([^"]+)"/.exec(error.message) : null;
    if (missing) return { status: "ok", expectations: [{ kind: "notfound", name: missing[1]! }], notes: notes() };
    if (error instanceof Unresolvable) return { status: "unresolvable", reason: error.message, notes: notes() };
    if (error instanceof Unverifiable) return { status: "unverifiable", reason: error.message, notes: notes() };
    throw error;
  }
}

/**
 * The same first message written by both writers with two readings (e.g. progress as tasks per status,
 * or as the project's completed_task_count): either reading is right for either item.
 */
export function acceptOtherReadings(items: Item[], outcomes: Map<string, Outcome>): string[][] {
  const key = (item: Item) => normalize(item.message).replace(/[^a-z0-9 ]/g, "");
  const groups = new Map<string, Item[]>();
  for (const item of items) if (!item.after) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  const merged: string[][] = [];
  for (const group of groups.values()) {
    const ok = group.filter((item) => outcomes.get(item.id)?.status === "ok");
    if (ok.length < 2) continue;
    const readings: Expectation[] = [];
    for (const item of ok) {
      for (const expectation of (outcomes.get(item.id) as Extract<Outcome, { status: "ok" }>).expectations) {
        if (!readings.some((seen) => same(seen, expectation))) readings.push(expectation);
      }
    }
    if (readings.length === (outcomes.get(ok[0]!.id) as Extract<Outcome, { status: "ok" }>).expectations.length) continue;
    for (const item of ok) (outcomes.get(item.id) as Extract<Outcome, { status: "ok" }>).expectations = readings;
    merged.push(ok.map((item) => item.id));
  }
  return merged;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a, replacer) === JSON.stringify(b, replacer);
function replacer(_key: string, value: unknown) {
  return value instanceof Map ? [...value.entries()] : value instanceof Set ? [...value] : value;
}

type Kind = "date" | "datetime" | "number" | "boolean" | "string" | "unknown";
/** What a record field holds, read from the rows themselves. */
function kindOf(rows: Row[], field: string): Kind {
  for (const row of rows) {
    const value = row[field];
    if (value === null || value === undefined) continue;
    if (typeof value === "number") return "number";
    if (typeof value === "boolean") return "boolean";
    if (typeof value === "string") return /^\d{4}-\d{2}-\d{2}$/.test(value) ? "date" : /^\d{4}-\d{2}-\d{2}T/.test(value) ? "datetime" : "string";
    return "unknown";
  }
  return "unknown";
}

const dayOf = (value: unknown) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);

async function expectQuery(query: Query, truth: Truth, variant: number): Promise<Expectation> {
  const { resource } = query;
  const all = truth.rows[resource];
  if (!all) throw new Unverifiable(`unknown resource ${resource}`);
  const fieldsOf = new Set(all.flatMap((row) => Object.keys(row)));
  const filters = listFilters(truth, resource);
  let rows = all;

  // Ambiguous name: the answer is a question offering the records it could be.
  if (query.subject?.matches?.length) {
    const { subject } = query;
    const candidates = subject.matches!.map((name) => ({ name, ids: [resolveRecord(truth, { resource: subject.resource, name }).id] }));
    return { kind: "clarify", candidates };
  }

  for (const filter of query.filters ?? []) {
    rows = await applyFilter(truth, resource, rows, fieldsOf, filters, filter, variant);
  }

  if (query.period) {
    const { field, from, to } = query.period;
    if (!fieldsOf.has(field)) throw new Unverifiable(`${resource} has no date field ${field}`);
    const direction: Direction = FORWARD_QUERY_FIELDS.has(field) ? "future" : "past";
    const start = from ? resolveDateWords(from, truth.now, direction, variant).from : null;
    const end = to ? resolveDateWords(to, truth.now, direction, variant).to : from ? resolveDateWords(from, truth.now, direction, variant).to : null;
    rows = rows.filter((row) => {
      const day = dayOf(row[field]);
      return day !== null && (start === null || day >= start) && (end === null || day <= end);
    });
  }

  let lookup: { id: number } | undefined;
  if (query.subject) {
    const subject = query.subject;
    const record = resolveRecord(truth, subject);
    if (subject.resource === resource) {
      rows = rows.filter((row) => row.id === record.id);
      lookup = { id: record.id };
    } else {
      const field = SUBJECT_FIELD[resource]?.[subject.resource];
      if (!field) throw new Unverifiable(`a ${subject.resource} subject does not restrict ${resource}`);
      rows = await applyFilter(truth, resource, rows, fieldsOf, filters, { field, op: "eq", value: record.id }, variant);
    }
  }

  const aggregate = query.aggregate ?? { fn: "list" };
  const fn = aggregate.fn;
  const field = aggregate.field ?? null;
  if (field && !fieldsOf.has(field) && fn !== "list") throw new Unverifiable(`${resource} has no field ${field} to ${fn}`);
  const money = Boolean(field && MONEY[resource]?.includes(field));
  const kind = field ? kindOf(all, field) : "unknown";

  if (aggregate.group_by) {
    const groupBy = aggregate.group_by;
    if (!fieldsOf.has(groupBy)) throw new Unverifiable(`${resource} has no field ${groupBy} to group by`);
    const buckets = new Map<string, Row[]>();
    for (const row of rows) {
      const key = groupKey(row[groupBy]);
      buckets.set(key, [...(buckets.get(key) ?? []), row]);
    }
    const groups = new Map<string, Value>();
    for (const [key, members] of buckets) groups.set(key, aggregateOf(fn === "list" ? "count" : fn, members, field, money, kind));
    return {
      kind: "groups",
      resource,
      fn: fn === "list" ? "count" : fn,
      field,
      groupBy,
      groups,
      order: aggregate.order ?? null,
      limit: aggregate.limit ?? null,
      money,
    };
  }
  if (fn === "count") return { kind: "count", resource, value: rows.length };
  if (fn === "list") {
    const ids = rows.map((row) => row.id as number);
    // A lookup names its record by a subject, or by a filter on the name (or number) alone.
    const identity = (query.filters ?? []).length === 1 && query.filters![0]!.op === "eq" && query.filters![0]!.field === LABEL[resource];
    const expectation: Expectation = { kind: "records", resource, ids };
    if (field && (lookup || identity)) {
      expectation.field = field;
      if (lookup) expectation.lookup = lookup;
    }
    if (identity && ids.length === 0) throw new Unresolvable(`no ${resource} with ${query.filters![0]!.field} "${query.filters![0]!.value}"`);
    if (field && aggregate.order && aggregate.limit) {
      if (!fieldsOf.has(field)) throw new Unverifiable(`${resource} has no field ${field} to rank by`);
      expectation.rank = { field, order: aggregate.order, limit: aggregate.limit, values: new Map(rows.map((row) => [row.id, row[field]])) };
    }
    return expectation;
  }
  if (!field) throw new Unverifiable(`${fn} without a field`);
  return { kind: "value", resource, fn, field, value: aggregateOf(fn, rows, field, money, kind), money, date: kind === "date" || kind === "datetime" };
}

function groupKey(value: unknown): string {
  if (value === null || value === undefined || value === "") return "∅";
  if (typeof value === "string") return normalize(value);
  return String(value);
}

function aggregateOf(fn: string, rows: Row[], field: string | null, money: boolean, kind: Kind): Value {
  if (fn === "count") return rows.length;
  if (!field) throw new Unverifiable(`${fn} without a field`);
  const present = rows.filter((row) => row[field] !== null && row[field] !== undefined);
  if (money) {
    const byCurrency = new Map<string, number[]>();
    for (const row of present) {
      const currency = String(row.currency).toUpperCase();
      byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), Number(row[field])]);
    }
    const out: MoneyMap = {};
    for (const [currency, values] of byCurrency) out[currency] = reduce(fn, values) as number;
    return out;
  }
  if (kind === "date" || kind === "datetime") {
    if (fn !== "min" && fn !== "max") throw new Unverifiable(`${fn} of a date`);
    const days = present.map((row) => String(row[field])).sort();
    return days.length === 0 ? null : fn === "min" ? days[0]! : days.at(-1)!;
  }
  if (kind === "boolean" || kind === "string") throw new Unverifiable(`${fn} of ${field}`);
  return reduce(
    fn,
    present.map((row) => Number(row[field])),
  );
}

function reduce(fn: string, values: number[]): number | null {
  if (fn === "sum") return values.reduce((sum, value) => sum + value, 0);
  if (values.length === 0) return null;
  if (fn === "avg") return values.reduce((sum, value) => sum + value, 0) / values.length;
  if (fn === "min") return Math.min(...values);
  if (fn === "max") return Math.max(...values);
  throw new Unverifiable(`unknown aggregate ${fn}`);
}

async function applyFilter(
  truth: Truth,
  resource: string,
  rows: Row[],
  fieldsOf: Set<string>,
  listFilterNames: Set<string>,
  filter: { field: string; op: string; value: unknown },
  variant: number,
): Promise<Row[]> {
  const { field, op } = filter;
  const target = REFS[resource]?.[field];
  const values = Array.isArray(filter.value) ? filter.value : [filter.value];

  if (!fieldsOf.has(field)) {
    // Not a field of the record: the API's own list filter answers it.
    if (!listFilterNames.has(field)) throw new Unverifiable(`${resource} has no field or list filter "${field}"`);
    if (!["eq", "ne", "in", "not_in"].includes(op)) throw new Unverifiable(`list filter ${resource}.${field} cannot do ${op}`);
    const union = new Set<number>();
    for (const value of values) {
      const parameter =
        typeof value === "boolean" ? String(value) : target && typeof value !== "number" ? String(referenceId(truth, target, value)) : String(value);
      for (const id of await filteredIds(truth, resource, field, parameter)) union.add(id);
    }
    const negate = op === "ne" || op === "not_in";
    return rows.filter((row) => union.has(row.id) !== negate);
  }

  const kind = kindOf(truth.rows[resource]!, field);
  // References by name → ids.
  const wanted = values.map((value) => (target && value !== null && typeof value !== "number" ? referenceId(truth, target, value) : value));

  if ((kind === "date" || kind === "datetime") && wanted.some((value) => typeof value === "string")) {
    const direction: Direction = FORWARD_QUERY_FIELDS.has(field) ? "future" : "past";
    const ranges = wanted.map((value) => (value === null ? null : resolveDateWords(String(value), truth.now, direction, variant)));
    return rows.filter((row) => {
      const day = dayOf(row[field]);
      const inAny = ranges.some((range) => (range === null ? day === null : day !== null && day >= range.from && day <= range.to));
      const range = ranges[0];
      switch (op) {
        case "eq":
        case "in":
          return inAny;
        case "ne":
        case "not_in":
          return !inAny;
        case "gt":
          return day !== null && range !== null && range !== undefined && day > range.to;
        case "gte":
          return day !== null && range !== null && range !== undefined && day >= range.from;
        case "lt":
          return day !== null && range !== null && range !== undefined && day < range.from;
        case "lte":
          return day !== null && range !== null && range !== undefined && day <= range.to;
        default:
          throw new Unverifiable(`unknown op ${op}`);
      }
    });
  }

  const equal = (a: unknown, b: unknown) => {
    if (a === null || a === undefined || a === "") return b === null || b === undefined || b === "";
    if (b === null || b === undefined) return false;
    if (typeof a === "string" || typeof b === "string") return normalize(a) === normalize(b);
    return a === b;
  };
  return rows.filter((row) => {
    const actual = row[field];
    const absent = actual === null || actual === undefined;
    switch (op) {
      case "eq":
      case "in":
        return wanted.some((value) => equal(actual, value));
      case "ne":
      case "not_in":
        // "not in engineering" keeps those with no department: the words' meaning, not SQL's.
        return !wanted.some((value) => equal(actual, value));
      case "contains":
        return !absent && wanted.some((value) => normalize(actual).includes(normalize(value)));
      case "gt":
        return !absent && Number(actual) > Number(wanted[0]);
      case "gte":
        return !absent && Number(actual) >= Number(wanted[0]);
      case "lt":
        return !absent && Number(actual) < Number(wanted[0]);
      case "lte":
        return !absent && Number(actual) <= Number(wanted[0]);
      default:
        throw new Unverifiable(`unknown op ${op}`);
    }
  });
}

/** The call an action must prepare: method(s), path(s) and the body fields to find in it. */
function expectAction(action: Action, truth: Truth, variant: number): Expectation {
  const { resource, operation } = action;
  if (action.missing && action.missing.length > 0) return { kind: "slot", missing: action.missing };
  const targetId = () => {
    if (!action.target) throw new Unverifiable(`${operation} of ${resource} names no record`);
    return resolveRecord(truth, action.target).id;
  };
  let methods: string[];
  let paths: string[];
  let schemaCall: [string, string];
  const fieldNames = Object.keys(action.fields ?? {});
  switch (operation) {
    case "create":
    case "log_time":
    case "record_payment": {
      const path = `/${operation === "log_time" ? "time-entries" : operation === "record_payment" ? "payments" : resource}`;
      methods = ["POST"];
      paths = [path];
      schemaCall = ["post", path];
      break;
    }
    case "delete": {
      const id = targetId();
      methods = ["DELETE"];
      paths = [`/${resource}/${id}`];
      schemaCall = ["delete", `/${resource}/{id}`];
      break;
    }
    case "send":
    case "void":
    case "remind": {
      const id = targetId();
      methods = ["POST"];
      paths = [`/invoices/${id}/${operation}`];
      schemaCall = ["post", `/invoices/{id}/${operation}`];
      break;
    }
    case "hire": {
      const id = targetId();
      methods = ["POST"];
      paths = [`/candidates/${id}/hire`];
      schemaCall = ["post", "/candidates/{id}/hire"];
      break;
    }
    default: {
      // update, assign, reschedule, status, move_stage …: a change of fields. PUT is the API's
      // partial update and PATCH its alias; a task's status may also go through its board route.
      const id = targetId();
      methods = ["PATCH", "PUT"];
      paths = [`/${resource}/${id}`];
      if (resource === "tasks" && fieldNames.length === 1 && fieldNames[0] === "status") paths.push(`/tasks/${id}/status`);
      schemaCall = ["patch", `/${resource}/{id}`];
    }
  }

  const operationDoc = truth.openapi?.paths?.[schemaCall[1]]?.[schemaCall[0]];
  if (!operationDoc) throw new Unverifiable(`the API has no ${schemaCall[0].toUpperCase()} ${schemaCall[1]}`);
  const schema = deref(truth.openapi, operationDoc.requestBody?.content?.["application/json"]?.schema);
  const body: Record<string, Matcher> = {};
  for (const [field, value] of Object.entries(action.fields ?? {})) {
    const fieldSchema = propertyOf(truth.openapi, schema, field);
    if (!fieldSchema) throw new Unverifiable(`${field} is not a body field of ${schemaCall[0].toUpperCase()} ${schemaCall[1]}`);
    body[field] = matcherOf(truth, action, field, value, fieldSchema, variant, `${schemaCall[0].toUpperCase()} ${schemaCall[1]}`);
  }
  return { kind: "action", methods, paths, body };
}

/** A property of an object schema (through $ref, allOf/anyOf/oneOf), or undefined. */
function propertyOf(doc: any, schema: any, field: string): any {
  const node = deref(doc, schema);
  if (!node) return undefined;
  if (node.properties?.[field]) return deref(doc, node.properties[field]);
  for (const part of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    const found = propertyOf(doc, part, field);
    if (found) return found;
  }
  return undefined;
}

function matcherOf(truth: Truth, action: Action, field: string, value: unknown, schema: any, variant: number, call: string): Matcher {
  const target = REFS[action.resource]?.[field];
  if (value === null) return { t: "eq", v: null };
  if (target) return { t: "eq", v: referenceId(truth, target, value, action.target) };
  if (DATE_BODY_FIELDS.has(field) && typeof value === "string") {
    const direction: Direction = BACKWARD_ACTION_FIELDS.has(field) ? "past" : "future";
    // A new date in a write: "the 15th" is the next one (a due date is not set in the past).
    return { t: "date", v: resolveDateWords(value, truth.now, direction, variant, true).from };
  }
  if (Array.isArray(value)) {
    const itemSchema = deref(truth.openapi, schema?.items);
    return {
      t: "arr",
      items: value.map((entry) => {
        if (entry === null || typeof entry !== "object") return { t: "eq", v: entry };
        return { t: "obj", fields: objectMatchers(truth, action, entry as Record<string, unknown>, itemSchema, variant, call) };
      }),
    };
  }
  if (typeof value === "object") return { t: "obj", fields: objectMatchers(truth, action, value as Record<string, unknown>, schema, variant, call) };
  // ("+1 415 555 0199" and "+14155550199" are one number: spacing is no part of a phone number.)
  if (typeof value === "string") return { t: "text", v: value, loose: LOOSE_TEXT_FIELDS.has(field), compact: field === "phone" };
  return { t: "eq", v: value };
}

function objectMatchers(truth: Truth, action: Action, value: Record<string, unknown>, schema: any, variant: number, call: string) {
  const fields: Record<string, Matcher> = {};
  for (const [key, inner] of Object.entries(value)) {
    const innerSchema = propertyOf(truth.openapi, schema, key);
    if (!innerSchema) throw new Unverifiable(`${key} is not a body field of ${call}`);
    fields[key] = matcherOf(truth, action, key, inner, innerSchema, variant, call);
  }
  return fields;
}

// ───────────────────────────── comparison ─────────────────────────────

/** The assistant's reply (`data.reply` of POST /assistant/messages) and, for an action, the call it prepared. */
export type Reply = {
  status: number;
  reply?: {
    text?: string;
    intent?: string;
    data?: any;
    records?: { resource: string; id: number; label: string }[];
    action?: { id: string; kind?: string; summary?: string };
  };
  request?: { method: string; path: string; body?: Record<string, unknown> } | null;
};

export type Verdict = { correct: boolean; expected: string; got: string };

/** Right when the reply matches any of the expectations (they differ only in how a date word reads). */
export function grade(expectations: Expectation[], reply: Reply): Verdict {
  const got = describeReply(reply);
  const correct = expectations.some((expectation) => {
    try {
      return matches(expectation, reply);
    } catch {
      return false;
    }
  });
  return { correct, expected: expectations.map(describeExpectation).join(" | or | "), got };
}

function matches(expectation: Expectation, { status, reply, request }: Reply): boolean {
  if (status !== 200 || !reply) return false;
  const answer = reply.data?.answer;
  switch (expectation.kind) {
    case "refusal":
      return (reply.intent === "unknown" || reply.intent === "refusal") && !reply.action && (answer === undefined || answer === null);
    case "notfound":
      return (
        !reply.action &&
        (answer === undefined || answer === null || (answer.kind === "records" && Number(answer.total) === 0) || (answer.kind === "value" && !answer.value))
      );
    case "clarify":
      return (
        reply.intent === "clarify" &&
        expectation.candidates.every(({ name, ids }) =>
          (reply.records ?? []).some((record) => ids.includes(Number(record.id)) || normalize(record.label).includes(normalize(name))),
        )
      );
    case "slot": {
      const missing: unknown[] = Array.isArray(reply.data?.missing) ? reply.data.missing : [];
      return !reply.action && expectation.missing.every((field) => missing.includes(field));
    }
    case "action":
      return Boolean(reply.action?.id && request) && actionMatches(expectation, request!);
    case "records":
      return recordsMatch(expectation, answer) || latestDateMatch(expectation, answer);
    // A value is compared by its value (and aggregate), whatever resource it was read from ("what the EUR
    // customers owe" is the same amount from their balances or their invoices); ids need their resource.
    case "count":
      if (answer?.kind === "value") return answer.fn === "count" && Number(answer.value) === expectation.value;
      return answer?.kind === "records" && sameResource(answer, expectation.resource) && Number(answer.total) === expectation.value;
    case "value":
      return (
        answer?.kind === "value" &&
        answer.fn === expectation.fn &&
        valueMatches(expectation.value, answer.value, expectation.fn, expectation.money, expectation.date)
      );
    case "groups":
      return groupsMatch(expectation, answer);
  }
}

const sameResource = (answer: any, resource: string) => answer.resource === undefined || answer.resource === resource;

function recordsMatch(expectation: Extract<Expectation, { kind: "records" }>, answer: any): boolean {
  if (answer?.kind !== "records" || !Array.isArray(answer.ids) || !sameResource(answer, expectation.resource)) return false;
  const got = new Set<number>(answer.ids.map(Number));
  if (expectation.field !== undefined && answer.field !== expectation.field) return false;
  if (expectation.lookup) return got.has(expectation.lookup.id);
  if (expectation.rank) return validTop(expectation.ids, expectation.rank.values, expectation.rank.order, expectation.rank.limit, got);
  const wanted = new Set(expectation.ids);
  // A long list answers with its first page (at least 100 ids) and its total: the total must be exact, every id right.
  if (wanted.size > 100 && got.size < wanted.size) return Number(answer.total) === wanted.size && got.size >= 100 && [...got].every((id) => wanted.has(id));
  return got.size === wanted.size && [...got].every((id) => wanted.has(id));
}

/**
 * "When did acme last pay us": the latest record by a date answers with its date, and so does the latest date
 * itself — max (or min, for the earliest) of that date field, over the same records, is the same answer. Only for
 * dates: the biggest invoice is a record, its amount alone is not.
 */
function latestDateMatch(expectation: Extract<Expectation, { kind: "records" }>, answer: any): boolean {
  const rank = expectation.rank;
  if (rank?.limit !== 1 || answer?.kind !== "value" || !sameResource(answer, expectation.resource) || answer.field !== rank.field) return false;
  if (answer.fn !== (rank.order === "desc" ? "max" : "min")) return false;
  const dates = [...rank.values.values()]
    .filter((value): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value))
    .map((value) => value.slice(0, 10));
  if (dates.length === 0 || dates.length !== rank.values.size) return false;
  const best = dates.sort()[rank.order === "desc" ? dates.length - 1 : 0];
  return typeof answer.value === "string" && answer.value.slice(0, 10) === best;
}

/** `got` is N of the keys with the best values, every strictly better one included (ties at the edge either way). */
function validTop<K>(keys: K[], values: Map<K, unknown>, order: "asc" | "desc", limit: number, got: Set<K>): boolean {
  const rank = (value: unknown) => (value === null || value === undefined ? null : typeof value === "object" ? moneyTotal(value as MoneyMap) : value);
  const better = (a: unknown, b: unknown) => {
    const [x, y] = [rank(a), rank(b)];
    if (x === null) return false;
    if (y === null) return true;
    return order === "desc" ? (x as number) > (y as number) : (x as number) < (y as number);
  };
  const sorted = [...keys].sort((a, b) => (better(values.get(a), values.get(b)) ? -1 : better(values.get(b), values.get(a)) ? 1 : 0));
  const n = Math.min(limit, sorted.length);
  if (got.size !== n) return false;
  if (n === 0) return true;
  const edge = values.get(sorted[n - 1]!);
  const tie = (value: unknown) => !better(value, edge) && !better(edge, value);
  return sorted.every((key) => {
    const value = values.get(key);
    if (better(value, edge)) return got.has(key);
    return tie(value) || !got.has(key);
  });
}

const moneyTotal = (map: MoneyMap) => Object.values(map).reduce((sum, value) => sum + Number(value), 0);

function cleanMoney(value: unknown): MoneyMap | null {
  if (value === 0 || value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) return null;
  const out: MoneyMap = {};
  for (const [currency, amount] of Object.entries(value as Record<string, unknown>)) {
    if (Number(amount) !== 0) out[currency.toUpperCase()] = Number(amount);
  }
  return out;
}

function valueMatches(expected: Value, got: unknown, fn: string, money: boolean, date: boolean): boolean {
  const close = (a: number, b: number) => (fn === "avg" ? Math.abs(a - b) <= 1 : a === b);
  if (money) {
    const want = cleanMoney(expected) ?? {};
    if (Object.keys(want).length > 0 && (got === 0 || got === null)) return false;
    const have = cleanMoney(got);
    if (!have) return false;
    const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
    return [...keys].every((key) => want[key] !== undefined && have[key] !== undefined && close(want[key]!, have[key]!));
  }
  if (expected === null) return got === null || (fn === "sum" && got === 0);
  if (date) return typeof got === "string" && got.slice(0, 10) === String(expected).slice(0, 10);
  if (typeof expected === "number") return typeof got === "number" && close(expected, got);
  return expected === got;
}

function groupsMatch(expectation: Extract<Expectation, { kind: "groups" }>, answer: any): boolean {
  if (answer?.kind !== "groups" || !Array.isArray(answer.groups)) return false;
  if (answer.fn !== undefined && answer.fn !== expectation.fn) return false;
  const got = new Map<string, unknown>();
  for (const group of answer.groups) {
    const key = groupKey(group?.key);
    if (got.has(key)) return false;
    got.set(key, group?.value);
  }
  // Zero groups the grader would not list (a status nobody has) are no error.
  const empty = (value: unknown) => value === 0 || value === null || (typeof value === "object" && Object.keys(cleanMoney(value) ?? { x: 1 }).length === 0);
  for (const [key, value] of [...got]) if (!expectation.groups.has(key) && empty(value)) got.delete(key);
  const valueOk = (key: string) =>
    got.has(key) && valueMatches(expectation.groups.get(key) ?? null, got.get(key), expectation.fn, expectation.money, false) && expectation.groups.has(key);
  if (expectation.order && expectation.limit) {
    const keys = [...expectation.groups.keys()];
    return (
      validTop(keys, expectation.groups as Map<string, unknown>, expectation.order, expectation.limit, new Set(got.keys())) && [...got.keys()].every(valueOk)
    );
  }
  return got.size === expectation.groups.size && [...expectation.groups.keys()].every(valueOk);
}

function actionMatches(expectation: Extract<Expectation, { kind: "action" }>, request: NonNullable<Reply["request"]>): boolean {
  const method = String(request.method ?? "").toUpperCase();
  const path = String(request.path ?? "")
    .replace(/^\/api\/v1(?=\/)/, "")
    .replace(/\?.*$/, "")
    .replace(/\/+$/, "");
  if (!expectation.methods.includes(method) || !expectation.paths.includes(path)) return false;
  const body = (request.body ?? {}) as Record<string, unknown>;
  return Object.entries(expectation.body).every(([field, matcher]) => field in body && fits(matcher, body[field]));
}

function fits(matcher: Matcher, got: unknown): boolean {
  switch (matcher.t) {
    case "eq":
      if (matcher.v === null) return got === null;
      if (typeof matcher.v === "string") return typeof got === "string" && normalize(got) === normalize(matcher.v);
      return got === matcher.v || (typeof matcher.v === "number" && typeof got === "string" && got.trim() !== "" && Number(got) === matcher.v);
    case "text": {
      if (typeof got !== "string") return false;
      const squeeze = (text: string) => (matcher.compact ? text.replace(/[\s().-]/g, "") : text);
      const [a, b] = [squeeze(textOf(got)), squeeze(textOf(matcher.v))];
      return matcher.loose ? a.includes(b) || b.includes(a) : a === b;
    }
    case "date":
      return typeof got === "string" && got.slice(0, 10) === matcher.v;
    case "obj":
      return (
        got !== null &&
        typeof got === "object" &&
        Object.entries(matcher.fields).every(([key, inner]) => key in (got as object) && fits(inner, (got as Record<string, unknown>)[key]))
      );
    case "arr":
      return Array.isArray(got) && got.length === matcher.items.length && matcher.items.every((inner, index) => fits(inner, got[index]));
  }
}

const textOf = (value: string) =>
  normalize(value)
    .replace(/^["'“”‘’]+|["'“”‘’.]+$/g, "")
    .trim();

// ───────────────────────────── compact descriptions ─────────────────────────────

const short = (ids: number[], max = 8) => `[${ids.slice(0, max).join(",")}${ids.length > max ? `,…(${ids.length})` : ""}]`;
const json = (value: unknown, max = 160) => {
  const text = JSON.stringify(value, replacer) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

export function describeExpectation(expectation: Expectation): string {
  switch (expectation.kind) {
    case "notfound":
      return `nothing found for "${expectation.name}"`;
    case "refusal":
      return "refusal";
    case "clarify":
      return `clarify ${expectation.candidates.map(({ name, ids }) => `${name}#${ids.join("/")}`).join(", ")}`;
    case "slot":
      return `ask for ${expectation.missing.join(", ")}`;
    case "action":
      return `${expectation.methods.join("|")} ${expectation.paths.join("|")} ${json(describeBody(expectation.body))}`;
    case "records": {
      const extra = expectation.rank ? ` top ${expectation.rank.limit} by ${expectation.rank.field} ${expectation.rank.order}` : "";
      const lookup = expectation.field ? ` field ${expectation.field}` : "";
      return `records ${expectation.resource} ${short([...expectation.ids].sort((a, b) => a - b))}${extra}${lookup}`;
    }
    case "count":
      return `count ${expectation.resource} = ${expectation.value}`;
    case "value":
      return `${expectation.fn} ${expectation.resource}.${expectation.field} = ${json(typeof expectation.value === "number" ? round(expectation.value) : expectation.value)}`;
    case "groups": {
      const extra = expectation.order && expectation.limit ? ` top ${expectation.limit} ${expectation.order}` : "";
      const groups = Object.fromEntries([...expectation.groups].map(([key, value]) => [key, typeof value === "number" ? round(value) : value]));
      return `groups ${expectation.fn}(${expectation.field ?? ""}) by ${expectation.groupBy}${extra} ${json(groups)}`;
    }
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

function describeBody(body: Record<string, Matcher>): Record<string, unknown> {
  const plain = (matcher: Matcher): unknown =>
    matcher.t === "obj" ? describeBody(matcher.fields) : matcher.t === "arr" ? matcher.items.map(plain) : matcher.v;
  return Object.fromEntries(Object.entries(body).map(([key, matcher]) => [key, plain(matcher)]));
}

export function describeReply({ status, reply, request }: Reply): string {
  if (status !== 200 || !reply) return `HTTP ${status}`;
  const answer = reply.data?.answer;
  const intent = `intent=${reply.intent}`;
  if (reply.action) return `${intent} action ${request ? `${request.method} ${request.path} ${json(request.body ?? {})}` : "(call not readable)"}`;
  if (reply.intent === "clarify")
    return `${intent} offers ${json(
      (reply.records ?? []).map((record) => record.label),
      120,
    )}`;
  if (Array.isArray(reply.data?.missing)) return `${intent} asks for ${reply.data.missing.join(", ")}`;
  if (!answer) return `${intent} no answer: ${json(reply.text ?? "", 100)}`;
  switch (answer.kind) {
    case "records":
      return `${intent} records ${answer.resource} ${short([...(answer.ids ?? [])].map(Number).sort((a, b) => a - b))} total ${answer.total}${answer.field ? ` field ${answer.field}` : ""}`;
    case "value":
      return `${intent} ${answer.fn} ${answer.resource}.${answer.field ?? ""} = ${json(answer.value)}`;
    case "groups":
      return `${intent} groups ${answer.fn}(${answer.field ?? ""}) by ${answer.group_by} ${json(Object.fromEntries((answer.groups ?? []).map((group: any) => [groupKey(group.key), group.value])))}`;
    default:
      return `${intent} ${json(answer)}`;
  }
}
