import Fuse from "fuse.js";
import type { Context } from "hono";
import { access, denial, isAllowed } from "../../platform/auth/permissions";
import type { Principal } from "../../platform/auth/principal";
import type { AppEnv } from "../../platform/context";
import { type ApiErrorBody, dispatch } from "../../platform/dispatch";
import { formatCount, formatMinutes, formatMoney, formatMoneys, words } from "../../platform/format";
import type { PackageRegistry } from "../../platform/packages";
import type { ApiRecord, ResourceSkill, ValueFormat } from "../../platform/skills";
import type { Catalog, NameRef, Plan } from "./understand";

/**
 * The tools: each plan becomes calls of the API's own routes, made in-process as the caller (see
 * platform/dispatch.ts), so roles, token scopes, disabled packages, validation and events apply as over
 * HTTP. Names are matched to records with fuse.js; two close matches are asked back, never guessed.
 */

export type RecordRef = { resource: string; id: number; label: string };
export type ProposedAction = {
  kind: string;
  resource: string;
  request: { method: string; path: string; body?: Record<string, unknown>; unchanged_since?: string };
  summary: string;
  allowed: boolean;
  refusal?: string;
};
export type Reply = { text: string; intent: string; data?: unknown; records?: RecordRef[] };

/** What a tool works with: the request, who asks, when, and the packages' skills. */
export type Ctx = { c: Context<AppEnv>; principal: Principal; now: number; registry: PackageRegistry; catalog: Catalog };

const LIST_LIMIT = 10;
const resourceSkill = (ctx: Ctx, resource: string) => ctx.catalog.resources.find((entry) => entry.skill.resource === resource)?.skill;
const packageTitle = (code: ApiErrorBody) => /The (\S+) package/.exec(code.message)?.[1];

/** An API refusal, said plainly. */
export function refusal(ctx: Ctx, error: ApiErrorBody): string {
  if (error.code === "package_disabled") {
    const name = packageTitle(error);
    return `The ${ctx.registry.get(name ?? "")?.title ?? name ?? ""} package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.`;
  }
  if (error.code === "forbidden") return `You don't have access to that. ${error.message}.`;
  if (error.code === "validation_error") return askInstead(error);
  if (error.code === "not_found") return "I couldn't find that record. Check the name or number and ask again.";
  if (error.code === "invalid_transition" || error.code === "conflict") return error.message;
  return "That didn't work just now. Please try again in a moment.";
}

/** A refused request, said as what to give instead: the fields by name, never the validator's own words. */
function askInstead(error: ApiErrorBody): string {
  const details = Array.isArray(error.details) ? (error.details as { path?: string }[]) : [];
  const fields = [...new Set(details.map((detail) => (detail.path ?? "").split(".")[0]!.replaceAll("_", " ")).filter(Boolean))];
  if (fields.length === 0) return "I couldn't do that with what you gave me. Could you say it another way?";
  return `I need a different ${fields.join(" and ")}. Could you give ${fields.length === 1 ? "it" : "them"} again?`;
}

function formatValue(value: unknown, format: ValueFormat | undefined, record?: ApiRecord, currencyField = "currency"): string {
  if (value === null || value === undefined || value === "") return "not set";
  switch (format) {
    case "money":
      return formatMoney(Number(value), String(record?.[currencyField] ?? "USD"));
    case "minutes":
      return formatMinutes(Number(value));
    case "datetime":
      return `${String(value).replace("T", " ").slice(0, 16)} UTC`;
    case "count":
      return formatCount(Number(value));
    case "boolean":
      return value ? "yes" : "no";
    default:
      return words(value);
  }
}

type Match =
  | { kind: "one"; record: ApiRecord; resource: ResourceSkill }
  | { kind: "many"; candidates: { record: ApiRecord; resource: ResourceSkill }[] }
  | { kind: "none" }
  | { kind: "error"; error: ApiErrorBody };

