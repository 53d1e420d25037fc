import { z } from "@hono/zod-openapi";
import { eq, getTableColumns, inArray, isNull } from "drizzle-orm";
import { ApiError, type ErrorBody, type ErrorDetail } from "../errors";
import { MAX_MINOR_UNITS } from "../fields";
import { moneyTotals } from "../schema";
import type { Statement, Tenant } from "../tenancy";
import { issuesToDetails } from "../validation";
import type { AnyResource } from "./definition";
import { columnKey } from "./definition";
import { merged } from "./rules";
import {
  concurrentChange,
  executeWrites,
  explainRefusal,
  MONEY_TOTAL,
  type Operation,
  type PlannedWrite,
  planWrite,
  presentOutcomes,
  runWrite,
  selectRows,
  valuesOf,
} from "./writes";

type Values = Record<string, unknown>;

export const MAX_BATCH_OPERATIONS = 100;

export const BatchBody = z.strictObject({
  atomic: z.boolean().optional().openapi({ description: "All or nothing (default true)" }),
  operations: z
    .array(
      z.strictObject({
        op: z.enum(["create", "update", "delete"]),
        id: z.number().int().positive().optional(),
        data: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1, "must contain at least one operation")
    .max(MAX_BATCH_OPERATIONS, `must contain at most ${MAX_BATCH_OPERATIONS} operations`),
});

export const BatchResult = z
  .object({
    results: z.array(
      z.object({
        index: z.number().int(),
        status: z.number().int(),
        data: z.unknown().optional(),
        error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }).optional(),
      }),
    ),
  })
  .openapi("BatchResult");

type RawOperation = z.infer<typeof BatchBody>["operations"][number];

/** Checks one operation's shape and fields; problems carry its index and a path inside the request. */
function parseOperation(def: AnyResource, raw: RawOperation, index: number): { operation?: Operation; problems: ErrorDetail[] } {
  const at = (path: string, message: string): ErrorDetail => ({ index, path: `operations.${index}.${path}`, message });
  if (raw.op !== "create" && raw.id === undefined) return { problems: [at("id", "is required")] };
  if (raw.op === "create" && raw.id !== undefined) return { problems: [at("id", "must not be set on create")] };
  if (raw.op === "delete") {
    if (raw.data !== undefined) return { problems: [at("data", "must not be set on delete")] };
    return { operation: { op: "delete", id: raw.id! }, problems: [] };
  }
  const schema = raw.op === "create" ? def.schemas.create : def.schemas.update;
  const parsed = schema.safeParse(raw.data ?? {});
  if (!parsed.success) {
    return { problems: issuesToDetails(parsed.error.issues, ["operations", index, "data"]).map((detail) => ({ ...detail, index })) };
  }
  return { operation: raw.op === "create" ? { op: "create", data: parsed.data } : { op: "update", id: raw.id!, data: parsed.data }, problems: [] };
}

function withIndex(index: number, error: ApiError): ErrorDetail[] {
  if (error.code === "not_found") return [{ index, path: `operations.${index}.id`, message: error.message }];
  const details = Array.isArray(error.options.details) ? error.options.details : [{ path: error.options.field ?? "", message: error.message }];
  return details.map((detail) => ({ ...detail, index, path: `operations.${index}${detail.path ? `.data.${detail.path}` : ""}` }));
}

/**
 * One D1 batch that reads everything an atomic batch is judged against: the rows its updates and
 * deletes name, and which of the rows its operations reference exist in this workspace.
 */
