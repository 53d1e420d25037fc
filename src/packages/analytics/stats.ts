import { countDistinct, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { qualified as q, type Tenant } from "../../platform/tenancy";
import { boundedSum, buckets, type Money, money, type Period, percent } from "../../platform/widgets";
import { daily, dailyRevenue, events, visitorDays } from "./schema";

/**
 * Stats read the daily rollups wherever the question allows: every total is a sum over days, and a
 * period's visitors are the sum of each day's browser visitors (a browser's id is that day's alone, by
 * the daily salt) plus the distinct server-side visitors of the period (their ids last). Hourly and
 * filtered series, filtered stats, goals, breakdowns and funnels read raw events (queries.ts).
 */

export type Range = { from: string; to: string; fromMs: number; untilMs: number };
/** Which sites: one, or all of the workspace's (the dashboard). */
export type Sites = number | "all";

export function statsStatements(tenant: Tenant, siteId: number, range: Range): BatchItem<"sqlite">[] {
  const days = (table: typeof daily | typeof dailyRevenue | typeof visitorDays) => [gte(table.day, range.from), lte(table.day, range.to)];
  return [
    tenant.selectFrom(
      {
        browserVisitors: sql<number>`coalesce(sum(${daily.browserVisitors}), 0)`,
        visits: sql<number>`coalesce(sum(${daily.visits}), 0)`,
        pageviews: sql<number>`coalesce(sum(${daily.pageviews}), 0)`,
        events: sql<number>`coalesce(sum(${daily.events}), 0)`,
        bounces: sql<number>`coalesce(sum(${daily.bounces}), 0)`,
        durationMs: sql<number>`coalesce(sum(${daily.durationMs}), 0)`,
      },
      daily,
      eq(daily.siteId, siteId),
      ...days(daily),
    ),
    tenant.selectFrom(
      { serverVisitors: countDistinct(sql`${visitorDays.siteId} || ':' || ${visitorDays.visitor}`) },
      visitorDays,
      eq(visitorDays.siteId, siteId),
      eq(visitorDays.source, "server"),
      ...days(visitorDays),
    ),
    tenant
      .selectFrom(
        { currency: dailyRevenue.currency, amount: boundedSum(sql`${dailyRevenue.amount}`) },
        dailyRevenue,
        eq(dailyRevenue.siteId, siteId),
        ...days(dailyRevenue),
      )
      .groupBy(dailyRevenue.currency),
  ];
}

export function buildStats([totals, server, revenue]: unknown[]) {
  const t = (totals as Record<string, number>[])[0]!;
  const visits = Number(t.visits);
  return {
    visitors: Number(t.browserVisitors) + Number((server as { serverVisitors: number }[])[0]?.serverVisitors ?? 0),
    visits,
    pageviews: Number(t.pageviews),
    events: Number(t.events),
    bounce_rate: percent(Number(t.bounces), visits),
    visit_duration_seconds: visits > 0 ? Math.round(Number(t.durationMs) / visits / 1000) : null,
    revenue: money(revenue as { currency: string; amount: number }[]),
  };
}

export type Metric = "visitors" | "pageviews" | "events" | "revenue";
export type SeriesInterval = "hour" | "day" | "month";

/** The start of every interval of a range: days or months from the rollups, hours from raw events. */
export function seriesBuckets(range: Range, interval: SeriesInterval): string[] {
  if (interval === "hour") {
    const out: string[] = [];
    for (let ms = range.fromMs; ms < range.untilMs; ms += 3_600_000) out.push(`${new Date(ms).toISOString().slice(0, 13)}:00:00Z`);
    return out;
  }
  const period = { from: range.from, to: range.to, fromMs: range.fromMs, untilMs: range.untilMs, interval, name: "30d", today: range.to } as Period;
  return buckets(period);
}

export function seriesStatements(tenant: Tenant, siteId: number, range: Range, interval: SeriesInterval, metric: Metric): BatchItem<"sqlite">[] {
  if (interval === "hour") {
    const bucket = sql`strftime('%Y-%m-%dT%H:00:00Z', ${q(events.ts)} / 1000, 'unixepoch')`;
    const value =
      metric === "visitors"
        ? sql`count(DISTINCT ${q(events.siteId)} || ':' || ${q(events.visitor)})`
        : metric === "pageviews"
          ? sql`sum(${q(events.name)} = 'pageview')`
          : metric === "events"
            ? sql`count(*)`
            : boundedSum(sql`${q(events.revenueAmount)}`);
    return [
      tenant
        .selectFrom(
          { bucket: sql<string>`${bucket}`, currency: metric === "revenue" ? events.revenueCurrency : sql<string>`''`, value: sql<number>`${value}` },
          events,
          eq(events.siteId, siteId),
          gte(events.ts, range.fromMs),
          lt(events.ts, range.untilMs),
          metric === "revenue" ? sql`${events.revenueAmount} IS NOT NULL` : undefined,
        )
        .groupBy(sql`1`, sql`2`),
    ];
  }
  const bucketOf = (day: unknown) => (interval === "month" ? sql`substr(${day}, 1, 7) || '-01'` : sql`${day}`);
  const inRange = (table: typeof daily | typeof dailyRevenue | typeof visitorDays) => [gte(table.day, range.from), lte(table.day, range.to)];
  if (metric === "revenue") {
    return [
      tenant
        .selectFrom(
          { bucket: sql<string>`${bucketOf(dailyRevenue.day)}`, currency: dailyRevenue.currency, value: boundedSum(sql`${dailyRevenue.amount}`) },
          dailyRevenue,
          eq(dailyRevenue.siteId, siteId),
          ...inRange(dailyRevenue),
        )
        .groupBy(sql`1`, dailyRevenue.currency),
    ];
  }
  const column = metric === "visitors" ? daily.browserVisitors : metric === "pageviews" ? daily.pageviews : daily.events;
  const statements: BatchItem<"sqlite">[] = [
    tenant
      .selectFrom(
        { bucket: sql<string>`${bucketOf(daily.day)}`, currency: sql<string>`''`, value: sql<number>`sum(${column})` },
        daily,
        eq(daily.siteId, siteId),
        ...inRange(daily),
      )
      .groupBy(sql`1`),
  ];
  if (metric === "visitors") {
    statements.push(
      tenant
        .selectFrom(
          {
            bucket: sql<string>`${bucketOf(visitorDays.day)}`,
            currency: sql<string>`''`,
            value: countDistinct(sql`${visitorDays.siteId} || ':' || ${visitorDays.visitor}`),
          },
          visitorDays,
          eq(visitorDays.siteId, siteId),
          eq(visitorDays.source, "server"),
          ...inRange(visitorDays),
        )
        .groupBy(sql`1`),
    );
  }
  return statements;
}

export function buildSeries(range: Range, interval: SeriesInterval, metric: Metric, results: unknown[]) {
  const rows = results.flat() as { bucket: string; currency: string; value: number }[];
  const points = seriesBuckets(range, interval).map((date) => {
    const mine = rows.filter((row) => row.bucket === date);
    const value: number | Money =
      metric === "revenue"
        ? money(mine.map((row) => ({ currency: row.currency, amount: Number(row.value) })))
        : mine.reduce((sum, row) => sum + Number(row.value), 0);
    return { date, value };
  });
  return { interval, points };
}
