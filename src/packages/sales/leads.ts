import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, anyText } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { LEAD_STATUSES, leads } from "./schema";

const Lead = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
    source: z.string().nullable(),
    status: z.enum(LEAD_STATUSES),
    value: z.number().int().nullable().openapi({ description: "Estimated value in minor units" }),
    currency: z.string(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Lead");

const writable = {
  name: fields.name(),
  email: fields.email(),
  phone: fields.phone().nullable(),
  company: fields.text(200).nullable(),
  source: fields.text(100).nullable(),
  status: z.enum(LEAD_STATUSES),
  value: fields.amount().nullable(),
  currency: fields.currency(),
};
const CreateLead = z.strictObject(writable).partial().required({ name: true, email: true }).openapi("CreateLead");
const UpdateLead = z.strictObject(writable).partial().openapi("UpdateLead");

export const leadResource: ResourceDefinition<typeof leads, z.infer<typeof CreateLead>, z.infer<typeof UpdateLead>, z.infer<typeof Lead>> = {
  name: "leads",
  singular: "lead",
  tags: ["Leads"],
  description: "Prospects before they are qualified: source, status (new → contacted → qualified/unqualified → converted) and an estimated value.",
  table: leads,
  schemas: { output: Lead, create: CreateLead, update: UpdateLead },
  ui: { title: "name", columns: ["name", "company", "status", "source", "value"], money: { value: "currency" } },
  toOutput: (row: Row<typeof leads>) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    source: row.source,
    status: row.status,
    value: row.value,
    currency: row.currency,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input) => ({
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    company: input.company ?? null,
    source: input.source ?? null,
    status: input.status ?? "new",
    value: input.value ?? null,
    currency: input.currency ?? "USD",
  }),
  toUpdate: (input) => input,
  examples: {
    create: { name: "Tom Baker", email: "tom.baker@contoso.example", company: "Contoso", source: "website", value: 450000, currency: "USD" },
    update: { status: "contacted" },
  },
  sortable: { id: leads.id, name: leads.name, created_at: leads.createdAt },
  filters: {
    status: anyOf(leads.status, z.enum(LEAD_STATUSES), "Status (comma list = any of)"),
    source: anyText(leads.source, "Source (any case; comma list = any of)"),
    company: anyText(leads.company, "Company (any case; comma list = any of)"),
  },
  searchable: [leads.name, leads.email, leads.company],
  search: { code: 4, label: leads.name, text: [leads.email, leads.company] },
  summed: { field: "value", what: "lead values", column: leads.value, currency: leads.currency, kind: "leads.value" },
  uniques: [],
};
