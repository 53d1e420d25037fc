/**
 * Every figure the analytics API must report for the generated traffic, computed from the hits alone and the
 * specification (contract §10, decisions.md). Never from the implementation.
 *
 * The model, in one paragraph: each accepted non-bot hit becomes an event of a visitor (browser: the day's IP + user
 * agent; server: its `visitor` id across days). A visitor's events are ordered by (time, load, seq), after putting
 * each page load's events back in seq order; a visit ends after 30 minutes without events. Visits carry entry/exit
 * page, referrer, source, UTM and channel (from their first event); events carry name, path, props, revenue and the
 * request's device, browser, OS and location. A report selects events with its filters and counts them.
 *
 * Assumptions beyond the spec are marked ASSUMPTION; where a rule is missing the data avoids the case, and the
 * guards below (which throw) prove it does.
 */
import { BOT_UA, CHECKOUT_FUNNEL, CUSTOM_FUNNEL, DAY, DOMAIN, GOALS, type Hit, PREVIOUS_DAY, type Revenue, UA } from "./traffic";

// ---------------------------------------------------------------------------------------------------------------
// Facts the spec fixes

/** decisions "Events carry": ua-parser-js 1.x names; device desktop|mobile|tablet (no ua-parser device type = desktop). */
const UA_FACTS: Record<string, { browser: string; os: string; device: string }> = {
  [UA.chromeWindows]: { browser: "Chrome", os: "Windows", device: "desktop" },
  [UA.edgeWindows]: { browser: "Edge", os: "Windows", device: "desktop" },
  [UA.firefoxLinux]: { browser: "Firefox", os: "Linux", device: "desktop" },
  [UA.safariMac]: { browser: "Safari", os: "Mac OS", device: "desktop" },
  [UA.chromeMac]: { browser: "Chrome", os: "Mac OS", device: "desktop" },
  [UA.iphone]: { browser: "Mobile Safari", os: "iOS", device: "mobile" },
  [UA.androidChrome]: { browser: "Chrome", os: "Android", device: "mobile" },
  [UA.ipad]: { browser: "Mobile Safari", os: "iOS", device: "tablet" },
};
/** §10.2: bot user agents are accepted and dropped. */
const BOTS = new Set<string>(Object.values(BOT_UA));

/**
 * The referrer list's entries our data uses (decisions "source" and "channel"; host without "www.").
 * mail.google.com: the spec gives its group (email) but not its source name, so our visits from it always carry a
 * utm_source (source = utm_source first); a guard checks that.
 */
const REFERRER_LIST: Record<string, { name: string | null; group: "search" | "social" | "email" }> = {
  "google.com": { name: "Google", group: "search" },
  "bing.com": { name: "Bing", group: "search" },
  "duckduckgo.com": { name: "DuckDuckGo", group: "search" },
  "t.co": { name: "Twitter", group: "social" },
  "facebook.com": { name: "Facebook", group: "social" },
  "linkedin.com": { name: "LinkedIn", group: "social" },
  "reddit.com": { name: "Reddit", group: "social" },
  "mail.google.com": { name: null, group: "email" },
};
const SEARCH_ENGINE_NAMES = ["google", "bing", "duckduckgo"];
const SOCIAL_NETWORK_NAMES = ["twitter", "facebook", "linkedin", "reddit", "instagram"];
const EMAIL_TAGS = ["email", "e-mail", "e_mail", "e mail", "newsletter"];
const SOCIAL_MEDIA = ["social", "social-network", "social-media", "sm"];

/** decisions "revenue.amount": the currency's minor-unit exponent. */
const MINOR_UNIT_EXPONENT: Record<string, number> = { EUR: 2, USD: 2, JPY: 0 };

const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
type UtmKey = (typeof UTM_KEYS)[number];

const THIRTY_MINUTES = 30 * 60_000;

// ---------------------------------------------------------------------------------------------------------------
// Rounding: one decimal; an exact tie may go either way

/**
 * A figure the spec leaves between a few values: an exact rounding tie (the spec does not say how ties round, and
 * floating point decides it differently in different code), or a change the spec lets be taken before or after
 * rounding. Any of `values` is right; the test turns it into expect.toBeOneOf.
 */
export class Either {
  constructor(readonly values: number[]) {}
}
export type Figure = number | Either;
const valuesOf = (figure: Figure) => (figure instanceof Either ? figure.values : [figure]);
const figureOf = (values: number[]): Figure => {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  return distinct.length === 1 ? distinct[0]! : new Either(distinct);
};

