import type { Fetch } from "./execute";
import type { ResourceModel, SchemaModel } from "./model";
import { atCompany, type Candidate, findNamed, labelOf, nameOf } from "./names";
import { type NameSpan, type QueryDraft, stateMeasureOf } from "./parse-query";
import type { Condition, Query, Resume, Role } from "./query";
import { matchValue, type Values, valuePair } from "./values";

/**
 * A draft → a query: merged with the conversation's last query when it continues it ("and last month?",
 * "only the EUR ones", "what about Globex"), and its names found among the workspace's records — a
 * record of the asked resource is the subject, one of a resource it refers to becomes a condition on
 * that reference ("Acme's invoices" → customer_id). A name that fits several records is asked back.
 */

export type Resolved =
  | { kind: "query"; query: Query; resource: ResourceModel; notFound: string[] }
  | { kind: "choose"; text: string; options: Candidate[]; resume: Resume }
  | { kind: "missing"; text: string }
  | { kind: "error"; error: import("../../../platform/dispatch").ApiErrorBody };

const conditionKey = (condition: Condition) => ("field" in condition ? condition.field : condition.param);

const normalisedName = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N} ]/gu, "")
    .replace(/\s+/g, " ")
    .trim();

/** A date field whose words look forward: what is due, expected, or ends. */
const FORWARD_DATE = /^(?:due_date|deadline|expected_\w+|end_date)$/;

