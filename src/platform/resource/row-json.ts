import type { z } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AnyResource } from "./definition";

/**
 * A resource row as the API shows it, rendered by SQL: the `data` of an event is written by a
 * statement in the same batch as the change, so it must be computed by D1, not by JavaScript.
 *
 * Derived from the output schema and the table: an output field named like a column is that column;
 * an integer column shown as a string is a millisecond timestamp (ISO 8601); JSON and boolean columns
 * keep their types; anything else comes from the definition's `outputSql`. A test checks the result
 * equals `toOutput` for every resource that fires events.
 */
export function rowJson(def: AnyResource): SQL {
  let cached = rendered.get(def);
  if (!cached) {
    cached = render(def);
    rendered.set(def, cached);
  }
  return cached;
}

const rendered = new WeakMap<AnyResource, SQL>();

type ZodDef = { type: string; innerType?: { _zod: { def: ZodDef } } };

function isStringField(schema: z.ZodType): boolean {
  let def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  while ((def.type === "nullable" || def.type === "optional") && def.innerType) def = def.innerType._zod.def;
  return def.type === "string";
}

function columnSql(column: SQLiteColumn, shownAsString: boolean): SQL {
  switch (column.columnType) {
    case "SQLiteTextJson":
      return sql`json(${column})`;
    case "SQLiteBoolean":
      return sql`CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} THEN json('true') ELSE json('false') END`;
    case "SQLiteInteger":
      return shownAsString ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')` : sql`${column}`;
    default:
      return sql`${column}`;
  }
}

// D1 allows 32 arguments per SQL function: 16 pairs in json_object, then 15 more per json_insert.
const FIRST_PAIRS = 16;
const MORE_PAIRS = 15;

function render(def: AnyResource): SQL {
  const shape = (def.schemas.output as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
  const columns = Object.values(getTableColumns(def.table)) as SQLiteColumn[];
  const pairs = Object.entries(shape).map(([key, schema]) => {
    const override = def.outputSql?.[key];
    if (override) return { key, value: override };
    const column = columns.find((candidate) => candidate.name === key);
    if (!column) throw new Error(`${def.name}: output field ${key} is neither a column nor in outputSql`);
    return { key, value: columnSql(column, isStringField(schema)) };
  });
  const pairSql = (list: typeof pairs) =>
    sql.join(
      list.map(({ key, value }) => sql`${sql.raw(`'${key}'`)}, ${value}`),
      sql`, `,
    );
  let json = sql`json_object(${pairSql(pairs.slice(0, FIRST_PAIRS))})`;
  for (let i = FIRST_PAIRS; i < pairs.length; i += MORE_PAIRS) {
    const more = pairs.slice(i, i + MORE_PAIRS).map(({ key, value }) => sql`${sql.raw(`'$.${key}'`)}, ${value}`);
    json = sql`json_insert(${json}, ${sql.join(more, sql`, `)})`;
  }
  return json;
}
