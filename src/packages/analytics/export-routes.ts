import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { strToU8, zipSync } from "fflate";
import Papa from "papaparse";
import { access } from "../../platform/auth/permissions";
import { newRouter } from "../../platform/http/router";
import { defineRoute } from "../../platform/openapi";
import type { Tenant } from "../../platform/tenancy";
import { percent } from "../../platform/widgets";
import { analyticsTenant } from "./collect";
import type { Filter, Property } from "./filters";
import {
  breakdownStatement,
  buildBreakdownItems,
  buildFilteredStats,
  filteredStatsStatement,
  type Goal,
  goalsStatement,
  type Scope,
  selected,
  visitsOfSelected,
} from "./queries";
import { RangeQuery, rangeOf } from "./report-routes";
import { filtersFor, siteAndGoals } from "./reports";
import { SiteParam, tags } from "./site-routes";
import type { Range } from "./stats";

/** The files of the export and the breakdown each one is (as Plausible's CSV export). */
const FILES: [string, Property][] = [
  ["pages.csv", "page"],
  ["entry_pages.csv", "entry_page"],
  ["exit_pages.csv", "exit_page"],
  ["sources.csv", "source"],
  ["channels.csv", "channel"],
  ["utm_sources.csv", "utm_source"],
  ["utm_mediums.csv", "utm_medium"],
  ["utm_campaigns.csv", "utm_campaign"],
  ["countries.csv", "country"],
  ["regions.csv", "region"],
  ["cities.csv", "city"],
  ["devices.csv", "device"],
  ["browsers.csv", "browser"],
  ["operating_systems.csv", "os"],
  ["events.csv", "event"],
];
const ROWS_PER_FILE = 1000;

/** Visitors, visits, pageviews and events per UTC day, with the bounce rate and duration of the visits that started that day. */
function dailyStatement(scope: Scope) {
  const { tenant } = scope;
  return tenant.rows<Record<string, string | number>>(sql`WITH sel AS MATERIALIZED (
      SELECT strftime('%Y-%m-%d', e.ts / 1000, 'unixepoch') AS day, e.visit_id, e.name, e.visitor AS who ${selected(scope)}),
    started AS MATERIALIZED (SELECT v.day AS day, coalesce(sum(v.pageviews = 1 AND v.events = 1), 0) AS bounces, count(*) AS started,
        coalesce(sum(v.last_at - v.started_at), 0) AS duration_ms
      FROM ${visitsOfSelected(tenant, sql`SELECT DISTINCT visit_id FROM sel`)} GROUP BY v.day),
    daily AS (SELECT day, count(DISTINCT who) AS visitors, count(DISTINCT visit_id) AS visits, coalesce(sum(name = 'pageview'), 0) AS pageviews, count(*) AS events
      FROM sel GROUP BY day)
    SELECT daily.*, coalesce(started.bounces, 0) AS bounces, coalesce(started.started, 0) AS started, coalesce(started.duration_ms, 0) AS duration_ms
    FROM daily LEFT JOIN started ON started.day = daily.day ORDER BY daily.day`);
}

const csv = (fields: string[], rows: unknown[][]) => strToU8(`${Papa.unparse({ fields, data: rows }, { escapeFormulae: true, newline: "\r\n" })}\r\n`);

/** Every file of the export, read in one D1 batch. */
export async function exportZip(tenant: Tenant, siteId: number, range: Range, filters: Filter[], goals: Goal[]): Promise<Uint8Array> {
  const scope = { tenant, siteId, range, filters, goals };
  const statements: BatchItem<"sqlite">[] = [
    dailyStatement(scope),
    filteredStatsStatement(scope),
    goalsStatement(scope),
    ...FILES.map(([, property]) => breakdownStatement(scope, property, ROWS_PER_FILE, 0)),
  ];
  const results = (await tenant.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as Record<string, string | number | null>[][];
  const [days, totals, goalRows, ...breakdowns] = results;
  const files: Record<string, Uint8Array> = {};
  files["visitors.csv"] = csv(
    ["date", "visitors", "visits", "pageviews", "events", "bounce_rate", "visit_duration_seconds"],
    days!.map((day) => {
      const started = Number(day.started);
      return [
        day.day,
        day.visitors,
        day.visits,
        day.pageviews,
        day.events,
        percent(Number(day.bounces), started) ?? "",
        started > 0 ? Math.round(Number(day.duration_ms) / started / 1000) : "",
      ];
    }),
  );
  FILES.forEach(([name, property], i) => {
    const items = buildBreakdownItems(property, breakdowns[i] as never);
    files[name] = csv(
      ["name", "visitors", "visits", "pageviews", "events", "bounce_rate"],
      items.map((item) => [item.value, item.visitors, item.visits, item.pageviews, item.events, item.bounce_rate ?? ""]),
    );
  });
  const visitors = buildFilteredStats(totals![0] as Record<string, number>).visitors;
  const goalStats = goalRows as { id: number; uniques: number; total: number }[];
  files["goals.csv"] = csv(
    ["name", "type", "value", "uniques", "total", "conversion_rate"],
    goals.map((goal) => {
      const row = goalStats.find((r) => Number(r.id) === goal.id);
      const uniques = Number(row?.uniques ?? 0);
      return [
        goal.type === "page" ? `Visit ${goal.value}` : goal.value,
        goal.type,
        goal.value,
        uniques,
        Number(row?.total ?? 0),
        percent(uniques, visitors) ?? "",
      ];
    }),
  );
  return zipSync(files, { level: 6 });
}

const route = defineRoute(
  { ...access.read("analytics") },
  {
    method: "get",
    path: "/analytics/sites/{id}/export",
    operationId: "exportSiteStats",
    tags,
    summary: "Download the period's stats as a ZIP of CSV files",
    description:
      "Members and above (an API token needs analytics:read). Like Plausible's export: visitors.csv (per day), pages, entry_pages, exit_pages, sources, channels, utm_sources, utm_mediums, utm_campaigns, countries, regions, cities, devices, browsers, operating_systems, events (up to 1,000 rows each) and goals.csv; filters= applies to every file.",
    request: { params: SiteParam, query: z.strictObject(RangeQuery) },
    responses: { 200: { description: "A ZIP archive", content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } } } },
  },
);

export const exportRoutes = newRouter().openapi(route, async (c) => {
  const query = c.req.valid("query");
  const tenant = analyticsTenant(c);
  const { site, goals } = await siteAndGoals(tenant, c.req.valid("param").id);
  const range = rangeOf(query);
  const zip = await exportZip(tenant, site.id, range, filtersFor(query.filters, goals), goals);
  const name = `${site.domain}-${range.from}-${range.to}.zip`.replace(/[^A-Za-z0-9._-]/g, "_");
  return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
    "content-type": "application/zip",
    "content-disposition": `attachment; filename="${name}"`,
  }) as never;
});
