import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../../../platform/context";
import type { ApiErrorBody } from "../../../platform/dispatch";
import type { PackageRegistry } from "../../../platform/packages";
import type { AnyResource } from "../../../platform/resource/definition";
import { tenantOf } from "../../../platform/tenancy";
import type { Answer } from "./execute";
import type { ResourceModel } from "./model";
import type { Condition, Query } from "./query";
import { categoricalFields, type Values } from "./values";

/**
 * Counts, sums, averages, minimums and maximums, grouped or not, computed by D1 in one statement instead of
 * reading every row through the list route: "top 5 customers by outstanding" over 10,000 invoices is one
 * GROUP BY. The conditions are the list route's own filters (their SQL) and the definition's columns and
 * output expressions, scoped to the workspace by the tenancy module. Whether the caller may read the
 * resource at all is the list route's own gate (roles, token scopes, packages), checked without a query.
 * Null when a condition or field is not a column of the table (the rows are read instead).
 */
export type Aggregator = (R: ResourceModel, query: Query) => Promise<Answer | { refused: ApiErrorBody } | null>;

const DAY = 86_400_000;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Why the caller may not list a resource (the list route's own gate), or null: see platform/resource/readable. */
export type MayList = (resource: string) => ApiErrorBody | null;

export function sqlAggregator(c: Context<AppEnv>, registry: PackageRegistry, mayList: MayList): Aggregator {
  return async (R, query) => {
    const def = registry.definitions().find(({ definition }) => definition.name === R.name)?.definition;
    const { fn, field, groupBy } = query.aggregate;
    if (!def || fn === "list") return null;
    const expr = (name: string) => expressionOf(def, name);
    const where: SQL[] = [];
    for (const condition of query.conditions) {
      const part = conditionSql(def, R, condition);
      if (!part) return null;
      where.push(part);
    }
    if (query.subject) {
      if (query.subject.resource !== R.name) return null;
      where.push(sql`${def.table.id} = ${query.subject.id}`);
    }
    if (query.period) {
      const column = expr(query.period.field);
      if (!column) return null;
      where.push(
        R.fields.get(query.period.field)?.kind === "datetime"
          ? sql`${column} >= ${dayMs(query.period.from)} AND ${column} < ${dayMs(query.period.to) + DAY}`
          : sql`${column} BETWEEN ${query.period.from} AND ${query.period.to}`,
      );
    }
    if (def.softDelete) where.push(sql`${def.softDelete.column} IS NULL`);
    const model = field ? R.fields.get(field) : undefined;
    const value = fn === "count" ? sql`count(*)` : field ? expr(field) : null;
    if (!value) return null;
    const group = groupBy ? expr(groupBy) : sql`NULL`;
    if (!group) return null;
    const money = model?.kind === "money" && fn !== "count";
    const currency = money ? expr(model.currencyField ?? "currency") : sql`NULL`;
    if (!currency) return null;
    const aggregate = sql.raw(fn);
    const tenant = tenantOf(c);
    // A reference's name in the same statement ("Initech" for customer 3): no second call for the labels.
    const target = groupBy ? R.fields.get(groupBy)?.target : undefined;
    const targetDef = target ? registry.definitions().find(({ definition }) => definition.name === target)?.definition : undefined;
    const targetName = targetDef?.ui?.title ? expressionOf(targetDef, targetDef.ui.title) : null;
    const label =
      targetDef && targetName
        ? sql`(SELECT ${targetName} FROM ${targetDef.table} WHERE ${tenant.scope(targetDef.table, sql`${targetDef.table.id} = ${group}`)})`
        : sql`NULL`;
    const statement = sql`SELECT ${group} AS g, ${currency} AS cur, ${fn === "count" ? value : sql`${aggregate}(${value})`} AS v, ${label} AS label
      FROM ${def.table} WHERE ${tenant.scope(def.table, ...where)} GROUP BY g, cur`;
    // A role, scope or package that may not list this resource refuses as its list route would; the names
    // of another resource are shown only to a caller who may list it.
    const refused = mayList(R.name);
    if (refused) return { refused };
    const rows = await tenant.rows<{ g: unknown; cur: string | null; v: number | string | null; label: string | null }>(statement);
    if (target && mayList(target)) for (const row of rows) row.label = null;
    const kind = model?.kind;
    const shape = (entries: typeof rows) => {
      if (fn === "count") return entries.reduce((sum, row) => sum + Number(row.v ?? 0), 0);
      if (money) {
        const out: Record<string, number> = {};
        for (const row of entries) if (row.v !== null && row.cur) out[row.cur] = Math.round(Number(row.v));
        return out;
      }
      const values = entries.map((row) => row.v).filter((v) => v !== null);
      if (values.length === 0) return fn === "sum" ? 0 : null;
      if (kind === "datetime") return new Date(Number(values[0])).toISOString();
      if (kind === "date") return String(values[0]);
      return fn === "avg" ? Math.round(Number(values[0])) : Number(values[0]);
    };
    if (!groupBy) return { kind: "value", resource: R.name, fn, field, value: shape(rows) };
    const byKey = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = JSON.stringify(normalizeKey(R, groupBy, row.g));
      byKey.set(key, [...(byKey.get(key) ?? []), row]);
    }
    return {
      kind: "groups",
      resource: R.name,
      fn,
      field,
      group_by: groupBy,
      groups: [...byKey].map(([key, entries]) => ({ key: JSON.parse(key) as unknown, label: entries[0]?.label ?? "", value: shape(entries) })),
    };
  };
}

