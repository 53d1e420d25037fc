import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { access } from "../../platform/auth/permissions";
import { rawBody } from "../../platform/body";
import { configOf } from "../../platform/config";
import { type Env, eventsRecordedFor } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { logWarning } from "../../platform/log";
import { defineRoute, jsonContent } from "../../platform/openapi";
import { openSecret } from "../../platform/secrets";
import { platformOf } from "../../platform/services";
import { placementOf, type Tenant, tenantOn } from "../../platform/tenancy";
import { paymentStatements } from "./payments";
import { invoices, paymentProcessors, payments } from "./schema";

/** The Stripe SDK over fetch, pointed at STRIPE_API_BASE when set (tests run a local stand-in for Stripe's API). */
export function stripeClient(env: Env, secretKey: string): Stripe {
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  const protocol = base?.protocol === "http:" ? "http" : "https";
  return new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(base ? { host: base.hostname, port: Number(base.port || (protocol === "http" ? 80 : 443)), protocol } : {}),
  });
}

/** The workspace's processor keys, opened; null when none is connected. */
export async function processorKeys(env: Env, tenant: Tenant): Promise<{ secretKey: string; webhookSecret: string } | null> {
  const row = await tenant.select(paymentProcessors).get();
  if (!row) return null;
  const keys = configOf(env).sealingKeys;
  return { secretKey: await openSecret(row.secretKey, keys), webhookSecret: await openSecret(row.webhookSecret, keys) };
}

export type CheckoutInvoice = { id: number; number: string; currency: string; amountDue: number; sentTo: string | null; publicUrl: string };

/** A Checkout Session for the invoice's balance due; Stripe's page is where the customer is sent. */
export async function createCheckout(env: Env, secretKey: string, workspaceId: number, invoice: CheckoutInvoice): Promise<string> {
  const metadata = { workspace_id: String(workspaceId), invoice_id: String(invoice.id) };
  const session = await stripeClient(env, secretKey).checkout.sessions.create({
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: { currency: invoice.currency.toLowerCase(), unit_amount: invoice.amountDue, product_data: { name: `Invoice ${invoice.number}` } },
      },
    ],
    client_reference_id: String(invoice.id),
    metadata,
    payment_intent_data: { metadata },
    ...(invoice.sentTo ? { customer_email: invoice.sentTo } : {}),
    success_url: `${invoice.publicUrl}?paid=1`,
    cancel_url: invoice.publicUrl,
  });
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a url");
  return session.url;
}

const MAX_BODY = 256 * 1024;
const WorkspaceParam = z.object({
  workspace_id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .transform(Number)
    .openapi({ param: { name: "workspace_id", in: "path" }, type: "integer", example: 7 }),
});

const Received = z
  .object({ received: z.literal(true), outcome: z.string().openapi({ description: "What was done: recorded, duplicate, ignored: <why>" }) })
  .openapi("StripeEventReceived");

const webhook = defineRoute(access.public, {
  method: "post",
  path: "/payments/stripe/{workspace_id}",
  operationId: "receiveStripeEvent",
  tags: ["Payments"],
  summary: "Stripe's webhook: card payments of invoices",
  description:
    "Register it in Stripe for checkout.session.completed (GET /payments/processor shows the URL). The Stripe-Signature header is verified with the workspace's webhook secret over the raw body (300 s tolerance); a bad or stale signature → 400 and nothing is written. A paid session books one payment (method card, processor stripe, processor_payment_id = the payment intent) and fires payment.received; a redelivered event, another workspace's or an unknown invoice, or an amount or currency that is not the balance due → 200 and nothing written (logged), so Stripe stops retrying.",
  request: { params: WorkspaceParam },
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: { type: "object", description: "A Stripe Event (read raw: the signature covers the exact bytes)" },
        example: {
          id: "evt_1QExample",
          object: "event",
          type: "checkout.session.completed",
          data: {
            object: {
              id: "cs_test_a1Example",
              object: "checkout.session",
              payment_status: "paid",
              amount_total: 168000,
              currency: "usd",
              payment_intent: "pi_3QExample",
              client_reference_id: "1",
              metadata: { workspace_id: "7", invoice_id: "1" },
            },
          },
        },
      },
    },
  },
  responses: { 200: jsonContent(Received, "The event was taken (booked, or deliberately ignored)") },
  errors: ["payload_too_large"],
});