/** round(x, 1) for x = numerator / denominator × 100 (percent, one decimal); an exact tie gives both neighbours. */
export function pct(numerator: number, denominator: number, what = "percentage"): Figure {
  if (denominator === 0) throw new Error(`${what}: division by zero (the data avoids empty reports)`);
  const tenths = (numerator * 1000) / denominator;
  if (Math.abs(tenths % 1) === 0.5) return new Either([Math.floor(tenths) / 10, Math.ceil(tenths) / 10]);
  return Math.round(tenths) / 10;
}

/** ASSUMPTION: visit_duration_seconds is the mean visit length rounded to whole seconds (a tie: either). */
function meanSeconds(totalSeconds: number, visits: number): Figure {
  if (visits === 0) throw new Error("duration of no visits");
  const mean = totalSeconds / visits;
  if (Math.abs(mean % 1) === 0.5) return new Either([Math.floor(mean), Math.ceil(mean)]);
  return Math.round(mean);
}

// ---------------------------------------------------------------------------------------------------------------
// Collection rules

/** decisions "Event name normalisation". */
export function normaliseName(name: string): string {
  const normalised = name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "_")
    .replace(/[^a-z0-9_.:-]/g, "")
    .slice(0, 64);
  if (!normalised) throw new Error(`empty event name ${JSON.stringify(name)} (a 400: the data does not send one)`);
  return normalised;
}

/** decisions "revenue.amount": an integer number is minor units; a string or a non-integer number is major units. */
function minorUnits(revenue: Revenue): { currency: string; amount: number } {
  const currency = revenue.currency.toUpperCase();
  const exponent = MINOR_UNIT_EXPONENT[currency];
  if (exponent === undefined) throw new Error(`unknown currency ${currency}`);
  if (typeof revenue.amount === "number" && Number.isInteger(revenue.amount)) return { currency, amount: revenue.amount };
  return { currency, amount: Math.round(Number(revenue.amount) * 10 ** exponent) };
}

/** decisions "props": string values cut to 200 characters, numbers kept. */
function cleanProps(props: Record<string, string | number> | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(props ?? {})) out[key.slice(0, 64)] = typeof value === "string" ? value.slice(0, 200) : value;
  return out;
}

/** decisions "referrer": the referring host without "www."; "" for none, the site itself or its subdomains. */
function referrerHost(referrer: string | undefined): string {
  if (!referrer) return "";
  const host = new URL(referrer).hostname.toLowerCase().replace(/^www\./, "");
  return host === DOMAIN || host.endsWith(`.${DOMAIN}`) ? "" : host;
}

/** decisions "UTM": from the first event's url; when it has none of them, from the referrer url. Trimmed, cut to 200. */
function utmOf(landingUrl: string, referrer: string | undefined): Partial<Record<UtmKey, string>> {
  const read = (url: string) => {
    const query = new URL(url).searchParams;
    const tags: Partial<Record<UtmKey, string>> = {};
    for (const key of UTM_KEYS) {
      const value = query.get(key)?.trim().slice(0, 200);
      if (value) tags[key] = value;
    }
    return tags;
  };
  const landing = read(landingUrl);
  if (Object.keys(landing).length > 0) return landing;
  return referrer ? read(referrer) : {};
}

/** decisions "source": utm_source, else the list's name for the referrer, else the referrer host, else "". */
function sourceOf(referrer: string, utm: Partial<Record<UtmKey, string>>): string {
  if (utm.utm_source) return utm.utm_source;
  if (!referrer) return "";
  const listed = REFERRER_LIST[referrer];
  if (listed && listed.name === null) throw new Error(`the spec gives no source name for ${referrer}: the data must tag it with utm_source`);
  return listed?.name ?? referrer;
}

/** decisions "channel": the first rule that matches. */
function channelOf(referrer: string, utm: Partial<Record<UtmKey, string>>): string {
  const medium = (utm.utm_medium ?? "").toLowerCase();
  const source = (utm.utm_source ?? "").toLowerCase();
  const group = REFERRER_LIST[referrer]?.group;
  if (/^(.*cp.*|ppc|retargeting|paid.*)$/i.test(medium)) return "Paid"; // 1 (no referrer of ours is in the "paid" group)
  if (EMAIL_TAGS.includes(medium) || EMAIL_TAGS.includes(source) || group === "email") return "Email"; // 2
  if (group === "search" || medium === "organic" || SEARCH_ENGINE_NAMES.includes(source)) return "Organic Search"; // 3
  if (group === "social" || SOCIAL_MEDIA.includes(medium) || SOCIAL_NETWORK_NAMES.includes(source)) return "Organic Social"; // 4
  if (referrer || Object.keys(utm).length > 0) return "Referral"; // 5
  return "Direct"; // 6
}

// ---------------------------------------------------------------------------------------------------------------
// Events and visits

