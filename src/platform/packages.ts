import type { z } from "@hono/zod-openapi";
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Hono } from "hono";
import type { Router } from "./app";
import type { AppEnv, Env } from "./context";
import type { Database } from "./db";
import type { Role } from "./schema";
import type { SealedColumn } from "./secrets";
import type { Skill } from "./skills";
import type { Sweep } from "./sweeps";
import type { WidgetDefinition } from "./widgets";

export type Tier = "core" | 1 | 2 | "add-on";

/** An event a package fires: its payload is documented in the OpenAPI `webhooks` section. */
export type EventDeclaration = { description: string; data: z.ZodType; previous?: z.ZodType };

/** Read-only fields one package adds to another's resource, read in the same statement (while it is enabled). */
export type ResourceExtension = {
  resource: string;
  /** Row property → SQL over the resource's row (a correlated subquery). */
  computed: Record<string, SQL>;
  /** Output field → how to read it from the row. */
  output: Record<string, (row: Record<string, unknown>) => unknown>;
};

/**
 * Where a package's on/off state lives, when not in the workspace's list of disabled packages
 * (a pro app's state is its SSO app's `enabled`).
 */
export type EnabledState = {
  /** An SQL condition, true while the package is enabled for the workspace. */
  isEnabled(workspaceId: number): SQL;
  /** The statement that switches it, applied only if `guard` holds when it runs. */
  set(db: Database, workspaceId: number, enabled: boolean, guard: SQL, now: number): BatchItem<"sqlite">;
  /** Why it cannot be switched on, if it cannot (e.g. no app_url yet); checked after a refused switch. */
  notReady?(db: Database, workspaceId: number): Promise<string | null>;
};

/**
 * A package: the unit of the platform and of the product. It owns its tables, routes, events,
 * dashboard widgets and assistant skills; the platform derives the catalogue, the dependency graph,
 * route gating (403 package_disabled), scopes and the reference's tag groups from these manifests.
 */
/** A workspace and the shard holding its data. */
export type WorkspaceOnShard = { id: number; shard: string };

export type PackageManifest = {
  name: string;
  title: string;
  tier: Tier;
  /** One sentence for the catalogue and the API reference. */
  description: string;
  dependsOn: string[];
  /** Business resources it serves (API-token scopes are `<resource>:read|write`). */
  resources: string[];
  /** The lowest role that may read or write a resource, where it is not viewer (read) and member (write). */
  roles?: Record<string, { read?: Role; write?: Role }>;
  /**
   * Public collection endpoints (web pages post to them): counted per client IP under their own limit
   * instead of the anonymous 60 a minute, and taking JSON sent as text/plain (navigator.sendBeacon).
   */
  collectors?: { path: string; perMinute: number }[];
  /**
   * Path prefixes of public endpoints authenticated by a signature over their raw body (chat platforms'
   * webhooks): the platform neither parses their body nor counts them; they do both themselves.
   */
  inbound?: string[];
  routers: Router[];
  /** Every table holding a workspace's rows for this package (for moving a workspace between shards). */
  tables: SQLiteTable[];
  events?: Record<string, EventDeclaration>;
  extends?: ResourceExtension[];
  sealedColumns?: SealedColumn[];
  sweeps?: Sweep[];
  /** Not in the workspace's list of disabled packages (tier 2: the SSO app). */
  enabledState?: EnabledState;
  /** Dashboard widgets, in the order the dashboard shows them. */
  widgets?: WidgetDefinition[];
  /** Where its widgets sit on the dashboard among other packages' (lower first; default 100). */
  dashboardPosition?: number;
  /** What the assistant can answer and do in this package (see skills.ts). */
  skills?: Skill[];
  /** Queue consumers: queue name → handler (a dead-letter queue `<name>-dlq` not listed goes to `<name>`'s). */
  consumers?: Record<string, (batch: MessageBatch<unknown>, env: Env) => Promise<void>>;
  /** Runs after a request that recorded outbox events has answered (webhooks fan them out). */
  onEventsRecorded?: (env: Env, workspace: WorkspaceOnShard) => Promise<unknown>;
  /** Pages served outside the API, at the site root. */
  pages?: Hono<AppEnv>[];
};

export function definePackage<const M extends PackageManifest>(manifest: M): M {
  return manifest;
}

const TIER_ORDER: Record<string, number> = { core: 0, 1: 1, "add-on": 2, 2: 3 };

