import type { z } from "@hono/zod-openapi";
import { getTableName, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Hono } from "hono";
import type { AppEnv, Env } from "./context";
import type { Router } from "./http/router";
import type { IsolateState } from "./isolate";
import type { Mailer } from "./mail/types";
import type { AnyResource } from "./resource/definition";
import type { Role } from "./schema";
import type { SealedColumn } from "./secrets";
import type { Skill } from "./skills";
import type { Statement, Tenant } from "./tenancy/tenant";
import type { NavEntry, PageShell } from "./web/shell";
import type { WidgetDefinition } from "./widgets";

export type Tier = "core" | 1 | 2 | "add-on";

/** An event a package fires: its payload is documented in the OpenAPI `webhooks` section. */
export type EventDeclaration = { description: string; data: z.ZodType; previous?: z.ZodType };

/**
 * What one package adds to another's resource while it is enabled: read-only fields, read in the same
 * statement, and the meaning of input fields the resource accepts on its behalf (a line's `product_id`).
 */
export type ResourceExtension = {
  resource: string;
  /** Row property → SQL over the resource's row (a correlated subquery). */
  computed?: Record<string, SQL>;
  /** Output field → how to read it from the row. */
  output?: Record<string, (row: Record<string, unknown>) => unknown>;
  /** Whether a create or update body uses the fields this package gives meaning to: refused (403 package_disabled) while it is off. */
  uses?: (input: Record<string, unknown>) => boolean;
  /**
   * Resolves what those fields name before the write, in one read (the products a line names fill in its
   * description, price and tax). Single writes only: the registry refuses it on a resource with batch routes.
   */
  prepare?: (input: Record<string, unknown>, tenant: Tenant) => Promise<Record<string, unknown>>;
};

/**
 * Where a package's on/off state lives, when not in the workspace's list of disabled packages
 * (a pro app's state is its SSO app's `enabled`). `directory` is the workspace on the directory database.
 */
export type EnabledState = {
  /** An SQL condition, true while the package is enabled for the workspace. */
  isEnabled(directory: Tenant): SQL;
  /** The statement that switches it, applied only if `guard` holds when it runs. */
  set(directory: Tenant, enabled: boolean, guard: SQL, now: number): Statement;
  /** Why it cannot be switched on, if it cannot (e.g. no app_url yet); checked after a refused switch. */
  notReady?(directory: Tenant): Promise<string | null>;
};

/** A workspace and the shard holding its data. */
export type WorkspaceOnShard = { id: number; shard: string };

/** What background work (queue consumers, cron sweeps) gets of the worker: its registry and isolate caches. */
export type Background = { readonly registry: PackageRegistry; readonly isolate: IsolateState };

/**
 * Where inbound e-mail goes: `takes` says whether a recipient address is this mailbox's; `receive` parses and
 * stores the message, or rejects it with a reason (message.setReject), and names the workspace whose outbox
 * events it recorded (their hooks run, as after a request).
 */
export type Mailbox = {
  takes(to: string, env: Env): boolean;
  receive(message: ForwardableEmailMessage, env: Env, worker: Background): Promise<{ eventsOf?: { id: number; shard: string } } | undefined>;
};

/** A scheduled job (the cron runs every one each minute); `name` appears in its failure's log line. */
export type Sweep = { name: string; run(env: Env, now: number, worker: Background): Promise<unknown> };

/**
 * A package: the unit of the platform and of the product. It owns its tables, routes, events, dashboard
 * widgets and assistant skills; the platform derives the catalogue, the dependency graph, route gating
 * (403 package_disabled), scopes, the generated resource routes and the reference's tags from these manifests.
 */
