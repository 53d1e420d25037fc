import { ApiError, type ErrorDetail } from "../../platform/errors";
import { MAX_MINOR_UNITS } from "../../platform/fields";
import type { StoredLine } from "./schema";

export type LineInput = { product_id?: number; description: string; quantity: number; unit_amount: number; tax_rate?: number };

const LIMIT = BigInt(MAX_MINOR_UNITS);
const QUANTITY_SCALE = 10_000n; // quantities carry up to 4 decimals
const RATE_SCALE = 1_000_000n; // tax rates are percentages with up to 4 decimals

/** round(numerator / denominator), half away from zero, for non-negative integers. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/**
 * Invoice amounts in integer minor units. Each line is rounded on its own (half away from zero):
 * amount = round(quantity × unit_amount), tax_amount = round(amount × tax_rate / 100);
 * subtotal and tax_total are the sums of the rounded lines, total = subtotal + tax_total.
 * BigInt keeps the products exact; quantities and rates are scaled integers, never floats. Every
 * amount, each line and each total, must be an exact integer ≤ 2^53 − 1 minor units, or the invoice
 * is refused (400) rather than rounded.
 */
export function computeInvoice(items: LineInput[]): { lines: StoredLine[]; subtotal: number; taxTotal: number; total: number } {
  let subtotal = 0n;
  let taxTotal = 0n;
  const problems: ErrorDetail[] = [];
  const lines = items.map((item, index) => {
    const quantity = BigInt(Math.round(item.quantity * Number(QUANTITY_SCALE)));
    const rate = BigInt(Math.round((item.tax_rate ?? 0) * 10_000));
    const amount = divideRounded(quantity * BigInt(item.unit_amount), QUANTITY_SCALE);
    const tax = divideRounded(amount * rate, RATE_SCALE);
    if (amount + tax > LIMIT)
      problems.push({ path: `items.${index}`, message: `quantity × unit_amount plus tax must not exceed ${MAX_MINOR_UNITS} minor units` });
    subtotal += amount;
    taxTotal += tax;
    return {
      ...(item.product_id !== undefined ? { product_id: item.product_id } : {}),
      description: item.description,
      quantity: item.quantity,
      unit_amount: item.unit_amount,
      tax_rate: item.tax_rate ?? 0,
      amount: Number(amount),
      tax_amount: Number(tax),
    };
  });
  if (problems.length === 0 && subtotal + taxTotal > LIMIT)
    problems.push({ path: "items", message: `the invoice total must not exceed ${MAX_MINOR_UNITS} minor units` });
  if (problems.length > 0) throw ApiError.validation(problems);
  return { lines, subtotal: Number(subtotal), taxTotal: Number(taxTotal), total: Number(subtotal + taxTotal) };
}
