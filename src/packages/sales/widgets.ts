import { count, eq, gte, lt, sql } from "drizzle-orm";
import { qualified as q, type Tenant } from "../../platform/tenancy";
import { defineWidget, isoBounds, largestFirst, money, type Period, percent, series, shared, timeSeries } from "../../platform/widgets";
import { contacts, deals, leads } from "./schema";

type MoneyRow = { currency: string; amount: number };

type ClosedRow = MoneyRow & { status: string; deals: number };

/** Deals closed in the period by status and currency: the won value and the win rate read the same rows. */
const closedInPeriod = (tenant: Tenant, period: Period) =>
  shared(
    `sales.closed:${period.name}`,
    tenant
      .selectFrom(
        { status: deals.status, currency: deals.currency, amount: sql<number>`sum(${deals.value})`, deals: count() },
        deals,
        gte(deals.closedAt, period.fromMs),
        lt(deals.closedAt, period.untilMs),
      )
      .groupBy(deals.status, deals.currency),
  );

export const salesWidgets = [
  defineWidget({
    key: "sales.pipeline_by_stage",
    link: () => "/app/deals?view=board&status=open",
    title: "Pipeline by stage",
    description: "Value of open deals by stage, now",
    kind: "breakdown",
    unit: "money",
    reads: ["deals"],
    query: ({ tenant }) => ({
      statements: [
        tenant
          .selectFrom({ label: deals.stage, currency: deals.currency, amount: sql<number>`sum(${deals.value})` }, deals, eq(deals.status, "open"))
          .groupBy(deals.stage, deals.currency),
      ],
      build: ([rows]) => {
        const byStage = new Map<string, MoneyRow[]>();
        for (const row of rows as (MoneyRow & { label: string })[]) byStage.set(row.label, [...(byStage.get(row.label) ?? []), row]);
        return { items: largestFirst([...byStage].map(([label, amounts]) => ({ label, value: money(amounts) }))) };
      },
    }),
  }),
  defineWidget({
    key: "sales.won_value",
    link: () => "/app/deals?status=won",
    comparable: true,
    title: "Won",
    description: "Value of deals won (closed_at) in the period",
    kind: "stat",
    unit: "money",
    reads: ["deals"],
    query: ({ tenant, period }) => ({
      statements: [closedInPeriod(tenant, period)],
      build: ([rows]) => ({ value: money((rows as ClosedRow[]).filter((row) => row.status === "won")) }),
    }),
  }),
  defineWidget({
    key: "sales.win_rate",
    link: () => "/app/deals?status=won,lost",
    comparable: true,
    title: "Win rate",
    description: "Won ÷ (won + lost) among deals closed in the period",
    kind: "stat",
    unit: "percent",
    reads: ["deals"],
    query: ({ tenant, period }) => ({
      statements: [closedInPeriod(tenant, period)],
      build: ([rows]) => {
        const closed = rows as ClosedRow[];
        const count = (status?: string) => closed.filter((row) => !status || row.status === status).reduce((sum, row) => sum + row.deals, 0);
        return { value: percent(count("won"), count()) };
      },
    }),
  }),
  defineWidget({
    key: "sales.leads_by_source",
    link: (period) => `/app/leads?created_after=${isoBounds(period).after}&created_before=${isoBounds(period).before}`,
    title: "Leads by source",
    description: "Leads created in the period, by source",
    kind: "breakdown",
    unit: "count",
    reads: ["leads"],
    query: ({ tenant, period }) => ({
      statements: [
        tenant
          .selectFrom(
            { label: sql<string>`coalesce(${leads.source}, 'unknown')`, value: count() },
            leads,
            gte(leads.createdAt, period.fromMs),
            lt(leads.createdAt, period.untilMs),
          )
          .groupBy(sql`1`),
      ],
      build: ([rows]) => ({ items: largestFirst(rows as { label: string; value: number }[]) }),
    }),
  }),
  defineWidget({
    key: "sales.new_contacts",
    link: (period) => `/app/contacts?created_after=${isoBounds(period).after}&created_before=${isoBounds(period).before}`,
    title: "New contacts",
    description: "Contacts created per day (per week for 90d, per month for 12mo and ytd)",
    kind: "series",
    unit: "count",
    reads: ["contacts"],
    query: ({ tenant, period }) => ({
      statements: [timeSeries(tenant, period, { table: contacts, time: sql`${q(contacts.createdAt)}`, select: sql`count(*) AS value` })],
      build: ([rows]) =>
        series(
          period,
          rows as { bucket: number; value: number }[],
          () => 0,
          (a, b) => a + b,
        ),
    }),
  }),
];
