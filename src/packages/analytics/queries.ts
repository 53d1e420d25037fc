import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Tenant, tableAs } from "../../platform/tenancy";
import { boundedSum, type Money, money, percent } from "../../platform/widgets";
import { blankName, columnOf, condition, eventConditions, type Filter, type Property, VISIT_PROPERTIES } from "./filters";
import { ROLLED_UP } from "./ingest";
import { dailyProperties, events, visits } from "./schema";
import type { Range } from "./stats";

/**
 * Reports read from raw events wherever a filter, a goal or a breakdown asks (the daily rollups answer the
 * unfiltered totals, see stats.ts). Every statement is one D1 statement scoped by the tenancy module.
 */

export type Goal = { id: number; type: "event" | "page"; value: string; revenue: boolean };

/** A browser's visitor id is a day's (the daily salt); a server id lasts: the key that counts a visitor. */
const VISITOR = sql.raw(`CASE WHEN e.kind = 'server' THEN e.visitor ELSE (e.ts / 86400000) || ':' || e.visitor END`);
const glob = (value: string) => value.replace(/[[\]?]/g, (char) => `[${char}]`);

/** Whether events row `x` completes the goal. */
export function goalMatch(goal: Pick<Goal, "type" | "value">, x: string | null = "e"): SQL {
  const name = sql.raw(x ? `${x}.name` : "name");
  const path = sql.raw(x ? `${x}.path` : "path");
  return goal.type === "event" ? sql`${name} = ${goal.value}` : sql`${name} = 'pageview' AND ${path} GLOB ${glob(goal.value)}`;
}

/** Revenue counts on purchases and on revenue goals only. */
export function revenueMatch(goals: Goal[], x = "e"): SQL {
  const counted = [sql`${sql.raw(`${x}.name`)} = 'purchase'`, ...goals.filter((goal) => goal.revenue).map((goal) => sql`(${goalMatch(goal, x)})`)];
  return sql`(${sql.join(counted, sql` OR `)})`;
}

export type Scope = { tenant: Tenant; siteId: number; range: Range; filters: Filter[]; goals: Goal[] };

/** The goal a `goal==` filter names, by its value. */
export function goalNamed(goals: Goal[], value: string): Goal | undefined {
  return goals.find((goal) => goal.value === value);
}

/** FROM and WHERE of the selected events: the site, the range, the filters (goal filters as visitor sets). */
export function selected({ tenant, siteId, range, filters, goals }: Scope, options: { join?: boolean } = {}): SQL {
  const e = alias(events, "e");
  const v = alias(visits, "v");
  const conditions = [
    tenant.scope(e),
    sql`e.site_id = ${siteId}`,
    sql`e.ts >= ${range.fromMs}`,
    sql`e.ts < ${range.untilMs}`,
    ...eventConditions(filters, visitOf(tenant)),
  ];
  conditions.push(...goalConditions({ tenant, siteId, range, filters, goals }));
  const join = options.join ? sql` JOIN ${tableAs(v)} ON v.id = e.visit_id AND ${tenant.scope(v)}` : sql``;
  return sql`FROM ${tableAs(e)}${join} WHERE ${sql.join(conditions, sql` AND `)}`;
}

/** A condition on the visit `vf` of events row `e`. */
export function visitOf(tenant: Tenant): (condition: SQL) => SQL {
  const vf = alias(visits, "vf");
  return (condition) => sql`EXISTS (SELECT 1 FROM ${tableAs(vf)} WHERE vf.id = e.visit_id AND ${tenant.scope(vf)} AND ${condition})`;
}

function goalConditions({ tenant, siteId, range, filters, goals }: Scope): SQL[] {
  const g = alias(events, "g");
  return filters
    .filter((filter) => filter.property === "goal")
    .map((filter) => {
      const goal = goalNamed(goals, filter.value);
      const completed = goal
        ? sql`SELECT g.visitor FROM ${tableAs(g)} WHERE ${tenant.scope(g)} AND g.site_id = ${siteId} AND g.ts >= ${range.fromMs} AND g.ts < ${range.untilMs} AND ${goalMatch(goal, "g")}`
        : sql`SELECT NULL WHERE 0`;
      return filter.op === "!=" ? sql`e.visitor NOT IN (${completed})` : sql`e.visitor IN (${completed})`;
    });
}

