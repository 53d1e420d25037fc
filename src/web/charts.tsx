import { scaleLinear } from "d3-scale";
import { area, line } from "d3-shape";
import { formatCount, formatMinutes, formatMoney, minorDigits, words } from "../platform/format";

/**
 * Widgets drawn on the server: stats as big numbers with their unit, series as line charts with axes,
 * breakdowns as bars, lists as tables — inline SVG and HTML, no script. Money is never converted:
 * each currency is its own line or bar, labelled in its own units.
 */

type Money = Record<string, number>;
type Value = number | Money | null;
export type WidgetView = {
  key: string;
  title: string;
  kind: "stat" | "series" | "breakdown" | "list";
  unit: "count" | "money" | "percent" | "minutes";
  link?: string | null;
  data: Record<string, unknown>;
};

const isMoney = (value: unknown): value is Money => typeof value === "object" && value !== null;
const major = (amount: number, currency: string) => amount / 10 ** minorDigits(currency);

/** One value in the widget's unit: "1,534.50 USD", "71.4 %", "2 h 30 min", "1,204". */
export function formatValue(value: Value, unit: WidgetView["unit"]): string {
  if (value === null || value === undefined) return "—";
  if (unit === "money" && isMoney(value)) {
    const parts = Object.entries(value).sort(([, a], [, b]) => b - a);
    return parts.length === 0 ? "0" : parts.map(([currency, amount]) => formatMoney(amount, currency)).join(" · ");
  }
  if (unit === "percent") return `${value} %`;
  if (unit === "minutes") return formatMinutes(Number(value));
  return formatCount(Number(value));
}

/** The change against the previous period: "▲ 12.5 % vs the previous period", in points for a percentage. */
function Change(props: { widget: WidgetView }) {
  const { widget } = props;
  const value = widget.data.value as Value;
  const previous = widget.data.previous as Value | undefined;
  if (previous === null || previous === undefined || value === null) return null;
  let delta: number | null;
  let text: string;
  if (widget.unit === "percent") {
    delta = Number(value) - Number(previous);
    text = `${delta >= 0 ? "+" : ""}${delta.toFixed(1)} pts`;
  } else {
    // Money: the change of the largest currency, the one the card shows first.
    const [currency] = isMoney(value) ? (Object.entries(value).sort(([, a], [, b]) => b - a)[0] ?? []) : [];
    const now = isMoney(value) ? (currency ? value[currency]! : 0) : Number(value);
    const before = isMoney(previous) ? (currency ? (previous[currency] ?? 0) : 0) : Number(previous);
    delta = now - before;
    text = before === 0 ? (now === 0 ? "no change" : "new this period") : `${delta >= 0 ? "▲" : "▼"} ${Math.abs((delta / before) * 100).toFixed(1)} %`;
  }
  return (
    <p class={`change ${delta > 0 ? "up" : delta < 0 ? "down" : ""}`}>
      {text} <span class="meta">vs the previous period ({formatValue(previous, widget.unit)})</span>
    </p>
  );
}

function Stat(props: { widget: WidgetView }) {
  const value = props.widget.data.value as Value;
  if (props.widget.unit === "money" && isMoney(value)) {
    const parts = Object.entries(value).sort(([, a], [, b]) => b - a);
    if (parts.length === 0) return <div class="stat">0</div>;
    return (
      <div class="stat">
        {parts.map(([currency, amount]) => (
          <span class="line">
            {major(amount, currency).toLocaleString("en-US", { minimumFractionDigits: minorDigits(currency), maximumFractionDigits: minorDigits(currency) })}
            <small>{currency}</small>
          </span>
        ))}
      </div>
    );
  }
  if (props.widget.unit === "percent") {
    return (
      <div class="stat">
        {value === null ? (
          <span class="empty">no data yet</span>
        ) : (
          <>
            {String(value)}
            <small>%</small>
          </>
        )}
      </div>
    );
  }
  return <div class="stat">{formatValue(value, props.widget.unit)}</div>;
}

const W = 560;
const H = 190;
const M = { top: 8, right: 12, bottom: 24, left: 58 };

