import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { ResourceDefinition } from "../../platform/resource/definition";
import { anyOf, booleanFilter } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { invoicingSettings } from "../account/schema";
import { PRODUCT_KINDS, products } from "./schema";

const Product = z
  .object({
    id: z.number().int(),
    name: z.string(),
    sku: z.string().nullable(),
    kind: z.enum(PRODUCT_KINDS),
    unit_amount: z.number().int().openapi({ description: "Price of one unit, in minor units of currency" }),
    currency: z.string(),
    tax_rate: z.number().openapi({ description: "Percent (0–100) copied onto lines that name the product" }),
    unit: z.string().nullable(),
    active: z.boolean().openapi({ description: "Inactive products stay on old lines but cannot be put on new ones" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Product");

const writable = {
  name: fields.name(),
  sku: z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters").nullable(),
  kind: z.enum(PRODUCT_KINDS),
  unit_amount: fields.amount(),
  currency: fields.currency(),
  tax_rate: z.number().min(0, "must be between 0 and 100").max(100, "must be between 0 and 100"),
  unit: fields.text(40).nullable(),
  active: z.boolean(),
};

const CreateProduct = z.strictObject(writable).partial().required({ name: true, unit_amount: true }).openapi("CreateProduct");
const UpdateProduct = z.strictObject(writable).partial().openapi("UpdateProduct");

export const productResource: ResourceDefinition<typeof products, z.infer<typeof CreateProduct>, z.infer<typeof UpdateProduct>, z.infer<typeof Product>> = {
  name: "products",
  singular: "product",
  tags: ["Products"],
  description: "The catalogue: products and services with a unit price, tax rate and optional unique SKU. Invoice and quote lines name them by product_id.",
  table: products,
  schemas: { output: Product, create: CreateProduct, update: UpdateProduct },
  ui: { title: "name", columns: ["name", "sku", "kind", "unit_amount", "unit", "active"], money: { unit_amount: "currency" } },
  toOutput: (row) => ({
    id: row.id,
    name: row.name,
    sku: row.sku,
    kind: row.kind,
    unit_amount: row.unitAmount,
    currency: row.currency,
    tax_rate: row.taxRate,
    unit: row.unit,
    active: row.active,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input, _now, tenant) => ({
    name: input.name,
    sku: input.sku ?? null,
    kind: input.kind ?? "service",
    unitAmount: input.unit_amount,
    // The workspace's invoicing currency (Settings → Invoicing) unless the product names one.
    currency: input.currency ?? sql`coalesce((SELECT ${invoicingSettings.currency} FROM ${invoicingSettings} WHERE ${tenant.scope(invoicingSettings)}), 'USD')`,
    taxRate: input.tax_rate ?? 0,
    unit: input.unit ?? null,
    active: input.active ?? true,
  }),
  toUpdate: ({ unit_amount, tax_rate, ...rest }) => ({
    ...rest,
    ...(unit_amount !== undefined ? { unitAmount: unit_amount } : {}),
    ...(tax_rate !== undefined ? { taxRate: tax_rate } : {}),
  }),
  examples: {
    create: { name: "Setup fee", sku: "SETUP-01", kind: "service", unit_amount: 50000, currency: "USD", tax_rate: 20, unit: "piece" },
    update: { unit_amount: 55000, active: true },
  },
  sortable: { id: products.id, name: products.name, unit_amount: products.unitAmount, created_at: products.createdAt },
  filters: {
    kind: anyOf(products.kind, z.enum(PRODUCT_KINDS), "product or service (comma list = any of)"),
    active: booleanFilter((active) => sql`${products.active} = ${active ? 1 : 0}`, "true: on sale; false: retired"),
  },
  searchable: [products.name, products.sku],
  search: { code: 20, label: products.name, text: [products.sku] },
  uniques: [{ constraint: "products.workspace_id, products.sku", field: "sku" }],
};