/**
 * Whether the visits table alone answers: every filter (and the breakdown property) is the visit's own —
 * where it came from, its entry and exit page. A visit row already holds its pageviews, events, bounce
 * and duration, so the question reads a fifth of the rows the events would be.
 */
export function visitsAnswer(filters: Filter[], property?: Property): boolean {
  const visitLevel = (name: string) => (VISIT_PROPERTIES as readonly string[]).includes(name);
  return filters.every((filter) => visitLevel(filter.property)) && (property === undefined || visitLevel(property));
}

/** The visits that started in the range and match the (visit) filters, as `v`. */
function selectedVisits({ tenant, siteId, range, filters }: Scope): SQL {
  const v = alias(visits, "v");
  const conditions = filters.map((filter) => condition(columnOf(filter.property as Property, "v", "v"), filter, filter.property as Property));
  return sql`FROM ${tableAs(v)} WHERE ${sql.join(
    [tenant.scope(v), sql`v.site_id = ${siteId}`, sql`v.started_at >= ${range.fromMs}`, sql`v.started_at < ${range.untilMs}`, ...conditions],
    sql` AND `,
  )}`;
}
const VISIT_VISITOR = sql.raw(`CASE WHEN v.kind = 'server' THEN v.visitor ELSE v.day || ':' || v.visitor END`);

/** An unfiltered breakdown of a rolled-up property: its day rows summed (a visitor counts once a day). */
function rollupBreakdownStatement({ tenant, siteId, range }: Scope, property: Property, limit: number, offset: number) {
  const dropBlank = blankName(property) === null ? sql` AND ${dailyProperties.value} <> ''` : sql``;
  return tenant.rows<Record<string, string | number | null>>(sql`SELECT ${dailyProperties.value} AS value, sum(${dailyProperties.visitors}) AS visitors,
      sum(${dailyProperties.visits}) AS visits, sum(${dailyProperties.pageviews}) AS pageviews, sum(${dailyProperties.events}) AS events,
      sum(${dailyProperties.bounces}) AS bounces, NULL AS everyone
    FROM ${dailyProperties} WHERE ${tenant.scope(dailyProperties)} AND ${dailyProperties.siteId} = ${siteId} AND ${dailyProperties.property} = ${property}
      AND ${dailyProperties.day} >= ${range.from} AND ${dailyProperties.day} <= ${range.to}${dropBlank}
    GROUP BY 1 HAVING sum(${dailyProperties.visitors}) > 0 OR sum(${dailyProperties.events}) > 0
    ORDER BY visitors DESC, events DESC, value LIMIT ${limit} OFFSET ${offset}`);
}

function visitBreakdownStatement(scope: Scope, property: Property, limit: number, offset: number) {
  const column = columnOf(property, "v", "v");
  const dropBlank = blankName(property) === null ? sql` AND ${column} <> ''` : sql``;
  return scope.tenant.rows<
    Record<string, string | number | null>
  >(sql`SELECT ${column} AS value, count(DISTINCT ${VISIT_VISITOR}) AS visitors, count(*) AS visits,
      sum(v.pageviews) AS pageviews, sum(v.events) AS events, sum(v.pageviews = 1 AND v.events = 1) AS bounces, NULL AS everyone
    ${selectedVisits(scope)}${dropBlank} GROUP BY 1 ORDER BY visitors DESC, events DESC, value LIMIT ${limit} OFFSET ${offset}`);
}

/** Totals of the visits that match visit filters (no event read; revenue and goals still read events). */
export function visitStatsStatement(scope: Scope) {
  return scope.tenant.rows<Record<string, number>>(sql`SELECT count(DISTINCT ${VISIT_VISITOR}) AS visitors, count(*) AS visits,
      coalesce(sum(v.pageviews), 0) AS pageviews, coalesce(sum(v.events), 0) AS events, coalesce(sum(v.pageviews = 1 AND v.events = 1), 0) AS bounces,
      coalesce(sum(v.last_at - v.started_at), 0) AS duration_ms ${selectedVisits(scope)}`);
}

