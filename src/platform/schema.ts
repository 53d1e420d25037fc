import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Timestamps are stored as Unix milliseconds and rendered as ISO 8601 strings. */
export const timestamps = {
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
};

export const PLANS = ["starter", "pro", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export const workspaces = sqliteTable("workspaces", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  plan: text("plan", { enum: PLANS }).notNull().default("starter"),
  planUpdatedAt: integer("plan_updated_at").notNull(),
  /** JSON array of package names switched off for this workspace (all are on by default). */
  disabledPackages: text("disabled_packages", { mode: "json" }).$type<string[]>().notNull().default([]),
  /** Unused since invoice numbers moved to the shards (invoice_counters); kept so old rows stay readable. */
  invoiceCounter: integer("invoice_counter").notNull().default(0),
  /** The binding of the D1 database holding the workspace's business data (see SHARDS). */
  shard: text("shard").notNull().default("DB"),
  /** Set while `npm run shard:move` switches the workspace to another shard: writes answer 503 meanwhile. */
  movingSince: integer("moving_since"),
  ...timestamps,
});

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    // Stored lower-cased; unique across workspaces because login is by e-mail alone.
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    ...timestamps,
  },
  (table) => [uniqueIndex("users_email_unique").on(table.email), index("users_workspace_idx").on(table.workspaceId, table.id)],
);

export const TOKEN_KINDS = ["session", "api"] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** Session and API tokens. Only the SHA-256 of a token is stored. */
export const tokens = sqliteTable(
  "tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind", { enum: TOKEN_KINDS }).notNull(),
    name: text("name"),
    tokenHash: text("token_hash").notNull(),
    prefix: text("prefix").notNull(),
    lastFour: text("last_four").notNull(),
    /** JSON array of scopes; null for session tokens, which act with the user's role. */
    scopes: text("scopes", { mode: "json" }).$type<string[]>(),
    expiresAt: integer("expires_at"),
    lastUsedAt: integer("last_used_at"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("tokens_hash_unique").on(table.tokenHash),
    index("tokens_workspace_kind_idx").on(table.workspaceId, table.kind, table.id),
    index("tokens_workspace_user_idx").on(table.workspaceId, table.userId),
    index("tokens_expires_idx").on(table.expiresAt),
  ],
);

/**
 * Idempotency-Key records: kept 24 h per workspace and credential (a user's sessions share keys, an API
 * token has its own), swept by the cron trigger.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** `user:<id>` for session tokens, `token:<id>` for API tokens. */
    credential: text("credential").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    /** null while the first request is still running. */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    lockedUntil: integer("locked_until").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.credential, table.key] }), index("idempotency_keys_expires_idx").on(table.expiresAt)],
);

/**
 * The transactional outbox: an event is inserted in the same D1 batch as the change that caused it,
 * then enqueued for delivery; `enqueued_at` stays null until the queue accepted it (the sweep retries).
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    type: text("type").notNull(),
    /** JSON of the event's `data`. */
    data: text("data").notNull(),
    /** JSON of `previous_attributes`, when the event has them. */
    previousAttributes: text("previous_attributes"),
    createdAt: integer("created_at").notNull(),
    enqueuedAt: integer("enqueued_at"),
  },
  (table) => [
    index("events_workspace_pending_idx").on(table.workspaceId, table.enqueuedAt),
    index("events_pending_idx").on(table.enqueuedAt, table.createdAt),
    // A record's timeline: its events by the id in their data.
    index("events_workspace_subject_idx").on(table.workspaceId, sql`json_extract(data, '$.id')`, table.createdAt),
  ],
);

/**
 * Write guards: a statement in a D1 batch that inserts a row here aborts the whole batch (the CHECK can
 * never hold), so a condition that fails midway (`changes() = 0`, a reference gone) rolls back every
 * statement before it. The table is always empty.
 */
export const writeGuards = sqliteTable("write_guards", { reason: text("reason").notNull() }, () => [check("write_guard_failed", sql`reason IS NULL`)]);

/**
 * Each workspace's running total of every summed money column, per currency (deal values, lead values,
 * invoice totals…), kept by triggers in the transaction of each write. A trigger refuses a total above
 * 2^53 − 1 minor units, so every sum the API reports over those columns — any subset of the total — is an
 * exact integer a JSON client can read: no aggregate can overflow SQLite's integers or become a float.
 * Payments need none of their own: each is at most its invoice's amount due.
 */
export const moneyTotals = sqliteTable(
  "money_totals",
  {
    workspaceId: integer("workspace_id").notNull(),
    /** What is summed: "deals.value", "leads.value", "invoices.total". */
    kind: text("kind").notNull(),
    currency: text("currency").notNull(),
    amount: integer("amount").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.kind, table.currency] })],
);

/**
 * Public links (an invoice's page at /i/{token}): the directory maps the SHA-256 of a link's token to its
 * workspace and record, so a request with no credential finds the right shard. Only the hash is here.
 */
export const publicLinks = sqliteTable(
  "public_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    /** What the link shows ("invoice"; "quote" later) and which record. */
    kind: text("kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("public_links_workspace_idx").on(table.workspaceId, table.kind, table.subjectId)],
);
