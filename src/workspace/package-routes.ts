import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { newRouter } from "../platform/app";
import { principalOf, tenantOf } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import { evictCachedTokens } from "../platform/auth/principal";
import { ApiError } from "../platform/errors";
import { defineRoute, envelope, jsonBodyOf, jsonContent, describeTag } from "../platform/openapi";
import { PACKAGE_NAMES, PACKAGES, type PackageName } from "../platform/packages";
import { ListMeta } from "../platform/resource/routes";
import { workspaces } from "../platform/schema";

const tags = ["Packages"];
describeTag("Packages", "The packages a workspace has switched on; a disabled package's routes answer 403 package_disabled.");

const Package = z
  .object({ name: z.enum(PACKAGE_NAMES as [PackageName, ...PackageName[]]), title: z.string(), resources: z.array(z.string()), enabled: z.boolean() })
  .openapi("Package");

const toPackage = (name: PackageName, disabled: string[]) => ({
  name,
  title: PACKAGES[name].title,
  resources: [...PACKAGES[name].resources],
  enabled: !disabled.includes(name),
});

const listPackages = defineRoute(access.authenticated, {
  method: "get",
  path: "/packages",
  operationId: "listPackages",
  tags,
  summary: "The package catalogue and which packages are enabled for the workspace",
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Package), meta: ListMeta }), "Every package (one page)") },
});

const PackageParam = z.object({
  name: z.enum(PACKAGE_NAMES as [PackageName, ...PackageName[]]).openapi({ param: { name: "name", in: "path" } }),
});

const setPackage = defineRoute(access.admin, {
  method: "put",
  path: "/packages/{name}",
  operationId: "setPackage",
  tags,
  summary: "Enable or disable a package; a disabled package's routes answer 403 package_disabled",
  request: { params: PackageParam, body: jsonBodyOf(z.strictObject({ enabled: z.boolean() }).openapi("UpdatePackage")) },
  responses: { 200: jsonContent(envelope(Package), "The package") },
});

export const packageRoutes = newRouter()
  .openapi(listPackages, async (c) => {
    const row = await tenantOf(c).db.select({ disabled: workspaces.disabledPackages }).from(workspaces).where(eq(workspaces.id, principalOf(c).workspace.id)).get();
    const data = PACKAGE_NAMES.map((name) => toPackage(name, row?.disabled ?? []));
    return c.json({ success: true as const, data, meta: { limit: data.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(setPackage, async (c) => {
    const { name } = c.req.valid("param");
    const { enabled } = c.req.valid("json");
    const workspaceId = principalOf(c).workspace.id;
    // One statement edits the JSON list, so concurrent toggles of different packages both survive.
    const list = sql`(SELECT json_group_array(value) FROM json_each(${workspaces.disabledPackages}) WHERE value != ${name})`;
    const next = enabled ? list : sql`json_insert(${list}, '$[#]', ${name})`;
    const row = await tenantOf(c)
      .db.update(workspaces)
      .set({ disabledPackages: next, updatedAt: Date.now() })
      .where(eq(workspaces.id, workspaceId))
      .returning({ disabled: workspaces.disabledPackages })
      .get();
    if (!row) throw ApiError.notFound("workspace");
    evictCachedTokens((p) => p.workspace.id === workspaceId);
    return c.json({ success: true as const, data: toPackage(name, row.disabled) }, 200);
  });
