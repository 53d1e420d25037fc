import { z } from "@hono/zod-openapi";
import { fields } from "../../platform/fields";
import type { ResourceDefinition } from "../../platform/resource/definition";
import { dateBound } from "../../platform/resource/filters";
import { isoTimestamp } from "../../platform/time";
import { holidays } from "./schema";

const Holiday = z
  .object({
    id: z.number().int(),
    date: z.string().openapi({ example: "2026-12-25" }),
    name: z.string(),
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("Holiday");

const writable = { date: fields.date(), name: fields.name() };
const CreateHoliday = z.strictObject(writable).openapi("CreateHoliday");
const UpdateHoliday = z.strictObject(writable).partial().openapi("UpdateHoliday");

export const holidayResource: ResourceDefinition<typeof holidays, z.infer<typeof CreateHoliday>, z.infer<typeof UpdateHoliday>, z.infer<typeof Holiday>> = {
  name: "holidays",
  singular: "holiday",
  tags: ["Holidays"],
  description: "Public holidays of the workspace: not working days, so never counted as leave (one per date).",
  table: holidays,
  schemas: { output: Holiday, create: CreateHoliday, update: UpdateHoliday },
  ui: { title: "name", columns: ["date", "name"] },
  toOutput: (row) => ({
    id: row.id,
    date: row.date,
    name: row.name,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  }),
  toInsert: (input) => ({ date: input.date, name: input.name }),
  toUpdate: (input) => input,
  notes: {
    create:
      "A second holiday on the same date → 409 conflict. Leave requests count their days when they are written: a holiday added later does not change requests already made.",
  },
  examples: {
    create: { date: "2026-12-25", name: "Christmas Day" },
    update: { name: "Christmas" },
  },
  sortable: { id: holidays.id, date: holidays.date, created_at: holidays.createdAt },
  filters: {
    date_from: dateBound(holidays.date, "after", "On or after this date (YYYY-MM-DD)"),
    date_to: dateBound(holidays.date, "before", "On or before this date (YYYY-MM-DD)"),
  },
  searchable: [holidays.name],
  uniques: [{ constraint: "holidays.workspace_id, holidays.date", field: "date" }],
};
