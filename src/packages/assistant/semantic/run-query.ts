import type { ApiErrorBody } from "../../../platform/dispatch";
import { formatCount, formatMinutes, formatMoney, formatMoneys, words } from "../../../platform/format";
import type { ApiRecord } from "../../../platform/skills";
import type { RecordRef, Reply } from "../tools";
import { type Answer, answerOf, type Fetch, fullyPushed, pushdown, ranked, readRows, select } from "./execute";
import type { ResourceModel, SchemaModel } from "./model";
import { labelOf } from "./names";
import { OPEN_END, type Query } from "./query";
import type { Aggregator } from "./sql";

/** A query → its reply: the answer as data (for clients and the evaluation), the records cited, and a sentence. */

export type QueryEnv = { fetch: Fetch; schema: SchemaModel; now: number; aggregate?: Aggregator };

const SHOWN = 10;
/** Groups a reply lists (and names). */
const GROUPS_SHOWN = 15;

export async function runQuery(env: QueryEnv, asked: Query, refuse: (error: ApiErrorBody) => string): Promise<Reply> {
  const R = env.schema.byName.get(asked.resource)!;
  // "how much is the Acme West deal worth": a number of one record is its field, not a sum; "who's the contact
  // on the Soylent deal": one record grouped by a field is that field of it.
  const one = asked.subject?.resource === R.name;
  const shown =
    one && asked.aggregate.groupBy
      ? asked.aggregate.groupBy
      : one && asked.aggregate.fn !== "list" && asked.aggregate.fn !== "count"
        ? asked.aggregate.field
        : null;
  const query: Query = shown ? { ...asked, show: shown, aggregate: { fn: "list", field: null, groupBy: null, order: null, limit: null } } : asked;
  // A count, sum, average or ranking: one statement in D1 when every part of the question is a column.
  if (query.aggregate.fn !== "list" && env.aggregate) {
    const computed = await env.aggregate(R, query);
    if (computed && "refused" in computed) return { intent: "unknown", text: refuse(computed.refused) };
    if (computed) {
      let answer = computed;
      if (answer.kind === "groups") {
        // Ranked first; the names come with the groups (or, for a group by a non-reference, are the values).
        const groups = ranked(answer.groups, query.aggregate.order, query.aggregate.limit);
        const unnamed = groups.slice(0, GROUPS_SHOWN).filter((group) => !group.label && group.key !== null);
        const labels =
          unnamed.length > 0
            ? await groupLabels(
                env,
                R,
                query,
                unnamed.map((group) => group.key),
              )
            : new Map<string, string>();
        const groupBy = answer.group_by;
        answer = {
          ...answer,
          groups: groups.map((group) => ({
            ...group,
            label:
              group.label ||
              (labels.get(`${groupBy}:${group.key}`) ??
                (group.key === null
                  ? "none"
                  : // A yes/no field reads as itself or its negation ("billable", "not billable").
                    typeof group.key === "boolean"
                    ? `${group.key ? "" : "not "}${words(groupBy ?? "")}`
                    : words(group.key))),
          })),
        };
      }
      // Groups by a reference are records of their own ("Stark", "Wonka Labs"): "the second one" can pick them.
      const target = answer.kind === "groups" && answer.group_by ? R.fields.get(answer.group_by)?.target : undefined;
      const records =
        answer.kind === "groups" && target
          ? answer.groups
              .filter((group) => group.key !== null && Number.isInteger(Number(group.key)))
              .slice(0, GROUPS_SHOWN)
              .map((group) => ({ resource: target, id: Number(group.key), label: String(group.label) }))
          : [];
      return { intent: "metric", text: sentence(R, query, answer, []), data: { answer, query }, ...(records.length > 0 ? { records } : {}) };
    }
  }
  const params = pushdown(R, query);
  // "who's assigned?": a reference shown by name, read in the same call.
  if (query.show && R.fields.get(query.show)?.kind === "reference") params.set("expand", query.show);
  // A plain list the route filters by itself: its first page and its total, in one call.
  const onePage = query.aggregate.fn === "list" && !query.aggregate.order && !query.aggregate.limit && fullyPushed(R, query);
  if (onePage) params.set("include_total", "true");
  const read = onePage ? await readPage(env.fetch, R, params) : await readRows(env.fetch, R, params);
  if ("error" in read) return { intent: "unknown", text: refuse(read.error) };
  // "customers outside the US": the rows a list filter names, left out (the route has no "not" for it).
  const excluded = new Set<number>();
  for (const condition of query.conditions) {
    if (!("param" in condition) || !condition.negate) continue;
    const named = await readRows(env.fetch, R, new URLSearchParams({ [condition.param]: condition.value }));
    if ("rows" in named) for (const row of named.rows) excluded.add(row.id);
  }
  const selected = select(read.rows, R, query, excluded);
  const groupBy = query.aggregate.groupBy;
  const labels = await groupLabels(env, R, query, groupBy ? selected.map((row) => row[groupBy]) : []);
  let answer = answerOf(selected, R, query, labels);
  if (answer.kind === "records" && "total" in read && typeof read.total === "number") answer = { ...answer, total: read.total };
  const ordered = answer.kind === "records" ? answer.ids.map((id) => selected.find((row) => row.id === id)!) : selected;
  const records: RecordRef[] = ordered.slice(0, SHOWN).map((row) => ({ resource: R.name, id: row.id, label: labelOf(R, row) }));
  const text = sentence(R, query, answer, ordered) + (read.capped ? " (I read the first 2,000 records only.)" : "");
  // ("who is on the fix reports task" → "whats her phone number": the record a shown reference names is cited too.)
  const target = query.show ? R.fields.get(query.show)?.target : undefined;
  const named = target && ordered.length === 1 ? ordered[0]![query.show!] : undefined;
  if (target && typeof named === "number") records.push({ resource: target, id: named, label: referenceLabel(R, query.show!, ordered[0]!) });
  return {
    intent: answer.kind === "records" && !query.show ? "list" : answer.kind === "records" ? "lookup" : "metric",
    text,
    data: { answer, query },
    records,
  };
}

