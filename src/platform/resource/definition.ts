import type { z } from "@hono/zod-openapi";
import { getTableColumns, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BusinessResource } from "../auth/permissions";
import type { Tenant } from "../db";
import type { ErrorDetail } from "../errors";
import type { EventType } from "../events";

/** A tenant table every resource has: id, workspace_id and timestamps. */
export type ResourceTable = SQLiteTable & {
  id: SQLiteColumn;
  workspaceId: SQLiteColumn;
  createdAt: SQLiteColumn;
  updatedAt: SQLiteColumn;
};

export type Row<T extends ResourceTable> = T["$inferSelect"];
export type NewRow<T extends ResourceTable> = Omit<T["$inferInsert"], "workspaceId">;
/** Column values, any of which may be an SQL expression evaluated by D1. */
export type WithSql<Values> = { [K in keyof Values]: Values[K] | SQL };

/** A list filter: how the query parameter parses, and the condition it becomes. */
export type Filter = {
  schema: z.ZodType<unknown, string | undefined>;
  where: (value: never) => SQL | undefined;
  description: string;
};

/** A sort key that is an expression (e.g. a nullable column with NULLs last); `value` reads it from a row. */
export type SortExpression = { sql: SQL; value(row: Record<string, unknown>): string | number };

/** An event a write fires; `data` is the resource as the API shows it. */
export type EventSpec = { type: EventType; data: object; previousAttributes?: object };

export type ResourceDefinition<T extends ResourceTable, Create extends object, Update extends object, Output> = {
  name: BusinessResource;
  /** "contact": used in messages and OpenAPI names. */
  singular: string;
  tags: string[];
  table: T;
  schemas: { output: z.ZodType<Output>; create: z.ZodType<Create>; update: z.ZodType<Update> };
  toOutput(row: Row<T>): Output;
  /** Column values for a create; timestamps and workspace are set by the platform. */
  toInsert(input: Create, now: number, tenant: Tenant): WithSql<Omit<NewRow<T>, "createdAt" | "updatedAt">>;
  /** Column values for a partial update of `existing` (null when no hook needs the current row). */
  toUpdate(input: Update, existing: Row<T> | null, now: number): Partial<NewRow<T>>;
  /** Sort fields by their API name; `id` is always one. */
  sortable: Record<string, SQLiteColumn | SortExpression>;
  filters: Record<string, Filter>;
  /** Columns `?q=` searches (case-insensitive substring). */
  searchable: SQLiteColumn[];
  /** UNIQUE constraints as SQLite names them ("contacts.email") and the body field each belongs to. */
  uniques: { constraint: string; field: string }[];
  /** Checks that need the database (references to other rows); each problem is a detail. */
  check?(tenant: Tenant, input: Partial<Create>, existing: Row<T> | null): Promise<ErrorDetail[]>;
  /** Updates whose rules depend on the current row (state machines) get it here and may throw. */
  beforeUpdate?(input: Update, existing: Row<T>): void;
  /**
   * The state column `beforeUpdate` and `events` judge (a deal's stage, a task's status): an update
   * applies only while it still holds the value they saw, so two racing updates cannot both pass a
   * rule meant for one of them; the loser gets 409 conflict.
   */
  guardColumn?: SQLiteColumn;
  /** Deletes may be refused (409) depending on the row. */
  beforeDelete?(existing: Row<T>): void;
  /** Soft delete: DELETE sets this column; reads, lists and updates ignore such rows. */
  softDelete?: { column: SQLiteColumn; set: (now: number) => Partial<NewRow<T>> };
  /** Adds computed fields to rows before output (one grouped query per page, never one per row). */
  enrich?(tenant: Tenant, rows: Row<T>[]): Promise<Row<T>[]>;
  /** Statements that must run before a create in its batch (e.g. a per-workspace counter). */
  beforeCreate?(tenant: Tenant, now: number): BatchItem<"sqlite">[];
  /**
   * Events a write fires, recorded in the outbox in the same batch. For creates `before` is null and
   * `after.id` is unknown until the INSERT runs: the platform fills `data.id` (and `fillFromRow` paths).
   */
  events?(change: { before: Row<T> | null; after: Row<T> }): EventSpec[];
  /** Fields of a create event's data read back from the inserted row (values only SQL computes). */
  fillFromRow?: Record<string, SQLiteColumn>;
};

/** The row property (camelCase) under which a column of the resource's table is read. */
export function columnKey(def: AnyResource, column: SQLiteColumn): string {
  const entry = Object.entries(getTableColumns(def.table)).find(([, candidate]) => candidate === column);
  if (!entry) throw new Error(`${def.name}: ${column.name} is not a column of its table`);
  return entry[0];
}

// The generic layer handles every resource through this erased shape; definitions stay fully typed.
export type AnyResource = ResourceDefinition<ResourceTable, any, any, any>;
