import { count, gt, gte, inArray, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { qualified as q, tableAs } from "../../platform/tenancy";
import { DAY_MS, defineWidget, isoBounds, largestFirst, money, periodOf, series, timeSeries } from "../../platform/widgets";
import { customers, invoiceBalances, invoices, paymentDays, payments } from "./schema";

type MoneyRow = { currency: string; amount: number };
const OUT = ["sent", "partially_paid"] as const;

const dayNumber = (ms: number) => Math.floor(ms / DAY_MS);

export const accountWidgets = [
  defineWidget({
    key: "account.revenue",
    link: (period) => `/app/payments?paid_after=${isoBounds(period).after}&paid_before=${isoBounds(period).before}`,
    comparable: true,
    title: "Revenue",
    description: "Payments received in the period, per currency",
    kind: "stat",
    unit: "money",
    reads: ["payments"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant
          .selectFrom(
            { currency: paymentDays.currency, amount: sql<number>`sum(${paymentDays.amount})` },
            paymentDays,
            gte(paymentDays.day, dayNumber(period.fromMs)),
            lt(paymentDays.day, dayNumber(period.untilMs)),
            gt(paymentDays.payments, 0),
          )
          .groupBy(paymentDays.currency),
      ],
      build: ([rows]) => ({ value: money(rows as MoneyRow[]) }),
    }),
  }),
  defineWidget({
    key: "account.outstanding",
    link: () => "/app/invoices?status=sent,partially_paid",
    title: "Outstanding",
    description: "Amount due on sent and partially paid invoices, now",
    kind: "stat",
    unit: "money",
    reads: ["invoices"],
    query: ({ tenant }) => ({
      statements: [
        tenant
          .selectFrom(
            { currency: invoiceBalances.currency, amount: sql<number>`sum(${invoiceBalances.due})` },
            invoiceBalances,
            inArray(invoiceBalances.status, [...OUT]),
          )
          .groupBy(invoiceBalances.currency)
          .having(sql`sum(${invoiceBalances.invoices}) > 0`),
      ],
      build: ([rows]) => ({ value: money(rows as MoneyRow[]) }),
    }),
  }),
  defineWidget({
    key: "account.overdue_invoices",
    link: () => "/app/invoices?overdue=true",
    title: "Overdue invoices",
    description: "Sent or partially paid invoices past their due date, now",
    kind: "stat",
    unit: "count",
    reads: ["invoices"],
    query: ({ tenant, period }) => ({
      statements: [tenant.selectFrom({ value: count() }, invoices, inArray(invoices.status, [...OUT]), lt(invoices.dueDate, period.today))],
      build: ([rows]) => ({ value: (rows as { value: number }[])[0]?.value ?? 0 }),
    }),
  }),
  defineWidget({
    key: "account.revenue_by_month",
    link: () => "/app/payments",
    title: "Revenue by month",
    description: "Payments received per month over the last 12 months (whatever the period)",
    kind: "series",
    unit: "money",
    reads: ["payments"],
    query: ({ tenant, now }) => {
      const months = periodOf("12mo", now);
      return {
        statements: [
          // The daily rollup, bucketed by month: at most a row per day and currency.
          timeSeries(tenant, months, {
            table: paymentDays,
            time: sql`${q(paymentDays.day)}`,
            unit: DAY_MS,
            select: sql`${q(paymentDays.currency)} AS currency, sum(${q(paymentDays.amount)}) AS amount`,
            groupBy: sql`${q(paymentDays.currency)}`,
            where: sql`${q(paymentDays.payments)} > 0`,
          }),
        ],
        build: ([rows]) =>
          series(
            months,
            (rows as (MoneyRow & { bucket: number })[]).map((row) => ({ bucket: row.bucket, value: money([row]) })),
            () => ({}),
            (a, b) => money([...Object.entries(a), ...Object.entries(b)].map(([currency, amount]) => ({ currency, amount: Number(amount) }))),
          ),
      };
    },
  }),
  defineWidget({
    key: "account.invoices_by_status",
    link: (period) => `/app/invoices?issued_after=${period.from}&issued_before=${period.to}`,
    title: "Invoices by status",
    description: "Invoices issued in the period, by status",
    kind: "breakdown",
    unit: "count",
    reads: ["invoices"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant
          .selectFrom({ label: invoices.status, value: count() }, invoices, gte(invoices.issueDate, period.from), sql`${invoices.issueDate} <= ${period.to}`)
          .groupBy(invoices.status),
      ],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
  defineWidget({
    key: "account.top_customers",
    link: () => "/app/customers",
    title: "Top customers",
    description: "The 5 customers who paid most in the period (ranked by their largest single-currency total)",
    kind: "list",
    unit: "money",
    reads: ["customers", "payments"],
    query: ({ tenant, period }) => {
      const p = alias(payments, "p");
      const i = alias(invoices, "i");
      const c = alias(customers, "c");
      return {
        statements: [
          tenant.rows(sql`
            WITH paid AS (
              SELECT i.customer_id AS customer, p.currency AS currency, sum(p.amount) AS amount
              FROM ${tableAs(p)} JOIN ${tableAs(i)} ON ${tenant.scope(i, sql`i.id = p.invoice_id`)}
              WHERE ${tenant.scope(p, sql`p.paid_at >= ${period.fromMs} AND p.paid_at < ${period.untilMs}`)}
              GROUP BY 1, 2),
            top AS (SELECT customer, max(amount) AS rank FROM paid GROUP BY customer ORDER BY rank DESC, customer LIMIT 5)
            SELECT top.customer AS id, c.name AS label, paid.currency AS currency, paid.amount AS amount, top.rank AS rank
            FROM top JOIN paid ON paid.customer = top.customer JOIN ${tableAs(c)} ON ${tenant.scope(c, sql`c.id = top.customer`)}
            ORDER BY top.rank DESC, top.customer`),
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
