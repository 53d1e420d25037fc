import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { ApiError } from "./errors";
import type { Statement, Tenant, TenantTable } from "./tenancy";

/**
 * Dashboard widgets are declared by packages (their manifest's `widgets`) and computed together: every
 * business widget of a request contributes its aggregate statements to one D1 batch (one round trip).
 */

export const PERIODS = ["7d", "30d", "90d", "12mo", "mtd", "ytd"] as const;
export type PeriodName = (typeof PERIODS)[number];
export type Interval = "day" | "week" | "month";

export type Period = {
  /** A named period, or "custom" for from/to dates. */
  name: PeriodName | "custom";
  /** First and last day, inclusive (UTC, YYYY-MM-DD). */
  from: string;
  to: string;
  /** [fromMs, untilMs): the same days as Unix milliseconds. */
  fromMs: number;
  untilMs: number;
  interval: Interval;
  today: string;
};

export const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days a period covers on `now`'s UTC date, and how its series are bucketed. */
export function periodOf(name: PeriodName, now = Date.now()): Period {
  const today = day(now);
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const startOfToday = Date.parse(`${today}T00:00:00Z`);
  const from = {
    "7d": day(startOfToday - 6 * DAY_MS),
    "30d": day(startOfToday - 29 * DAY_MS),
    "90d": day(startOfToday - 89 * DAY_MS),
    "12mo": day(Date.UTC(year, month - 1 - 11, 1)),
    mtd: day(Date.UTC(year, month - 1, 1)),
    ytd: `${year}-01-01`,
  }[name];
  const interval: Interval = name === "90d" ? "week" : name === "12mo" || name === "ytd" ? "month" : "day";
  return { name, from, to: today, fromMs: Date.parse(`${from}T00:00:00Z`), untilMs: startOfToday + DAY_MS, interval, today };
}

/** At most this many days in a from/to range. */
export const MAX_RANGE_DAYS = 400;

/** A from/to range of UTC days (inclusive): series by day up to 31 days, by week up to 180, else by month. */
export function rangePeriod(from: string, to: string, now = Date.now()): Period {
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  const untilMs = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  const days = (untilMs - fromMs) / DAY_MS;
  const interval: Interval = days <= 31 ? "day" : days <= 180 ? "week" : "month";
  return { name: "custom", from, to, fromMs, untilMs, interval, today: day(now) };
}

/** The period of the same length just before `period` (what a stat's `previous` is computed over). */
export function previousPeriod(period: Period): Period {
  const length = period.untilMs - period.fromMs;
  const fromMs = period.fromMs - length;
  return { ...period, name: "custom", from: day(fromMs), to: day(period.fromMs - DAY_MS), fromMs, untilMs: period.fromMs };
}

/** A period's bounds as ISO date-times, for the lists' created/paid filters (`created_after=…`). */
export function isoBounds(period: Period): { after: string; before: string } {
  return { after: new Date(period.fromMs).toISOString(), before: new Date(period.untilMs - 1).toISOString() };
}

/** The query parameters that choose a period: `period`, or `from` and `to`. */
export const PeriodQuery = {
  period: z
    .enum(PERIODS, `must be one of ${PERIODS.join(", ")}`)
    .optional()
    .openapi({ description: "Default 30d (or send from and to). All in UTC." }),
  from: z.iso.date("must be a date YYYY-MM-DD").optional().openapi({ description: "First day (UTC), with to" }),
  to: z.iso.date("must be a date YYYY-MM-DD").optional().openapi({ description: "Last day (UTC, inclusive), with from; at most 400 days after from" }),
};

/** The period a request asks for: a named one (default 30d), or from/to (both, in order, at most 400 days). */
export function periodFromQuery(query: { period?: PeriodName; from?: string; to?: string }, now = Date.now()): Period {
  if (query.from === undefined && query.to === undefined) return periodOf(query.period ?? "30d", now);
  if (query.period !== undefined) throw ApiError.validation([{ path: "period", message: "must not be sent with from and to" }]);
  if (query.from === undefined || query.to === undefined)
    throw ApiError.validation([{ path: query.from === undefined ? "from" : "to", message: "is required with the other" }]);
  const period = rangePeriod(query.from, query.to, now);
  if (period.untilMs <= period.fromMs) throw ApiError.validation([{ path: "to", message: "must not be before from" }]);
  if (period.untilMs - period.fromMs > MAX_RANGE_DAYS * DAY_MS)
    throw ApiError.validation([{ path: "to", message: `the range may cover at most ${MAX_RANGE_DAYS} days` }]);
  return period;
}

/** The start date of every interval of the period, in order: the points a series always has. */
export function buckets(period: Period): string[] {
  const out: string[] = [];
  if (period.interval === "month") {
    for (let d = new Date(`${period.from.slice(0, 7)}-01T00:00:00Z`); day(d.getTime()) <= period.to; d.setUTCMonth(d.getUTCMonth() + 1))
      out.push(day(d.getTime()));
    return out;
  }
  const step = period.interval === "week" ? 7 : 1;
  for (let ms = period.fromMs; ms < period.untilMs; ms += step * DAY_MS) out.push(day(ms));
  return out;
}

/**
 * Rows of a time series over a millisecond timestamp column, grouped by the index of the interval each
 * row falls in (0 = the period's first). Days and weeks are integer arithmetic on the timestamp; months,
 * which differ in length, are joined to their boundaries (a 12-row recursive CTE) — never a date
 * function per row, and always through the column's index.
 */