/** A follow-up changes the parts it says and keeps the rest. `now` dates a month said alone. */
export function merge(draft: QueryDraft, previous: Query | null, text: string, now?: number): Query | null {
  const R = draft.resource;
  // ("deals we lost in q3" → "why did we lose them": the same records, though the verb names their kind again.)
  const same = previous && R?.name === previous.resource && /\b(?:them|those|these)\b/.test(text);
  const continues = previous && (draft.followUp || !draft.said.resource || same) && (!R || R.name === previous.resource || !draft.said.resource);
  if (!continues) {
    if (!R) return null;
    return {
      resource: R.name,
      conditions: draft.conditions,
      period: draft.period,
      aggregate: draft.aggregate,
      subject: null,
      show: draft.show,
      ...(draft.title ? { title: draft.title } : {}),
    };
  }
  const keys = new Set(draft.conditions.map(conditionKey));
  // ("overdue invoices" → "and the paid ones?": a new state replaces the last one's, also one the API filters by a
  // parameter of its own — overdue is a state of unpaid invoices.)
  const stateSaid = !draft.said.impliedState && draft.conditions.some((c) => "field" in c && ["status", "stage"].includes(c.field));
  const stateParams = new Set((R?.skill?.filters ?? []).flatMap((filter) => Object.keys(filter.query)).filter((param) => !R?.fields.has(param)));
  if (stateSaid) for (const param of stateParams) keys.add(param);
  // ("partially paid invoices" → "how much is outstanding on those": those records, whatever the new words
  // would filter on their own.)
  const those = /\b(?:on|of|for|in|from|across) (?:those|them|these)\b/.test(text);
  const kept = new Set(previous.conditions.map(conditionKey));
  const conditions = those
    ? [...previous.conditions, ...draft.conditions.filter((condition) => !kept.has(conditionKey(condition)))]
    : [...previous.conditions.filter((condition) => !keys.has(conditionKey(condition))), ...draft.conditions];
  // ("and what's he working on right now": now, not the last question's period.)
  let period = draft.period ?? (/\b(?:right now|currently|at the moment|these days)\b/.test(text) ? null : previous.period);
  // "and last year": a period without a verb of its own is dated as the last one was (won deals by closed_at).
  if (draft.period && !draft.said.dateField && previous.period && previous.period.field !== draft.period.field)
    period = { ...draft.period, field: previous.period.field };
  // ("open deals closing this month" → "what about december": a month said alone, of a date that looks forward, is
  // the coming one, not last year's.)
  if (
    period &&
    draft.period &&
    now !== undefined &&
    FORWARD_DATE.test(period.field) &&
    /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b(?!\s+\d{4})/.test(text) &&
    !/\b(?:last|past|previous|ago|did|was|were)\b/.test(text) &&
    period.to < new Date(now).toISOString().slice(0, 10)
  )
    period = shifted(period, "year", 1);
  // "and the week before?": the last period moved back (chrono would read "the day before" as yesterday).
  const before = /\b(?:the )?(day|week|month|year|quarter) before\b/.exec(text);
  if (before && previous.period) period = shifted(previous.period, before[1] as "day" | "week" | "month" | "year" | "quarter");
  const ranked = draft.aggregate.order !== null && draft.aggregate.fn === "list" && !draft.said.resource;
  const aggregate =
    ranked && previous.aggregate.groupBy
      ? // "hours by project" → "which one had the most": the groups ranked.
        { ...previous.aggregate, order: draft.aggregate.order, limit: draft.aggregate.limit ?? 1 }
      : ranked && previous.aggregate.fn === "list"
        ? // "stark's unpaid invoices" → "sort by due date oldest first": the same records in that order.
          {
            ...previous.aggregate,
            field: draft.aggregate.field ?? previous.aggregate.field,
            order: draft.aggregate.order,
            limit: draft.aggregate.limit ?? previous.aggregate.limit,
          }
        : !draft.said.fn &&
            (/^(?:and |ok |so )?(?:which|who)(?: ones| of (?:them|those|these))\b/.test(text) ||
              // ("how many tasks did edsger finish" → "and what's he working on right now": the things themselves.)
              /^(?:and |ok |so )?(?:what|whats|what's)(?: is| are)? (?:he|she|they)(?:'s|s| is| are)? (?:working on|doing|busy with)\b/.test(text))
          ? // "how much is in the pipeline" → "which of them are over 50k": those records, not their sum.
            { fn: "list" as const, field: null, groupBy: null, order: null, limit: null }
          : (draft.said.resource || /^(?:and |ok |so |now |pls |please )?(?:list|show)\b/.test(text)) &&
              !draft.said.fn &&
              /\b(?:show|list|see|pull up|give me)\b/.test(text)
            ? // "how much does globex owe" → "show me the invoices behind that", "list them w/ the customer": the records themselves.
              { fn: "list" as const, field: null, groupBy: null, order: null, limit: null }
            : draft.said.onlyOrder && draft.aggregate.groupBy && previous.aggregate.fn !== "list" && !previous.aggregate.groupBy
              ? // "how much are we owed" → "split that by customer, biggest first": the same sum, grouped and ranked.
                { ...previous.aggregate, groupBy: draft.aggregate.groupBy, order: draft.aggregate.order ?? "desc", limit: draft.aggregate.limit }
              : draft.said.fn
                ? { ...draft.aggregate, groupBy: draft.aggregate.groupBy ?? (draft.aggregate.fn === "list" ? null : previous.aggregate.groupBy) }
                : draft.aggregate.groupBy
                  ? {
                      ...previous.aggregate,
                      fn: previous.aggregate.fn === "list" ? ("count" as const) : previous.aggregate.fn,
                      groupBy: draft.aggregate.groupBy,
                    }
                  : draft.show
                    ? { ...previous.aggregate, fn: "list" as const, groupBy: null }
                    : previous.aggregate;
  // "overdue invoices" → "how much is that": the number the kept states are about (what is still due).
  if (R && aggregate.fn === "sum" && aggregate.field === R.measure && !draft.said.field) {
    const stateMeasure = stateMeasureOf(R, conditions);
    if (stateMeasure) aggregate.field = stateMeasure;
  }
  const title = draft.said.fn ? draft.title : (draft.title ?? previous.title);
  // "hours per project" → "and how much of it was non-billable": a part of the whole, no longer per group.
  const ofWhole = /\bhow (?:much|many) of (?:it|that|this|those|them|these)\b/.test(text) && !draft.aggregate.groupBy && aggregate.fn !== "list";
  return {
    resource: previous.resource,
    conditions,
    period,
    aggregate: ofWhole ? { ...aggregate, groupBy: null, order: null, limit: null } : aggregate,
    subject: previous.subject,
    // ("what's left on INV-249" → "who is it for": a question of its own form asks its own field.)
    show: draft.show ?? (draft.said.fn || /^(?:and\s+)?(?:who|whos|who's|whom|when|whens|when's)\b/.test(text) ? null : previous.show),
    ...(title ? { title } : {}),
  };
}