const badSignature = (why: string) => ApiError.validation([{ path: "Stripe-Signature", message: why }]);

type Outcome = "recorded" | "duplicate" | `ignored: ${string}`;

/** A verified checkout.session.completed: the payment, booked once, or why not. */
async function bookSession(tenant: Tenant, session: Stripe.Checkout.Session): Promise<Outcome> {
  if (session.payment_status !== "paid") return `ignored: payment_status is ${session.payment_status}`;
  const namedWorkspace = session.metadata?.workspace_id;
  if (namedWorkspace !== String(tenant.workspaceId)) return "ignored: the session belongs to another workspace";
  const invoiceId = Number(session.metadata?.invoice_id);
  const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
  if (!Number.isInteger(invoiceId) || invoiceId < 1 || !intent) return "ignored: no invoice_id or payment intent";
  const [[invoice], [earlier]] = await tenant.batch([
    tenant.select(invoices, eq(invoices.id, invoiceId)),
    tenant.selectFrom({ id: payments.id }, payments, eq(payments.processor, "stripe"), eq(payments.processorPaymentId, intent)),
  ]);
  if (earlier) return "duplicate";
  if (!invoice) return "ignored: no such invoice in this workspace";
  const due = invoice.total - invoice.amountPaid;
  if (session.currency?.toUpperCase() !== invoice.currency) return `ignored: currency ${session.currency} is not the invoice's ${invoice.currency}`;
  if (session.amount_total !== due) return `ignored: amount ${session.amount_total} is not the balance due ${due}`;
  const now = Date.now();
  const input = { invoice_id: invoiceId, amount: due, method: "card" as const, processor: "stripe", processor_payment_id: intent };
  // The unique (processor, processor_payment_id) makes a concurrent redelivery fail here rather than pay twice.
  const [updated] = await tenant.batch(paymentStatements(tenant, input, now, { exact: true })).catch((error: unknown) => {
    if (String((error as Error)?.cause ?? error).includes("UNIQUE")) return [[]] as const;
    throw error;
  });
  return updated.length > 0 ? "recorded" : "ignored: the invoice is no longer payable for this amount";
}

export const stripeWebhookRoutes = newRouter().openapi(webhook, async (c) => {
  const { workspace_id: workspaceId } = c.req.valid("param");
  const body = new TextDecoder().decode(await rawBody(c, MAX_BODY));
  const signature = c.req.header("stripe-signature");
  if (!signature) throw badSignature("is missing");
  // The URL names the workspace; only its own webhook secret can make the signature check pass.
  const placement = await placementOf(c.env, workspaceId);
  if (!placement) throw badSignature("cannot be verified: no payment processor is connected here");
  const tenant = tenantOn(c.env, platformOf(c).registry, { id: workspaceId, shard: placement.shard });
  const keys = await processorKeys(c.env, tenant);
  if (!keys) throw badSignature("cannot be verified: no payment processor is connected here");
  let event: Stripe.Event;
  try {
    event = await stripeClient(c.env, keys.secretKey).webhooks.constructEventAsync(
      body,
      signature,
      keys.webhookSecret,
      300,
      Stripe.createSubtleCryptoProvider(),
    );
  } catch {
    throw badSignature("does not match the body and the webhook secret, or is older than 300 s");
  }
  if (placement.held) throw new ApiError("service_unavailable", "This workspace is being moved; Stripe will retry");
  let outcome: Outcome = `ignored: ${event.type} is not handled`;
  if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
    outcome = await bookSession(tenant, event.data.object);
  }
  if (outcome.startsWith("ignored")) logWarning("stripe event ignored", { workspace_id: workspaceId, event_id: event.id, outcome });
  if (outcome === "recorded") eventsRecordedFor(c, { id: workspaceId, shard: placement.shard });
  return c.json({ received: true as const, outcome }, 200);
});
