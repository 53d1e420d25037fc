import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { fields } from "../../platform/fields";
import type { ResourceDefinition, Row } from "../../platform/resource/definition";
import { anyOf } from "../../platform/resource/filters";
import { checkReferences } from "../../platform/resource/references";
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
  table: deals,
  schemas: { output: Deal, create: CreateDeal, update: UpdateDeal },
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
  beforeUpdate(input, existing) {
    if (input.stage === undefined || input.stage === existing.stage) return;
    const allowed = allowedStages(existing.stage);
    if (!allowed.includes(input.stage)) {
      throw new ApiError("invalid_transition", `stage: a ${existing.stage} deal cannot move to ${input.stage} directly; reopen it first`, {
        details: { from: existing.stage, to: input.stage, allowed },
      });
    }
  },
  toUpdate: ({ contact_id, customer_id, expected_close_date, lost_reason, ...rest }, existing, now) => {
    const stageChange =
      rest.stage !== undefined && existing && rest.stage !== existing.stage
        ? { status: statusOf(rest.stage), closedAt: statusOf(rest.stage) === "open" ? null : now }
        : {};
    return {
      ...rest,
      ...stageChange,
      ...(contact_id !== undefined ? { contactId: contact_id } : {}),
      ...(customer_id !== undefined ? { customerId: customer_id } : {}),
      ...(expected_close_date !== undefined ? { expectedCloseDate: expected_close_date } : {}),
      ...(lost_reason !== undefined ? { lostReason: lost_reason } : {}),
    };
  },
  check: (tenant, input) =>
    checkReferences(tenant, [
      { field: "contact_id", id: input.contact_id, table: contacts, what: "contact" },
      { field: "customer_id", id: input.customer_id, table: customers, what: "customer" },
    ]),
  events: ({ before, after }) =>
    before !== null && before.stage !== after.stage
      ? [{ type: "deal.stage_changed", data: toDeal(after), previousAttributes: { stage: before.stage } }]
      : [],
  guardColumn: deals.stage,
  sortable: { id: deals.id, value: deals.value, created_at: deals.createdAt },
  filters: {
    stage: anyOf(deals.stage, z.enum(DEAL_STAGES), "Stage (comma list = any of)"),
    status: anyOf(deals.status, z.enum(DEAL_STATUSES), "Status: open, won or lost (comma list = any of)"),
  },
  searchable: [deals.name, deals.lostReason],
  uniques: [],
};
