import { z } from "@hono/zod-openapi";
import { eq, gt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { principalOf, unauthorized } from "../platform/auth/middleware";
import { access } from "../platform/auth/permissions";
import type { AppEnv } from "../platform/context";
import { ApiError } from "../platform/errors";
import { publicOrigin } from "../platform/http/origin";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../platform/openapi";
import { tokens, users } from "../platform/schema";
import { platformOf } from "../platform/services";
import { directoryFor } from "../platform/tenancy";
import { clock } from "../platform/time";
import { AppName, tags } from "./app-routes";
import { EMBED_SCRIPT } from "./embed";
import { SSO_TOKEN_TTL_SECONDS, signSsoToken } from "./jwt";
import type { ProApp } from "./schema";
import { launchUrl, loadApp, verifyIssuedToken } from "./service";

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

const routes = {
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

export const tokenRoutes = newRouter()
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
