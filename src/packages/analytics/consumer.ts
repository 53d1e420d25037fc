import { sql } from "drizzle-orm";
import type { Env } from "../../platform/context";
import { logError } from "../../platform/log";
import { acrossWorkspaces, type Unscoped } from "../../platform/tenancy";
import { type AnalyticsEvent, AnalyticsMessage } from "./collect";
import { daily, dailyRevenue, deadLetters, events, visitorDays, visits } from "./schema";

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
};
type Totals = { browserVisitors: number; visitors: number; visits: number; pageviews: number; events: number; bounces: number; durationMs: number };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isBounce = (visit: Pick<Visit, "pageviews" | "events">) => visit.pageviews === 1 && visit.events === 1;
/** Rows travel as one JSON array per statement (json_each): any number of rows in one bound value. */
const rows = (values: unknown[][]) => JSON.stringify(values);
const column = (i: number) => sql.raw(`j.value ->> ${i}`);
const columns = (n: number) =>
  sql.join(
    Array.from({ length: n }, (_, i) => column(i)),
    sql`, `,
  );

/**
 * Writes a queue batch of events in one D1 batch, with what they add to the rollups. First one read
 * (one batch of three statements): which of these events were already written (a redelivery), the
 * visitors' open visits and which visitor-days exist. Then, in timestamp order, each event continues its
 * visitor's visit (no gap of 30 minutes; a browser visitor whose id changed at midnight continues under
 * yesterday's id) or starts one, and its day's totals change by what it adds: a first event of a visitor
 * that day, a visit, a pageview, a bounce won or lost, the visit's duration. Every statement takes its
 * rows as one JSON value, so a batch of any size is five statements and never near D1's 100 bound values.
 */
