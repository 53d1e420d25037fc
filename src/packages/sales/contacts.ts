import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import type { ResourceDefinition } from "../../platform/resource/definition";
import { anyOf, anyText } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { contacts } from "./schema";

const Contact = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    company: z.string().nullable(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Contact");

const writable = {
  name: fields.name(),
  email: fields.email(),
  phone: fields.phone().nullable(),
  company: fields.text(200).nullable(),
};

const CreateContact = z.strictObject({ ...writable, phone: writable.phone.optional(), company: writable.company.optional() }).openapi("CreateContact");
const UpdateContact = z.strictObject(writable).partial().openapi("UpdateContact");

export const contactResource: ResourceDefinition<typeof contacts, z.infer<typeof CreateContact>, z.infer<typeof UpdateContact>, z.infer<typeof Contact>> = {
  name: "contacts",
  singular: "contact",
  tags: ["Contacts"],
  description: "People you deal with: name, e-mail (unique in the workspace), phone, company.",
  table: contacts,
  schemas: { output: Contact, create: CreateContact, update: UpdateContact },
  ui: { title: "name", columns: ["name", "email", "company", "phone"], importable: true },
  toOutput: (row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input) => ({ name: input.name, email: input.email, phone: input.phone ?? null, company: input.company ?? null }),
  toUpdate: (input) => input,
  examples: {
    create: { name: "Ada Lovelace", email: "ada@example.com", phone: "+442071234567", company: "Analytical Engines Ltd" },
    update: { company: "Babbage & Co", phone: "+442079460000" },
  },
  sortable: { id: contacts.id, name: contacts.name, created_at: contacts.createdAt },
  filters: {
    email: anyOf(contacts.email, z.string().trim().toLowerCase(), "E-mail address (exact, comma list = any of)"),
    company: anyText(contacts.company, "Company (any case; comma list = any of)"),
  },
  searchable: [contacts.name, contacts.email, contacts.company],
  search: { code: 1, label: contacts.name, text: [contacts.email, contacts.company] },
  uniques: [{ constraint: "contacts.email", field: "email" }],
};
