import { type SQL, sql } from "drizzle-orm";
import { writeGuards } from "../schema";
import type { Database } from "./database";

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
