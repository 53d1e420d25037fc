import { eq, getTableColumns, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { packageDisabled } from "../auth/middleware";
import { ApiError, type ErrorDetail } from "../errors";
import { isForeignKeyViolation, isGuardFailure, isMoneyTotalExceeded, isUniqueViolation } from "../errors-db";
import { newEventId } from "../events";
import { MAX_MINOR_UNITS } from "../fields";
import { events } from "../schema";
import type { Statement, Tenant } from "../tenancy";
import { type AnyResource, columnKey, type EventRule, type ResourceTable, type Row } from "./definition";
import { referenceGuards, referenceProblems } from "./references";
import { rowJson } from "./row-json";
import { checkDeletable, checkStateRules, deleteConditions, merged, orderProblems, updateConditions } from "./rules";

export type Operation = { op: "create"; data: object } | { op: "update"; id: number; data: object } | { op: "delete"; id: number };

/** A write's result: the row to present (create/update), or the body as it is (delete). */
export type Outcome = { status: 200 | 201; row: Row<ResourceTable> } | { status: 200; data: unknown };

/** A write turned into statements for one D1 batch, and how to read its result from theirs. */
export type PlannedWrite = { statements: Statement[]; finish(results: unknown[]): Outcome };

type AnyRow = Row<ResourceTable>;
type Values = Record<string, unknown>;

/** `workspace_id = ?`, the id, and not soft-deleted. */
function live(def: AnyResource, ...conditions: (SQL | undefined)[]): (SQL | undefined)[] {
  return [...conditions, def.softDelete ? isNull(def.softDelete.column) : undefined];
}

/** Fields other packages add to this resource, for the packages the workspace has enabled. */
const extensions = (def: AnyResource, tenant: Tenant) => tenant.extensionsOf(def.name);

/** The columns a read returns: the table's, the computed read-only fields, and enabled extensions'. */
export function selection(def: AnyResource, tenant: Tenant) {
  return Object.assign({ ...getTableColumns(def.table), ...def.computed }, ...extensions(def, tenant).map(({ extension }) => extension.computed));
}

/** SELECT <columns and computed fields> FROM <table> WHERE workspace_id = ? AND … */
export function selectRows(def: AnyResource, tenant: Tenant, ...conditions: (SQL | undefined)[]) {
  return tenant.selectFrom(selection(def, tenant), def.table, ...conditions);
}

/** selectRows with extra columns (a list's expanded references). */
export function selectRowsWith(def: AnyResource, tenant: Tenant, extra: Record<string, SQL>, ...conditions: (SQL | undefined)[]) {
  return tenant.selectFrom({ ...selection(def, tenant), ...extra }, def.table, ...conditions);
}

/** A row as the API shows it: the resource's output plus the fields of enabled extensions. */
export function outputOf(def: AnyResource, tenant: Tenant, row: AnyRow): unknown {
  const output = def.toOutput(row);
  for (const { extension } of extensions(def, tenant)) {
    for (const [field, read] of Object.entries(extension.output ?? {})) (output as Record<string, unknown>)[field] = read(row);
  }
  return output;
}

/**
 * The by-id lookup is the hottest query: prepared once per resource, database and set of enabled
 * extensions (tenant.byId), not built per request.
 */
export async function loadRow(def: AnyResource, tenant: Tenant, id: number): Promise<AnyRow | null> {
  const key = [def.name, ...extensions(def, tenant).map(({ pkg }) => pkg)].join("+");
  const lookup = tenant.byId(key, selection(def, tenant), def.table, ...live(def));
  return ((await lookup(id)) as AnyRow | undefined) ?? null;
}

/** Live rows by id, read in one D1 batch (D1 binds at most 100 values per statement). */
export async function loadRows(def: AnyResource, tenant: Tenant, ids: number[]): Promise<Map<number, AnyRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const reads = [];
  for (let i = 0; i < unique.length; i += 90) reads.push(selectRows(def, tenant, ...live(def, inArray(def.table.id, unique.slice(i, i + 90)))));
  const results = (await tenant.batch(reads as [(typeof reads)[0], ...typeof reads])) as AnyRow[][];
  return new Map(results.flat().map((row) => [row.id as number, row]));
}