export async function ingest(db: Unscoped, batch: { key: string; event: AnalyticsEvent }[]): Promise<number> {
  if (batch.length === 0) return 0;
  const ordered = [...batch].sort((a, b) => a.event.ts - b.event.ts);
  const since = ordered[0]!.event.ts - VISIT_GAP_MS;
  const visitorKeys = new Map<string, unknown[]>();
  const dayKeys = new Map<string, unknown[]>();
  for (const { event } of ordered) {
    for (const visitor of [event.visitor, event.previousVisitor]) {
      if (visitor) visitorKeys.set(`${event.workspaceId}:${event.siteId}:${visitor}`, [event.workspaceId, event.siteId, visitor]);
    }
    dayKeys.set(`${event.workspaceId}:${event.siteId}:${dayOf(event.ts)}:${event.visitor}`, [event.workspaceId, event.siteId, dayOf(event.ts), event.visitor]);
  }
  const [written, open, seen] = await db.batch([
    db.rows<{ key: string }>(
      sql`SELECT event_key AS key FROM ${events} WHERE event_key IN (SELECT value FROM json_each(${JSON.stringify(ordered.map((item) => item.key))}))`,
    ),
    // json_each drives the loop: each visitor is one lookup in the (workspace, site, visitor, last_at) index.
    db.rows<{
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
    }>(sql`SELECT v.id, v.workspace_id AS workspaceId, v.site_id AS siteId, v.visitor, v.day, v.referrer, v.started_at AS startedAt, v.last_at AS lastAt, v.pageviews, v.events
          FROM json_each(${rows([...visitorKeys.values()])}) j CROSS JOIN ${visits} v
          WHERE v.workspace_id = ${column(0)} AND v.site_id = ${column(1)} AND v.visitor = ${column(2)} AND v.last_at >= ${since}`),
    db.rows<{ key: string }>(sql`SELECT d.workspace_id || ':' || d.site_id || ':' || d.day || ':' || d.visitor AS key
          FROM json_each(${rows([...dayKeys.values()])}) j CROSS JOIN ${visitorDays} d
          WHERE d.workspace_id = ${column(0)} AND d.site_id = ${column(1)} AND d.day = ${column(2)} AND d.visitor = ${column(3)}`),
  ]);
  const done = new Set(written.map((row) => row.key));
  const openVisits = new Map<string, Visit>();
  for (const row of open) {
    const key = `${row.workspaceId}:${row.siteId}:${row.visitor}`;
    if (!openVisits.has(key) || openVisits.get(key)!.lastAt < row.lastAt) openVisits.set(key, row);
  }
  const seenDays = new Set(seen.map((row) => row.key));

  const newEvents: unknown[][] = [];
  const touched = new Map<string, Visit>();
  const newDays: unknown[][] = [];
  const totals = new Map<string, Totals>();
  const revenue = new Map<string, number>();
  const totalsOf = (event: AnalyticsEvent, day: string) => {
    const key = `${event.workspaceId}:${event.siteId}:${day}`;
    let entry = totals.get(key);
    if (!entry) {
      entry = { browserVisitors: 0, visitors: 0, visits: 0, pageviews: 0, events: 0, bounces: 0, durationMs: 0 };
      totals.set(key, entry);
    }
    return entry;
  };

  for (const { key, event } of ordered) {
    if (done.has(key)) continue;
    const site = `${event.workspaceId}:${event.siteId}`;
    const openVisit = (visitor: string) => {
      const visit = openVisits.get(`${site}:${visitor}`);
      return visit && event.ts - visit.lastAt <= VISIT_GAP_MS && visit.startedAt - event.ts <= VISIT_GAP_MS ? visit : undefined;
    };
    // Across midnight a browser's id changes with the salt: an open visit under yesterday's id goes on.
    const visitor = !openVisit(event.visitor) && event.previousVisitor && openVisit(event.previousVisitor) ? event.previousVisitor : event.visitor;
    const pageview = event.name === "pageview" ? 1 : 0;
    let visit = openVisit(visitor);
    if (visit) {
      const before = { bounce: isBounce(visit), duration: visit.lastAt - visit.startedAt };
      visit.lastAt = Math.max(visit.lastAt, event.ts);
      visit.startedAt = Math.min(visit.startedAt, event.ts);
      visit.pageviews += pageview;
      visit.events += 1;
      const day = totalsOf(event, visit.day);
      day.bounces += Number(isBounce(visit)) - Number(before.bounce);
      day.durationMs += visit.lastAt - visit.startedAt - before.duration;
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
      };
      openVisits.set(`${site}:${visitor}`, visit);
      const day = totalsOf(event, visit.day);
      day.visits += 1;
      day.bounces += Number(isBounce(visit));
    }
    touched.set(visit.id, visit);

    const day = dayOf(event.ts);
    const dayTotals = totalsOf(event, day);
    if (!seenDays.has(`${site}:${day}:${visitor}`)) {
      seenDays.add(`${site}:${day}:${visitor}`);
      newDays.push([event.workspaceId, event.siteId, day, visitor, event.source]);
      dayTotals.visitors += 1;
      if (event.source === "browser") dayTotals.browserVisitors += 1;
    }
    dayTotals.pageviews += pageview;
    dayTotals.events += 1;
    if (event.revenue) {
      const revenueKey = `${site}:${day}:${event.revenue.currency}`;
      revenue.set(revenueKey, (revenue.get(revenueKey) ?? 0) + event.revenue.amount);
    }
    newEvents.push([
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
    ]);
  }
  if (newEvents.length === 0) return 0;

  const visitRows = [...touched.values()].map((v) => [
    v.id,
    v.workspaceId,
    v.siteId,
    v.visitor,
    v.day,
    v.referrer,
    v.startedAt,
    v.lastAt,
    v.pageviews,
    v.events,
  ]);
  const dailyRows = [...totals].map(([key, t]) => [
    ...key.split(":").map((part, i) => (i < 2 ? Number(part) : part)),
    t.browserVisitors,
    t.visitors,
    t.visits,
    t.pageviews,
    t.events,
    t.bounces,
    t.durationMs,
  ]);
  const revenueRows = [...revenue].map(([key, amount]) => [...key.split(":").map((part, i) => (i < 2 ? Number(part) : part)), amount]);
  const add = (name: string) => sql.raw(`${name} = ${name} + excluded.${name}`);
  const statements = [
    db.rows(sql`INSERT INTO ${events} (event_key, workspace_id, site_id, visitor, visit_id, name, path, referrer, country, device, props, revenue_amount, revenue_currency, ts)
          SELECT ${columns(14)} FROM json_each(${rows(newEvents)}) j`),
    // "WHERE true" lets SQLite read ON CONFLICT as the upsert's, not as part of the SELECT.
    db.rows(sql`INSERT INTO ${visits} (id, workspace_id, site_id, visitor, day, referrer, started_at, last_at, pageviews, events)
          SELECT ${columns(10)} FROM json_each(${rows(visitRows)}) j WHERE true
          ON CONFLICT (id) DO UPDATE SET started_at = excluded.started_at, last_at = excluded.last_at, pageviews = excluded.pageviews, events = excluded.events`),
    db.rows(sql`INSERT INTO ${daily} (workspace_id, site_id, day, browser_visitors, visitors, visits, pageviews, events, bounces, duration_ms)
          SELECT ${columns(10)} FROM json_each(${rows(dailyRows)}) j WHERE true
          ON CONFLICT (workspace_id, site_id, day) DO UPDATE SET
            ${sql.join(["browser_visitors", "visitors", "visits", "pageviews", "events", "bounces", "duration_ms"].map(add), sql`, `)}`),
  ];
  if (newDays.length > 0) {
    statements.push(
      db.rows(
        sql`INSERT INTO ${visitorDays} (workspace_id, site_id, day, visitor, source) SELECT ${columns(5)} FROM json_each(${rows(newDays)}) j WHERE true ON CONFLICT DO NOTHING`,
      ),
    );
  }
  if (revenueRows.length > 0) {
    statements.push(
      db.rows(sql`INSERT INTO ${dailyRevenue} (workspace_id, site_id, day, currency, amount) SELECT ${columns(5)} FROM json_each(${rows(revenueRows)}) j WHERE true
            ON CONFLICT (workspace_id, site_id, day, currency) DO UPDATE SET amount = min(amount + excluded.amount, ${Number.MAX_SAFE_INTEGER})`),
    );
  }
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  return newEvents.length;
}

