import { eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Tenant, isUniqueViolation } from "../db";
import { ApiError, type ErrorDetail } from "../errors";
import type { AnyResource, ResourceTable, Row } from "./definition";

export type Operation =
  | { op: "create"; data: object }
  | { op: "update"; id: number; data: object }
  | { op: "delete"; id: number };

export type Outcome = { status: 200 | 201; data: unknown };

/** A write turned into statements, run later alone or inside a batch, and how to read its result. */
export type PlannedWrite = { statements: BatchItem<"sqlite">[]; finish(results: unknown[]): Outcome };

/** Whether updates/deletes of this resource need the current row before writing (hooks read it). */
function needsCurrentRow(def: AnyResource, op: Operation["op"]): boolean {
  if (op === "update") return def.beforeUpdate !== undefined;
  if (op === "delete") return def.beforeDelete !== undefined;
  return false;
}

export async function loadRow(def: AnyResource, tenant: Tenant, id: number): Promise<Row<ResourceTable> | null> {
  return ((await tenant.select(def.table, eq(def.table.id, id)).get()) as Row<ResourceTable> | undefined) ?? null;
}

export async function loadRows(def: AnyResource, tenant: Tenant, ids: number[]): Promise<Map<number, Row<ResourceTable>>> {
  if (ids.length === 0) return new Map();
  const rows = (await tenant.select(def.table, inArray(def.table.id, ids))) as Row<ResourceTable>[];
  return new Map(rows.map((row) => [row.id as number, row]));
}

function notFound(def: AnyResource): ApiError {
  return ApiError.notFound(def.singular);
}

/**
 * Validates a write against the database (references, state rules) and returns its statements.
 * `current` is the row for update/delete when the caller already loaded it (batches load all at once).
 */
export async function planWrite(
  def: AnyResource,
  tenant: Tenant,
  operation: Operation,
  now: number,
  current?: Row<ResourceTable> | null,
): Promise<PlannedWrite> {
  const table = def.table;
  if (operation.op === "create") {
    const problems = (await def.check?.(tenant, operation.data, null)) ?? [];
    if (problems.length > 0) throw ApiError.validation(problems);
    const insert = tenant.insert(table, { ...def.toInsert(operation.data, now), createdAt: now, updatedAt: now }).returning();
    return { statements: [insert], finish: ([rows]) => ({ status: 201, data: def.toOutput((rows as Row<ResourceTable>[])[0]!) }) };
  }

  let existing = current ?? null;
  if (current === undefined && needsCurrentRow(def, operation.op)) {
    existing = await loadRow(def, tenant, operation.id);
    if (!existing) throw notFound(def);
  }

  if (operation.op === "update") {
    if (existing) def.beforeUpdate?.(operation.data, existing);
    const problems = (await def.check?.(tenant, operation.data, existing)) ?? [];
    if (problems.length > 0) throw ApiError.validation(problems);
    const values = { ...def.toUpdate(operation.data, existing, now), updatedAt: now };
    const update = tenant.update(table, values, eq(table.id, operation.id)).returning();
    return {
      statements: [update],
      finish: ([rows]) => {
        const row = (rows as Row<ResourceTable>[])[0];
        if (!row) throw notFound(def);
        return { status: 200, data: def.toOutput(row) };
      },
    };
  }

  if (existing) def.beforeDelete?.(existing);
  const remove = tenant.delete(table, eq(table.id, operation.id)).returning({ id: table.id });
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
    throw conflictFrom(def, error) ?? error;
  }
  let offset = 0;
  return plans.map((plan) => {
    const own = results.slice(offset, offset + plan.statements.length);
    offset += plan.statements.length;
    return plan.finish(own);
  });
}

/** A UNIQUE violation becomes 409 conflict naming the field; never a 500 from the index. */
export function conflictFrom(def: AnyResource, error: unknown): ApiError | null {
  for (const unique of def.uniques) {
    if (isUniqueViolation(error, unique.constraint)) {
      const details: ErrorDetail[] = [{ path: unique.field, message: `already used by another ${def.singular}` }];
      return new ApiError("conflict", `${unique.field}: already used by another ${def.singular}`, { details });
    }
  }
  return null;
}

/** One write on its own (the single-resource endpoints). */
export async function runWrite(def: AnyResource, tenant: Tenant, operation: Operation, now = Date.now()): Promise<Outcome> {
  const plan = await planWrite(def, tenant, operation, now);
  const [outcome] = await executeWrites(def, tenant, [plan]);
  return outcome!;
}
