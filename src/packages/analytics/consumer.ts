import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Env } from "../../platform/context";
import { type Database, database } from "../../platform/db";
import { logError } from "../../platform/log";
import { AnalyticsMessage } from "./collect";
import { daily, dailyRevenue, deadLetters, events, visitorDays, visits } from "./schema";

/** A visit ends after 30 minutes without events. */
export const VISIT_GAP_MS = 30 * 60_000;

type Visit = { id: string; workspaceId: number; siteId: number; visitor: string; day: string; referrer: string; startedAt: number; lastAt: number; pageviews: number; events: number };
type Totals = { browserVisitors: number; visitors: number; visits: number; pageviews: number; events: number; bounces: number; durationMs: number };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isBounce = (visit: Pick<Visit, "pageviews" | "events">) => visit.pageviews === 1 && visit.events === 1;

/** Values per chunk so that no statement binds more than D1's 100 values (`columns` each). */
function chunks<T>(rows: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(100 / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Rows per multi-row INSERT: as many as fit in 100 bound values. */
const insertChunks = <T extends object>(rows: T[]) => chunks(rows, Math.max(1, ...rows.map((row) => Object.keys(row).length)));

/**
 * Writes a queue batch of events in one D1 batch, with what they add to the rollups. First one read
 * (one batch): which of these messages were already written (a redelivery), the visitors' open visits
 * and which visitor-days exist. Then, in timestamp order, each event continues its visitor's visit (no
 * gap of 30 minutes; a browser visitor whose id changed at midnight continues under yesterday's id) or
 * starts one, and its day's totals change by what it adds: a first event of a visitor that day, a visit,
 * a pageview, a bounce won or lost, the visit's duration.
 */
export async function ingest(db: Database, batch: { key: string; event: AnalyticsMessage }[]): Promise<number> {
  const ordered = [...batch].sort((a, b) => a.event.ts - b.event.ts);
  const since = Math.min(...ordered.map(({ event }) => event.ts)) - VISIT_GAP_MS;
  // What to read, grouped so that every lookup uses an index: visitors per site, visitor-days per site and day.
  const visitorsBySite = new Map<string, Set<string>>();
  const visitorsByDay = new Map<string, Set<string>>();
  for (const { event } of ordered) {
    const site = `${event.workspaceId}:${event.siteId}`;
    const ids = visitorsBySite.get(site) ?? new Set<string>();
    ids.add(event.visitor);
    if (event.previousVisitor) ids.add(event.previousVisitor);
    visitorsBySite.set(site, ids);
    const dayKey = `${site}:${dayOf(event.ts)}`;
    visitorsByDay.set(dayKey, (visitorsByDay.get(dayKey) ?? new Set<string>()).add(event.visitor));
  }
  const reads: BatchItem<"sqlite">[] = chunks(ordered.map((item) => item.key), 1).map((part) => db.select({ key: events.eventKey }).from(events).where(inArray(events.eventKey, part)));
  const visitReads = [...visitorsBySite].flatMap(([site, ids]) => {
    const [workspaceId, siteId] = site.split(":").map(Number) as [number, number];
    return chunks([...ids], 1.1).map((part) =>
      db.select().from(visits).where(and(eq(visits.workspaceId, workspaceId), eq(visits.siteId, siteId), inArray(visits.visitor, part), gte(visits.lastAt, since))),
    );
  });
  const dayReads = [...visitorsByDay].flatMap(([key, ids]) => {
    const [workspaceId, siteId, day] = key.split(":") as [string, string, string];
    return chunks([...ids], 1.1).map((part) =>
      db
        .select({ key: sql<string>`${visitorDays.workspaceId} || ':' || ${visitorDays.siteId} || ':' || ${visitorDays.day} || ':' || ${visitorDays.visitor}` })
        .from(visitorDays)
        .where(and(eq(visitorDays.workspaceId, Number(workspaceId)), eq(visitorDays.siteId, Number(siteId)), eq(visitorDays.day, day), inArray(visitorDays.visitor, part))),
    );
  });
  const results = (await db.batch([...reads, ...visitReads, ...dayReads] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  const written = new Set(results.slice(0, reads.length).flat().map((row) => (row as { key: string }).key));
  const openVisits = new Map<string, Visit>();
  for (const row of results.slice(reads.length, reads.length + visitReads.length).flat() as Visit[]) {
    const key = `${row.workspaceId}:${row.siteId}:${row.visitor}`;
    if (!openVisits.has(key) || openVisits.get(key)!.lastAt < row.lastAt) openVisits.set(key, row);
  }
  const seenDays = new Set(results.slice(reads.length + visitReads.length).flat().map((row) => (row as { key: string }).key));

  const newEvents: (typeof events.$inferInsert)[] = [];
  const touched = new Map<string, Visit>();
  const newDays: (typeof visitorDays.$inferInsert)[] = [];
  const totals = new Map<string, Totals>();
  const revenue = new Map<string, { workspaceId: number; siteId: number; day: string; currency: string; amount: number }>();
  const totalsOf = (event: AnalyticsMessage, day: string) => {
    const key = `${event.workspaceId}:${event.siteId}:${day}`;
    let entry = totals.get(key);
    if (!entry) totals.set(key, (entry = { browserVisitors: 0, visitors: 0, visits: 0, pageviews: 0, events: 0, bounces: 0, durationMs: 0 }));
    return entry;
  };

  for (const { key, event } of ordered) {
    if (written.has(key)) continue;
    const site = `${event.workspaceId}:${event.siteId}`;
    const open = (visitor: string) => {
      const visit = openVisits.get(`${site}:${visitor}`);
      return visit && event.ts - visit.lastAt <= VISIT_GAP_MS && visit.startedAt - event.ts <= VISIT_GAP_MS ? visit : undefined;
    };
    // Across midnight a browser's id changes with the salt: an open visit under yesterday's id goes on.
    const visitor = !open(event.visitor) && event.previousVisitor && open(event.previousVisitor) ? event.previousVisitor : event.visitor;
    const pageview = event.name === "pageview" ? 1 : 0;
    let visit = open(visitor);
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
      visit = { id: `${event.siteId}.${visitor}.${event.ts}`, workspaceId: event.workspaceId, siteId: event.siteId, visitor, day: dayOf(event.ts), referrer: event.referrer, startedAt: event.ts, lastAt: event.ts, pageviews: pageview, events: 1 };
      openVisits.set(`${site}:${visitor}`, visit);
      const day = totalsOf(event, visit.day);
      day.visits += 1;
      day.bounces += Number(isBounce(visit));
    }
    touched.set(visit.id, visit);

    const day = dayOf(event.ts);
    const dayKey = `${site}:${day}:${visitor}`;
    const dayTotals = totalsOf(event, day);
    if (!seenDays.has(dayKey)) {
      seenDays.add(dayKey);
      newDays.push({ workspaceId: event.workspaceId, siteId: event.siteId, day, visitor, source: event.source });
      dayTotals.visitors += 1;
      if (event.source === "browser") dayTotals.browserVisitors += 1;
    }
    dayTotals.pageviews += pageview;
    dayTotals.events += 1;
    if (event.revenue) {
      const revenueKey = `${site}:${day}:${event.revenue.currency}`;
      const entry = revenue.get(revenueKey) ?? { workspaceId: event.workspaceId, siteId: event.siteId, day, currency: event.revenue.currency, amount: 0 };
      entry.amount += event.revenue.amount;
      revenue.set(revenueKey, entry);
    }
    newEvents.push({
      eventKey: key,
      workspaceId: event.workspaceId,
      siteId: event.siteId,
      visitor,
      visitId: visit.id,
      name: event.name,
      path: event.path,
      referrer: visit.referrer,
      country: event.country,
      device: event.device,
      props: event.props ? JSON.stringify(event.props) : null,
      revenueAmount: event.revenue?.amount ?? null,
      revenueCurrency: event.revenue?.currency ?? null,
      ts: event.ts,
    });
  }
  if (newEvents.length === 0) return 0;

  const writes: BatchItem<"sqlite">[] = [];
  for (const part of insertChunks(newEvents)) writes.push(db.insert(events).values(part));
  for (const part of insertChunks([...touched.values()])) {
    writes.push(
      db
        .insert(visits)
        .values(part)
        .onConflictDoUpdate({
          target: visits.id,
          set: { startedAt: sql`excluded.started_at`, lastAt: sql`excluded.last_at`, pageviews: sql`excluded.pageviews`, events: sql`excluded.events` },
        }),
    );
  }
  for (const part of insertChunks(newDays)) writes.push(db.insert(visitorDays).values(part).onConflictDoNothing());
  const add = (column: keyof Totals) => sql`${sql.identifier(daily[column].name)} + excluded.${sql.identifier(daily[column].name)}`;
  const dailyRows = [...totals].map(([key, value]) => {
    const [workspaceId, siteId, day] = key.split(":") as [string, string, string];
    return { workspaceId: Number(workspaceId), siteId: Number(siteId), day, ...value };
  });
  for (const part of insertChunks(dailyRows)) {
    writes.push(
      db
        .insert(daily)
        .values(part)
        .onConflictDoUpdate({
          target: [daily.workspaceId, daily.siteId, daily.day],
          set: {
            browserVisitors: add("browserVisitors"),
            visitors: add("visitors"),
            visits: add("visits"),
            pageviews: add("pageviews"),
            events: add("events"),
            bounces: add("bounces"),
            durationMs: add("durationMs"),
          },
        }),
    );
  }
  for (const part of insertChunks([...revenue.values()])) {
    writes.push(
      db
        .insert(dailyRevenue)
        .values(part)
        .onConflictDoUpdate({ target: [dailyRevenue.workspaceId, dailyRevenue.siteId, dailyRevenue.day, dailyRevenue.currency], set: { amount: sql`amount + excluded.amount` } }),
    );
  }
  await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return newEvents.length;
}

/**
 * The analytics queue's consumer. Messages it cannot read are poison: they go straight to the
 * dead-letter queue (and are logged) while the rest of the batch is written; if writing fails, the
 * whole batch is retried (the written check makes a redelivery write nothing twice).
 */
export async function consumeAnalytics(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const good: { message: Message<unknown>; event: AnalyticsMessage }[] = [];
  for (const message of batch.messages) {
    const parsed = AnalyticsMessage.safeParse(message.body);
    if (parsed.success) good.push({ message, event: parsed.data });
    else {
      logError("analytics: unreadable message sent to the dead-letter queue", parsed.error, { message_id: message.id });
      await env.ANALYTICS_DLQ.send(message.body, { contentType: "json" });
      message.ack();
    }
  }
  if (good.length === 0) return;
  try {
    await ingest(
      database(env.ANALYTICS_DB),
      good.map(({ message, event }) => ({ key: message.id, event })),
    );
    for (const { message } of good) message.ack();
  } catch (error) {
    logError("analytics: writing a batch failed; it will be retried", error, { messages: good.length });
    for (const { message } of good) message.retry({ delaySeconds: 5 });
  }
}

/** The dead-letter queue's consumer: keeps each message for the operator, and logs it. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = database(env.ANALYTICS_DB);
  const now = Date.now();
  const rows = batch.messages.map((message) => ({ body: JSON.stringify(message.body).slice(0, 100_000), reason: "unreadable or undeliverable analytics event", receivedAt: now }));
  for (const part of insertChunks(rows)) await db.insert(deadLetters).values(part).run();
  console.error(JSON.stringify({ level: "error", msg: "analytics: dead letters stored", count: rows.length }));
  batch.ackAll();
}
