import { and, eq, sql } from "drizzle-orm";
import { definePackage, type PackageManifest } from "../platform/packages";
import { type ProApp, ssoApps } from "./schema";

/**
 * A pro app as a tier-2 package: its on/off state is its SSO app's `enabled`, it starts disabled until
 * an admin sets its app_url, and it can only be on while the tier-1 package it builds on is.
 */
export function proAppPackage(app: { name: ProApp; title: string; description: string; dependsOn: string }): PackageManifest {
  const row = (workspaceId: number) => and(eq(ssoApps.workspaceId, workspaceId), eq(ssoApps.app, app.name));
  return definePackage({
    name: app.name,
    title: app.title,
    tier: 2,
    description: app.description,
    dependsOn: [app.dependsOn],
    resources: [],
    routers: [],
    tables: [],
    enabledState: {
      isEnabled: (workspaceId) => sql`EXISTS (SELECT 1 FROM ${ssoApps} s WHERE s.workspace_id = ${workspaceId} AND s.app = ${app.name} AND s.enabled = 1)`,
      // An upsert, so switching off an app never configured still records it as off; switching on
      // needs an app_url already stored.
      set: (db, workspaceId, enabled, guard, now) =>
        db
          .insert(ssoApps)
          .select(
            // Columns in the table's order: workspace_id, app, app_url, enabled, secret, updated_at.
            sql`SELECT ${workspaceId}, ${app.name}, NULL, ${enabled ? 1 : 0}, NULL, ${now}
                WHERE (${guard}) AND (${enabled ? 0 : 1} = 1 OR EXISTS (SELECT 1 FROM ${ssoApps} s WHERE s.workspace_id = ${workspaceId} AND s.app = ${app.name} AND s.app_url IS NOT NULL))`,
          )
          .onConflictDoUpdate({ target: [ssoApps.workspaceId, ssoApps.app], set: { enabled, updatedAt: now } }),
      notReady: async (db, workspaceId) => {
        const current = await db.select({ appUrl: ssoApps.appUrl }).from(ssoApps).where(row(workspaceId)).get();
        return current?.appUrl ? null : `set its app_url first (PUT /sso/apps/${app.name})`;
      },
    },
  });
}