/**
 * The analytics queue's consumer. A message it cannot read is poison: it goes straight to the
 * dead-letter queue (and is logged) while the rest of the batch is written; if writing fails, the
 * whole batch is retried (the written check makes a redelivery write nothing twice). An event's key is
 * its message's id and its place in the message.
 */
export async function consumeAnalytics(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const good: { message: Message<unknown>; events: AnalyticsEvent[] }[] = [];
  for (const message of batch.messages) {
    const parsed = AnalyticsMessage.safeParse(message.body);
    if (parsed.success) good.push({ message, events: parsed.data.events });
    else {
      logError("analytics: unreadable message sent to the dead-letter queue", parsed.error, { message_id: message.id });
      await env.ANALYTICS_DLQ.send(message.body, { contentType: "json" });
      message.ack();
    }
  }
  if (good.length === 0) return;
  try {
    await ingest(
      acrossWorkspaces(env, "analytics"),
      good.flatMap(({ message, events }) => events.map((event, i) => ({ key: `${message.id}:${i}`, event }))),
    );
    for (const { message } of good) message.ack();
  } catch (error) {
    logError("analytics: writing a batch failed; it will be retried", error, { messages: good.length });
    for (const { message } of good) message.retry({ delaySeconds: 5 });
  }
}

/** The dead-letter queue's consumer: keeps each message for the operator, and logs it. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = acrossWorkspaces(env, "analytics");
  const now = Date.now();
  const letters = batch.messages.map((message) => [JSON.stringify(message.body).slice(0, 100_000), "unreadable or undeliverable analytics event", now]);
  await db.rows(sql`INSERT INTO ${deadLetters} (body, reason, received_at) SELECT ${columns(3)} FROM json_each(${rows(letters)}) j`);
  console.error(JSON.stringify({ level: "error", msg: "analytics: dead letters stored", count: letters.length }));
  batch.ackAll();
}
