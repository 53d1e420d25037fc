import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { principalOf } from "../auth/caller";
import { packageDisabled } from "../auth/middleware";
import { access, denial, isAllowed } from "../auth/permissions";
import { configOf } from "../config";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";
import { withArticle } from "../format";
import { linkNextPage } from "../http/links";
import { newRouter, type Router } from "../http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../openapi";
import { platformOf } from "../services";
import { tenantOf } from "../tenancy";
import { BatchBody, BatchResult, runBatch } from "./batch";
import type { AnyResource, RouteSet } from "./definition";
import { ExpandedReference, type Expansion, expandable, expandedOf, expansions } from "./expand";
import { type ListQuery, listPage, listQuerySchema } from "./list";
import { eventTypesOf, TIMELINE_LIMIT, TimelineEvent, timelineOf } from "./timeline";
import { loadRow, outputOf, present, runWrite } from "./writes";

export const ListMeta = z
  .object({
    limit: z.number().int(),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    total: z.number().int().optional().openapi({ description: "Only with ?include_total=true" }),
  })
  .openapi("ListMeta");

export const Deleted = z.object({ id: z.number().int(), deleted: z.literal(true) }).openapi("Deleted");

const list = (items: string[]) => items.map((item) => `\`${item}\``).join(", ");

/** The fields a create must carry, read from the create schema. */
function requiredFields(def: AnyResource): string[] {
  const shape = (def.schemas.create as unknown as { shape?: Record<string, { safeParse(value: unknown): { success: boolean } }> }).shape ?? {};
  return Object.entries(shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([name]) => name);
}

/** The reference's words for each operation, from what the definition declares (filters, sorts, rules, events). */
export function describeOperations(def: AnyResource) {
  const { name, singular } = def;
  const sorts = ["id", ...Object.keys(def.sortable).filter((key) => key !== "id"), "updated_at"];
  const searched = def.searchable.map((column) => column.name);
  const required = requiredFields(def);
  const uniques = def.uniques.map((unique) => unique.field);
  const references = (def.references ?? []).map((reference) => `\`${reference.field}\` (a ${reference.what} of this workspace)`);
  const events = (def.events ?? []).map((event) => `\`${event.type}\``);
  const sentences = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join(" ");
  return {
    list: sentences(
      `A page of ${name}, newest first unless \`sort\` says otherwise (${list(sorts)}; prefix \`-\` for descending).`,
      `Filters: ${list(Object.keys(def.filters))}${searched.length > 0 ? `, \`q\` (a case-insensitive substring of ${list(searched)})` : ""}, \`created_after\`/\`created_before\`, \`updated_after\`/\`updated_before\`; a comma list means any of.`,
      def.softDelete && "Deleted rows are left out unless `include_deleted=true`.",
      "The next page: `meta.next_cursor` as `cursor`, or follow the `Link` header.",
    ),
    get: sentences(`The ${singular} with this id.`, def.softDelete && `A deleted ${singular} → 404.`, `An id of another workspace's ${singular} → 404.`),
    create: sentences(
      `Creates ${withArticle(singular)}.`,
      required.length > 0 && `Required: ${list(required)}.`,
      uniques.length > 0 && `${list(uniques)} must be unique in the workspace (409 \`conflict\` when taken).`,
      references.length > 0 && `References must name live rows: ${references.join(", ")}; anything else → 400 on that field.`,
      def.notes?.create,
      events.length > 0 && `May fire ${events.join(", ")} (recorded in the same transaction).`,
    ),
    update: sentences(
      "A partial update: any subset of the writable fields, validated as on create; read-only fields in the body → 400.",
      (def.transitions ?? []).length > 0 && `State moves outside the allowed ones → 409 \`invalid_transition\` (details name the allowed states).`,
      (def.locks ?? []).length > 0 && "Some fields are locked in some states → 409 naming them.",
      def.notes?.update,
    ),
    delete: sentences(
      def.softDelete ? `A soft delete: the ${singular} leaves lists and reads (404) until it is restored.` : `Deletes the ${singular}.`,
      def.deletable && "Only in some states (409 otherwise).",
      def.notes?.delete,
      "Still referenced by other records → 409.",
    ),
  };
}

/** The batch body as the reference shows it: each operation typed by the resource's own create and update schemas. */
function documentedBatch(def: AnyResource, many: string) {
  return z
    .strictObject({
      atomic: z.boolean().optional().openapi({ description: "All or nothing (default true)" }),
      operations: z
        .array(
          z.discriminatedUnion("op", [
            z.strictObject({ op: z.literal("create"), data: def.schemas.create }),
            z.strictObject({ op: z.literal("update"), id: z.number().int().positive(), data: def.schemas.update }),
            z.strictObject({ op: z.literal("delete"), id: z.number().int().positive() }),
          ]),
        )
        .min(1)
        .max(100),
    })
    .openapi(`${many}BatchRequest`, {
      example: {
        atomic: true,
        operations: [
          { op: "create", data: def.examples.create },
          { op: "update", id: 1, data: def.examples.update },
          { op: "delete", id: 2 },
        ],
      },
    });
}

