import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import type { ResourceDefinition } from "../../platform/resource/definition";
import { isoTimestamp } from "../../platform/time";
import { vendors } from "./schema";

const Vendor = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    tax_id: z.string().nullable(),
    currency: z.string().nullable().openapi({ description: "What its expenses default to" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Vendor");

const writable = {
  name: fields.name(),
  email: fields.email().nullable(),
  phone: fields.phone().nullable(),
  tax_id: fields.text(64).nullable(),
  currency: fields.currency().nullable(),
};
const CreateVendor = z.strictObject(writable).partial().required({ name: true }).openapi("CreateVendor");
const UpdateVendor = z.strictObject(writable).partial().openapi("UpdateVendor");

export const vendorResource: ResourceDefinition<typeof vendors, z.infer<typeof CreateVendor>, z.infer<typeof UpdateVendor>, z.infer<typeof Vendor>> = {
  name: "vendors",
  singular: "vendor",
  tags: ["Vendors"],
  description: "Who the business buys from: expenses name them, and take their currency unless they give one.",
  table: vendors,
  schemas: { output: Vendor, create: CreateVendor, update: UpdateVendor },
  ui: { title: "name", columns: ["name", "email", "currency"] },
  toOutput: (row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    tax_id: row.taxId,
    currency: row.currency,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input) => ({
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    taxId: input.tax_id ?? null,
    currency: input.currency ?? null,
  }),
  toUpdate: ({ tax_id, ...rest }) => ({ ...rest, ...(tax_id !== undefined ? { taxId: tax_id } : {}) }),
  examples: {
    create: { name: "Office Supplies Co", email: "orders@officesupplies.example", currency: "USD" },
    update: { phone: "+14155550123" },
  },
  sortable: { id: vendors.id, name: vendors.name, created_at: vendors.createdAt },
  filters: {},
  searchable: [vendors.name, vendors.email],
  uniques: [],
};
