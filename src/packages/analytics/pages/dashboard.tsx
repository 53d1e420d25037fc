import type { Child } from "hono/jsx";
import { formatCount, formatMoney } from "../../../platform/format";
import type { Filter } from "../filters";
import type { FunnelDefinition, FunnelReport } from "../funnels";
import type { BreakdownItem } from "../queries";
import { MainChart, METRIC_LABELS, ShareBar } from "./chart";
import type { Dashboard, Stats } from "./load";
import {
  COMPARE_LABELS,
  COMPARES,
  DEFAULT_TABS,
  filtersText,
  hrefOf,
  METRICS,
  PANELS,
  type Panel,
  PERIOD_CHOICES,
  PERIOD_LABELS,
  propertyLabel,
  type View,
  withFilter,
} from "./view";

/**
 * A site's dashboard, the same for the app (/app/analytics/{id}) and a shared link (/share/{token}); only
 * `base` (where its links go) and the header's actions differ. Server-rendered: pickers are a GET form,
 * tabs and filters are links, the chart is inline SVG.
 */

const PANEL_TITLES: Record<Panel, string> = { sources: "Top sources", pages: "Top pages", locations: "Locations", devices: "Devices" };
const TAB_LABELS: Record<string, string> = {
  source: "Sources",
  channel: "Channels",
  utm_source: "UTM source",
  utm_medium: "UTM medium",
  utm_campaign: "UTM campaign",
  page: "Pages",
  entry_page: "Entry",
  exit_page: "Exit",
  country: "Countries",
  region: "Regions",
  city: "Cities",
  device: "Devices",
  browser: "Browsers",
  os: "OS",
};

