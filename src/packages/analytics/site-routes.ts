import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { base62, randomBytes } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, idPathParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { Deleted, ListMeta } from "../../platform/resource/routes";
import { platformOf } from "../../platform/services";
import { isoTimestamp } from "../../platform/time";
import { analyticsTenant, forgetSite, siteOf } from "./collect";
import { daily, dailyRevenue, deletedSites, funnels, goals, sharedLinks, sites } from "./schema";

export const tags = ["Analytics"];
const Site = z
  .object({
    id: z.number().int(),
    domain: z.string().openapi({ example: "shop.example.com" }),
    site_key: z.string().openapi({ description: "Public: it goes in the tracker snippet", example: "site_3kTZ…" }),
    created_at: fields.timestamp(),
  })
  .openapi("AnalyticsSite");
const toSite = (row: typeof sites.$inferSelect): z.infer<typeof Site> => ({
  id: row.id,
  domain: row.domain,
  site_key: row.siteKey,
  created_at: isoTimestamp(row.createdAt),
});

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) =>
    value
      .replace(/^https?:\/\//, "")
      .replace(/\/.*$/, "")
      .replace(/^www\./, "")
      .replace(/\.$/, ""),
  )
  .pipe(
    z
      .string()
      .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, "must be a domain name such as shop.example.com"),
  )
  .openapi({ type: "string", example: "shop.example.com" });

export const SiteParam = z.object({ id: idPathParam("id") });
const read = { ...access.read("analytics") };

const routes = {
  createSite: defineRoute(access.admin, {
    method: "post",
    path: "/analytics/sites",
    operationId: "createSite",
    tags,
    summary: "Add a site to track; its site_key goes in the tracker snippet",
    description:
      "Admins and owners (an API token needs the admin scope). domain is a host name; a scheme, a path, www. and a trailing dot are dropped (https://www.shop.example.com/ → shop.example.com), anything else not a domain → 400. Events are accepted for urls on the domain and its subdomains; the site_key is public (data-site of the tracker script).",
    request: { body: jsonBodyOf(z.strictObject({ domain }).openapi("CreateSite", { example: { domain: "shop.example.com" } })) },
    responses: { 201: jsonContent(envelope(Site), "The site") },
  }),
  listSites: defineRoute(read, {
    method: "get",
    path: "/analytics/sites",
    operationId: "listSites",
    tags,
    summary: "The workspace's sites",
    description: "Members and above (an API token needs analytics:read or a broader scope). Every site of the workspace, oldest first, in one page.",
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Site), meta: ListMeta }), "Every site (one page)") },
  }),
  getSite: defineRoute(read, {
    method: "get",
    path: "/analytics/sites/{id}",
    operationId: "getSite",
    tags,
    summary: "A site",
    description:
      "Members and above (an API token needs analytics:read or a broader scope). The site's domain and public site_key; another workspace's site → 404.",
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(Site), "The site") },
  }),
  deleteSite: defineRoute(access.admin, {
    method: "delete",
    path: "/analytics/sites/{id}",
    operationId: "deleteSite",
    tags,
    summary: "Delete a site with its events, rollups, funnels, goals and shared links",
    description:
      "Admins and owners (an API token needs the admin scope). The site, its rollups and its funnels go at once and its site_key stops being accepted (within a minute); its raw events are deleted by the cron in chunks.",
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
  }),
};

export const siteRoutes = newRouter()
  .openapi(routes.createSite, async (c) => {
    const { domain: name } = c.req.valid("json");
    const tenant = analyticsTenant(c);
    const now = Date.now();
    const [row] = await tenant.insert(sites, { domain: name, siteKey: `site_${base62(randomBytes(16))}`, createdAt: now, updatedAt: now }).returning();
    return c.json({ success: true as const, data: toSite(row!) }, 201);
  })
  .openapi(routes.listSites, async (c) => {
    const rows = await analyticsTenant(c).select(sites).orderBy(sites.id);
    return c.json({ success: true as const, data: rows.map(toSite), meta: { limit: rows.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(routes.getSite, async (c) => c.json({ success: true as const, data: toSite(await siteOf(analyticsTenant(c), c.req.valid("param").id)) }, 200))
  .openapi(routes.deleteSite, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    // The tombstone first (only if the site is the caller's), so the cron deletes its raw rows in chunks.
    const [, , , , , , removed] = await tenant.batch([
      tenant.rows(
        sql`INSERT INTO ${deletedSites} (site_id, workspace_id, deleted_at) SELECT id, workspace_id, ${Date.now()} FROM ${sites} WHERE ${tenant.scope(sites, eq(sites.id, id))}`,
      ),
      tenant.delete(funnels, eq(funnels.siteId, id)),
      tenant.delete(daily, eq(daily.siteId, id)),
      tenant.delete(dailyRevenue, eq(dailyRevenue.siteId, id)),
      tenant.delete(goals, eq(goals.siteId, id)),
      tenant.delete(sharedLinks, eq(sharedLinks.siteId, id)),
      tenant.delete(sites, eq(sites.id, id)).returning({ key: sites.siteKey }),
    ]);
    if (removed.length === 0) throw ApiError.notFound("site");
    forgetSite(platformOf(c).isolate, removed[0]!.key);
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  });
