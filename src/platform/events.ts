import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { base62, randomBytes } from "./crypto";
import { events } from "./schema";
import type { Tenant } from "./tenancy";

/** An event type, such as `invoice.created`: declared by the package that fires it (its manifest's `events`). */
export type EventType = string;

export function newEventId(): string {
  return `evt_${base62(randomBytes(16))}`;
}

export type EventRecord = {
  /** Defaults to a new `evt_…` id. */
  id?: string;
  type: EventType;
  /** The payload; or `dataSql`, the payload rendered by SQL in the batch (a row as the API shows it: rowJson). */
  data?: object;
  dataSql?: SQL;
  previousAttributes?: object;
  /** The statement just before this one INSERTed into `table`: `data.id` is its rowid. */
  insertedInto?: { table: SQLiteTable; id: SQLiteColumn };
  /** Paths of `data` whose values only SQL knows at commit time (a sequence number, a balance). */
  computed?: Record<string, SQL>;
  /** Written only if the statement just before this one changed a row (conditional updates). */
  onlyIfChanged?: boolean;
};

/** The outbox row for an event, to put in the same batch as the change, right after the statement that made it. */
export function recordEvent(tenant: Tenant, event: EventRecord, now: number) {
  tenant.eventRecorded();
  const json = JSON.stringify(event.data ?? {});
  const paths = [
    ...(event.insertedInto ? [sql`, '$.id', last_insert_rowid()`] : []),
    ...Object.entries(event.computed ?? {}).map(([path, value]) => sql`, ${`$.${path}`}, ${value}`),
  ];
  const data = event.dataSql ?? (paths.length > 0 ? sql`json_set(${json}${sql.join(paths)})` : sql`${json}`);
  const previous = event.previousAttributes ? JSON.stringify(event.previousAttributes) : null;
  const condition = event.onlyIfChanged ? sql`changes() > 0` : sql`1`;
  // INSERT … SELECT so the row can be conditional; the columns follow the table's order.
  return tenant.insertSelect(
    events,
    sql`SELECT ${event.id ?? newEventId()}, ${tenant.workspaceId}, ${event.type}, ${data}, ${previous}, ${now}, NULL WHERE ${condition}`,
  );
}
