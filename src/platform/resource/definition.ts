import type { z } from "@hono/zod-openapi";
import { getTableColumns, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Env } from "../context";
import type { ErrorDetail } from "../errors";
import type { EventType } from "../events";
import type { Tenant } from "../tenancy";
import type { ResourceUi } from "./ui";

/** The generic routes a resource may turn off (list and get are always there). */
/** The generated routes a resource serves (all by default); `timeline` is GET /{resource}/{id}/events. */
export type RouteSet = { create?: boolean; update?: boolean; delete?: boolean; batch?: boolean; timeline?: boolean };

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

/** A body field naming a row of another resource: it must be a live row of the same workspace. */
export type Reference = {
  field: string;
  table: ResourceTable;
  /** "customer": for the message. */
  what: string;
  /** Extra condition for a usable row (e.g. not soft-deleted). */
  live?: SQL;
};

/** A state column whose moves are restricted (a deal's stage). */
export type Transition = {
  field: string;
  column: SQLiteColumn;
  /** The values the column may move to from `from` (staying put is always allowed). */
  allowed(from: string): readonly string[];
  message(from: string, to: string): string;
};

/** Fields that may change only while a state column holds one of `onlyWhen` (an invoice's items while draft). */
export type LockRule = {
  fields: readonly string[];
  column: SQLiteColumn;
  onlyWhen: readonly string[];
  message(fields: string[], current: string): string;
  /** What each locked field's detail says. */
  detail: string;
};

/** Rows that may be deleted only in some states (draft invoices). */
export type DeleteRule = { column: SQLiteColumn; onlyWhen: readonly string[]; message(current: string): string };

/** Two date fields of one row that must be in order (start ≤ end), checked on the row as it will be. */
export type OrderRule = {
  first: { field: string; column: SQLiteColumn };
  last: { field: string; column: SQLiteColumn };
};

/**
 * A rule about other rows (a daily total across entries): an SQL condition the write's statements carry,
 * and how to explain a refusal by reading the database. Resources with checks have no batch route.
 */
export type RowCheck = {
  /** Holds before a create with these values is inserted (run as a guard statement). */
  onCreate(values: Record<string, unknown>, tenant: Tenant): SQL;
  /** Holds for the row being updated with these values (part of the UPDATE's WHERE); undefined = untouched. */
  onUpdate(values: Record<string, unknown>, tenant: Tenant): SQL | undefined;
  /** The problems of the row as it would be (`id` null on create), read from the database. */
  explain(tenant: Tenant, row: Record<string, unknown>, id: number | null): Promise<ErrorDetail[]>;
  /** Its refusal is a clash with other rows (409 conflict: overlapping leave), not bad input (400 validation_error). */
  conflict?: true;
};

/**
 * An event a write fires, recorded in the outbox in the same D1 batch. `data` is the row as the API
 * shows it after the write, rendered by SQL inside the batch (see row-json.ts).
 */
export type EventRule =
  | { type: EventType; on: "create" }
  | {
      type: EventType;
      /** Fires when `field` changes (to `to`, if given). */
      on: "change";
      field: string;
      column: SQLiteColumn;
      to?: string;
      /** Also fires on a create whose `field` is `to`. */
      onCreate?: boolean;
      /** Adds `previous_attributes: {field: old value}`. */
      previous?: boolean;
    };

