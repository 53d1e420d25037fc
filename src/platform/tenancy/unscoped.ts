import { and, type SQL } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import type { SelectedFields, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, rawRows } from "./database";
import type { Statement, Values } from "./tenant";

/**
 * A database without a workspace: for the few jobs that work across workspaces or before there is one —
 * resolving a token, signing up, placing a workspace, a public endpoint finding whose it is, sweeps, queue
 * consumers, the operator's moves. Reached only through `acrossWorkspaces(…)` (tenancy/index.ts), which the
 * architecture check allows in a named list of modules; everything else goes through a Tenant.
 */
export class Unscoped {
  constructor(private readonly db: Database) {}

  select<T extends SQLiteTable>(table: T, ...conditions: (SQL | undefined)[]) {
    return this.db
      .select()
      .from(table)
      .where(and(...conditions));
  }

  selectFrom<F extends SelectedFields, T extends SQLiteTable>(fields: F, table: T) {
    return this.db.select(fields).from(table);
  }

  insert<T extends SQLiteTable>(table: T, values: Values<T> | Values<T>[]) {
    return this.db.insert(table).values(values as never);
  }

  /** INSERT INTO table SELECT … (a sweep writing rows for many workspaces in one statement). */
  insertSelect<T extends SQLiteTable>(table: T, select: SQL) {
    return this.db.insert(table).select(select);
  }

  update<T extends SQLiteTable>(table: T, values: Values<T>) {
    return this.db.update(table).set(values as never);
  }

  delete<T extends SQLiteTable>(table: T) {
    return this.db.delete(table);
  }

  rows<T>(query: SQL) {
    return rawRows<T>(this.db, query);
  }

  batch<T extends readonly [Statement, ...Statement[]]>(statements: T): Promise<BatchResponse<T>> {
    return this.db.batch(statements as unknown as [Statement, ...Statement[]]) as Promise<BatchResponse<T>>;
  }

  /** A prepared statement of plain SQL with `?` parameters (the operator's table copies). */
  statement(text: string, ...values: unknown[]) {
    const prepared = this.db.$client.prepare(text);
    return values.length > 0 ? prepared.bind(...values) : prepared;
  }

  /** Plain statements in one batch (one transaction). */
  statements(list: D1PreparedStatement[]) {
    return this.db.$client.batch(list);
  }
}
