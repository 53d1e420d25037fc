import { sql } from "drizzle-orm";
import { ApiError, type ErrorDetail } from "../../platform/errors";
import type { ResourceExtension } from "../../platform/packages";
import type { Tenant } from "../../platform/tenancy";
import { type LineInput, namesProducts } from "../account/lines";
import { products } from "./schema";

/**
 * Lines that name a product (`product_id`) get the product's name, unit price and tax rate wherever they
 * leave them out, read in one statement before the write. A product of another workspace reads as
 * missing; an inactive one is refused; prices copied from products of another currency than the
 * document's are refused (a line giving its own unit_amount may name any product). A body without a
 * currency takes the one the copied prices are in.
 */
async function resolveProductLines(input: Record<string, unknown>, tenant: Tenant): Promise<Record<string, unknown>> {
  if (!namesProducts(input)) return input;
  const items = input.items as LineInput[];
  const ids = [...new Set(items.flatMap((line) => (line.product_id === undefined ? [] : [line.product_id])))];
  // One bound value whatever the number of lines (D1 binds at most 100 per statement).
  const found = await tenant
    .selectFrom(
      {
        id: products.id,
        name: products.name,
        unitAmount: products.unitAmount,
        currency: products.currency,
        taxRate: products.taxRate,
        active: products.active,
      },
      products,
      sql`${products.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
    )
    .all();
  const byId = new Map(found.map((product) => [product.id, product]));
  const problems: ErrorDetail[] = [];
  const priced = new Set<string>();
  const resolved = items.map((line, index) => {
    if (line.product_id === undefined) return line;
    const product = byId.get(line.product_id);
    const path = `items.${index}.product_id`;
    if (!product) {
      problems.push({ path, message: `no product ${line.product_id} in this workspace` });
      return line;
    }
    if (!product.active) {
      problems.push({ path, message: `product ${line.product_id} (${product.name}) is inactive and cannot go on new lines` });
      return line;
    }
    if (line.unit_amount === undefined) priced.add(product.currency);
    return {
      ...line,
      description: line.description ?? product.name,
      unit_amount: line.unit_amount ?? product.unitAmount,
      tax_rate: line.tax_rate ?? product.taxRate,
    };
  });
  const currency = typeof input.currency === "string" ? input.currency : priced.size === 1 ? [...priced][0] : undefined;
  if (priced.size > 1 || (currency !== undefined && priced.size === 1 && !priced.has(currency))) {
    items.forEach((line, index) => {
      const product = line.product_id === undefined ? undefined : byId.get(line.product_id);
      if (product && line.unit_amount === undefined && product.currency !== currency)
        problems.push({
          path: `items.${index}.unit_amount`,
          message: `is required: product ${product.id} is priced in ${product.currency}, not ${currency ?? "one currency with the other lines"}`,
        });
    });
  }
  if (problems.length > 0) throw ApiError.validation(problems);
  return { ...input, ...(currency !== undefined ? { currency } : {}), items: resolved };
}

/** Invoice lines and quote lines (when the quotes package is on) may name catalogue products. */
export const productLineExtensions: ResourceExtension[] = ["invoices", "quotes"].map((resource) => ({
  resource,
  uses: namesProducts,
  prepare: resolveProductLines,
}));
