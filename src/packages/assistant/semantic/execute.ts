import type { ApiErrorBody } from "../../../platform/dispatch";
import type { ApiRecord } from "../../../platform/skills";
import type { ResourceModel } from "./model";
import type { Condition, Query } from "./query";

/**
 * A query's answer from the API's own list route, called as the asker: the conditions the route can
 * filter by go in its query string (so roles, packages and the route's rules apply), the rest — negations,
 * comparisons, a period on any date field — are applied to the rows it returns, then the aggregate.
 */

export type Answer =
  | { kind: "records"; resource: string; ids: number[]; total: number; field?: string }
  | { kind: "value"; resource: string; fn: "count" | "sum" | "avg" | "min" | "max"; field: string | null; value: unknown }
  | { kind: "groups"; resource: string; fn: string; field: string | null; group_by: string; groups: { key: unknown; label: string; value: unknown }[] };

export type Fetch = (path: string) => Promise<{ ok: true; data: ApiRecord[]; meta?: Record<string, unknown> } | { ok: false; error: ApiErrorBody }>;

/** At most this many rows are read for one answer (20 pages of the API's largest page). */
export const MAX_ROWS = 2_000;
const PAGE = 100;

/** The list route's query string for what it can filter by itself. */
export function pushdown(R: ResourceModel, query: Query): URLSearchParams {
  const params = new URLSearchParams();
  for (const condition of query.conditions) {
    if ("param" in condition) {
      if (!condition.negate) params.set(condition.param, condition.value);
    } else if (R.filters.has(condition.field) && (condition.op === "eq" || condition.op === "in") && !params.has(condition.field)) {
      const values = Array.isArray(condition.value) ? condition.value : [condition.value];
      // A boolean filter takes one value; strings and numbers take a comma list.
      const pushable =
        values.every((value) => typeof value === "string" || typeof value === "number") || (values.length === 1 && typeof values[0] === "boolean");
      if (pushable) params.set(condition.field, values.join(","));
    }
  }
  if (query.subject?.resource === R.name && !params.has("ids")) params.set("ids", String(query.subject.id));
  const dates = R.skill?.dates?.find((date) => date.field === query.period?.field);
  if (query.period && dates) {
    params.set(dates.after, dates.format === "date" ? query.period.from : `${query.period.from}T00:00:00Z`);
    params.set(dates.before, dates.format === "date" ? query.period.to : `${query.period.to}T23:59:59.999Z`);
  }
  return params;
}

/** Whether the list route itself filters by everything the query asks (then one page and its total suffice). */
export function fullyPushed(R: ResourceModel, query: Query): boolean {
  const pushable = (condition: Condition) =>
    "param" in condition
      ? !condition.negate
      : R.filters.has(condition.field) &&
        (condition.op === "eq" || condition.op === "in") &&
        (Array.isArray(condition.value) ? condition.value : [condition.value]).every((value) => typeof value === "string" || typeof value === "number");
  const period = !query.period || R.skill?.dates?.some((date) => date.field === query.period!.field);
  const fieldNames = new Set(query.conditions.flatMap((condition) => ("field" in condition ? [condition.field] : [])));
  return query.conditions.every(pushable) && Boolean(period) && fieldNames.size === query.conditions.filter((c) => "field" in c).length;
}

/** Groups ranked by their value and cut to the limit. */
export function ranked<G extends { value: unknown }>(groups: G[], order: "asc" | "desc" | null, limit: number | null): G[] {
  const out = [...groups].sort((a, b) => (order === "asc" ? rankValue(a.value) - rankValue(b.value) : rankValue(b.value) - rankValue(a.value)));
  return limit ? out.slice(0, limit) : out;
}

/** Every row the list route returns for these parameters, page by page (up to MAX_ROWS). */
export async function readRows(
  fetch: Fetch,
  R: ResourceModel,
  params: URLSearchParams,
): Promise<{ rows: ApiRecord[]; capped: boolean } | { error: ApiErrorBody }> {
  const rows: ApiRecord[] = [];
  params.set("limit", String(PAGE));
  for (;;) {
    const result = await fetch(`/${R.name}?${params}`);
    if (!result.ok) return { error: result.error };
    rows.push(...result.data);
    const next = result.meta?.next_cursor;
    if (!result.meta?.has_more || typeof next !== "string") return { rows, capped: false };
    if (rows.length >= MAX_ROWS) return { rows, capped: true };
    params.set("cursor", next);
  }
}

const dayOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 10) : value);

function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

