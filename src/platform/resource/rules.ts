import { inArray, is, SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ApiError, type ErrorDetail } from "../errors";
import { type AnyResource, columnKey } from "./definition";

/**
 * The resource rules (state transitions, locked fields, deletable states, ordered dates) are declared
 * once on the definition. Each has two readings derived here: an SQL condition the write statement
 * itself carries, so the rule holds against the row as it is when D1 runs the batch (no read first,
 * no race), and a JavaScript check that explains a refusal (or validates a batch up front).
 */

type Values = Record<string, unknown>;

/** A plain value the write sets for `column`, or undefined when it leaves it (or sets it by SQL). */
function plainValue(def: AnyResource, values: Values, column: SQLiteColumn): { value: unknown } | undefined {
  const key = columnKey(def, column);
  if (!(key in values) || is(values[key], SQL)) return undefined;
  return { value: values[key] };
}

/** The values from which `to` may be reached: `to` itself and every state that allows the move. */
function sourcesOf(all: readonly string[], allowed: (from: string) => readonly string[], to: string): string[] {
  return all.filter((from) => from === to || allowed(from).includes(to));
}

function enumValues(column: SQLiteColumn): readonly string[] {
  const values = (column as unknown as { enumValues?: readonly string[] }).enumValues;
  if (!values) throw new Error(`${column.name}: a transition column needs an enum`);
  return values;
}

/** WHERE conditions an update carries for the resource's rules. */
export function updateConditions(def: AnyResource, input: Values, values: Values): SQL[] {
  const conditions: SQL[] = [];
  for (const transition of def.transitions ?? []) {
    const target = plainValue(def, values, transition.column);
    if (target) conditions.push(inArray(transition.column, sourcesOf(enumValues(transition.column), transition.allowed, String(target.value))));
  }
  for (const lock of def.locks ?? []) {
    if (lock.fields.some((field) => input[field] !== undefined)) conditions.push(inArray(lock.column, [...lock.onlyWhen]));
  }
  for (const { first, last } of def.ordered ?? []) {
    const a = plainValue(def, values, first.column);
    const b = plainValue(def, values, last.column);
    if (!a && !b) continue;
    const start = a ? sql`${a.value}` : sql`${first.column}`;
    const end = b ? sql`${b.value}` : sql`${last.column}`;
    conditions.push(sql`(${start} IS NULL OR ${end} IS NULL OR ${end} >= ${start})`);
  }
  return conditions;
}

export function deleteConditions(def: AnyResource): SQL[] {
  return def.deletable ? [inArray(def.deletable.column, [...def.deletable.onlyWhen])] : [];
}

/** Ordered-date problems of a row as it will be (the insert values, or the current row with the update's values). */
export function orderProblems(def: AnyResource, row: Values): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const { first, last } of def.ordered ?? []) {
    const start = row[columnKey(def, first.column)];
    const end = row[columnKey(def, last.column)];
    if (typeof start === "string" && typeof end === "string" && end < start) {
      problems.push({ path: last.field, message: `must not be before ${first.field}` });
    }
  }
  return problems;
}

/** Throws the 409 a state rule gives for this update of `existing`: an invalid transition or a locked field. */
export function checkStateRules(def: AnyResource, input: Values, values: Values, existing: Values): void {
  for (const transition of def.transitions ?? []) {
    const target = plainValue(def, values, transition.column);
    const from = String(existing[columnKey(def, transition.column)]);
    if (!target || String(target.value) === from) continue;
    const allowed = transition.allowed(from);
    const to = String(target.value);
    if (!allowed.includes(to)) {
      const message = transition.message(from, to);
      throw new ApiError("invalid_transition", `${transition.field}: ${message}`, {
        details: [{ path: transition.field, message, from, to, allowed: [...allowed] }],
        field: transition.field,
      });
    }
  }
  for (const lock of def.locks ?? []) {
    const current = String(existing[columnKey(def, lock.column)]);
    const locked = lock.fields.filter((field) => input[field] !== undefined);
    if (locked.length > 0 && !lock.onlyWhen.includes(current)) {
      throw new ApiError("conflict", lock.message(locked, current), { details: locked.map((path) => ({ path, message: lock.detail })) });
    }
  }
}

export function checkDeletable(def: AnyResource, existing: Values): void {
  const rule = def.deletable;
  if (!rule) return;
  const current = String(existing[columnKey(def, rule.column)]);
  if (!rule.onlyWhen.includes(current)) throw new ApiError("conflict", rule.message(current));
}

/** The current row with an update's plain values applied (SQL-computed ones keep their old value). */
export function merged(existing: Values, values: Values): Values {
  const next = { ...existing };
  for (const [key, value] of Object.entries(values)) if (!is(value, SQL)) next[key] = value;
  return next;
}