async function preload(def: AnyResource, tenant: Tenant, operations: Operation[]) {
  const ids = [...new Set(operations.flatMap((operation) => (operation.op === "create" ? [] : [operation.id])))];
  const referenced = (def.references ?? []).map((ref) => ({
    ref,
    ids: [
      ...new Set(
        operations.flatMap((operation) =>
          "data" in operation && typeof (operation.data as Values)[ref.field] === "number" ? [(operation.data as Values)[ref.field] as number] : [],
        ),
      ),
    ],
  }));
  const reads: { kind: "row" | number; query: Statement }[] = [];
  for (const chunk of chunks(ids))
    reads.push({ kind: "row", query: selectRows(def, tenant, def.softDelete ? isNull(def.softDelete.column) : undefined, inArray(def.table.id, chunk)) });
  referenced.forEach(({ ref, ids: refIds }, position) => {
    for (const chunk of chunks(refIds)) {
      reads.push({
        kind: position,
        query: tenant.selectFrom({ id: ref.table.id }, ref.table, inArray(ref.table.id, chunk), ref.live),
      });
    }
  });
  const rows = new Map<number, Values>();
  const found = referenced.map(() => new Set<number>());
  if (reads.length > 0) {
    const results = (await tenant.batch(reads.map((read) => read.query) as [Statement, ...Statement[]])) as Values[][];
    results.forEach((result, i) => {
      const kind = reads[i]!.kind;
      for (const row of result) kind === "row" ? rows.set(row.id as number, row) : found[kind]!.add(row.id as number);
    });
  }
  const referenceProblems = (operation: Operation): ErrorDetail[] =>
    operation.op === "delete"
      ? []
      : referenced.flatMap(({ ref }, position) => {
          const id = (operation.data as Values)[ref.field];
          return typeof id === "number" && !found[position]!.has(id) ? [{ path: ref.field, message: `no ${ref.what} with this id in this workspace` }] : [];
        });
  return { rows, referenceProblems };
}

function chunks(ids: number[], size = 90): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/**
 * Atomic: every operation is judged before anything is written, in order, against the rows as the
 * operations before it leave them (an update after a delete of the same row is a 404; two stage moves
 * of one deal are judged one after the other). Any problem → 400 with per-index details. Then all
 * statements run in one D1 batch; each carries its own conditions and guards, so a row changed by
 * another request meanwhile aborts the whole batch (409) instead of committing part of it.
 */
