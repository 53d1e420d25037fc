import { and, getTableColumns, getTableName, isNotNull, like, not, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { configOf } from "./config";
import type { Sweep } from "./packages";
import { openSecret, type SealedColumn, sealSecret } from "./secrets";
import { acrossWorkspaces, everyShard } from "./tenancy";

const RESEAL_BATCH = 50;

/**
 * Cron: re-encrypts up to 50 secrets per column that were sealed with a key other than the current
 * one, so an old key can leave SIGNING_SECRETS_KEY once no row names it (the log counts what is left).
 * Each rewrite is conditional on the value read, so a concurrent rotation is never overwritten.
 */
export function resealSweep(columns: SealedColumn[]): Sweep {
  const run: Sweep["run"] = async (env, _now, worker) => {
    const keys = configOf(env).sealingKeys;
    const current = `v2:${keys[0].id}:%`;
    let resealed = 0;
    // A directory table is in DB only; a business table on every shard.
    const directoryTables = worker.registry.directoryTables();
    const places = columns.flatMap((sealed) =>
      (directoryTables.includes(getTableName(sealed.table)) ? [acrossWorkspaces(env, "directory")] : everyShard(env).map((shard) => shard.data)).map((db) => ({
        ...sealed,
        db,
      })),
    );
    for (const { table, column, key, db } of places) {
      const stale = (await db
        .selectFrom({ value: column, ...Object.fromEntries(key.map((part) => [part.name, part])) }, table)
        .where(and(isNotNull(column), not(like(column, current))))
        .limit(RESEAL_BATCH)) as Record<string, unknown>[];
      for (const row of stale) {
        const value = row.value as string;
        const next = await sealSecret(await openSecret(value, keys), keys);
        const where = and(sql`${column} = ${value}`, ...key.map((part) => sql`${part} = ${row[part.name]}`));
        await db
          .update(table, { [columnProperty(table, column)]: next })
          .where(where)
          .run();
        resealed += 1;
      }
    }
    if (resealed > 0) console.log(JSON.stringify({ level: "info", msg: "re-sealed secrets under the current key", count: resealed }));
  };
  return { name: "re-seal secrets", run };
}

function columnProperty(table: SQLiteTable, column: SQLiteColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(([, candidate]) => candidate === column);
  if (!entry) throw new Error(`${column.name} is not a column of its table`);
  return entry[0];
}