/** The one `property==value` filter the per-property rollup answers, if that is the whole question. */
export function rolledUpFilter(filters: Filter[]): { property: string; value: string } | null {
  const [only] = filters;
  if (filters.length !== 1 || !only || only.op !== "==" || !ROLLED_UP.includes(only.property)) return null;
  const blank = blankName(only.property as Property);
  return { property: only.property, value: blank !== null && only.value === blank ? "" : only.value };
}

/** Stats of one value of a rolled-up property (source==Google, country==DE): its day rows summed. */
export function rollupStatsStatement({ tenant, siteId, range }: Scope, filter: { property: string; value: string }) {
  return tenant.rows<
    Record<string, number>
  >(sql`SELECT coalesce(sum(${dailyProperties.visitors}), 0) AS visitors, coalesce(sum(${dailyProperties.visits}), 0) AS visits,
      coalesce(sum(${dailyProperties.pageviews}), 0) AS pageviews, coalesce(sum(${dailyProperties.events}), 0) AS events,
      coalesce(sum(${dailyProperties.bounces}), 0) AS bounces, coalesce(sum(${dailyProperties.durationMs}), 0) AS duration_ms
    FROM ${dailyProperties} WHERE ${tenant.scope(dailyProperties)} AND ${dailyProperties.siteId} = ${siteId} AND ${dailyProperties.property} = ${filter.property}
      AND ${dailyProperties.day} >= ${range.from} AND ${dailyProperties.day} <= ${range.to} AND ${dailyProperties.value} = ${filter.value}`);
}

/**
 * FROM the visits (as `v`) whose ids `ids` selects, each found by its primary key. (Written as `v.id IN (…)` next to
 * `v.workspace_id = ?`, SQLite scans every visit of the workspace instead: 3.5 s at a million events.)
 */
export function visitsOfSelected(tenant: Tenant, ids: SQL): SQL {
  const v = alias(visits, "v");
  return sql`(${ids}) AS picked CROSS JOIN ${tableAs(v)} ON v.id = picked.visit_id WHERE ${tenant.scope(v)}`;
}

/** Totals of the selected events and of the visits they belong to. */
export function filteredStatsStatement(scope: Scope) {
  return scope.tenant.rows<Record<string, number>>(sql`WITH sel AS MATERIALIZED (SELECT e.visit_id, ${VISITOR} AS who, e.name ${selected(scope)}),
    seen AS MATERIALIZED (SELECT coalesce(sum(v.pageviews = 1 AND v.events = 1), 0) AS bounces, coalesce(sum(v.last_at - v.started_at), 0) AS duration_ms
      FROM ${visitsOfSelected(scope.tenant, sql`SELECT DISTINCT visit_id FROM sel`)})
    SELECT (SELECT count(DISTINCT who) FROM sel) AS visitors, (SELECT count(DISTINCT visit_id) FROM sel) AS visits,
      (SELECT coalesce(sum(name = 'pageview'), 0) FROM sel) AS pageviews, (SELECT count(*) FROM sel) AS events,
      (SELECT bounces FROM seen) AS bounces, (SELECT duration_ms FROM seen) AS duration_ms`);
}

export function buildFilteredStats(row: Record<string, number> | undefined) {
  const visits = Number(row?.visits ?? 0);
  return {
    visitors: Number(row?.visitors ?? 0),
    visits,
    pageviews: Number(row?.pageviews ?? 0),
    events: Number(row?.events ?? 0),
    bounce_rate: percent(Number(row?.bounces ?? 0), visits),
    visit_duration_seconds: visits > 0 ? Math.round(Number(row?.duration_ms ?? 0) / visits / 1000) : null,
  };
}

/** Counted revenue (purchases and revenue goals) of the selected events, per currency. */
export function revenueStatement(scope: Scope) {
  return scope.tenant.rows<{ currency: string; amount: number }>(
    sql`SELECT e.revenue_currency AS currency, ${boundedSum(sql`e.revenue_amount`)} AS amount ${selected(scope)} AND e.revenue_amount IS NOT NULL AND ${revenueMatch(scope.goals)} GROUP BY 1`,
  );
}

export const buildRevenue = (rows: { currency: string; amount: number }[]): Money => money(rows);