/** The routes every resource has: list, get, create, update (PUT and PATCH), delete and batch; `options` turns some off. */
export function resourceRoutes(def: AnyResource, options: RouteSet = {}): Router {
  if (def.checks && options.batch !== false) throw new Error(`${def.name}: a resource with row checks has no batch route`);
  // A create records one event (its row's id is read with last_insert_rowid()): two rules that could both fire on one create are refused here.
  const onCreate = (def.events ?? []).filter((rule) => rule.on === "create" || rule.onCreate);
  if (onCreate.length > 1) throw new Error(`${def.name}: ${onCreate.map((rule) => rule.type).join(" and ")} could both fire on one create`);
  const router = newRouter();
  const r = namesOf(def);
  addList(router, r);
  addGet(router, r);
  if (options.create !== false) addCreate(router, r);
  if (options.update !== false) addUpdate(router, r);
  if (options.delete !== false) addDelete(router, r);
  if (options.batch !== false) addBatch(router, r);
  if (options.timeline !== false) addTimeline(router, r);
  return router;
}

/** What a resource's routes are called and say: operation ids, summaries, descriptions, the errors writes may answer. */
function namesOf(def: AnyResource) {
  const { name, singular, tags } = def;
  return {
    def,
    name,
    singular,
    tags,
    one: pascal(singular),
    many: pascal(name),
    aSingular: withArticle(singular),
    path: `/${name}`,
    words: describeOperations(def),
    Output: def.schemas.output,
    writeErrors: [...(def.uniques.length > 0 ? (["conflict"] as const) : []), ...(def.transitions ? (["invalid_transition"] as const) : [])],
  };
}
type Names = ReturnType<typeof namesOf>;

function mayExpand(c: Context<AppEnv>, expansion: Expansion) {
  const principal = principalOf(c);
  const { registry } = platformOf(c);
  if (principal.disabledPackages.includes(expansion.pkg)) throw packageDisabled(expansion.pkg);
  const need = access.read(expansion.resource);
  if (!isAllowed(principal, need, registry)) {
    const { message, details } = denial(principal, need, registry);
    throw new ApiError("forbidden", `expand=${expansion.key}_id: ${message}`, details ? { details: [{ path: "expand", message, ...details }] } : {});
  }
}

/** A listed record: the resource's output, and the references `expand` asked for by name. */
function listed(def: AnyResource, Output: z.ZodType) {
  const keys = expandable(def);
  if (keys.length === 0) return Output;
  return z.intersection(Output, z.object(Object.fromEntries(keys.map(({ key }) => [key, ExpandedReference.optional()]))));
}

function addList(router: Router, { def, name, many, tags, path, words, Output }: Names) {
  router.openapi(
    defineRoute(access.read(name), {
      method: "get",
      path,
      operationId: `list${many}`,
      tags,
      summary: `List ${name}`,
      description: words.list,
      request: { query: listQuerySchema(def) },
      responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(listed(def, Output)), meta: ListMeta }), `A page of ${name}`) },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const query = c.req.valid("query") as ListQuery;
      const expanded = query.expand ? expansions(def, platformOf(c).registry, query.expand) : [];
      // A name is a read of the referenced resource: the caller needs that read, and its package on.
      for (const expansion of expanded) mayExpand(c, expansion);
      const page = await listPage(def, tenant, query, { cursorKey: configOf(c.env).cursorKey, expansions: expanded });
      linkNextPage(c, page.meta);
      const rows = page.rows as Record<string, unknown>[];
      const data = present(def, tenant, rows as never[]).map((record, i) =>
        expanded.length > 0 ? { ...(record as object), ...expandedOf(rows[i]!, expanded) } : record,
      );
      return c.json({ success: true as const, data: data as z.infer<typeof Output>[], meta: page.meta }, 200);
    },
  );
}

