import { z } from "@hono/zod-openapi";
import { eq, gt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { principalOf, unauthorized } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import { configOf } from "../platform/config";
import type { AppEnv } from "../platform/context";
import { ApiError } from "../platform/errors";
import { publicOrigin } from "../platform/http/origin";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../platform/openapi";
import { PackageSwitches } from "../platform/package-state";
import { ListMeta } from "../platform/resource/routes";
import { tokens, users } from "../platform/schema";
import { sealSecret } from "../platform/secrets";
import { platformOf } from "../platform/services";
import { directoryFor, directoryOf } from "../platform/tenancy";
import { clock, isoTimestamp } from "../platform/time";
import { outboundUrlProblem } from "../platform/url-policy";
import { EMBED_SCRIPT } from "./embed";
import { newAppSecret, SSO_TOKEN_TTL_SECONDS, signSsoToken } from "./jwt";
import { PRO_APPS, type ProApp, ssoApps } from "./schema";
import { launchUrl, loadApp, verifyIssuedToken } from "./service";

const tags = ["Single sign-on"];
/** The reference's words for this file's tag (the manifest lists them). */
export const ssoTags = { "Single sign-on": "HS256 JWTs that sign a dashboard user into an embedded pro app, refreshed while the session lives." };
const AppName = z.enum(PRO_APPS);
const AppParam = z.object({ app: AppName.openapi({ param: { name: "app", in: "path" }, example: "hrm-pro" }) });

const SsoApp = z
  .object({ app: AppName, app_url: z.string().nullable(), enabled: z.boolean(), secret_set: z.boolean(), updated_at: z.string().nullable() })
  .openapi("SsoApp");
const Grant = z
  .object({
    token: z
      .string()
      .openapi({ description: "HS256 JWT signed with the app's secret; claims iss, aud, sub, workspace_id, email, name, role, iat, nbf, exp, jti, sid" }),
    expires_in: z.literal(SSO_TOKEN_TTL_SECONDS),
    app_url: z.string(),
    launch_url: z.string().openapi({ description: "app_url#sso_token=<jwt>: a fragment, never sent to servers" }),
  })
  .openapi("SsoToken");

/** The issuer every token names: the API's public origin (PUBLIC_BASE_URL), never the request's Host. */
const issuerOf = (c: Context<AppEnv>) => publicOrigin(c);

const appUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL")
  .openapi({ description: "https:// on a public host (http and loopback only in local development)", example: "https://hrm-pro.example.com/" });

const routes = {
  list: defineRoute(access.admin, {
    method: "get",
    path: "/sso/apps",
    operationId: "listSsoApps",
    tags,
    summary: "The four pro apps and their SSO settings",
    description:
      "Admins and owners (an API token needs the admin scope). Always all four apps, configured or not; secret_set tells whether a signing secret exists, never the secret itself.",
    responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(SsoApp), meta: ListMeta }), "The apps (one page)") },
  }),
  update: defineRoute(access.admin, {
    method: "put",
    path: "/sso/apps/{app}",
    operationId: "updateSsoApp",
    errors: ["dependency_disabled", "conflict"],
    tags,
    summary: "Set an app's URL and switch it on or off",
    description:
      "Admins and owners (an API token needs the admin scope); send only the fields to change. app_url must be https on a public host → otherwise 400. Switching an app on obeys the package rules: its tier-1 package must be enabled (409 dependency_disabled) and it needs an app_url, stored or in this request (409 conflict); a refused switch writes nothing.",
    request: {
      params: AppParam,
      body: jsonBodyOf(
        z
          .strictObject({ app_url: appUrlSchema, enabled: z.boolean() })
          .partial()
          .openapi("UpdateSsoApp", { example: { app_url: "https://hrm-pro.example.com/", enabled: true } }),
      ),
    },
    responses: { 200: jsonContent(envelope(SsoApp), "The app") },
  }),
  rotate: defineRoute(access.admin, {
    method: "post",
    path: "/sso/apps/{app}/secret",
    operationId: "rotateSsoAppSecret",
    tags,
    summary: "Set a new signing secret (shown once); tokens signed with the old one stop verifying",
    description:
      "Admins and owners (an API token needs the admin scope). The secret is in this response only (it is stored encrypted); give it to the pro app, which verifies the HS256 tokens with it. Works for an app not configured yet, which stays disabled.",
    request: { params: AppParam },
    responses: { 200: jsonContent(envelope(z.object({ secret: z.string().openapi({ description: "base64url of 32 random bytes" }) })), "The secret") },
  }),
  token: defineRoute(access.session, {
    method: "post",
    path: "/sso/token",
    operationId: "createSsoToken",
    errors: ["conflict"],
    tags,
    summary: "A 60-second SSO token for an enabled pro app",
    description:
      "Any user signed in with a session token (an API token → 403): the JWT names the user, their role and the session it came from. An app that is not enabled, or has no app_url or secret yet → 409 conflict. Open launch_url, or use the embed script, which refreshes the token.",
    request: { body: jsonBodyOf(z.strictObject({ app: AppName }).openapi("SsoTokenRequest", { example: { app: "hrm-pro" } })) },
    responses: { 200: jsonContent(envelope(Grant), "The token and where to launch the app") },
  }),
  refresh: defineRoute(access.public, {
    method: "post",
    path: "/sso/refresh",
    operationId: "refreshSsoToken",
    errors: ["unauthorized"],
    tags,
    summary: "Exchange a valid SSO token (Authorization: Bearer <sso jwt>) for a fresh one",
    description:
      "No API token: the SSO token itself is the credential, sent as Authorization: Bearer <sso jwt> while it is valid. The fresh token carries the user's current name and role. Refused (401) once the session it came from is revoked or expired, or the app is disabled or its secret rotated.",
    responses: { 200: jsonContent(envelope(Grant), "A fresh token") },
  }),
  embed: defineRoute(access.public, {
    method: "get",
    path: "/sso/embed.js",
    operationId: "getEmbedScript",
    tags,
    summary: "The embed script: mounts a pro app in an iframe and keeps its token fresh",
    description:
      "Public JavaScript (cached 5 minutes) for a host page: BusinessPlatformSSO.mount({container, app, apiBase, sessionToken}) gets a token from POST /sso/token, loads the app's launch_url in an iframe and, about 15 s before each token expires, posts it a fresh one from POST /sso/refresh (postMessage to the app's origin only).",
    responses: { 200: { description: "JavaScript", content: { "text/javascript": { schema: z.string() } } } },
  }),
};

