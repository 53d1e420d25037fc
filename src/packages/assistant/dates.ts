import * as chrono from "chrono-node";

/**
 * Dates in a message, as a range of UTC days: periods people name ("this quarter", "last 30 days",
 * "year to date") from a table, everything else ("since 3 March", "Friday", "2026-12-01", "5 Dec to
 * 10 Dec") with chrono-node. `direction` decides what a bare "Friday" or "March" means: the next one
 * for due dates and actions, the last one for metrics and history.
 */

export type DayRange = { from: string; to: string; label: string; start: number; end: number };
export type Direction = "past" | "future";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

type Span = { from: number; to: number };

function startOfWeek(ms: number): number {
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday = 0
  return ms - weekday * DAY;
}
function monthStart(year: number, month: number): number {
  return Date.UTC(year, month, 1);
}
function quarterOf(ms: number): [number, number] {
  const date = new Date(ms);
  return [date.getUTCFullYear(), Math.floor(date.getUTCMonth() / 3)];
}

/** Periods by name, relative to today (UTC midnight ms). */
function named(unit: string, which: "this" | "last" | "next", today: number, direction: Direction): Span {
  const date = new Date(today);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
  // The whole calendar period, either way: history has nothing after today, and what is due may be later this month.
  void direction;
  const cap = (span: Span) => span;
  switch (unit) {
    case "week": {
      const start = startOfWeek(today) + (which === "last" ? -7 : which === "next" ? 7 : 0) * DAY;
      return cap({ from: start, to: start + 6 * DAY });
    }
    case "month": {
      const offset = which === "last" ? -1 : which === "next" ? 1 : 0;
      return cap({ from: monthStart(year, month + offset), to: monthStart(year, month + offset + 1) - DAY });
    }
    case "quarter": {
      const [y, q] = quarterOf(today);
      const index = q + (which === "last" ? -1 : which === "next" ? 1 : 0);
      return cap({ from: Date.UTC(y, index * 3, 1), to: Date.UTC(y, index * 3 + 3, 1) - DAY });
    }
    default: {
      const y = year + (which === "last" ? -1 : which === "next" ? 1 : 0);
      return cap({ from: Date.UTC(y, 0, 1), to: Date.UTC(y + 1, 0, 1) - DAY });
    }
  }
}

/** A month by name (and maybe year): the last one for history, the next one for what is due. */
function monthSpan(m: RegExpExecArray, today: number, direction: Direction): Span {
  const month = MONTHS.findIndex((name) => name.startsWith(m[1]!));
  const now = new Date(today);
  let year = m[2] ? Number(m[2]) : now.getUTCFullYear();
  if (!m[2] && direction === "past" && month > now.getUTCMonth()) year -= 1;
  if (!m[2] && direction === "future" && month < now.getUTCMonth()) year += 1;
  return { from: Date.UTC(year, month, 1), to: Date.UTC(year, month + 1, 1) - DAY };
}