function holds(row: ApiRecord, condition: Condition, R: ResourceModel): boolean {
  if ("param" in condition) return true;
  const field = R.fields.get(condition.field);
  const isDate = field?.kind === "date" || field?.kind === "datetime";
  const raw = row[condition.field];
  const value = isDate ? dayOf(raw) : raw;
  const same = (a: unknown, b: unknown) =>
    typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : a === b || (a !== null && b !== null && String(a) === String(b));
  switch (condition.op) {
    case "eq":
      return same(value, condition.value);
    case "ne":
      return !same(value, condition.value);
    case "in":
      return (condition.value as unknown[]).some((item) => same(value, item));
    case "not_in":
      return !(condition.value as unknown[]).some((item) => same(value, item));
    case "contains":
      return String(value ?? "")
        .toLowerCase()
        .includes(String(condition.value).toLowerCase());
    default: {
      if (value === null || value === undefined) return false;
      const order = compare(value, condition.value);
      return condition.op === "gt" ? order > 0 : condition.op === "gte" ? order >= 0 : condition.op === "lt" ? order < 0 : order <= 0;
    }
  }
}

/** The rows that satisfy every condition and fall in the period. */
export function select(rows: ApiRecord[], R: ResourceModel, query: Query, excluded: Set<number> = new Set()): ApiRecord[] {
  return rows.filter((row) => {
    if (excluded.has(row.id)) return false;
    if (query.subject?.resource === R.name && row.id !== query.subject.id) return false;
    if (!query.conditions.every((condition) => holds(row, condition, R))) return false;
    if (query.period) {
      const day = dayOf(row[query.period.field]);
      if (typeof day !== "string" || day < query.period.from || day > query.period.to) return false;
    }
    return true;
  });
}

type Total = number | Record<string, number> | string | null;

/** count, sum, avg, min or max of a field over rows: money per currency, dates as ISO strings. */
export function aggregateOf(rows: ApiRecord[], R: ResourceModel, fn: "count" | "sum" | "avg" | "min" | "max", fieldName: string | null): Total {
  if (fn === "count") return rows.length;
  const field = fieldName ? R.fields.get(fieldName) : undefined;
  if (!field) return null;
  const values = rows.map((row) => row[field.name]).filter((value) => value !== null && value !== undefined);
  if (field.kind === "date" || field.kind === "datetime") {
    if (values.length === 0) return null;
    const sorted = values.map(String).sort();
    return fn === "min" ? sorted[0]! : fn === "max" ? sorted.at(-1)! : null;
  }
  if (field.kind === "money") {
    const byCurrency = new Map<string, number[]>();
    for (const row of rows) {
      const amount = row[field.name];
      if (typeof amount !== "number") continue;
      const currency = String(row[field.currencyField ?? "currency"] ?? "USD");
      byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), amount]);
    }
    const out: Record<string, number> = {};
    for (const [currency, amounts] of byCurrency) out[currency] = reduce(amounts, fn)!;
    return out;
  }
  const numbers = values.map(Number);
  return numbers.length === 0 ? (fn === "sum" ? 0 : null) : reduce(numbers, fn);
}

function reduce(values: number[], fn: "sum" | "avg" | "min" | "max"): number | null {
  if (values.length === 0) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  if (fn === "sum") return sum;
  if (fn === "avg") return Math.round(sum / values.length);
  return fn === "min" ? Math.min(...values) : Math.max(...values);
}

/** A total as one number for ranking (money across currencies: the largest currency's amount). */
const rankValue = (total: unknown) =>
  typeof total === "number"
    ? total
    : total && typeof total === "object"
      ? Math.max(0, ...Object.values(total))
      : typeof total === "string"
        ? Date.parse(total)
        : -Infinity;

export function answerOf(selected: ApiRecord[], R: ResourceModel, query: Query, labels: Map<string, string>): Answer {
  const { fn, field, groupBy, order, limit } = query.aggregate;
  if (groupBy) {
    const groups = new Map<string, ApiRecord[]>();
    for (const row of selected) {
      const key = JSON.stringify(row[groupBy] ?? null);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    let out = [...groups].map(([key, rows]) => {
      const value = JSON.parse(key) as unknown;
      return {
        key: value,
        label: labels.get(`${groupBy}:${value}`) ?? (value === null ? "none" : String(value).replace(/_/g, " ")),
        value: aggregateOf(rows, R, fn === "list" ? "count" : fn, field),
      };
    });
    out = ranked(out, order, limit);
    return { kind: "groups", resource: R.name, fn: fn === "list" ? "count" : fn, field, group_by: groupBy, groups: out };
  }
  if (fn !== "list") return { kind: "value", resource: R.name, fn, field, value: aggregateOf(selected, R, fn, field) };
  let rows = selected;
  if (order && field) {
    const key = (row: ApiRecord) => (typeof row[field] === "number" ? (row[field] as number) : Date.parse(String(row[field] ?? "")));
    // (Records without the value — a task with no due date — come last either way: "soonest due first" is of those due.)
    const unset = (row: ApiRecord) => Number.isNaN(key(row));
    rows = [...rows].sort((a, b) => Number(unset(a)) - Number(unset(b)) || (unset(a) ? 0 : order === "asc" ? key(a) - key(b) : key(b) - key(a)));
  }
  if (limit) rows = rows.slice(0, limit);
  return { kind: "records", resource: R.name, ids: rows.slice(0, 500).map((row) => row.id), total: rows.length, ...(query.show ? { field: query.show } : {}) };
}