/** The packages of this build, checked once when the worker starts. */
export class PackageRegistry {
  readonly all: PackageManifest[];
  private readonly byName: Map<string, PackageManifest>;

  constructor(manifests: PackageManifest[]) {
    this.all = manifests;
    this.byName = new Map();
    for (const manifest of manifests) {
      if (this.byName.has(manifest.name)) throw new Error(`package ${manifest.name} is listed twice`);
      this.byName.set(manifest.name, manifest);
    }
    for (const manifest of manifests) {
      for (const dependency of manifest.dependsOn) {
        if (!this.byName.has(dependency)) throw new Error(`package ${manifest.name} depends on unknown package ${dependency}`);
        if (this.byName.get(dependency)!.tier === "core") throw new Error(`package ${manifest.name} depends on ${dependency}, which is core (always on)`);
      }
      if (manifest.tier === "core" && manifest.dependsOn.length > 0) throw new Error(`core package ${manifest.name} cannot depend on packages`);
    }
    this.ordered(manifests.map((manifest) => manifest.name));
    const resources = new Map<string, string>();
    for (const manifest of manifests) {
      for (const resource of manifest.resources) {
        if (resources.has(resource)) throw new Error(`resource ${resource} is served by ${resources.get(resource)} and ${manifest.name}`);
        resources.set(resource, manifest.name);
      }
      for (const extension of manifest.extends ?? []) {
        if (!resources.has(extension.resource) && !manifests.some((m) => m.resources.includes(extension.resource))) {
          throw new Error(`package ${manifest.name} extends unknown resource ${extension.resource}`);
        }
        if (!this.dependsOnTransitively(manifest.name, this.packageOfResource(extension.resource, manifests))) {
          throw new Error(`package ${manifest.name} extends ${extension.resource} without depending on its package`);
        }
      }
    }
  }

  get(name: string): PackageManifest | undefined {
    return this.byName.get(name);
  }

  /** The packages a workspace can switch, tier 1 first, then add-ons, then the pro apps. */
  catalogue(): PackageManifest[] {
    return this.all.filter((manifest) => manifest.tier !== "core").sort((a, b) => TIER_ORDER[String(a.tier)]! - TIER_ORDER[String(b.tier)]!);
  }

  dependents(name: string): string[] {
    return this.all.filter((manifest) => manifest.dependsOn.includes(name)).map((manifest) => manifest.name);
  }

  /** `names` and everything they depend on, dependencies first; throws on a cycle. */
  ordered(names: string[]): string[] {
    const done = new Set<string>();
    const visiting: string[] = [];
    const out: string[] = [];
    const visit = (name: string) => {
      if (done.has(name)) return;
      if (visiting.includes(name)) throw new Error(`package dependency cycle: ${[...visiting.slice(visiting.indexOf(name)), name].join(" → ")}`);
      visiting.push(name);
      for (const dependency of this.byName.get(name)?.dependsOn ?? []) visit(dependency);
      visiting.pop();
      done.add(name);
      out.push(name);
    };
    for (const name of names) visit(name);
    return out;
  }

  packageOfResource(resource: string, manifests = this.all): string | undefined {
    return manifests.find((manifest) => manifest.resources.includes(resource))?.name;
  }

  private dependsOnTransitively(name: string, target: string | undefined): boolean {
    if (!target) return false;
    return this.ordered([name]).includes(target);
  }

  resources(): string[] {
    return this.all.flatMap((manifest) => manifest.resources);
  }

  /** The lowest role for reading or writing a resource. */
  minimumRole(resource: string, action: "read" | "write"): Role {
    const declared = this.all.find((manifest) => manifest.resources.includes(resource))?.roles?.[resource]?.[action];
    return declared ?? (action === "read" ? "viewer" : "member");
  }

  extensionsOf(resource: string): { pkg: string; extension: ResourceExtension }[] {
    return this.all.flatMap((manifest) =>
      (manifest.extends ?? []).filter((extension) => extension.resource === resource).map((extension) => ({ pkg: manifest.name, extension })),
    );
  }

  events(): Record<string, EventDeclaration> {
    return Object.assign({}, ...this.all.map((manifest) => manifest.events ?? {}));
  }
}

let current: PackageRegistry | undefined;

/** The registry of the running worker (set once by the composition root). */
export function registry(): PackageRegistry {
  if (!current) throw new Error("the package registry is not set: createPlatform() must run first");
  return current;
}

export function setRegistry(next: PackageRegistry): void {
  current = next;
}
