import type { z } from "@hono/zod-openapi";
import type { SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BusinessResource } from "../auth/permissions";
import type { Tenant } from "../db";
import type { ErrorDetail } from "../errors";

/** A tenant table every resource has: id, workspace_id and timestamps. */
export type ResourceTable = SQLiteTable & {
  id: SQLiteColumn;
  workspaceId: SQLiteColumn;
  createdAt: SQLiteColumn;
  updatedAt: SQLiteColumn;
};

export type Row<T extends ResourceTable> = T["$inferSelect"];
export type NewRow<T extends ResourceTable> = Omit<T["$inferInsert"], "workspaceId">;

/** A list filter: how the query parameter parses, and the condition it becomes. */
export type Filter = {
  schema: z.ZodType<unknown, string | undefined>;
  where: (value: never) => SQL | undefined;
  description: string;
};

export type ResourceDefinition<T extends ResourceTable, Create extends object, Update extends object, Output> = {
  name: BusinessResource;
  /** "contact": used in messages and OpenAPI names. */
  singular: string;
  tags: string[];
  table: T;
  schemas: { output: z.ZodType<Output>; create: z.ZodType<Create>; update: z.ZodType<Update> };
  toOutput(row: Row<T>): Output;
  /** Column values for a create; timestamps and workspace are set by the platform. */
  toInsert(input: Create, now: number): Omit<NewRow<T>, "createdAt" | "updatedAt">;
  /** Column values for a partial update of `existing` (null when no hook needs the current row). */
  toUpdate(input: Update, existing: Row<T> | null, now: number): Partial<NewRow<T>>;
  /** Sort fields by their API name; `id` is always one. */
  sortable: Record<string, SQLiteColumn>;
  filters: Record<string, Filter>;
  /** Columns `?q=` searches (case-insensitive substring). */
  searchable: SQLiteColumn[];
  /** UNIQUE constraints as SQLite names them ("contacts.email") and the body field each belongs to. */
  uniques: { constraint: string; field: string }[];
  /** Checks that need the database (references to other rows); each problem is a detail. */
  check?(tenant: Tenant, input: Partial<Create>, existing: Row<T> | null): Promise<ErrorDetail[]>;
  /** Updates whose rules depend on the current row (state machines) get it here and may throw. */
  beforeUpdate?(input: Update, existing: Row<T>): void;
  /** Deletes may be refused (409) depending on the row. */
  beforeDelete?(existing: Row<T>): void;
};

// The generic layer handles every resource through this erased shape; definitions stay fully typed.
export type AnyResource = ResourceDefinition<ResourceTable, any, any, any>;
