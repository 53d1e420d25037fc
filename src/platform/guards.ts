import { type SQL, sql } from "drizzle-orm";
import type { Database } from "./db";
import { writeGuards } from "./schema";

/**
 * Aborts the D1 batch unless the statement just before this one changed a row: an UPDATE whose
 * conditions (state, existence, rules) no longer hold rolls back everything written before it.
 */
export function assertChanged(db: Database, reason: string) {
  return db.insert(writeGuards).select(sql`SELECT ${reason} WHERE changes() = 0`);
}

/** Aborts the D1 batch unless `condition` holds when this statement runs. */
export function assertThat(db: Database, condition: SQL, reason: string) {
  return db.insert(writeGuards).select(sql`SELECT ${reason} WHERE NOT (${condition})`);
}

/** True when a batch was aborted by one of the guards above (drizzle wraps D1's error as `cause`). */
export function isGuardFailure(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.message.includes("CHECK constraint failed: write_guard_failed")) return true;
  }
  return false;
}
