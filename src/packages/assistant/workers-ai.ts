import { z } from "@hono/zod-openapi";
import { PERIODS } from "../../platform/widgets";
import type { Catalog, Plan } from "./understand";

/**
 * Optional: a Workers AI model (binding `AI`, variable `ASSISTANT_MODEL`, e.g.
 * "@hf/nousresearch/hermes-2-pro-mistral-7b") maps a message onto the same tools by function calling.
 * Workers AI runs inside Cloudflare; it cannot run offline, so without both settings — and in every test
 * but the adapter's own, which uses a stand-in binding — the built-in engine answers. The model's call is
 * validated by the schemas below; anything else falls back to the built-in engine.
 */
export type AiBinding = { run(model: string, input: Record<string, unknown>): Promise<unknown> };

const date = z.iso.date();
const MetricCall = z.strictObject({ widget: z.string(), period: z.enum(PERIODS).optional(), from: date.optional(), to: date.optional() });
const ListCall = z.strictObject({ resource: z.string(), filters: z.record(z.string(), z.string()).default({}), count_only: z.boolean().optional() });
const LookupCall = z.strictObject({
  resource: z.string().optional(),
  name: z.string().max(200).optional(),
  reference: z.string().max(50).optional(),
  field: z.string().optional(),
});
const ActionCall = z.strictObject({
  action: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
  names: z.record(z.string(), z.string()).default({}),
});
const ToolCall = z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) });

function tools({ metrics, resources, actions }: Catalog) {
  return [
    {
      name: "get_metric",
      description: "A dashboard number or chart: revenue, outstanding, win rate, headcount, visitors…",
      parameters: {
        type: "object",
        properties: {
          widget: { type: "string", enum: metrics.map((entry) => entry.skill.widget) },
          period: { type: "string", enum: [...PERIODS] },
          from: { type: "string", description: "YYYY-MM-DD" },
          to: { type: "string", description: "YYYY-MM-DD" },
        },
        required: ["widget"],
      },
    },
    {
      name: "list_records",
      description: "Records of a resource with the API's list filters (query parameters), or only their number",
      parameters: {
        type: "object",
        properties: {
          resource: { type: "string", enum: resources.map((entry) => entry.skill.resource) },
          filters: { type: "object" },
          count_only: { type: "boolean" },
        },
        required: ["resource"],
      },
    },
    {
      name: "lookup_record",
      description: "One record by name or reference (INV-000012, task 7), optionally one of its fields",
      parameters: {
        type: "object",
        properties: { resource: { type: "string" }, name: { type: "string" }, reference: { type: "string" }, field: { type: "string" } },
      },
    },
    {
      name: "propose_action",
      description: "Prepare a change for the user to confirm",
      parameters: {
        type: "object",
        properties: {
          action: { type: "string", enum: actions.map((entry) => entry.skill.name) },
          values: { type: "object" },
          names: { type: "object", description: "Record slots by name, e.g. {project_id: 'Website'}" },
        },
        required: ["action"],
      },
    },
  ];
}

/** The model's plan for a message, or null (no call, an unknown tool, arguments that fail the schemas). */
export async function planWithModel(ai: AiBinding, model: string, catalog: Catalog, message: string, today: string): Promise<Plan | null> {
  const output = (await ai.run(model, {
    messages: [
      { role: "system", content: `You answer questions about a business workspace by calling exactly one tool. Today is ${today} (UTC).` },
      { role: "user", content: message },
    ],
    tools: tools(catalog),
  })) as { tool_calls?: unknown[] };
  const parsed = ToolCall.safeParse(output?.tool_calls?.[0]);
  if (!parsed.success) return null;
  let args: unknown = parsed.data.arguments;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return null;
    }
  }
  const { metrics, resources, actions } = catalog;
  switch (parsed.data.name) {
    case "get_metric": {
      const call = MetricCall.safeParse(args);
      const metric = call.success ? metrics.find((entry) => entry.skill.widget === call.data.widget) : undefined;
      if (!call.success || !metric) return null;
      const period =
        call.data.from && call.data.to ? { from: call.data.from, to: call.data.to } : { period: call.data.period ?? metric.skill.defaultPeriod ?? "30d" };
      return {
        intent: "metric",
        widget: metric.skill.widget,
        title: metric.skill.title,
        period,
        label: "period" in period ? "" : `from ${period.from} to ${period.to}`,
      };
    }
    case "list_records": {
      const call = ListCall.safeParse(args);
      if (!call.success || !resources.some((entry) => entry.skill.resource === call.data.resource)) return null;
      return { intent: call.data.count_only ? "count" : "list", resource: call.data.resource, query: call.data.filters, refs: {}, conditions: [] };
    }
    case "lookup_record": {
      const call = LookupCall.safeParse(args);
      if (!call.success || (!call.data.name && !call.data.reference)) return null;
      const owners = call.data.resource ? [call.data.resource] : resources.filter((entry) => entry.skill.nameField).map((entry) => entry.skill.resource);
      return {
        intent: "lookup",
        resources: owners,
        field: call.data.field ?? null,
        reference: call.data.reference ? { q: call.data.reference } : null,
        name: call.data.name ?? null,
      };
    }
    case "propose_action": {
      const call = ActionCall.safeParse(args);
      const action = call.success ? actions.find((entry) => entry.skill.name === call.data.action) : undefined;
      if (!call.success || !action) return null;
      const refs = Object.fromEntries(
        Object.entries(call.data.names).flatMap(([slot, text]) => {
          const resource = action.skill.slots.find((candidate) => candidate.name === slot && candidate.kind === "record")?.resource;
          return resource ? [[slot, { resource, text }]] : [];
        }),
      );
      const missing = action.skill.slots
        .filter((slot) => slot.required && call.data.values[slot.name] === undefined && !refs[slot.name])
        .map((slot) => slot.name);
      return { intent: "action", action: action.skill.name, values: call.data.values, refs, labels: {}, missing };
    }
    default:
      return null;
  }
}
