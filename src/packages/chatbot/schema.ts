import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps, users, workspaces } from "../../platform/schema";

export const PROVIDERS = ["slack", "teams", "telegram"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A chat platform connected to the workspace: its verification secret (sealed) and the user the bot acts as. */
export const integrations = sqliteTable(
  "chatbot_integrations",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    provider: text("provider", { enum: PROVIDERS }).notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    /** Slack signing secret, Teams outgoing-webhook token (base64) or Telegram secret_token, encrypted at rest. */
    secret: text("secret").notNull(),
    /** The bot answers as this user, read-only; removing the user removes the integration. */
    actsAsUserId: integer("acts_as_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.provider] })],
);
