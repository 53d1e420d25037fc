import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import { minorDigits } from "../../platform/format";
import { MAX_EVENT_REVENUE } from "./message";

/**
 * Forgiving collection: what a web page sends is normalised rather than refused, because a refused event
 * is a visitor lost for good (the tracker cannot retry). Only an unknown site, a foreign host or a body that
 * cannot be read is refused. Plausible and Umami behave the same way.
 */

const MAX_PROPS = 30;
const MAX_PROP_VALUE = 200;

/** "Add To Cart " → "add_to_cart": trimmed, lower case, spaces to `_`, other characters dropped, ≤ 64. */
export function normalizeEventName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "_")
    .replace(/[^a-z0-9_.:-]/g, "")
    .slice(0, 64);
}

export const eventName = z
  .string()
  .max(1000)
  .transform(normalizeEventName)
  .refine((name) => name.length > 0, "must contain a letter or digit")
  .openapi({
    description: "pageview, or an event name: trimmed, lower-cased, spaces → _, other characters than a-z 0-9 _ . : - dropped, cut to 64",
    example: "add_to_cart",
  });

export const absoluteUrl = z
  .string()
  .max(16_384, "must be at most 16384 characters")
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL")
  .openapi({ example: "https://shop.example.com/products/42?utm_source=newsletter" });

/** Up to 30 properties (the first 30 kept); values cut to 200 characters; booleans as text; anything else dropped. */
export const props = z
  .record(z.string(), z.unknown())
  .transform((input) => {
    const out: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(input)) {
      if (Object.keys(out).length >= MAX_PROPS) break;
      const name = key.trim().slice(0, 64);
      if (!name) continue;
      if (typeof value === "string") out[name] = value.slice(0, MAX_PROP_VALUE);
      else if (typeof value === "number" && Number.isFinite(value)) out[name] = value;
      else if (typeof value === "boolean") out[name] = String(value);
    }
    return out;
  })
  .openapi({ description: "Up to 30 properties (more are dropped): string values cut to 200 characters, or numbers", example: { plan: "pro" } });

/**
 * Revenue in minor units. An integer number is minor units already (4999 = 49.99 EUR); a decimal string or a
 * non-integer number is major units ("49.99" EUR → 4999, "5" JPY → 5), by the currency's minor-unit digits.
 */
export const revenue = z
  .object({
    amount: z.union([
      z.number().finite(),
      z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/, "must be a number such as 49.99"),
    ]),
    currency: fields.currency(),
  })
  .transform((input, context) => {
    const amount =
      typeof input.amount === "number" && Number.isInteger(input.amount) ? input.amount : Math.round(Number(input.amount) * 10 ** minorDigits(input.currency));
    if (amount < 0 || amount > MAX_EVENT_REVENUE) {
      context.addIssue({ code: "custom", path: ["amount"], message: `must be from 0 to ${MAX_EVENT_REVENUE} minor units` });
      return z.NEVER;
    }
    return { amount, currency: input.currency };
  })
  .openapi({
    description: 'amount: an integer in minor units (4999), or major units as a decimal string or number ("49.99"); currency: ISO 4217',
    example: { amount: "49.99", currency: "EUR" },
  });

/** The tracker's page-load id and the event's place in it: steps fired in one click keep their order. */
export const ordering = {
  load: z
    .string()
    .max(1000)
    .optional()
    .transform((value) => (value !== undefined && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined))
    .openapi({ description: "The page-load id (random, one per page load; 1–64 of A-Z a-z 0-9 _ -, else ignored)", example: "k3J9xQ2mPz" }),
  seq: z
    .number()
    .optional()
    .transform((value) => (value !== undefined && Number.isInteger(value) && value >= 0 && value <= 1_000_000 ? value : undefined))
    .openapi({ description: "0, 1, 2, … within the page load, in the order the page fired the events (else ignored)", example: 2 }),
};
