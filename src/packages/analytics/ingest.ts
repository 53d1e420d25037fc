import { sql } from "drizzle-orm";
import type { Unscoped } from "../../platform/tenancy";
import type { AnalyticsEvent } from "./message";
import { daily, dailyProperties, dailyRevenue, events, visitorDays, visits } from "./schema";

/** A visit ends after 30 minutes without events. */
export const VISIT_GAP_MS = 30 * 60_000;

type Visit = {
  id: string;
  workspaceId: number;
  siteId: number;
  visitor: string;
  day: string;
  referrer: string;
  startedAt: number;
  lastAt: number;
  pageviews: number;
  events: number;
  kind: string;
  entryPage: string;
  exitPage: string;
  entryOrd: number;
  exitOrd: number;
  source: string;
  channel: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
};
const VISIT_COLUMNS = [
  "id",
  "workspace_id",
  "site_id",
  "visitor",
  "day",
  "referrer",
  "started_at",
  "last_at",
  "pageviews",
  "events",
  "kind",
  "entry_page",
  "exit_page",
  "entry_ord",
  "exit_ord",
  "source",
  "channel",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
] as const;
const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const EVENT_COLUMNS = [
  "event_key",
  "workspace_id",
  "site_id",
  "visitor",
  "visit_id",
  "name",
  "path",
  "referrer",
  "country",
  "device",
  "props",
  "revenue_amount",
  "revenue_currency",
  "ts",
  "ord",
  "kind",
  "browser",
  "browser_version",
  "os",
  "os_version",
  "region",
  "city",
  "source",
  "channel",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
] as const;
type Totals = { browserVisitors: number; visitors: number; visits: number; pageviews: number; events: number; bounces: number; durationMs: number };
type Counts = Omit<Totals, "browserVisitors">;

