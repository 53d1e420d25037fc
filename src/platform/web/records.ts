import type { Context } from "hono";
import { access, isAllowed } from "../auth/permissions";
import type { AppEnv } from "../context";
import { dispatch } from "../dispatch";
import type { PackageRegistry } from "../packages";
import type { AnyResource } from "../resource/definition";
import { platformOf } from "../services";
import type { ApiRecord, Labels, Option } from "./components";
import type { FieldSpec } from "./fields";
import type { PageSession } from "./session";

/** What a resource's pages need on every request: the request, who asks, the definition and the registry. */
export type PageContext = { c: Context<AppEnv>; session: PageSession; def: AnyResource; registry: PackageRegistry };

export function pageContext(c: Context<AppEnv>, session: PageSession, def: AnyResource): PageContext {
  return { c, session, def, registry: platformOf(c).registry };
}

/** Whether the user's role may change records of a resource (viewers see no create, edit or delete controls). */
export function mayWrite(ctx: PageContext, resource = ctx.def.name): boolean {
  return isAllowed({ role: ctx.session.principal.role, scopes: null }, access.write(resource), ctx.registry);
}

export function mayRead(ctx: PageContext, resource: string): boolean {
  return isAllowed({ role: ctx.session.principal.role, scopes: null }, access.read(resource), ctx.registry);
}

/** Whether the API offers a write on this resource (generated, or by a route of its own the definition names). */
export function offers(def: AnyResource, write: "create" | "update" | "delete"): boolean {
  return def.ui?.writes?.[write] ?? def.routes?.[write] !== false;
}

/** The API, in-process, as the signed-in user. */
export function api<T = ApiRecord>(ctx: PageContext, method: string, path: string, body?: unknown) {
  return dispatch<T>(ctx.c, ctx.session.principal, method, path, body === undefined ? {} : { body });
}

export function definitionOf(registry: PackageRegistry, resource: string): AnyResource | undefined {
  return registry.definitions().find(({ definition }) => definition.name === resource)?.definition;
}

/** A record's name on pages: its title field, else "#id". */
export function titleOf(def: AnyResource | undefined, record: Record<string, unknown>): string {
  const title = def?.ui ? record[def.ui.title] : undefined;
  if (def?.ui?.title === "id") return `${def.singular.charAt(0).toUpperCase()}${def.singular.slice(1)} #${record.id}`;
  return title === null || title === undefined || title === "" ? `#${record.id}` : String(title);
}

/**
 * The names of the records that `fields` reference in `records`: one API call per referenced resource
 * (`?ids=…`), all at once. A resource the user may not read or whose package is off shows ids.
 */
export async function referenceLabels(ctx: PageContext, fields: FieldSpec[], records: Record<string, unknown>[]): Promise<Labels> {
  const wanted = new Map<string, Set<number>>();
  for (const field of fields) {
    if (field.kind !== "reference" || !field.reference) continue;
    for (const record of records) {
      const id = record[field.name];
      if (typeof id === "number") wanted.set(field.reference.resource, (wanted.get(field.reference.resource) ?? new Set()).add(id));
    }
  }
  const labels: Labels = new Map();
  await Promise.all(
    [...wanted].map(async ([resource, ids]) => {
      const def = definitionOf(ctx.registry, resource);
      if (!def || !mayRead(ctx, resource)) return;
      const list = [...ids].slice(0, 100);
      const result = await api<ApiRecord[]>(ctx, "GET", `/${resource}?ids=${list.join(",")}&limit=100`);
      if (result.ok) labels.set(resource, new Map(result.data.map((record) => [record.id, titleOf(def, record)])));
    }),
  );
  return labels;
}

/** Choices for a reference input: up to 100 of the referenced resource's records, by name when it sorts by name. */
export async function referenceOptions(ctx: PageContext, fields: FieldSpec[]): Promise<Map<string, { options: Option[]; more: boolean }>> {
  const out = new Map<string, { options: Option[]; more: boolean }>();
  await Promise.all(
    fields.map(async (field) => {
      if (field.kind !== "reference" || !field.reference) return;
      const def = definitionOf(ctx.registry, field.reference.resource);
      if (!def) return;
      const sort = def.ui && def.ui.title in def.sortable ? def.ui.title : "-id";
      const result = await api<ApiRecord[]>(ctx, "GET", `/${def.name}?limit=100&sort=${sort}`);
      if (!result.ok) return;
      const meta = result.meta as { has_more?: boolean } | undefined;
      out.set(field.name, { options: result.data.map((record) => ({ value: String(record.id), label: titleOf(def, record) })), more: meta?.has_more === true });
    }),
  );
  return out;
}

/** Other resources whose rows name this one (a customer's invoices, a project's tasks), with the filter to list them. */
export function relatedLists(registry: PackageRegistry, def: AnyResource): { resource: AnyResource; filter: string; title: string }[] {
  const found = registry
    .definitions()
    .flatMap(({ definition }) =>
      (definition.references ?? [])
        .filter((reference) => reference.table === def.table && reference.field in definition.filters && definition.ui?.relatedTable !== false)
        .map((reference) => ({ resource: definition, filter: reference.field, title: definition.name.replaceAll("-", " ") })),
    );
  for (const extra of def.ui?.related ?? []) {
    const resource = definitionOf(registry, extra.resource);
    if (resource && !found.some((entry) => entry.resource === resource)) found.push({ resource, filter: extra.filter, title: extra.title });
  }
  return found;
}
