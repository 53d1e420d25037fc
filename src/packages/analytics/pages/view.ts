import { ApiError } from "../../../platform/errors";
import { PERIODS, type PeriodName } from "../../../platform/widgets";
import type { Filter, Property } from "../filters";
import { rangeOf } from "../report-routes";
import type { Metric, Range, SeriesInterval } from "../stats";

/**
 * What a dashboard shows, read from its address: the period (named, today, or from/to), the comparison,
 * the chart's metric, the filters (`filters=` as the API takes them) and each panel's tab. Every link on
 * the page is this state with one thing changed, so the page needs no script: a row adds its filter, a
 * chip removes one, a tab or a picker changes its part and keeps the rest.
 */

export type Compare = "previous_period" | "previous_year" | "off";
export type PeriodChoice = PeriodName | "today" | "custom";

/** The panels with tabs: each shows one property at a time. */
export const PANELS = {
  sources: ["source", "channel", "utm_source", "utm_medium", "utm_campaign"],
  pages: ["page", "entry_page", "exit_page"],
  locations: ["country", "region", "city"],
  devices: ["device", "browser", "os"],
} as const satisfies Record<string, readonly Property[]>;
export type Panel = keyof typeof PANELS;
export type Tabs = { [P in Panel]: (typeof PANELS)[P][number] };
export const DEFAULT_TABS: Tabs = { sources: "source", pages: "page", locations: "country", devices: "device" };

export const METRICS: readonly Metric[] = ["visitors", "pageviews", "events", "revenue"];
export const COMPARES: readonly Compare[] = ["off", "previous_period", "previous_year"];

export type View = {
  period: PeriodChoice;
  from?: string;
  to?: string;
  compare: Compare;
  metric: Metric;
  /** The filters as sent (checked against the site's goals when the dashboard loads). */
  filters: string;
  tabs: Tabs;
};

export const PERIOD_LABELS: Record<PeriodChoice, string> = {
  today: "Today",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  mtd: "Month to date",
  "12mo": "Last 12 months",
  ytd: "Year to date",
  custom: "Custom range",
};
/** The named periods the picker offers, in its order ("today" is a one-day from/to range). */
export const PERIOD_CHOICES: readonly PeriodChoice[] = ["today", "7d", "30d", "90d", "mtd", "12mo", "ytd"];

export const COMPARE_LABELS: Record<Compare, string> = { off: "No comparison", previous_period: "Previous period", previous_year: "Previous year" };

/** What a property is called on the page. */
export const PROPERTY_LABELS: Record<string, string> = {
  page: "Page",
  entry_page: "Entry page",
  exit_page: "Exit page",
  referrer: "Referrer",
  source: "Source",
  channel: "Channel",
  utm_source: "UTM source",
  utm_medium: "UTM medium",
  utm_campaign: "UTM campaign",
  utm_term: "UTM term",
  utm_content: "UTM content",
  country: "Country",
  region: "Region",
  city: "City",
  device: "Device",
  browser: "Browser",
  os: "OS",
  event: "Event",
  goal: "Goal",
};
export const propertyLabel = (property: string) => PROPERTY_LABELS[property] ?? (property.startsWith("prop:") ? `Property ${property.slice(5)}` : property);

