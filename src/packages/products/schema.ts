import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamps, workspaces } from "../../platform/schema";

export const PRODUCT_KINDS = ["product", "service"] as const;

/** The catalogue: what invoice and quote lines may name by `product_id` (its name, price and tax are copied). */
export const products = sqliteTable(
  "products",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    /** Unique within the workspace when given. */
    sku: text("sku"),
    kind: text("kind", { enum: PRODUCT_KINDS }).notNull().default("service"),
    /** Price of one unit in minor units of `currency`. */
    unitAmount: integer("unit_amount").notNull(),
    currency: text("currency").notNull(),
    taxRate: real("tax_rate").notNull().default(0),
    unit: text("unit"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    ...timestamps,
  },
  (table) => [
    // Only a given SKU is unique: SQLite treats NULLs as distinct, so products without one coexist.
    uniqueIndex("products_workspace_sku_unique").on(table.workspaceId, table.sku),
    index("products_workspace_id_idx").on(table.workspaceId, table.id),
    index("products_workspace_updated_idx").on(table.workspaceId, table.updatedAt, table.id),
    index("products_workspace_name_idx").on(table.workspaceId, table.name, table.id),
    index("products_workspace_created_idx").on(table.workspaceId, table.createdAt, table.id),
    index("products_workspace_amount_idx").on(table.workspaceId, table.unitAmount, table.id),
    index("products_workspace_kind_idx").on(table.workspaceId, table.kind, table.active, table.id),
    index("products_workspace_active_idx").on(table.workspaceId, table.active, table.id),
  ],
);
