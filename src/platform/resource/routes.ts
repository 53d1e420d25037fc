import { configOf } from "../config";
import { linkNextPage } from "../links";
import { z } from "@hono/zod-openapi";
import { newRouter, type Router } from "../app";
import { tenantOf } from "../auth/middleware";
import { access } from "../auth/permissions";
import { ApiError } from "../errors";
import { defineRoute, describeTag, envelope, IdParam, jsonBodyOf, jsonContent } from "../openapi";
import { BatchBody, BatchResult, runBatch } from "./batch";
import type { AnyResource } from "./definition";
import { type ListQuery, listPage, listQuerySchema } from "./list";
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

export type RouteSet = { create?: boolean; update?: boolean; delete?: boolean; batch?: boolean };

/** The routes every resource has: list, get, create, update (PUT and PATCH), delete and batch; `options` turns some off. */
export function resourceRoutes(def: AnyResource, options: RouteSet = {}): Router {
  const { name, singular, tags } = def;
  const [one, many] = [pascal(singular), pascal(name)];
  const aSingular = `${/^[aeiou]/.test(singular) ? "an" : "a"} ${singular}`;
  describeTag(tags[0]!, def.description);
  if (def.checks && options.batch !== false) throw new Error(`${name}: a resource with row checks has no batch route`);
  const writeErrors = [...(def.uniques.length > 0 ? (["conflict"] as const) : []), ...(def.transitions ? (["invalid_transition"] as const) : [])];
  const path = `/${name}`;
  const Output = def.schemas.output;
  const router = newRouter();

  router.openapi(
    defineRoute(access.read(name), {
      method: "get",
      path,
      operationId: `list${many}`,
      tags,
      summary: `List ${name}`,
      request: { query: listQuerySchema(def) },
      responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Output), meta: ListMeta }), `A page of ${name}`) },
    }),
    async (c) => {
      const tenant = tenantOf(c);
      const page = await listPage(def, tenant, c.req.valid("query") as ListQuery, { cursorSecret: configOf(c.env).cursorSecret });
      linkNextPage(c, page.meta);
      return c.json({ success: true as const, data: present(def, tenant, page.rows as never[]), meta: page.meta }, 200);
    },
  );

  router.openapi(
    defineRoute(access.read(name), {
      method: "get",
      path: `${path}/{id}`,
      operationId: `get${one}`,
      tags,
      summary: `Get ${aSingular}`,
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

  if (options.create !== false) {
    router.openapi(
      defineRoute(access.write(name), {
        method: "post",
        path,
        operationId: `create${one}`,
        errors: writeErrors,
        tags,
        summary: `Create ${aSingular}`,
        request: { body: jsonBodyOf(def.schemas.create) },
        responses: { 201: jsonContent(envelope(Output), `The new ${singular}`) },
      }),
      async (c) => {
        const outcome = await runWrite(def, tenantOf(c), { op: "create", data: c.req.valid("json") as object });
        return c.json({ success: true as const, data: outcome.data }, 201);
      },
    );
  }

  if (options.update !== false) {
    for (const method of ["put", "patch"] as const) {
      router.openapi(
        defineRoute(access.write(name), {
          method,
          path: `${path}/{id}`,
          operationId: `${method === "put" ? "update" : "patch"}${one}`,
          errors: ["conflict", ...writeErrors],
          tags,
          summary: method === "put" ? `Update ${aSingular} (partial)` : `Update ${aSingular} (alias of PUT)`,
          request: { params: IdParam, body: jsonBodyOf(def.schemas.update) },
          responses: { 200: jsonContent(envelope(Output), `The updated ${singular}`) },
        }),
        async (c) => {
          const outcome = await runWrite(def, tenantOf(c), { op: "update", id: c.req.valid("param").id, data: c.req.valid("json") as object });
          return c.json({ success: true as const, data: outcome.data }, 200);
        },
      );
    }
  }

  if (options.delete !== false) {
    router.openapi(
      defineRoute(access.write(name), {
        method: "delete",
        path: `${path}/{id}`,
        operationId: `delete${one}`,
        errors: ["conflict"],
        tags,
        summary: `Delete ${aSingular}`,
        request: { params: IdParam },
        responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
      }),
      async (c) => {
        const outcome = await runWrite(def, tenantOf(c), { op: "delete", id: c.req.valid("param").id });
        return c.json({ success: true as const, data: outcome.data as z.infer<typeof Deleted> }, 200);
      },
    );
  }

  if (options.batch !== false) {
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
          "atomic=false: each operation stands alone and gets its own status.",
        request: { body: jsonBodyOf(BatchBody) },
        responses: { 200: jsonContent(envelope(BatchResult), "One result per operation, in order") },
      }),
      async (c) => {
        const result = await runBatch(def, tenantOf(c), c.req.valid("json"), c.get("requestId"));
        return c.json({ success: true as const, data: result }, 200);
      },
    );
  }
  return router;
}

/** "job opening" / "job-openings" → "JobOpening" / "JobOpenings" */
function pascal(words: string): string {
  return words
    .split(/[\s_-]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}