/** Records of one or more resources whose name is `text`: searched with ?q=, then ranked with fuse.js. */
async function findByName(ctx: Ctx, resources: ResourceSkill[], text: string): Promise<Match> {
  const search = async (needle: string) =>
    Promise.all(
      resources.map(async (resource) => ({
        resource,
        result: await dispatch<ApiRecord[]>(ctx.c, ctx.principal, "GET", `/${resource.resource}?q=${encodeURIComponent(needle)}&limit=25`),
      })),
    );
  let results = await search(text);
  // A typo ("Ada Lovelce"): search by each of its words, longest first, and let fuse rank what comes back.
  const words = text
    .split(/\s+/)
    .filter((word) => word.length >= 3 && word !== text)
    .sort((a, b) => b.length - a.length)
    .slice(0, 3);
  for (const word of words) {
    if (!results.every(({ result }) => !result.ok || result.data.length === 0)) break;
    results = await search(word);
  }
  const errors = results.flatMap(({ result }) => (result.ok ? [] : [result.error]));
  const found = results.flatMap(({ resource, result }) =>
    result.ok ? result.data.map((record) => ({ record, resource, name: String(record[resource.nameField ?? "id"] ?? "") })) : [],
  );
  if (found.length === 0) return errors.length > 0 && errors.length === results.length ? { kind: "error", error: errors[0]! } : { kind: "none" };
  const exact = found.filter((candidate) => candidate.name.toLowerCase() === text.toLowerCase());
  if (exact.length === 1) return { kind: "one", record: exact[0]!.record, resource: exact[0]!.resource };
  const ranked = new Fuse(found, { keys: ["name"], includeScore: true, threshold: 0.45, ignoreLocation: true }).search(text);
  if (ranked.length === 0) return { kind: "none" };
  const [best, second] = ranked;
  // One clear winner, or ask: two candidates whose scores are close are both plausible.
  if (!second || second.score! - best!.score! > 0.15) return { kind: "one", record: best!.item.record, resource: best!.item.resource };
  return {
    kind: "many",
    candidates: ranked
      .filter((hit) => hit.score! - best!.score! <= 0.15)
      .slice(0, 5)
      .map((hit) => ({ record: hit.item.record, resource: hit.item.resource })),
  };
}

const cite = (resource: ResourceSkill, record: ApiRecord): RecordRef => ({ resource: resource.resource, id: record.id, label: resource.label(record) });

function askBack(text: string, intent: string, candidates: { record: ApiRecord; resource: ResourceSkill }[]): Reply {
  const records = candidates.map(({ record, resource }) => cite(resource, record));
  const count = records.length === 2 ? "Two" : `${records.length}`;
  return {
    intent,
    text: `${count} records match "${text}": ${records.map((record) => record.label).join("; ")}. Which one do you mean? Ask again with the full name.`,
    records,
    data: { ambiguous: text },
  };
}

/** Names in a plan → record ids, or the reply that stops the plan (not found, ambiguous, refused). */
async function resolveRefs(
  ctx: Ctx,
  refs: Record<string, NameRef>,
  intent: string,
): Promise<{ ids: Record<string, number>; labels: Record<string, string> } | Reply> {
  const ids: Record<string, number> = {};
  const labels: Record<string, string> = {};
  for (const [param, ref] of Object.entries(refs)) {
    const resource = resourceSkill(ctx, ref.resource);
    if (!resource) continue;
    const match = await findByName(ctx, [resource], ref.text);
    if (match.kind === "error") return { intent, text: refusal(ctx, match.error) };
    if (match.kind === "none") return { intent, text: `I couldn't find a ${resource.singular} called "${ref.text}".` };
    if (match.kind === "many") return askBack(ref.text, intent, match.candidates);
    ids[param] = match.record.id;
    labels[param] = resource.label(match.record);
  }
  return { ids, labels };
}

function renderWidget(title: string, label: string, widget: { kind: string; unit: string; data: Record<string, unknown> }): string {
  const value = (v: unknown) =>
    widget.unit === "money"
      ? formatMoneys(v as Record<string, number>)
      : widget.unit === "percent"
        ? v === null
          ? "no data yet"
          : `${v}%`
        : widget.unit === "minutes"
          ? formatMinutes(Number(v))
          : formatCount(Number(v));
  const when = label === "now" || !label ? "" : ` ${label}`;
  switch (widget.kind) {
    case "stat":
      return `${title}${when}: ${value(widget.data.value)}.`;
    case "series": {
      const points = widget.data.points as { date: string; value: unknown }[];
      if (widget.unit === "money") {
        const total: Record<string, number> = {};
        for (const point of points)
          for (const [currency, amount] of Object.entries(point.value as Record<string, number>)) total[currency] = (total[currency] ?? 0) + amount;
        return `${title}${when}: ${formatMoneys(total)} in total.`;
      }
      const total = points.reduce((sum, point) => sum + Number(point.value), 0);
      return `${title}${when}: ${formatCount(total)} in total, per ${widget.data.interval} ${points
        .slice(-5)
        .map((point) => `${point.date}: ${value(point.value)}`)
        .join(", ")}.`;
    }
    case "breakdown": {
      const items = widget.data.items as { label: string; value: unknown }[];
      return items.length === 0
        ? `${title}${when}: nothing yet.`
        : `${title}${when}: ${items
            .slice(0, 8)
            .map((item) => `${words(item.label)} ${value(item.value)}`)
            .join(", ")}.`;
    }
    default: {
      const items = widget.data.items as { label: string; value?: unknown }[];
      return items.length === 0
        ? `${title}${when}: none.`
        : `${title}${when}: ${items.map((item) => `${item.label}${item.value !== undefined ? ` (${value(item.value)})` : ""}`).join(", ")}.`;
    }
  }
}