/** The period moved back one unit (or forward, with `by` 1). */
function shifted(period: NonNullable<Query["period"]>, unit: "day" | "week" | "month" | "year" | "quarter", by = -1): NonNullable<Query["period"]> {
  const move = (day: string) => {
    const date = new Date(`${day}T00:00:00Z`);
    if (unit === "day") date.setUTCDate(date.getUTCDate() + by);
    if (unit === "week") date.setUTCDate(date.getUTCDate() + 7 * by);
    if (unit === "month") date.setUTCMonth(date.getUTCMonth() + by);
    if (unit === "year") date.setUTCFullYear(date.getUTCFullYear() + by);
    if (unit === "quarter") date.setUTCMonth(date.getUTCMonth() + 3 * by);
    return date.toISOString().slice(0, 10);
  };
  let to = move(period.to);
  if (unit === "month" || unit === "quarter") {
    const start = new Date(`${move(period.from)}T00:00:00Z`);
    to = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + (unit === "month" ? 1 : 3), 0)).toISOString().slice(0, 10);
  }
  const from = move(period.from);
  return { ...period, from, to, label: `from ${from} to ${to}` };
}

/** The resources a name in a question about R may belong to: R itself, then what R refers to. */
export function candidatesFor(R: ResourceModel | null, schema: SchemaModel): ResourceModel[] {
  if (!R) return schema.resources.filter((resource) => resource.nameField);
  const targets = [...R.fields.values()].flatMap((field) => (field.target ? [schema.byName.get(field.target)!] : []));
  // A list filter named like a reference ("customer_id" on payments) reaches that resource too.
  const viaFilters = [...R.filters].flatMap((filter) => {
    const target = schema.resources.find((resource) => `${resource.singular.replace(/ /g, "_")}_id` === filter);
    return target ? [target] : [];
  });
  return [...new Set([R, ...targets, ...viaFilters])].filter((resource) => resource?.nameField);
}

/** Where a record of `found` goes in a query on R. */
export function roleOf(R: ResourceModel, found: ResourceModel, trigger: string | null): Role | null {
  if (found === R) return { subject: true };
  const references = [...R.fields.values()].filter((field) => field.target === found.name);
  // "assigned to" / "for" / "by" a person: the resource's person field first.
  const person = R.skill?.person?.param;
  const chosen = references.find((field) => field.name === person && trigger !== "in") ?? references[0];
  if (chosen) return { field: chosen.name };
  const filter = `${found.singular.replace(/ /g, "_")}_id`;
  if (R.filters.has(filter)) return { param: filter };
  return null;
}

export function applyRole(query: Query, role: Role, candidate: { resource: string; id: number; label: string }, negate = false): Query {
  if ("subject" in role) return { ...query, subject: { resource: candidate.resource, id: candidate.id, label: candidate.label } };
  const key = "field" in role ? role.field : role.param;
  // "leave out Partner API": the same reference, excluded (and kept beside the other conditions on it).
  const conditions = negate ? [...query.conditions] : query.conditions.filter((condition) => conditionKey(condition) !== key);
  const label = negate ? `not ${candidate.label}` : `for ${candidate.label}`;
  conditions.push(
    "field" in role
      ? { field: role.field, op: negate ? "ne" : "eq", value: candidate.id, label }
      : { param: role.param, value: String(candidate.id), label, ...(negate ? { negate: true } : {}) },
  );
  return { ...query, conditions };
}