const PATTERNS: { pattern: RegExp; span(match: RegExpExecArray, today: number, direction: Direction): Span }[] = [
  { pattern: /\b(?:so far )?(?:this year so far|year to date|ytd|so far this year)\b/, span: (_m, today) => named("year", "this", today, "past") },
  { pattern: /\b(?:month to date|mtd|so far this month|this month so far)\b/, span: (_m, today) => named("month", "this", today, "past") },
  { pattern: /\b(?:quarter to date|qtd)\b/, span: (_m, today) => named("quarter", "this", today, "past") },
  {
    pattern:
      /\b(?:in the |over the |during the |for the )?(?:last|past|previous) (\d{1,3}|two|three|four|five|six|seven|ten|twelve|thirty|ninety) (day|week|month)s?\b/,
    span: (m, today) => {
      const words: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10, twelve: 12, thirty: 30, ninety: 90 };
      const n = Number(m[1]) || words[m[1]!]!;
      if (m[2] === "month") {
        const date = new Date(today);
        return { from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - n, date.getUTCDate() + 1), to: today };
      }
      return { from: today - (n * (m[2] === "week" ? 7 : 1) - 1) * DAY, to: today };
    },
  },
  {
    // "in the next 7 days", "next two weeks": from today on.
    pattern: /\b(?:in the |within the |over the )?(?:next|coming|upcoming) (\d{1,3}|two|three|four|five|six|seven|ten|fourteen|thirty) (day|week)s?\b/,
    span: (m, today) => {
      const words: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10, fourteen: 14, thirty: 30 };
      const n = Number(m[1]) || words[m[1]!]!;
      return { from: today, to: today + n * (m[2] === "week" ? 7 : 1) * DAY };
    },
  },
  {
    pattern: /\b(this|current|last|previous|past|next|coming) (week|month|quarter|year)\b/,
    span: (m, today, direction) =>
      named(
        m[2]!,
        m[1] === "last" || m[1] === "previous" || m[1] === "past" ? "last" : m[1] === "next" || m[1] === "coming" ? "next" : "this",
        today,
        direction,
      ),
  },
  { pattern: /\b(?:the )?(?:past|last) (week|month|quarter|year)\b/, span: (m, today, direction) => named(m[1]!, "last", today, direction) },
  {
    pattern: /\bq([1-4])(?:[ -]?(\d{4}))?\b/,
    span: (m, today, direction) => {
      const now = new Date(today);
      const quarter = Number(m[1]) - 1;
      let year = m[2] ? Number(m[2]) : now.getUTCFullYear();
      const current = Math.floor(now.getUTCMonth() / 3);
      if (!m[2] && direction === "past" && quarter > current) year -= 1;
      if (!m[2] && direction === "future" && quarter < current) year += 1;
      return { from: Date.UTC(year, quarter * 3, 1), to: Math.min(Date.UTC(year, quarter * 3 + 3, 1) - DAY, direction === "past" ? today : Infinity) };
    },
  },
  {
    // "between the 3rd and the 10th": days of this month (of the last one, if they are still to come).
    pattern: /\bbetween (?:the )?(\d{1,2})(?:st|nd|rd|th) and (?:the )?(\d{1,2})(?:st|nd|rd|th)\b/,
    span: (m, today, direction) => {
      const month = monthFor(Number(m[1]), today, direction);
      return { from: month + (Number(m[1]) - 1) * DAY, to: month + (Number(m[2]) - 1) * DAY };
    },
  },
  {
    pattern: /\bsince (?:the )?(\d{1,2})(?:st|nd|rd|th)\b/,
    span: (m, today) => ({ from: monthFor(Number(m[1]), today, "past") + (Number(m[1]) - 1) * DAY, to: today }),
  },
  {
    // "due the 30th", "start date the 1st": that day of this month, or of the next (past: the last) when it has gone by.
    // (Also where the text begins with it: "…due date to the 8th" once "the" was read with "to".)
    pattern: /(?:\bthe |^)(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/,
    span: (m, today, direction) => {
      const day = monthFor(Number(m[1]), today, direction) + (Number(m[1]) - 1) * DAY;
      return { from: day, to: day };
    },
  },
  {
    // A month named alone ("and november", "september hours"); "may" only with a year (it is a verb too).
    // ("20 nov" is a day: chrono reads it.)
    pattern: new RegExp(
      `(?<!\\b\\d{1,2}(?:st|nd|rd|th)?\\s)\\b(${MONTHS.filter((m) => m !== "may").join("|")}|${MONTHS.filter((m) => m !== "may")
        .map((m) => m.slice(0, 3))
        .join("|")}|may(?= \\d{4}))(?: (\\d{4}))?\\b(?! \\d)`,
    ),
    span: monthSpan,
  },
  // "in 2025", "during 2024": that calendar year.
  {
    pattern: /\b(?:in|during|for|of|since|before|after) (20\d{2}|19\d{2})\b/,
    span: (m) => ({ from: Date.UTC(Number(m[1]), 0, 1), to: Date.UTC(Number(m[1]) + 1, 0, 1) - DAY }),
  },
  { pattern: /\btoday\b/, span: (_m, today) => ({ from: today, to: today }) },
  { pattern: /\byesterday\b/, span: (_m, today) => ({ from: today - DAY, to: today - DAY }) },
  { pattern: /\btomorrow\b/, span: (_m, today) => ({ from: today + DAY, to: today + DAY }) },
  { pattern: /\bovermorrow|day after tomorrow\b/, span: (_m, today) => ({ from: today + 2 * DAY, to: today + 2 * DAY }) },
  {
    pattern: new RegExp(`\\b(?:in|for|during|of) (${MONTHS.join("|")}|${MONTHS.map((m) => m.slice(0, 3)).join("|")})(?: (\\d{4}))?\\b`),
    span: monthSpan,
  },
];