function addGet(router: Router, { def, name, one, singular, aSingular, tags, path, words, Output }: Names) {
  router.openapi(
    defineRoute(access.read(name), {
      method: "get",
      path: `${path}/{id}`,
      operationId: `get${one}`,
      tags,
      summary: `Get ${aSingular}`,
      description: words.get,
      request: { params: IdParam },
      responses: { 200: jsonContent(envelope(Output), `The ${singular}`) },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const row = await loadRow(def, tenant, c.req.valid("param").id);
      if (!row) throw ApiError.notFound(singular);
      return c.json({ success: true as const, data: outputOf(def, tenant, row) }, 200);
    },
  );
}

function addTimeline(router: Router, { def, name, one, singular, aSingular, tags, path }: Names) {
  router.openapi(
    defineRoute(access.read(name), {
      method: "get",
      path: `${path}/{id}/events`,
      operationId: `list${one}Events`,
      tags,
      summary: `The events of ${aSingular}`,
      description: `The webhook events recorded about this ${singular} (its timeline), newest first, up to ${TIMELINE_LIMIT}. The same events as webhooks deliver, kept by the outbox; a ${singular} of another workspace → 404.`,
      request: { params: IdParam },
      responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(TimelineEvent) }), `The ${singular}'s events`) },
    }),
    async (c) => {
      const timeline = await timelineOf(def, tenantOf(c), c.req.valid("param").id, eventTypesOf(def, platformOf(c).registry));
      if (!timeline) throw ApiError.notFound(singular);
      return c.json({ success: true as const, data: timeline }, 200);
    },
  );
}

function addCreate(router: Router, { def, name, one, singular, aSingular, tags, path, words, Output, writeErrors }: Names) {
  router.openapi(
    defineRoute(access.write(name), {
      method: "post",
      path,
      operationId: `create${one}`,
      errors: writeErrors,
      tags,
      summary: `Create ${aSingular}`,
      description: words.create,
      request: { body: jsonBodyOf(def.schemas.create, def.examples.create) },
      responses: { 201: jsonContent(envelope(Output), `The new ${singular}`) },
    }),
    async (c) => {
      const outcome = await runWrite(def, tenantOf(c), { op: "create", data: c.req.valid("json") as object });
      return c.json({ success: true as const, data: outcome.data }, 201);
    },
  );
}

function addUpdate(router: Router, { def, name, one, singular, aSingular, tags, path, words, Output, writeErrors }: Names) {
  for (const method of ["put", "patch"] as const) {
    router.openapi(
      defineRoute(access.write(name), {
        method,
        path: `${path}/{id}`,
        operationId: `${method === "put" ? "update" : "patch"}${one}`,
        errors: ["conflict", ...writeErrors],
        tags,
        summary: method === "put" ? `Update ${aSingular} (partial)` : `Update ${aSingular} (alias of PUT)`,
        description: words.update,
        request: { params: IdParam, body: jsonBodyOf(def.schemas.update, def.examples.update) },
        responses: { 200: jsonContent(envelope(Output), `The updated ${singular}`) },
      }),
      async (c) => {
        const outcome = await runWrite(def, tenantOf(c), { op: "update", id: c.req.valid("param").id, data: c.req.valid("json") as object });
        return c.json({ success: true as const, data: outcome.data }, 200);
      },
    );
  }
}

function addDelete(router: Router, { def, name, one, aSingular, tags, path, words }: Names) {
  router.openapi(
    defineRoute(access.write(name), {
      method: "delete",
      path: `${path}/{id}`,
      operationId: `delete${one}`,
      errors: ["conflict"],
      tags,
      summary: `Delete ${aSingular}`,
      description: words.delete,
      request: { params: IdParam },
      responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const tenant = tenantOf(c);
      const outcome = await runWrite(def, tenant, { op: "delete", id });
      await def.afterDelete?.(c.env, tenant, id);
      return c.json({ success: true as const, data: outcome.data as z.infer<typeof Deleted> }, 200);
    },
  );
}

function addBatch(router: Router, { def, name, many, tags, path }: Names) {
  router.openAPIRegistry.register(`${many}BatchRequest`, documentedBatch(def, many));
  router.openapi(
    defineRoute(access.write(name), {
      method: "post",
      path: `${path}/batch`,
      operationId: `batch${many}`,
      errors: ["conflict"],
      tags,
      summary: `Create, update and delete up to 100 ${name} at once`,
      description:
        "atomic (default true): all operations or none; any invalid operation → 400 with per-index details. " +
        "atomic=false: each operation stands alone and gets its own status. Each write fires the same events as its single-record twin.",
      request: { body: jsonBodyOf(BatchBody) },
      // Validation stays per operation (so atomic=false can answer each one); the reference shows the typed body.
      "x-documented-body": `${many}BatchRequest`,
      responses: { 200: jsonContent(envelope(BatchResult), "One result per operation, in order") },
    }),
    async (c) => {
      const result = await runBatch(def, tenantOf(c), c.req.valid("json"), c.get("requestId"));
      return c.json({ success: true as const, data: result }, 200);
    },
  );
}

/** "job opening" / "job-openings" → "JobOpening" / "JobOpenings" */
function pascal(words: string): string {
  return words
    .split(/[\s_-]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}
