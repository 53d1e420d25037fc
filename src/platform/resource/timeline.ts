import { z } from "@hono/zod-openapi";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { fields } from "../fields";
import type { PackageRegistry } from "../packages";
import { events } from "../schema";
import type { Tenant } from "../tenancy";
import { isoTimestamp } from "../time";
import type { AnyResource } from "./definition";

export const TIMELINE_LIMIT = 50;

export const TimelineEvent = z
  .object({
    id: z.string().openapi({ example: "evt_3kTZ…" }),
    type: z.string().openapi({ example: "deal.stage_changed" }),
    created_at: fields.timestamp(),
    previous_attributes: z.record(z.string(), z.unknown()).nullable().openapi({ description: "What changed, as it was before" }),
  })
  .openapi("TimelineEvent");

/** The event types that are about a record of this resource: its own rules' and its name's ("invoice.*"). */
export function eventTypesOf(def: AnyResource, registry: PackageRegistry): string[] {
  const prefix = `${def.singular.replaceAll(" ", "_")}.`;
  const declared = Object.keys(registry.events()).filter((type) => type.startsWith(prefix));
  return [...new Set([...(def.events ?? []).map((rule) => rule.type as string), ...declared])];
}

/**
 * A record's timeline: whether it exists (live), and its events newest first, in one D1 round trip. The
 * events are found by the id in their data through events_workspace_subject_idx.
 */
export async function timelineOf(def: AnyResource, tenant: Tenant, id: number, types: string[]) {
  const live = def.softDelete ? isNull(def.softDelete.column) : undefined;
  const record = tenant.selectFrom({ id: def.table.id }, def.table, eq(def.table.id, id), live);
  if (types.length === 0) {
    const [found] = await record;
    return found ? [] : null;
  }
  const [found, rows] = await tenant.batch([
    record,
    tenant
      .select(events, and(sql`json_extract(data, '$.id') = ${id}`, inArray(events.type, types)))
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(TIMELINE_LIMIT),
  ]);
  if (found.length === 0) return null;
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    created_at: isoTimestamp(row.createdAt),
    previous_attributes: row.previousAttributes ? (JSON.parse(row.previousAttributes) as Record<string, unknown>) : null,
  }));
}