/** Each goal's uniques (visitors who completed it) and total (matching events), among the selected events. */
export function goalsStatement(scope: Scope) {
  if (scope.goals.length === 0) return scope.tenant.rows<{ id: number; uniques: number; total: number }>(sql`SELECT 0 AS id, 0 AS uniques, 0 AS total WHERE 0`);
  const columns = scope.goals.map(
    (goal) =>
      sql`SELECT ${goal.id} AS id, count(DISTINCT CASE WHEN ${goalMatch(goal, null)} THEN who END) AS uniques, coalesce(sum(${goalMatch(goal, null)}), 0) AS total FROM sel`,
  );
  // Only the goals' event names are read (the (site, name, ts) index finds them), not every event of the period.
  const names = [...new Set(scope.goals.map((goal) => (goal.type === "page" ? "pageview" : goal.value)))];
  return scope.tenant.rows<{ id: number; uniques: number; total: number }>(
    sql`WITH sel AS MATERIALIZED (SELECT ${VISITOR} AS who, e.name, e.path ${selected(scope)} AND e.name IN (${sql.join(
      names.map((name) => sql`${name}`),
      sql`, `,
    )})) ${sql.join(columns, sql` UNION ALL `)}`,
  );
}

export function buildGoals(goals: Goal[], rows: { id: number; uniques: number; total: number }[], visitors: number) {
  return goals.map((goal) => {
    const row = rows.find((r) => Number(r.id) === goal.id);
    const uniques = Number(row?.uniques ?? 0);
    return {
      id: goal.id,
      name: goalName(goal),
      type: goal.type,
      value: goal.value,
      uniques,
      total: Number(row?.total ?? 0),
      conversion_rate: percent(uniques, visitors),
    };
  });
}

export const goalName = (goal: Pick<Goal, "type" | "value">) => (goal.type === "page" ? `Visit ${goal.value}` : goal.value);

/** A metric per interval from raw events (a filtered series, or hourly). */
export function filteredSeriesStatement(scope: Scope, interval: "hour" | "day" | "month", metric: "visitors" | "pageviews" | "events" | "revenue") {
  const format = interval === "hour" ? "%Y-%m-%dT%H:00:00Z" : interval === "day" ? "%Y-%m-%d" : "%Y-%m-01";
  const bucket = sql`strftime(${format}, e.ts / 1000, 'unixepoch')`;
  const value =
    metric === "visitors"
      ? sql`count(DISTINCT ${VISITOR})`
      : metric === "pageviews"
        ? sql`coalesce(sum(e.name = 'pageview'), 0)`
        : metric === "events"
          ? sql`count(*)`
          : boundedSum(sql`e.revenue_amount`);
  const revenueOnly = metric === "revenue" ? sql` AND e.revenue_amount IS NOT NULL AND ${revenueMatch(scope.goals)}` : sql``;
  return scope.tenant.rows<{ bucket: string; currency: string; value: number }>(
    sql`SELECT ${bucket} AS bucket, ${metric === "revenue" ? sql`e.revenue_currency` : sql`''`} AS currency, ${value} AS value ${selected(scope)}${revenueOnly} GROUP BY 1, 2`,
  );
}

export type BreakdownItem = {
  value: string;
  visitors: number;
  visits: number;
  pageviews: number;
  events: number;
  bounce_rate: number | null;
  conversion_rate: number | null;
};

/**
 * Values of a property with their visitors, visits, pageviews, events and bounce rate, largest first. `page`
 * counts pageviews by path and `event` the other events by name; a visit property (source, channel,
 * UTM, entry and exit page) counts every selected event of the visits with that value. With a goal
 * filter, each row's conversion rate is its visitors who completed the goal over its visitors.
 */