/** Every name of the draft found, in order; the first that needs a choice stops (and is asked back). */
export async function resolveNames(fetch: Fetch, schema: SchemaModel, query: Query, spans: NameSpan[], values: Values): Promise<Resolved> {
  let current = query;
  const R = schema.byName.get(current.resource)!;
  const notFound: string[] = [];
  const valuesOf = values;
  // A list filter that is no field ("country" of a customer's billing address), for words after its trigger.
  const params = (R.skill?.values ?? []).filter((entry) => !R.fields.has(entry.param) && R.filters.has(entry.param)).map((entry) => entry.param);
  // Read only when there is a name to read it for ("overdue invoices" needs no values).
  const known = spans.some((span) => span.text) ? values(R) : Promise.resolve(new Map<string, string[]>());
  const lookups = spans.map((span) => {
    if (!span.text) return Promise.resolve([[], { kind: "none" }] as [null[], Awaited<ReturnType<typeof findNamed>>]);
    const forms = [...new Set([span.text, span.text.replace(/(?<=\w{3})s$/i, "")])];
    return Promise.all([
      Promise.all(
        params.flatMap((name) =>
          forms.map(async (form) => {
            const value = name === "country" ? countryCode(form) : form;
            if (!value) return null;
            const result = await fetch(`/${R.name}?${name}=${encodeURIComponent(value)}&limit=1`);
            if (!result.ok || !result.data[0]) return null;
            return { name, value };
          }),
        ),
      ),
      // ("the acme invoice": a name before R's own noun is R's record — or, when none is so named, whoever R's records refer to.)
      findNamedWithNoun(fetch, span.own ? [R] : candidatesFor(R, schema), span.text).then((found) =>
        span.own && found.kind === "none" && !R.nameField?.match(/^name$|^title$/) ? findNamedWithNoun(fetch, candidatesFor(R, schema), span.text) : found,
      ),
    ]);
  });
  const vocabulary = await known;
  // A follow-up's value replaces the one the last question had on that field ("engineers in berlin" → "and remote?").
  const inherited = new Set(query.conditions);
  const withValue = (field: string, condition: Condition, negated: boolean): Query => ({
    ...current,
    conditions: [...current.conditions.filter((c) => negated || !inherited.has(c) || !("field" in c) || c.field !== field), condition],
  });
  const valueCondition = (field: string, list: string[], negated: boolean): Condition => {
    const label = `${negated ? "not " : ""}${field.replace(/_/g, " ")} ${list.join(" or ")}`;
    return list.length === 1 ? { field, op: negated ? "ne" : "eq", value: list[0], label } : { field, op: negated ? "not_in" : "in", value: list, label };
  };
  for (const [index, span] of spans.entries()) {
    if (!span.text) continue;
    // A value of one of R's categorical text fields, as the workspace spells it ("website" as a lead source,
    // "Berlin" as a branch, "competitors" as a lost reason).
    // "staff engineers": the noun before the words may be the value's first word (the designation Staff Engineer).
    const joined = span.before ? matchValue(vocabulary, `${span.before} ${span.text}`) : null;
    const exact = joined?.exact ? joined : matchValue(vocabulary, span.text);
    if (exact?.exact) {
      current = withValue(exact.field, valueCondition(exact.field, exact.values, span.negated === true), span.negated === true);
      continue;
    }
    // "the berlin engineering team": two values said together, each of its own field (a branch, a department).
    const pair = exact || span.negated ? null : valuePair(vocabulary, span.text);
    if (pair) {
      for (const one of pair) current = withValue(one.field, valueCondition(one.field, one.values, false), false);
      continue;
    }
    // "contacts with a globex.example email", "leads @acme.io": a domain is what their e-mail addresses contain.
    const domain = /^@?([a-z0-9-]+(?:\.[a-z0-9-]+)+)$/i.exec(span.text.trim());
    if (domain && R.fields.get("email")) {
      current = {
        ...current,
        conditions: [...current.conditions, { field: "email", op: "contains", value: domain[1]!.toLowerCase(), label: `e-mail at ${domain[1]}` }],
      };
      continue;
    }
    // "when is review checkout due": a state word right before the name may be the name's first word (the task
    // "Review checkout"); a record of R so named is the subject, and the word no state.
    const stated = span.before ? current.conditions.find((c) => c.label === span.before) : undefined;
    if (stated && R.nameField) {
      const whole = await findNamed(fetch, [R], `${span.before} ${span.text}`);
      const exactly = (candidate: Candidate) => normalisedName(candidate.label).endsWith(normalisedName(`${span.before} ${span.text}`));
      const options = whole.kind === "one" ? [whole.found] : whole.kind === "many" ? whole.options.filter(exactly) : [];
      const chosen = options.length === 1 ? options[0]! : options.length > 1 ? await narrowByOthers(fetch, schema, options, spans, index) : null;
      const unstated = { ...current, conditions: current.conditions.filter((c) => c !== stated) };
      if (chosen) {
        current = applyRole(unstated, { subject: true }, { resource: R.name, id: chosen.record.id, label: chosen.label });
        continue;
      }
      if (options.length > 1)
        return { kind: "choose", text: `${span.before} ${span.text}`, options, resume: { kind: "query", query: unstated, role: { subject: true } } };
    }
    const [values, found] = await lookups[index]!;
    const value = values.find((entry) => entry !== null);
    if (value) {
      const label = `${span.negated ? "not " : ""}${value.name.replace(/_/g, " ")} ${value.value}`;
      // ("customers in germany" → "and in the US?": the follow-up's country replaces the last one's.)
      const kept = current.conditions.filter((c) => span.negated || !inherited.has(c) || !("param" in c) || c.param !== value.name);
      current = {
        ...current,
        conditions: [...kept, { param: value.name, value: String(value.value), label, ...(span.negated ? { negate: true } : {}) }],
      };
      continue;
    }
    if (found.kind === "error") return { kind: "error", error: found.error };
    // "invoices for acme, acme labs and acme holdings": each name of a list, one record each, any of them.
    // (Also over one record a list's words only resemble: "security audit and partner api" is two projects, not
    // the Security audit project; a name said whole — "Procter and Gamble" — stays one.)
    const saidWhole = found.kind === "one" && normalisedName(found.found.label) === normalisedName(span.text);
    if ((found.kind === "none" || (found.kind === "one" && !saidWhole)) && span.parts) {
      const each = await Promise.all(span.parts.map((part) => findNamedWithNoun(fetch, span.own ? [R] : candidatesFor(R, schema), part)));
      const ones = each.flatMap((one) => (one.kind === "one" ? [one.found] : []));
      const role = ones.length === each.length && ones.every((one) => one.resource === ones[0]!.resource) ? roleOf(R, ones[0]!.resource, span.trigger) : null;
      if (role && "field" in role) {
        const [first, ...rest] = ones;
        current = applyRole(current, role, { resource: first!.resource.name, id: first!.record.id, label: first!.label });
        for (const one of rest)
          current = { ...current, conditions: [...current.conditions, { field: role.field, op: "eq", value: one.record.id, label: `for ${one.label}` }] };
        continue;
      }
    }
    if (found.kind === "none") {
      // "the sales job": no record so named, but the one record of the noun's resource with that value.
      const valued = await onlyRecordWithValue(fetch, schema, span.text, valuesOf);
      const valuedRole = valued ? roleOf(R, valued.resource, span.trigger) : null;
      if (valued && valuedRole) {
        current = applyRole(current, valuedRole, { resource: valued.resource.name, id: valued.record.id, label: valued.label }, span.negated);
        continue;
      }
      // Words of such values ("engineers" → every designation with the word engineer).
      if (exact) {
        current = withValue(exact.field, valueCondition(exact.field, exact.values, span.negated === true), span.negated === true);
        continue;
      }
      // "hours each engineer logged", "hours logged by engineers": a value of the records R's records refer to.
      const referred = await referredByValue(fetch, schema, R, span.text, valuesOf);
      if (referred) {
        current = { ...current, conditions: [...current.conditions, { ...referred, ...(span.negated ? { op: "not_in" as const } : {}) }] };
        continue;
      }
      if (looksLikeName(span)) notFound.push(span.text);
      continue;
    }
    // "candidates called Sophie": every one of them whose name has it, not a choice among them.
    if (found.kind === "many" && span.called && R.nameField && found.options.filter((option) => option.resource === R).length > 1) {
      current = { ...current, conditions: [...current.conditions, { field: R.nameField, op: "contains", value: span.text, label: `named ${span.text}` }] };
      continue;
    }
    if (found.kind === "many") {
      // "email for tim at massive dynamic": people told apart by where they work, said as another name.
      const atCompany = byCompany(found.all ?? found.options, spans, index);
      if (atCompany.length === 1) {
        const role = roleOf(R, atCompany[0]!.resource, span.trigger);
        if (role) current = applyRole(current, role, { resource: atCompany[0]!.resource.name, id: atCompany[0]!.record.id, label: atCompany[0]!.label });
        continue;
      }
      if (atCompany.length > 1) {
        const role = roleOf(R, atCompany[0]!.resource, span.trigger);
        if (role) return { kind: "choose", text: span.text, options: atCompany, resume: { kind: "query", query: current, role } };
      }
      // "fix dashboard on the mobile app": another name of the message narrows the candidates to one.
      const narrowed = await narrowByOthers(fetch, schema, found.options, spans, index);
      if (narrowed) {
        const role = roleOf(R, narrowed.resource, span.trigger);
        if (role) current = applyRole(current, role, { resource: narrowed.resource.name, id: narrowed.record.id, label: narrowed.label });
        continue;
      }
      const role = roleOf(R, found.options[0]!.resource, span.trigger);
      if (role) return { kind: "choose", text: span.text, options: found.options, resume: { kind: "query", query: current, role } };
      continue;
    }
    const role = roleOf(R, found.found.resource, span.trigger);
    if (!role) {
      if (looksLikeName(span)) notFound.push(span.text);
      continue;
    }
    current = applyRole(current, role, { resource: found.found.resource.name, id: found.found.record.id, label: found.found.label }, span.negated);
  }
  return { kind: "query", query: { ...current, conditions: eitherOf(current.conditions) }, resource: R, notFound };
}

