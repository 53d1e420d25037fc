import { z } from "@hono/zod-openapi";
import type { Tenant } from "../db";
import { ApiError, type ErrorBody, type ErrorDetail } from "../errors";
import { issuesToDetails } from "../validation";
import type { AnyResource } from "./definition";
import { executeWrites, loadRows, type Operation, type PlannedWrite, planWrite, presentOutcomes, runWrite } from "./writes";

export const MAX_BATCH_OPERATIONS = 100;

export const BatchBody = z
  .strictObject({
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
  })
  .openapi("BatchRequest");

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
  const details = Array.isArray(error.options.details) ? error.options.details : [{ path: "", message: error.message }];
  return details.map((detail) => ({ ...detail, index, path: `operations.${index}${detail.path ? `.data.${detail.path}` : ""}` }));
}

/**
 * Atomic: every operation is validated (fields, existence, references, state rules) before anything is
 * written, then all statements commit in one D1 batch. Any problem → 400 with per-index details.
 */
async function runAtomic(def: AnyResource, tenant: Tenant, raws: RawOperation[]) {
  const problems: ErrorDetail[] = [];
  const operations: { index: number; operation: Operation }[] = [];
  raws.forEach((raw, index) => {
    const parsed = parseOperation(def, raw, index);
    problems.push(...parsed.problems);
    if (parsed.operation) operations.push({ index, operation: parsed.operation });
  });

  const ids = operations.flatMap(({ operation }) => (operation.op === "create" ? [] : [operation.id]));
  const current = await loadRows(def, tenant, [...new Set(ids)]);
  const now = Date.now();
  const plans: PlannedWrite[] = [];
  for (const { index, operation } of operations) {
    const row = operation.op === "create" ? undefined : (current.get(operation.id) ?? null);
    if (row === null) {
      problems.push({ index, path: `operations.${index}.id`, message: `${def.singular} not found` });
      continue;
    }
    try {
      plans.push(await planWrite(def, tenant, operation, now, row));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.push(...withIndex(index, error));
    }
  }
  if (problems.length > 0) {
    problems.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    throw ApiError.validation(problems);
  }
  const outcomes = await presentOutcomes(def, tenant, await executeWrites(def, tenant, plans));
  return outcomes.map((outcome, index) => ({ index, ...outcome }));
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
