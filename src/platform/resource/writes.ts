import { SQL, and, eq, inArray, is, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Tenant, isForeignKeyViolation, isUniqueViolation } from "../db";
import { ApiError, type ErrorDetail } from "../errors";
import { recordEvent } from "../events";
import { type AnyResource, columnKey, type ResourceTable, type Row } from "./definition";

export type Operation =
  | { op: "create"; data: object }
  | { op: "update"; id: number; data: object }
  | { op: "delete"; id: number };

/** A write's result: the row to present (create/update), or the body as it is (delete). */
export type Outcome = { status: 200 | 201; row: Row<ResourceTable> } | { status: 200; data: unknown };

/** A write turned into statements, run later alone or inside a batch, and how to read its result. */
export type PlannedWrite = { statements: BatchItem<"sqlite">[]; finish(results: unknown[]): Outcome };

type AnyRow = Row<ResourceTable>;

/** `workspace_id = ?`, the id, and not soft-deleted. */
function live(def: AnyResource, ...conditions: (SQL | undefined)[]): (SQL | undefined)[] {
  return [...conditions, def.softDelete ? isNull(def.softDelete.column) : undefined];
}

// The by-id lookup is the hottest query: its SQL is built once per resource and database, not per request.
const byIdQueries = new WeakMap<Tenant["db"], Map<AnyResource, { get(values: { workspace: number; id: number }): Promise<unknown> }>>();

function byIdQuery(def: AnyResource, tenant: Tenant) {
  let queries = byIdQueries.get(tenant.db);
  if (!queries) byIdQueries.set(tenant.db, (queries = new Map()));
  let query = queries.get(def);
  if (!query) {
    const table = def.table;
    query = tenant.db
      .select()
      .from(table)
      .where(and(eq(table.workspaceId, sql.placeholder("workspace")), eq(table.id, sql.placeholder("id")), ...live(def)))
      .prepare();
    queries.set(def, query);
  }
  return query;
}

export async function loadRow(def: AnyResource, tenant: Tenant, id: number): Promise<AnyRow | null> {
  return ((await byIdQuery(def, tenant).get({ workspace: tenant.workspaceId, id })) as AnyRow | undefined) ?? null;
}

export async function loadRows(def: AnyResource, tenant: Tenant, ids: number[]): Promise<Map<number, AnyRow>> {
  if (ids.length === 0) return new Map();
  const rows = (await tenant.select(def.table, ...live(def, inArray(def.table.id, ids)))) as AnyRow[];
  return new Map(rows.map((row) => [row.id as number, row]));
}

/** Rows as the API shows them, with computed fields added in one pass. */
export async function present(def: AnyResource, tenant: Tenant, rows: AnyRow[]): Promise<unknown[]> {
  const enriched = def.enrich && rows.length > 0 ? await def.enrich(tenant, rows) : rows;
  return enriched.map((row) => def.toOutput(row));
}

export async function presentOutcomes(def: AnyResource, tenant: Tenant, outcomes: Outcome[]) {
  const rows = outcomes.flatMap((outcome) => ("row" in outcome ? [outcome.row] : []));
  const shown = await present(def, tenant, rows);
  let next = 0;
  return outcomes.map((outcome) => ("row" in outcome ? { status: outcome.status, data: shown[next++] } : outcome));
}

function notFound(def: AnyResource): ApiError {
  return ApiError.notFound(def.singular);
}

function needsCurrentRow(def: AnyResource, op: Operation["op"]): boolean {
  if (op === "update") return def.beforeUpdate !== undefined || def.events !== undefined;
  if (op === "delete") return def.beforeDelete !== undefined;
  return false;
}

/**
 * Validates a write against the database (references, state rules) and returns its statements, with
 * the events it fires in the same batch. `current` is the row for update/delete when the caller
 * already loaded it (batches load all rows at once); `null` means it does not exist.
 */
