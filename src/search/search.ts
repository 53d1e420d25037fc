import { type SQL, sql } from "drizzle-orm";
import type { Tenant } from "../platform/tenancy";
import { SEARCH_TABLE } from "./index-sql";

export type Hit = { resource: string; id: number; label: string; snippet: string };

/**
 * The query's words as FTS5 terms: each quoted (so nothing typed is query syntax), all required; the last
 * word is a prefix (the user may still be typing it), the others are whole words — which lets FTS5 walk the
 * posting lists with seeks instead of merging every word that starts alike.
 */
export function termsOf(text: string, everyWordAPrefix = false): string | null {
  const words = (text.normalize("NFKC").match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
  if (words.length === 0) return null;
  // A one-character prefix would merge half the index: a single character is a whole word.
  const prefix = (word: string, i: number) => word.length > 1 && (everyWordAPrefix || i === words.length - 1);
  return words.map((word, i) => `"${word.replaceAll('"', '""')}"${prefix(word, i) ? "*" : ""}`).join(" AND ");
}

/** `ws : "w42" AND <columns> : (<terms>)`: the words in those columns, in this workspace only. */
export function matchExpression(tenant: Tenant, columns: "label" | "{label body}", text: string, everyWordAPrefix = false): string | null {
  const terms = termsOf(text, everyWordAPrefix);
  return terms ? `ws : "${tenant.fullTextTerm()}" AND ${columns} : (${terms})` : null;
}

type Row = { resource: string; id: number; label: string; snippet: string };

function matches(tenant: Tenant, match: string, resources: string[], limit: number) {
  const table = sql.identifier(SEARCH_TABLE);
  const allowed: SQL = sql.join(
    resources.map((resource) => sql`${resource}`),
    sql`, `,
  );
  // Newest first (row ids grow with record ids), so FTS5 stops at the limit instead of ranking every match.
  return tenant.rows<Row>(
    sql`SELECT resource, record_id AS id, label, snippet(${table}, 4, char(2), char(3), '…', 12) AS snippet
        FROM ${table} WHERE ${table} MATCH ${match} AND resource IN (${allowed})
        ORDER BY rowid DESC LIMIT ${limit}`,
  );
}

/**
 * The best matches among `resources`: records whose name holds every word first (a name that is the query
 * before the others), then records that hold them in their other fields — newest first within each; both
 * read in one D1 round trip. Only when that finds nothing are the earlier words read as prefixes too ("zen
 * quart"), which costs more on a large workspace and so is the second try.
 */
export async function search(tenant: Tenant, text: string, resources: string[], limit: number): Promise<Hit[]> {
  if (resources.length === 0) return [];
  const first = await searchOnce(tenant, text, resources, limit, false);
  return first.length > 0 || !/[\p{L}\p{N}]+[^\p{L}\p{N}]+[\p{L}\p{N}]/u.test(text) ? first : searchOnce(tenant, text, resources, limit, true);
}

async function searchOnce(tenant: Tenant, text: string, resources: string[], limit: number, everyWordAPrefix: boolean): Promise<Hit[]> {
  const inLabel = matchExpression(tenant, "label", text, everyWordAPrefix);
  const anywhere = matchExpression(tenant, "{label body}", text, everyWordAPrefix);
  if (!inLabel || !anywhere) return [];
  const [named, found] = await tenant.batch([matches(tenant, inLabel, resources, limit), matches(tenant, anywhere, resources, limit)]);
  const query = text.trim().toLowerCase();
  const seen = new Set<string>();
  const hits: Hit[] = [];
  const byName = [...named].sort((a, b) => Number(b.label.toLowerCase() === query) - Number(a.label.toLowerCase() === query));
  for (const row of [...byName, ...found]) {
    const key = `${row.resource}:${row.id}`;
    if (seen.has(key) || hits.length >= limit) continue;
    seen.add(key);
    // The body's words around a match, when the body matched (the markers say where); else nothing.
    const snippet = row.snippet.includes("\u0002") ? row.snippet.replaceAll("\u0002", "").replaceAll("\u0003", "").trim() : "";
    hits.push({ resource: row.resource, id: Number(row.id), label: row.label, snippet });
  }
  return hits;
}
