import { and, eq, getTableName, type SQL, sql } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

export type Database = DrizzleD1Database & { $client: D1Database };

const databases = new WeakMap<D1Database, Database>();

/** One drizzle wrapper per D1 binding for the life of the isolate. */
export function database(d1: D1Database): Database {
  let db = databases.get(d1);
  if (!db) {
    db = drizzle(d1);
    databases.set(d1, db);
  }
  return db;
}

type TenantTable = SQLiteTable & { workspaceId: SQLiteColumn };

/**
 * `"table"."column"`, always qualified. Drizzle writes bare column names in a single-table select list,
 * so a correlated subquery there must name the outer row's columns with this.
 */
export function qualified(column: SQLiteColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/**
 * The workspace a request acts in. Every query on a tenant table goes through it, so the
 * `workspace_id = ?` filter is part of how a query is written rather than something to remember.
 */
export class Tenant {
  constructor(
    readonly db: Database,
    readonly workspaceId: number,
    /** Called when a statement recording an event is built, so the request can dispatch it after commit. */
    readonly onEventRecorded: () => void = () => {},
    /** Packages switched off for this workspace: their data is not read (see `isEnabled`). */
    readonly disabledPackages: readonly string[] = [],
  ) {}

  isEnabled(packageName: string): boolean {
    return !this.disabledPackages.includes(packageName);
  }

  /** `workspace_id = <this workspace>` AND the given conditions. */
  scope(table: TenantTable, ...conditions: (SQL | undefined)[]): SQL {
    return and(eq(table.workspaceId, this.workspaceId), ...conditions)!;
  }

  /** SELECT * FROM table WHERE workspace_id = ? AND …; `.where` cannot be called again on the result. */
  select<T extends TenantTable>(table: T, ...conditions: (SQL | undefined)[]) {
    return this.db
      .select()
      .from(table)
      .where(this.scope(table, ...conditions));
  }

  update<T extends TenantTable>(table: T, values: Partial<T["$inferInsert"]>, ...conditions: (SQL | undefined)[]) {
    return this.db
      .update(table)
      .set(values as never)
      .where(this.scope(table, ...conditions));
  }

  delete<T extends TenantTable>(table: T, ...conditions: (SQL | undefined)[]) {
    return this.db.delete(table).where(this.scope(table, ...conditions));
  }

  insert<T extends TenantTable>(table: T, values: Omit<T["$inferInsert"], "workspaceId">) {
    return this.db.insert(table).values({ ...values, workspaceId: this.workspaceId } as T["$inferInsert"]);
  }
}

/**
 * Raw SQL (`SELECT … WITH …`) that returns rows, usable alone or inside `db.batch`. drizzle 0.45's D1 batch
 * binds parameters through a prepared `stmt` that its raw queries lack; this gives it one.
 */
export function rawRows<T>(db: Database, query: SQL) {
  const raw = db.all<T>(query);
  const { sql: text } = raw.getQuery();
  return Object.assign(raw, { stmt: db.$client.prepare(text) });
}

/** True when the error (or its cause: drizzle wraps D1's) is a UNIQUE violation on `table.column`. */
export function isUniqueViolation(error: unknown, target: string): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("UNIQUE constraint failed") && e.message.includes(target)) return true;
  }
  return false;
}

/** True when a money_totals trigger refused a total above 2^53 − 1 (see migrations/0015). */
export function isMoneyTotalExceeded(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("money_total_exceeded")) return true;
  }
  return false;
}

export function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("FOREIGN KEY constraint failed")) return true;
  }
  return false;
}
