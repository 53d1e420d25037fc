import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ApiError } from "../../../platform/errors";
import type { Tenant } from "../../../platform/tenancy";
import type { Filter, Property } from "../filters";
import { buildFunnel, CHECKOUT, type FunnelDefinition, type FunnelReport, funnelStatement } from "../funnels";
import { type BreakdownItem, breakdownStatement, buildBreakdownItems, buildRealtime, type Goal, realtimeStatement } from "../queries";
import { filtersFor, seriesReport, siteAndGoals, statsReport } from "../reports";
import { funnels as funnelTable, type sites } from "../schema";
import type { Range, SeriesInterval } from "../stats";
import { PANELS, type Panel, type View } from "./view";

/**
 * Everything a site's dashboard shows, read server-side as the site's workspace (the app's signed-in user,
 * or a shared link's workspace): the site, its goals and custom funnels (one round trip each, at once), then
 * the stats, the chart's series and — in ONE batch — every panel's breakdown, the realtime count and every
 * funnel, all three at once.
 */

export type Stats = Awaited<ReturnType<typeof statsReport>>;
export type Series = Awaited<ReturnType<typeof seriesReport>>;
export type Realtime = ReturnType<typeof buildRealtime>;

export type Dashboard = {
  site: typeof sites.$inferSelect;
  goals: Goal[];
  filters: Filter[];
  /** Why the filters were not applied (a bad filters= shows as a message, not an error page). */
  filterError: string | null;
  range: Range;
  interval: SeriesInterval;
  stats: Stats;
  series: Series;
  panels: Record<Panel, BreakdownItem[]>;
  events: BreakdownItem[];
  realtime: Realtime;
  funnels: { definition: FunnelDefinition; report: FunnelReport }[];
};

const ROWS = 10;

/** The site and what it is read with; another workspace's (or a missing) site throws ApiError 404. */
export async function loadDashboard(tenant: Tenant, siteId: number, view: View, range: Range, interval: SeriesInterval, now: number): Promise<Dashboard> {
  const [{ site, goals }, funnelRows] = await Promise.all([
    siteAndGoals(tenant, siteId),
    tenant.select(funnelTable, eq(funnelTable.siteId, siteId)).orderBy(funnelTable.id),
  ]);
  let filters: Filter[] = [];
  let filterError: string | null = null;
  try {
    filters = filtersFor(view.filters || undefined, goals);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    filterError = error.message;
    // The page's links (tabs, rows, pickers, export) start from no filter rather than repeat the bad one.
    view.filters = "";
  }
  const compare = view.compare === "off" ? undefined : view.compare;
  const definitions: FunnelDefinition[] = [
    CHECKOUT,
    ...funnelRows.map((row) => ({ id: row.id, name: row.name, steps: row.steps, windowMinutes: row.windowMinutes })),
  ];
  const scope = { tenant, siteId: site.id, range, filters, goals };
  const panels = Object.keys(PANELS) as Panel[];
  const properties: Property[] = [...panels.map((panel) => view.tabs[panel]), "event"];
  const statements: BatchItem<"sqlite">[] = [
    ...properties.map((property) => breakdownStatement(scope, property, ROWS, 0)),
    realtimeStatement(tenant, site.id, now),
    ...definitions.map((definition) => funnelStatement(tenant, site.id, range, definition, filters)),
  ];
  const [stats, series, results] = await Promise.all([
    statsReport(tenant, site.id, range, filters, goals, compare),
    seriesReport(tenant, site.id, range, interval, view.metric, filters, goals, compare),
    tenant.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]) as Promise<unknown[]>,
  ]);
  const breakdowns = properties.map((property, i) => buildBreakdownItems(property, results[i] as Record<string, string | number | null>[]));
  const realtime = buildRealtime(results[properties.length] as Parameters<typeof buildRealtime>[0]);
  const funnelResults = results.slice(properties.length + 1);
  return {
    site,
    goals,
    filters,
    filterError,
    range,
    interval,
    stats,
    series,
    panels: Object.fromEntries(panels.map((panel, i) => [panel, breakdowns[i]!])) as Record<Panel, BreakdownItem[]>,
    events: breakdowns[panels.length]!,
    realtime,
    funnels: definitions.map((definition, i) => ({
      definition,
      report: buildFunnel(definition, funnelResults[i] as Record<string, number | string | null>[]),
    })),
  };
}
