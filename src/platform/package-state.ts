import { and, type SQL, sql } from "drizzle-orm";
import { ApiError } from "./errors";
import { isGuardFailure } from "./errors-db";
import type { PackageRegistry } from "./packages";
import { workspaces } from "./schema";
import type { Statement, Tenant } from "./tenancy";

/**
 * Which packages a workspace has switched on, and switching them without ever leaving an enabled
 * package with a disabled dependency. Most packages' state is the workspace's JSON list of disabled
 * packages (all start enabled); a package with its own `enabledState` (a pro app) keeps it elsewhere.
 * Every switch is a statement conditional on the state of the packages it relates to when D1 runs it,
 * so concurrent switches cannot combine into a broken graph. `directory` is the workspace on the directory.
 */
export class PackageSwitches {
  constructor(
    private readonly directory: Tenant,
    private readonly registry: PackageRegistry,
  ) {}

  /** An SQL condition: `name` is enabled for the workspace. */
  enabledSql(name: string): SQL {
    const state = this.registry.get(name)?.enabledState;
    if (state) return state.isEnabled(this.directory);
    return sql`NOT EXISTS (SELECT 1 FROM ${workspaces}, json_each(${workspaces.disabledPackages}) d WHERE ${this.directory.own()} AND d.value = ${name})`;
  }

  /** True when every package `name` depends on is enabled (an SQL condition). */
  dependenciesEnabledSql(name: string): SQL {
    return and(sql`1`, ...this.registry.get(name)!.dependsOn.map((dependency) => this.enabledSql(dependency)))!;
  }

  /** True when no package that depends on `name` is enabled. */
  private noEnabledDependentsSql(name: string): SQL {
    return and(sql`1`, ...this.registry.dependents(name).map((dependent) => sql`NOT (${this.enabledSql(dependent)})`))!;
  }

  private switchStatement(name: string, enabled: boolean, now: number): Statement {
    const guard = enabled ? this.dependenciesEnabledSql(name) : this.noEnabledDependentsSql(name);
    const state = this.registry.get(name)!.enabledState;
    if (state) return state.set(this.directory, enabled, guard, now);
    const without = sql`(SELECT json_group_array(value) FROM json_each(${workspaces.disabledPackages}) WHERE value != ${name})`;
    return this.directory.updateOwn({ disabledPackages: enabled ? without : sql`json_insert(${without}, '$[#]', ${name})`, updatedAt: now }, guard);
  }

  /** Whether each package of the catalogue (or of `only`) is enabled for the workspace, read in one statement. */
  async states(only?: readonly string[]): Promise<Map<string, boolean>> {
    const names = only ?? this.registry.catalogue().map((manifest) => manifest.name);
    if (names.length === 0) return new Map();
    const columns = sql.join(
      names.map((name, i) => sql`(${this.enabledSql(name)}) AS ${sql.identifier(`p${i}`)}`),
      sql`, `,
    );
    const [row] = await this.directory.rows<Record<string, number>>(sql`SELECT ${columns}`);
    return new Map(names.map((name, i) => [name, row?.[`p${i}`] === 1]));
  }

  /**
   * Switches `name` on or off. Enabling a package whose dependencies are off is refused (409
   * dependency_disabled, `details[0].missing`) unless `withDependencies`, which enables them too, in
   * dependency order, in one D1 batch; disabling one an enabled package needs is refused (409
   * package_required, `details[0].required_by`). Nothing is ever switched off silently.
   */
  async switch(name: string, enabled: boolean, withDependencies: boolean): Promise<void> {
    const now = Date.now();
    let names = [name];
    if (enabled && withDependencies) {
      const states = await this.states();
      names = this.registry.ordered([name]).filter((candidate) => candidate === name || !states.get(candidate));
    }
    await this.run(name, enabled, this.statements(names, enabled, now));
  }

  /** The guarded statements that switch `names` (in this order); each aborts the batch if its rule fails. */
  statements(names: string[], enabled: boolean, now: number): Statement[] {
    return names.flatMap((candidate) => [this.switchStatement(candidate, enabled, now), this.directory.assertChanged(`package:${candidate}`)]);
  }

  /** Runs a batch that contains switch statements; a refused switch becomes the 409 that explains it. */
  async run(name: string, enabled: boolean, statements: Statement[]): Promise<unknown[]> {
    try {
      return await this.directory.batch(statements as [Statement, ...Statement[]]);
    } catch (error) {
      if (!isGuardFailure(error)) throw error;
      throw await this.explainRefusal(name, enabled);
    }
  }

  private async explainRefusal(name: string, enabled: boolean): Promise<ApiError> {
    const states = await this.states();
    if (enabled) {
      const missing = this.registry.ordered([name]).filter((candidate) => candidate !== name && !states.get(candidate));
      if (missing.length > 0) {
        const them = missing.length > 1 ? "them" : "it";
        return new ApiError(
          "dependency_disabled",
          `${name} needs ${missing.join(", ")}, which ${missing.length > 1 ? "are" : "is"} disabled; enable ${them} first, or send ?with_dependencies=true`,
          {
            details: [{ path: "enabled", message: `needs ${missing.join(", ")}`, missing }],
          },
        );
      }
      const notReady = await this.registry.get(name)!.enabledState?.notReady?.(this.directory);
      if (notReady) return new ApiError("conflict", `${name}: ${notReady}`);
    } else {
      const requiredBy = this.registry.dependents(name).filter((dependent) => states.get(dependent));
      if (requiredBy.length > 0) {
        const them = requiredBy.length > 1 ? "them" : "it";
        return new ApiError("package_required", `${requiredBy.join(", ")} ${requiredBy.length > 1 ? "depend" : "depends"} on ${name}; disable ${them} first`, {
          details: [{ path: "enabled", message: `required by ${requiredBy.join(", ")}`, required_by: requiredBy }],
        });
      }
    }
    return new ApiError("conflict", "The packages changed while this request ran; read them again and retry");
  }
}
