import { gt, gte, inArray, lt, sql } from "drizzle-orm";
import { defineWidget, largestFirst, type Money, money } from "../../platform/widgets";
import { paymentDays } from "../account/schema";
import { expenses } from "./schema";

/** Spent for good: approved, and those already paid back. */
const SPENT = ["approved", "reimbursed"] as const;
type MoneyRow = { currency: string; amount: number };
const dayNumber = (ms: number) => Math.floor(ms / 86_400_000);

export const expenseWidgets = [
  defineWidget({
    key: "expenses.by_category",
    link: () => "/app/expenses?status=approved,reimbursed",
    title: "Expenses by category",
    description: "Approved and reimbursed expenses dated in the period, by category, per currency",
    kind: "breakdown",
    unit: "money",
    reads: ["expenses"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant
          .selectFrom(
            { label: expenses.category, currency: expenses.currency, amount: sql<number>`sum(${expenses.amount})` },
            expenses,
            inArray(expenses.status, [...SPENT]),
            sql`${expenses.date} >= ${period.from} AND ${expenses.date} <= ${period.to}`,
          )
          .groupBy(expenses.category, expenses.currency),
      ],
      build: ([rows]) => {
        const byCategory = new Map<string, MoneyRow[]>();
        for (const row of rows as (MoneyRow & { label: string })[]) byCategory.set(row.label, [...(byCategory.get(row.label) ?? []), row]);
        return { items: largestFirst([...byCategory].map(([label, amounts]) => ({ label, value: money(amounts) }))) };
      },
    }),
  }),
  defineWidget({
    key: "account.profit",
    link: () => "/app/expenses",
    title: "Profit",
    description: "Revenue (payments received in the period) minus approved and reimbursed expenses dated in it, per currency",
    kind: "stat",
    unit: "money",
    reads: ["payments", "expenses"],
    query: ({ tenant, period }) => ({
      statements: [
        // Revenue exactly as account.revenue reads it: the per-day payment rollup.
        tenant
          .selectFrom(
            { currency: paymentDays.currency, amount: sql<number>`sum(${paymentDays.amount})` },
            paymentDays,
            gte(paymentDays.day, dayNumber(period.fromMs)),
            lt(paymentDays.day, dayNumber(period.untilMs)),
            gt(paymentDays.payments, 0),
          )
          .groupBy(paymentDays.currency),
        tenant
          .selectFrom(
            { currency: expenses.currency, amount: sql<number>`sum(${expenses.amount})` },
            expenses,
            inArray(expenses.status, [...SPENT]),
            sql`${expenses.date} >= ${period.from} AND ${expenses.date} <= ${period.to}`,
          )
          .groupBy(expenses.currency),
      ],
      build: ([revenue, spent]) => {
        const profit: Money = { ...money(revenue as MoneyRow[]) };
        for (const row of spent as MoneyRow[]) profit[row.currency] = (profit[row.currency] ?? 0) - Number(row.amount);
        return { value: profit };
      },
    }),
  }),
];