/** One page of the list route, with the total it counts. */
async function readPage(
  fetch: Fetch,
  R: ResourceModel,
  params: URLSearchParams,
): Promise<{ rows: ApiRecord[]; capped: boolean; total: number } | { error: ApiErrorBody }> {
  params.set("limit", "100");
  const result = await fetch(`/${R.name}?${params}`);
  if (!result.ok) return { error: result.error };
  return { rows: result.data, capped: false, total: Number(result.meta?.total ?? result.data.length) };
}

/** The names behind a group-by reference: one call to the referenced list route with `ids`. */
async function groupLabels(env: QueryEnv, R: ResourceModel, query: Query, keys: unknown[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const groupBy = query.aggregate.groupBy;
  const target = groupBy ? R.fields.get(groupBy)?.target : undefined;
  if (!groupBy || !target) return labels;
  const T = env.schema.byName.get(target)!;
  const ids = [...new Set(keys.filter((id): id is number => typeof id === "number"))];
  for (let i = 0; i < ids.length; i += 100) {
    const result = await env.fetch(`/${T.name}?ids=${ids.slice(i, i + 100).join(",")}&limit=100`);
    if (result.ok) for (const record of result.data) labels.set(`${groupBy}:${record.id}`, labelOf(T, record));
  }
  return labels;
}

function fieldWords(R: ResourceModel, field: string | null) {
  if (!field) return "";
  const said = R.fields.get(field)?.words;
  // ("billing" is better said as the skill's "billing address".)
  return (said?.[1]?.startsWith(`${said[0]} `) ? said[1] : said?.[0]) ?? words(field);
}

/** A field's value as people read it. */
export function shown(R: ResourceModel, field: string | null, value: unknown, row?: ApiRecord): string {
  if (value === null || value === undefined || value === "") return "not set";
  const model = field ? R.fields.get(field) : undefined;
  if (typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (model?.kind === "money") return entries.length === 0 ? "0" : formatMoneys(value as Record<string, number>);
    // An address: its filled-in parts, in the order they are written.
    const parts = entries.filter(([, part]) => part !== null && part !== undefined && part !== "").map(([, part]) => String(part));
    return parts.length === 0 ? "not set" : parts.join(", ");
  }
  // A list of lines ("what was on INV-000305"): each said by its description, count and price.
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const currency = String(row?.currency ?? "USD");
    return value
      .map((entry) => {
        if (!entry || typeof entry !== "object") return String(entry);
        const line = entry as Record<string, unknown>;
        const name = String(line.description ?? line.name ?? line.title ?? "item");
        const count = line.quantity !== undefined ? `${line.quantity} × ` : "";
        const price = typeof line.unit_amount === "number" ? ` at ${formatMoney(line.unit_amount, currency)}` : "";
        return `${count}${name}${price}`;
      })
      .join("; ");
  }
  switch (model?.kind) {
    case "money":
      return formatMoney(Number(value), String(row?.[model.currencyField ?? "currency"] ?? "USD"));
    case "minutes":
      return formatMinutes(Number(value));
    case "datetime":
      return `${String(value).slice(0, 10)}`;
    case "boolean":
      return value ? "yes" : "no";
    case "number":
      return formatCount(Number(value));
    default:
      return words(value);
  }
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** A period as people say it: "in October 2026", "in Q3 2026", "in the week of 2026-11-16", "on 2026-11-17". */
export function periodWords(from: string, to: string): string {
  if (from === to) return `on ${from}`;
  // (An open end: "the next invoice due" is due from today on.)
  if (to === OPEN_END) return `from ${from} on`;
  const [fy, fm, fd] = from.split("-").map(Number) as [number, number, number];
  const end = new Date(Date.UTC(fy, fm - 1, fd));
  const last = (months: number) => new Date(Date.UTC(fy, fm - 1 + months, 0)).toISOString().slice(0, 10);
  if (fd === 1 && to === last(1)) return `in ${MONTH_NAMES[fm - 1]} ${fy}`;
  if (fd === 1 && fm % 3 === 1 && to === last(3)) return `in Q${(fm + 2) / 3} ${fy}`;
  if (fd === 1 && fm === 1 && to === `${fy}-12-31`) return `in ${fy}`;
  end.setUTCDate(end.getUTCDate() + 6);
  if (new Date(Date.UTC(fy, fm - 1, fd)).getUTCDay() === 1 && end.toISOString().slice(0, 10) === to) return `in the week of ${from}`;
  return `from ${from} to ${to}`;
}

/** The verb that dates a field ("paid", "won", "logged"), else the field's own words. */
function dateVerb(R: ResourceModel, field: string): string {
  return R.dateWords.find((date) => date.field === field)?.words[0] ?? fieldWords(R, field).replace(/ at$/, "");
}

/** "unpaid, for Acme, issued in October 2026" — or "all time" when no period was given (the period assumed is always said). */
function described(R: ResourceModel, query: Query): string {
  const parts = query.conditions.map((condition) => condition.label).filter(Boolean);
  if (query.subject && query.subject.resource !== R.name) parts.push(`for ${query.subject.label}`);
  const period = query.period ? `${dateVerb(R, query.period.field)} ${periodWords(query.period.from, query.period.to)}` : "all time";
  return [...new Set(parts), period].join(", ");
}

function sentence(R: ResourceModel, query: Query, answer: Answer, rows: ApiRecord[]): string {
  const what = `(${described(R, query)})`;
  if (answer.kind === "records") {
    if (query.show) {
      const show = query.show;
      if (rows.length === 0) return `I found no ${R.singular} like that ${what}.`;
      const value = (row: ApiRecord) => (R.fields.get(show)?.target ? referenceLabel(R, show, row) : shown(R, show, row[show], row));
      // ("created at" reads as its verb: "Grace Allen: applied 2026-11-03".)
      if (rows.length === 1 && /_at$/.test(show) && !R.fields.get(show)?.words.some((word) => word.includes(" ") && !/ at$/.test(word)))
        return `${labelOf(R, rows[0]!)}: ${dateVerb(R, show)} ${value(rows[0]!).slice(0, 10)}.`;
      // ("sent to": a field named by a verb says what happened — "INV-000305 was sent to ap@…".)
      const verbal = /^[a-z]+(?:ed|ent|t)\s+(?:to|by|from|on)$/.test(fieldWords(R, show));
      if (rows.length === 1 && verbal) return `${labelOf(R, rows[0]!)} was ${fieldWords(R, show)} ${value(rows[0]!)}.`;
      if (rows.length === 1) return `The ${fieldWords(R, show)} of ${labelOf(R, rows[0]!)} ${Array.isArray(rows[0]![show]) ? "are" : "is"} ${value(rows[0]!)}.`;
      const lines = rows.slice(0, SHOWN).map((row) => `• ${labelOf(R, row)}: ${value(row)}`);
      return `${fieldWords(R, show)[0]!.toUpperCase()}${fieldWords(R, show).slice(1)} of ${formatCount(rows.length)} ${R.plural} ${what}:\n${lines.join("\n")}`;
    }
    if (answer.total === 0) return `No ${R.plural} ${what}.`;
    const noun = answer.total === 1 ? R.singular : R.plural;
    const ranked =
      query.aggregate.order && query.aggregate.field
        ? `, by ${fieldWords(R, query.aggregate.field)} ${query.aggregate.order === "desc" ? "highest first" : "lowest first"}`
        : "";
    const lines = rows.slice(0, SHOWN).map((row) => `• ${R.skill?.line(row) ?? labelOf(R, row)}`);
    const more = answer.total > SHOWN ? `\n…and ${formatCount(answer.total - SHOWN)} more.` : "";
    return `${formatCount(answer.total)} ${noun} ${what}${ranked}:\n${lines.join("\n")}${more}`;
  }
  if (answer.kind === "value") {
    if (answer.fn === "count") return `${formatCount(Number(answer.value))} ${Number(answer.value) === 1 ? R.singular : R.plural} ${what}.`;
    const fnWord = { sum: "Total", avg: "Average", min: "Lowest", max: "Highest" }[answer.fn];
    const isDate = ["date", "datetime"].includes(R.fields.get(answer.field ?? "")?.kind ?? "");
    const label = isDate ? (answer.fn === "max" ? "Latest" : "Earliest") : fnWord;
    // (Computed in D1, the rows are not read: no count to say.)
    const count =
      (answer.fn === "sum" || answer.fn === "avg") && rows.length > 0 ? `, over ${formatCount(rows.length)} ${rows.length === 1 ? R.singular : R.plural}` : "";
    // "Revenue (paid in November 2026): …" when a measure word asked for it; else what was computed.
    // ("Total tax of invoices", not "Total tax total".)
    const words = fieldWords(R, answer.field);
    const named =
      query.title && answer.fn === "sum"
        ? query.title
        : answer.fn === "sum" && /\btotal\b/.test(words)
          ? `Total ${words.replace(/\s*\btotal\b\s*/, " ").trim()}`.trim().concat(` of ${R.plural}`)
          : `${label} ${words} of ${R.plural}`;
    return `${named} ${what}: ${shown(R, answer.field, answer.value)}${count}.`;
  }
  const by = fieldWords(R, answer.group_by);
  const measure =
    query.title && answer.fn === "sum"
      ? query.title
      : answer.fn === "count"
        ? `${R.plural}`
        : // ("Total of invoices by customer", not "Total total by customer".)
          `${{ sum: "total", avg: "average", min: "lowest", max: "highest" }[answer.fn] ?? answer.fn} ${fieldWords(R, answer.field)}`.replace(
            /^total\s+total\b/,
            `total of ${R.plural}`,
          );
  if (answer.groups.length === 0) return `No ${R.plural} ${what}.`;
  const lines = answer.groups
    .slice(0, 15)
    .map((group) => `• ${group.label}: ${answer.fn === "count" ? formatCount(Number(group.value)) : shown(R, answer.field, group.value)}`);
  return `${measure[0]!.toUpperCase()}${measure.slice(1)} by ${by} ${what}:\n${lines.join("\n")}`;
}

/** A reference read with `expand`: its record's name. */
function referenceLabel(R: ResourceModel, field: string, row: ApiRecord): string {
  const expanded = row[field.replace(/_id$/, "")] as { label?: string } | null | undefined;
  if (row[field] === null || row[field] === undefined) return "nobody";
  return expanded?.label ?? `${R.fields.get(field)?.target} ${row[field]}`;
}
