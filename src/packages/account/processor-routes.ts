import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { configOf } from "../../platform/config";
import { apiBaseUrl } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { sealSecret } from "../../platform/secrets";
import { tenantOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { paymentProcessors } from "./schema";

const tags = ["Payments"];

const Processor = z
  .object({
    provider: z.enum(["stripe"]).nullable().openapi({ description: "null: no processor connected (the public page shows no Pay button)" }),
    connected: z.boolean(),
    webhook_url: z.string().openapi({ description: "Register this URL in Stripe (Developers → Webhooks) for checkout.session.completed" }),
    updated_at: z.string().nullable(),
  })
  .openapi("PaymentProcessor");

const SetProcessor = z
  .strictObject({
    provider: z.literal("stripe"),
    secret_key: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,247}$/, "must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)"),
    webhook_secret: z.string().regex(/^whsec_[A-Za-z0-9+/=]{8,248}$/, "must be the endpoint's signing secret (whsec_…)"),
  })
  .openapi("SetPaymentProcessor");

const example = { provider: "stripe" as const, secret_key: "sk_test_51Hx8kLExampleKey000000", webhook_secret: "whsec_ExampleSigningSecret0000" };

const getProcessor = defineRoute(access.admin, {
  method: "get",
  path: "/payments/processor",
  operationId: "getPaymentProcessor",
  tags,
  summary: "Whether a card processor is connected (never its keys)",
  description: "Admins and owners. The keys are sealed when set and never shown again; webhook_url is where Stripe must send its events.",
  responses: { 200: jsonContent(envelope(Processor), "The processor") },
});

const putProcessor = defineRoute(access.admin, {
  method: "put",
  path: "/payments/processor",
  operationId: "setPaymentProcessor",
  tags,
  summary: "Connect Stripe: its secret key and its webhook's signing secret",
  description:
    "Admins and owners. Both keys are encrypted at rest and never returned. Once set, every sent invoice's public page shows Pay (a Stripe Checkout Session for the balance due), and POST /payments/stripe/{workspace_id} books the payments Stripe reports.",
  request: { body: jsonBodyOf(SetProcessor, example) },
  responses: { 200: jsonContent(envelope(Processor), "The processor") },
});

const deleteProcessor = defineRoute(access.admin, {
  method: "delete",
  path: "/payments/processor",
  operationId: "deletePaymentProcessor",
  tags,
  summary: "Disconnect the card processor",
  description: "Admins and owners. Public pages stop offering Pay and Stripe's events are refused from then on.",
  responses: { 200: jsonContent(envelope(Processor), "No processor") },
});

export const paymentProcessorRoutes = newRouter()
  .openapi(getProcessor, async (c) => {
    const row = await tenantOf(c).selectFrom({ provider: paymentProcessors.provider, updatedAt: paymentProcessors.updatedAt }, paymentProcessors).get();
    return c.json({ success: true as const, data: processorOf(c, row) }, 200);
  })
  .openapi(putProcessor, async (c) => {
    const input = c.req.valid("json");
    const keys = configOf(c.env).sealingKeys;
    const tenant = tenantOf(c);
    const now = Date.now();
    const [secretKey, webhookSecret] = await Promise.all([sealSecret(input.secret_key, keys), sealSecret(input.webhook_secret, keys)]);
    await tenant
      .insert(paymentProcessors, { provider: input.provider, secretKey, webhookSecret, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: paymentProcessors.workspaceId,
        set: { provider: input.provider, secretKey, webhookSecret, updatedAt: sql`${now}` },
      })
      .run();
    return c.json({ success: true as const, data: processorOf(c, { provider: input.provider, updatedAt: now }) }, 200);
  })
  .openapi(deleteProcessor, async (c) => {
    await tenantOf(c).delete(paymentProcessors).run();
    return c.json({ success: true as const, data: processorOf(c, undefined) }, 200);
  });

function processorOf(c: Parameters<typeof apiBaseUrl>[0], row: { provider: "stripe"; updatedAt: number } | undefined): z.infer<typeof Processor> {
  return {
    provider: row?.provider ?? null,
    connected: row !== undefined,
    webhook_url: `${apiBaseUrl(c)}/payments/stripe/${tenantOf(c).workspaceId}`,
    updated_at: isoTimestamp(row?.updatedAt ?? null),
  };
}
