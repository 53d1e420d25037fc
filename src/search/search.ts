import { sql } from "drizzle-orm";
import type { Tenant } from "../platform/tenancy";
import { SEARCH_TABLE } from "./index-sql";

export type Hit = { resource: string; id: number; label: string; snippet: string };

/**
 * The query as FTS5 reads it: each word of the text as a quoted prefix term (so nothing the user types is
 * query syntax), all required, in the label or the body — and the workspace's term in `ws`.
 */
export function matchExpression(tenant: Tenant, text: string): string | null {
  const words = text.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  const terms = words.slice(0, 12).map((word) => `"${word.replaceAll('"', '""')}"*`);
  return `ws : "${tenant.fullTextTerm()}" AND {label body} : (${terms.join(" AND ")})`;
}

/** The best matches among `resources`, best first: a label that is the query, then bm25 (the label weighing more than the body). */
export async function search(tenant: Tenant, text: string, resources: string[], limit: number): Promise<Hit[]> {
  const match = matchExpression(tenant, text);
  if (!match || resources.length === 0) return [];
  const table = sql.identifier(SEARCH_TABLE);
  const rows = await tenant.rows<{ resource: string; id: number; label: string; snippet: string }>(
    sql`SELECT resource, record_id AS id, label, snippet(${table}, 4, char(2), char(3), '…', 12) AS snippet
        FROM ${table}
        WHERE ${table} MATCH ${match} AND resource IN (${sql.join(
          resources.map((resource) => sql`${resource}`),
          sql`, `,
        )})
        ORDER BY lower(label) = lower(${text.trim()}) DESC, bm25(${table}, 0, 0, 0, 4, 1)
        LIMIT ${limit}`,
  );
  // The body's words around a match, when the body matched (the markers say where); else nothing.
  return rows.map((row) => ({
    resource: row.resource,
    id: Number(row.id),
    label: row.label,
    snippet: row.snippet.includes("\u0002") ? row.snippet.replaceAll("\u0002", "").replaceAll("\u0003", "").trim() : "",
  }));
}
