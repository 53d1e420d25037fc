import { and, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "./db";
import { ApiError } from "./errors";
import { assertChanged, isGuardFailure } from "./guards";
import { registry } from "./packages";
import { workspaces } from "./schema";

/**
 * Which packages a workspace has switched on, and switching them without ever leaving an enabled
 * package with a disabled dependency. Most packages' state is the workspace's JSON list of disabled
 * packages (all start enabled); a package with its own `enabledState` (a pro app) keeps it elsewhere.
 * Every switch is a statement conditional on the state of the packages it relates to when D1 runs it,
 * so concurrent switches cannot combine into a broken graph.
 */

/** An SQL condition: `name` is enabled for the workspace. */
export function enabledSql(name: string, workspaceId: number): SQL {
  const state = registry().get(name)?.enabledState;
  if (state) return state.isEnabled(workspaceId);
  return sql`NOT EXISTS (SELECT 1 FROM ${workspaces} w, json_each(w.disabled_packages) d WHERE w.id = ${workspaceId} AND d.value = ${name})`;
}

/** True when every package `name` depends on is enabled (an SQL condition). */
export function dependenciesEnabledSql(name: string, workspaceId: number): SQL {
  return and(
    sql`1`,
    ...registry()
      .get(name)!
      .dependsOn.map((dependency) => enabledSql(dependency, workspaceId)),
  )!;
}

/** True when no package that depends on `name` is enabled. */
function noEnabledDependentsSql(name: string, workspaceId: number): SQL {
  return and(
    sql`1`,
    ...registry()
      .dependents(name)
      .map((dependent) => sql`NOT (${enabledSql(dependent, workspaceId)})`),
  )!;
}

function switchStatement(db: Database, name: string, workspaceId: number, enabled: boolean, now: number): BatchItem<"sqlite"> {
  const guard = enabled ? dependenciesEnabledSql(name, workspaceId) : noEnabledDependentsSql(name, workspaceId);
  const state = registry().get(name)!.enabledState;
  if (state) return state.set(db, workspaceId, enabled, guard, now);
  const without = sql`(SELECT json_group_array(value) FROM json_each(${workspaces.disabledPackages}) WHERE value != ${name})`;
  return db
    .update(workspaces)
    .set({ disabledPackages: enabled ? without : sql`json_insert(${without}, '$[#]', ${name})`, updatedAt: now })
    .where(and(sql`${workspaces.id} = ${workspaceId}`, guard));
}

/** Whether each package of the catalogue is enabled for the workspace, read in one statement. */
export async function packageStates(db: Database, workspaceId: number): Promise<Map<string, boolean>> {
  const names = registry()
    .catalogue()
    .map((manifest) => manifest.name);
  const columns = sql.join(
    names.map((name, i) => sql`(${enabledSql(name, workspaceId)}) AS ${sql.identifier(`p${i}`)}`),
    sql`, `,
  );
  const row = await db.get<Record<string, number>>(sql`SELECT ${columns}`);
  return new Map(names.map((name, i) => [name, row?.[`p${i}`] === 1]));
}

/**
 * Switches `name` on or off for the workspace. Enabling a package whose dependencies are off is refused
 * (409 dependency_disabled, `details.missing`) unless `withDependencies`, which enables them too, in
 * dependency order, in one D1 batch; disabling one an enabled package needs is refused (409
 * package_required, `details.required_by`). Nothing is ever switched off silently.
 */
export async function switchPackage(db: Database, workspaceId: number, name: string, enabled: boolean, withDependencies: boolean): Promise<void> {
  const packages = registry();
  const now = Date.now();
  let names = [name];
  if (enabled && withDependencies) {
    const states = await packageStates(db, workspaceId);
    names = packages.ordered([name]).filter((candidate) => candidate === name || !states.get(candidate));
  }
  await runSwitch(db, workspaceId, name, enabled, switchStatements(db, workspaceId, names, enabled, now));
}

/** The guarded statements that switch `names` (in this order); each aborts the batch if its rule fails. */
export function switchStatements(db: Database, workspaceId: number, names: string[], enabled: boolean, now: number): BatchItem<"sqlite">[] {
  return names.flatMap((candidate) => [switchStatement(db, candidate, workspaceId, enabled, now), assertChanged(db, `package:${candidate}`)]);
}

/** Runs a batch that contains switch statements; a refused switch becomes the 409 that explains it. */
export async function runSwitch(db: Database, workspaceId: number, name: string, enabled: boolean, statements: BatchItem<"sqlite">[]): Promise<unknown[]> {
  try {
    return await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (!isGuardFailure(error)) throw error;
    throw await explainRefusal(db, workspaceId, name, enabled);
  }
}

async function explainRefusal(db: Database, workspaceId: number, name: string, enabled: boolean): Promise<ApiError> {
  const packages = registry();
  const states = await packageStates(db, workspaceId);
  if (enabled) {
    const missing = packages.ordered([name]).filter((candidate) => candidate !== name && !states.get(candidate));
    if (missing.length > 0) {
      return new ApiError(
        "dependency_disabled",
        `${name} needs ${missing.join(", ")}, which ${missing.length > 1 ? "are" : "is"} disabled; enable ${missing.length > 1 ? "them" : "it"} first, or send ?with_dependencies=true`,
        {
          details: [{ path: "enabled", message: `needs ${missing.join(", ")}`, missing }],
        },
      );
    }
    const notReady = await packages.get(name)!.enabledState?.notReady?.(db, workspaceId);
    if (notReady) return new ApiError("conflict", `${name}: ${notReady}`);
  } else {
    const requiredBy = packages.dependents(name).filter((dependent) => states.get(dependent));
    if (requiredBy.length > 0) {
      return new ApiError(
        "package_required",
        `${requiredBy.join(", ")} ${requiredBy.length > 1 ? "depend" : "depends"} on ${name}; disable ${requiredBy.length > 1 ? "them" : "it"} first`,
        {
          details: [{ path: "enabled", message: `required by ${requiredBy.join(", ")}`, required_by: requiredBy }],
        },
      );
    }
  }
  return new ApiError("conflict", "The packages changed while this request ran; read them again and retry");
}