/** Rows as the API shows them. */
export function present(def: AnyResource, tenant: Tenant, rows: AnyRow[]): unknown[] {
  return rows.map((row) => outputOf(def, tenant, row));
}

export function presentOutcomes(def: AnyResource, tenant: Tenant, outcomes: Outcome[]) {
  return outcomes.map((outcome) => ("row" in outcome ? { status: outcome.status, data: outputOf(def, tenant, outcome.row) } : outcome));
}

/** The column values a create or an update writes (before timestamps). */
export function valuesOf(def: AnyResource, tenant: Tenant, operation: Operation, now: number): Values {
  if (operation.op === "create") return def.toInsert(operation.data, now, tenant) as Values;
  if (operation.op === "update") return def.toUpdate(operation.data, now, tenant) as Values;
  return {};
}

function eventRulesFor(def: AnyResource, operation: Operation, values: Values): EventRule[] {
  return (def.events ?? []).filter((rule) => {
    if (rule.on === "create") return operation.op === "create";
    if (operation.op === "delete" || (operation.op === "create" && !rule.onCreate)) return false;
    const key = columnKey(def, rule.column);
    return key in values && (rule.to === undefined || values[key] === rule.to);
  });
}

/** The read-back of a written row, with its computed fields, as the statement's result. */
/** The row as the API reads it (computed fields and extensions included), for the same batch as a write. */
export function readBack(def: AnyResource, tenant: Tenant, id: number | SQL) {
  return selectRows(def, tenant, ...live(def, eq(def.table.id, id)));
}

/**
 * A write as statements for one D1 batch, with no read before it: every rule the write must respect
 * (existence, state transitions, locked fields, ordered dates, references) is a condition of its own
 * statements, and a guard aborts the whole batch when one does not hold. Why it failed is worked out
 * afterwards, only then (`diagnose`). Events go to the outbox in the same batch, rendered by SQL.
 */
/** A single write whose statement did not apply (its row is gone or its conditions failed): work out why. */
class NotApplied extends Error {}