/** Rolled-up properties of the visit: where it came from (fixed by its first event). */
export const ROLLED_UP_VISIT = ["source", "channel", "referrer", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
/** Rolled-up properties of the visitor: constant for a visitor id, which hashes the IP and the user agent. */
export const ROLLED_UP_VISITOR = ["browser", "os", "device", "country", "region", "city"] as const;
export const ROLLED_UP: readonly string[] = [...ROLLED_UP_VISIT, ...ROLLED_UP_VISITOR];
type Keyed = { key: string; event: AnalyticsEvent };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isBounce = (visit: Pick<Visit, "pageviews" | "events">) => visit.pageviews === 1 && visit.events === 1;
/** Rows travel as one JSON array per statement (json_each): any number of rows in one bound value. */
export const rows = (values: unknown[][]) => JSON.stringify(values);
const column = (i: number) => sql.raw(`j.value ->> ${i}`);
export const columns = (n: number) =>
  sql.join(
    Array.from({ length: n }, (_, i) => column(i)),
    sql`, `,
  );

/** The largest seq that still orders events within one millisecond (ord = ts × 1024 + seq). */
const MAX_SEQ = 1023;

/**
 * The visitor's order, not the network's: the events of one page load that arrived out of seq order (one
 * click fired several, sent as several requests) get their arrival times back in seq order — the k-th
 * smallest seq takes the k-th earliest arrival — so a click's steps count in the order they were fired.
 * Then everything is ordered by (time, load, seq), and `ord` = time × 1024 + seq breaks ties within a
 * millisecond (funnels compare it).
 */
export function inVisitorOrder(batch: Keyed[]): (Keyed & { ord: number })[] {
  const loads = new Map<string, Keyed[]>();
  for (const item of batch) {
    const { event } = item;
    if (event.load === undefined || event.seq === undefined) continue;
    const key = `${event.workspaceId}:${event.siteId}:${event.visitor}:${event.load}`;
    const group = loads.get(key);
    if (group) group.push(item);
    else loads.set(key, [item]);
  }
  const retimed = new Map<Keyed, number>();
  for (const group of loads.values()) {
    if (group.length < 2) continue;
    const times = group.map((item) => item.event.ts).sort((a, b) => a - b);
    const bySeq = [...group].sort((a, b) => a.event.seq! - b.event.seq!);
    for (const [i, item] of bySeq.entries()) retimed.set(item, times[i]!);
  }
  return batch
    .map((item) => {
      const ts = retimed.get(item) ?? item.event.ts;
      return { key: item.key, event: { ...item.event, ts }, ord: ts * 1024 + Math.min(item.event.seq ?? 0, MAX_SEQ) };
    })
    .sort((a, b) => a.ord - b.ord || (a.event.load ?? "").localeCompare(b.event.load ?? "") || (a.event.seq ?? 0) - (b.event.seq ?? 0));
}

/**
 * Writes a queue batch of events in one D1 batch, with what they add to the rollups. First one read
 * (one batch of three statements): which of these events were already written (a redelivery), the
 * visitors' open visits and which visitor-days exist. Then, in the visitor's order, each event continues its
 * visitor's visit (no gap of 30 minutes; a browser visitor whose id changed at midnight continues under
 * yesterday's id) or starts one, and its day's totals change by what it adds: a first event of a visitor
 * that day, a visit, a pageview, a bounce won or lost, the visit's duration. Every statement takes its
 * rows as one JSON value, so a batch of any size is five statements and never near D1's 100 bound values.
 */
export async function ingest(db: Unscoped, batch: Keyed[]): Promise<number> {
  if (batch.length === 0) return 0;
  const ordered = inVisitorOrder(batch);
  const rollup = new Rollup(await readState(db, ordered));
  for (const item of ordered) rollup.add(item);
  if (rollup.newEvents.length === 0) return 0;
  const statements = rollup.statements(db);
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  return rollup.newEvents.length;
}

/** What the database already holds for this batch: written events, open visits, known visitor-days. */
async function readState(db: Unscoped, ordered: (Keyed & { ord: number })[]) {
  const since = ordered[0]!.event.ts - VISIT_GAP_MS;
  const visitorKeys = new Map<string, unknown[]>();
  const dayKeys = new Map<string, unknown[]>();
  for (const { event } of ordered) {
    for (const visitor of [event.visitor, event.previousVisitor]) {
      if (visitor) visitorKeys.set(`${event.workspaceId}:${event.siteId}:${visitor}`, [event.workspaceId, event.siteId, visitor]);
    }
    const day = dayOf(event.ts);
    const start = Date.parse(`${day}T00:00:00Z`);
    for (const visitor of [event.visitor, event.previousVisitor]) {
      if (visitor)
        dayKeys.set(`${event.workspaceId}:${event.siteId}:${day}:${visitor}`, [event.workspaceId, event.siteId, day, visitor, start, start + 86_400_000]);
    }
  }
  const [written, open, seen, dayVisits] = await db.batch([
    db.rows<{ key: string }>(
      sql`SELECT event_key AS key FROM ${events} WHERE event_key IN (SELECT value FROM json_each(${JSON.stringify(ordered.map((item) => item.key))}))`,
    ),
    // json_each drives the loop: each visitor is one lookup in the (workspace, site, visitor, last_at) index.
    db.rows<Visit>(sql`SELECT ${sql.raw(VISIT_COLUMNS.map((column) => `v.${column} AS ${camel(column)}`).join(", "))}
          FROM json_each(${rows([...visitorKeys.values()])}) j CROSS JOIN ${visits} v
          WHERE v.workspace_id = ${column(0)} AND v.site_id = ${column(1)} AND v.visitor = ${column(2)} AND v.last_at >= ${since}`),
    db.rows<{ key: string }>(sql`SELECT d.workspace_id || ':' || d.site_id || ':' || d.day || ':' || d.visitor AS key
          FROM json_each(${rows([...dayKeys.values()])}) j CROSS JOIN ${visitorDays} d
          WHERE d.workspace_id = ${column(0)} AND d.site_id = ${column(1)} AND d.day = ${column(2)} AND d.visitor = ${column(3)}`),
    // The visitor's visits that day: which sources, channels and tags they were already counted under.
    // (->> binds like ||: the parentheses keep the day apart.)
    db.rows<Record<string, string>>(sql`SELECT v.workspace_id || ':' || v.site_id || ':' || (${column(2)}) || ':' || v.visitor AS key,
            ${sql.raw(ROLLED_UP_VISIT.map((property) => `v.${property}`).join(", "))}
          FROM json_each(${rows([...dayKeys.values()])}) j CROSS JOIN ${visits} v
          WHERE v.workspace_id = ${column(0)} AND v.site_id = ${column(1)} AND v.visitor = ${column(3)} AND v.last_at >= ${column(4)} AND v.started_at < ${column(5)}`),
  ]);
  const seenValues = new Set<string>();
  for (const row of dayVisits) for (const property of ROLLED_UP_VISIT) seenValues.add(`${row.key}:${property}:${row[property]}`);
  const openVisits = new Map<string, Visit>();
  for (const row of open) {
    const key = `${row.workspaceId}:${row.siteId}:${row.visitor}`;
    if (!openVisits.has(key) || openVisits.get(key)!.lastAt < row.lastAt) openVisits.set(key, row);
  }
  return { done: new Set(written.map((row) => row.key)), openVisits, seenDays: new Set(seen.map((row) => row.key)), seenValues };
}

/** The batch's events applied in order to the visits and day totals they change. */
class Rollup {
  readonly newEvents: unknown[][] = [];
  private readonly touched = new Map<string, Visit>();
  private readonly newDays: unknown[][] = [];
  private readonly totals = new Map<string, Totals>();
  private readonly revenue = new Map<string, number>();
  /** (site, day, property, value) → what it gained: the daily totals per rolled-up property. */
  private readonly properties = new Map<string, Counts>();

  constructor(private readonly state: { done: Set<string>; openVisits: Map<string, Visit>; seenDays: Set<string>; seenValues: Set<string> }) {}

  /** The rolled-up properties' values of an event in its visit. */
  private valuesOf(visit: Visit, event: AnalyticsEvent): [string, string][] {
    return [
      ...ROLLED_UP_VISIT.map((property) => [property, String(visit[camel(property) as keyof Visit])] as [string, string]),
      ...ROLLED_UP_VISITOR.map((property) => [property, String(event[camel(property) as keyof AnalyticsEvent] ?? "")] as [string, string]),
    ];
  }

  /** Adds to every rolled-up property's day row, as to the day's totals. */
  private addToProperties(visit: Visit, event: AnalyticsEvent, day: string, change: Partial<Counts>, only?: readonly string[]): void {
    for (const [property, value] of this.valuesOf(visit, event)) {
      if (only && !only.includes(property)) continue;
      const key = `${event.workspaceId}:${event.siteId}:${day}\u0000${property}\u0000${value}`;
      let entry = this.properties.get(key);
      if (!entry) {
        entry = { visitors: 0, visits: 0, pageviews: 0, events: 0, bounces: 0, durationMs: 0 };
        this.properties.set(key, entry);
      }
      for (const [field, amount] of Object.entries(change) as [keyof Counts, number][]) entry[field] += amount;
    }
  }

  add({ key, event, ord }: Keyed & { ord: number }): void {
    if (this.state.done.has(key)) return;
    const site = `${event.workspaceId}:${event.siteId}`;
    // Across midnight a browser's id changes with the salt: an open visit under yesterday's id goes on.
    const visitor =
      !this.openVisit(site, event.visitor, event.ts) && event.previousVisitor && this.openVisit(site, event.previousVisitor, event.ts)
        ? event.previousVisitor
        : event.visitor;
    const visit = this.continueOrStartVisit(site, visitor, event, ord);
    this.countDay(site, visitor, event, visit);
    // Every event carries its visit's attribution: a filter on the source reads the events table alone.
    this.newEvents.push([
      key,
      event.workspaceId,
      event.siteId,
      visitor,
      visit.id,
      event.name,
      event.path,
      visit.referrer,
      event.country,
      event.device,
      event.props ? JSON.stringify(event.props) : null,
      event.revenue?.amount ?? null,
      event.revenue?.currency ?? null,
      event.ts,
      ord,
      event.kind,
      event.browser,
      event.browserVersion,
      event.os,
      event.osVersion,
      event.region,
      event.city,
      visit.source,
      visit.channel,
      visit.utmSource,
      visit.utmMedium,
      visit.utmCampaign,
      visit.utmTerm,
      visit.utmContent,
    ]);
  }

  /** The visitor's visit that `ts` falls in (no 30-minute gap either side), if one is open. */
  private openVisit(site: string, visitor: string, ts: number): Visit | undefined {
    const visit = this.state.openVisits.get(`${site}:${visitor}`);
    return visit && ts - visit.lastAt <= VISIT_GAP_MS && visit.startedAt - ts <= VISIT_GAP_MS ? visit : undefined;
  }

  private totalsOf(event: AnalyticsEvent, day: string): Totals {
    const key = `${event.workspaceId}:${event.siteId}:${day}`;
    let entry = this.totals.get(key);
    if (!entry) {
      entry = { browserVisitors: 0, visitors: 0, visits: 0, pageviews: 0, events: 0, bounces: 0, durationMs: 0 };
      this.totals.set(key, entry);
    }
    return entry;
  }

  /** The event extends its visitor's open visit (a bounce may be lost, the duration grows) or starts one. */
  private continueOrStartVisit(site: string, visitor: string, event: AnalyticsEvent, ord: number): Visit {
    const pageview = event.name === "pageview" ? 1 : 0;
    let visit = this.openVisit(site, visitor, event.ts);
    if (visit) {
      const before = { bounce: isBounce(visit), duration: visit.lastAt - visit.startedAt };
      visit.lastAt = Math.max(visit.lastAt, event.ts);
      visit.startedAt = Math.min(visit.startedAt, event.ts);
      visit.pageviews += pageview;
      visit.events += 1;
      if (pageview && (!visit.entryPage || ord < visit.entryOrd)) Object.assign(visit, { entryPage: event.path, entryOrd: ord });
      if (pageview && (!visit.exitPage || ord >= visit.exitOrd)) Object.assign(visit, { exitPage: event.path, exitOrd: ord });
      const day = this.totalsOf(event, visit.day);
      const change = { bounces: Number(isBounce(visit)) - Number(before.bounce), durationMs: visit.lastAt - visit.startedAt - before.duration };
      day.bounces += change.bounces;
      day.durationMs += change.durationMs;
      this.addToProperties(visit, event, visit.day, change);
    } else {
      visit = {
        id: `${event.siteId}.${visitor}.${event.ts}`,
        workspaceId: event.workspaceId,
        siteId: event.siteId,
        visitor,
        day: dayOf(event.ts),
        referrer: event.referrer,
        startedAt: event.ts,
        lastAt: event.ts,
        pageviews: pageview,
        events: 1,
        kind: event.kind,
        entryPage: pageview ? event.path : "",
        exitPage: pageview ? event.path : "",
        entryOrd: ord,
        exitOrd: ord,
        source: event.source,
        channel: event.channel,
        utmSource: event.utm?.source ?? "",
        utmMedium: event.utm?.medium ?? "",
        utmCampaign: event.utm?.campaign ?? "",
        utmTerm: event.utm?.term ?? "",
        utmContent: event.utm?.content ?? "",
      };
      this.state.openVisits.set(`${site}:${visitor}`, visit);
      const day = this.totalsOf(event, visit.day);
      day.visits += 1;
      day.bounces += Number(isBounce(visit));
      this.addToProperties(visit, event, visit.day, { visits: 1, bounces: Number(isBounce(visit)) });
    }
    this.touched.set(visit.id, visit);
    return visit;
  }

  /** The event's day: a first event of the visitor that day, a pageview, an event, revenue. */
  private countDay(site: string, visitor: string, event: AnalyticsEvent, visit: Visit): void {
    const day = dayOf(event.ts);
    const totals = this.totalsOf(event, day);
    if (!this.state.seenDays.has(`${site}:${day}:${visitor}`)) {
      this.state.seenDays.add(`${site}:${day}:${visitor}`);
      this.newDays.push([event.workspaceId, event.siteId, day, visitor, event.kind]);
      totals.visitors += 1;
      if (event.kind === "browser") totals.browserVisitors += 1;
      this.addToProperties(visit, event, day, { visitors: 1 }, ROLLED_UP_VISITOR);
    }
    // A visitor counts once a day per source (channel, tag…): a second visit from the same one adds no visitor.
    const fresh = ROLLED_UP_VISIT.filter((property) => {
      const key = `${site}:${day}:${visitor}:${property}:${visit[camel(property) as keyof Visit]}`;
      if (this.state.seenValues.has(key)) return false;
      this.state.seenValues.add(key);
      return true;
    });
    if (fresh.length > 0) this.addToProperties(visit, event, day, { visitors: 1 }, fresh);
    const pageview = event.name === "pageview" ? 1 : 0;
    this.addToProperties(visit, event, day, { pageviews: pageview, events: 1 });
    totals.pageviews += pageview;
    totals.events += 1;
    // Revenue that always counts (a purchase) is rolled up; revenue goals are summed from raw events.
    if (event.revenue && event.name === "purchase") {
      const revenueKey = `${site}:${day}:${event.revenue.currency}`;
      this.revenue.set(revenueKey, (this.revenue.get(revenueKey) ?? 0) + event.revenue.amount);
    }
  }

  /** The writes: new events, the visits as they now are, and what the day totals and revenue gained. */
  statements(db: Unscoped) {
    const keyParts = (key: string) => key.split(":").map((part, i) => (i < 2 ? Number(part) : part));
    const visitRows = [...this.touched.values()].map((v) => VISIT_COLUMNS.map((column) => v[camel(column) as keyof Visit]));
    const dailyRows = [...this.totals].map(([key, t]) => [
      ...keyParts(key),
      t.browserVisitors,
      t.visitors,
      t.visits,
      t.pageviews,
      t.events,
      t.bounces,
      t.durationMs,
    ]);
    const revenueRows = [...this.revenue].map(([key, amount]) => [...keyParts(key), amount]);
    const add = (name: string) => sql.raw(`${name} = ${name} + excluded.${name}`);
    const statements = [
      db.rows(sql`INSERT INTO ${events} (${sql.raw(EVENT_COLUMNS.join(", "))})
          SELECT ${columns(EVENT_COLUMNS.length)} FROM json_each(${rows(this.newEvents)}) j`),
      // "WHERE true" lets SQLite read ON CONFLICT as the upsert's, not as part of the SELECT.
      db.rows(sql`INSERT INTO ${visits} (${sql.raw(VISIT_COLUMNS.join(", "))})
          SELECT ${columns(VISIT_COLUMNS.length)} FROM json_each(${rows(visitRows)}) j WHERE true
          ON CONFLICT (id) DO UPDATE SET started_at = excluded.started_at, last_at = excluded.last_at, pageviews = excluded.pageviews, events = excluded.events,
            entry_page = excluded.entry_page, exit_page = excluded.exit_page, entry_ord = excluded.entry_ord, exit_ord = excluded.exit_ord`),
      db.rows(sql`INSERT INTO ${daily} (workspace_id, site_id, day, browser_visitors, visitors, visits, pageviews, events, bounces, duration_ms)
          SELECT ${columns(10)} FROM json_each(${rows(dailyRows)}) j WHERE true
          ON CONFLICT (workspace_id, site_id, day) DO UPDATE SET
            ${sql.join(["browser_visitors", "visitors", "visits", "pageviews", "events", "bounces", "duration_ms"].map(add), sql`, `)}`),
    ];
    const propertyRows = [...this.properties].map(([key, t]) => {
      const [head, property, value] = key.split("\u0000") as [string, string, string];
      return [...keyParts(head), property, value, t.visitors, t.visits, t.pageviews, t.events, t.bounces, t.durationMs];
    });
    if (propertyRows.length > 0) {
      statements.push(
        db.rows(sql`INSERT INTO ${dailyProperties} (workspace_id, site_id, day, property, value, visitors, visits, pageviews, events, bounces, duration_ms)
            SELECT ${columns(11)} FROM json_each(${rows(propertyRows)}) j WHERE true
            ON CONFLICT (workspace_id, site_id, property, day, value) DO UPDATE SET
              ${sql.join(["visitors", "visits", "pageviews", "events", "bounces", "duration_ms"].map(add), sql`, `)}`),
      );
    }
    if (this.newDays.length > 0) {
      statements.push(
        db.rows(
          sql`INSERT INTO ${visitorDays} (workspace_id, site_id, day, visitor, source) SELECT ${columns(5)} FROM json_each(${rows(this.newDays)}) j WHERE true ON CONFLICT DO NOTHING`,
        ),
      );
    }
    if (revenueRows.length > 0) {
      statements.push(
        db.rows(sql`INSERT INTO ${dailyRevenue} (workspace_id, site_id, day, currency, amount) SELECT ${columns(5)} FROM json_each(${rows(revenueRows)}) j WHERE true
            ON CONFLICT (workspace_id, site_id, day, currency) DO UPDATE SET amount = min(amount + excluded.amount, ${Number.MAX_SAFE_INTEGER})`),
      );
    }
    return statements;
  }
}