export function breakdownStatement(scope: Scope, property: Property, limit: number, offset: number) {
  if (scope.filters.length === 0 && ROLLED_UP.includes(property)) return rollupBreakdownStatement(scope, property, limit, offset);
  if (visitsAnswer(scope.filters, property)) return visitBreakdownStatement(scope, property, limit, offset);
  const column = columnOf(property);
  const goalFilter = scope.filters.find((filter) => filter.property === "goal" && filter.op === "==");
  const goal = goalFilter ? (goalNamed(scope.goals, goalFilter.value) ?? null) : undefined;
  const base = goal === undefined ? scope : { ...scope, filters: scope.filters.filter((filter) => filter !== goalFilter) };
  const kind =
    property === "page"
      ? sql` AND e.name = 'pageview'`
      : property === "event"
        ? sql` AND e.name <> 'pageview'`
        : property.startsWith("prop:")
          ? sql` AND ${column} IS NOT NULL`
          : sql``;
  const blank = blankName(property);
  const dropBlank = blank === null && property !== "page" && property !== "event" ? sql` AND coalesce(${column}, '') <> ''` : sql``;
  const g = alias(events, "g");
  const completed = goal
    ? sql`SELECT g.visitor FROM ${tableAs(g)} WHERE ${scope.tenant.scope(g)} AND g.site_id = ${scope.siteId} AND g.ts >= ${scope.range.fromMs} AND g.ts < ${scope.range.untilMs} AND ${goalMatch(goal, "g")}`
    : null;
  // With a goal filter a row counts its converters (as Plausible): its visitors, visits, pageviews and events
  // are theirs, and its conversion rate is converters ÷ all the row's visitors. Without one, every event counts.
  const converter = completed ? sql`(e.visitor IN (${completed}))` : sql`1`;
  const join = property === "entry_page" || property === "exit_page";
  return scope.tenant.rows<Record<string, string | number | null>>(sql`WITH sel AS MATERIALIZED (
      SELECT coalesce(${column}, '') AS value, ${VISITOR} AS who, e.visit_id, e.name, ${converter} AS conv ${selected(base, { join })}${kind}${dropBlank}),
    grouped AS (SELECT value, count(DISTINCT CASE WHEN conv THEN who END) AS visitors, count(DISTINCT CASE WHEN conv THEN visit_id END) AS visits,
        coalesce(sum(conv AND name = 'pageview'), 0) AS pageviews, coalesce(sum(conv), 0) AS events,
        ${completed ? sql`count(DISTINCT who)` : sql`NULL`} AS everyone
      FROM sel GROUP BY value HAVING visitors > 0 ORDER BY visitors DESC, events DESC, value LIMIT ${limit} OFFSET ${offset})
    SELECT grouped.*, (SELECT coalesce(sum(v.pageviews = 1 AND v.events = 1), 0)
        FROM ${visitsOfSelected(scope.tenant, sql`SELECT DISTINCT visit_id FROM sel WHERE sel.value = grouped.value AND sel.conv`)}) AS bounces
    FROM grouped ORDER BY visitors DESC, events DESC, value`);
}

export function buildBreakdownItems(property: Property, rows: Record<string, string | number | null>[]): BreakdownItem[] {
  const blank = blankName(property);
  return rows.map((row) => {
    const visitors = Number(row.visitors);
    const visits = Number(row.visits);
    return {
      value: row.value === "" && blank !== null ? blank : String(row.value),
      visitors,
      visits,
      pageviews: Number(row.pageviews),
      events: Number(row.events),
      bounce_rate: percent(Number(row.bounces), visits),
      conversion_rate: row.everyone === null || row.everyone === undefined ? null : percent(visitors, Number(row.everyone)),
    };
  });
}

/** Visitors in the last five minutes, and the pages and sources they are on. */
export function realtimeStatement(tenant: Tenant, siteId: number, now: number) {
  const e = alias(events, "e");
  const recent = sql`FROM ${tableAs(e)} WHERE ${tenant.scope(e)} AND e.site_id = ${siteId} AND e.ts >= ${now - 5 * 60_000}`;
  return tenant.rows<{ kind: string; value: string; visitors: number }>(sql`
    SELECT 'total' AS kind, '' AS value, count(DISTINCT e.visitor) AS visitors ${recent}
    UNION ALL SELECT * FROM (SELECT 'page', e.path, count(DISTINCT e.visitor) AS visitors ${recent} AND e.name = 'pageview' GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT 10)
    UNION ALL SELECT * FROM (SELECT 'source', e.source, count(DISTINCT e.visitor) AS visitors ${recent} GROUP BY 2 ORDER BY 3 DESC, 2 LIMIT 10)`);
}

export function buildRealtime(rows: { kind: string; value: string; visitors: number }[]) {
  const of = (kind: string) =>
    rows
      .filter((row) => row.kind === kind)
      .map((row) => ({ value: kind === "source" && !row.value ? "Direct / None" : row.value, visitors: Number(row.visitors) }));
  return { visitors: Number(rows.find((row) => row.kind === "total")?.visitors ?? 0), pages: of("page"), sources: of("source") };
}