export function timeSeries(
  tenant: Tenant,
  period: Period,
  source: {
    table: TenantTable;
    /** The time column, in milliseconds — or in days with `unit: DAY_MS` (a daily rollup), so its index is used. */
    time: SQL;
    unit?: number;
    select: SQL;
    where?: SQL;
    groupBy?: SQL;
  },
) {
  const { table, time, select } = source;
  const unit = source.unit ?? 1;
  const where = source.where ? sql` AND ${source.where}` : sql``;
  const groupBy = source.groupBy ? sql`, ${source.groupBy}` : sql``;
  if (period.interval !== "month") {
    const step = (period.interval === "week" ? 7 : 1) * DAY_MS;
    return tenant.rows<{ bucket: number }>(
      sql`SELECT CAST((${time} * ${unit} - ${period.fromMs}) / ${step} AS INTEGER) AS bucket, ${select} FROM ${table}
          WHERE ${tenant.scope(table)} AND ${time} >= ${period.fromMs / unit} AND ${time} < ${period.untilMs / unit}${where}
          GROUP BY bucket${groupBy}`,
    );
  }
  const monthStart = (offset: SQL) => sql`unixepoch(date(${period.from}, '+' || ${offset} || ' months')) * 1000`;
  return tenant.rows<{ bucket: number }>(
    sql`WITH RECURSIVE months(i, s, e) AS (
          SELECT 0, ${period.fromMs}, min(${monthStart(sql`1`)}, ${period.untilMs})
          UNION ALL SELECT i + 1, e, min(${monthStart(sql`(i + 2)`)}, ${period.untilMs}) FROM months WHERE e < ${period.untilMs})
        SELECT months.i AS bucket, ${select} FROM months JOIN ${table}
          ON ${tenant.scope(table)} AND ${time} >= months.s / ${unit} AND ${time} < months.e / ${unit}${where}
        GROUP BY bucket${groupBy}`,
  );
}

export type Money = Record<string, number>;

/**
 * Rows of (currency, amount) as a money value: `{"USD": 125050, "EUR": 900}`, `{}` when there are none.
 * Added exactly (BigInt); a sum beyond 2^53 − 1 minor units — which business data cannot reach (see
 * money_totals) — is reported as 2^53 − 1, never as a rounded float.
 */
export function money(rows: { currency: string; amount: number }[]): Money {
  const sums = new Map<string, bigint>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? 0n) + BigInt(Math.trunc(Number(row.amount))));
  const out: Money = {};
  for (const [currency, sum] of sums) out[currency] = sum > MAX_EXACT ? Number.MAX_SAFE_INTEGER : Number(sum);
  return out;
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `sum(expr)` that SQLite can neither overflow nor hand back beyond 2^53 − 1: for sums that no write-time
 * bound covers (web analytics revenue), the result saturates at 2^53 − 1 minor units.
 */
export function boundedSum(expression: SQL): SQL<number> {
  return sql<number>`min(coalesce(sum(${expression}), 0), ${sql.raw(String(Number.MAX_SAFE_INTEGER))})`;
}

/** A percentage with one decimal, or null when there is nothing to divide. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

/** Every interval of the period with its value (zero where no row fell in it); rows name intervals by index. */
export function series<V>(period: Period, rows: { bucket: number; value: V }[], zero: () => V, merge: (a: V, b: V) => V) {
  const byBucket = new Map<number, V>();
  for (const row of rows) byBucket.set(Number(row.bucket), byBucket.has(Number(row.bucket)) ? merge(byBucket.get(Number(row.bucket))!, row.value) : row.value);
  return { interval: period.interval, points: buckets(period).map((date, i) => ({ date, value: byBucket.get(i) ?? zero() })) };
}

/** Largest first; money values by their largest currency amount. */
export function largestFirst<T extends { value: number | Money }>(items: T[]): T[] {
  const size = (value: number | Money) => (typeof value === "number" ? value : Math.max(0, ...Object.values(value)));
  return [...items].sort((a, b) => size(b.value) - size(a.value));
}

export type WidgetKind = "stat" | "series" | "breakdown" | "list";
export type WidgetUnit = "count" | "money" | "percent" | "minutes";
export type WidgetContext = { tenant: Tenant; period: Period; now: number };

/** Which database a widget reads: business widgets share one batch; analytics widgets another. */
export type WidgetSource = "business" | "analytics";

export type WidgetDefinition = {
  key: string;
  title: string;
  description: string;
  kind: WidgetKind;
  unit: WidgetUnit;
  /** The resources it is computed from: shown only to callers who may read every one of them. */
  reads: string[];
  source?: WidgetSource;
  /** A stat over the period: its value over the period before, of the same length, is shown beside it (`previous`). */
  comparable?: boolean;
  /** The web app's list it summarises, with the same filters and period. */
  link?: (period: Period) => string;
  /** Its statements (for the shared batch) and how to turn their results into the widget's data. */
  query(context: WidgetContext): { statements: WidgetStatement[]; build(results: unknown[]): unknown };
};

/**
 * A statement, or one several widgets read (`share` names it): the batch runs it once for all of them
 * (e.g. headcount and headcount by department read the same grouped count).
 */
export type WidgetStatement = Statement | { share: string; statement: Statement };

export function shared(share: string, statement: Statement): WidgetStatement {
  return { share, statement };
}

export function defineWidget(widget: WidgetDefinition): WidgetDefinition {
  return widget;
}