export type PackageManifest = {
  name: string;
  title: string;
  tier: Tier;
  /** One sentence for the catalogue and the API reference. */
  description: string;
  /** Packages that must be enabled for this one to be (the graph of GET /packages). */
  dependsOn: string[];
  /**
   * Packages this one links to without needing them on (a deal's customer, a task's assignee): it may use
   * their tables for references, and nothing more. The registry refuses a link to an undeclared package.
   */
  optionalDependsOn?: string[];
  /** Business resources: the platform serves their list, get, create, update, delete and batch routes. */
  resources?: AnyResource[];
  /** Other permission names it checks (`analytics`): API-token scopes are `<name>:read|write` as for resources. */
  scopes?: string[];
  /** The lowest role that may read or write a resource or scope, where it is not viewer (read) and member (write). */
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
  /** Routes whose body is a file (its bytes, any Content-Type), read by the route with rawBody under its own limit. */
  uploads?: { method: "PUT" | "POST"; path: RegExp }[];
  /**
   * Public, static responses (the analytics tracker script): registered before authentication and the
   * rate limiter, so they are never counted, like a static asset.
   */
  staticRouters?: Router[];
  /** Routes beyond the resources' own (actions, reports): one router per resource or per group, each in its own file. */
  routers?: Router[];
  /** The reference's words for the tags of its routers (a resource's tag is described by its definition). */
  tags?: Record<string, string>;
  /** Every table holding a workspace's rows on its shard (for moving a workspace between shards). */
  tables: SQLiteTable[];
  /** Its tables in the directory database (users, tokens, SSO apps…): never on a shard, never moved. */
  directoryTables?: SQLiteTable[];
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
  consumers?: Record<string, (batch: MessageBatch<unknown>, env: Env, worker: Background) => Promise<void>>;
  /**
   * Inbound e-mail it receives (Email Routing → the worker's email() handler): `takes` says whether a
   * recipient address is its, `receive` parses and stores the message (or rejects it with a reason).
   */
  mailboxes?: Mailbox[];
  /** Renderers of the messages it sends through the mail outbox, by kind (see platform/mail). */
  mailers?: Record<string, Mailer>;
  /** Runs after a request that recorded outbox events has answered (webhooks fan them out). */
  onEventsRecorded?: (env: Env, workspace: WorkspaceOnShard, worker: Background) => Promise<unknown>;
  /** Pages served outside the API, at the site root. */
  pages?: Hono<AppEnv>[];
  /** Its links in the web app's navigation. */
  nav?: NavEntry[];
  /** The layout around every signed-in page (the web module's; one package provides it). */
  shell?: PageShell;
  /** Routes outside /api/v1 for operators (not switchable, not in the reference). */
  operatorRoutes?: Hono<AppEnv>[];
};

export function definePackage<const M extends PackageManifest>(manifest: M): M {
  return manifest;
}

const TIER_ORDER: Record<string, number> = { core: 0, 1: 1, "add-on": 2, 2: 3 };

/**
 * The packages of this build, checked once when the worker starts: names unique, dependencies known and
 * acyclic, every resource served once, and every link between packages declared — a reference to another
 * package's table, an extension of its resource, a widget reading it — or the worker does not start.
 */
export class PackageRegistry {
  readonly all: PackageManifest[];
  private readonly byName: Map<string, PackageManifest>;
  private readonly resourceOwners = new Map<string, string>();
  private readonly tableOwners = new Map<SQLiteTable, string>();

  constructor(manifests: PackageManifest[]) {
    this.all = manifests;
    this.byName = new Map();
    for (const manifest of manifests) {
      if (this.byName.has(manifest.name)) throw new Error(`package ${manifest.name} is listed twice`);
      this.byName.set(manifest.name, manifest);
    }
    for (const manifest of manifests) {
      for (const dependency of [...manifest.dependsOn, ...(manifest.optionalDependsOn ?? [])]) {
        if (!this.byName.has(dependency)) throw new Error(`package ${manifest.name} depends on unknown package ${dependency}`);
        if (this.byName.get(dependency)!.tier === "core") throw new Error(`package ${manifest.name} depends on ${dependency}, which is core (always on)`);
      }
      if (manifest.tier === "core" && manifest.dependsOn.length > 0) throw new Error(`core package ${manifest.name} cannot depend on packages`);
      for (const name of this.resourceNames(manifest)) {
        if (this.resourceOwners.has(name)) throw new Error(`resource ${name} is served by ${this.resourceOwners.get(name)} and ${manifest.name}`);
        this.resourceOwners.set(name, manifest.name);
      }
      for (const table of [...manifest.tables, ...(manifest.directoryTables ?? [])]) this.tableOwners.set(table, manifest.name);
    }
    this.ordered(manifests.map((manifest) => manifest.name));
    for (const manifest of manifests) this.checkLinks(manifest);
    this.checkSearchCodes();
  }

