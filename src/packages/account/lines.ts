import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import { computeInvoice } from "./money";

const decimals = (places: number) => (value: number) => Math.abs(Math.round(value * 10 ** places) - value * 10 ** places) < 1e-6;

/**
 * A line of an invoice or a quote as written. It may name a catalogue product (`product_id`, the products
 * package): the product's name, price and tax rate fill whatever the line leaves out. Without one, the
 * description and unit amount are required.
 */
export const LineInput = z
  .strictObject({
    product_id: fields
      .id()
      .optional()
      .openapi({ description: "A product of the catalogue (products package): fills description, unit_amount and tax_rate unless given" }),
    description: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters").optional(),
    quantity: z.number().gt(0, "must be greater than 0").max(1_000_000, "is too large").refine(decimals(4), "may have at most 4 decimals"),
    unit_amount: fields.amount().optional(),
    tax_rate: z
      .number()
      .min(0, "must be between 0 and 100")
      .max(100, "must be between 0 and 100")
      .refine(decimals(4), "may have at most 4 decimals")
      .optional(),
  })
  .superRefine((line, context) => {
    if (line.product_id !== undefined) return;
    if (line.description === undefined) context.addIssue({ code: "custom", path: ["description"], message: "is required (or name a product_id)" });
    if (line.unit_amount === undefined) context.addIssue({ code: "custom", path: ["unit_amount"], message: "is required (or name a product_id)" });
  });
export type LineInput = z.infer<typeof LineInput>;

export const LineItems = z.array(LineInput).min(1, "must have at least one line").max(100, "must have at most 100 lines");

/** Whether a body names catalogue products (then the products package must be on). */
export function namesProducts(input: Record<string, unknown>): boolean {
  return Array.isArray(input.items) && input.items.some((line) => typeof line === "object" && line !== null && "product_id" in line);
}

/** The stored lines and totals of lines whose products (if any) were resolved before the write. */
export function totalsOf(items: LineInput[]) {
  const unresolved = items.flatMap((line, index) => (line.description === undefined || line.unit_amount === undefined ? [index] : []));
  if (unresolved.length > 0)
    throw ApiError.validation(unresolved.map((index) => ({ path: `items.${index}.product_id`, message: "names a product the catalogue could not resolve" })));
  const computed = computeInvoice(items as Parameters<typeof computeInvoice>[0]);
  return { items: computed.lines, subtotal: computed.subtotal, taxTotal: computed.taxTotal, total: computed.total };
}