function LineChart(props: { widget: WidgetView }) {
  const { widget } = props;
  const points = (widget.data.points ?? []) as { date: string; value: Value }[];
  const money = widget.unit === "money";
  const currencies = money ? [...new Set(points.flatMap((point) => Object.keys((point.value as Money) ?? {})))].slice(0, 3) : [""];
  const seriesOf = (currency: string) => points.map((point) => (money ? major((point.value as Money)?.[currency] ?? 0, currency) : Number(point.value ?? 0)));
  const all = currencies.map(seriesOf);
  const max = Math.max(1, ...all.flat());
  const x = scaleLinear([0, Math.max(1, points.length - 1)], [M.left, W - M.right]);
  const y = scaleLinear([0, max], [H - M.bottom, M.top]).nice();
  // Counts are whole: their axis never shows 0.5.
  const ticks = y.ticks(4).filter((tick) => money || widget.unit === "percent" || Number.isInteger(tick));
  const every = Math.max(1, Math.ceil(points.length / 6));
  const shortDate = (date: string) => (widget.data.interval === "month" ? date.slice(0, 7) : date.slice(5));
  const total = money
    ? currencies
        .map((currency) =>
          formatMoney(
            points.reduce((sum, point) => sum + ((point.value as Money)?.[currency] ?? 0), 0),
            currency,
          ),
        )
        .join(", ")
    : formatValue(
        points.reduce((sum, point) => sum + Number(point.value ?? 0), 0),
        widget.unit,
      );
  const titleId = `${widget.key}-chart-title`;
  return (
    <>
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={titleId}>
        <title id={titleId}>{`${widget.title}: ${points.length} ${widget.data.interval}s, ${total} in total`}</title>
        {ticks.map((tick) => (
          <g>
            <line class="grid-line" x1={M.left} x2={W - M.right} y1={y(tick)} y2={y(tick)} />
            <text x={M.left - 6} y={y(tick) + 4} text-anchor="end">
              {tick.toLocaleString("en-US", { notation: tick >= 10_000 ? "compact" : "standard" })}
            </text>
          </g>
        ))}
        {points.map((point, i) =>
          i % every === 0 ? (
            <text x={x(i)} y={H - 6} text-anchor="middle">
              {shortDate(point.date)}
            </text>
          ) : null,
        )}
        {all.map((values, s) => (
          <g class={`series-${s}`}>
            <path
              class="area"
              d={
                area<number>()
                  .x((_, i) => x(i))
                  .y0(y(0))
                  .y1((v) => y(v))(values) ?? ""
              }
            />
            <path
              class="line"
              d={
                line<number>()
                  .x((_, i) => x(i))
                  .y((v) => y(v))(values) ?? ""
              }
            />
          </g>
        ))}
      </svg>
      <div class="legend">
        {money
          ? currencies.map((currency, s) => (
              <span>
                <i class={`s${s}`} />
                {currency}
              </span>
            ))
          : null}
        <span>Total: {total}</span>
      </div>
    </>
  );
}

function Bars(props: { widget: WidgetView }) {
  const { widget } = props;
  const items = (widget.data.items ?? []) as { label: string; value: Value }[];
  if (items.length === 0) return <p class="empty">Nothing in this period.</p>;
  // Money: one bar per currency, each scaled within its currency.
  const rows = items.slice(0, 8).flatMap((item) =>
    widget.unit === "money" && isMoney(item.value)
      ? Object.entries(item.value).map(([currency, amount], k) => ({
          label: k === 0 ? words(item.label) : "",
          size: amount,
          group: currency,
          text: formatMoney(amount, currency),
        }))
      : [{ label: words(item.label), size: Number(item.value ?? 0), group: "", text: formatValue(item.value, widget.unit) }],
  );
  const maxBy = new Map<string, number>();
  for (const row of rows) maxBy.set(row.group, Math.max(maxBy.get(row.group) ?? 0, row.size));
  // Drawn for a one-column card: its text stays readable at the card's width.
  const width = 340;
  const rowHeight = 22;
  const height = rows.length * rowHeight + 4;
  const left = 104;
  const right = 96;
  const titleId = `${widget.key}-chart-title`;
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
      <title id={titleId}>{`${widget.title}: ${items.map((item) => `${words(item.label)} ${formatValue(item.value, widget.unit)}`).join(", ")}`}</title>
      {rows.map((row, i) => {
        const bar = Math.max(2, ((width - left - right) * row.size) / Math.max(1, maxBy.get(row.group) ?? 1));
        return (
          <g>
            <text x={left - 6} y={i * rowHeight + 15} text-anchor="end">
              {row.label.length > 16 ? `${row.label.slice(0, 15)}…` : row.label}
            </text>
            <rect class={`bar${row.label ? "" : " alt"}`} x={left} y={i * rowHeight + 5} width={bar} height={rowHeight - 9} rx="3" />
            <text x={left + bar + 5} y={i * rowHeight + 15}>
              {row.text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function ListTable(props: { widget: WidgetView }) {
  const items = (props.widget.data.items ?? []) as Record<string, unknown>[];
  if (items.length === 0) return <p class="empty">Nothing yet.</p>;
  const extra = Object.keys(items[0]!).filter((key) => !["id", "label", "value"].includes(key));
  const hasValue = items.some((item) => item.value !== undefined);
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          {extra.map((key) => (
            <th>{words(key)}</th>
          ))}
          {hasValue && <th class="num">{props.widget.unit === "percent" ? "Done" : "Value"}</th>}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr>
            <td>{String(item.label)}</td>
            {extra.map((key) => (
              <td>{item[key] === null || item[key] === undefined ? "—" : String(item[key])}</td>
            ))}
            {hasValue && <td class="num">{formatValue(item.value as Value, props.widget.unit)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A widget as a card: its title, then the drawing its kind calls for. */
export function WidgetCard(props: { widget: WidgetView }) {
  const { widget } = props;
  const wide = widget.kind === "series" || (widget.kind === "list" && widget.unit !== "percent");
  return (
    <section class={`card${wide ? " wide" : ""}`} aria-labelledby={`${widget.key}-title`} data-widget={widget.key}>
      <h2 id={`${widget.key}-title`}>{widget.link ? <a href={widget.link}>{widget.title}</a> : widget.title}</h2>
      {widget.kind === "stat" ? (
        <>
          <Stat widget={widget} />
          <Change widget={widget} />
        </>
      ) : widget.kind === "series" ? (
        <LineChart widget={widget} />
      ) : widget.kind === "breakdown" ? (
        <Bars widget={widget} />
      ) : (
        <ListTable widget={widget} />
      )}
    </section>
  );
}
