import { z } from "@hono/zod-openapi";
import { eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Filter } from "./definition";

/**
 * How a comma list is documented: an array serialised `form` without explode (`?status=sent,paid`), so
 * code generators offer the values (an enum) and send a list the way the API reads it.
 */
function commaList(items: Record<string, unknown>) {
  return { type: "array" as const, items, param: { style: "form" as const, explode: false } };
}

/** The documented item of a comma list: the enum's values, an integer id, or a string. */
function itemSchema(item: z.ZodType): Record<string, unknown> {
  if (item instanceof z.ZodEnum) return { type: "string", enum: item.options };
  if (item === (integerValue as z.ZodType)) return { type: "integer", minimum: 1 };
  return { type: "string" };
}

/** `?field=a,b` → the text column is any of the values, ignoring case ("engineering" finds "Engineering"). */
export function anyText(column: SQLiteColumn, description: string): Filter {
  return {
    schema: z
      .string()
      .transform((value) => value.split(",").map((item) => item.trim()))
      .pipe(z.array(z.string().min(1).max(200)).min(1).max(50, "at most 50 values"))
      .openapi(commaList({ type: "string" })),
    where: (values: string[]) =>
      sql`${column} COLLATE NOCASE IN (${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )})`,
    description,
  };
}

/** `?field=a,b` → the column is any of the comma-separated values (each validated by `item`). */
export function anyOf<T>(column: SQLiteColumn, item: z.ZodType<T, string>, description: string): Filter {
  return {
    schema: z
      .string()
      .transform((value) => value.split(","))
      .pipe(z.array(item).min(1).max(50, "at most 50 values"))
      .openapi(commaList(itemSchema(item))),
    where: (values: T[]) => (values.length === 1 ? eq(column, values[0]) : inArray(column, values)),
    description,
  };
}

export const integerValue = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, "must be a positive integer")
  .transform(Number);

export const dateValue = z.iso.date("must be a date YYYY-MM-DD");

/** `?field=YYYY-MM-DD` as an inclusive bound on a date column. */
export function dateBound(column: SQLiteColumn, bound: "after" | "before", description: string): Filter {
  return {
    schema: dateValue,
    where: (value: string) => (bound === "after" ? gte(column, value) : lte(column, value)),
    description,
  };
}

/** A `true`/`false` query parameter, read as a boolean. */
export const booleanParam = () =>
  z
    .enum(["true", "false"], "must be true or false")
    .transform((value) => value === "true")
    .openapi({ type: "boolean" });

/** `?field=true|false` mapped to a condition by the resource. */
export function booleanFilter(where: (value: boolean) => SQL | undefined, description: string): Filter {
  return {
    schema: booleanParam(),
    where,
    description,
  };
}

/** `?field=N` as an inclusive bound on an integer column (money in minor units). */
export function numberBound(column: SQLiteColumn, bound: "min" | "max", description: string): Filter {
  return {
    schema: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,15})$/, "must be a non-negative integer")
      .transform(Number)
      .openapi({ type: "integer" }),
    where: (value: number) => (bound === "min" ? gte(column, value) : lte(column, value)),
    description,
  };
}

/** `?field=<ISO 8601 date-time>` as an inclusive bound on a millisecond timestamp column. */
export function timeBound(column: SQLiteColumn, bound: "after" | "before", description: string): Filter {
  return {
    schema: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }).transform((value) => Date.parse(value)),
    where: (value: number) => (bound === "after" ? gte(column, value) : lte(column, value)),
    description,
  };
}