/** 83 s → "1m 23s"; null → "—". */
export function duration(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

const percentText = (value: number | null) => (value === null ? "—" : `${value} %`);
const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

type Totals = Omit<Stats, "previous" | "change">;
type StatKey = "visitors" | "visits" | "pageviews" | "bounce_rate" | "visit_duration_seconds" | "revenue";
const STATS: { key: StatKey; label: string; lowerIsBetter?: boolean }[] = [
  { key: "visitors", label: "Unique visitors" },
  { key: "visits", label: "Total visits" },
  { key: "pageviews", label: "Pageviews" },
  { key: "bounce_rate", label: "Bounce rate", lowerIsBetter: true },
  { key: "visit_duration_seconds", label: "Visit duration" },
  { key: "revenue", label: "Revenue" },
];

function statText(totals: Totals, key: StatKey): string {
  if (key === "bounce_rate") return percentText(totals.bounce_rate);
  if (key === "visit_duration_seconds") return duration(totals.visit_duration_seconds);
  if (key === "revenue") {
    const parts = Object.entries(totals.revenue).sort(([, a], [, b]) => b - a);
    return parts.length === 0 ? "—" : parts.map(([currency, amount]) => formatMoney(amount, currency)).join(" · ");
  }
  return formatCount(totals[key]);
}

/** The change of one stat against the compared period: "▲ 12.5 %", green when it is good news. */
function Change(props: { change: number | null | undefined; previous: string; lowerIsBetter?: boolean; compare: string; now: string }) {
  const { change } = props;
  const good = change === null || change === undefined || change === 0 ? "" : change > 0 !== Boolean(props.lowerIsBetter) ? "up" : "down";
  const empty = (value: string) => value === "0" || value === "—";
  let text: string;
  if (change === null || change === undefined) {
    // From nothing there is no percentage: say what happened instead.
    text = empty(props.now) && empty(props.previous) ? "no change" : props.previous === "0" ? "new" : props.previous === "—" ? "no earlier data" : "—";
  } else text = change === 0 ? "no change" : `${change > 0 ? "▲" : "▼"} ${Math.abs(change).toFixed(1)} %`;
  return (
    <p class={`change ${good}`.trim()}>
      {text}{" "}
      <span class="meta">
        vs {props.compare.toLowerCase()} ({props.previous})
      </span>
    </p>
  );
}

function StatCards(props: { data: Dashboard; view: View }) {
  const { stats } = props.data;
  const previous = "previous" in stats ? stats.previous : undefined;
  const change = "change" in stats ? (stats.change as Record<string, number | null | Record<string, number | null>>) : undefined;
  return (
    <div class="grid spaced" data-stats>
      {STATS.map((stat) => {
        const now = statText(stats, stat.key);
        let delta: number | null | undefined;
        if (change) {
          if (stat.key === "revenue") {
            // The change of the largest currency, the one shown first.
            const [currency] = Object.entries(stats.revenue).sort(([, a], [, b]) => b - a)[0] ?? [];
            delta = currency ? ((change.revenue as Record<string, number | null>)[currency] ?? null) : null;
          } else delta = change[stat.key] as number | null;
        }
        return (
          <div class="card" data-stat={stat.key}>
            <h2>{stat.label}</h2>
            <div class="stat">{now}</div>
            {previous ? (
              <Change
                change={delta}
                previous={statText(previous, stat.key)}
                now={now}
                lowerIsBetter={stat.lowerIsBetter}
                compare={COMPARE_LABELS[props.view.compare]}
              />
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/** Links that switch one part of the view, the current one marked. */
function Tabs(props: { label: string; items: { href: string; label: string; current: boolean }[] }) {
  return (
    <nav class="actions tabs" aria-label={props.label}>
      {props.items.map((item) => (
        <a class={`pill${item.current ? " on" : ""}`} href={item.href} aria-current={item.current ? "page" : undefined}>
          {item.label}
        </a>
      ))}
    </nav>
  );
}

/** The period and comparison pickers: a GET form (a small script submits it on change), keeping the rest of the view. */
function Pickers(props: { base: string; view: View }) {
  const { view } = props;
  const keep: [string, string][] = [];
  if (view.metric !== "visitors") keep.push(["metric", view.metric]);
  if (view.filters) keep.push(["filters", view.filters]);
  for (const panel of Object.keys(PANELS) as Panel[]) if (view.tabs[panel] !== DEFAULT_TABS[panel]) keep.push([panel, view.tabs[panel]]);
  const custom = view.period === "custom";
  return (
    <form method="get" action={props.base} class="period" id="period-form">
      <div class="field">
        <label for="period">Period</label>
        <select id="period" name="period">
          {[...PERIOD_CHOICES, "custom" as const].map((name) => (
            <option value={name} selected={name === view.period}>
              {PERIOD_LABELS[name]}
            </option>
          ))}
        </select>
      </div>
      <div class="field" data-range hidden={!custom}>
        <label for="from">From</label>
        <input id="from" type="date" name="from" value={custom ? view.from : ""} />
      </div>
      <div class="field" data-range hidden={!custom}>
        <label for="to">To</label>
        <input id="to" type="date" name="to" value={custom ? view.to : ""} />
      </div>
      <div class="field">
        <label for="compare">Compare with</label>
        <select id="compare" name="compare">
          {COMPARES.map((compare) => (
            <option value={compare} selected={compare === view.compare}>
              {COMPARE_LABELS[compare]}
            </option>
          ))}
        </select>
      </div>
      {keep.map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class="secondary small">
        Show
      </button>
    </form>
  );
}

/** What the pickers' script does: a named period or a comparison applies as soon as it is chosen. */
export const PICKER_SCRIPT = `(() => { const f = document.getElementById("period-form"); if (!f) return;
f.elements.period.addEventListener("change", (e) => { const custom = e.target.value === "custom"; for (const field of f.querySelectorAll("[data-range]")) field.hidden = !custom;
  if (!custom) { f.elements.from.value = ""; f.elements.to.value = ""; f.submit(); } else f.elements.from.focus(); });
f.elements.compare.addEventListener("change", () => { if (f.elements.period.value !== "custom" || (f.elements.from.value && f.elements.to.value)) f.submit(); }); })();`;

function filterWords(filter: Filter): string {
  const op = filter.op === "==" ? "is" : filter.op === "!=" ? "is not" : "contains";
  return `${propertyLabel(filter.property)} ${op} ${filter.value}`;
}

/** The active filters as chips; each removes itself (a link to the view without it). */
function FilterChips(props: { base: string; view: View; filters: Filter[] }) {
  if (props.filters.length === 0) return null;
  return (
    <section class="actions spaced tight-top" aria-label="Filters" data-filters>
      <span class="meta">Filtered by</span>
      {props.filters.map((filter, i) => (
        <a
          class="pill on"
          data-filter={`${filter.property}${filter.op}${filter.value}`}
          href={hrefOf(props.base, props.view, { filters: filtersText(props.filters.filter((_, j) => j !== i)) })}
          aria-label={`Remove the filter: ${filterWords(filter)}`}
        >
          {filterWords(filter)} <span aria-hidden="true">✕</span>
        </a>
      ))}
      {props.filters.length > 1 ? (
        <a href={hrefOf(props.base, props.view, { filters: "" })} class="meta">
          Clear all
        </a>
      ) : null}
    </section>
  );
}

/** A breakdown as rows: each value links to the view filtered by it, with a bar for its share of the top row. */
function Rows(props: {
  base: string;
  view: View;
  filters: Filter[];
  property: Filter["property"];
  /** `label`: how the row reads, when not its value (a page goal: "Visit /pricing"). */
  items: { value: string; label?: string; visitors: number; second?: string; rate?: string | null }[];
  headings: [string, string?];
  rateHeading?: string;
}) {
  if (props.items.length === 0) return <p class="empty">Nothing in this period.</p>;
  const top = Math.max(1, ...props.items.map((item) => item.visitors));
  const code = props.property === "page" || props.property === "entry_page" || props.property === "exit_page";
  return (
    <table data-rows={props.property}>
      <thead>
        <tr>
          <th scope="col">{propertyLabel(props.property)}</th>
          <th scope="col" class="num">
            {props.headings[0]}
          </th>
          {props.headings[1] ? (
            <th scope="col" class="num">
              {props.headings[1]}
            </th>
          ) : null}
          {props.rateHeading ? (
            <th scope="col" class="num">
              {props.rateHeading}
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <tr data-value={item.value}>
            <td>
              <a
                href={hrefOf(props.base, props.view, { filters: withFilter(props.filters, props.property, item.value) })}
                title={`Filter by ${propertyLabel(props.property).toLowerCase()}: ${item.value}`}
              >
                {code ? <code>{item.value}</code> : (item.label ?? item.value)}
              </a>
              <ShareBar share={item.visitors / top} height={4} color="#7a9cf0" />
            </td>
            <td class="num">{formatCount(item.visitors)}</td>
            {props.headings[1] ? <td class="num">{item.second}</td> : null}
            {props.rateHeading ? <td class="num">{item.rate ?? "—"}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PanelCard(props: { base: string; view: View; data: Dashboard; panel: Panel }) {
  const { view, data, panel } = props;
  const property = view.tabs[panel];
  const goal = data.filters.some((filter) => filter.property === "goal" && filter.op === "==");
  const pages = panel === "pages";
  return (
    <article class="card" aria-labelledby={`panel-${panel}`} data-panel={panel}>
      <h2 id={`panel-${panel}`}>{PANEL_TITLES[panel]}</h2>
      <Tabs
        label={`${PANEL_TITLES[panel]}: show`}
        items={PANELS[panel].map((tab) => ({
          href: hrefOf(props.base, view, { tabs: { ...view.tabs, [panel]: tab } }),
          label: TAB_LABELS[tab] ?? tab,
          current: tab === property,
        }))}
      />
      <Rows
        base={props.base}
        view={view}
        filters={data.filters}
        property={property}
        items={data.panels[panel].map((item: BreakdownItem) => ({
          value: item.value,
          visitors: item.visitors,
          second: pages ? formatCount(item.pageviews) : undefined,
          rate: percentText(item.conversion_rate),
        }))}
        headings={pages ? ["Visitors", "Pageviews"] : ["Visitors"]}
        rateHeading={goal ? "Conversion" : undefined}
      />
    </article>
  );
}

function GoalsCard(props: { base: string; view: View; data: Dashboard }) {
  const goals = "goals" in props.data.stats ? props.data.stats.goals : [];
  return (
    <article class="card" aria-labelledby="panel-goals" data-panel="goals">
      <h2 id="panel-goals">Goal conversions</h2>
      {goals.length === 0 ? (
        <p class="empty">No goals yet: add one with POST /api/v1/analytics/sites/{props.data.site.id}/goals.</p>
      ) : (
        <Rows
          base={props.base}
          view={props.view}
          filters={props.data.filters}
          property="goal"
          items={goals.map((goal) => ({
            value: goal.value,
            label: goal.name,
            visitors: goal.uniques,
            second: formatCount(goal.total),
            rate: percentText(goal.conversion_rate),
          }))}
          headings={["Uniques", "Total"]}
          rateHeading="Conversion"
        />
      )}
    </article>
  );
}

function EventsCard(props: { base: string; view: View; data: Dashboard }) {
  return (
    <article class="card" aria-labelledby="panel-events" data-panel="events">
      <h2 id="panel-events">Events</h2>
      <Rows
        base={props.base}
        view={props.view}
        filters={props.data.filters}
        property="event"
        items={props.data.events.map((item) => ({ value: item.value, visitors: item.visitors, second: formatCount(item.events) }))}
        headings={["Visitors", "Events"]}
      />
    </article>
  );
}

function Funnel(props: { definition: FunnelDefinition; report: FunnelReport }) {
  const { definition, report } = props;
  const first = report.steps[0]?.visitors ?? 0;
  const revenue = Object.entries(report.revenue).map(([currency, amount]) => formatMoney(amount, currency));
  const id = `funnel-${definition.id}`;
  return (
    <section class="panel" aria-labelledby={id} data-funnel={String(definition.id)}>
      <h3 id={id}>
        {definition.name}{" "}
        <span class="meta">
          {first === 0 ? "nobody started it in this period" : `${percentText(report.conversion_rate)} converted`}
          {revenue.length > 0 ? ` · ${revenue.join(" · ")}` : ""}
        </span>
      </h3>
      {first === 0 ? (
        <p class="meta">{definition.steps.map((step) => step.value).join(" → ")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" class="num">
                Visitors
              </th>
              <th scope="col" class="num">
                Conversion
              </th>
              <th scope="col" class="num">
                Drop‑off
              </th>
            </tr>
          </thead>
          <tbody>
            {report.steps.map((step) => (
              <tr data-step={String(step.index)}>
                <td>
                  {step.index}. <code>{step.label}</code>
                  <ShareBar share={first > 0 ? step.visitors / first : 0} height={8} />
                </td>
                <td class="num">{formatCount(step.visitors)}</td>
                <td class="num">{percentText(step.conversion_rate)}</td>
                <td class="num">{percentText(step.dropoff_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The green dot and the count of visitors in the last five minutes. */
function Realtime(props: { visitors: number }) {
  return (
    <span data-realtime={String(props.visitors)}>
      <svg width="10" height="10" aria-hidden="true" focusable="false">
        <circle cx="5" cy="5" r="4" fill={props.visitors > 0 ? "#1c7c4d" : "#98a2b3"} />
      </svg>{" "}
      {plural(props.visitors, "current visitor")}
    </span>
  );
}

export type DashboardProps = {
  data: Dashboard;
  view: View;
  /** Where the page's own links go (/app/analytics/{id} or /share/{token}). */
  base: string;
  exportHref: string;
  /** Above the title (the app's way back to the sites). */
  crumbs?: Child;
  /** Beside the export link (the app's Share for admins). */
  actions?: Child;
  /** Messages (a bad period, a bad filter) shown above the numbers. */
  problems: string[];
};

export function DashboardBody(props: DashboardProps) {
  const { data, view, base } = props;
  const { range } = data;
  const compare = view.compare === "off" ? undefined : COMPARE_LABELS[view.compare];
  const series = data.series;
  const previous = "previous" in series ? series.previous.points : undefined;
  const problems = [...props.problems, ...(data.filterError ? [`The filters were not applied: ${data.filterError}`] : [])];
  return (
    <>
      <div class="bar compact">
        <div>
          {props.crumbs ? <p class="crumbs">{props.crumbs}</p> : null}
          <h1>{data.site.domain}</h1>
          <p class="lead flush">
            {range.from === range.to ? range.from : `${range.from} – ${range.to}`} (UTC) · <Realtime visitors={data.realtime.visitors} />
          </p>
        </div>
        <div class="actions">
          <a class="button secondary" href={props.exportHref} download="" data-export>
            Export CSV
          </a>
          {props.actions}
        </div>
      </div>
      <Pickers base={base} view={view} />
      {problems.map((problem) => (
        <div class="notice error" role="alert">
          {problem}
        </div>
      ))}
      <FilterChips base={base} view={view} filters={data.filters} />
      <StatCards data={data} view={view} />
      <section class="card spaced" aria-labelledby="chart-title" data-panel="chart">
        <h2 id="chart-title">{METRIC_LABELS[view.metric]}</h2>
        <Tabs
          label="Chart metric"
          items={METRICS.map((metric) => ({ href: hrefOf(base, view, { metric }), label: METRIC_LABELS[metric], current: metric === view.metric }))}
        />
        <MainChart id="main-chart" metric={view.metric} interval={data.interval} points={series.points} previous={previous} compareLabel={compare} />
      </section>
      <div class="grid spaced">
        <PanelCard base={base} view={view} data={data} panel="sources" />
        <PanelCard base={base} view={view} data={data} panel="pages" />
        <PanelCard base={base} view={view} data={data} panel="locations" />
        <PanelCard base={base} view={view} data={data} panel="devices" />
        <GoalsCard base={base} view={view} data={data} />
        <EventsCard base={base} view={view} data={data} />
      </div>
      <section class="card" aria-labelledby="funnels-title" data-panel="funnels">
        <h2 id="funnels-title">Funnels</h2>
        {data.funnels.map((funnel) => (
          <Funnel definition={funnel.definition} report={funnel.report} />
        ))}
      </section>
    </>
  );
}