const periodQuery = (period: Extract<Plan, { intent: "metric" }>["period"]) =>
  "period" in period ? `period=${period.period}` : `from=${period.from}&to=${period.to}`;

async function metric(ctx: Ctx, plan: Extract<Plan, { intent: "metric" }>): Promise<Reply> {
  if (plan.pick) {
    const result = await dispatch<{ kind: string; unit: string; data: { items: { label: string; value: unknown }[] } }>(
      ctx.c,
      ctx.principal,
      "GET",
      `/dashboard/widgets/${plan.pick.widget}?${periodQuery(plan.period)}`,
    );
    if (!result.ok) return { intent: "metric", text: refusal(ctx, result.error) };
    const items = result.data.data.items;
    const [hit] = new Fuse(items, { keys: ["label"], includeScore: true, threshold: 0.35 }).search(plan.pick.text);
    if (!hit)
      return {
        intent: "metric",
        text: `I found no "${plan.pick.text}" in ${plan.title.toLowerCase()}. There is: ${items.map((item) => item.label).join(", ") || "nothing yet"}.`,
        data: result.data,
      };
    return {
      intent: "metric",
      text: `${plan.title} in ${hit.item.label}: ${formatCount(Number(hit.item.value))}.`,
      data: { widget: plan.pick.widget, label: hit.item.label, value: hit.item.value },
    };
  }
  const result = await dispatch<{ kind: string; unit: string; data: Record<string, unknown> }>(
    ctx.c,
    ctx.principal,
    "GET",
    `/dashboard/widgets/${plan.widget}?${periodQuery(plan.period)}`,
  );
  if (!result.ok) return { intent: "metric", text: refusal(ctx, result.error) };
  return { intent: "metric", text: renderWidget(plan.title, plan.label, result.data), data: { widget: plan.widget, ...result.data, period: result.meta } };
}

async function list(ctx: Ctx, plan: Extract<Plan, { intent: "count" | "list" }>): Promise<Reply> {
  const resource = resourceSkill(ctx, plan.resource)!;
  const intent = plan.intent === "count" ? "metric" : "list";
  const resolved = await resolveRefs(ctx, plan.refs, intent);
  if ("text" in resolved) return resolved;
  const params = new URLSearchParams({ ...plan.query, ...Object.fromEntries(Object.entries(resolved.ids).map(([key, id]) => [key, String(id)])) });
  params.set("limit", String(plan.intent === "count" ? 1 : LIST_LIMIT));
  // The analytics sites route has no total; every other list counts in the same round trip.
  if (resource.resource !== "analytics/sites") params.set("include_total", "true");
  const result = await dispatch<ApiRecord[]>(ctx.c, ctx.principal, "GET", `/${resource.resource}?${params}`);
  if (!result.ok)
    return {
      intent,
      text:
        result.error.code === "validation_error"
          ? `I couldn't search ${resource.plural} that way. Try a status, a date range, an amount or a name.`
          : refusal(ctx, result.error),
    };
  const total = Number(result.meta?.total ?? result.data.length);
  const described = plan.conditions.length > 0 ? ` (${plan.conditions.join(", ")})` : "";
  const noun = total === 1 ? resource.singular : resource.plural;
  if (plan.intent === "count")
    return {
      intent,
      text: `${formatCount(total)} ${noun}${described}.`,
      data: { value: total, resource: resource.resource, query: Object.fromEntries(params) },
    };
  if (total === 0) return { intent, text: `No ${resource.plural}${described}.`, data: { total: 0, resource: resource.resource }, records: [] };
  const shown = result.data.slice(0, LIST_LIMIT);
  const more = total > shown.length ? `\n…and ${formatCount(total - shown.length)} more.` : "";
  return {
    intent,
    text: `${formatCount(total)} ${noun}${described}:\n${shown.map((record) => `• ${resource.line(record)}`).join("\n")}${more}`,
    data: { total, resource: resource.resource },
    records: shown.map((record) => cite(resource, record)),
  };
}

