import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ApiError } from "../../platform/errors";
import type { Tenant } from "../../platform/tenancy";
import type { Money } from "../../platform/widgets";
import { type Filter, parseFilters } from "./filters";
import {
  buildFilteredStats,
  buildGoals,
  buildRevenue,
  filteredSeriesStatement,
  filteredStatsStatement,
  type Goal,
  goalNamed,
  goalsStatement,
  revenueStatement,
  rolledUpFilter,
  rollupStatsStatement,
  visitStatsStatement,
  visitsAnswer,
} from "./queries";
import { goals as goalTable, sites } from "./schema";
import { buildSeries, buildStats, type Metric, type Range, type SeriesInterval, seriesStatements, statsStatements } from "./stats";

const DAY_MS = 86_400_000;
type Site = typeof sites.$inferSelect;

/** The site (404 for another workspace's) and its goals: one round trip. */
export async function siteAndGoals(tenant: Tenant, siteId: number): Promise<{ site: Site; goals: Goal[] }> {
  const [siteRows, goalRows] = await tenant.batch([
    tenant.select(sites, eq(sites.id, siteId)),
    tenant.select(goalTable, eq(goalTable.siteId, siteId)).orderBy(goalTable.id),
  ]);
  const site = siteRows[0];
  if (!site) throw ApiError.notFound("site");
  return { site, goals: goalRows.map((row) => ({ id: row.id, type: row.type, value: row.value, revenue: row.revenue })) };
}

/** filters= read and checked against the site's goals (a goal filter must name one of them). */
export function filtersFor(text: string | undefined, goals: Goal[]): Filter[] {
  const filters = parseFilters(text);
  for (const filter of filters) {
    if (filter.property === "goal" && !goalNamed(goals, filter.value))
      throw ApiError.validation([{ path: "filters", message: `no goal ${filter.value} on this site (goal== takes a goal's value)` }]);
    if (filter.property === "goal" && filter.op === "~=") throw ApiError.validation([{ path: "filters", message: "goal takes == or !=" }]);
  }
  return filters;
}

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The period compared with: the same number of days just before, or the same dates a year before. */
export function comparedRange(range: Range, compare: "previous_period" | "previous_year"): Range {
  if (compare === "previous_period") {
    const length = range.untilMs - range.fromMs;
    const fromMs = range.fromMs - length;
    return { from: dateOf(fromMs), to: dateOf(range.fromMs - DAY_MS), fromMs, untilMs: range.fromMs };
  }
  const yearBefore = (ms: number) => {
    const date = new Date(ms);
    date.setUTCFullYear(date.getUTCFullYear() - 1);
    return date.getTime();
  };
  const fromMs = yearBefore(range.fromMs);
  const untilMs = yearBefore(range.untilMs);
  return { from: dateOf(fromMs), to: dateOf(untilMs - 1), fromMs, untilMs };
}

type Stats = ReturnType<typeof buildFilteredStats> & { revenue: Money; goals: ReturnType<typeof buildGoals> };

/**
 * The statements of one period's stats and how to read their results. Unfiltered totals come from the daily
 * rollups; a filter reads raw events; goals (and revenue goals) always read raw events by their index.
 */
function statsQuery(tenant: Tenant, siteId: number, range: Range, filters: Filter[], goals: Goal[]) {
  const scope = { tenant, siteId, range, filters, goals };
  const rollup = filters.length === 0;
  const revenueFromRollup = rollup && !goals.some((goal) => goal.revenue);
  const rolledUp = rolledUpFilter(filters);
  const totals: BatchItem<"sqlite">[] = rollup
    ? statsStatements(tenant, siteId, range)
    : [rolledUp ? rollupStatsStatement(scope, rolledUp) : visitsAnswer(filters) ? visitStatsStatement(scope) : filteredStatsStatement(scope)];
  const statements: BatchItem<"sqlite">[] = [...totals, revenueStatement(scope), goalsStatement(scope)];
  const read = (results: unknown[]): Stats => {
    const base = rollup ? buildStats(results.slice(0, 3)) : { ...buildFilteredStats((results[0] as Record<string, number>[])[0]), revenue: {} };
    const [revenueRows, goalRows] = results.slice(totals.length) as [Parameters<typeof buildRevenue>[0], Parameters<typeof buildGoals>[1]];
    return {
      ...base,
      revenue: revenueFromRollup ? base.revenue : buildRevenue(revenueRows),
      goals: buildGoals(goals, goalRows, base.visitors),
    };
  };
  return { statements, read };
}

/** Percent change, one decimal; null from zero or from nothing. */
export function change(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return Math.round(((now - before) / before) * 1000) / 10;
}

function changes(now: Stats, before: Stats) {
  const currencies = new Set([...Object.keys(now.revenue), ...Object.keys(before.revenue)]);
  return {
    visitors: change(now.visitors, before.visitors),
    visits: change(now.visits, before.visits),
    pageviews: change(now.pageviews, before.pageviews),
    events: change(now.events, before.events),
    bounce_rate: change(now.bounce_rate, before.bounce_rate),
    visit_duration_seconds: change(now.visit_duration_seconds, before.visit_duration_seconds),
    revenue: Object.fromEntries([...currencies].map((currency) => [currency, change(now.revenue[currency] ?? 0, before.revenue[currency] ?? 0)])),
  };
}

/** Stats of a period (and of the compared one, in the same batch). */
export async function statsReport(
  tenant: Tenant,
  siteId: number,
  range: Range,
  filters: Filter[],
  goals: Goal[],
  compare?: "previous_period" | "previous_year",
) {
  const current = statsQuery(tenant, siteId, range, filters, goals);
  const previous = compare ? statsQuery(tenant, siteId, comparedRange(range, compare), filters, goals) : null;
  const statements = [...current.statements, ...(previous?.statements ?? [])];
  const results = (await tenant.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  const now = current.read(results.slice(0, current.statements.length));
  if (!previous) return now;
  const before = previous.read(results.slice(current.statements.length));
  return { ...now, previous: before, change: changes(now, before) };
}

function seriesQuery(tenant: Tenant, siteId: number, range: Range, interval: SeriesInterval, metric: Metric, filters: Filter[], goals: Goal[]) {
  const raw = filters.length > 0 || interval === "hour" || (metric === "revenue" && goals.some((goal) => goal.revenue));
  const statements = raw
    ? [filteredSeriesStatement({ tenant, siteId, range, filters, goals }, interval, metric)]
    : seriesStatements(tenant, siteId, range, interval, metric);
  return { statements: statements as BatchItem<"sqlite">[], read: (results: unknown[]) => buildSeries(range, interval, metric, results) };
}

/** A metric per interval; with compare, the compared period's points and the change of each point. */
export async function seriesReport(
  tenant: Tenant,
  siteId: number,
  range: Range,
  interval: SeriesInterval,
  metric: Metric,
  filters: Filter[],
  goals: Goal[],
  compare?: "previous_period" | "previous_year",
) {
  const current = seriesQuery(tenant, siteId, range, interval, metric, filters, goals);
  const previous = compare ? seriesQuery(tenant, siteId, comparedRange(range, compare), interval, metric, filters, goals) : null;
  const statements = [...current.statements, ...(previous?.statements ?? [])];
  const results = (await tenant.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  const now = current.read(results.slice(0, current.statements.length));
  if (!previous) return now;
  const before = previous.read(results.slice(current.statements.length));
  const total = (points: typeof now.points) =>
    metric === "revenue" ? null : points.reduce((sum, point) => sum + (typeof point.value === "number" ? point.value : 0), 0);
  return { ...now, previous: before, change: change(total(now.points), total(before.points)) };
}
