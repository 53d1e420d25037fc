import { eq } from "drizzle-orm";
import { configOf } from "../platform/config";
import type { Env } from "../platform/context";
import type { PackageRegistry } from "../platform/packages";
import { openSecret } from "../platform/secrets";
import { directoryFor } from "../platform/tenancy";
import { PRO_APPS, type ProApp, ssoApps } from "./schema";
import { peekSsoClaims, type SsoClaims, verifySsoToken } from "./verify";

export type AppSettings = { app: ProApp; appUrl: string | null; enabled: boolean; secret: string | null };

/** A workspace's settings of one app, with its secret decrypted. */
export async function loadApp(env: Env, registry: PackageRegistry, workspaceId: number, app: ProApp): Promise<AppSettings> {
  const row = await directoryFor(env, registry, workspaceId).select(ssoApps, eq(ssoApps.app, app)).get();
  return {
    app,
    appUrl: row?.appUrl ?? null,
    enabled: row?.enabled ?? false,
    secret: row?.secret ? await openSecret(row.secret, configOf(env).sealingKeys) : null,
  };
}

/**
 * Verifies an SSO token against the secret of the app and workspace it names: null if anything is off
 * (unknown app, disabled, no secret, bad signature, expired, wrong audience or issuer).
 */
export async function verifyIssuedToken(
  env: Env,
  registry: PackageRegistry,
  token: string,
  issuer: string,
): Promise<{ claims: SsoClaims; app: AppSettings } | null> {
  const peeked = peekSsoClaims(token);
  const workspaceId = peeked?.workspace_id;
  const audience = peeked?.aud;
  if (typeof workspaceId !== "number" || !PRO_APPS.includes(audience as ProApp)) return null;
  const app = await loadApp(env, registry, workspaceId, audience as ProApp);
  if (!app.enabled || !app.secret) return null;
  try {
    const claims = await verifySsoToken(token, app.secret, { audience: app.app, issuer });
    return claims.workspace_id === workspaceId ? { claims, app } : null;
  } catch {
    return null;
  }
}

export function launchUrl(appUrl: string, token: string): string {
  return `${appUrl.split("#")[0]}#sso_token=${token}`;
}