async function lookup(ctx: Ctx, plan: Extract<Plan, { intent: "lookup" }>): Promise<Reply> {
  const resources = plan.resources.map((resource) => resourceSkill(ctx, resource)).filter((skill): skill is ResourceSkill => Boolean(skill));
  let match: Match;
  if (plan.reference?.id) {
    const resource = resources[0]!;
    const result = await dispatch<ApiRecord>(ctx.c, ctx.principal, "GET", `/${resource.resource}/${plan.reference.id}`);
    match = result.ok ? { kind: "one", record: result.data, resource } : result.status === 404 ? { kind: "none" } : { kind: "error", error: result.error };
  } else if (plan.reference?.q) {
    const resource = resources[0]!;
    const result = await dispatch<ApiRecord[]>(ctx.c, ctx.principal, "GET", `/${resource.resource}?q=${encodeURIComponent(plan.reference.q)}&limit=5`);
    const exact = result.ok
      ? result.data.find((record) => String(record[resource.nameField ?? "id"]).toLowerCase() === plan.reference!.q!.toLowerCase())
      : undefined;
    match = !result.ok ? { kind: "error", error: result.error } : exact ? { kind: "one", record: exact, resource } : { kind: "none" };
  } else if (plan.name) {
    match = await findByName(ctx, resources, plan.name);
  } else {
    return { intent: "lookup", text: `Which ${resources.length === 1 ? resources[0]!.singular : "record"} do you mean? Give me a name or a number.` };
  }
  const asked = plan.reference?.q ?? plan.reference?.id ?? plan.name ?? "";
  if (match.kind === "error") return { intent: "lookup", text: refusal(ctx, match.error) };
  if (match.kind === "none")
    return { intent: "lookup", text: `I couldn't find ${resources.length === 1 ? `a ${resources[0]!.singular}` : "anything"} matching "${asked}".` };
  if (match.kind === "many") return askBack(String(asked), "lookup", match.candidates);
  const { record, resource } = match;
  const records = [cite(resource, record)];
  if (plan.field && plan.field in resource.fields) {
    const spec = resource.fields[plan.field]!;
    const value = formatValue(record[plan.field], spec.format, record, spec.currencyField);
    return {
      intent: "lookup",
      text: `The ${spec.words[0]} of ${resource.label(record)} is ${value}.`,
      data: { field: plan.field, value: record[plan.field] },
      records,
    };
  }
  return { intent: "lookup", text: `${resource.singular[0]!.toUpperCase()}${resource.singular.slice(1)} ${resource.line(record)}`, data: record, records };
}

