import { type SQL, eq } from "drizzle-orm";
import type { Tenant } from "../db";
import type { ErrorDetail } from "../errors";
import type { ResourceTable } from "./definition";

export type Reference = {
  /** The body field holding the id. */
  field: string;
  id: number | null | undefined;
  table: ResourceTable;
  /** "customer": for the message. */
  what: string;
  /** Extra condition for a usable row (e.g. not soft-deleted). */
  live?: SQL;
};

/**
 * Each reference must name a live row of the caller's workspace; another workspace's row looks exactly
 * like a missing one. All lookups go to D1 in one batch.
 */
export async function checkReferences(tenant: Tenant, references: Reference[]): Promise<ErrorDetail[]> {
  const wanted = references.filter((ref): ref is Reference & { id: number } => typeof ref.id === "number");
  if (wanted.length === 0) return [];
  const lookups = wanted.map((ref) => tenant.db.select({ id: ref.table.id }).from(ref.table).where(tenant.scope(ref.table, eq(ref.table.id, ref.id), ref.live)));
  const results = (await tenant.db.batch(lookups as [(typeof lookups)[0], ...typeof lookups])) as unknown[][];
  return wanted.flatMap((ref, i) => (results[i]!.length === 0 ? [{ path: ref.field, message: `no ${ref.what} with this id in this workspace` }] : []));
}
