import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Tenant, tableAs } from "../../platform/tenancy";
import { boundedSum, type Money, percent } from "../../platform/widgets";
import { eventConditions, type Filter } from "./filters";
import { visitOf } from "./queries";
import { events, sites as siteTable } from "./schema";
import type { Range, Sites } from "./stats";

export type FunnelStep = { type: "page" | "event"; value: string };
export type FunnelDefinition = { id: number | "checkout"; name: string; steps: FunnelStep[]; windowMinutes: number };

/** Every site's built-in funnel: the usual e-commerce events, within a day of viewing an item. */
export const CHECKOUT: FunnelDefinition = {
  id: "checkout",
  name: "Checkout",
  steps: ["view_item", "add_to_cart", "begin_checkout", "add_payment_info", "purchase"].map((value) => ({ type: "event", value })),
  windowMinutes: 1440,
};

/** A page step's value as a GLOB pattern: `*` is the wildcard, everything else is literal. */
function globPattern(path: string): string {
  return path.replace(/[[\]?]/g, (char) => `[${char}]`);
}

function matches(step: FunnelStep): SQL {
  return step.type === "page" ? sql`e.name = 'pageview' AND e.path GLOB ${globPattern(step.value)}` : sql`e.name = ${step.value}`;
}

/**
 * The funnel report in one SQL statement over the raw events of the range, in the visitor's order (`ord`:
 * time, then the event's place in its page load — steps one click fired count in the order they were
 * fired). Filters restrict the events every step may match. For each occurrence of step 1,
 * each later step is the earliest matching event after the previous step and no later than the window
 * after step 1 (the earliest continuation leaves the most room, so this finds the longest chain from that
 * start); a visitor reaches step k if any of their starts does. Out-of-order steps and steps after the
 * window do not count. Revenue sums the `purchase` events (in the range) of the visitors who completed it.
 */
export function funnelStatement(tenant: Tenant, sites: Sites, range: Range, funnel: FunnelDefinition, filters: Filter[] = []) {
  const e = alias(events, "e");
  const conditions = eventConditions(filters, visitOf(tenant));
  const raw = sql`${tableAs(e)} WHERE ${sql.join([tenant.scope(e), ...conditions], sql` AND `)}`;
  // Orders compare `ord` (time × 1024 + seq): a window in ms is 1024 times as many ord units.
  const window = funnel.windowMinutes * 60_000 * 1024;
  const onSites = sites === "all" ? sql`e.site_id IN (SELECT id FROM ${siteTable} WHERE ${tenant.scope(siteTable)})` : sql`e.site_id = ${sites}`;
  const inRange = sql`e.ts >= ${range.fromMs} AND e.ts < ${range.untilMs}`;
  const ctes: SQL[] = [
    sql`s1 AS MATERIALIZED (SELECT e.site_id, e.visitor, e.ord AS t1, e.ord AS t FROM ${raw} AND ${onSites} AND ${inRange} AND ${matches(funnel.steps[0]!)})`,
  ];
  funnel.steps.slice(1).forEach((step, i) => {
    const previous = sql.raw(`s${i + 1}`);
    ctes.push(
      sql`${sql.raw(`s${i + 2}`)} AS MATERIALIZED (SELECT p.site_id, p.visitor, p.t1,
        (SELECT min(e.ord) FROM ${raw} AND e.site_id = p.site_id AND e.visitor = p.visitor
           AND ${matches(step)} AND e.ord > p.t AND e.ord <= p.t1 + ${window} AND e.ts < ${range.untilMs}) AS t
        FROM ${previous} p WHERE p.t IS NOT NULL)`,
    );
  });
  const last = sql.raw(`s${funnel.steps.length}`);
  const counts = funnel.steps.map(
    (_, i) => sql`(SELECT count(DISTINCT site_id || ':' || visitor) FROM ${sql.raw(`s${i + 1}`)} WHERE t IS NOT NULL) AS ${sql.raw(`v${i + 1}`)}`,
  );
  const revenue = sql`(SELECT json_group_object(currency, amount) FROM (
      SELECT e.revenue_currency AS currency, ${boundedSum(sql`e.revenue_amount`)} AS amount FROM ${raw}
      AND ${onSites} AND ${inRange} AND e.name = 'purchase' AND e.revenue_amount IS NOT NULL
        AND (e.site_id || ':' || e.visitor) IN (SELECT site_id || ':' || visitor FROM ${last} WHERE t IS NOT NULL)
      GROUP BY 1)) AS revenue`;
  return tenant.rows<Record<string, number | string | null>>(sql`WITH ${sql.join(ctes, sql`, `)} SELECT ${sql.join([...counts, revenue], sql`, `)}`);
}

export type FunnelReport = {
  steps: { index: number; label: string; visitors: number; conversion_rate: number | null; dropoff_rate: number | null }[];
  conversion_rate: number | null;
  revenue: Money;
};

export function buildFunnel(funnel: FunnelDefinition, rows: Record<string, number | string | null>[]): FunnelReport {
  const row = rows[0] ?? {};
  const visitors = funnel.steps.map((_, i) => Number(row[`v${i + 1}`] ?? 0));
  const first = visitors[0] ?? 0;
  return {
    steps: funnel.steps.map((step, i) => ({
      index: i + 1,
      label: step.value,
      visitors: visitors[i]!,
      conversion_rate: percent(visitors[i]!, first),
      dropoff_rate: i === 0 ? null : percent(visitors[i - 1]! - visitors[i]!, visitors[i - 1]!),
    })),
    conversion_rate: percent(visitors.at(-1)!, first),
    revenue: row.revenue ? (JSON.parse(String(row.revenue)) as Money) : {},
  };
}