export function planWrite(def: AnyResource, tenant: Tenant, operation: Operation, now: number, options: { alone?: boolean } = {}): PlannedWrite {
  const table = def.table;
  const values = valuesOf(def, tenant, operation, now);

  if (operation.op === "create") {
    const problems = orderProblems(def, values);
    if (problems.length > 0) throw ApiError.validation(problems);
    const before = def.beforeCreate?.(tenant, now) ?? [];
    const guards = [
      ...referenceGuards(tenant, def.references, operation.data as Values),
      ...(def.checks ?? []).map((check, i) => tenant.assertThat(check.onCreate(values, tenant), `${def.name}:check:${i}`)),
    ];
    const insert = tenant.insert(table, { ...values, createdAt: now, updatedAt: now });
    // last_insert_rowid() is the new row until the next INSERT: read it back, then record its event.
    const inserted = sql`last_insert_rowid()`;
    const rules = eventRulesFor(def, operation, values);
    if (rules.length > 1) throw new Error(`${def.name}: at most one event per create`);
    const recorded = rules.map((rule) => {
      tenant.eventRecorded();
      return tenant.insertSelect(
        events,
        sql`SELECT ${newEventId()}, ${tenant.workspaceId}, ${rule.type}, ${rowJson(def)}, NULL, ${now}, NULL FROM ${table} WHERE ${tenant.scope(table, eq(table.id, inserted))}`,
      );
    });
    const statements = [...before, ...guards, insert, readBack(def, tenant, inserted), ...recorded];
    const readIndex = before.length + guards.length + 1;
    return { statements, finish: (results) => ({ status: 201, row: (results[readIndex] as AnyRow[])[0]! }) };
  }

  const target = live(def, eq(table.id, operation.id));
  if (operation.op === "delete") {
    const conditions = [...target, ...deleteConditions(def)];
    const remove = def.softDelete ? tenant.update(table, { ...def.softDelete.set(now), updatedAt: now }, ...conditions) : tenant.delete(table, ...conditions);
    return {
      statements: [remove, tenant.assertChanged(`${def.name}:${operation.id}`)],
      finish: () => ({ status: 200, data: { id: operation.id, deleted: true } }),
    };
  }

  // An update that changes nothing reads the row and leaves updated_at alone.
  if (Object.keys(values).length === 0) {
    return {
      statements: [readBack(def, tenant, operation.id)],
      finish: ([rows]) => {
        const row = (rows as AnyRow[])[0];
        if (!row) throw ApiError.notFound(def.singular);
        return { status: 200, row };
      },
    };
  }

  const guards = referenceGuards(tenant, def.references, operation.data as Values);
  // Change events are written before the UPDATE, while the old value can still be read (previous
  // attributes); their data is filled from the updated row right after it. If the update does not
  // apply, the guard after it rolls the event back with everything else.
  const rules = eventRulesFor(def, operation, values).flatMap((rule) => (rule.on === "change" ? [rule] : []));
  const eventIds = rules.map(() => newEventId());
  const recorded = rules.map((rule, i) => {
    tenant.eventRecorded();
    const previous = rule.previous ? sql`json_object(${rule.field}, ${rule.column})` : sql`NULL`;
    const changes = sql`${rule.column} IS NOT ${values[columnKey(def, rule.column)]}`;
    return tenant.insertSelect(
      events,
      sql`SELECT ${eventIds[i]}, ${tenant.workspaceId}, ${rule.type}, '{}', ${previous}, ${now}, NULL FROM ${table} WHERE ${tenant.scope(table, ...target, changes)}`,
    );
  });
  const checks = (def.checks ?? []).map((check) => check.onUpdate(values, tenant));
  const update = tenant.update(table, { ...values, updatedAt: now }, ...target, ...updateConditions(def, operation.data as Values, values), ...checks);
  const fills = eventIds.map((eventId) =>
    tenant.update(
      events,
      { data: sql`(SELECT ${rowJson(def)} FROM ${table} WHERE ${tenant.scope(table, eq(table.id, operation.id))})` },
      eq(events.id, eventId),
    ),
  );
  // Without computed fields the UPDATE returns the row as it is after the write: no read-back statement.
  if (!def.computed && extensions(def, tenant).length === 0) {
    // Alone in its batch, with nothing before it to roll back, an UPDATE that did not apply simply returns
    // no row: no guard statement is needed to abort the batch (the hot path of a board move).
    if (options.alone && guards.length === 0 && recorded.length === 0) {
      return {
        statements: [update.returning()],
        finish: ([rows]) => {
          const row = (rows as AnyRow[])[0];
          if (!row) throw new NotApplied();
          return { status: 200, row };
        },
      };
    }
    const statements = [...guards, ...recorded, update.returning(), tenant.assertChanged(`${def.name}:${operation.id}`), ...fills];
    const updateIndex = guards.length + recorded.length;
    return { statements, finish: (results) => ({ status: 200, row: (results[updateIndex] as AnyRow[])[0]! }) };
  }
  const statements = [...guards, ...recorded, update, tenant.assertChanged(`${def.name}:${operation.id}`), ...fills, readBack(def, tenant, operation.id)];
  return { statements, finish: (results) => ({ status: 200, row: (results.at(-1) as AnyRow[])[0]! }) };
}

/**
 * Why a write cannot apply to the row as it is now (the row, the state rules, the dates, the
 * references), as the error to answer; null when it could (the guard saw a state that has since
 * changed, or the input passes every rule).
 */
