import { z } from "@hono/zod-openapi";
import { type SQL, eq, gte, inArray, lte } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Filter } from "./definition";

/** `?field=a,b` → the column is any of the comma-separated values (each validated by `item`). */
export function anyOf<T>(column: SQLiteColumn, item: z.ZodType<T, string>, description: string): Filter {
  return {
    schema: z
      .string()
      .transform((value) => value.split(","))
      .pipe(z.array(item).min(1).max(50, "at most 50 values")),
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
