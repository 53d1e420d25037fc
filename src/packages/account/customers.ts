import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf } from "../../platform/resource/filters";
import { qualified as q, sameWorkspace } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { customers, invoices, invoicingSettings } from "./schema";

const text = fields.text(200).nullable();

const Billing = z
  .object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    address_line1: z.string().nullable(),
    address_line2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
  })
  .openapi("BillingDetails");

const Customer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    billing: Billing,
    tax_id: z.string().nullable(),
    currency: z.string(),
    balance: z.number().int().openapi({ description: "Sum of amount_due of the customer's sent and partially paid invoices, in minor units" }),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Customer");

const BillingInput = z
  .strictObject({
    name: text,
    email: fields.email().nullable(),
    address_line1: text,
    address_line2: text,
    city: text,
    state: text,
    postal_code: fields.text(20).nullable(),
    country: fields.country().nullable(),
  })
  .partial();

const writable = {
  name: fields.name(),
  email: fields.email().nullable(),
  phone: fields.phone().nullable(),
  billing: BillingInput.nullable(),
  tax_id: fields.text(50).nullable(),
  currency: fields.currency(),
};
const CreateCustomer = z
  .strictObject({ ...writable })
  .partial()
  .required({ name: true })
  .openapi("CreateCustomer");
const UpdateCustomer = z.strictObject(writable).partial().openapi("UpdateCustomer");
type BillingFields = z.infer<typeof BillingInput>;

const BILLING_COLUMNS = {
  name: "billingName",
  email: "billingEmail",
  address_line1: "billingAddressLine1",
  address_line2: "billingAddressLine2",
  city: "billingCity",
  state: "billingState",
  postal_code: "billingPostalCode",
  country: "billingCountry",
} as const satisfies Record<keyof BillingFields, keyof typeof customers.$inferSelect>;

/** Billing is merged field by field on update; `billing: null` clears it all. */
function billingColumns(billing: BillingFields | null | undefined) {
  if (billing === undefined) return {};
  const columns: Partial<Record<(typeof BILLING_COLUMNS)[keyof BillingFields], string | null>> = {};
  for (const [field, column] of Object.entries(BILLING_COLUMNS) as [keyof BillingFields, (typeof BILLING_COLUMNS)[keyof BillingFields]][]) {
    if (billing === null) columns[column] = null;
    else if (billing[field] !== undefined) columns[column] = billing[field] ?? null;
  }
  return columns;
}

type CustomerRow = Row<typeof customers> & { balance?: number };

export const customerResource: ResourceDefinition<
  typeof customers,
  z.infer<typeof CreateCustomer>,
  z.infer<typeof UpdateCustomer>,
  z.infer<typeof Customer>
> = {
  name: "customers",
  singular: "customer",
  tags: ["Customers"],
  description: "Who you invoice: billing details, tax id, currency, and the balance they owe on sent invoices.",
  table: customers,
  schemas: { output: Customer, create: CreateCustomer, update: UpdateCustomer },
  ui: {
    title: "name",
    columns: ["name", "email", "billing.country", "currency", "balance"],
    money: { balance: "currency" },
    related: [{ resource: "payments", filter: "customer_id", title: "payments" }],
    importable: true,
  },
  toOutput: (row: CustomerRow) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    billing: Object.fromEntries(Object.entries(BILLING_COLUMNS).map(([field, column]) => [field, row[column]])) as z.infer<typeof Billing>,
    tax_id: row.taxId,
    currency: row.currency,
    balance: row.balance ?? 0,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input, _now, tenant) => ({
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    taxId: input.tax_id ?? null,
    // The workspace's currency (Settings → Invoicing) unless the customer names one.
    currency: input.currency ?? sql`coalesce((SELECT ${invoicingSettings.currency} FROM ${invoicingSettings} WHERE ${tenant.scope(invoicingSettings)}), 'USD')`,
    ...billingColumns(input.billing),
  }),
  toUpdate: ({ billing, tax_id, ...rest }) => ({ ...rest, ...(tax_id !== undefined ? { taxId: tax_id } : {}), ...billingColumns(billing) }),
  // balance = what the customer owes on invoices that are out, in the statement that reads the customer.
  computed: {
    balance:
      sql<number>`(SELECT coalesce(sum(${q(invoices.total)} - ${q(invoices.amountPaid)}), 0) FROM ${invoices} WHERE ${sameWorkspace(invoices, customers)} AND ${q(invoices.customerId)} = ${q(customers.id)} AND ${q(invoices.status)} IN ('sent', 'partially_paid'))`.mapWith(
        Number,
      ),
  },
  examples: {
    create: {
      name: "Initech",
      email: "ap@initech.example",
      phone: "+15125550147",
      billing: {
        name: "Initech Accounts Payable",
        email: "ap@initech.example",
        address_line1: "4120 Freidrich Lane",
        city: "Austin",
        state: "TX",
        postal_code: "78744",
        country: "US",
      },
      tax_id: "US-74-1234567",
      currency: "USD",
    },
    update: { phone: "+15125550199", tax_id: "US-74-7654321" },
  },
  sortable: { id: customers.id, name: customers.name, created_at: customers.createdAt },
  filters: {
    country: anyOf(customers.billingCountry, fields.country(), "Billing country (ISO 3166-1 alpha-2, comma list = any of)"),
    currency: anyOf(customers.currency, fields.currency(), "Currency (ISO 4217, comma list = any of)"),
  },
  searchable: [customers.name, customers.email, customers.billingName, customers.taxId],
  search: { code: 2, label: customers.name, text: [customers.email, customers.billingName, customers.taxId] },
  uniques: [],
};
