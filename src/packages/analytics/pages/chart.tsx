import { scaleLinear } from "d3-scale";
import { formatCount, formatMoney, minorDigits } from "../../../platform/format";
import type { Metric, SeriesInterval } from "../stats";

/**
 * The dashboard's drawings, inline SVG and no script. The main chart is laid out in percentages across and
 * pixels down (no viewBox), so it fills its card at any width while its labels keep their size: a phone
 * gets the same readable 11 px text as a wide screen. Colours are presentation attributes (the page's CSP
 * allows no inline style), the same blue and orange as the app's other charts. Each interval is a column
 * whose <title> is the hover value; the same numbers are in a table under the chart for keyboards and
 * screen readers.
 */

type Money = Record<string, number>;
type Point = { date: string; value: number | Money };

const BLUE = "#2357d9";
const ORANGE = "#c4320a";
const GREEN = "#1c7c4d";
const MUTED = "#5b6878";
const LINE = "#e3e8ef";
const COLORS = [BLUE, GREEN, ORANGE];

const HEIGHT = 230;
const TOP = 20;
const BOTTOM = 196;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** An interval's short label under the chart: "10:00", "Jun 10", "Jun '26". */
export function shortLabel(date: string, interval: SeriesInterval): string {
  if (interval === "hour") return date.slice(11, 16);
  const month = MONTHS[Number(date.slice(5, 7)) - 1] ?? "";
  return interval === "month" ? `${month} '${date.slice(2, 4)}` : `${month} ${Number(date.slice(8, 10))}`;
}

/** An interval in full, for its hover value: "Jun 10, 2026", "Jun 10, 2026 10:00 UTC", "Jun 2026". */
export function longLabel(date: string, interval: SeriesInterval): string {
  const month = MONTHS[Number(date.slice(5, 7)) - 1] ?? "";
  if (interval === "month") return `${month} ${date.slice(0, 4)}`;
  const base = `${month} ${Number(date.slice(8, 10))}, ${date.slice(0, 4)}`;
  return interval === "hour" ? `${base} ${date.slice(11, 16)} UTC` : base;
}

const major = (amount: number, currency: string) => amount / 10 ** minorDigits(currency);
const pct = (i: number, n: number) => (n <= 1 ? 50 : 2 + (i * 96) / (n - 1));
const at = (value: number) => `${value.toFixed(3)}%`;

export const METRIC_LABELS: Record<Metric, string> = { visitors: "Visitors", pageviews: "Pageviews", events: "Events", revenue: "Revenue" };

function valueText(value: number | Money | undefined, metric: Metric): string {
  if (value === undefined) return "—";
  if (typeof value === "number") return `${formatCount(value)} ${metric === "visitors" && value === 1 ? "visitor" : metric}`;
  const parts = Object.entries(value).map(([currency, amount]) => formatMoney(amount, currency));
  return parts.length === 0 ? "no revenue" : parts.join(" · ");
}

/** One series as line segments between its points (percent across, pixels down). */
function Segments(props: { values: number[]; y: (value: number) => number; color: string; dashed?: boolean; dots: boolean }) {
  const n = props.values.length;
  return (
    <g>
      {props.values.slice(1).map((value, i) => (
        <line
          x1={at(pct(i, n))}
          y1={props.y(props.values[i]!)}
          x2={at(pct(i + 1, n))}
          y2={props.y(value)}
          stroke={props.color}
          stroke-width={props.dashed ? 1.5 : 2.5}
          stroke-dasharray={props.dashed ? "5 4" : undefined}
          stroke-linecap="round"
        />
      ))}
      {props.dots && !props.dashed
        ? props.values.map((value, i) => <circle cx={at(pct(i, n))} cy={props.y(value)} r={n === 1 ? 4 : 3} fill={props.color} />)
        : null}
    </g>
  );
}