export async function planWrite(def: AnyResource, tenant: Tenant, operation: Operation, now: number, current?: AnyRow | null): Promise<PlannedWrite> {
  const table = def.table;
  if (operation.op === "create") {
    const problems = (await def.check?.(tenant, operation.data, null)) ?? [];
    if (problems.length > 0) throw ApiError.validation(problems);
    const values = { ...def.toInsert(operation.data, now, tenant), createdAt: now, updatedAt: now };
    const before = def.beforeCreate?.(tenant, now) ?? [];
    const insert = tenant.insert(table, values).returning();
    const computed = Object.fromEntries(
      Object.entries(def.fillFromRow ?? {}).map(([path, column]) => [path, sql`(SELECT ${column} FROM ${table} WHERE ${table.id} = last_insert_rowid())`]),
    );
    // Values only SQL knows are null here; `fillFromRow` reads them back into the event inside the batch.
    const known = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, is(value, SQL) ? null : value]));
    const events = (def.events?.({ before: null, after: { ...known, id: 0 } as AnyRow }) ?? []).map((event) =>
      recordEvent(tenant, { ...event, insertedInto: { table, id: table.id }, computed }, now),
    );
    return {
      statements: [...before, insert, ...events],
      finish: (results) => ({ status: 201, row: (results[before.length] as AnyRow[])[0]! }),
    };
  }

  let existing = current ?? null;
  if (current === undefined && needsCurrentRow(def, operation.op)) {
    existing = await loadRow(def, tenant, operation.id);
    if (!existing) throw notFound(def);
  }
  const target = live(def, eq(table.id, operation.id));

  if (operation.op === "update") {
    if (existing) def.beforeUpdate?.(operation.data, existing);
    const problems = (await def.check?.(tenant, operation.data, existing)) ?? [];
    if (problems.length > 0) throw ApiError.validation(problems);
    const values = { ...def.toUpdate(operation.data, existing, now), updatedAt: now };
    const guard = def.guardColumn && existing ? eq(def.guardColumn, existing[columnKey(def, def.guardColumn)]) : undefined;
    const update = tenant.update(table, values, ...target, guard).returning();
    const events = existing
      ? (def.events?.({ before: existing, after: { ...existing, ...values } }) ?? []).map((event) => recordEvent(tenant, { ...event, onlyIfChanged: true }, now))
      : [];
    return {
      statements: [update, ...events],
      finish: ([rows]) => {
        const row = (rows as AnyRow[])[0];
        if (!row && guard) throw new ApiError("conflict", `The ${def.singular} was changed by another request; read it again and retry`);
        if (!row) throw notFound(def);
        return { status: 200, row };
      },
    };
  }

  if (existing) def.beforeDelete?.(existing);
  const remove = def.softDelete
    ? tenant.update(table, { ...def.softDelete.set(now), updatedAt: now }, ...target).returning({ id: table.id })
    : tenant.delete(table, ...target).returning({ id: table.id });
  return {
    statements: [remove],
    finish: ([rows]) => {
      if ((rows as unknown[]).length === 0) throw notFound(def);
      return { status: 200, data: { id: operation.id, deleted: true } };
    },
  };
}

/** Runs planned writes in one D1 batch (one transaction) and reads each result. */
export async function executeWrites(def: AnyResource, tenant: Tenant, plans: PlannedWrite[]): Promise<Outcome[]> {
  const statements = plans.flatMap((plan) => plan.statements);
  let results: unknown[];
  try {
    results = await tenant.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    throw constraintError(def, error) ?? error;
  }
  let offset = 0;
  return plans.map((plan) => {
    const own = results.slice(offset, offset + plan.statements.length);
    offset += plan.statements.length;
    return plan.finish(own);
  });
}

/** Constraint failures become 409s naming the field; never a 500 from an index or a foreign key. */
export function constraintError(def: AnyResource, error: unknown): ApiError | null {
  for (const unique of def.uniques) {
    if (isUniqueViolation(error, unique.constraint)) {
      const details: ErrorDetail[] = [{ path: unique.field, message: `already used by another ${def.singular}` }];
      return new ApiError("conflict", `${unique.field}: already used by another ${def.singular}`, { details });
    }
  }
  if (isForeignKeyViolation(error)) {
    return new ApiError("conflict", `This ${def.singular} is still referenced by other records; remove those first`);
  }
  return null;
}

/** One write on its own (the single-resource endpoints), presented. */
export async function runWrite(def: AnyResource, tenant: Tenant, operation: Operation, now = Date.now()) {
  const plan = await planWrite(def, tenant, operation, now);
  const [outcome] = await presentOutcomes(def, tenant, await executeWrites(def, tenant, [plan]));
  return outcome!;
}