function toApp(row: { app: ProApp; appUrl: string | null; enabled: boolean; secret: string | null; updatedAt: number | null }): z.infer<typeof SsoApp> {
  return { app: row.app, app_url: row.appUrl, enabled: row.enabled, secret_set: row.secret !== null, updated_at: isoTimestamp(row.updatedAt) };
}

async function grant(
  c: Context<AppEnv>,
  input: {
    app: ProApp;
    appUrl: string;
    secret: string;
    user: { id: number; email: string; name: string; role: string };
    workspaceId: number;
    sessionId: number;
  },
) {
  const token = await signSsoToken(
    {
      iss: issuerOf(c),
      aud: input.app,
      sub: String(input.user.id),
      workspace_id: input.workspaceId,
      email: input.user.email,
      name: input.user.name,
      role: input.user.role,
      sid: String(input.sessionId),
    },
    input.secret,
    clock.now(),
  );
  return { token, expires_in: SSO_TOKEN_TTL_SECONDS as typeof SSO_TOKEN_TTL_SECONDS, app_url: input.appUrl, launch_url: launchUrl(input.appUrl, token) };
}

export const ssoRoutes = newRouter()
  .openapi(routes.list, async (c) => {
    const rows = await directoryOf(c).select(ssoApps);
    const byApp = new Map(rows.map((row) => [row.app, row]));
    const data = PRO_APPS.map((app) => {
      const row = byApp.get(app);
      return toApp({ app, appUrl: row?.appUrl ?? null, enabled: row?.enabled ?? false, secret: row?.secret ?? null, updatedAt: row?.updatedAt ?? null });
    });
    return c.json({ success: true as const, data, meta: { limit: data.length, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(routes.update, async (c) => {
    const { app } = c.req.valid("param");
    const body = c.req.valid("json");
    const tenant = directoryOf(c);
    const now = Date.now();
    // The app is framed in the dashboard and handed tokens: the same policy as webhook targets (https, a
    // public host), except in local development.
    const problem = body.app_url ? outboundUrlProblem(body.app_url, configOf(c.env).development) : null;
    if (problem) throw ApiError.validation([{ path: "app_url", message: problem }]);
    const values = body.app_url !== undefined ? { appUrl: body.app_url } : {};
    // One batch: the settings, then the switch, which obeys the package rule (its tier-1 package must
    // be enabled) exactly as PUT /packages/{app} does; a refused switch writes nothing.
    const switches = new PackageSwitches(tenant, platformOf(c).registry);
    const statements = [
      tenant
        .insert(ssoApps, { app, enabled: false, ...values, updatedAt: now })
        .onConflictDoUpdate({ target: [ssoApps.workspaceId, ssoApps.app], set: { ...values, updatedAt: now } }),
      ...(body.enabled !== undefined ? switches.statements([app], body.enabled, now) : []),
      tenant.select(ssoApps, eq(ssoApps.app, app)),
    ];
    const results = await switches.run(app, body.enabled ?? false, statements);
    const [row] = results.at(-1) as (typeof ssoApps.$inferSelect)[];
    return c.json({ success: true as const, data: toApp(row!) }, 200);
  })
  .openapi(routes.rotate, async (c) => {
    const { app } = c.req.valid("param");
    const tenant = directoryOf(c);
    const secret = newAppSecret();
    const sealed = await sealSecret(secret, configOf(c.env).sealingKeys);
    const now = Date.now();
    await tenant
      .insert(ssoApps, { app, enabled: false, secret: sealed, updatedAt: now })
      .onConflictDoUpdate({ target: [ssoApps.workspaceId, ssoApps.app], set: { secret: sealed, updatedAt: now } })
      .run();
    return c.json({ success: true as const, data: { secret } }, 200);
  })
  .openapi(routes.token, async (c) => {
    const { app } = c.req.valid("json");
    const principal = principalOf(c);
    const settings = await loadApp(c.env, platformOf(c).registry, principal.workspace.id, app);
    if (!settings.enabled || !settings.secret || !settings.appUrl) {
      throw new ApiError("conflict", `${app} is not ready for single sign-on: an admin must set its app_url and secret and enable it`);
    }
    const data = await grant(c, {
      app,
      appUrl: settings.appUrl,
      secret: settings.secret,
      user: principal.user,
      workspaceId: principal.workspace.id,
      sessionId: principal.tokenId,
    });
    return c.json({ success: true as const, data }, 200);
  })
  .openapi(routes.refresh, async (c) => {
    const presented = /^Bearer[ \t]+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (!presented) throw unauthorized(false);
    const verified = await verifyIssuedToken(c.env, platformOf(c).registry, presented, issuerOf(c));
    if (!verified?.app.appUrl || !verified.app.secret) throw unauthorized(true);
    const { claims } = verified;
    if (!/^[1-9][0-9]{0,15}$/.test(claims.sid) || !/^[1-9][0-9]{0,15}$/.test(claims.sub)) throw unauthorized(true);
    // The session the token came from must still be live; the user's current name and role are used.
    const directory = directoryFor(c.env, platformOf(c).registry, claims.workspace_id);
    const [session] = await directory.rows<{ id: number; userId: number; email: string; name: string; role: string }>(
      sql`SELECT ${tokens.id} AS id, ${users.id} AS userId, ${users.email} AS email, ${users.name} AS name, ${users.role} AS role
          FROM ${tokens} JOIN ${users} ON ${directory.scope(users, eq(users.id, tokens.userId), eq(users.id, Number(claims.sub)))}
          WHERE ${directory.scope(tokens, eq(tokens.id, Number(claims.sid)), eq(tokens.kind, "session"), gt(tokens.expiresAt, Date.now()))}`,
    );
    if (!session) throw unauthorized(true);
    const data = await grant(c, {
      app: verified.app.app,
      appUrl: verified.app.appUrl,
      secret: verified.app.secret,
      user: { id: session.userId, email: session.email, name: session.name, role: session.role },
      workspaceId: claims.workspace_id,
      sessionId: session.id,
    });
    return c.json({ success: true as const, data }, 200);
  })
  .openapi(routes.embed, (c) => c.body(EMBED_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=300" }));