/**
 * A value of a field of the records R refers to ("engineers": the designations with the word, of the employees
 * a time entry is of): the condition that R's reference is one of those records. Null unless the value is exact
 * and at most 100 records have it.
 */
async function referredByValue(fetch: Fetch, schema: SchemaModel, R: ResourceModel, text: string, values: Values): Promise<Condition | null> {
  const person = R.skill?.person?.param;
  const references = [...R.fields.values()]
    .filter((field) => field.target && field.target !== R.name)
    .sort((a, b) => Number(b.name === person) - Number(a.name === person));
  for (const field of references) {
    const target = schema.byName.get(field.target!);
    if (!target) continue;
    const match = matchValue(await values(target), text, (name) => target.filters.has(name));
    if (!match?.exact) continue;
    const rows = await fetch(`/${target.name}?${match.field}=${encodeURIComponent(match.values.join(","))}&limit=100`);
    if (!rows.ok || rows.data.length === 0 || rows.data.length >= 100) continue;
    const label = `${target.plural ?? target.name} of ${match.field.replace(/_/g, " ")} ${match.values.join(" or ")}`;
    return { field: field.name, op: "in", value: rows.data.map((row) => row.id), label };
  }
  return null;
}

/** "the senior engineer job", "the mobile app project": a name followed by its resource's noun is looked for there. */
function findNamedWithNoun(fetch: Fetch, candidates: ResourceModel[], text: string) {
  const words = text.trim().split(/\s+/);
  const last = words.at(-1)!.toLowerCase();
  const owner = words.length > 1 ? candidates.find((resource) => resource.nouns.some((noun) => noun === last)) : undefined;
  return owner ? findNamed(fetch, [owner], words.slice(0, -1).join(" ")) : findNamed(fetch, candidates, text);
}