export type ResourceDefinition<T extends ResourceTable, Create extends object, Update extends object, Output> = {
  /** The API path and the scope name: "contacts", "job-openings". */
  name: string;
  /** "contact": used in messages and OpenAPI names. */
  singular: string;
  tags: string[];
  /** What the resource is, for its tag in the API reference. */
  description: string;
  table: T;
  schemas: { output: z.ZodType<Output>; create: z.ZodType<Create>; update: z.ZodType<Update> };
  toOutput(row: Row<T>): Output;
  /** Column values for a create; timestamps and workspace are set by the platform. */
  toInsert(input: Create, now: number, tenant: Tenant): WithSql<Omit<NewRow<T>, "createdAt" | "updatedAt">>;
  /**
   * Column values for a partial update. No row is read first: a value that depends on the current
   * row is an SQL expression over its columns (e.g. `completed_at` only when the status changes).
   */
  toUpdate(input: Update, now: number, tenant: Tenant): WithSql<Partial<NewRow<T>>>;
  /** Sort fields by their API name; `id` is always one. */
  sortable: Record<string, SQLiteColumn | SortExpression>;
  filters: Record<string, Filter>;
  /** Columns `?q=` searches (case-insensitive substring). */
  searchable: SQLiteColumn[];
  /**
   * The body field a refusal names when a write would push the workspace's total of a summed money column
   * (money_totals, kept by triggers) past 2^53 − 1 minor units: "value" for deals, "items" for invoices.
   */
  summed?: {
    field: string;
    what: string;
    /** The summed column and its currency column; `kind` names its money_totals rows ("deals.value"). */
    column: SQLiteColumn;
    currency: SQLiteColumn;
    kind: string;
  };
  /** UNIQUE constraints as SQLite names them ("contacts.email") and the body field each belongs to. */
  uniques: { constraint: string; field: string }[];
  references?: Reference[];
  transitions?: Transition[];
  locks?: LockRule[];
  deletable?: DeleteRule;
  ordered?: OrderRule[];
  checks?: RowCheck[];
  events?: EventRule[];
  /** Soft delete: DELETE sets this column; reads, lists and updates ignore such rows. */
  softDelete?: { column: SQLiteColumn; set: (now: number) => Partial<NewRow<T>> };
  /**
   * Read-only fields computed by SQL in the same statement that reads the row (correlated subqueries,
   * never a query per row), keyed by the row property `toOutput` reads.
   */
  computed?: Record<string, SQL>;
  /** How output fields that are not plain columns render in SQL (for event payloads). */
  outputSql?: Record<string, SQL>;
  /**
   * Request examples for the reference, each a request the API accepts (a test sends them). Records they
   * name are ids 1 (and 2 in a batch's delete), which the test maps onto real rows.
   */
  examples: { create: Record<string, unknown>; update: Record<string, unknown> };
  /** Which generic routes it has (all by default): list, get, create, update, delete, batch. */
  routes?: RouteSet;
  /** A sentence or two for the reference beyond what the definition says by itself (rules, side effects). */
  notes?: { create?: string; update?: string; delete?: string };
  /**
   * What a deleted row leaves outside D1 (its files in R2), removed once the delete has committed. Only
   * single deletes run it: a resource with it has no batch route.
   */
  afterDelete?(env: Env, tenant: Tenant, id: number): Promise<void>;
  /** Statements that must run before a create in its batch (e.g. a per-workspace counter). */
  beforeCreate?(tenant: Tenant, now: number): BatchItem<"sqlite">[];
  /**
   * In the workspace search (GET /search): the record's name and the columns searched with it, kept in the
   * search_index FTS5 table by triggers (scripts/search-migrations.mjs writes them). `code` (1–63) is the
   * resource's part of the index's row ids: fixed once chosen.
   */
  search?: { code: number; label: SQLiteColumn; text: SQLiteColumn[] };
  /** How it shows in the web app (its pages are generated from this definition and these hints). */
  ui?: ResourceUi;
};

/** The row property (camelCase) under which a column of the resource's table is read. */
export function columnKey(def: AnyResource, column: SQLiteColumn): string {
  const entry = Object.entries(getTableColumns(def.table)).find(([, candidate]) => candidate === column);
  if (!entry) throw new Error(`${def.name}: ${column.name} is not a column of its table`);
  return entry[0];
}

// The generic layer handles every resource through this erased shape; definitions stay fully typed.
// biome-ignore lint/suspicious/noExplicitAny: the erased shape every resource fits; definitions stay typed.
export type AnyResource = ResourceDefinition<ResourceTable, any, any, any>;