/** The first day of the month in which day-of-month `day` is meant: this one, or the next/last when it has passed/is to come. */
function monthFor(day: number, today: number, direction: Direction): number {
  const date = new Date(today);
  const [year, month, current] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  if (direction === "future" && day < current) return Date.UTC(year, month + 1, 1);
  if (direction === "past" && day > current) return Date.UTC(year, month - 1, 1);
  return Date.UTC(year, month, 1);
}

/**
 * A chrono result's day. chrono picks the nearest year for "3 March"; history means the last one, so a
 * past-facing date without a year that lands after today moves back a year.
 */
function dayOf(component: chrono.ParsedComponents, today: number, direction: Direction): number {
  let ms = Date.parse(`${iso(component.date().getTime())}T00:00:00Z`);
  // ("did she log anything on friday": a weekday looks back a week, not a year.)
  if (direction === "past" && ms > today && component.isCertain("weekday") && !component.isCertain("day")) {
    while (ms > today) ms -= 7 * DAY;
    return ms;
  }
  if (direction === "past" && ms > today && !component.isCertain("year")) {
    const date = new Date(ms);
    ms = Date.UTC(date.getUTCFullYear() - 1, date.getUTCMonth(), date.getUTCDate());
  }
  // ("tasks due nov 18" on the 18th: today is still to come — chrono, reading from this afternoon, moved it a year on.)
  if (direction === "future" && !component.isCertain("year")) {
    const date = new Date(ms);
    const yearBefore = Date.UTC(date.getUTCFullYear() - 1, date.getUTCMonth(), date.getUTCDate());
    if (yearBefore >= today) ms = yearBefore;
  }
  return ms;
}

