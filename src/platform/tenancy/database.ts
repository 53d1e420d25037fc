import { getTableName, type SQL, sql, Table } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/** A drizzle handle on one D1 binding. Only the tenancy module holds one (see Tenant and Unscoped). */
export type Database = DrizzleD1Database & { $client: D1Database };

// Drizzle wrappers are pure functions of their binding: one per binding for the life of the isolate, so
// prepared queries built on them are kept too.
const databases = new WeakMap<D1Database, Database>();

export function database(d1: D1Database): Database {
  let db = databases.get(d1);
  if (!db) {
    db = drizzle(d1);
    databases.set(d1, db);
  }
  return db;
}

/**
 * `"table"."column"`, always qualified. Drizzle writes bare column names in a single-table select list,
 * so a correlated subquery there must name the outer row's columns with this.
 */
export function qualified(column: SQLiteColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/**
 * `"time_entries" "te"`: a table named with drizzle's alias() as raw SQL's FROM or JOIN names it (drizzle
 * writes an alias there as its alias alone). Its columns then render as `"te"."minutes"`.
 */
export function tableAs(table: SQLiteTable): SQL {
  const symbols = (Table as unknown as { Symbol: { Name: symbol; OriginalName: symbol } }).Symbol;
  const names = table as unknown as Record<symbol, string>;
  return sql`${sql.identifier(names[symbols.OriginalName]!)} ${sql.identifier(names[symbols.Name]!)}`;
}

/**
 * Raw SQL (`SELECT … WITH …`) that returns rows, usable alone or inside a batch. drizzle 0.45's D1 batch
 * binds parameters through a prepared `stmt` that its raw queries lack; this gives it one.
 */
export function rawRows<T>(db: Database, query: SQL) {
  const raw = db.all<T>(query);
  const { sql: text } = raw.getQuery();
  return Object.assign(raw, { stmt: db.$client.prepare(text) });
}
