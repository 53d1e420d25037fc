import { z } from "@hono/zod-openapi";
import { principalOf } from "../platform/auth/caller";
import { access, isAllowed } from "../platform/auth/permissions";
import { newRouter } from "../platform/http/router";
import { defineRoute, jsonContent } from "../platform/openapi";
import { platformOf } from "../platform/services";
import { tenantOf } from "../platform/tenancy";
import { search } from "./search";

const tags = ["Search"];
/** The reference's words for this file's tag (the manifest lists them). */
export const searchTags = {
  Search: "One search box over the workspace: contacts, customers, employees, leads, deals, projects, tasks, invoices and candidates.",
};

const Hit = z
  .object({
    resource: z.string().openapi({ example: "customers" }),
    id: z.number().int().openapi({ example: 7 }),
    label: z.string().openapi({ example: "Acme" }),
    snippet: z.string().openapi({ description: "A few words around the match (plain text)", example: "ap@acme.example Acme GmbH" }),
  })
  .openapi("SearchHit");

export const searchRoute = defineRoute(access.authenticated, {
  method: "get",
  path: "/search",
  operationId: "searchWorkspace",
  tags,
  summary: "Search the workspace",
  description:
    "Any role. Finds records by words of their name and text fields — all words must match, the last as a prefix (every word as a prefix when that finds nothing); accents and case do not matter — among the resources the caller may read whose package is on. Records whose name holds the words come first (a name that is the query before others), then other matches, newest first within each. Kept current by database triggers: a record is findable as soon as its write answers.",
  request: {
    query: z.strictObject({
      q: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").openapi({ example: "acme" }),
      limit: z.coerce.number().int().min(1).max(50).optional().openapi({ description: "1–50 (default 20)", example: 20 }),
    }),
  },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Hit) }), "The best matches") },
});

export const searchRoutes = newRouter().openapi(searchRoute, async (c) => {
  const { q, limit } = c.req.valid("query");
  const principal = principalOf(c);
  const { registry } = platformOf(c);
  // What the caller could list: readable (role and token scopes) and its package on.
  const resources = registry
    .definitions()
    .filter(
      ({ pkg, definition }) => definition.search && !principal.disabledPackages.includes(pkg) && isAllowed(principal, access.read(definition.name), registry),
    )
    .map(({ definition }) => definition.name);
  const hits = await search(tenantOf(c), q, resources, limit ?? 20);
  return c.json({ success: true as const, data: hits }, 200);
});
