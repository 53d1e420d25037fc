import type { Env } from "../context";
import { ApiError } from "../errors";
import { HOLD_LIMIT_MS, isHeld } from "./hold";
import { shardDatabase, shardNames } from "./shards";

/**
 * Moving one workspace to another shard, in steps an operator's script drives (`npm run shard:move`):
 * copy → hold (writes refused) → prune and catch-up copy → switch (verified) → cleanup. Each step is
 * bounded (a page of rows), runs in the worker next to the databases, and checks the directory's state
 * first, so a step sent twice or out of order does nothing harmful. The operator routes (src/ops/) call
 * these steps; this module is the only code that copies a workspace's rows between databases.
 */

/** A business table as the move sees it: its key, and how a catch-up finds the rows changed since a time. */
type MovedTable = { name: string; columns: string[]; key: string[]; rollup: boolean; changedSince: string | null };

const ROWS_PER_STEP = 500;
/** Constraint errors a first copy (taken while writes go on) may meet and the catch-up repairs. */
const SKIPPABLE = /FOREIGN KEY|UNIQUE constraint/i;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The shard's business tables (those with workspace_id outside the directory), parents before children.
 * Rollups that triggers maintain are not copied: the copy's inserts rebuild them on the target.
 */
async function describeTables(d1: D1Database, directoryTables: readonly string[]): Promise<MovedTable[]> {
  const [tables, columns, triggers] = await d1.batch<Record<string, string | number>>([
    d1.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'"),
    d1.prepare(
      "SELECT m.name AS tbl, c.name, c.pk FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%'",
    ),
    d1.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger'"),
  ]);
  const columnsOf = (table: string) => columns!.results.filter((column) => column.tbl === table);
  const business = tables!.results
    .map((row) => String(row.name))
    .filter((name) => !directoryTables.includes(name) && columnsOf(name).some((column) => column.name === "workspace_id"));
  const rollups = new Set(triggers!.results.flatMap((row) => [...String(row.sql).matchAll(/(?:INSERT INTO|UPDATE)\s+[`"]?(\w+)/gi)].map((match) => match[1]!)));
  // D1 does not allow pragma_foreign_key_list(): references are read from each table's definition.
  const parents = new Map(
    tables!.results.map((row) => [String(row.name), [...String(row.sql).matchAll(/REFERENCES\s+[`"]?(\w+)/gi)].map((match) => match[1]!)]),
  );
  const ordered: string[] = [];
  const visit = (table: string, path = new Set<string>()) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const parent of parents.get(table) ?? []) if (parent !== table && business.includes(parent)) visit(parent, path);
    ordered.push(table);
  };
  for (const table of business) visit(table);
  return ordered.map((name) => {
    const cols = columnsOf(name);
    const has = (column: string) => cols.some((c) => c.name === column);
    return {
      name,
      columns: cols.map((column) => String(column.name)),
      key: cols
        .filter((column) => Number(column.pk) > 0)
        .sort((a, b) => Number(a.pk) - Number(b.pk))
        .map((column) => String(column.name)),
      rollup: rollups.has(name),
      // Rows changed since a time: by updated_at where every write sets it; the outbox by its own clocks;
      // small tables whose writes do not all set updated_at (endpoints, counters, keys) are copied whole.
      changedSince:
        name === "events"
          ? "(created_at >= ?2 OR enqueued_at >= ?2)"
          : name === "assistant_messages"
            ? "created_at >= ?2"
            : has("updated_at") && name !== "webhook_endpoints"
              ? "updated_at >= ?2"
              : null,
    };
  });
}

type Workspace = { id: number; shard: string; moving_since: number | null };

async function workspaceOf(env: Env, id: number): Promise<Workspace> {
  const row = await env.DB.prepare("SELECT id, shard, moving_since FROM workspaces WHERE id = ?").bind(id).first<Workspace>();
  if (!row) throw new ApiError("not_found", `No workspace ${id}`);
  return row;
}

const conflict = (message: string) => new ApiError("conflict", message);

function tableOf(tables: MovedTable[], name: string): MovedTable {
  const table = tables.find((candidate) => candidate.name === name);
  if (!table) throw ApiError.validation([{ path: "table", message: `must be one of ${tables.map((t) => t.name).join(", ")}` }]);
  return table;
}

/** Upserts, never REPLACE (which would skip the rollups' delete triggers), only over a row of the same workspace. */
function upsert(d1: D1Database, table: MovedTable, row: Record<string, unknown>): D1PreparedStatement {
  const updates = table.columns.filter((column) => !table.key.includes(column)).map((column) => `${quote(column)} = excluded.${quote(column)}`);
  const conflictClause =
    updates.length > 0 ? `DO UPDATE SET ${updates.join(", ")} WHERE ${quote(table.name)}.workspace_id = excluded.workspace_id` : "DO NOTHING";
  return d1
    .prepare(
      `INSERT INTO ${quote(table.name)} (${table.columns.map(quote).join(", ")}) VALUES (${table.columns.map(() => "?").join(", ")}) ON CONFLICT (${table.key.map(quote).join(", ")}) ${conflictClause}`,
    )
    .bind(...table.columns.map((column) => row[column] ?? null));
}

const keyOf = (table: MovedTable, row: Record<string, unknown>) => JSON.stringify(table.key.map((column) => row[column]));

const VERIFY_PAGE = 1000;

/**
 * Tables whose rows of the workspace differ between the source and the target: every column of every
 * row, compared page by page in key order; for rollups, their non-zero rows (the target's triggers
 * rebuilt them, so only their values must agree).
 */
async function differences(source: D1Database, target: D1Database, tables: MovedTable[], workspaceId: number): Promise<string[]> {
  const unequal: string[] = [];
  for (const table of tables) {
    const order = table.key.map(quote).join(", ");
    const nonZero = table.rollup
      ? `AND NOT (${table.columns
          .filter((column) => !table.key.includes(column))
          .map((column) => `${quote(column)} = 0`)
          .join(" AND ")})`
      : "";
    const columns = table.columns.map(quote).join(", ");
    for (let offset = 0; ; offset += VERIFY_PAGE) {
      const page = (d1: D1Database) =>
        d1
          .prepare(`SELECT ${columns} FROM ${quote(table.name)} WHERE workspace_id = ? ${nonZero} ORDER BY ${order} LIMIT ${VERIFY_PAGE} OFFSET ${offset}`)
          .bind(workspaceId)
          .raw();
      const [a, b] = await Promise.all([page(source), page(target)]);
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        unequal.push(table.name);
        break;
      }
      if (a.length < VERIFY_PAGE) break;
    }
  }
  return unequal;
}

/**
 * Deletes up to a page of the workspace's rows from a database, children first (a table is reached only
 * once the ones before it are empty); 0 when none are left.
 */
async function deletePage(d1: D1Database, tables: MovedTable[], workspaceId: number): Promise<number> {
  let deleted = 0;
  for (const table of [...tables].reverse()) {
    const result = await d1
      .prepare(`DELETE FROM ${quote(table.name)} WHERE rowid IN (SELECT rowid FROM ${quote(table.name)} WHERE workspace_id = ? LIMIT ${ROWS_PER_STEP})`)
      .bind(workspaceId)
      .run();
    deleted += result.meta.changes;
    if (deleted >= ROWS_PER_STEP) break;
  }
  return deleted;
}

/** What a step is asked to do: the target shard, and for copies and prunes a table and where to go on. */
export type MoveStep = { to: string; table?: string; after?: number; since?: number; held_since?: number };

/** A step's context: the workspace as the directory has it now, the target database, and which tables are the directory's. */
type Move = { env: Env; workspace: Workspace; step: MoveStep; target: D1Database; directoryTables: readonly string[] };

/** Reads the workspace and checks the target before any step runs. */
export async function startStep(env: Env, workspaceId: number, step: MoveStep, directoryTables: readonly string[]): Promise<Move> {
  if (!shardNames(env).includes(step.to))
    throw ApiError.validation([{ path: "to", message: `must be a shard of this deployment (${shardNames(env).join(", ")})` }]);
  return { env, workspace: await workspaceOf(env, workspaceId), step, target: shardDatabase(env, step.to), directoryTables };
}

/** The move's steps, each answering what the operator's script needs next. */
export const moveSteps = {
  /** The plan: where the workspace is, and the tables to copy in order. */
  plan: async (move: Move) => {
    const { env, workspace, step, directoryTables } = move;
    if (workspace.shard === step.to) throw conflict(`Workspace ${workspace.id} is already on ${step.to}`);
    const tables = await describeTables(shardDatabase(env, workspace.shard), directoryTables);
    // `now` is the worker's clock: the script's catch-up counts changes from it, not from its own.
    return {
      workspace_id: workspace.id,
      from: workspace.shard,
      to: step.to,
      moving: isHeld(workspace.moving_since, Date.now()),
      now: Date.now(),
      tables: tables.map((table) => table.name),
    };
  },
  /** One page of one table's rows (or of those changed since `since`) to the target, by rowid from `after`. */
  copy: async (move: Move) => {
    const { env, workspace, step, target, directoryTables } = move;
    if (workspace.shard === step.to) throw conflict("The workspace has already been switched to the target");
    const source = shardDatabase(env, workspace.shard);
    const table = tableOf(await describeTables(source, directoryTables), step.table ?? "");
    if (table.rollup) return { copied: 0, next: null };
    const changed = step.since !== undefined && table.changedSince ? `AND ${table.changedSince}` : "";
    const rows = await source
      .prepare(`SELECT rowid AS __rowid, * FROM ${quote(table.name)} WHERE workspace_id = ?1 ${changed} AND rowid > ?3 ORDER BY rowid LIMIT ${ROWS_PER_STEP}`)
      .bind(workspace.id, step.since ?? 0, step.after ?? 0)
      .all<Record<string, unknown>>();
    let skipped = 0;
    if (rows.results.length > 0) {
      try {
        await target.batch(rows.results.map((row) => upsert(target, table, row)));
      } catch (error) {
        if (!SKIPPABLE.test(String(error))) throw error;
        // Writes go on during the first copy: a row may refer to one created after its table was copied,
        // or take a unique value (an e-mail) from a row deleted since. It changed after the copy began,
        // so the catch-up (which prunes first) brings it; skip it now.
        for (const row of rows.results) {
          await upsert(target, table, row)
            .run()
            .catch((rowError: unknown) => {
              if (!SKIPPABLE.test(String(rowError))) throw rowError;
              skipped++;
            });
        }
      }
    }
    const last = rows.results.at(-1);
    return { copied: rows.results.length - skipped, skipped, next: rows.results.length === ROWS_PER_STEP && last ? Number(last.__rowid) : null };
  },
  /** Refuse the workspace's writes from now on (isolates see it within the token cache's 5 s), for at most HOLD_LIMIT_MS. */
  hold: async (move: Move) => {
    const { env, workspace, step } = move;
    if (workspace.shard === step.to) throw conflict("The workspace has already been switched to the target");
    const now = Date.now();
    const held = await env.DB.prepare(
      "UPDATE workspaces SET moving_since = CASE WHEN moving_since > ?1 THEN moving_since ELSE ?2 END WHERE id = ?3 AND shard = ?4 RETURNING moving_since",
    )
      .bind(now - HOLD_LIMIT_MS, now, workspace.id, workspace.shard)
      .first<{ moving_since: number }>();
    if (!held) throw conflict("The workspace changed shards meanwhile");
    return { held: true, held_since: held.moving_since, expires_at: held.moving_since + HOLD_LIMIT_MS };
  },
  /** Delete from the target the rows of one table that are gone from the source (held workspaces only). */
  prune: async (move: Move) => {
    const { env, workspace, step, target, directoryTables } = move;
    if (!isHeld(workspace.moving_since, Date.now()) || workspace.shard === step.to) throw conflict("Prune runs while the workspace is held, before the switch");
    const source = shardDatabase(env, workspace.shard);
    const table = tableOf(await describeTables(source, directoryTables), step.table ?? "");
    if (table.rollup) return { deleted: 0 };
    const keys = `SELECT ${table.key.map(quote).join(", ")} FROM ${quote(table.name)} WHERE workspace_id = ?`;
    const [kept, present] = await Promise.all([source, target].map((d1) => d1.prepare(keys).bind(workspace.id).all<Record<string, unknown>>()));
    const keep = new Set(kept!.results.map((row) => keyOf(table, row)));
    const gone = present!.results.filter((row) => !keep.has(keyOf(table, row)));
    const match = table.key.map((column) => `${quote(column)} = ?`).join(" AND ");
    for (let i = 0; i < gone.length; i += ROWS_PER_STEP) {
      await target.batch(
        gone
          .slice(i, i + ROWS_PER_STEP)
          .map((row) =>
            target
              .prepare(`DELETE FROM ${quote(table.name)} WHERE workspace_id = ? AND ${match}`)
              .bind(workspace.id, ...table.key.map((column) => row[column] ?? null)),
          ),
      );
    }
    return { deleted: gone.length };
  },
  /**
   * Verify the copy, then point the directory at the target and take writes again — or refuse with the
   * tables that differ. Only the hold this move took (`held_since`), and only while it has not lapsed.
   */
  switch: async (move: Move) => {
    const { env, workspace, step, target, directoryTables } = move;
    if (workspace.shard === step.to) return { switched: true, from: null };
    if (!isHeld(workspace.moving_since, Date.now())) throw conflict("The workspace is not held (or its hold lapsed): hold it and catch up before switching");
    if (step.held_since !== undefined && step.held_since !== workspace.moving_since) throw conflict("The workspace is held by another move");
    const source = shardDatabase(env, workspace.shard);
    const unequal = await differences(source, target, await describeTables(source, directoryTables), workspace.id);
    if (unequal.length > 0) {
      throw new ApiError("conflict", `The copy differs from the source in ${unequal.join(", ")}; catch up again or abort`, {
        details: unequal.map((table) => ({ path: table, message: "differs" })),
      });
    }
    const switched = await env.DB.prepare("UPDATE workspaces SET shard = ?1, moving_since = NULL WHERE id = ?2 AND shard = ?3 AND moving_since = ?4")
      .bind(step.to, workspace.id, workspace.shard, workspace.moving_since)
      .run();
    if (switched.meta.changes !== 1) throw conflict("The workspace's hold changed during the switch (an abort?); nothing was switched");
    return { switched: true, from: workspace.shard };
  },
  /**
   * After the switch: delete up to a page of the workspace's rows from a shard it no longer lives on
   * (`to` names that old shard here), children first; the script repeats until nothing is left.
   */
  cleanup: async (move: Move) => {
    const { workspace, step, target: old, directoryTables } = move;
    if (workspace.shard === step.to || workspace.moving_since !== null)
      throw conflict("Cleanup deletes from a shard the workspace has been switched away from");
    const deleted = await deletePage(old, await describeTables(old, directoryTables), workspace.id);
    return { deleted, done: deleted === 0 };
  },
  /**
   * Before the switch: release the hold (writes resume on the source at once), then drop up to a page of
   * the copy from the target per call, children first; repeat until `done`. Refused once switched.
   */
  abort: async (move: Move) => {
    const { env, workspace, step, target, directoryTables } = move;
    const released = await env.DB.prepare("UPDATE workspaces SET moving_since = NULL WHERE id = ?1 AND shard <> ?2").bind(workspace.id, step.to).run();
    if (released.meta.changes !== 1) throw conflict("The workspace has already been switched to the target; move it back instead");
    const deleted = await deletePage(target, await describeTables(shardDatabase(env, workspace.shard), directoryTables), workspace.id);
    return { aborted: true, deleted, done: deleted === 0 };
  },
};
