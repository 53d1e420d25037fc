import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { tableAs } from "../../platform/tenancy";
import { defineWidget } from "../../platform/widgets";
import { invoices } from "../account/schema";
import { products } from "./schema";

/** Invoices that count as sold: sent, partly paid or paid (not drafts, not void). */
const SOLD = sql.raw(`('sent', 'partially_paid', 'paid')`);

export const productWidgets = [
  defineWidget({
    key: "products.top_by_revenue",
    link: () => "/app/products",
    title: "Top products",
    description: "The 5 products invoiced most in the period (line amounts before tax, on invoices issued in it that were sent)",
    kind: "list",
    unit: "money",
    reads: ["products", "invoices"],
    query: ({ tenant, period }) => {
      const i = alias(invoices, "i");
      const p = alias(products, "p");
      return {
        statements: [
          tenant.rows(sql`
            WITH sold AS (
              SELECT json_extract(l.value, '$.product_id') AS product, i.currency AS currency, sum(json_extract(l.value, '$.amount')) AS amount
              FROM ${tableAs(i)}, json_each(i.items) AS l
              WHERE ${tenant.scope(i, sql`i.issue_date >= ${period.from} AND i.issue_date <= ${period.to} AND i.status IN ${SOLD}`)}
                AND json_extract(l.value, '$.product_id') IS NOT NULL
              GROUP BY 1, 2),
            top AS (SELECT product, max(amount) AS rank FROM sold GROUP BY product ORDER BY rank DESC, product LIMIT 5)
            SELECT top.product AS id, p.name AS label, sold.currency AS currency, sold.amount AS amount
            FROM top JOIN sold ON sold.product = top.product JOIN ${tableAs(p)} ON ${tenant.scope(p, sql`p.id = top.product`)}
            ORDER BY top.rank DESC, top.product`),
        ],
        build: ([rows]) => {
          const items: { id: number; label: string; value: Record<string, number> }[] = [];
          for (const row of rows as { id: number; label: string; currency: string; amount: number }[]) {
            let item = items.find((candidate) => candidate.id === row.id);
            if (!item) {
              item = { id: row.id, label: row.label, value: {} };
              items.push(item);
            }
            item.value[row.currency] = Number(row.amount);
          }
          return { items };
        },
      };
    },
  }),
];
