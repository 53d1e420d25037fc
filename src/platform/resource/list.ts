import { z } from "@hono/zod-openapi";
import { asc, count, desc, gte, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { HmacKey } from "../config";
import { DEFAULT_LIMIT, decodeCursor, encodeCursor } from "../pagination";
import type { Tenant } from "../tenancy";
import { type AnyResource, columnKey, type SortExpression } from "./definition";
import { type Expansion, expandable, expandQuery } from "./expand";
import { booleanParam, integerValue } from "./filters";
import { type ListMeta, pageQueryShape } from "./id-page";
import { selectRowsWith } from "./writes";

/** `?ids=4,8,15`: up to 100 ids (a page that shows references reads their names in one call). */
const idList = z
  .string()
  .transform((value) => value.split(","))
  .pipe(z.array(integerValue).min(1).max(100, "at most 100 ids"))
  .openapi({ type: "array", items: { type: "integer", minimum: 1 }, param: { style: "form", explode: false } });

const isoDateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).transform((value) => Date.parse(value));

/** The query parameters of `GET /{resource}`: paging, sort, search, created range, and the resource's filters. */
export function listQuerySchema(def: AnyResource) {
  const sortValues = Object.keys(sortFields(def)).flatMap((field) => [field, `-${field}`]) as [string, ...string[]];
  const filterShape = Object.fromEntries(
    Object.entries(def.filters).map(([name, filter]) => [name, filter.schema.optional().openapi({ description: filter.description })]),
  );
  return z.strictObject({
    ...pageQueryShape,
    sort: z
      .enum(sortValues, `must be one of ${sortValues.join(", ")}`)
      .optional()
      .openapi({ description: "Sort field; prefix - for descending (default -id)" }),
    q: z.string().trim().min(1).max(200).optional().openapi({ description: "Case-insensitive substring of the text fields" }),
    created_after: isoDateTime.optional().openapi({ description: "Created at or after this time (ISO 8601)" }),
    created_before: isoDateTime.optional().openapi({ description: "Created at or before this time (ISO 8601)" }),
    updated_after: isoDateTime
      .optional()
      .openapi({ description: "Changed at or after this time (ISO 8601): with sort=updated_at, the incremental-sync query" }),
    updated_before: isoDateTime.optional().openapi({ description: "Changed at or before this time (ISO 8601)" }),
    include_total: booleanParam().optional().openapi({ description: "Add meta.total (counted in the same D1 round trip)" }),
    ids: idList.optional().openapi({ description: "Only these records (comma list of up to 100 ids)" }),
    ...(expandable(def).length > 0 ? { expand: expandQuery(def).optional() } : {}),
    ...(def.softDelete ? { include_deleted: booleanParam().optional().openapi({ description: "Include soft-deleted rows" }) } : {}),
    ...filterShape,
  });
}

export type ListQuery = {
  limit?: number;
  cursor?: string;
  sort?: string;
  q?: string;
  created_after?: number;
  created_before?: number;
  updated_after?: number;
  updated_before?: number;
  include_total?: boolean;
  include_deleted?: boolean;
  ids?: number[];
  expand?: string[];
  [filter: string]: unknown;
};

/** The resource's sort fields plus `updated_at`, which every resource has (incremental sync). */
function sortFields(def: AnyResource): Record<string, SQLiteColumn | SortExpression> {
  return { ...def.sortable, updated_at: def.table.updatedAt };
}

/** How a sort field orders rows, and how to read its value from a row for the cursor. */
function sortKey(def: AnyResource, field: string): { sql: SQLiteColumn | SQL; value(row: Record<string, unknown>): unknown } {
  const sortable = sortFields(def)[field]!;
  if (!("value" in sortable)) {
    const key = columnKey(def, sortable);
    return { sql: sortable, value: (row) => row[key] };
  }
  return sortable;
}

/**
 * One page of a resource, by keyset on (sort column, id): every row is visited once even while rows are
 * inserted, and a page costs O(limit) through an index that starts with workspace_id. The total, when
 * asked for, is counted in the same D1 round trip.
 */
export async function listPage(
  def: AnyResource,
  tenant: Tenant,
  query: ListQuery,
  options: { cursorKey: HmacKey; extraConditions?: (SQL | undefined)[]; expansions?: Expansion[] },
) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const sort = query.sort ?? "-id";
  const descending = sort.startsWith("-");
  const field = descending ? sort.slice(1) : sort;
  const key = sortKey(def, field);
  const column = key.sql;
  const table = def.table;

  const conditions: (SQL | undefined)[] = [...(options.extraConditions ?? [])];
  if (def.softDelete && !query.include_deleted) conditions.push(isNull(def.softDelete.column));
  for (const [name, filter] of Object.entries(def.filters)) {
    if (query[name] !== undefined) conditions.push(filter.where(query[name] as never));
  }
  // One bound JSON array, not one variable per id: 100 ids plus the page's own would pass D1's 100-variable cap.
  if (query.ids !== undefined) conditions.push(sql`${table.id} IN (SELECT value FROM json_each(${JSON.stringify(query.ids)}))`);
  if (query.created_after !== undefined) conditions.push(gte(table.createdAt, query.created_after));
  if (query.created_before !== undefined) conditions.push(lte(table.createdAt, query.created_before));
  if (query.updated_after !== undefined) conditions.push(gte(table.updatedAt, query.updated_after));
  if (query.updated_before !== undefined) conditions.push(lte(table.updatedAt, query.updated_before));
  if (query.q !== undefined && def.searchable.length > 0) {
    const needle = query.q.toLowerCase();
    conditions.push(or(...def.searchable.map((searched) => sql`instr(lower(${searched}), ${needle}) > 0`)));
  }

  const binding = { r: def.name, w: tenant.workspaceId, s: sort };
  const pageConditions = [...conditions];
  if (query.cursor !== undefined) {
    const position = await decodeCursor(query.cursor, binding, options.cursorKey);
    // A row-value comparison lets SQLite seek the (workspace_id, column, id) index straight to the
    // position, so a deep page costs the same as the first one.
    const beyond = descending ? sql.raw("<") : sql.raw(">");
    pageConditions.push(
      column === table.id ? sql`${table.id} ${beyond} ${position.i}` : sql`(${column}, ${table.id}) ${beyond} (${position.v}, ${position.i})`,
    );
  }

  const order = descending ? desc : asc;
  const extra = Object.fromEntries((options.expansions ?? []).map((expansion) => [`expand_${expansion.key}`, expansion.select]));
  const pageQuery = selectRowsWith(def, tenant, extra, ...pageConditions)
    .orderBy(...(column === table.id ? [order(table.id)] : [order(column), order(table.id)]))
    .limit(limit + 1);
  let rows: Record<string, unknown>[];
  let total: number | undefined;
  if (query.include_total) {
    const countQuery = tenant.selectFrom({ total: count() }, table, ...conditions);
    const [page, counted] = await tenant.batch([pageQuery, countQuery]);
    rows = page as Record<string, unknown>[];
    total = counted[0]?.total ?? 0;
  } else {
    rows = (await pageQuery) as Record<string, unknown>[];
  }

  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  const nextCursor =
    hasMore && last ? await encodeCursor({ ...binding, v: key.value(last) as string | number | null, i: last.id as number }, options.cursorKey) : null;
  const meta: ListMeta = { limit, has_more: hasMore, next_cursor: nextCursor, ...(total !== undefined ? { total } : {}) };
  return { rows: pageRows, meta };
}
