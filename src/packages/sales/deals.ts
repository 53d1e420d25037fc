import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { fields } from "../../platform/fields";
import type { EventDeclaration } from "../../platform/packages";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf, anyText, numberBound } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { customers } from "../account/schema";
import { contacts, DEAL_STAGES, DEAL_STATUSES, deals, OPEN_STAGES } from "./schema";

type Stage = (typeof DEAL_STAGES)[number];
type Status = (typeof DEAL_STATUSES)[number];

const Deal = z
  .object({
    id: z.number().int(),
    name: z.string(),
    value: z.number().int(),
    currency: z.string(),
    stage: z.enum(DEAL_STAGES),
    status: z.enum(DEAL_STATUSES),
    contact_id: z.number().int().nullable(),
    customer_id: z.number().int().nullable(),
    expected_close_date: z.string().nullable(),
    lost_reason: z.string().nullable(),
    closed_at: fields.timestamp().nullable(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Deal");

export const dealEvents = {
  "deal.stage_changed": {
    description: "A deal moved to another stage (closing it won or lost, or reopening it)",
    data: Deal,
    previous: z.object({ stage: z.enum(DEAL_STAGES) }),
  },
} satisfies Record<string, EventDeclaration>;

const writable = {
  name: fields.name(),
  value: fields.amount(),
  currency: fields.currency(),
  stage: z.enum(DEAL_STAGES),
  contact_id: fields.id().nullable(),
  customer_id: fields.id().nullable(),
  expected_close_date: fields.date().nullable(),
  lost_reason: fields.text(500).nullable(),
};
const CreateDeal = z.strictObject(writable).partial().required({ name: true }).openapi("CreateDeal");
const UpdateDeal = z.strictObject(writable).partial().openapi("UpdateDeal");

const statusOf = (stage: Stage): Status => (stage === "won" || stage === "lost" ? stage : "open");

/**
 * Moves between open stages are free; open → won/lost closes the deal; won/lost → an open stage reopens
 * it; won ↔ lost directly is refused (reopen first).
 */
export function allowedStages(from: Stage): Stage[] {
  if (from === "won") return [...OPEN_STAGES];
  if (from === "lost") return [...OPEN_STAGES];
  return DEAL_STAGES.filter((stage) => stage !== from);
}

function toDeal(row: Row<typeof deals>): z.infer<typeof Deal> {
  return {
    id: row.id,
    name: row.name,
    value: row.value,
    currency: row.currency,
    stage: row.stage,
    status: row.status,
    contact_id: row.contactId,
    customer_id: row.customerId,
    expected_close_date: row.expectedCloseDate,
    lost_reason: row.lostReason,
    closed_at: isoTimestamp(row.closedAt),
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

export const dealResource: ResourceDefinition<typeof deals, z.infer<typeof CreateDeal>, z.infer<typeof UpdateDeal>, z.infer<typeof Deal>> = {
  name: "deals",
  singular: "deal",
  tags: ["Deals"],
  description: "Opportunities moving through the pipeline stages to won or lost; a stage change fires deal.stage_changed.",
  table: deals,
  schemas: { output: Deal, create: CreateDeal, update: UpdateDeal },
  ui: {
    title: "name",
    columns: ["name", "stage", "value", "customer_id", "contact_id", "expected_close_date"],
    money: { value: "currency" },
    board: { field: "stage", move: { kind: "update" } },
  },
  toOutput: toDeal,
  toInsert: (input, now) => {
    const stage = input.stage ?? "initial_contact";
    return {
      name: input.name,
      value: input.value ?? 0,
      currency: input.currency ?? "USD",
      stage,
      status: statusOf(stage),
      contactId: input.contact_id ?? null,
      customerId: input.customer_id ?? null,
      expectedCloseDate: input.expected_close_date ?? null,
      lostReason: input.lost_reason ?? null,
      closedAt: statusOf(stage) === "open" ? null : now,
    };
  },
  // A stage change sets status and closed_at; staying in the same stage keeps closed_at as it is.
  toUpdate: ({ contact_id, customer_id, expected_close_date, lost_reason, ...rest }, now) => ({
    ...rest,
    ...(rest.stage !== undefined
      ? {
          status: statusOf(rest.stage),
          closedAt: sql`CASE WHEN ${deals.stage} = ${rest.stage} THEN ${deals.closedAt} ELSE ${statusOf(rest.stage) === "open" ? null : now} END`,
        }
      : {}),
    ...(contact_id !== undefined ? { contactId: contact_id } : {}),
    ...(customer_id !== undefined ? { customerId: customer_id } : {}),
    ...(expected_close_date !== undefined ? { expectedCloseDate: expected_close_date } : {}),
    ...(lost_reason !== undefined ? { lostReason: lost_reason } : {}),
  }),
  transitions: [
    {
      field: "stage",
      column: deals.stage,
      allowed: (from) => allowedStages(from as Stage),
      message: (from, to) => `a ${from} deal cannot move to ${to} directly; reopen it first`,
    },
  ],
  references: [
    { field: "contact_id", table: contacts, what: "contact" },
    { field: "customer_id", table: customers, what: "customer" },
  ],
  events: [{ type: "deal.stage_changed", on: "change", field: "stage", column: deals.stage, previous: true }],
  examples: {
    create: {
      name: "Contoso website relaunch",
      value: 1250000,
      currency: "USD",
      stage: "qualification",
      contact_id: 1,
      customer_id: 1,
      expected_close_date: "2026-12-15",
    },
    update: { stage: "proposal", value: 1400000 },
  },
  sortable: { id: deals.id, value: deals.value, created_at: deals.createdAt },
  filters: {
    stage: anyOf(deals.stage, z.enum(DEAL_STAGES), "Stage (comma list = any of)"),
    status: anyOf(deals.status, z.enum(DEAL_STATUSES), "Status: open, won or lost (comma list = any of)"),
    lost_reason: anyText(deals.lostReason, "Why a lost deal was lost (any case; comma list = any of)"),
    value_min: numberBound(deals.value, "min", "Value at least this (minor units)"),
    value_max: numberBound(deals.value, "max", "Value at most this (minor units)"),
  },
  searchable: [deals.name, deals.lostReason],
  search: { code: 5, label: deals.name, text: [deals.lostReason] },
  summed: { field: "value", what: "deal values", column: deals.value, currency: deals.currency, kind: "deals.value" },
  uniques: [],
};