export function explainRefusal(def: AnyResource, operation: Operation, values: Values, existing: Values | null, references: ErrorDetail[]): ApiError | null {
  if (operation.op !== "create" && !existing) return ApiError.notFound(def.singular);
  try {
    if (operation.op === "delete") checkDeletable(def, existing!);
    if (operation.op === "update") checkStateRules(def, operation.data as Values, values, existing!);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  const problems = [...(operation.op === "update" ? orderProblems(def, merged(existing!, values)) : []), ...references];
  return problems.length > 0 ? ApiError.validation(problems) : null;
}

/** After a guard aborted a single write: read what is needed to say why. */
async function diagnose(def: AnyResource, tenant: Tenant, operation: Operation, now: number): Promise<ApiError> {
  const existing = operation.op === "create" ? null : await loadRow(def, tenant, operation.id);
  const references =
    operation.op === "delete" || (operation.op === "update" && !existing) ? [] : await referenceProblems(tenant, def.references, operation.data as Values);
  const values = valuesOf(def, tenant, operation, now);
  const refusal = explainRefusal(def, operation, values, existing, references);
  if (refusal) return refusal;
  if (operation.op !== "delete" && def.checks) {
    const row = operation.op === "create" ? values : merged(existing!, values);
    const found = await Promise.all(def.checks.map((check) => check.explain(tenant, row, operation.op === "update" ? operation.id : null)));
    // Bad input first (400); a clash with other rows (a check marked `conflict`) is a 409.
    const problems = found.flatMap((list, i) => (def.checks![i]!.conflict ? [] : list));
    if (problems.length > 0) return ApiError.validation(problems);
    const clashes = found.flatMap((list, i) => (def.checks![i]!.conflict ? list : []));
    if (clashes.length > 0) return new ApiError("conflict", `${clashes[0]!.path ? `${clashes[0]!.path}: ` : ""}${clashes[0]!.message}`, { details: clashes });
  }
  return concurrentChange(def);
}

export function concurrentChange(def: AnyResource): ApiError {
  return new ApiError("conflict", `The ${def.singular} was changed by another request while this one ran; nothing was written. Read it again and retry.`);
}

/** Runs planned writes in one D1 batch (one transaction) and reads each result. */
export async function executeWrites(
  def: AnyResource,
  tenant: Tenant,
  plans: PlannedWrite[],
  onGuardFailure: () => Promise<ApiError> | ApiError,
): Promise<Outcome[]> {
  const statements = plans.flatMap((plan) => plan.statements);
  let results: unknown[];
  try {
    results = await tenant.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    if (isGuardFailure(error)) throw await onGuardFailure();
    throw constraintError(def, error) ?? error;
  }
  let offset = 0;
  try {
    return plans.map((plan) => {
      const own = results.slice(offset, offset + plan.statements.length);
      offset += plan.statements.length;
      return plan.finish(own);
    });
  } catch (error) {
    if (error instanceof NotApplied) throw await onGuardFailure();
    throw error;
  }
}

/** Constraint failures become 409s naming the field; never a 500 from an index or a foreign key. */
/** The cause of a refusal by the money_totals bound. */
export const MONEY_TOTAL = "money_total_exceeded";

export function constraintError(def: AnyResource, error: unknown): ApiError | null {
  for (const unique of def.uniques) {
    if (isUniqueViolation(error, unique.constraint)) {
      const details: ErrorDetail[] = [{ path: unique.field, message: `already used by another ${def.singular}` }];
      return new ApiError("conflict", `${unique.field}: already used by another ${def.singular}`, { details });
    }
  }
  if (def.summed && isMoneyTotalExceeded(error)) {
    const message = `would make this workspace's total of ${def.summed.what} in this currency exceed ${MAX_MINOR_UNITS} minor units (2^53 − 1), the largest amount the API can report exactly`;
    // Marked, so an atomic batch can say which of its operations crossed the bound (see batch.ts).
    return new ApiError("validation_error", `${def.summed.field}: ${message}`, { details: [{ path: def.summed.field, message }], cause: MONEY_TOTAL });
  }
  if (isForeignKeyViolation(error)) {
    return new ApiError("conflict", `This ${def.singular} is still referenced by other records; remove those first`);
  }
  return null;
}

/** One write on its own (the single-resource endpoints and the assistant's actions), presented. */
export async function runWrite(def: AnyResource, tenant: Tenant, requested: Operation, now = Date.now()) {
  const operation = await prepared(def, tenant, requested);
  const plan = planWrite(def, tenant, operation, now, { alone: true });
  const [outcome] = presentOutcomes(def, tenant, await executeWrites(def, tenant, [plan], () => diagnose(def, tenant, operation, now)));
  return outcome!;
}

/**
 * The body with what other packages' input fields name resolved (one read each, before the write's batch):
 * a field of a package that is off for the workspace → 403 package_disabled.
 */
async function prepared(def: AnyResource, tenant: Tenant, operation: Operation): Promise<Operation> {
  if (operation.op === "delete") return operation;
  let data = operation.data as Values;
  for (const { pkg, extension } of tenant.disabledExtensionsOf(def.name)) if (extension.uses?.(data)) throw packageDisabled(pkg);
  for (const { extension } of tenant.extensionsOf(def.name)) if (extension.prepare) data = await extension.prepare(data, tenant);
  return { ...operation, data };
}
