import { z } from "@hono/zod-openapi";
import { principalOf } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import { evictCachedTokens } from "../platform/auth/principal";
import { ApiError } from "../platform/errors";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../platform/openapi";
import { PackageSwitches } from "../platform/package-state";
import type { PackageManifest, PackageRegistry } from "../platform/packages";
import { booleanParam } from "../platform/resource/filters";
import { ListMeta } from "../platform/resource/routes";
import { platformOf } from "../platform/services";
import { directoryOf } from "../platform/tenancy";
import { forgetPackageStates } from "../platform/web/page";

const tags = ["Packages"];
/** The reference's words for this file's tag (the manifest lists them). */
export const packageTags = {
  Packages:
    "The packages a workspace runs and how they depend on each other. A disabled package's routes answer 403 package_disabled, its widgets leave the dashboard and the assistant does not touch its data; its data is kept.",
};

const Package = z
  .object({
    name: z.string().openapi({ example: "recruitment" }),
    title: z.string(),
    description: z.string(),
    tier: z
      .union([z.literal(1), z.literal(2), z.literal("add-on")])
      .openapi({ description: "1: foundation; add-on: builds on foundations; 2: a pro app (SSO)" }),
    depends_on: z.array(z.string()),
    dependents: z.array(z.string()).openapi({ description: "The packages whose depends_on names this one" }),
    resources: z.array(z.string()),
    enabled: z.boolean().openapi({ description: "For a pro app (tier 2): its SSO app's enabled" }),
  })
  .openapi("Package");

function toPackage(registry: PackageRegistry, manifest: PackageManifest, enabled: boolean): z.infer<typeof Package> {
  return {
    name: manifest.name,
    title: manifest.title,
    description: manifest.description,
    tier: manifest.tier as 1 | 2 | "add-on",
    depends_on: manifest.dependsOn,
    dependents: registry.dependents(manifest.name),
    resources: registry.resourcesOf(manifest),
    enabled,
  };
}

const listPackages = defineRoute(access.authenticated, {
  method: "get",
  path: "/packages",
  operationId: "listPackages",
  tags,
  summary: "The package catalogue, tier 1 first, with dependencies and what is enabled",
  description:
    "Any valid token, whatever its role or scopes. Every package of this build (the platform core excepted) with its dependencies, the packages that depend on it, its resources and whether it is enabled for the workspace.",
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Package), meta: ListMeta }), "Every package (one page)") },
});

const PackageParam = z.object({
  name: z
    .string()
    .max(64)
    .openapi({ param: { name: "name", in: "path" }, example: "recruitment" }),
});

const setPackage = defineRoute(access.admin, {
  method: "put",
  path: "/packages/{name}",
  operationId: "setPackage",
  errors: ["dependency_disabled", "package_required", "conflict"],
  tags,
  summary: "Enable or disable a package",
  description:
    "Admins and owners (an API token needs the admin scope); an unknown package → 404. Enabling a package whose dependencies are disabled → 409 dependency_disabled (details[0].missing) unless ?with_dependencies=true, which enables them too in one write. Disabling a package an enabled package depends on → 409 package_required (details[0].required_by). A pro app (tier 2) needs its app_url set first.",
  request: {
    params: PackageParam,
    query: z.strictObject({ with_dependencies: booleanParam().optional().openapi({ description: "Also enable the disabled packages this one needs" }) }),
    body: jsonBodyOf(z.strictObject({ enabled: z.boolean() }).openapi("UpdatePackage", { example: { enabled: true } })),
  },
  responses: { 200: jsonContent(envelope(Package), "The package") },
});

export const packageRoutes = newRouter()
  .openapi(listPackages, async (c) => {
    const { registry } = platformOf(c);
    const states = await new PackageSwitches(directoryOf(c), registry).states();
    const data = registry.catalogue().map((manifest) => toPackage(registry, manifest, states.get(manifest.name) ?? false));
    return c.json({ success: true as const, data, meta: { limit: data.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(setPackage, async (c) => {
    const { name } = c.req.valid("param");
    const { enabled } = c.req.valid("json");
    const { registry } = platformOf(c);
    const manifest = registry.get(name);
    if (!manifest || manifest.tier === "core") throw ApiError.notFound("package");
    const workspaceId = principalOf(c).workspace.id;
    const switches = new PackageSwitches(directoryOf(c), registry);
    await switches.switch(name, enabled, c.req.valid("query").with_dependencies === true);
    evictCachedTokens(c, (p) => p.workspace.id === workspaceId);
    forgetPackageStates(c, workspaceId);
    const states = await switches.states();
    return c.json({ success: true as const, data: toPackage(registry, manifest, states.get(name) ?? false) }, 200);
  });