  /** Each resource in the search index has its own code (its part of the index's row ids), 1–63. */
  private checkSearchCodes(): void {
    const codes = new Map<number, string>();
    for (const { definition } of this.definitions()) {
      if (!definition.search) continue;
      const { code } = definition.search;
      if (!Number.isInteger(code) || code < 1 || code > 63) throw new Error(`${definition.name}: search code ${code} is not 1–63`);
      if (codes.has(code)) throw new Error(`${definition.name} and ${codes.get(code)} share search code ${code}`);
      codes.set(code, definition.name);
    }
  }

  /** Every link from `manifest` to another package must be to one it declares (required or optional). */
  private checkLinks(manifest: PackageManifest): void {
    const declared = new Set([manifest.name, ...manifest.dependsOn, ...(manifest.optionalDependsOn ?? [])]);
    const refuse = (what: string, owner: string | undefined) => {
      if (owner && !declared.has(owner)) {
        throw new Error(`package ${manifest.name} ${what} of package ${owner} without declaring it (dependsOn or optionalDependsOn)`);
      }
    };
    for (const definition of manifest.resources ?? []) {
      for (const reference of definition.references ?? []) {
        const owner = this.tableOwners.get(reference.table);
        if (!owner) throw new Error(`${definition.name}.${reference.field} references ${getTableName(reference.table)}, which no package lists in its tables`);
        refuse(`references ${getTableName(reference.table)}`, owner);
      }
    }
    for (const extension of manifest.extends ?? []) {
      const owner = this.resourceOwners.get(extension.resource);
      if (!owner) throw new Error(`package ${manifest.name} extends unknown resource ${extension.resource}`);
      // It needs the owner on, or links to it (optionalDependsOn): then it adds to the resource while both are on.
      if (!this.ordered([manifest.name]).includes(owner) && !manifest.optionalDependsOn?.includes(owner))
        throw new Error(`package ${manifest.name} extends ${extension.resource} without declaring ${owner}`);
      const served = this.definitions().find(({ definition }) => definition.name === extension.resource)?.definition;
      if ((extension.prepare || extension.uses) && served?.routes?.batch !== false)
        throw new Error(`package ${manifest.name} reads the input of ${extension.resource}, which has batch routes (only single writes are prepared)`);
    }
    for (const widget of manifest.widgets ?? [])
      for (const resource of widget.reads) refuse(`has a widget reading ${resource}`, this.resourceOwners.get(resource));
  }

  private resourceNames(manifest: PackageManifest): string[] {
    return [...(manifest.resources ?? []).map((definition) => definition.name), ...(manifest.scopes ?? [])];
  }

  get(name: string): PackageManifest | undefined {
    return this.byName.get(name);
  }

  /** The layout of the web app's pages, from the package that provides it (the web module). */
  shell(): PageShell | undefined {
    return this.all.find((manifest) => manifest.shell)?.shell;
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

  /** The package serving a resource or scope. */
  packageOfResource(resource: string): string | undefined {
    return this.resourceOwners.get(resource);
  }

  /** Every resource and scope name, in package order. */
  resources(): string[] {
    return this.all.flatMap((manifest) => this.resourceNames(manifest));
  }

  /** The resource names a package serves (GET /packages). */
  resourcesOf(manifest: PackageManifest): string[] {
    return this.resourceNames(manifest);
  }

  /** Every resource definition, with its package. */
  definitions(): { pkg: string; definition: AnyResource }[] {
    return this.all.flatMap((manifest) => (manifest.resources ?? []).map((definition) => ({ pkg: manifest.name, definition })));
  }

  /** The lowest role for reading or writing a resource. */
  minimumRole(resource: string, action: "read" | "write"): Role {
    const owner = this.resourceOwners.get(resource);
    const declared = owner ? this.byName.get(owner)?.roles?.[resource]?.[action] : undefined;
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

  /** The directory's own tables (DB only); every other table is on every shard. */
  directoryTables(): string[] {
    return this.all.flatMap((manifest) => (manifest.directoryTables ?? []).map((table) => getTableName(table)));
  }

  /** Tag descriptions for the reference: each resource's from its definition, the rest from the manifests. */
  tagDescriptions(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const manifest of this.all) {
      for (const definition of manifest.resources ?? []) out[definition.tags[0]!] = definition.description;
      Object.assign(out, manifest.tags ?? {});
    }
    return out;
  }
}