const DATE = /^\d{4}-\d\d-\d\d$/;
const isDate = (value: string | undefined): value is string => value !== undefined && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
const oneOf = <T extends string>(values: readonly T[], value: string | undefined, fallback: T): T =>
  value !== undefined && (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The view an address asks for; what it cannot read is left at its default and said in `problems`. */
export function viewOf(query: Record<string, string | undefined>): { view: View; problems: string[] } {
  const problems: string[] = [];
  let period: PeriodChoice = "30d";
  let from: string | undefined;
  let to: string | undefined;
  const named = query.period === "today" || (PERIODS as readonly string[]).includes(query.period ?? "");
  if (named) period = query.period as PeriodChoice;
  else if (query.from || query.to || query.period === "custom") {
    if (isDate(query.from) && isDate(query.to)) {
      period = "custom";
      from = query.from;
      to = query.to;
    } else {
      // The picker stays on the custom range (with what was typed) while the page shows the last 30 days.
      period = "custom";
      from = isDate(query.from) ? query.from : undefined;
      to = isDate(query.to) ? query.to : undefined;
      problems.push("A custom range needs both dates (YYYY-MM-DD); showing the last 30 days.");
    }
  } else if (query.period) problems.push(`There is no period "${query.period.slice(0, 20)}"; showing the last 30 days.`);
  const tabs = { ...DEFAULT_TABS };
  for (const panel of Object.keys(PANELS) as Panel[]) {
    (tabs as Record<Panel, string>)[panel] = oneOf<string>(PANELS[panel], query[panel], DEFAULT_TABS[panel]);
  }
  return {
    view: {
      period,
      from,
      to,
      compare: oneOf(COMPARES, query.compare, "previous_period"),
      metric: oneOf(METRICS, query.metric, "visitors"),
      filters: (query.filters ?? "").slice(0, 4000),
      tabs,
    },
    problems,
  };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days the view covers (UTC) and how its chart is bucketed: hours for a day or two, months past 100 days. */
export function rangeOfView(view: View, now: number): { range: Range; interval: SeriesInterval; problem?: string } {
  let range: Range;
  let problem: string | undefined;
  try {
    if (view.period === "today") range = rangeOf({ from: day(now), to: day(now) });
    else if (view.period === "custom" && view.from && view.to) range = rangeOf({ from: view.from, to: view.to });
    else if (view.period === "custom") range = rangeOf({ period: "30d" });
    else range = rangeOf({ period: view.period });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problem = `${error.message}; showing the last 30 days.`;
    range = rangeOf({ period: "30d" });
    view.period = "30d";
    view.from = undefined;
    view.to = undefined;
  }
  const days = Math.round((range.untilMs - range.fromMs) / 86_400_000);
  const interval: SeriesInterval = days <= 2 ? "hour" : days > 100 ? "month" : "day";
  return { range, interval, problem };
}

/** A filter value as it goes in `filters=`: `;` (the separator) and `%` (the escape) escaped, the rest as is. */
const escapeValue = (value: string) => value.replace(/%/g, "%25").replace(/;/g, "%3B");
export const filterText = (filter: Pick<Filter, "property" | "op" | "value">) => `${filter.property}${filter.op}${escapeValue(filter.value)}`;
export const filtersText = (filters: Pick<Filter, "property" | "op" | "value">[]) => filters.map(filterText).join(";");

/** The filters with `property==value` added (replacing any other `==` filter on that property). */
export function withFilter(filters: Filter[], property: Filter["property"], value: string): string {
  const kept = filters.filter((filter) => !(filter.property === property && filter.op === "=="));
  return filtersText([...kept, { property, op: "==", value }]);
}

/** The address of the view with some of it changed; defaults are left out, so links stay short. */
export function hrefOf(base: string, view: View, change: Partial<View> = {}): string {
  const next = { ...view, ...change, tabs: { ...view.tabs, ...change.tabs } };
  const params = new URLSearchParams();
  if (next.period === "custom" && next.from && next.to) {
    params.set("from", next.from);
    params.set("to", next.to);
  } else if (next.period !== "30d" && next.period !== "custom") params.set("period", next.period);
  if (next.compare !== "previous_period") params.set("compare", next.compare);
  if (next.metric !== "visitors") params.set("metric", next.metric);
  if (next.filters) params.set("filters", next.filters);
  for (const panel of Object.keys(PANELS) as Panel[]) if (next.tabs[panel] !== DEFAULT_TABS[panel]) params.set(panel, next.tabs[panel]);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The export's address: the same period and filters. */
export function exportHref(base: string, view: View, range: Range): string {
  const params = new URLSearchParams({ from: range.from, to: range.to });
  if (view.filters) params.set("filters", view.filters);
  return `${base}/export.zip?${params}`;
}
