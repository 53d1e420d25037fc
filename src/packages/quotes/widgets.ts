import { count, sql } from "drizzle-orm";
import { defineWidget, largestFirst, money } from "../../platform/widgets";
import { quotes } from "./schema";

export const quoteWidgets = [
  defineWidget({
    key: "quotes.open_value",
    link: () => "/app/quotes?status=sent",
    title: "Open quotes",
    description: "Total of sent quotes awaiting the customer's answer, now",
    kind: "stat",
    unit: "money",
    reads: ["quotes"],
    query: ({ tenant }) => ({
      statements: [
        tenant
          .selectFrom({ currency: quotes.currency, amount: sql<number>`sum(${quotes.total})` }, quotes, sql`${quotes.status} = 'sent'`)
          .groupBy(quotes.currency),
      ],
      build: ([rows]) => ({ value: money(rows as { currency: string; amount: number }[]) }),
    }),
  }),
  defineWidget({
    key: "quotes.by_status",
    link: () => "/app/quotes",
    title: "Quotes by status",
    description: "Quotes issued in the period, by status",
    kind: "breakdown",
    unit: "count",
    reads: ["quotes"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant
          .selectFrom({ label: quotes.status, value: count() }, quotes, sql`${quotes.issueDate} >= ${period.from} AND ${quotes.issueDate} <= ${period.to}`)
          .groupBy(quotes.status),
      ],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
];
