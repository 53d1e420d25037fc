import { eq, sql } from "drizzle-orm";
import { definePackage, type PackageManifest } from "../platform/packages";
import { type ProApp, ssoApps } from "./schema";

/**
 * A pro app as a tier-2 package: its on/off state is its SSO app's `enabled`, it starts disabled until
 * an admin sets its app_url, and it can only be on while the tier-1 package it builds on is.
 */
export function proAppPackage(app: { name: ProApp; title: string; description: string; dependsOn: string }): PackageManifest {
  return definePackage({
    name: app.name,
    title: app.title,
    tier: 2,
    description: app.description,
    dependsOn: [app.dependsOn],
    nav: [{ href: `/app/apps/${app.name}`, label: app.title, group: "Apps" }],
    tables: [],
    enabledState: {
      isEnabled: (directory) => sql`EXISTS (SELECT 1 FROM ${ssoApps} WHERE ${directory.scope(ssoApps, eq(ssoApps.app, app.name), eq(ssoApps.enabled, true))})`,
      // An upsert, so switching off an app never configured still records it as off; switching on
      // needs an app_url already stored.
      set: (directory, enabled, guard, now) => {
        const configured = sql`EXISTS (SELECT 1 FROM ${ssoApps} WHERE ${directory.scope(ssoApps, eq(ssoApps.app, app.name), sql`${ssoApps.appUrl} IS NOT NULL`)})`;
        return directory
          .insertSelect(
            ssoApps,
            // Columns in the table's order: workspace_id, app, app_url, enabled, secret, updated_at.
            sql`SELECT ${directory.workspaceId}, ${app.name}, NULL, ${enabled ? 1 : 0}, NULL, ${now} WHERE (${guard}) AND (${enabled ? 0 : 1} = 1 OR ${configured})`,
          )
          .onConflictDoUpdate({ target: [ssoApps.workspaceId, ssoApps.app], set: { enabled, updatedAt: now } });
      },
      notReady: async (directory) => {
        const current = await directory.select(ssoApps, eq(ssoApps.app, app.name)).get();
        return current?.appUrl ? null : `set its app_url first (PUT /sso/apps/${app.name})`;
      },
    },
  });
}
