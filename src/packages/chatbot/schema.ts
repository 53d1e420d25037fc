import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, users, workspaces } from "../../platform/schema";

export const PROVIDERS = ["slack", "teams", "telegram"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A chat platform connected to the workspace: its verification secret (sealed), its allow-list, and an optional fallback user. */
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
    /**
     * Who the bot answers unlinked chat users as (read-only); null (the default): unlinked users get only the
     * linking instructions. Removing the user switches the fallback off.
     */
    actsAsUserId: integer("acts_as_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Chat, team or channel ids the bot answers in; empty: every one the platform sends. */
    allowedChats: text("allowed_chats", { mode: "json" }).$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.provider] })],
);

/** A chat account linked to a platform user (by a one-time code from /link): the bot answers it as that user. */
export const chatLinks = sqliteTable(
  "chat_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    provider: text("provider", { enum: PROVIDERS }).notNull(),
    /** Slack user_id, Teams from.id, Telegram from.id. */
    chatUserId: text("chat_user_id").notNull(),
    /** How the chat showed the account when it was linked (a name or handle), for the settings page. */
    chatUserName: text("chat_user_name"),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("chat_links_account_unique").on(table.workspaceId, table.provider, table.chatUserId),
    index("chat_links_user_idx").on(table.workspaceId, table.userId),
  ],
);

/** One-time codes from /link, by hash: valid 10 minutes, used once. */
export const chatLinkCodes = sqliteTable(
  "chat_link_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    provider: text("provider", { enum: PROVIDERS }).notNull(),
    chatUserId: text("chat_user_id").notNull(),
    chatUserName: text("chat_user_name"),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [index("chat_link_codes_expires_idx").on(table.expiresAt)],
);

/** Requests already answered (a Slack signature, a Teams activity id, a Telegram update_id), kept 24 hours. */
export const chatReplays = sqliteTable(
  "chat_replays",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    provider: text("provider", { enum: PROVIDERS }).notNull(),
    key: text("key").notNull(),
    seenAt: integer("seen_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.provider, table.key] }), index("chat_replays_seen_idx").on(table.seenAt)],
);