/** The first date range the text names, with where it was found; null if none. */
export function findRange(text: string, now: number, direction: Direction): DayRange | null {
  const lower = text.toLowerCase();
  const today = Date.parse(`${iso(now)}T00:00:00Z`);
  let best: (Span & { start: number; end: number }) | null = null;
  for (const { pattern, span } of PATTERNS) {
    const match = pattern.exec(lower);
    if (match && (!best || match.index < best.start)) best = { ...span(match, today, direction), start: match.index, end: match.index + match[0].length };
  }
  // "since 3 March": from that day until today.
  // ("from last week" is that week, not since it.)
  // (Each "since"/"from" in turn: in "payments from Wonka Labs since september" the first is a name's.)
  for (const since of lower.matchAll(/\b(?:since|from) (?!(?:last|this|next|past|previous|the last|the past) )/g)) {
    if (/ (?:to|until|till) /.test(lower.slice(since.index))) break;
    const after = lower.slice(since.index + since[0].length);
    // ("invoices from october" is that month; "from october on" is since it.)
    const bareMonth = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b\.?(?: \d{4})?(?![ ]*(?:\d|on\b|onwards?\b|till\b|until\b|to date\b))/;
    if (since[0].startsWith("from") && bareMonth.test(after)) continue;
    // ("since jan", "since feb": a month's short name alone, which chrono leaves unread — from its first day.)
    const short = /^(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?(?![a-z\d ]*\d)\b/.exec(after);
    if (short && (!best || since.index <= best.start + 6)) {
      best = { from: monthSpan(short, today, "past").from, to: today, start: since.index, end: since.index + since[0].length + short[0].length };
      break;
    }
    const parsed = chrono.parse(after, { instant: new Date(now), timezone: "UTC" }, { forwardDate: false })[0];
    if (parsed && parsed.index === 0 && (!best || since.index <= best.start + 6)) {
      best = { from: dayOf(parsed.start, today, "past"), to: today, start: since.index, end: since.index + 6 + parsed.text.length };
      break;
    }
  }
  // "between march and may", "from march to may": the first one's start to the last one's end.
  const span =
    /\b(?:between|from) ((?:(?!\b(?:and|to|through|until)\b).)+?) (?:and|to|through|thru|until|till) (.+?)(?:$|[,?.]| (?:that|which|who|for|with|over|under)\b)/.exec(
      lower,
    );
  if (span && (!best || span.index <= best.start)) {
    // ("… to (the) end of next week": that range runs to its end anyway.)
    const last = findRange(span[2]!.replace(/^(?:the\s+)?end\s+of\s+/, ""), now, direction);
    // ("between jan and june 2024": the year said once is both ends'.)
    const year = /\b(\d{4})\s*$/.exec(span[2]!.trim())?.[1];
    const first = findRange(year && !/\d{4}/.test(span[1]!) ? `${span[1]} ${year}` : span[1]!, now, direction);
    // A bare month at the end ("… and may") runs to its last day.
    const monthEnd = (range: DayRange, words: string) => {
      if (range.from !== range.to || !/^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$/.test(words.trim())) return range.to;
      const day = new Date(`${range.from}T00:00:00Z`);
      return iso(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0));
    };
    if (first && last && first.start === 0 && last.start === 0 && last.to >= first.from) {
      const to = monthEnd(last, span[2]!);
      return { from: first.from, to, label: `${first.from} to ${to}`, start: span.index, end: span.index + span[0].length };
    }
  }
  // "h1", "the second half of last year": six months.
  const half = /\b(?:(h1|first half)|(h2|second half))(?: of (this|last|next) year| (?:of )?(\d{4}))?\b/.exec(lower);
  if (half && (!best || half.index <= best.start)) {
    const year = new Date(today).getUTCFullYear() + (half[3] === "last" ? -1 : half[3] === "next" ? 1 : 0);
    const y = half[4] ? Number(half[4]) : year;
    const [from, to] = half[1] ? [Date.UTC(y, 0, 1), Date.UTC(y, 5, 30)] : [Date.UTC(y, 6, 1), Date.UTC(y, 11, 31)];
    best = { from, to, start: half.index, end: half.index + half[0].length };
  }
  // "between 1 Oct and 15 Oct": both ends with chrono.
  const between = /\bbetween (.+?) and (.+?)(?:$|[,?.])/.exec(lower);
  if (!best && between) {
    const options = { instant: new Date(now), timezone: "UTC" };
    const first = chrono.parse(between[1]!, options, { forwardDate: direction === "future" })[0];
    const last = chrono.parse(between[2]!, options, { forwardDate: direction === "future" })[0];
    if (first && last)
      best = {
        from: dayOf(first.start, today, direction),
        to: dayOf(last.start, today, direction),
        start: between.index,
        end: between.index + between[0].length,
      };
  }
  if (!best) {
    const parsed = chrono.parse(lower, { instant: new Date(now), timezone: "UTC" }, { forwardDate: direction === "future" });
    const first = parsed.find((result) => !/^\d{1,3}$/.test(result.text.trim()));
    if (first) {
      const from = dayOf(first.start, today, direction);
      const to = first.end ? dayOf(first.end, today, direction) : from;
      best = { from, to, start: first.index, end: first.index + first.text.length };
    }
  }
  if (!best) return null;
  const label = best.from === best.to ? iso(best.from) : `${iso(best.from)} to ${iso(best.to)}`;
  return { from: iso(best.from), to: iso(Math.max(best.from, best.to)), label, start: best.start, end: best.end };
}

/** The named dashboard period a range is, if it is one (so widgets use their own bucketing). */
export function namedPeriod(range: { from: string; to: string }, now: number): "7d" | "30d" | "90d" | "12mo" | "mtd" | "ytd" | null {
  const today = Date.parse(`${iso(now)}T00:00:00Z`);
  if (range.to !== iso(today)) return null;
  const date = new Date(today);
  const candidates = {
    "7d": iso(today - 6 * DAY),
    "30d": iso(today - 29 * DAY),
    "90d": iso(today - 89 * DAY),
    "12mo": iso(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 11, 1)),
    mtd: iso(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)),
    ytd: iso(Date.UTC(date.getUTCFullYear(), 0, 1)),
  } as const;
  for (const [name, from] of Object.entries(candidates)) if (from === range.from) return name as keyof typeof candidates;
  return null;
}

export const todayIso = (now: number) => iso(now);
export const shiftDays = (day: string, days: number) => iso(Date.parse(`${day}T00:00:00Z`) + days * DAY);
