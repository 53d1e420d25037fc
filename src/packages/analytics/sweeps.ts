import { and, eq, lt, sql } from "drizzle-orm";
import type { Env } from "../../platform/context";
import type { Sweep } from "../../platform/sweeps";
import { acrossWorkspaces } from "../../platform/tenancy";
import { deletedSites, events, salts, visitorDays, visits } from "./schema";
import { forgetOldSalts, saltCache, saltFor } from "./visitor";

/** Raw events (and visits, visitor-days) older than this are deleted; the daily rollups stay. */
export const RETENTION_DAYS = 400;
const DAY_MS = 86_400_000;
/** Rows deleted per statement, so that one sweep never holds the database for long. */
const CHUNK = 5_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Today's salt exists before the first event of the day needs it, and a salt is deleted 48 hours after
 * its day began (from then on nobody can tell whose hash a visitor id of that day was).
 */
export const rotateSalts: Sweep = {
  name: "analytics salts",
  run: async (env, now, worker) => {
    const db = acrossWorkspaces(env, "analytics");
    const cache = saltCache(worker.isolate);
    await saltFor(db, cache, dayOf(now), now, true);
    await db
      .delete(salts)
      .where(lt(salts.day, dayOf(now - DAY_MS)))
      .run();
    forgetOldSalts(cache, dayOf(now - DAY_MS));
  },
};

/**
 * Deletes raw rows past retention, oldest first. Rows are written in time order (a server event may be
 * up to a day late), so the oldest ids are the oldest rows: each statement looks at the first CHUNK rows
 * by id only, never scanning the table.
 */
export const expireRawEvents: Sweep = {
  name: "analytics retention",
  run: async (env, now) => {
    const db = acrossWorkspaces(env, "analytics");
    const cutoff = now - RETENTION_DAYS * DAY_MS;
    await db.batch([
      db.rows(sql`DELETE FROM ${events} WHERE id IN (SELECT id FROM (SELECT id, ts FROM ${events} ORDER BY id LIMIT ${CHUNK}) WHERE ts < ${cutoff})`),
      db.rows(
        sql`DELETE FROM ${visits} WHERE rowid IN (SELECT r FROM (SELECT rowid AS r, last_at FROM ${visits} ORDER BY rowid LIMIT ${CHUNK}) WHERE last_at < ${cutoff})`,
      ),
      db.rows(
        sql`DELETE FROM ${visitorDays} WHERE rowid IN (SELECT r FROM (SELECT rowid AS r, day FROM ${visitorDays} ORDER BY rowid LIMIT ${CHUNK}) WHERE day < ${dayOf(cutoff)})`,
      ),
    ]);
  },
};

/** A deleted site's raw rows, a chunk per table and run, through the (workspace, site, …) indexes; then its tombstone. */
export const purgeDeletedSites: Sweep = {
  name: "analytics deleted sites",
  run: async (env: Env) => {
    const db = acrossWorkspaces(env, "analytics");
    const tombstones = await db.select(deletedSites).limit(10);
    for (const { siteId, workspaceId } of tombstones) {
      const site = sql`workspace_id = ${workspaceId} AND site_id = ${siteId}`;
      const [removedEvents, removedVisits, removedDays] = await db.batch([
        db.rows<{ id: number }>(sql`DELETE FROM ${events} WHERE id IN (SELECT id FROM ${events} WHERE ${site} LIMIT ${CHUNK}) RETURNING id`),
        db.rows<{ id: string }>(sql`DELETE FROM ${visits} WHERE id IN (SELECT id FROM ${visits} WHERE ${site} LIMIT ${CHUNK}) RETURNING id`),
        db.rows<{ day: string }>(sql`DELETE FROM ${visitorDays} WHERE rowid IN (SELECT rowid FROM ${visitorDays} WHERE ${site} LIMIT ${CHUNK}) RETURNING day`),
      ]);
      if (removedEvents.length + removedVisits.length + removedDays.length === 0) {
        await db
          .delete(deletedSites)
          .where(and(eq(deletedSites.siteId, siteId), eq(deletedSites.workspaceId, workspaceId)))
          .run();
      }
    }
  },
};
