import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "../platform/schema";

export const PRO_APPS = ["hrm-pro", "sales-pro", "accounting-pro", "project-management-pro"] as const;
export type ProApp = (typeof PRO_APPS)[number];

/** A workspace's settings for one pro app; a missing row means "not configured". */
export const ssoApps = sqliteTable(
  "sso_apps",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    app: text("app", { enum: PRO_APPS }).notNull(),
    appUrl: text("app_url"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
    /** The HS256 secret, encrypted at rest; rotating it invalidates every token signed with the old one. */
    secret: text("secret"),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.app] })],
);
