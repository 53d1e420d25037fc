import { eq, sql } from "drizzle-orm";
import type { ErrorDetail } from "../errors";
import type { Tenant } from "../tenancy";
import type { Reference } from "./definition";

type Wanted = Reference & { id: number };

function wanted(references: Reference[] | undefined, input: Record<string, unknown>): Wanted[] {
  return (references ?? []).flatMap((ref) => (typeof input[ref.field] === "number" ? [{ ...ref, id: input[ref.field] as number }] : []));
}

function lookup(tenant: Tenant, ref: Wanted) {
  return tenant.selectFrom({ id: ref.table.id }, ref.table, eq(ref.table.id, ref.id), ref.live);
}

/**
 * Statements that abort the write's batch unless each referenced row is a live row of the caller's
 * workspace when the batch runs; another workspace's row looks exactly like a missing one.
 */
export function referenceGuards(tenant: Tenant, references: Reference[] | undefined, input: Record<string, unknown>) {
  return wanted(references, input).map((ref) => tenant.assertThat(sql`EXISTS ${lookup(tenant, ref)}`, `reference:${ref.field}`));
}

/** Why references fail, one detail per field, from one D1 batch (for messages; the guards enforce). */
export async function referenceProblems(tenant: Tenant, references: Reference[] | undefined, input: Record<string, unknown>): Promise<ErrorDetail[]> {
  const refs = wanted(references, input);
  if (refs.length === 0) return [];
  const lookups = refs.map((ref) => lookup(tenant, ref));
  const results = (await tenant.batch(lookups as [(typeof lookups)[0], ...typeof lookups])) as unknown[][];
  return refs.flatMap((ref, i) => (results[i]!.length === 0 ? [{ path: ref.field, message: `no ${ref.what} with this id in this workspace` }] : []));
}
