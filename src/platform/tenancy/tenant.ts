import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { SelectedFields, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { workspaces } from "../schema";
import { type Database, rawRows } from "./database";
import { assertChanged, assertThat } from "./guards";

/** A table whose rows belong to workspaces. */
export type TenantTable = SQLiteTable & { workspaceId: SQLiteColumn };

/** Column values to write, any of which may be an SQL expression D1 evaluates (`sql\`${t.count} + 1\``). */
export type Values<T extends SQLiteTable> = { [K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | SQL };
/** An insert's values: every column but the workspace, which the tenant sets. */
export type NewValues<T extends TenantTable> = Omit<{ [K in keyof T["$inferInsert"]]: T["$inferInsert"][K] | SQL }, "workspaceId">;

/** A statement that can go in a batch. */
export type Statement = BatchItem<"sqlite">;

/** What a package adds to another's resource (see packages.ts ResourceExtension). */
export type Extension = {
  computed?: Record<string, SQL>;
  output?: Record<string, (row: Record<string, unknown>) => unknown>;
  uses?: (input: Record<string, unknown>) => boolean;
  prepare?: (input: Record<string, unknown>, tenant: Tenant) => Promise<Record<string, unknown>>;
};

/** Where the fields packages add to each other's resources are listed (the package registry). */
export type ExtensionSource = { extensionsOf(resource: string): { pkg: string; extension: Extension }[] };

/** What a tenant knows of the packages: which are off for its workspace, and what they add to resources. */
export type TenantPackages = {
  disabled: readonly string[];
  extensionsOf(resource: string): { pkg: string; extension: Extension }[];
};

/**
 * One workspace's data on one database: the only way package code reads or writes tenant rows. Every
 * query it builds carries `workspace_id = <this workspace>` (inserts set it), so scoping is how a query is
 * written rather than something to remember; there is no handle to the database behind it.
 */
export class Tenant {
  constructor(
    private readonly db: Database,
    readonly workspaceId: number,
    private readonly packages: TenantPackages = { disabled: [], extensionsOf: () => [] },
    /** Called when a statement recording an outbox event is built, so the request can dispatch it after commit. */
    private readonly onEventRecorded: () => void = () => {},
  ) {}

  isEnabled(packageName: string): boolean {
    return !this.packages.disabled.includes(packageName);
  }

  /** Fields enabled packages add to a resource. */
  extensionsOf(resource: string) {
    return this.packages.extensionsOf(resource).filter(({ pkg }) => this.isEnabled(pkg));
  }

  /** What packages that are off for this workspace would add to a resource (their input fields are refused). */
  disabledExtensionsOf(resource: string) {
    return this.packages.extensionsOf(resource).filter(({ pkg }) => !this.isEnabled(pkg));
  }

  /** Marks that the request recorded an outbox event (dispatched once it has answered). */
  eventRecorded(): void {
    this.onEventRecorded();
  }

  /** `"table"."workspace_id" = <this workspace>` AND the given conditions: also for joined tables and raw SQL. */
  scope(table: TenantTable, ...conditions: (SQL | undefined)[]): SQL {
    return and(eq(table.workspaceId, this.workspaceId), ...conditions)!;
  }

  /**
   * The workspace as a full-text term (`w42`): a full-text table indexes it in a column of its own, and a
   * MATCH on that column finds this workspace's rows only (see src/search).
   */
  fullTextTerm(): string {
    return `w${this.workspaceId}`;
  }

  /** `"workspaces"."id" = <this workspace>`: the workspace's own row in the directory (its plan, its packages). */
  own(...conditions: (SQL | undefined)[]): SQL {
    return and(eq(workspaces.id, this.workspaceId), ...conditions)!;
  }

  /** UPDATE the workspace's own row (the directory). */
  updateOwn(values: Values<typeof workspaces>, ...conditions: (SQL | undefined)[]) {
    return this.db
      .update(workspaces)
      .set(values as never)
      .where(this.own(...conditions));
  }

  /** SELECT <fields> of the workspace's own row. */
  selectOwn<F extends SelectedFields>(fields: F) {
    return this.db.select(fields).from(workspaces).where(this.own());
  }

  /** SELECT * FROM table WHERE <scope> AND …; order, group and limit may follow. */
  select<T extends TenantTable>(table: T, ...conditions: (SQL | undefined)[]) {
    return this.db
      .select()
      .from(table)
      .where(this.scope(table, ...conditions));
  }

  /** SELECT <fields> FROM table WHERE <scope> AND … (aggregates, computed fields); group, order and limit may follow. */
  selectFrom<F extends SelectedFields, T extends TenantTable>(fields: F, table: T, ...conditions: (SQL | undefined)[]) {
    return this.db
      .select(fields)
      .from(table)
      .where(this.scope(table, ...conditions));
  }

  insert<T extends TenantTable>(table: T, values: NewValues<T>) {
    return this.db.insert(table).values({ ...values, workspaceId: this.workspaceId } as never);
  }

  insertMany<T extends TenantTable>(table: T, rows: NewValues<T>[]) {
    return this.db.insert(table).values(rows.map((values) => ({ ...values, workspaceId: this.workspaceId })) as never);
  }

  /** INSERT INTO table SELECT …: `select` names `this.workspaceId` as the workspace column's value and scopes what it reads. */
  insertSelect<T extends TenantTable>(table: T, select: SQL) {
    return this.db.insert(table).select(select);
  }

  update<T extends TenantTable>(table: T, values: Values<T>, ...conditions: (SQL | undefined)[]) {
    return this.db
      .update(table)
      .set(values as never)
      .where(this.scope(table, ...conditions));
  }

  delete<T extends TenantTable>(table: T, ...conditions: (SQL | undefined)[]) {
    return this.db.delete(table).where(this.scope(table, ...conditions));
  }

  /** Rows of raw SQL (CTEs, window functions, json_each): it scopes every table it reads with `scope(table)`. */
  rows<T>(query: SQL) {
    return rawRows<T>(this.db, query);
  }

  /** Aborts the batch unless the statement before it changed a row (see guards.ts). */
  assertChanged(reason: string) {
    return assertChanged(this.db, reason);
  }

  /** Aborts the batch unless `condition` holds when it runs. */
  assertThat(condition: SQL, reason: string) {
    return assertThat(this.db, condition, reason);
  }

  /** Statements in one D1 batch: one round trip, one transaction. */
  batch<T extends readonly [Statement, ...Statement[]]>(statements: T): Promise<BatchResponse<T>> {
    return this.db.batch(statements as unknown as [Statement, ...Statement[]]) as Promise<BatchResponse<T>>;
  }

  /**
   * A prepared lookup by id on `table` for this database, built once and kept under `key`: the hottest query
   * (a by-id read) costs no SQL building per request.
   */
  byId<F extends SelectedFields, T extends TenantTable & { id: SQLiteColumn }>(key: string, fields: F, table: T, ...conditions: (SQL | undefined)[]) {
    let queries = prepared.get(this.db);
    if (!queries) {
      queries = new Map();
      prepared.set(this.db, queries);
    }
    let query = queries.get(key);
    if (!query) {
      query = this.db
        .select(fields)
        .from(table)
        .where(and(eq(table.workspaceId, sql.placeholder("workspace")), eq(table.id, sql.placeholder("id")), ...conditions))
        .prepare();
      queries.set(key, query);
    }
    const ready = query;
    return (id: number) => ready.get({ workspace: this.workspaceId, id });
  }
}

type Prepared = { get(values: { workspace: number; id: number }): Promise<unknown> };
// Prepared statements per drizzle handle (one per binding): pure functions of their SQL, built once.
const prepared = new WeakMap<Database, Map<string, Prepared>>();