/** "the sales job", "the berlin opening": words that are a value of one record only, of the resource its noun names. */
async function onlyRecordWithValue(fetch: Fetch, schema: SchemaModel, text: string, values: Values): Promise<Candidate | null> {
  const words = text.trim().split(/\s+/);
  const noun = words.at(-1)!.toLowerCase();
  const owner = words.length > 1 ? schema.resources.find((resource) => resource.nameField && resource.nouns.includes(noun) && !/s$/.test(noun)) : undefined;
  if (!owner) return null;
  const value = matchValue(await values(owner), words.slice(0, -1).join(" "));
  if (!value?.exact || value.values.length !== 1) return null;
  const result = await fetch(`/${owner.name}?${value.field}=${encodeURIComponent(value.values[0]!)}&limit=2`);
  if (!result.ok || result.data.length !== 1) return null;
  return { resource: owner, record: result.data[0]!, label: labelOf(owner, result.data[0]!) };
}

/** "contacts at Hooli or Wayne": two values found for one field are either. */
function eitherOf(conditions: Condition[]): Condition[] {
  const out: Condition[] = [];
  for (const condition of conditions) {
    const same =
      "field" in condition && condition.op === "eq"
        ? out.find((c) => "field" in c && c.field === condition.field && (c.op === "eq" || c.op === "in"))
        : undefined;
    if (same && "field" in same && "field" in condition && same.value !== condition.value) {
      const values = [...(Array.isArray(same.value) ? same.value : [same.value]), condition.value];
      Object.assign(same, { op: "in", value: [...new Set(values)], label: `${same.label} or ${condition.label}` });
    } else out.push(condition);
  }
  return out;
}

