import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { principalOf } from "../platform/auth/middleware";
import { access, DEFAULT_API_TOKEN_SCOPES, knownScopes } from "../platform/auth/permissions";
import { evictCachedTokens } from "../platform/auth/principal";
import { issueToken } from "../platform/auth/tokens";
import { configOf } from "../platform/config";
import { ApiError } from "../platform/errors";
import { linkNextPage } from "../platform/http/links";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../platform/openapi";
import { idPage, PageQuery } from "../platform/resource/id-page";
import { ListMeta } from "../platform/resource/routes";
import { tokens } from "../platform/schema";
import { platformOf } from "../platform/services";
import { directoryOf } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { ApiToken, CreateApiTokenBody, CreatedApiToken } from "./schemas";

const tags = ["API tokens"];
/** The reference's words for this file's tag (the manifest lists them). */
export const apiTokenTags = {
  "API tokens":
    "Long-lived bpk_… tokens for integrations (Settings → API in the dashboard), scoped (read, write, admin, <resource>:read|write) and bounded by their creator's role.",
};

function toApiToken(row: typeof tokens.$inferSelect): z.infer<typeof ApiToken> {
  return {
    id: row.id,
    name: row.name ?? "",
    prefix: row.prefix,
    last_four: row.lastFour,
    scopes: row.scopes ?? [],
    expires_at: isoTimestamp(row.expiresAt),
    last_used_at: isoTimestamp(row.lastUsedAt),
    created_at: isoTimestamp(row.createdAt),
    created_by: row.userId,
  };
}

const listTokens = defineRoute(access.admin, {
  method: "get",
  path: "/api-tokens",
  operationId: "listApiTokens",
  tags,
  summary: "List API tokens (never their secrets), newest first",
  description:
    "Admins and owners (an API token needs the admin scope). Every API token of the workspace, whoever created it, with its prefix and last four characters to recognise it; session tokens are not listed. Cursor-paged.",
  request: { query: PageQuery },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(ApiToken), meta: ListMeta }), "A page of API tokens") },
});

const createToken = defineRoute(access.admin, {
  method: "post",
  path: "/api-tokens",
  operationId: "createApiToken",
  tags,
  summary: "Create an API token; the secret is in this response only",
  description:
    "Admins and owners (an API token needs the admin scope); the token acts as its creator and never has more power than the creator's role. Scopes: read, write (default), admin, or <resource>:read / <resource>:write; an unknown scope → 400. expires_at, if sent, must be in the future → otherwise 400; without it the token never expires.",
  request: { body: jsonBodyOf(CreateApiTokenBody) },
  responses: { 201: jsonContent(envelope(CreatedApiToken), "The token, with its secret shown once") },
});

const revokeApiToken = defineRoute(access.admin, {
  method: "delete",
  path: "/api-tokens/{id}",
  operationId: "revokeApiToken",
  tags,
  summary: "Revoke an API token; it stops working at once",
  description:
    "Admins and owners (an API token needs the admin scope), for any API token of the workspace. An unknown id, or a session token's id → 404. Other servers may accept the token for up to 5 seconds more.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(z.object({ id: z.number().int(), deleted: z.literal(true) })), "Revoked") },
});

export const apiTokenRoutes = newRouter()
  .openapi(listTokens, async (c) => {
    const page = await idPage(directoryOf(c), tokens, "api-tokens", c.req.valid("query"), [eq(tokens.kind, "api")], configOf(c.env).cursorKey);
    linkNextPage(c, page.meta);
    return c.json({ success: true as const, data: page.rows.map(toApiToken), meta: page.meta }, 200);
  })
  .openapi(createToken, async (c) => {
    const body = c.req.valid("json");
    const now = Date.now();
    const expiresAt = body.expires_at === undefined ? null : Date.parse(body.expires_at);
    if (expiresAt !== null && expiresAt <= now) {
      throw ApiError.validation([{ path: "expires_at", message: "must be in the future" }]);
    }
    const known = knownScopes(platformOf(c).registry);
    const unknown = (body.scopes ?? []).flatMap((scope, i) =>
      known.includes(scope) ? [] : [{ path: `scopes.${i}`, message: "must be one of read, write, admin or <resource>:read / <resource>:write" }],
    );
    if (unknown.length > 0) throw ApiError.validation(unknown);
    const issued = await issueToken("api");
    const [row] = await directoryOf(c)
      .insert(tokens, {
        userId: principalOf(c).user.id,
        kind: "api",
        name: body.name,
        tokenHash: issued.hash,
        prefix: issued.prefix,
        lastFour: issued.lastFour,
        scopes: [...new Set(body.scopes ?? DEFAULT_API_TOKEN_SCOPES)],
        expiresAt,
        createdAt: now,
      })
      .returning();
    return c.json({ success: true as const, data: { ...toApiToken(row!), token: issued.token } }, 201);
  })
  .openapi(revokeApiToken, async (c) => {
    const { id } = c.req.valid("param");
    const deleted = await directoryOf(c).delete(tokens, eq(tokens.id, id), eq(tokens.kind, "api")).run();
    if (deleted.meta.changes === 0) throw ApiError.notFound("API token");
    evictCachedTokens(c, (p) => p.tokenId === id);
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  });