async function proposeAction(
  ctx: Ctx,
  plan: Extract<Plan, { intent: "action" }>,
  readOnly: boolean,
): Promise<Reply | { proposal: ProposedAction; records: RecordRef[] }> {
  const action = ctx.catalog.actions.find((entry) => entry.skill.name === plan.action)!;
  const skill = action.skill;
  const resolved = await resolveRefs(ctx, plan.refs, "action");
  if ("text" in resolved) return resolved;
  const values: Record<string, unknown> = { ...plan.values, ...resolved.ids };
  const labels: Record<string, string> = { ...plan.labels, ...resolved.labels };
  for (const slot of skill.slots) {
    if (slot.kind === "record" && values[slot.name] !== undefined && labels[slot.name] === undefined) {
      const resource = resourceSkill(ctx, slot.resource!)!;
      const record = await dispatch<ApiRecord>(ctx.c, ctx.principal, "GET", `/${resource.resource}/${values[slot.name]}`);
      if (!record.ok)
        return { intent: "action", text: record.status === 404 ? `I couldn't find ${resource.singular} ${values[slot.name]}.` : refusal(ctx, record.error) };
      labels[slot.name] = resource.label(record.data);
    }
  }
  const missing = skill.slots.filter((slot) => slot.required && values[slot.name] === undefined);
  if (missing.length > 0) {
    const slot = missing[0]!;
    const what =
      slot.kind === "record"
        ? `which ${resourceSkill(ctx, slot.resource!)?.singular ?? slot.name}`
        : slot.kind === "state"
          ? `which ${slot.name}`
          : slot.kind === "email"
            ? "the e-mail address"
            : `the ${slot.name}`;
    return {
      intent: "action",
      text: `To ${plan.action.replaceAll("_", " ")}, I need ${what}. Say it again with that included.`,
      data: { missing: missing.map((s) => s.name) },
    };
  }
  // The same checks as the route it will call: the package must be on and the caller allowed to write.
  const pkg = action.pkg;
  const need = access.write(skill.resource);
  const asUser = { role: ctx.principal.role, scopes: readOnly ? null : ctx.principal.scopes };
  const disabled = ctx.principal.disabledPackages.includes(pkg);
  const allowed = !disabled && isAllowed(asUser, need, ctx.registry);
  const proposal: ProposedAction = {
    kind: skill.name,
    resource: skill.resource,
    request: skill.request(values),
    summary: skill.summary(values, labels),
    allowed,
    ...(allowed ? {} : { refusal: disabled ? `the ${ctx.registry.get(pkg)?.title ?? pkg} package is disabled` : denial(asUser, need, ctx.registry).message }),
  };
  const records = skill.slots.flatMap((slot) =>
    slot.kind === "record" && typeof values[slot.name] === "number"
      ? [{ resource: slot.resource!, id: values[slot.name] as number, label: labels[slot.name]! }]
      : [],
  );
  return { proposal, records };
}

/** Whether the asker may make a write to `resource` (the same checks as the route it will call). */
export function permissionFor(ctx: Ctx, resource: string, readOnly: boolean): { allowed: boolean; refusal?: string } {
  const pkg = ctx.registry.packageOfResource(resource) ?? "";
  const need = access.write(resource);
  const asUser = { role: ctx.principal.role, scopes: readOnly ? null : ctx.principal.scopes };
  const disabled = ctx.principal.disabledPackages.includes(pkg);
  const allowed = !disabled && isAllowed(asUser, need, ctx.registry);
  return allowed
    ? { allowed }
    : { allowed, refusal: disabled ? `the ${ctx.registry.get(pkg)?.title ?? pkg} package is disabled` : denial(asUser, need, ctx.registry).message };
}

export const SUGGESTIONS = [
  "revenue this month",
  "overdue invoices",
  "open deals in negotiation over 10,000",
  "phone of Ada Lovelace",
  "tasks due this week",
  "create a task Call Acme in Website due Friday",
];

function help(ctx: Ctx): Reply {
  const titles = ctx.registry.all.filter((manifest) => (manifest.skills ?? []).length > 0).map((manifest) => manifest.title);
  return {
    intent: "help",
    text:
      `I answer from this workspace's own data (${titles.join(", ")}) and prepare changes for you to confirm. Ask for numbers ("revenue this month", "win rate this quarter", "headcount in engineering"), ` +
      `lists ("overdue invoices", "open deals in negotiation over 10,000", "tasks due this week assigned to Ana"), details ("phone of Ada Lovelace", "status of INV-000012") ` +
      `or actions ("create a task Call Acme in Website due Friday", "move deal Big Co to won", "mark task 12 done").`,
    data: { suggestions: SUGGESTIONS },
  };
}

/** A plan → its reply; an action comes back proposed, for the caller to store and confirm. */
export async function run(ctx: Ctx, plan: Plan, options: { readOnly?: boolean } = {}): Promise<Reply & { proposal?: ProposedAction }> {
  switch (plan.intent) {
    case "metric":
      return metric(ctx, plan);
    case "count":
    case "list":
      return list(ctx, plan);
    case "lookup":
      return lookup(ctx, plan);
    case "action": {
      const outcome = await proposeAction(ctx, plan, options.readOnly === true);
      if ("text" in outcome) return outcome;
      return { intent: "action", text: outcome.proposal.summary, records: outcome.records, proposal: outcome.proposal };
    }
    case "help":
      return help(ctx);
    case "greeting":
      return { ...help(ctx), text: `Hello! ${help(ctx).text}` };
    default:
      return {
        intent: "unknown",
        text: `I didn't understand that. You can ask things like: ${SUGGESTIONS.map((s) => `"${s}"`).join(", ")}.`,
        data: { suggestions: SUGGESTIONS },
      };
  }
}