/** The one candidate whose parent record (a task's project) another span of the message names. */
export async function narrowByOthers(fetch: Fetch, schema: SchemaModel, options: Candidate[], spans: NameSpan[], self: number): Promise<Candidate | null> {
  const R = options[0]!.resource;
  const parents = [...R.fields.values()].filter((field) => field.target && schema.byName.get(field.target)?.nameField);
  for (const [index, span] of spans.entries()) {
    if (index === self) continue;
    for (const parent of parents) {
      const found = await findNamed(fetch, [schema.byName.get(parent.target!)!], span.text);
      if (found.kind !== "one") continue;
      const matching = options.filter((option) => option.record[parent.name] === found.found.record.id);
      if (matching.length === 1) {
        // Used up: kept in place (its words) with no text, so it is not looked up again.
        spans.splice(index, 1, { ...span, text: "" });
        return matching[0]!;
      }
    }
  }
  return null;
}

/**
 * "tim at massive dynamic", "brian over at acme": of several people so named, those whose company is another
 * name the message says (that name is then used up). None when no other name is anyone's company.
 */
export function byCompany(options: Candidate[], spans: NameSpan[], self: number): Candidate[] {
  for (const [index, span] of spans.entries()) {
    if (index === self || !span.text) continue;
    const matching = atCompany(options, span.text);
    if (matching.length === 0 || matching.length === options.length) continue;
    spans.splice(index, 1, { ...span, text: "" });
    return matching;
  }
  return [];
}

/**
 * "status of Ship emails in Partner API": the words after a name, read as something else ("emails", a field),
 * may go on with it. Those options whose whole name is the span and the next one or two words, the longest first.
 */
export function goesOn(options: Candidate[], words: string[], span: NameSpan): Candidate[] {
  const end = span.indexes.at(-1);
  if (end === undefined) return [];
  for (const more of [2, 1]) {
    const next = words.slice(end + 1, end + 1 + more);
    if (next.length < more) continue;
    // (Words are read singular — "emails" as "email" — so each is compared without its plural "s".)
    const singular = (text: string) => normalisedName(text).replace(/(?<=\p{L}{3})s\b/gu, "");
    const said = singular(`${span.text} ${next.join(" ")}`);
    const named = options.filter((option) => singular(nameOf(option.resource, option.record)) === said);
    if (named.length > 0) return named;
  }
  return [];
}

/** "Germany", "the US", "uk", "DE" → an ISO 3166-1 alpha-2 code (Intl knows the names). */
export function countryCode(text: string): string | null {
  const name = text
    .trim()
    .toLowerCase()
    .replace(/^the\s+/, "");
  const aliases: Record<string, string> = {
    us: "US",
    usa: "US",
    america: "US",
    "united states": "US",
    uk: "GB",
    britain: "GB",
    england: "GB",
    "great britain": "GB",
  };
  if (aliases[name]) return aliases[name];
  if (/^[a-z]{2}$/.test(name)) return name.toUpperCase();
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  // Codes withdrawn from ISO 3166-1 that Intl still names (East Germany is "Germany" too).
  const withdrawn = new Set(["DD", "FX", "YU", "CS", "ZR", "TP", "BU", "SU", "NT", "YD", "VD", "QU", "UK", "EU", "EZ", "UN"]);
  for (let a = 65; a < 91; a++)
    for (let b = 65; b < 91; b++) {
      const code = String.fromCharCode(a, b);
      if (withdrawn.has(code)) continue;
      try {
        if (names.of(code)?.toLowerCase() === name) return code;
      } catch {
        // Not a region code.
      }
    }
  return null;
}

/** Words that were meant as a name or value (not shorthand or chatter the parser did not need). */
function looksLikeName(span: NameSpan): boolean {
  return span.trigger !== null || /\p{Lu}/u.test(span.text) || span.text.split(" ").some((word) => word.length >= 4);
}
