import { z } from "@hono/zod-openapi";

/** The largest money amount, in minor units: 2^53 − 1, the largest integer JSON clients read exactly. */
export const MAX_MINOR_UNITS = Number.MAX_SAFE_INTEGER;

/** ISO 4217 codes in circulation, as the runtime's Intl data lists them (about 300: a constant). */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

export function isCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}

/** Field validators shared by every resource, so one rule has one wording. */
export const fields = {
  name: () => z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  email: () =>
    z
      .string()
      .trim()
      .max(254, "must be at most 254 characters")
      .pipe(z.email("must be a valid e-mail address"))
      .transform((email) => email.toLowerCase())
      .openapi({ format: "email", example: "ada@example.com" }),
  password: () => z.string().min(10, "must be at least 10 characters").max(1024, "must be at most 1024 characters"),
  text: (max: number) => z.string().trim().max(max, `must be at most ${max} characters`),
  phone: () => z.string().regex(/^\+[1-9]\d{1,14}$/, "must be an E.164 number such as +14155550123"),
  /** An ISO 4217 code the runtime knows (Intl); accepted in any case, stored upper case. */
  currency: () =>
    z
      .string()
      .regex(/^[A-Za-z]{3}$/, "must be an ISO 4217 currency code such as USD")
      .transform((code) => code.toUpperCase())
      .refine((code) => isCurrency(code), "must be an ISO 4217 currency code such as USD")
      .openapi({ example: "USD", pattern: "^[A-Za-z]{3}$" }),
  /** ISO 3166-1 alpha-2; accepted in any case, stored upper case. */
  country: () =>
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 country code such as US")
      .transform((code) => code.toUpperCase())
      .openapi({ example: "US" }),
  date: () => z.iso.date("must be a date YYYY-MM-DD").openapi({ example: "2026-11-21" }),
  /** Money in the currency's minor units (12550 = 125.50 USD): an integer, never a float. */
  amount: () =>
    z
      .number()
      .int("must be an integer number of minor units (cents)")
      .min(0, "must not be negative")
      .max(MAX_MINOR_UNITS, `must not exceed ${MAX_MINOR_UNITS} minor units`)
      .openapi({ example: 12550 }),
  timestamp: () => z.string().openapi({ format: "date-time", example: "2026-11-21T10:15:53.150Z" }),
  /** A reference to another row by id. */
  id: () => z.number().int("must be an integer id").positive("must be a positive id"),
};
