import { z } from "@hono/zod-openapi";
import { desc, lt, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { HmacKey } from "../config";
import { DEFAULT_LIMIT, decodeCursor, encodeCursor, MAX_LIMIT } from "../pagination";
import type { Tenant } from "../tenancy";

/** A page's meta: its size, whether there is more, the cursor to it, and the total when asked for. */
export type ListMeta = { limit: number; has_more: boolean; next_cursor: string | null; total?: number };

/** `?limit` and `?cursor` for the lists that are only paged, newest first (users, tokens, webhooks). */
export const pageQueryShape = {
  limit: z
    .string()
    .regex(/^\d{1,4}$/, "must be an integer from 1 to 100")
    .transform(Number)
    .pipe(z.number().min(1, "must be at least 1").max(MAX_LIMIT, `must be at most ${MAX_LIMIT}`))
    .optional()
    .openapi({ type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `Page size, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})` }),
  cursor: z
    .string()
    .min(1, "must not be empty: leave cursor out for the first page")
    .max(1000)
    .optional()
    .openapi({ description: "meta.next_cursor of the previous page; leave it out for the first page (an empty cursor is refused)" }),
};
export const PageQuery = z.strictObject(pageQueryShape);

type PagedTable = SQLiteTable & { id: SQLiteColumn; workspaceId: SQLiteColumn };

/**
 * One page by id, newest first, keyset on id with a signed cursor bound to `list` (the list's name and
 * anything that changes its contents, such as a filter).
 */
export async function idPage<T extends PagedTable>(
  tenant: Tenant,
  table: T,
  list: string,
  query: { limit?: number; cursor?: string },
  conditions: (SQL | undefined)[],
  cursorKey: HmacKey,
): Promise<{ rows: T["$inferSelect"][]; meta: ListMeta }> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const binding = { r: list, w: tenant.workspaceId, s: "-id" };
  const after = query.cursor ? (await decodeCursor(query.cursor, binding, cursorKey)).i : undefined;
  const rows = (await tenant
    .select(table, ...conditions, after !== undefined ? lt(table.id, after) : undefined)
    .orderBy(desc(table.id))
    .limit(limit + 1)) as T["$inferSelect"][];
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1) as { id: number } | undefined;
  const nextCursor = hasMore && last ? await encodeCursor({ ...binding, v: null, i: last.id }, cursorKey) : null;
  return { rows: page, meta: { limit, has_more: hasMore, next_cursor: nextCursor } };
}
