import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { hashPassword } from "../../platform/auth/password";
import { access } from "../../platform/auth/permissions";
import { configOf } from "../../platform/config";
import type { Env } from "../../platform/context";
import { sha256Hex } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { publicOrigin } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, idPathParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { PackageSwitches } from "../../platform/package-state";
import type { PackageRegistry } from "../../platform/packages";
import { newPublicToken } from "../../platform/public-links";
import { Deleted, ListMeta } from "../../platform/resource/routes";
import { acrossWorkspaces, directoryFor, type Tenant, tenantOn } from "../../platform/tenancy";
import { clock, isoTimestamp } from "../../platform/time";
import { analyticsTenant, siteOf } from "./collect";
import { sharedLinks, sites } from "./schema";
import { SiteParam, tags } from "./site-routes";

/**
 * Shared links: a public, read-only dashboard of one site at {origin}/share/{token}, optionally behind a
 * password. The token (32 random bytes) is shown once, at creation, and kept only as its SHA-256; the
 * password only as a PBKDF2 hash. Deleting the link, or the site, or turning analytics off, closes it.
 */

const LinkParams = z.object({ id: idPathParam("id"), link_id: idPathParam("link_id") });
const CreateLink = z
  .strictObject({
    name: fields.name(),
    password: z.string().min(8, "must be at least 8 characters").max(200).optional().openapi({ description: "Asked before the dashboard shows" }),
  })
  .openapi("CreateSharedLink", { example: { name: "Investors" } });
const SharedLink = z
  .object({
    id: z.number().int(),
    site_id: z.number().int(),
    name: z.string(),
    has_password: z.boolean(),
    token: z.string().nullable().openapi({ description: "Only in the creation response (kept as a hash)" }),
    url: z.string().nullable().openapi({ description: "{origin}/share/{token}: only in the creation response" }),
    created_at: fields.timestamp(),
  })
  .openapi("SharedLink");
const toLink = (row: typeof sharedLinks.$inferSelect, token: string | null, origin: string): z.infer<typeof SharedLink> => ({
  id: row.id,
  site_id: row.siteId,
  name: row.name,
  has_password: row.passwordHash !== null,
  token,
  url: token ? `${origin}/share/${token}` : null,
  created_at: isoTimestamp(row.createdAt),
});

const routes = {
  create: defineRoute(access.admin, {
    method: "post",
    path: "/analytics/sites/{id}/shared-links",
    operationId: "createSharedLink",
    tags,
    summary: "Share the site's dashboard read-only at a public URL (optionally behind a password)",
    description:
      "Admins and owners (an API token needs the admin scope): a shared link makes the site's stats public. The token and url are in this response only; keep them (the platform keeps only a hash). A wrong password on the page → 401, rate-limited.",
    request: { params: SiteParam, body: jsonBodyOf(CreateLink) },
    responses: { 201: jsonContent(envelope(SharedLink), "The link, with its token and url (shown once)") },
  }),
  list: defineRoute(access.admin, {
    method: "get",
    path: "/analytics/sites/{id}/shared-links",
    operationId: "listSharedLinks",
    tags,
    summary: "The site's shared links (without their tokens)",
    description: "Admins and owners. Oldest first, one page; token and url are null (shown only at creation).",
    request: { params: SiteParam },
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(SharedLink), meta: ListMeta }), "Every link") },
  }),
  remove: defineRoute(access.admin, {
    method: "delete",
    path: "/analytics/sites/{id}/shared-links/{link_id}",
    operationId: "deleteSharedLink",
    tags,
    summary: "Close a shared link",
    description: "Admins and owners. Its URL answers 404 from then on.",
    request: { params: LinkParams },
    responses: { 200: jsonContent(envelope(Deleted), "Deleted") },
  }),
};

export const shareRoutes = newRouter()
  .openapi(routes.create, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const body = c.req.valid("json");
    const token = newPublicToken();
    const [row] = await tenant
      .insert(sharedLinks, {
        siteId: site.id,
        name: body.name,
        tokenHash: await sha256Hex(token),
        passwordHash: body.password ? await hashPassword(body.password) : null,
        createdAt: clock.now(),
      })
      .returning();
    return c.json({ success: true as const, data: toLink(row!, token, publicOrigin(c)) }, 201);
  })
  .openapi(routes.list, async (c) => {
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, c.req.valid("param").id);
    const rows = await tenant.select(sharedLinks, eq(sharedLinks.siteId, site.id)).orderBy(sharedLinks.id);
    const origin = publicOrigin(c);
    return c.json(
      { success: true as const, data: rows.map((row) => toLink(row, null, origin)), meta: { limit: rows.length, has_more: false, next_cursor: null } },
      200,
    );
  })
  .openapi(routes.remove, async (c) => {
    const { id, link_id } = c.req.valid("param");
    const tenant = analyticsTenant(c);
    const site = await siteOf(tenant, id);
    const removed = await tenant.delete(sharedLinks, and(eq(sharedLinks.siteId, site.id), eq(sharedLinks.id, link_id))).returning({ id: sharedLinks.id });
    if (removed.length === 0) throw ApiError.notFound("shared link");
    return c.json({ success: true as const, data: { id: link_id, deleted: true as const } }, 200);
  });

export type OpenSharedLink = {
  /** The site's workspace on the analytics database. */
  tenant: Tenant;
  site: typeof sites.$inferSelect;
  link: typeof sharedLinks.$inferSelect;
};

const TOKEN = /^[0-9A-Za-z]{43}$/;

/**
 * What a shared-link token opens: its site and the workspace's analytics tenant, or null when the token is
 * malformed or unknown, the link or site was deleted, or the workspace has analytics off (all look alike).
 */
export async function openSharedLink(env: Env, registry: PackageRegistry, token: string): Promise<OpenSharedLink | null> {
  if (!TOKEN.test(token)) return null;
  // The token is the credential: the link is found across workspaces by its hash, then read as its workspace.
  const link = await acrossWorkspaces(env, "analytics")
    .select(sharedLinks, eq(sharedLinks.tokenHash, await sha256Hex(token)))
    .get();
  if (!link) return null;
  const directory = directoryFor(env, registry, link.workspaceId);
  const tenant = tenantOn(env, registry, { id: link.workspaceId, shard: "" }, "analytics");
  const [[state], [site]] = await Promise.all([
    directory.rows<{ on: number }>(sql`SELECT ${new PackageSwitches(directory, registry).enabledSql("analytics")} AS "on"`),
    tenant.select(sites, eq(sites.id, link.siteId)),
  ]);
  if (state?.on !== 1 || !site) return null;
  return { tenant, site, link };
}

/** The cookie value that lets a browser past a link's password: bound to the link and its password hash. */
export function sharePass(env: Env, link: typeof sharedLinks.$inferSelect): Promise<string> {
  return configOf(env).clientKey.hex(["analytics-share", link.id, link.tokenHash, link.passwordHash ?? ""], 43);
}
