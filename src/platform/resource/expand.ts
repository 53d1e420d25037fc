import { z } from "@hono/zod-openapi";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PackageRegistry } from "../packages";
import { qualified, sameWorkspace } from "../tenancy";
import type { AnyResource } from "./definition";

/**
 * `?expand=customer_id,contact_id` on a list: each record also carries the records it references by name —
 * `"customer": {"id": 45, "label": "Hooli Holdings"}` (null when the reference is empty) — read by a correlated
 * subquery in the same statement as the page, so a screen that shows names costs no second call.
 */
export const ExpandedReference = z
  .object({ id: z.number().int(), label: z.string() })
  .nullable()
  .openapi("ExpandedReference", { description: "A referenced record by name, when its field was listed in expand" });

/** The reference fields a list may expand, and the key each lands under ("customer_id" → "customer"). */
export function expandable(def: AnyResource): { field: string; key: string }[] {
  return (def.references ?? []).map((reference) => ({ field: reference.field, key: reference.field.replace(/_id$/, "") }));
}

/** The expand parameter: a comma list of the resource's reference fields. */
export function expandQuery(def: AnyResource) {
  const fields = expandable(def).map((entry) => entry.field);
  return z
    .string()
    .transform((value) => value.split(",").map((item) => item.trim()))
    .pipe(z.array(z.enum(fields as [string, ...string[]], `must be one of ${fields.join(", ")}`)).min(1))
    .openapi({
      type: "array",
      items: { type: "string", enum: fields },
      param: { style: "form", explode: false },
      description: `Also read the referenced records' names: ${fields.join(", ")}`,
    });
}

export type Expansion = { key: string; idKey: string; select: SQL; resource: string; pkg: string };

/** The subqueries that read each expanded reference's name, as extra columns of the page's select. */
export function expansions(def: AnyResource, registry: PackageRegistry, fields: string[]): Expansion[] {
  const columns = getTableColumns(def.table);
  return fields.flatMap((field) => {
    const reference = def.references?.find((candidate) => candidate.field === field);
    const owner = reference && registry.definitions().find(({ definition }) => definition.table === reference.table);
    const target = owner?.definition;
    const own = Object.entries(columns).find(([, column]) => column.name === field);
    const title = target?.ui && Object.values(getTableColumns(target.table)).find((column) => column.name === target.ui!.title);
    if (!reference || !target || !own || !title) return [];
    const select = sql`(SELECT ${qualified(title)} FROM ${target.table} WHERE ${qualified(target.table.id)} = ${qualified(own[1])} AND ${sameWorkspace(target.table, def.table)})`;
    return [{ key: field.replace(/_id$/, ""), idKey: own[0], select, resource: target.name, pkg: owner!.pkg }];
  });
}

/** The expanded references of a row, as the output shows them. */
export function expandedOf(row: Record<string, unknown>, list: Expansion[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map((expansion) => {
      const id = row[expansion.idKey];
      const label = row[`expand_${expansion.key}`];
      return [expansion.key, typeof id === "number" ? { id, label: label === null || label === undefined ? `#${id}` : String(label) } : null];
    }),
  );
}