/** The period's metric per interval, with the compared period's as a dashed line (counts only). */
export function MainChart(props: { id: string; metric: Metric; interval: SeriesInterval; points: Point[]; previous?: Point[]; compareLabel?: string }) {
  const { metric, interval, points } = props;
  const n = points.length;
  const money = metric === "revenue";
  const currencies = money
    ? [...new Set(points.flatMap((point) => Object.keys(point.value as Money)))]
        .map((currency) => ({ currency, total: points.reduce((sum, point) => sum + ((point.value as Money)[currency] ?? 0), 0) }))
        .sort((a, b) => b.total - a.total)
        .slice(0, 3)
        .map(({ currency }) => currency)
    : [];
  const lines: { label: string; values: number[]; color: string }[] = money
    ? currencies.map((currency, s) => ({
        label: currency,
        values: points.map((point) => major((point.value as Money)[currency] ?? 0, currency)),
        color: COLORS[s]!,
      }))
    : [{ label: "This period", values: points.map((point) => Number(point.value)), color: BLUE }];
  const previous = !money && props.previous ? props.previous.map((point) => Number(point.value)) : null;
  const max = Math.max(1, ...lines.flatMap((line) => line.values), ...(previous ?? []));
  const y = scaleLinear([0, max], [BOTTOM, TOP]).nice();
  const ticks = y.ticks(4).filter((tick) => money || Number.isInteger(tick));
  const every = Math.max(1, Math.ceil(n / 6));
  const titleId = `${props.id}-title`;
  const total = money
    ? currencies
        .map((currency) =>
          formatMoney(
            points.reduce((sum, point) => sum + ((point.value as Money)[currency] ?? 0), 0),
            currency,
          ),
        )
        .join(", ") || "no revenue"
    : formatCount(lines[0]!.values.reduce((sum, value) => sum + value, 0));
  const step = n <= 1 ? 96 : 96 / (n - 1);
  return (
    <>
      <svg width="100%" height={HEIGHT} role="img" aria-labelledby={titleId} data-chart={metric}>
        <title id={titleId}>{`${METRIC_LABELS[metric]} per ${interval}: ${total} in total`}</title>
        {ticks.map((tick) => (
          <g>
            <line x1="0" x2="100%" y1={y(tick)} y2={y(tick)} stroke={LINE} />
            <text x="0" y={y(tick) - 4} font-size="11" fill={MUTED}>
              {tick.toLocaleString("en-US", { notation: tick >= 10_000 ? "compact" : "standard" })}
            </text>
          </g>
        ))}
        {points.map((point, i) => {
          if (i % every !== 0) return null;
          const x = pct(i, n);
          // Near an edge the label hangs inward, so it is never cut off.
          const anchor = n > 1 && x < 8 ? "start" : n > 1 && x > 92 ? "end" : "middle";
          return (
            <text x={at(x)} y={HEIGHT - 14} font-size="11" fill={MUTED} text-anchor={anchor}>
              {shortLabel(point.date, interval)}
            </text>
          );
        })}
        {previous ? <Segments values={previous} y={y} color={ORANGE} dashed dots={false} /> : null}
        {lines.map((line) => (
          <Segments values={line.values} y={y} color={line.color} dots={n <= 62} />
        ))}
        {points.map((point, i) => {
          const before = props.previous?.[i];
          const text = `${longLabel(point.date, interval)}: ${valueText(point.value, metric)}${
            before && !money ? ` (${props.compareLabel ?? "before"}: ${valueText(before.value, metric)}, ${longLabel(before.date, interval)})` : ""
          }`;
          return (
            <rect x={at(Math.max(0, pct(i, n) - step / 2))} y="0" width={at(Math.min(step, 100))} height={BOTTOM} fill="transparent" data-point={point.date}>
              <title>{text}</title>
            </rect>
          );
        })}
      </svg>
      <div class="legend">
        {lines.map((line, s) => (
          <span>
            <i class={`s${money ? s : 0}`} />
            {line.label}
          </span>
        ))}
        {previous ? (
          <span>
            <i class="s1" />
            {props.compareLabel}
          </span>
        ) : null}
        <span>Total: {total}</span>
      </div>
      <details class="tight-top">
        <summary>The numbers</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{interval === "hour" ? "Hour" : interval === "month" ? "Month" : "Day"}</th>
                <th scope="col" class="num">
                  {METRIC_LABELS[metric]}
                </th>
                {previous ? (
                  <th scope="col" class="num">
                    {props.compareLabel}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {points.map((point, i) => (
                <tr>
                  <td>{longLabel(point.date, interval)}</td>
                  <td class="num">{typeof point.value === "number" ? formatCount(point.value) : valueText(point.value, metric)}</td>
                  {previous ? <td class="num">{formatCount(previous[i] ?? 0)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

/** A thin bar for a share of a whole (a breakdown row, a funnel step): decorative, the number is beside it. */
export function ShareBar(props: { share: number; height?: number; color?: string }) {
  const height = props.height ?? 6;
  const share = Math.max(0, Math.min(1, props.share));
  return (
    <svg width="100%" height={height} aria-hidden="true" focusable="false" class="share-bar">
      <rect x="0" y="0" width="100%" height={height} rx={height / 2} fill="#eef2f6" />
      {share > 0 ? <rect x="0" y="0" width={at(Math.max(share * 100, 1))} height={height} rx={height / 2} fill={props.color ?? BLUE} /> : null}
    </svg>
  );
}
