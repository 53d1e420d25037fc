import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { fields } from "../../platform/fields";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { tenantOf } from "../../platform/tenancy";
import { invoicingSettings } from "./schema";

const tags = ["Invoicing settings"];
export const settingsTags = { "Invoicing settings": "The workspace's currency and whether overdue invoices get reminders." };

const Settings = z
  .object({
    currency: z.string().openapi({ description: "For customers and invoices that name none (an invoice takes its customer's first)", example: "USD" }),
    invoice_reminders: z.boolean().openapi({ description: "E-mail a reminder 3, 7 and 14 days after an unpaid sent invoice's due date" }),
  })
  .openapi("InvoicingSettings");

const UpdateSettings = z.strictObject({ currency: fields.currency(), invoice_reminders: z.boolean() }).partial().openapi("UpdateInvoicingSettings");

const DEFAULTS = { currency: "USD", invoice_reminders: true };

const getSettings = defineRoute(access.read("invoices"), {
  method: "get",
  path: "/settings/invoicing",
  operationId: "getInvoicingSettings",
  tags,
  summary: "The workspace's invoicing settings",
  description: "Defaults until changed: currency USD, invoice_reminders true.",
  responses: { 200: jsonContent(envelope(Settings), "The settings") },
});

const patchSettings = defineRoute(access.admin, {
  method: "patch",
  path: "/settings/invoicing",
  operationId: "updateInvoicingSettings",
  tags,
  summary: "Change the workspace's currency or turn reminders off",
  description: "Admins and owners. Only the fields sent change.",
  request: { body: jsonBodyOf(UpdateSettings, { invoice_reminders: false }) },
  responses: { 200: jsonContent(envelope(Settings), "The settings") },
});

export const settingsRoutes = newRouter()
  .openapi(getSettings, async (c) => {
    const row = await tenantOf(c).select(invoicingSettings).get();
    return c.json({ success: true as const, data: row ? { currency: row.currency, invoice_reminders: row.invoiceReminders } : DEFAULTS }, 200);
  })
  .openapi(patchSettings, async (c) => {
    const input = c.req.valid("json");
    const now = Date.now();
    const [row] = await tenantOf(c)
      .insert(invoicingSettings, {
        currency: input.currency ?? DEFAULTS.currency,
        invoiceReminders: input.invoice_reminders ?? DEFAULTS.invoice_reminders,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: invoicingSettings.workspaceId,
        set: {
          ...(input.currency !== undefined ? { currency: input.currency } : {}),
          ...(input.invoice_reminders !== undefined ? { invoiceReminders: input.invoice_reminders } : {}),
          updatedAt: sql`${now}`,
        },
      })
      .returning();
    return c.json({ success: true as const, data: { currency: row!.currency, invoice_reminders: row!.invoiceReminders } }, 200);
  });
