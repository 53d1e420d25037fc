import { getTableName } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { PackageRegistry } from "../platform/packages";
import type { AnyResource } from "../platform/resource/definition";

/**
 * The workspace search index: one FTS5 table on every shard, `search_index(ws, resource, record_id, label,
 * body)`, whose rows the resources' own triggers keep current — a row per live record of each resource with
 * a `search` section, under row id `id × 64 + code`, so an update or delete finds its row without a scan.
 * `ws` holds the workspace as the term `w<id>`: a query matches within one workspace by that term.
 * This file writes the SQL (scripts/search-migrations.mjs turns it into a migration); the index's reader
 * is search.ts.
 */
export const SEARCH_TABLE = "search_index";

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

function rowOf(def: AnyResource, row: "NEW" | "OLD"): { rowid: string; values: string } {
  const search = def.search!;
  const column = (c: SQLiteColumn) => `${row}.${q(c.name)}`;
  const body = search.text.length > 0 ? search.text.map((c) => `coalesce(${column(c)}, '')`).join(" || ' ' || ") : "''";
  return {
    rowid: `${row}.id * 64 + ${search.code}`,
    values: `'w' || ${row}.workspace_id, '${def.name}', ${row}.id, coalesce(${column(search.label)}, ''), ${body}`,
  };
}

/** The triggers of one resource (dropped first, so a changed definition replaces them). */
function triggersOf(def: AnyResource): string[] {
  const table = q(getTableName(def.table));
  const name = getTableName(def.table);
  const live = (row: "NEW" | "OLD") => (def.softDelete ? `${row}.${q(def.softDelete.column.name)} IS NULL` : "1");
  const insert = rowOf(def, "NEW");
  const old = rowOf(def, "OLD");
  const watched = [...new Set([def.search!.label, ...def.search!.text, ...(def.softDelete ? [def.softDelete.column] : [])].map((c) => q(c.name)))].join(", ");
  const columns = `rowid, ws, resource, record_id, label, body`;
  return [
    `DROP TRIGGER IF EXISTS ${q(`search_${name}_insert`)}`,
    `DROP TRIGGER IF EXISTS ${q(`search_${name}_update`)}`,
    `DROP TRIGGER IF EXISTS ${q(`search_${name}_delete`)}`,
    `CREATE TRIGGER ${q(`search_${name}_insert`)} AFTER INSERT ON ${table} WHEN ${live("NEW")} BEGIN
  INSERT INTO ${SEARCH_TABLE} (${columns}) VALUES (${insert.rowid}, ${insert.values});
END`,
    `CREATE TRIGGER ${q(`search_${name}_update`)} AFTER UPDATE OF ${watched} ON ${table} BEGIN
  DELETE FROM ${SEARCH_TABLE} WHERE rowid = ${old.rowid};
  INSERT INTO ${SEARCH_TABLE} (${columns}) SELECT ${insert.rowid}, ${insert.values} WHERE ${live("NEW")};
END`,
    `CREATE TRIGGER ${q(`search_${name}_delete`)} AFTER DELETE ON ${table} BEGIN
  DELETE FROM ${SEARCH_TABLE} WHERE rowid = ${old.rowid};
END`,
    // The rows that exist already.
    `DELETE FROM ${SEARCH_TABLE} WHERE resource = '${def.name}'`,
    `INSERT INTO ${SEARCH_TABLE} (${columns}) SELECT ${rowOf(def, "NEW").rowid.replaceAll("NEW.", "")}, ${rowOf(def, "NEW").values.replaceAll("NEW.", "")} FROM ${table} WHERE ${live("NEW").replaceAll("NEW.", "")}`,
  ];
}

/** Every statement that builds the index for the resources of this build, in order. */
export function searchIndexStatements(registry: PackageRegistry): string[] {
  const searched = registry
    .definitions()
    .map(({ definition }) => definition)
    .filter((def) => def.search)
    .sort((a, b) => a.search!.code - b.search!.code);
  return [
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${SEARCH_TABLE} USING fts5(ws, resource UNINDEXED, record_id UNINDEXED, label, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`,
    ...searched.flatMap(triggersOf),
  ];
}
