import { type SQL, sql } from "drizzle-orm";
import { defineWidget, type Period, series } from "../../platform/widgets";
import { buildFunnel, CHECKOUT, funnelStatement } from "./funnels";
import { daily, sites, visitorDays } from "./schema";

/** The index of the period's interval a `YYYY-MM-DD` day column falls in (days are few: one row per site and day). */
function intervalOfDay(period: Period, day: SQL): SQL {
  if (period.interval === "month") {
    const [year, month] = [Number(period.from.slice(0, 4)), Number(period.from.slice(5, 7))];
    return sql`(CAST(substr(${day}, 1, 4) AS INTEGER) - ${year}) * 12 + CAST(substr(${day}, 6, 2) AS INTEGER) - ${month}`;
  }
  return sql`CAST((julianday(${day}) - julianday(${period.from})) / ${period.interval === "week" ? 7 : 1} AS INTEGER)`;
}

export const analyticsWidgets = [
  defineWidget({
    key: "analytics.visitors",
    title: "Website visitors",
    description: "Unique visitors per interval, all sites together",
    kind: "series",
    unit: "count",
    reads: ["analytics"],
    source: "analytics",
    query: ({ tenant, period }) => {
      const live = (table: typeof daily | typeof visitorDays) =>
        tenant.scope(table, sql`${table.siteId} IN (SELECT id FROM ${sites} WHERE ${tenant.scope(sites)})`);
      return {
        statements: [
          // Browser ids are a day's alone: a day's browser visitors add up across days.
          tenant.rows(sql`SELECT ${intervalOfDay(period, sql`day`)} AS bucket, sum(browser_visitors) AS value FROM ${daily}
                WHERE ${live(daily)} AND day >= ${period.from} AND day <= ${period.to} GROUP BY bucket`),
          // Server-side ids last: each counts once per interval.
          tenant.rows(sql`SELECT ${intervalOfDay(period, sql`day`)} AS bucket, count(DISTINCT site_id || ':' || visitor) AS value FROM ${visitorDays}
                WHERE ${live(visitorDays)} AND source = 'server' AND day >= ${period.from} AND day <= ${period.to} GROUP BY bucket`),
        ],
        build: ([browser, server]) =>
          series(
            period,
            [...(browser as { bucket: number; value: number }[]), ...(server as { bucket: number; value: number }[])],
            () => 0,
            (a, b) => Number(a) + Number(b),
          ),
      };
    },
  }),
  defineWidget({
    key: "analytics.checkout_conversion",
    comparable: true,
    title: "Checkout conversion",
    description: "Visitors who completed the checkout funnel (view_item → purchase within a day), of those who started it, all sites",
    kind: "stat",
    unit: "percent",
    reads: ["analytics"],
    source: "analytics",
    query: ({ tenant, period }) => ({
      statements: [funnelStatement(tenant, "all", period, CHECKOUT)],
      build: ([rows]) => ({ value: buildFunnel(CHECKOUT, rows as Record<string, number | string | null>[]).conversion_rate }),
    }),
  }),
];