export type Visit = {
  id: number;
  visitor: string;
  events: Ev[];
  entry_page: string | null;
  exit_page: string | null;
  referrer: string;
  source: string;
  channel: string;
  utm: Partial<Record<UtmKey, string>>;
  bounce: boolean;
  durationSeconds: number;
};

export type Ev = {
  time: number;
  day: string;
  visitor: string;
  server: boolean;
  name: string;
  url: string;
  path: string;
  referrer?: string;
  load: string;
  seq: number;
  props: Record<string, string | number>;
  revenue?: { currency: string; amount: number };
  country: string;
  region: string;
  city: string;
  device: string;
  browser: string;
  os: string;
  visit: Visit;
};

export type Model = { events: Ev[]; visits: Visit[]; bots: number; stored: number };

const isPageview = (e: Ev) => e.name === "pageview";
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

export function buildModel(hits: Hit[]): Model {
  let bots = 0;
  const events: Ev[] = [];
  for (const hit of hits) {
    if (hit.kind === "collect" && BOTS.has(hit.ua)) {
      bots += 1; // 202 and dropped
      continue;
    }
    const facts = hit.kind === "collect" ? UA_FACTS[hit.ua] : undefined;
    if (hit.kind === "collect" && !facts) throw new Error(`no ua-parser facts for ${hit.ua}`);
    const day = dayOf(hit.time);
    events.push({
      time: hit.time,
      day,
      // §10.2: a browser visitor is the day's (salt) IP + user agent; a server visitor is its `visitor` id, on any day.
      visitor: hit.kind === "server" ? `server:${hit.visitor}` : `browser:${day}:${hit.ip}:${hit.ua}`,
      server: hit.kind === "server",
      name: normaliseName(hit.body.name),
      url: hit.body.url,
      path: new URL(hit.body.url).pathname, // §10.3: page = URL path without query string
      ...(hit.body.referrer ? { referrer: hit.body.referrer } : {}),
      load: hit.body.load ?? "",
      seq: hit.body.seq ?? 0,
      props: cleanProps(hit.body.props),
      ...(hit.body.revenue ? { revenue: minorUnits(hit.body.revenue) } : {}),
      // Server events: no user agent and no location (blank).
      country: hit.country ?? "",
      region: hit.cf?.region ?? "",
      city: hit.cf?.city ?? "",
      device: facts?.device ?? "",
      browser: facts?.browser ?? "",
      os: facts?.os ?? "",
      visit: undefined as unknown as Visit,
    });
  }

  const byVisitor = new Map<string, Ev[]>();
  for (const e of events) byVisitor.set(e.visitor, [...(byVisitor.get(e.visitor) ?? []), e]);

  const visits: Visit[] = [];
  for (const [visitor, list] of byVisitor) {
    // decisions "Ordering": within one load, the k-th smallest arrival time goes to the k-th smallest seq.
    const byLoad = new Map<string, Ev[]>();
    for (const e of list) if (e.load) byLoad.set(e.load, [...(byLoad.get(e.load) ?? []), e]);
    for (const group of byLoad.values()) {
      const times = group.map((e) => e.time).sort((a, b) => a - b);
      [...group]
        .sort((a, b) => a.seq - b.seq)
        .forEach((e, k) => {
          e.time = times[k]!;
        });
    }
    // ... then a visitor's events are ordered by (time, load, seq).
    list.sort((a, b) => a.time - b.time || (a.load < b.load ? -1 : a.load > b.load ? 1 : 0) || a.seq - b.seq);
    guardOrdering(visitor, list);

    // A visit ends after 30 minutes without events.
    let current: Ev[] = [];
    const close = () => {
      if (current.length > 0) visits.push(makeVisit(visits.length, visitor, current));
      current = [];
    };
    for (const e of list) {
      const previous = current[current.length - 1];
      if (previous) {
        const gap = e.time - previous.time;
        if (gap > 29 * 60_000 && gap < 31 * 60_000) throw new Error(`${visitor}: a gap of ${gap} ms is too close to the 30-minute rule`);
        if (gap > THIRTY_MINUTES) close();
      }
      current.push(e);
    }
    close();
  }
  const ordered = visits.flatMap((v) => v.events);
  return { events: ordered, visits, bots, stored: events.length };
}

/** Loads of one visitor never share a second, so (time, load) order never depends on load ids or time precision. */
function guardOrdering(visitor: string, list: Ev[]) {
  const loadAtSecond = new Map<number, string>();
  for (const e of list) {
    const second = Math.floor(e.time / 1000);
    const other = loadAtSecond.get(second);
    if (other !== undefined && other !== e.load) throw new Error(`${visitor}: two page loads in one second`);
    loadAtSecond.set(second, e.load);
  }
}