async function runAtomic(def: AnyResource, tenant: Tenant, raws: RawOperation[]) {
  const problems: ErrorDetail[] = [];
  const operations: { index: number; operation: Operation }[] = [];
  raws.forEach((raw, index) => {
    const parsed = parseOperation(def, raw, index);
    problems.push(...parsed.problems);
    if (parsed.operation) operations.push({ index, operation: parsed.operation });
  });

  const loaded = await preload(
    def,
    tenant,
    operations.map(({ operation }) => operation),
  );
  const state = new Map<number, Values | null>(loaded.rows);
  const now = Date.now();
  const plans: PlannedWrite[] = [];
  for (const { index, operation } of operations) {
    const existing = operation.op === "create" ? null : (state.get(operation.id) ?? null);
    try {
      const values = valuesOf(def, tenant, operation, now);
      const refusal = explainRefusal(def, operation, values, existing, loaded.referenceProblems(operation));
      if (refusal) throw refusal;
      plans.push(planWrite(def, tenant, operation, now));
      if (operation.op === "update") state.set(operation.id, merged(existing!, values));
      if (operation.op === "delete") state.set(operation.id, null);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.push(...withIndex(index, error));
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    throw ApiError.validation(problems);
  }
  try {
    const outcomes = presentOutcomes(def, tenant, await executeWrites(def, tenant, plans, () => concurrentChange(def)));
    return outcomes.map((outcome, index) => ({ index, ...outcome }));
  } catch (error) {
    if (error instanceof ApiError && error.options.cause === MONEY_TOTAL) throw await overTheBound(def, tenant, operations, loaded.rows, now, error);
    if (error instanceof ApiError && error.code === "conflict") throw await whichCollided(def, tenant, operations, now, error);
    throw error;
  }
}

/**
 * After the money_totals bound refused an atomic batch: which operations crossed it, found by replaying
 * the batch's amounts in order over the workspace's totals (read only now, on this failure path).
 */
async function overTheBound(
  def: AnyResource,
  tenant: Tenant,
  operations: { index: number; operation: Operation }[],
  rows: Map<number, Values>,
  now: number,
  refusal: ApiError,
) {
  const summed = def.summed!;
  const [amountKey, currencyKey] = [columnKey(def, summed.column), columnKey(def, summed.currency)];
  const totals = new Map((await tenant.select(moneyTotals, eq(moneyTotals.kind, summed.kind))).map((row) => [row.currency, BigInt(row.amount)] as const));
  const state = new Map<number, Values | null>(rows);
  const problems: ErrorDetail[] = [];
  for (const { index, operation } of operations) {
    const before = operation.op === "create" ? null : (state.get(operation.id) ?? null);
    const after =
      operation.op === "delete"
        ? null
        : operation.op === "create"
          ? valuesOf(def, tenant, operation, now)
          : merged(before!, valuesOf(def, tenant, operation, now));
    const amount = (row: Values | null) => (row && typeof row[amountKey] === "number" ? BigInt(row[amountKey] as number) : 0n);
    const currency = (row: Values | null) => (row && typeof row[currencyKey] === "string" ? (row[currencyKey] as string) : null);
    const [was, is] = [currency(before), currency(after)];
    if (was) totals.set(was, (totals.get(was) ?? 0n) - amount(before));
    if (is) {
      const total = (totals.get(is) ?? 0n) + amount(after);
      totals.set(is, total);
      if (total > BigInt(MAX_MINOR_UNITS))
        problems.push({
          index,
          path: `operations.${index}.data.${summed.field}`,
          message: refusal.options.details && Array.isArray(refusal.options.details) ? refusal.options.details[0]!.message : refusal.message,
        });
    }
    if (operation.op !== "create") state.set(operation.id, after);
  }
  return problems.length > 0 ? ApiError.validation(problems) : refusal;
}

/**
 * After a unique value refused an atomic batch: which operations hold it — a value already in another row,
 * or one the batch uses twice — so the 409 names them (operations.{i}.data.{field}), as a 400 would.
 */
async function whichCollided(def: AnyResource, tenant: Tenant, operations: { index: number; operation: Operation }[], now: number, refusal: ApiError) {
  const field = (Array.isArray(refusal.options.details) ? refusal.options.details[0]?.path : undefined) ?? "";
  const unique = def.uniques.find((candidate) => candidate.field === field);
  const column = unique && Object.values(getTableColumns(def.table)).find((candidate) => candidate.name === unique.constraint.split(".")[1]);
  if (!unique || !column) return refusal;
  const key = columnKey(def, column);
  const written = operations.flatMap(({ index, operation }) => {
    if (operation.op === "delete") return [];
    const value = valuesOf(def, tenant, operation, now)[key];
    return typeof value === "string" || typeof value === "number" ? [{ index, operation, value }] : [];
  });
  if (written.length === 0) return refusal;
  const taken = await tenant.selectFrom({ id: def.table.id, value: column }, def.table, inArray(column, [...new Set(written.map((entry) => entry.value))]));
  const seen = new Map<unknown, number>();
  const problems: ErrorDetail[] = [];
  for (const { index, operation, value } of written) {
    const holder = taken.find((row) => row.value === value && (operation.op === "create" || row.id !== operation.id));
    if (holder || seen.has(value)) problems.push({ index, path: `operations.${index}.data.${field}`, message: `already used by another ${def.singular}` });
    seen.set(value, index);
  }
  return problems.length > 0 ? new ApiError("conflict", refusal.message, { details: problems }) : refusal;
}

/** Non-atomic: each operation stands alone, in order; failures are reported per index. */
async function runEach(def: AnyResource, tenant: Tenant, raws: RawOperation[], requestId: string | undefined) {
  const results: { index: number; status: number; data?: unknown; error?: ErrorBody }[] = [];
  for (const [index, raw] of raws.entries()) {
    try {
      const parsed = parseOperation(def, raw, index);
      if (!parsed.operation) throw ApiError.validation(parsed.problems);
      results.push({ index, ...(await runWrite(def, tenant, parsed.operation)) });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      results.push({ index, status: error.status, error: error.body(requestId) });
    }
  }
  return results;
}

export async function runBatch(def: AnyResource, tenant: Tenant, body: z.infer<typeof BatchBody>, requestId?: string) {
  const results = body.atomic === false ? await runEach(def, tenant, body.operations, requestId) : await runAtomic(def, tenant, body.operations);
  return { results };
}