/**
 * The values the workspace uses in R's categorical text fields, in one statement, read once per message
 * (the closure lives as long as the request). Empty for a caller the list route refuses.
 */
export function sqlValues(c: Context<AppEnv>, registry: PackageRegistry, mayList: MayList): Values {
  const read = new Map<string, Promise<Map<string, string[]>>>();
  return (R) => {
    let values = read.get(R.name);
    if (!values) {
      values = valuesOf(c, registry, mayList, R);
      read.set(R.name, values);
    }
    return values;
  };
}

async function valuesOf(c: Context<AppEnv>, registry: PackageRegistry, mayList: MayList, R: ResourceModel): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const def = registry.definitions().find(({ definition }) => definition.name === R.name)?.definition;
  const fields = categoricalFields(R).flatMap((name) => {
    const expr = def ? expressionOf(def, name) : null;
    return expr ? [{ name, expr }] : [];
  });
  if (!def || fields.length === 0 || mayList(R.name)) return out;
  const tenant = tenantOf(c);
  const selects = fields.map(
    ({ name, expr }) =>
      sql`SELECT ${name} AS f, ${expr} AS v FROM ${def.table} WHERE ${tenant.scope(def.table, sql`${expr} IS NOT NULL AND ${expr} <> ''`, ...(def.softDelete ? [sql`${def.softDelete.column} IS NULL`] : []))} GROUP BY v`,
  );
  const rows = await tenant.rows<{ f: string; v: string }>(sql`${sql.join(selects, sql` UNION ALL `)} LIMIT 5000`);
  for (const row of rows) out.set(row.f, [...(out.get(row.f) ?? []), String(row.v)]);
  return out;
}

/** A group's key as the API shows the field: booleans as booleans, datetimes as ISO dates. */
function normalizeKey(R: ResourceModel, field: string, value: unknown): unknown {
  const kind = R.fields.get(field)?.kind;
  if (value === null || value === undefined) return null;
  if (kind === "boolean") return Boolean(value);
  if (kind === "datetime") return new Date(Number(value)).toISOString().slice(0, 10);
  return value;
}

/** An output field as SQL: its output expression, a computed column, or the table column of that name. */
function expressionOf(def: AnyResource, name: string): SQL | null {
  const output = def.outputSql?.[name];
  if (output) return output;
  const camel = name.replace(/_([a-z])/g, (_m, letter: string) => letter.toUpperCase());
  const computed = def.computed?.[camel] ?? def.computed?.[name];
  if (computed) return sql`(${computed})`;
  const column = Object.values(getTableColumns(def.table)).find((candidate) => candidate.name === name);
  return column ? sql`${column}` : null;
}

function conditionSql(def: AnyResource, R: ResourceModel, condition: Condition): SQL | null {
  if ("param" in condition) {
    const filter = def.filters[condition.param];
    if (!filter) return null;
    const parsed = filter.schema.safeParse(condition.value);
    if (!parsed.success) return null;
    const where = filter.where(parsed.data as never);
    if (!where) return null;
    return condition.negate ? sql`NOT (${where})` : where;
  }
  const expr = expressionOf(def, condition.field);
  if (!expr) return null;
  const kind = R.fields.get(condition.field)?.kind;
  const value = (v: unknown) => (kind === "datetime" && typeof v === "string" ? dayMs(v.slice(0, 10)) : kind === "boolean" ? (v ? 1 : 0) : v);
  const list = (v: unknown) =>
    sql.join(
      (Array.isArray(v) ? v : [v]).map((item) => sql`${value(item)}`),
      sql`, `,
    );
  switch (condition.op) {
    case "eq":
      if (condition.value === null) return sql`${expr} IS NULL`;
      // Text compares as the list filters do: ignoring case.
      return kind === "text" ? sql`${expr} = ${value(condition.value)} COLLATE NOCASE` : sql`${expr} = ${value(condition.value)}`;
    case "ne":
      return condition.value === null ? sql`${expr} IS NOT NULL` : sql`(${expr} IS NULL OR ${expr} <> ${value(condition.value)})`;
    case "in":
      return sql`${expr} IN (${list(condition.value)})`;
    case "not_in":
      return sql`(${expr} IS NULL OR ${expr} NOT IN (${list(condition.value)}))`;
    case "contains":
      return sql`lower(${expr}) LIKE ${`%${String(condition.value).toLowerCase()}%`}`;
    case "gt":
      return sql`${expr} > ${kind === "datetime" ? dayMs(String(condition.value)) + DAY - 1 : value(condition.value)}`;
    case "gte":
      return sql`${expr} >= ${value(condition.value)}`;
    case "lt":
      return sql`${expr} < ${value(condition.value)}`;
    case "lte":
      return sql`${expr} <= ${kind === "datetime" ? dayMs(String(condition.value)) + DAY - 1 : value(condition.value)}`;
    default:
      return null;
  }
}