function makeVisit(id: number, visitor: string, events: Ev[]): Visit {
  const first = events[0]!;
  const last = events[events.length - 1]!;
  const pageviews = events.filter(isPageview);
  // Guards: the visit's bounce flag must not depend on an undefined rule, nor its figures on precision or midnight.
  if (pageviews.length === 1 && events.length > 1) throw new Error(`${visitor}: one pageview plus other events (bounce undefined)`);
  if (pageviews.length === 0 && !(first.server && events.length >= 2)) throw new Error(`${visitor}: a visit without a pageview`);
  if (first.day !== last.day) throw new Error(`${visitor}: a visit across midnight`);
  if (first.time % 1000 !== 0 || last.time % 1000 !== 0) throw new Error(`${visitor}: a visit starting or ending off a whole second`);

  const referrer = referrerHost(first.referrer);
  const utm = utmOf(first.url, first.referrer);
  const visit: Visit = {
    id,
    visitor,
    events,
    // decisions: entry_page = path of the visit's first pageview; exit_page = of its last.
    entry_page: pageviews[0]?.path ?? null,
    exit_page: pageviews[pageviews.length - 1]?.path ?? null,
    referrer,
    source: sourceOf(referrer, utm),
    channel: channelOf(referrer, utm),
    utm,
    // ASSUMPTION (the spec does not define a bounce): a visit with a single pageview and nothing else. Our visits
    // either are that, or have two or more pageviews, or (server) have no pageview and two or more events.
    bounce: pageviews.length === 1 && events.length === 1,
    durationSeconds: (last.time - first.time) / 1000,
  };
  for (const e of events) e.visit = visit;
  return visit;
}

// ---------------------------------------------------------------------------------------------------------------
// Goals and revenue

type Goal = { type: string; value: string; revenue: boolean };
const goalMatches = (goal: Goal, e: Ev) => (goal.type === "event" ? e.name === goal.value : isPageview(e) && e.path === goal.value);

/** decisions "Revenue": only on `purchase` events, or on events matching a revenue goal. */
const countsRevenue = (e: Ev) => e.revenue !== undefined && (e.name === "purchase" || GOALS.some((g) => g.revenue && goalMatches(g, e)));

function revenueOf(events: Ev[], which: (e: Ev) => boolean = countsRevenue): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const e of events) if (e.revenue && which(e)) totals[e.revenue.currency] = (totals[e.revenue.currency] ?? 0) + e.revenue.amount;
  return totals;
}

// ---------------------------------------------------------------------------------------------------------------
// Filters (decisions "filters=")

export type Filter = { prop: string; op: "==" | "!=" | "~="; value: string };

export function parseFilters(text: string | undefined): Filter[] {
  if (!text) return [];
  return text.split(";").map((part) => {
    const match = /^(.*?)(==|!=|~=)(.*)$/.exec(part);
    if (!match) throw new Error(`bad filter ${part}`);
    return { prop: match[1]!, op: match[2] as Filter["op"], value: match[3]! };
  });
}

const VISIT_LEVEL = ["entry_page", "exit_page", "referrer", "source", "channel", ...UTM_KEYS];
const EVENT_LEVEL = ["country", "region", "city", "device", "browser", "os"];

/** `*` in a page value matches any run of characters (our paths never need it to match "/"). */
const wildcard = (pattern: string) => new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compare(op: Filter["op"], actual: string, value: string, pattern = false): boolean {
  if (op === "~=") return actual.toLowerCase().includes(value.toLowerCase()); // substring: case-insensitive
  const equal = pattern ? wildcard(value).test(actual) : actual === value; // values: case-sensitive
  return op === "==" ? equal : !equal;
}

/** The events a report counts (decisions "Visit-level properties … select whole visits", "Event-level ones … select events"). */
export function select(range: Ev[], filters: Filter[]): Ev[] {
  // goal==X: keeps the visitors who completed goal X in the period (ASSUMPTION: all their events in the period).
  const goalVisitors = new Map<string, Set<string>>();
  for (const f of filters) {
    if (f.prop !== "goal") continue;
    if (f.op !== "==") throw new Error("only goal== is used");
    const goal = GOALS.find((g) => g.value === f.value);
    if (!goal) throw new Error(`no goal ${f.value}`);
    goalVisitors.set(f.value, new Set(range.filter((e) => goalMatches(goal, e)).map((e) => e.visitor)));
  }
  const holds = (e: Ev, f: Filter): boolean => {
    if (f.prop === "goal") return goalVisitors.get(f.value)!.has(e.visitor);
    if (VISIT_LEVEL.includes(f.prop)) {
      const v = e.visit;
      const value = f.prop.startsWith("utm_") ? v.utm[f.prop as UtmKey] : (v as unknown as Record<string, string | null>)[f.prop];
      if (value === null || value === undefined) {
        if (f.op !== "==") throw new Error(`${f.prop}${f.op} on a visit without one is not defined by the spec`);
        return false;
      }
      return compare(f.op, value, f.value);
    }
    if (f.prop === "page") {
      if (f.op === "!=") throw new Error("page!= is not used: whether it keeps custom events is not defined by the spec");
      return isPageview(e) && compare(f.op, e.path, f.value, true); // `page` matches pageviews by path
    }
    if (f.prop === "event") return compare(f.op, e.name, f.value);
    if (EVENT_LEVEL.includes(f.prop)) return compare(f.op, (e as unknown as Record<string, string>)[f.prop]!, f.value);
    if (f.prop.startsWith("prop:")) {
      if (f.op === "!=") throw new Error("prop!= is not used");
      const value = e.props[f.prop.slice(5)];
      return value !== undefined && compare(f.op, String(value), f.value);
    }
    throw new Error(`unknown filter property ${f.prop}`);
  };
  return range.filter((e) => filters.every((f) => holds(e, f)));
}

