import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamps, users, workspaces } from "../../platform/schema";

/** A user's conversation with the assistant: kept 30 days after its last message, visible to that user only. */
export const conversations = sqliteTable(
  "assistant_conversations",
  {
    /** Random, unguessable (`conv_…`). */
    id: text("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (table) => [
    index("assistant_conversations_user_idx").on(table.workspaceId, table.userId, table.updatedAt),
    index("assistant_conversations_updated_idx").on(table.updatedAt),
  ],
);

export const messages = sqliteTable(
  "assistant_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    text: text("text").notNull(),
    /** The assistant's reply as the API returned it (intent, data, records, action). */
    reply: text("reply", { mode: "json" }),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    index("assistant_messages_conversation_idx").on(table.workspaceId, table.conversationId, table.id),
    index("assistant_messages_created_idx").on(table.createdAt),
  ],
);

export const ACTION_STATUSES = ["pending", "running", "done", "failed"] as const;

/** A proposed write: runs only when its user confirms it within 10 minutes, once. */
export const actions = sqliteTable(
  "assistant_actions",
  {
    /** Random, unguessable (`act_…`). */
    id: text("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id"),
    kind: text("kind").notNull(),
    /** The REST call it makes: {method, path, body}. */
    request: text("request", { mode: "json" }).$type<{ method: string; path: string; body?: Record<string, unknown>; unchanged_since?: string }>().notNull(),
    summary: text("summary").notNull(),
    status: text("status", { enum: ACTION_STATUSES }).notNull().default("pending"),
    /** What the route answered (its data, or its error). */
    result: text("result", { mode: "json" }),
    expiresAt: integer("expires_at").notNull(),
    ...timestamps,
  },
  (table) => [index("assistant_actions_expiry_idx").on(table.expiresAt)],
);
