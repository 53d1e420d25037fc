import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { access } from "../platform/auth/permissions";
import { configOf } from "../platform/config";
import { ApiError } from "../platform/errors";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../platform/openapi";
import { PackageSwitches } from "../platform/package-state";
import { ListMeta } from "../platform/resource/routes";
import { sealSecret } from "../platform/secrets";
import { platformOf } from "../platform/services";
import { directoryOf } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { outboundUrlProblem } from "../platform/url-policy";
import { forgetPackageStates } from "../platform/web/page";
import { newAppSecret } from "./jwt";
import { PRO_APPS, type ProApp, ssoApps } from "./schema";

export const tags = ["Single sign-on"];
/** The reference's words for this file's tag (the manifest lists them). */
export const ssoTags = { "Single sign-on": "HS256 JWTs that sign a dashboard user into an embedded pro app, refreshed while the session lives." };
export const AppName = z.enum(PRO_APPS);
const AppParam = z.object({ app: AppName.openapi({ param: { name: "app", in: "path" }, example: "hrm-pro" }) });

const SsoApp = z
  .object({ app: AppName, app_url: z.string().nullable(), enabled: z.boolean(), secret_set: z.boolean(), updated_at: z.string().nullable() })
  .openapi("SsoApp");
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

function toApp(row: { app: ProApp; appUrl: string | null; enabled: boolean; secret: string | null; updatedAt: number | null }): z.infer<typeof SsoApp> {
  return { app: row.app, app_url: row.appUrl, enabled: row.enabled, secret_set: row.secret !== null, updated_at: isoTimestamp(row.updatedAt) };
}

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
};

export const appRoutes = newRouter()
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
    forgetPackageStates(c, tenant.workspaceId);
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
  });