// ---------------------------------------------------------------------------------------------------------------
// Reports

export type StatsFigures = {
  visitors: number;
  visits: number;
  pageviews: number;
  events: number;
  bounce_rate: Figure;
  visit_duration_seconds: Figure;
  revenue: Record<string, number>;
};
export type GoalFigures = { type: string; value: string; uniques: number; total: number; conversion_rate: Figure };

/** §10.3 stats over selected events: visitors/visits with a selected event, counts of selected events, rates over those visits. */
function figures(selected: Ev[]): StatsFigures & { raw: { bounce: number; duration: number } } {
  const visits = [...new Set(selected.map((e) => e.visit))];
  const bounces = visits.filter((v) => v.bounce).length;
  const seconds = visits.reduce((sum, v) => sum + v.durationSeconds, 0);
  return {
    visitors: new Set(selected.map((e) => e.visitor)).size, // per-day browser keys: "Σ over days" by construction
    visits: visits.length,
    pageviews: selected.filter(isPageview).length,
    events: selected.length, // ASSUMPTION: events counts every event, pageviews included
    bounce_rate: pct(bounces, visits.length, "bounce_rate"), // ASSUMPTION: percent, one decimal
    visit_duration_seconds: meanSeconds(seconds, visits.length),
    revenue: revenueOf(selected), // ASSUMPTION: {} when nothing counts
    raw: { bounce: (bounces / visits.length) * 100, duration: seconds / visits.length },
  };
}

/** decisions "Goals": uniques = visitors who completed it, total = matching events, rate = uniques / visitors. */
function goalFigures(selected: Ev[], visitors: number): GoalFigures[] {
  return GOALS.map((goal) => {
    const matching = selected.filter((e) => goalMatches(goal, e));
    const uniques = new Set(matching.map((e) => e.visitor)).size;
    return { type: goal.type, value: goal.value, uniques, total: matching.length, conversion_rate: pct(uniques, visitors, `goal ${goal.value}`) };
  });
}

export type BreakdownItem = {
  value: string;
  visitors: number;
  visits: number;
  pageviews: number;
  events: number;
  bounce_rate: Figure;
  conversion_rate: Figure | null;
};

/** The row value of an event for a breakdown property; undefined = the event is in no row. */
function rowValue(property: string, e: Ev): string | undefined {
  const v = e.visit;
  switch (property) {
    case "page":
      return isPageview(e) ? e.path : undefined; // `page` matches pageviews by path
    case "entry_page":
      return v.entry_page ?? undefined; // visits with no pageview are left out
    case "exit_page":
      return v.exit_page ?? undefined;
    case "referrer":
      return v.referrer || "Direct / None";
    case "source":
      return v.source || "Direct / None";
    case "channel":
      return v.channel;
    case "event":
      // Resolved after the blind run (the spec handed to the writer was silent): the `event` breakdown lists the
      // custom events, as docs/analytics.md has said since §10.3 ("event lists the custom events"); a pageview is
      // not a row. The filter event==pageview still matches pageviews (see matches()).
      return isPageview(e) ? undefined : e.name;
    case "country":
    case "region":
    case "city":
    case "device":
    case "browser":
    case "os":
      return (e as unknown as Record<string, string>)[property] || "(unknown)";
  }
  if ((UTM_KEYS as readonly string[]).includes(property)) return v.utm[property as UtmKey]; // "(none)" items are left out
  if (property.startsWith("prop:")) {
    const value = e.props[property.slice(5)];
    return value === undefined ? undefined : String(value); // "(none)" items are left out
  }
  throw new Error(`unknown breakdown property ${property}`);
}

/**
 * §10.5 / decisions "Breakdown items": a row is the report filtered by property==value (ASSUMPTION: each row counts
 * like a filtered report), ordered by visitors, then events (largest first), then value (ASSUMPTION: ascending).
 * conversion_rate: with goal==X, row visitors with the goal / row visitors without the goal filter; else null
 * (ASSUMPTION).
 */
function breakdown(range: Ev[], property: string, filters: Filter[]): BreakdownItem[] {
  const goal = filters.find((f) => f.prop === "goal");
  const withoutGoal = goal
    ? select(
        range,
        filters.filter((f) => f !== goal),
      )
    : [];
  const rows = new Map<string, Ev[]>();
  for (const e of select(range, filters)) {
    const value = rowValue(property, e);
    if (value !== undefined) rows.set(value, [...(rows.get(value) ?? []), e]);
  }
  const items = [...rows].map(([value, events]): BreakdownItem => {
    const f = figures(events);
    const denominator = new Set(withoutGoal.filter((e) => rowValue(property, e) === value).map((e) => e.visitor)).size;
    return {
      value,
      visitors: f.visitors,
      visits: f.visits,
      pageviews: f.pageviews,
      events: f.events,
      bounce_rate: f.bounce_rate,
      conversion_rate: goal ? pct(f.visitors, denominator, `${property}=${value} conversion`) : null,
    };
  });
  items.sort((a, b) => b.visitors - a.visitors || b.events - a.events || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  if (items.length > 100) throw new Error(`${property}: more than 100 rows`);
  return items;
}

type Step = { type: string; value: string };
const stepMatches = (step: Step, e: Ev) => (step.type === "event" ? e.name === step.value : isPageview(e) && wildcard(step.value).test(e.path));

/**
 * §10.4: a visitor reaches step k if, after reaching step k−1, they did step k no later than window_minutes after
 * their step 1. Greedy from the visitor's first step-1 event. Guard: the best over every possible start gives the
 * same level (the spec does not say which "step 1" when there are several), so the data never depends on it.
 */
function funnelLevel(events: Ev[], steps: readonly Step[], windowMinutes: number): number {
  const fromStart = (start: number) => {
    const deadline = events[start]!.time + windowMinutes * 60_000;
    let level = 1;
    for (let i = start + 1; i < events.length && level < steps.length; i++) {
      if (events[i]!.time > deadline) break;
      if (stepMatches(steps[level]!, events[i]!)) level += 1;
    }
    return level;
  };
  const starts = events.flatMap((e, i) => (stepMatches(steps[0]!, e) ? [i] : []));
  if (starts.length === 0) return 0;
  const greedy = fromStart(starts[0]!);
  const best = Math.max(...starts.map(fromStart));
  if (greedy !== best) throw new Error(`${events[0]!.visitor}: funnel level depends on the start (${greedy} vs ${best})`);
  return greedy;
}

export type FunnelReport = {
  steps: { index: number; label: string; visitors: number; conversion_rate: Figure; dropoff_rate: Figure | null }[];
  conversion_rate: Figure;
  revenue: Record<string, number>;
};

/**
 * §10.4 report. ASSUMPTIONS: index counts from 0 (the test accepts 0- or 1-based), label = the step's value,
 * dropoff_rate is a percent with one decimal and 0 for step 1.
 */
function funnel(range: Ev[], steps: readonly Step[], windowMinutes: number, filters: Filter[]): FunnelReport {
  const selected = select(range, filters);
  const byVisitor = new Map<string, Ev[]>();
  for (const e of selected) byVisitor.set(e.visitor, [...(byVisitor.get(e.visitor) ?? []), e]);
  const levels = new Map([...byVisitor].map(([visitor, events]) => [visitor, funnelLevel(events, steps, windowMinutes)]));
  const reached = steps.map((_, k) => [...levels.values()].filter((level) => level > k).length);
  const completers = new Set([...levels].filter(([, level]) => level === steps.length).map(([visitor]) => visitor));
  // "revenue sums purchase revenue of the visitors who completed the funnel". Guard: one purchase each at most, so
  // "their purchases" and "the purchase that completed it" agree.
  for (const visitor of completers) {
    if (byVisitor.get(visitor)!.filter((e) => e.name === "purchase").length > 1) throw new Error(`${visitor}: two purchases`);
  }
  return {
    steps: steps.map((step, k) => ({
      index: k,
      label: step.value,
      visitors: reached[k]!,
      conversion_rate: pct(reached[k]!, reached[0]!, `step ${k} conversion`),
      // Resolved after the blind run: §10.4 defines dropoff against the previous step; step 1 has none → null, as
      // documented and tested since the funnels landed (the writer had assumed 0).
      dropoff_rate: k === 0 ? null : pct(reached[k - 1]! - reached[k]!, reached[k - 1]!, `step ${k} dropoff`),
    })),
    conversion_rate: pct(reached[steps.length - 1]!, reached[0]!, "funnel conversion"),
    revenue: revenueOf(
      selected.filter((e) => completers.has(e.visitor)),
      (e) => e.name === "purchase",
    ),
  };
}

type Metric = "visitors" | "pageviews" | "events";
function bucketValue(events: Ev[], metric: Metric): number {
  if (metric === "visitors") return new Set(events.map((e) => e.visitor)).size; // distinct within the bucket
  if (metric === "pageviews") return events.filter(isPageview).length;
  return events.length;
}

/** change = round((now − before)/before × 100, 1), null when before is 0 (decisions "compare"). */
function change(now: number, before: number): Figure | null {
  if (before === 0) return null;
  return pct(now - before, before);
}

/**
 * The change of a rounded figure (bounce_rate, visit_duration_seconds): the spec does not say whether it is taken
 * from the reported values or from the unrounded ones, so both are accepted (and either side of a tie).
 */
function changeOfRounded(now: Figure, before: Figure, rawNow: number, rawBefore: number): Figure | null {
  const candidates: number[] = [];
  for (const n of valuesOf(now)) for (const b of valuesOf(before)) candidates.push(...valuesOf(change(n, b) ?? Number.NaN));
  candidates.push(...valuesOf(change(rawNow, rawBefore) ?? Number.NaN));
  if (candidates.some(Number.isNaN)) throw new Error("a rate of 0 in the previous period");
  return figureOf(candidates);
}

// ---------------------------------------------------------------------------------------------------------------
// The expected reports

export type Query = Record<string, string>;
export type Expected = {
  volumes: { stored: number; bots: number; visitorsOnDay: number; eventsOnDay: number; visitorsOnPreviousDay: number; eventsOnPreviousDay: number };
  stats: { name: string; query: Query; expected: StatsFigures & { goals: GoalFigures[] } }[];
  compare: {
    name: string;
    query: Query;
    expected: StatsFigures & { goals: GoalFigures[] };
    previous: StatsFigures;
    change: Record<keyof Omit<StatsFigures, "revenue">, Figure | null> & { revenue: Record<string, Figure | null> };
  };
  breakdowns: { name: string; query: Query; expected: BreakdownItem[] }[];
  timeseries: { name: string; query: Query; dates: RegExp[]; values: number[] }[];
  funnels: { name: string; funnel: "checkout" | "custom"; query: Query; expected: FunnelReport }[];
};

export const BREAKDOWN_PROPERTIES = [
  "page",
  "entry_page",
  "exit_page",
  "referrer",
  "source",
  "channel",
  "utm_medium",
  "utm_source",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "country",
  "region",
  "city",
  "device",
  "browser",
  "os",
  "event",
  "prop:plan",
  "prop:coupon",
];

const STAT_FILTERS = [
  "channel==Organic Social",
  "country==DE;device==mobile",
  "page~=Product", // substring, case-insensitive
  "page==/product/*", // wildcard
  "source!=Google", // case-sensitive: utm_source "google" is another source
  "goal==signup",
  "prop:plan==pro",
  "event==purchase",
  "utm_campaign==june_sale",
  "channel==Direct;browser==Chrome",
];

const FILTERED_BREAKDOWNS: [string, string][] = [
  ["page", "channel==Organic Search"],
  ["source", "goal==signup"],
  ["channel", "goal==signup"],
  ["country", "goal==signup"],
  ["page", "goal==/thank-you"],
  ["device", "page~=product"],
  ["browser", "country==DE"],
  ["event", "source!=Google"],
  ["entry_page", "device==mobile"],
  ["prop:plan", "channel==Direct"],
  ["utm_campaign", "channel==Email"],
  ["os", "event==add_to_cart"],
];

const day = (from: string, to = from): Query => ({ from, to });

export function expectedReports(hits: Hit[]): Expected {
  const model = buildModel(hits);
  const inRange = (from: string, to: string) => model.events.filter((e) => e.day >= from && e.day <= to);
  const today = inRange(DAY, DAY);
  const yesterday = inRange(PREVIOUS_DAY, PREVIOUS_DAY);
  const twoDays = inRange(PREVIOUS_DAY, DAY);

  const statsOf = (range: Ev[], filters: Filter[]) => {
    const selected = select(range, filters);
    const { raw: _raw, ...f } = figures(selected);
    return { ...f, goals: goalFigures(selected, f.visitors) };
  };

  const stats: Expected["stats"] = [
    { name: "stats", query: day(DAY), expected: statsOf(today, []) },
    { name: "stats 06-09..06-10 (visitors: Σ over days)", query: day(PREVIOUS_DAY, DAY), expected: statsOf(twoDays, []) },
    ...STAT_FILTERS.map((filters) => ({ name: `stats ${filters}`, query: { ...day(DAY), filters }, expected: statsOf(today, parseFilters(filters)) })),
  ];

  // compare=previous_period: the same number of days just before.
  const now = figures(today);
  const before = figures(yesterday);
  const { raw: _r1, ...previous } = before;
  const currencies = [...new Set([...Object.keys(now.revenue), ...Object.keys(before.revenue)])].sort();
  if (currencies.some((c) => !(c in now.revenue) || !(c in before.revenue))) throw new Error("a currency in one period only");
  const compareReport: Expected["compare"] = {
    name: "stats compare=previous_period",
    query: { ...day(DAY), compare: "previous_period" },
    expected: statsOf(today, []),
    previous,
    change: {
      visitors: change(now.visitors, before.visitors),
      visits: change(now.visits, before.visits),
      pageviews: change(now.pageviews, before.pageviews),
      events: change(now.events, before.events),
      bounce_rate: changeOfRounded(now.bounce_rate, before.bounce_rate, now.raw.bounce, before.raw.bounce),
      visit_duration_seconds: changeOfRounded(now.visit_duration_seconds, before.visit_duration_seconds, now.raw.duration, before.raw.duration),
      revenue: Object.fromEntries(currencies.map((c) => [c, change(now.revenue[c]!, before.revenue[c]!)])),
    },
  };

  const breakdowns: Expected["breakdowns"] = [
    ...BREAKDOWN_PROPERTIES.map((property) => ({
      name: `breakdown ${property}`,
      query: { ...day(DAY), property, limit: "100" },
      expected: breakdown(today, property, []),
    })),
    ...FILTERED_BREAKDOWNS.map(([property, filters]) => ({
      name: `breakdown ${property} filters=${filters}`,
      query: { ...day(DAY), property, limit: "100", filters },
      expected: breakdown(today, property, parseFilters(filters)),
    })),
  ];

  // Timeseries: hour buckets of the day (ASSUMPTION: all 24 hours, empty ones 0; the date names the hour), days.
  const hours = Array.from({ length: 24 }, (_, h) => h);
  const hourly = (metric: Metric, filters: string | undefined) => {
    const selected = select(today, parseFilters(filters));
    return {
      name: `timeseries hour ${metric}${filters ? ` filters=${filters}` : ""}`,
      query: { ...day(DAY), interval: "hour", metric, ...(filters ? { filters } : {}) },
      dates: hours.map((h) => new RegExp(`^${DAY}[T ]${String(h).padStart(2, "0")}:00`)),
      values: hours.map((h) =>
        bucketValue(
          selected.filter((e) => new Date(e.time).getUTCHours() === h),
          metric,
        ),
      ),
    };
  };
  const daily = (metric: Metric) => ({
    name: `timeseries day ${metric} 06-09..06-10`,
    query: { ...day(PREVIOUS_DAY, DAY), interval: "day", metric },
    dates: [new RegExp(`^${PREVIOUS_DAY}`), new RegExp(`^${DAY}`)],
    values: [bucketValue(yesterday, metric), bucketValue(today, metric)],
  });
  const timeseries: Expected["timeseries"] = [
    hourly("visitors", undefined),
    hourly("pageviews", undefined),
    hourly("events", undefined),
    hourly("visitors", "channel==Organic Search"),
    hourly("pageviews", "device==mobile"),
    daily("visitors"),
    daily("pageviews"),
    daily("events"),
  ];

  const checkout = (filters: string | undefined) => ({
    name: `funnel checkout${filters ? ` filters=${filters}` : ""}`,
    funnel: "checkout" as const,
    query: { ...day(DAY), ...(filters ? { filters } : {}) },
    expected: funnel(today, CHECKOUT_FUNNEL.steps, CHECKOUT_FUNNEL.window_minutes, parseFilters(filters)),
  });
  const funnels: Expected["funnels"] = [
    checkout(undefined),
    checkout("device==desktop"),
    checkout("country==DE"),
    {
      name: "funnel custom (pages, 60-minute window)",
      funnel: "custom",
      query: day(DAY),
      expected: funnel(today, CUSTOM_FUNNEL.steps, CUSTOM_FUNNEL.window_minutes, []),
    },
  ];

  return {
    volumes: {
      stored: model.stored,
      bots: model.bots,
      visitorsOnDay: new Set(today.map((e) => e.visitor)).size,
      eventsOnDay: today.length,
      visitorsOnPreviousDay: new Set(yesterday.map((e) => e.visitor)).size,
      eventsOnPreviousDay: yesterday.length,
    },
    stats,
    compare: compareReport,
    breakdowns,
    timeseries,
    funnels,
  };
}
