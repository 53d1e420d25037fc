import { findAmount } from "../amounts";
import { findRange } from "../dates";
import { escapeRegExp, NUMBER_WORDS } from "../text";
import { conditionsOf, type Hit, isPreposition, matchPhrases, negatedAt, nounsIn, shiftIso, before as wordBefore } from "./lexicon";
import type { ResourceModel, SchemaModel } from "./model";
import { type Aggregate, type Condition, OPEN_END, type Period, type Query } from "./query";
import { FILLER, GRAMMAR, indexesIn, occurrences, rawOf, type Words } from "./words";

/**
 * A question → a draft query: the resource, the conditions (kept and combined, negated, compared), the
 * period with the date field its verb implies, the aggregate (count, sum, average, min, max, group-by,
 * ranking) and the names still to be found in the workspace (see resolve.ts). Reads no data.
 */

/** `own`: the name is right before the resource's own noun ("the Acme deal"), so it is one of those records. */
export type NameSpan = {
  text: string;
  indexes: number[];
  trigger: string | null;
  negated?: boolean;
  own?: boolean;
  /** The word right before it, when that word is no grammar ("staff" of "staff engineers"). */
  before?: string;
  /** After "called" or "named": a name that may be part of several ("candidates called Sophie"). */
  called?: boolean;
  /** "acme, acme labs and acme holdings": the names of a list, when the whole is no one name. */
  parts?: string[];
};

export type QueryDraft = {
  resource: ResourceModel | null;
  conditions: Condition[];
  period: Period | null;
  aggregate: Aggregate;
  show: string | null;
  names: NameSpan[];
  /** "which customers owe…": a noun of a resource the question's resource refers to. */
  by: ResourceModel | null;
  /** "who has the most…": grouped by the resource's person. */
  who: boolean;
  /** "task 57", "INV-000012": a record named by its reference. */
  reference: { resource: ResourceModel; id?: number; q?: string } | null;
  /** Cues that it continues the last question ("and", "what about", "only", "those"). */
  followUp: boolean;
  /** The measure's name, when a measure word asked for the number. */
  title?: string;
  /** Which parts were said (a follow-up keeps the rest). */
  said: {
    resource: boolean;
    aggregate: boolean;
    period: boolean;
    fn: boolean;
    noun?: boolean;
    dateField?: boolean;
    field?: boolean;
    onlyOrder?: boolean;
    impliedState?: boolean;
  };
};

const DESC = ["biggest", "largest", "highest", "most", "top", "best", "max", "maximum", "most expensive", "most valuable", "priciest", "greatest", "longest"];
const ASC = ["smallest", "lowest", "least", "fewest", "cheapest", "min", "minimum", "worst", "shortest"];
const NEWEST = ["latest", "newest", "most recent", "most recently", "recently", "recent", "last", "lately"];
const OLDEST = ["oldest", "earliest", "first"];
/** The states that end a record's progress without success: "past screening" is a later stage but not these. */
const SETBACKS: ReadonlySet<string> = new Set(["rejected", "lost", "unqualified", "void", "cancelled", "declined", "withdrawn"]);
const PERSON_WORDS = [
  "person",
  "people",
  "employee",
  "employees",
  "assignee",
  "assignees",
  "who",
  "rep",
  "reps",
  "owner",
  "owners",
  "staff",
  "someone",
  "everyone",
  "each person",
];
// "by" looks forward before a date ("by friday", "by the 15th", "by end of month"), not in "customers by total".
const FUTURE =
  /\b(?:due|deadline|next|upcoming|coming|expected|ending|end|ends|closing|close|start|starts|starting|wrapping up|wraps up|finishing)\b|\bby (?:the )?(?:end|eo[dwmq]|tomorrow|tonight|today|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d|next|this)/;

function dayIso(now: number) {
  return new Date(now).toISOString().slice(0, 10);
}

/** Blank out characters already claimed, keeping offsets. */
function mask(text: string, spans: [number, number][]) {
  let out = text;
  for (const [start, end] of spans) out = out.slice(0, start) + " ".repeat(end - start) + out.slice(end);
  return out;
}

/**
 * `fallback`: the resource of the question this one may continue, when it names none itself; `forced`: it is
 * the question's resource even if another noun is said (the nouns of what it refers to are then no names).
 */
export function parseQuery(w: Words, schema: SchemaModel, now: number, fallback?: ResourceModel, forced = false): QueryDraft {
  const taken = new Set<number>();
  const today = dayIso(now);
  const claimed: [number, number][] = [];
  const claim = (indexes: number[]) => {
    for (const i of indexes) taken.add(i);
  };
  const text = w.words.join(" ");
  const lowerText = w.text.toLowerCase();

  // A record by its reference: "task 57", "INV-000012", "invoice 245".
  let reference: QueryDraft["reference"] = null;
  for (const resource of schema.resources) {
    const pattern = resource.skill?.reference?.pattern;
    const match = pattern?.exec(w.text);
    if (!match || !resource.skill?.reference) continue;
    const query = resource.skill.reference.query(match[1] ?? match[0]);
    reference = { resource, ...(query.id ? { id: Number(query.id) } : { q: query.q! }) };
    claim(indexesIn(w, match.index, match.index + match[0].length));
    claimed.push([match.index, match.index + match[0].length]);
    break;
  }

  // "overdue by more than 60 days", "older than 30 days": a number of days against a date.
  const conditionsByDays: { kind: "overdue" | "older"; op: "gt" | "lt"; days: number }[] = [];
  // ("more than 60 days overdue", "older than 2 weeks": either order, days, weeks or months.)
  const unitDays = (unit: string) => (unit.startsWith("week") ? 7 : unit.startsWith("month") ? 30 : 1);
  const daysFirst = /\b(overdue|late|past due|older|old)\s+(?:by\s+)?(more than|over|at least|less than|under|than)\s+(\d+)\s+(days?|weeks?|months?)\b/.exec(
    lowerText,
  );
  const daysLast = /\b(more than|over|at least|less than|under)\s+(\d+)\s+(days?|weeks?|months?)\s+(overdue|late|past due|old)\b/.exec(lowerText);
  const days = daysFirst
    ? { at: daysFirst.index, text: daysFirst[0], kind: daysFirst[1]!, cmp: daysFirst[2]!, n: Number(daysFirst[3]) * unitDays(daysFirst[4]!) }
    : daysLast
      ? { at: daysLast.index, text: daysLast[0], kind: daysLast[4]!, cmp: daysLast[1]!, n: Number(daysLast[2]) * unitDays(daysLast[3]!) }
      : null;
  if (days) {
    conditionsByDays.push({ kind: /older|old/.test(days.kind) ? "older" : "overdue", op: /less|under/.test(days.cmp) ? "lt" : "gt", days: days.n });
    claim(indexesIn(w, days.at, days.at + days.text.length));
    claimed.push([days.at, days.at + days.text.length]);
  }

  // Hours compared: "entries over 8 hours".
  let hours: { op: "gt" | "lt" | "gte" | "lte"; minutes: number } | null = null;
  // ("4 hours or more", "30 minutes or less": the comparison after the amount.)
  const hourAfter = /\b(\d+(?:\.\d+)?)\s+(hours|minutes)\s+or\s+(more|longer|over|above|less|shorter|under|below)\b/.exec(lowerText);
  const hourMatch =
    /\b(more than|over|at least|longer than|less than|under|at most|shorter than)\s+(\d+(?:\.\d+)?)\s+(hours|minutes)\b/.exec(lowerText) ??
    (hourAfter
      ? Object.assign([hourAfter[0], /more|longer|over|above/.test(hourAfter[3]!) ? "at least" : "at most", hourAfter[1], hourAfter[2]], {
          index: hourAfter.index,
        })
      : null);
  if (hourMatch) {
    const amount = Number(hourMatch[2]) * (hourMatch[3] === "hours" ? 60 : 1);
    const op = hourMatch[1] === "at most" ? "lte" : /less|under|shorter/.test(hourMatch[1]!) ? "lt" : hourMatch[1] === "at least" ? "gte" : "gt";
    hours = { op, minutes: amount };
    claim(indexesIn(w, hourMatch.index, hourMatch.index + hourMatch[0]!.length));
    claimed.push([hourMatch.index, hourMatch.index + hourMatch[0]!.length]);
  }

  // Money compared: "over 5k", "between $1,000 and $5,000", "under 500 EUR".
  const amount = findAmount(mask(w.text, claimed));
  if (amount) {
    claim(indexesIn(w, amount.start, amount.end));
    claimed.push([amount.start, amount.end]);
  }

  // Ranking size: "top 5", "3 biggest".
  let limit: number | null = null;
  const top =
    // ("the last 2 weeks" is a period, not a top 2.)
    /\b(?:top|first|best|biggest|largest|highest|smallest|lowest|latest|last|newest|oldest)\s+(\d{1,3}|three|five|ten|two|four|six|seven|eight|nine|twenty)\b(?!\s*(?:days?|weeks?|months?|years?|quarters?|hours?)\b)/.exec(
      text,
    ) ?? /\b(\d{1,3}|three|five|ten|two|four)\s+(?:biggest|largest|highest|smallest|lowest|latest|newest|oldest|most|best|top|recent)\b/.exec(text);
  if (top) {
    limit = Number(top[1]) || NUMBER_WORDS[top[1]!] || null;
    const at = occurrences(w.words, top[1]!)[0];
    if (at) claim(at);
  }

  // The period and the date field its verb implies.
  // ("did guido close out …", "closed out" look back.)
  const future = FUTURE.test(text.replace(/\bclosed? out\b/g, "")) && !/\b(last|past|previous|ago|did)\b/.test(text);
  // "rn", "right now", "currently": the present, not a period.
  for (const match of w.text.matchAll(/\b(right now|now|currently|at the moment|atm|as of today|so far)\b/gi))
    claimed.push([match.index, match.index + match[0].length]);
  const range = findRange(mask(w.text, claimed), now, future ? "future" : "past");
  let periodAt: number[] = [];
  if (range) {
    periodAt = indexesIn(w, range.start, range.end);
    // "what did she work on last monday": the "on" is the verb's ("work on"), not the date's.
    const verb = `${w.words[periodAt[0]! - 1]} ${w.words[periodAt[0]!]}`;
    if (periodAt.length > 1 && schema.resources.some((resource) => resource.dateWords.some((date) => date.words.includes(verb)))) periodAt = periodAt.slice(1);
    claim(periodAt);
  }

  // Nouns, measures, states, fields.
  const nouns = nounsIn(w, schema, taken);
  // "product marketer candidates", "account executive candidates": a noun, one word that is no part of the
  // grammar, then the noun the phrase is about (which does not refer to the first) — the first is a name's word.
  for (let i = nouns.length - 2; i >= 0; i--) {
    const [first, head] = [nouns[i]!, nouns[i + 1]!];
    const between = first.indexes.at(-1)! + 1;
    const word = w.words[between]!;
    if (
      head.indexes[0] === between + 1 &&
      !FILLER.has(word) &&
      !GRAMMAR.has(word) &&
      !/^\d/.test(word) &&
      head.value !== first.value &&
      ![...head.value.fields.values()].some((field) => field.target === first.value.name)
    )
      nouns.splice(i, 1);
  }
  // "initial contact deals": a noun that ends one of the next noun's own values (a deal's stage) is that value.
  for (let i = nouns.length - 2; i >= 0; i--) {
    const [first, head] = [nouns[i]!, nouns[i + 1]!];
    const at = first.indexes.at(-1)!;
    const phrase = `${w.words[first.indexes[0]! - 1]} ${w.words.slice(first.indexes[0]!, at + 1).join(" ")}`;
    const valueOfHead = [...head.value.fields.values()].some((field) => field.values?.some((value) => value.replace(/_/g, " ") === phrase));
    if (head.indexes[0] === at + 1 && head.value !== first.value && valueOfHead) nouns.splice(i, 1);
  }
  // Each resource's words are matched on their own: "due" is an invoice's and a task's date word at once.
  const free0 = () => new Set([...taken, ...nouns.flatMap((noun) => noun.indexes)]);
  const measureHits = schema.resources
    .flatMap((resource) =>
      matchPhrases(
        w.words,
        (resource.skill?.measures ?? []).map((measure) => ({ phrases: measure.words, value: { resource, measure } })),
        free0(),
      ),
    )
    .sort((a, b) => b.indexes.length - a.indexes.length || a.indexes[0]! - b.indexes[0]!);
  // "in progress" is a state, not the projects' "progress": a longer state phrase wins over a measure word.
  const stateSpans = matchPhrases(
    w.words,
    schema.resources.flatMap((resource) => (resource.skill?.filters ?? []).map((filter) => ({ phrases: filter.words, value: resource }))),
    new Set(taken),
  );
  // (A word that may be a person's name: capitalised, or no word of the schema or the grammar.)
  const personBefore = (at: number) => {
    const word = w.words[at] ?? "";
    if (!word || taken.has(at) || FILLER.has(word) || GRAMMAR.has(word) || measureHits.some((other) => other.indexes.includes(at))) return false;
    return /^\p{Lu}/u.test(w.tokens[at]?.raw ?? "") || !nouns.some((noun) => noun.indexes.includes(at));
  };
  for (let i = measureHits.length - 1; i >= 0; i--) {
    const hit = measureHits[i]!;
    if (stateSpans.some((state) => state.indexes.length > hit.indexes.length && hit.indexes.every((k) => state.indexes.includes(k)))) measureHits.splice(i, 1);
    // "hasn't been paid": a measure word negated is the state it shares a word with (an unpaid invoice), not an amount.
    else if (negatedAt(w, hit.indexes[0]!) && stateSpans.some((state) => hit.indexes.every((k) => state.indexes.includes(k)))) measureHits.splice(i, 1);
    // "brian from sales", "Tim in sales": after a person's "from"/"in", a measure word is their department.
    else if (
      ["from", "in"].includes(w.words[hit.indexes[0]! - 1] ?? "") &&
      !/^(?:how much|what(?:'s| is| was)? (?:the )?(?:total|revenue)|total|revenue|sum)\b/.test(text) &&
      personBefore(hit.indexes[0]! - 2)
    )
      measureHits.splice(i, 1);
    // "the sales job": a measure word before one record's noun of another resource is that record's name.
    else {
      const next = nouns.find((noun) => noun.indexes[0] === hit.indexes.at(-1)! + 1);
      if (
        next &&
        next.value !== hit.value.resource &&
        next.value.nameField &&
        !/s$/.test(w.words[next.indexes.at(-1)!]!) &&
        w.words[hit.indexes[0]! - 1] === "the"
      )
        measureHits.splice(i, 1);
    }
  }
  const dateVerbHits = schema.resources
    .flatMap((resource) =>
      matchPhrases(
        w.words,
        resource.dateWords.map((date) => ({ phrases: date.words, value: { resource, field: date.field, alone: date.alone } })),
        free0(),
      ),
    )
    // (Of the resources one word is said of, the one it is said of alone comes first.)
    .sort((a, b) => a.indexes[0]! - b.indexes[0]! || Number(Boolean(b.value.alone)) - Number(Boolean(a.value.alone)));

  // The resource: the first noun that is not the object of a preposition, else what the measure or verb is about.
  const free = nouns.filter((noun) => !noun.object);
  // "people who applied last week": a word for anyone, with the verb of a resource of named people (an
  // applicant applies), is that resource's records.
  const anyone = free[0]?.indexes.every((i) =>
    ["people", "person", "persons", "folks", "anyone", "someone", "everyone", "everybody", "anybody"].includes(w.words[i]!),
  );
  // ("everyone still in the running for account executive": or with a state only such people are in.)
  // ("how many people have we hired this year": a verb said of the word's own resource too — an employee's joining — is theirs.)
  const ownVerb = anyone && dateVerbHits.some((hit) => hit.value.resource === free[0]!.value);
  const doers = anyone
    ? ((ownVerb ? undefined : dateVerbHits.find((hit) => hit.value.resource !== free[0]!.value && hit.value.resource.nameField)?.value.resource) ??
      stateSpans.find((span) => span.value !== free[0]!.value && span.value.nameField && span.indexes.length > 1)?.value)
    : undefined;
  if (doers) {
    claim(free[0]!.indexes);
    free.splice(0, 1, { ...free[0]!, value: doers });
  }
  let resource: ResourceModel | null = (forced ? fallback : undefined) ?? free[0]?.value ?? null;
  let by: ResourceModel | null = null;
  let fieldOwner = false;
  let measure: Hit<{ resource: ResourceModel; measure: NonNullable<ResourceModel["skill"]>["measures"] extends (infer M)[] | undefined ? M : never }> | null =
    null;
  const ownMeasure = (candidate: ResourceModel) => measureHits.find((hit) => hit.value.resource === candidate) ?? null;
  // "who's the contact on the deal X": the first noun names a field of the record the second noun is.
  const holder = resource
    ? nouns.find(
        (noun) =>
          noun.object &&
          noun.value !== resource &&
          [...noun.value.fields.values()].some((f) => f.target === resource!.name) &&
          noun.indexes[0]! <= (free[0]?.indexes.at(-1) ?? 0) + 3,
      )
    : undefined;
  if (
    holder &&
    /^(?:(?:and|so|ok|okay|then|also) )?(?:who|whos|who's|what|whats|what's|which)\b/.test(text) &&
    !/\b(?:how many|count|number of|most|least|top|per|each|all)\b/.test(text)
  )
    resource = holder.value;
  if (resource) {
    measure = ownMeasure(resource);
    // "which project has the most tasks": the second noun's resource refers to the first's.
    const second = free.find((noun) => noun.value !== resource);
    if (
      second &&
      !measure &&
      [...second.value.fields.values()].some((field) => field.target === resource!.name) &&
      /\b(which|who|what|most|least|top|per|each)\b/.test(text)
    ) {
      by = resource;
      resource = second.value;
      measure = ownMeasure(resource);
    }
    // A measure word that is one of the noun's own state words ("part paid invoices") is a state.
    const ownStates = new Set(
      matchPhrases(
        w.words,
        (resource.skill?.filters ?? []).map((filter) => ({ phrases: filter.words, value: true })),
        new Set(),
      ).flatMap((hit) => hit.indexes),
    );
    if (!measure && !by) {
      // "which customers owe us the most": the measure's resource refers to the noun's.
      const referring = measureHits.find(
        (hit) => [...hit.value.resource.fields.values()].some((field) => field.target === resource!.name) && !hit.indexes.some((i) => ownStates.has(i)),
      );
      // ("how far along is the customer portal": a per-record measure reads the noun as part of a name.)
      const cue = /\b(which|who|whom|most|least|top|per|each|rank|biggest|largest|highest)\b/.test(text) || Boolean(referring?.value.measure.show);
      if (referring && !free.some((noun) => noun.value === referring.value.resource) && cue) {
        by = resource;
        resource = referring.value.resource;
        measure = referring;
      }
    }
  } else if (fallback && !measureHits.some((hit) => hit.value.resource !== fallback && !ownMeasure(fallback))) {
    // ("whats the email for the customer Wonka Labs" after a list of invoices: a field the last resource lacks, asked
    // of a record named with its own noun, is that record's.)
    const fieldOf = (candidate: ResourceModel) =>
      matchPhrases(
        w.words,
        [...candidate.fields.values()]
          .filter((f) => f.kind !== "reference")
          .map((f) => ({ phrases: f.words.filter((word) => word.length > 2), value: f.name })),
        new Set(taken),
      ).length > 0;
    const owner = fieldOf(fallback) ? undefined : nouns.find((noun) => noun.object && noun.value !== fallback && fieldOf(noun.value));
    fieldOwner = Boolean(owner);
    resource = owner?.value ?? fallback;
    measure = ownMeasure(resource);
  } else {
    measure = measureHits[0] ?? null;
    // ("how much is left on INV-000141": the record named by its number decides before a state word of another resource.)
    // ("what's due this week that isn't done": of the resources "due" is said of, the one whose state is named.)
    const verbOwners = dateVerbHits.filter((hit) => hit.indexes[0] === dateVerbHits[0]!.indexes[0]).map((hit) => hit.value.resource);
    const stated = verbOwners.length > 1 ? (statedAmong(w, verbOwners, taken) ?? someonesOwn(w, verbOwners)) : null;
    resource =
      measure?.value.resource ??
      (stated && verbOwners.includes(stated) ? stated : null) ??
      // ("when is task 143 due": of the resources "due" is said of, the one whose record is named by its number.)
      (reference && dateVerbHits.some((hit) => hit.value.resource === reference!.resource) ? reference.resource : null) ??
      dateVerbHits[0]?.value.resource ??
      reference?.resource ??
      stateResource(w, schema, taken) ??
      nouns[0]?.value ??
      amountFieldOwner(w, schema, taken) ??
      null;
    if (measure && nouns[0] && nouns[0].value !== resource) {
      // "hours on the customer portal" — the noun is part of a name; "hours per project" — it groups.
      if ([...resource!.fields.values()].some((field) => field.target === nouns[0]!.value.name)) by = nouns[0].value;
    }
  }
  for (const noun of nouns) if (noun.value === resource || (noun.value === by && !noun.object)) claim(noun.indexes);
  if (forced && resource) for (const noun of nouns) if ([...resource.fields.values()].some((field) => field.target === noun.value.name)) claim(noun.indexes);
  for (const hit of measureHits) if (hit.value.resource === resource) claim(hit.indexes);
  const said: QueryDraft["said"] = {
    resource: Boolean(free[0]) || (resource !== null && resource !== fallback && Boolean(measure || dateVerbHits[0] || fieldOwner)),
    // The resource named by its noun (not only implied by a verb such as "due" that several resources share).
    noun: Boolean(free[0]),
    aggregate: false,
    period: Boolean(range),
    fn: false,
  };

  const conditions: Condition[] = [];
  let show: string | null = null;
  let groupBy: string | null = null;
  let who = false;
  let fn: Aggregate["fn"] = "list";
  let field: string | null = null;
  let order: Aggregate["order"] = null;
  let title: string | undefined;

  if (resource) {
    const R = resource;
    // The verb that dates the period ("invoices sent since monday") is not also a state ("sent").
    // Unless the date field is shared by several states ("won" and "lost" both set closed_at): then the word is both.
    if (range) {
      const enumValues = new Set([...R.fields.values()].flatMap((f) => f.values ?? []));
      const verb = dateVerbHits.filter(
        (hit) =>
          hit.value.resource === R &&
          hit.indexes[0]! < (periodAt[0] ?? 0) &&
          (periodAt[0] ?? 0) - hit.indexes.at(-1)! <= 2 &&
          R.dateWords
            .filter((date) => date.field === hit.value.field)
            .flatMap((date) => date.words)
            .filter((word) => enumValues.has(word)).length < 2,
      );
      for (const hit of verb) claim(hit.indexes);
    }
    // States: the skill's filter words, then every enum value and boolean of the definition.
    const stateCandidates = [
      ...(R.skill?.filters ?? []).map((filter) => ({ phrases: filter.words, value: { query: filter.query, label: filter.label } })),
      ...[...R.fields.values()].flatMap((f) =>
        f.kind === "enum"
          ? (f.values ?? []).map((value) => ({ phrases: statePhrases(value), value: { query: { [f.name]: value }, label: value.replace(/_/g, " ") } }))
          : f.kind === "boolean"
            ? [{ phrases: [f.name.replace(/_/g, " ")], value: { query: { [f.name]: "true" }, label: f.name } }]
            : [],
      ),
    ];
    // A "new lead this week" is a lead created this week, not one whose status is new.
    const stateTaken = new Set(taken);
    for (const hit of occurrences(w.words, "new")) if (range && nouns.some((noun) => noun.indexes[0] === hit[0]! + 1)) stateTaken.add(hit[0]!);
    // "how many applied for senior engineer": the act of applying (every candidate), not the first stage.
    for (const hit of occurrences(w.words, "applied")) if (["for", "to"].includes(w.words[hit[0]! + 1] ?? "")) stateTaken.add(hit[0]!);
    let negatedUntil = -2;
    // "is the acme invoice paid yet?": of one record, the state is what is asked, not a filter.
    const asksState = /^(?:is|was|has)\s+(?:the|this|that|our|my)\b/.test(text) && nouns.some((noun) => noun.value === R && !noun.plural);
    for (const hit of matchPhrases(w.words, stateCandidates, stateTaken)) {
      claim(hit.indexes);
      const stateField = Object.keys(hit.value.query)[0];
      if (asksState && stateField && R.fields.get(stateField)?.kind === "enum" && !show) {
        show = stateField;
        continue;
      }
      // "aren't paid or void": a negation carries over "or"/"nor"/"and" to the next state.
      const carried = negatedUntil >= 0 && hit.indexes[0]! === negatedUntil + 2 && ["or", "nor", "and"].includes(w.words[negatedUntil + 1]!);
      const negate = negatedAt(w, hit.indexes[0]!) || carried;
      if (negate) negatedUntil = hit.indexes.at(-1)!;
      // "leads nobody has contacted yet", "not yet paid": not reached, so a state before it in the field's order.
      const [field, value] = Object.entries(hit.value.query)[0] ?? [];
      const order = field ? R.fields.get(field) : undefined;
      const around = w.words.slice(Math.max(0, hit.indexes[0]! - 2), hit.indexes.at(-1)! + 3);
      const yet = around.includes("yet");
      // "hasn't been paid", "not paid yet": awaited, so the state the workspace names "unpaid" when it has one
      // (a draft is not awaiting payment).
      // (Only states on the way to it: a lead "not qualified yet" is not one ruled "unqualified".)
      const before = order?.kind === "enum" && order.values && value ? order.values.slice(0, order.values.indexOf(value)) : [];
      const awaited = R.skill?.filters?.find(
        (filter) =>
          filter.words.includes(`un${w.words.slice(hit.indexes[0]!, hit.indexes.at(-1)! + 1).join(" ")}`) &&
          String(filter.query[field!] ?? "")
            .split(",")
            .every((state) => before.includes(state)),
      );
      if (negate && awaited && (yet || around.includes("been"))) {
        conditions.push(...conditionsOf(R, awaited.query, awaited.label, false, today));
        continue;
      }
      // "made it past screening", "beyond proposal": a state after it in the field's order, short of a refusal.
      const beyond =
        /^(?:past|beyond)$/.test(w.words[hit.indexes[0]! - 1] ?? "") || w.words.slice(hit.indexes[0]! - 2, hit.indexes[0]!).join(" ") === "further than";
      const after = order?.kind === "enum" && order.values && value ? order.values.slice(order.values.indexOf(value) + 1).filter((v) => !SETBACKS.has(v)) : [];
      if (beyond && !negate && after.length > 0) {
        claim(w.words[hit.indexes[0]! - 1] === "than" ? [hit.indexes[0]! - 2, hit.indexes[0]! - 1] : [hit.indexes[0]! - 1]);
        conditions.push({ field: field!, op: "in", value: after, label: `past ${String(value).replace(/_/g, " ")}` });
        continue;
      }
      if (negate && yet && Object.keys(hit.value.query).length === 1 && before.length > 0) {
        conditions.push({ field: field!, op: "in", value: before, label: `not ${hit.value.label} yet` });
        continue;
      }
      conditions.push(...conditionsOf(R, hit.value.query, negate ? notSaid(hit.value.label) : hit.value.label, negate, today));
    }
    // "invoices that went out to ap@wonka.example", "whose email ends with @stark.example": an address (or its
    // end) of the field it is said of — where a record was sent, else its own e-mail.
    let addressed: string | null = null;
    for (const address of w.text.matchAll(/(?:\b(?:ends?|ending)\s+(?:with|in)\s+)?([a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi)) {
      const sentTo = [...R.fields.values()].find((f) => f.kind === "text" && /^sent_to$/.test(f.name));
      const field = sentTo && /\b(?:sent|went|go|goes|gone|going|to)\b/.test(text) ? sentTo : R.fields.get("email");
      if (!field) continue;
      const value = address[1]!.toLowerCase();
      // (Sent to an address is where they went, whatever they are now: no "sent" state, and the address is no field asked.)
      if (field === sentTo) {
        addressed = field.name;
        for (let i = conditions.length - 1; i >= 0; i--) {
          const c = conditions[i]!;
          if ("field" in c && c.value === "sent" && R.fields.get(c.field)?.kind === "enum") conditions.splice(i, 1);
        }
      }
      const partial = value.startsWith("@") || /^(?:ends?|ending)\b/i.test(address[0]);
      conditions.push({
        field: field.name,
        op: partial ? "contains" : "eq",
        value,
        label: `${field.name.replace(/_/g, " ")} ${partial ? "ending " : ""}${value}`,
      });
      claim(indexesIn(w, address.index, address.index + address[0].length));
      for (const word of ["email", "e-mail", "address"]) for (const at of occurrences(w.words, word)) claim(at);
    }
    // Currencies: "in EUR", "the euro ones".
    if (R.fields.has("currency")) {
      // ("in USD vs EUR": each of them.)
      const codes = new Set<string>();
      for (const currency of mask(text, []).matchAll(/\b(usd|eur|gbp|jpy|chf|cad|aud|inr|sek|nok|dkk|pln|euros?|dollars?|pounds?)\b/g)) {
        if (amount?.currency && /\d/.test(text.slice(Math.max(0, currency.index - 12), currency.index))) continue;
        const code = /^euro/.test(currency[1]!)
          ? "EUR"
          : /^dollar/.test(currency[1]!)
            ? "USD"
            : /^pound/.test(currency[1]!)
              ? "GBP"
              : currency[1]!.toUpperCase();
        // ("billed in something other than usd", "not in EUR": any currency but that one.)
        const at = occurrences(w.words, currency[1]!)[0];
        const negated = at !== undefined && negatedAt(w, at[0]!);
        if (!codes.has(code))
          conditions.push(
            negated ? { field: "currency", op: "ne", value: code, label: `not in ${code}` } : { field: "currency", op: "eq", value: code, label: `in ${code}` },
          );
        codes.add(code);
        for (const at of occurrences(w.words, currency[1]!)) claim(at);
      }
    }
    if (amount) {
      const target = fieldNamedNear(w, R, amount.start, amount.end) ?? R.measure;
      // (A count such as an opening's positions is compared as said, not in minor units.)
      const plain = target && R.fields.get(target)?.kind === "number" ? 100 : 1;
      if (plain === 100) {
        if (amount.min !== undefined) amount.min /= 100;
        if (amount.max !== undefined) amount.max /= 100;
      }
      if (target) {
        if (amount.min !== undefined)
          conditions.push({
            field: target,
            op: amount.max !== undefined ? "gte" : "gt",
            value: amount.min,
            label: `over ${(plain === 100 ? amount.min : amount.min / 100).toLocaleString("en-US")}`,
          });
        if (amount.max !== undefined)
          conditions.push({
            field: target,
            op: amount.min !== undefined ? "lte" : "lt",
            value: amount.max,
            label: `under ${(plain === 100 ? amount.max : amount.max / 100).toLocaleString("en-US")}`,
          });
        if (amount.currency && R.fields.has("currency") && !conditions.some((c) => "field" in c && c.field === "currency"))
          conditions.push({ field: "currency", op: "eq", value: amount.currency, label: `in ${amount.currency}` });
        // "more than $5k still due": an amount that only means something in some states (what is still due on
        // an unpaid invoice) brings those states, unless the message says its own.
        const measure = target !== R.measure ? R.skill?.measures?.find((m) => m.field === target && m.where) : undefined;
        for (const [param, raw] of Object.entries(measure?.where ?? {})) {
          if (!conditions.some((c) => ("field" in c ? c.field : c.param) === param || ("param" in c && c.param === "overdue"))) {
            conditions.push(...conditionsOf(R, { [param]: raw }, raw.replace(/^!/, "not ").replace(/,/g, " or ").replace(/_/g, " "), false, today));
            // (Implied, not said: a follow-up keeps the state the last question named — "overdue" → "only where they
            // still owe more than 10k".)
            if (["status", "stage"].includes(param)) said.impliedState = true;
          }
        }
      }
    }
    if (hours) {
      const minutes = [...R.fields.values()].find((f) => f.kind === "minutes");
      if (minutes) conditions.push({ field: minutes.name, op: hours.op, value: hours.minutes, label: `${hours.op} ${hours.minutes} minutes` });
    }
    for (const condition of conditionsByDays) {
      const dateField = condition.kind === "overdue" ? (R.fields.has("due_date") ? "due_date" : null) : "created_at";
      if (!dateField) continue;
      if (condition.kind === "overdue" && R.filters.has("overdue")) conditions.push({ param: "overdue", value: "true", label: "overdue" });
      const bound = shiftIso(today, -condition.days);
      conditions.push({
        field: dateField,
        op: condition.op === "gt" ? "lt" : "gt",
        value: bound,
        label:
          condition.kind === "older"
            ? `${condition.op === "gt" ? "older" : "newer"} than ${condition.days} days`
            : `${condition.kind} by ${condition.op === "gt" ? "more" : "less"} than ${condition.days} days`,
      });
    }
    // "past their expected close date", "whose end date already passed": a date field before today.
    const past =
      /\b(?:past|beyond|after|over)\s+(?:their|its|the|his|her)?\s*([a-z ]+?)\s*(?:date|deadline)\b|\b([a-z ]+?)\s*(?:date|deadline)\s+(?:has\s+|have\s+)?(?:already\s+)?(?:passed|gone by|expired)\b/.exec(
        text,
      );
    if (past) {
      const phrase = `${(past[1] ?? past[2] ?? "").trim()} date`.replace(/^whose |^their /, "").trim();
      const field = [...R.fields.values()].find(
        (f) =>
          (f.kind === "date" || f.kind === "datetime") &&
          (f.words.some((word) => phrase.endsWith(word) || word.endsWith(phrase)) || phrase.endsWith(f.name.replace(/_/g, " "))),
      );
      if (field) {
        conditions.push({ field: field.name, op: "lt", value: today, label: `${field.name.replace(/_/g, " ")} passed` });
        const start = text.slice(0, past.index).split(" ").length - 1;
        claim(Array.from({ length: past[0].split(" ").length }, (_, k) => start + k));
      }
    }
    // "with no due date", "leads with no source", "unassigned tasks": a field that is empty.
    const person = R.skill?.person?.param;
    if (
      person &&
      /\b(unassigned|not assigned to anyone|assigned to nobody|assigned to no one|without an? (assignee|owner)|(?:nobody|no one|noone) owns)\b/.test(text)
    ) {
      conditions.push({ field: person, op: "eq", value: null, label: "unassigned" });
      for (const word of ["unassigned", "anyone", "nobody", "assignee", "owner", "owns"]) claim(occurrences(w.words, word).flat());
    }
    // ("projects with a customer", "which of them have a customer": a field that is filled in.)
    for (const match of text.matchAll(
      /\b(?:(without an?|with no|no|without|(?:missing|lacking)(?: an?)?)|(?:with|(?:that|which|who|them|those|these|ones) (?:have|has)|having) (?:a|an))\s+([a-z]+(?: [a-z]+)?)/g,
    )) {
      const empty = match[1] !== undefined;
      const words = match[2]!.split(" ");
      for (const take of [words.length, 1]) {
        const phrase = words.slice(0, take).join(" ");
        const field = [...R.fields.values()].find((candidate) => candidate.words.includes(phrase) || candidate.name.replace(/_/g, " ") === phrase);
        if (!field || (!empty && field.kind !== "reference" && field.kind !== "date" && field.kind !== "text")) continue;
        conditions.push(
          empty ? { field: field.name, op: "eq", value: null, label: `no ${phrase}` } : { field: field.name, op: "ne", value: null, label: `with a ${phrase}` },
        );
        const start = text.slice(0, match.index).split(" ").length - 1;
        claim(Array.from({ length: match[0].split(" ").length - (words.length - take) }, (_, k) => start + k));
        break;
      }
    }
    // ("invoices with vat", "which invoices had tax on them", "deals with a discount": an amount that is there — more
    // than nothing. Not with a comparison after it: "invoices with tax over 100" compares.)
    for (const match of text.matchAll(
      /\b(?:with|have|has|had|carry|carried|include|included|having) (?:a |an |any |some )?([a-z]+(?: [a-z]+)?)(?=(?: on (?:them|it))?(?:$| (?!over|under|above|below|more|less|of|between|at|than|greater|bigger|smaller|higher|lower)))/g,
    )) {
      const words = match[1]!.split(" ");
      for (const take of [words.length, 1]) {
        const phrase = words.slice(0, take).join(" ");
        const field = [...R.fields.values()].find((candidate) => candidate.words.includes(phrase) || candidate.name.replace(/_/g, " ") === phrase);
        if (field?.kind !== "money" || field.name === R.measure || conditions.some((c) => "field" in c && c.field === field.name)) continue;
        conditions.push({ field: field.name, op: "gt", value: 0, label: `with ${phrase}` });
        const start = text.slice(0, match.index).split(" ").length - 1;
        claim(Array.from({ length: match[0].split(" ").length - (words.length - take) }, (_, k) => start + k));
        break;
      }
    }
    // "billable vs non billable", "won vs lost": both values of one field, side by side.
    if (/\b(vs|versus)\b/.test(text)) {
      const fields = new Map<string, number>();
      for (const condition of conditions) if ("field" in condition) fields.set(condition.field, (fields.get(condition.field) ?? 0) + 1);
      const compared = [...fields].find(([, n]) => n >= 2)?.[0];
      if (compared) {
        // ("card vs cash payments": those two, side by side — not every method.)
        const values: unknown[] = [];
        for (let i = conditions.length - 1; i >= 0; i--) {
          const condition = conditions[i]!;
          if (!("field" in condition) || condition.field !== compared) continue;
          if (condition.op === "eq") values.unshift(condition.value);
          conditions.splice(i, 1);
        }
        if (values.length >= 2) conditions.push({ field: compared, op: "in", value: values, label: values.map(String).join(" or ").replace(/_/g, " ") });
        groupBy = compared;
      }
    }
    // "due before Friday", "due after the 15th": a comparison on a date field, not a period.
    // ("paid by card last week": "by" compares only when the date follows it.)
    // (Also every verb of the resource's own dates: "expected to close before christmas".)
    const verbs = [
      "due|created|issued|paid|closing|ending|joined|applied|added|sent|logged|started|hired|signed|closed|won|lost|made|received|opened|posted|close|end|start|finish",
      ...R.dateWords.flatMap((date) => date.words).map((word) => escapeRegExp(word)),
    ].join("|");
    const compared = new RegExp(`\\b(${verbs})\\s+(before|after|by)\\s+`).exec(lowerText);
    const comparison =
      compared && range && (compared[2] !== "by" || range.start <= compared.index + compared[0].length + 4)
        ? new RegExp(`\\b(${verbs})\\s+(before|after|by)\\b`).exec(text)
        : null;
    let period: Period | null = null;
    if (range) {
      const dateField = dateFieldFor(w, R, periodAt, dateVerbHits);
      // ("and last year?" after "deals we won this year": no verb of its own, so the period keeps its date.)
      said.dateField = dateField !== R.defaultDate || dateFieldFor(w, { ...R, defaultDate: "" }, periodAt, dateVerbHits) !== "";
      if (comparison && dateField) {
        // ("due before the end of this month": up to its last day.)
        const byEnd = comparison[2] === "before" && /\bbefore\s+(?:the\s+)?end\s+of\b/.test(lowerText);
        const op = comparison[2] === "after" ? "gt" : comparison[2] === "by" || byEnd ? "lte" : "lt";
        const value = op === "gt" || byEnd ? range.to : range.from;
        conditions.push({ field: dateField, op, value, label: `${comparison[1]} ${byEnd ? "by" : comparison[2]} ${value}` });
        claim(occurrences(w.words, comparison[2]!).flat());
      } else if (dateField) {
        period = {
          field: dateField,
          from: range.from,
          to: range.to,
          label: range.from === range.to ? `on ${range.from}` : `from ${range.from} to ${range.to}`,
        };
      }
    }
    // "when's the next invoice due", "which task is due soonest", "upcoming deadlines": a date ahead, from today on,
    // soonest first (a date a verb of the record puts ahead: due, closing, ending).
    let upcoming: string | null = null;
    const ahead = range ? null : /\b(?:next|upcoming|coming up|up next)\b/.exec(text);
    // ("open tasks, soonest due first": an order for all of them, overdue ones included.)
    const orderOnly = /\bupcoming\s+(?:\w+\s+){0,2}(?:first|on top|at the top)\b/.test(text);
    if (ahead && !orderOnly && dateVerbHits.some((hit) => hit.value.resource === R) && FUTURE.test(text)) {
      const dateField = dateFieldFor(w, R, [], dateVerbHits);
      if (dateField && !/^(?:created|updated)_at$/.test(dateField)) {
        upcoming = dateField;
        period = { field: dateField, from: today, to: OPEN_END, label: `from ${today} on` };
      }
    }
    // (Said of something without a date ahead, the word still names no record.)
    if (ahead) claim(occurrences(w.words, ahead[0]).flat());
    // Claim the verbs that chose the date field.
    for (const hit of dateVerbHits) if (hit.value.resource === R) claim(hit.indexes);

    // "customers we bill in euros", "who do we invoice": the business's own verb, not a name.
    for (const match of text.matchAll(/\b(?:we|you|i)\s+(?:bill|invoice|charge)\b/g)) claim([text.slice(0, match.index).split(" ").length]);
    // Group by: "by stage", "per project", "for each customer", "split by source".
    // "sorted by due date": an order, not a grouping.
    const sorted = /\b(?:sorted|ordered|sort|order|ranked)\s+by\s+(?:the\s+)?([a-z]+(?:\s[a-z]+)?)/.exec(text);
    let sortField: string | null = null;
    if (sorted) {
      const found =
        groupField(R, schema, sorted[1]!) ??
        (() => {
          const hit = [...R.fields.values()].find((f) => f.words.includes(sorted[1]!) || f.words.includes(sorted[1]!.split(" ")[0]!));
          return hit ? { field: hit.name, words: 1, phrase: sorted[1]! } : null;
        })();
      if (found) {
        sortField = found.field;
        const start = text.slice(0, sorted.index).split(" ").length - 1;
        claim(Array.from({ length: sorted[0].split(" ").length }, (_, k) => start + k));
      }
    }
    // Group by: "by stage", "per project", "for each customer", "split by source" (the word after the trigger, or two).
    let rankedBy: string | null = null;
    const triggers = [
      "broken down by",
      "broken out by",
      "grouped by",
      "group by",
      "breakdown by",
      "split by",
      // ("breakdown of lost reasons", "the split of sources": what is counted, of each value.)
      "breakdown of",
      "split of",
      "distribution of",
      "for each",
      "by",
      "per",
      "each",
      "every",
      "across",
    ];
    groups: for (let i = 0; i < w.words.length && !sorted; i++) {
      for (const trigger of triggers) {
        const length = trigger.split(" ").length;
        if (w.words.slice(i, i + length).join(" ") !== trigger) continue;
        let next = i + length;
        if (w.words[next] === "the") next++;
        const phrase = w.words.slice(next, next + 2).join(" ");
        // ("list every urgent task": all of them, not one row per anything.)
        if ((trigger === "every" || trigger === "each") && !R.nouns.includes(w.words[next] ?? "") && R.nouns.includes(w.words[next + 1] ?? "")) continue;
        // ("by number of contacts" ranks by a count; it groups by no field called number.)
        if (/^(?:number|count|amount) of\b/.test(phrase)) continue;
        // ("top 5 invoices by amount due" ranks by a number; "due" alone would group by the due date.)
        const numeric = [...R.fields.values()].find((f) => (f.kind === "money" || f.kind === "number" || f.kind === "minutes") && f.words.includes(phrase));
        if (numeric) {
          rankedBy = numeric.name;
          continue;
        }
        const found = groupField(R, schema, phrase);
        if (!found) continue;
        // "across everyone", "by everybody": all of them together, not one row each.
        if (/^(?:everyone|everybody|all|the team|team)\b/.test(phrase) && trigger !== "per" && trigger !== "each") {
          claim(Array.from({ length: next - i + 1 }, (_, k) => i + k));
          continue;
        }
        // "top 3 projects by billable hours": a yes/no field before the measure says which rows, it does not group.
        const after = next + found.phrase.split(" ").length + (found.phrase === w.words[next] || phrase.startsWith(found.phrase) ? 0 : 1);
        if (R.fields.get(found.field)?.kind === "boolean" && measureHits.some((hit) => hit.value.resource === R && hit.indexes[0] === after)) continue;
        // ("total billed in October, by issue date": which of its dates the period is of — grouping by a day is said
        // "by day" or "by date", not by the date's own name.)
        const dated = ["date", "datetime"].includes(R.fields.get(found.field)?.kind ?? "") && /\s(?:date|day)$/.test(found.phrase);
        const words = found.phrase.split(" ").length;
        const from = found.phrase === w.words[next] || phrase.startsWith(found.phrase) ? next : next + 1;
        if (period && dated && trigger === "by") period = { ...period, field: found.field };
        else groupBy = found.field;
        claim([...Array.from({ length: from - i }, (_, k) => i + k), ...Array.from({ length: words }, (_, k) => from + k)]);
        break groups;
      }
    }
    // "how many hours did each engineer log": each of some people (a word no field is) is each person — the
    // word itself is left to be read as what those people are.
    // ("total hours in september per engineer": "per" a word no field groups by is the same.)
    // (Not "every urgent task": a word of the records' own, then their noun — all of them.)
    const eachPerson = /\b(?:each|every|per)\s+([a-z]{3,})\b(?:\s+([a-z]+))?/.exec(text);
    if (
      !groupBy &&
      eachPerson &&
      R.skill?.person &&
      !/^(?:day|week|month|quarter|year|time|one|single|of|invoice|other)$/.test(eachPerson[1]!) &&
      !schema.resources.some((resource) => resource.nouns.includes(eachPerson[1]!) || (eachPerson[2] !== undefined && resource.nouns.includes(eachPerson[2])))
    ) {
      groupBy = R.skill.person.param;
      claim(occurrences(w.words, "each")[0] ?? occurrences(w.words, "every")[0] ?? occurrences(w.words, "per")[0] ?? []);
    }
    // "hours by billable": grouped by a yes/no field, its own word is no condition on it.
    if (groupBy && R.fields.get(groupBy)?.kind === "boolean")
      for (let i = conditions.length - 1; i >= 0; i--) {
        const condition = conditions[i]!;
        if ("field" in condition && condition.field === groupBy && condition.op === "eq") conditions.splice(i, 1);
      }
    // "which department has the most people": the field named after "which" groups.
    // "top 3 companies by number of contacts": the rows ranked are values of a field of R.
    const ranked = /\b(?:top|bottom)\s+(?:\d{1,3}\s+)?([a-z]+?)(?:ies|s)?\s+by\b/.exec(text);
    if (!groupBy && ranked) {
      const stem = ranked[1]!;
      const found = groupField(R, schema, stem) ?? groupField(R, schema, `${stem}y`);
      if (found && R.fields.get(found.field)?.kind !== "reference") {
        groupBy = found.field;
        claim(occurrences(w.words, ranked[0].split(/\s+/).at(-2)!)[0] ?? []);
      }
    }
    // ("top lead sources", "top 3 departments": a few-valued field said in the plural after "top" is what is ranked,
    // by how many records have each value.)
    const topValues = /\b(?:top|bottom)\s+(?:\d{1,3}\s+)?(?:[a-z]+\s+)?([a-z]+?)(?:ies|s)\b(?!\s+(?:by|with|per)\b)/.exec(text);
    if (!groupBy && topValues && !R.nouns.includes(topValues[0].split(/\s+/).at(-1)!)) {
      const stem = topValues[1]!;
      const found = groupField(R, schema, stem) ?? groupField(R, schema, `${stem}y`);
      const kind = found ? R.fields.get(found.field)?.kind : undefined;
      if (found && (kind === "enum" || kind === "text")) {
        groupBy = found.field;
        claim(occurrences(w.words, topValues[0].split(/\s+/).at(-1)!)[0] ?? []);
      }
    }
    // ("which day last week had the most time logged", "which company do we have the most contacts at".)
    const whichField =
      /(?:^|\b(?:tell me|know|see|show me)\s+)(?:which|what)\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:(?:last|this|of|in)\s+[a-z]+\s+)?(?:has|have|had|gets?|got|brings?|brought|owes?|spent|logged|generates?|produces?|makes?|sends?|sent|gives?|gave|refers?|referred|(?:(?:do|does|did)\s+)?(?:we|you|i|they)\s+(?:have|get|got|see))\b/.exec(
        text,
      );
    if (!groupBy && whichField && /\b(most|least|top|biggest|highest|fewest|largest|lowest)\b/.test(text)) {
      const found = groupField(R, schema, whichField[1]!);
      if (found) {
        groupBy = found.field;
        claim(occurrences(w.words, found.phrase)[0] ?? []);
      }
    }
    // "most common reason we lose deals", "the most frequent source": that field's commonest value.
    const commonest = /\b(?:most|least) (?:common|frequent|usual|popular)\s+([a-z]+(?:\s[a-z]+)?)/.exec(text);
    let commonestOne = false;
    if (!groupBy && commonest) {
      const found = groupField(R, schema, commonest[1]!);
      if (found) {
        groupBy = found.field;
        commonestOne = true;
        claim(occurrences(w.words, found.phrase)[0] ?? []);
        for (const word of ["common", "frequent", "usual", "popular"]) for (const at of occurrences(w.words, word)) claim(at);
      }
    }
    // "where did most of our converted leads come from": the field "come from" names, most first.
    if (!groupBy && /^where\b/.test(text) && /\b(most|least|majority|bulk)\b/.test(text)) {
      const from = [...R.fields.values()].find(
        (field) => field.kind !== "reference" && field.words.some((word) => /\b(?:come|came|comes) from\b/.test(word) && text.includes(word)),
      );
      if (from) groupBy = from.name;
    }
    if (!groupBy && by) {
      const ref = [...R.fields.values()].find((f) => f.target === by!.name);
      if (ref && /\b(which|who|what|top|most|least|per|each|rank|ranking|biggest|largest|highest)\b/.test(text)) groupBy = ref.name;
    }
    // ("and who logged the most": a follow-up's "and" first.)
    const opensWho = /^(?:(?:and|so|ok|okay|then|also|but)\s+)?(who|whos|who's)\b/.test(text);
    if (!groupBy && opensWho && R.skill?.person) {
      who = true;
      // ("who put hours on the mobile app this week and how many": each person's total.)
      if (/\b(most|least|top|highest|lowest|more|fewest)\b|\band (?:how many|how much|how long)\b/.test(text)) groupBy = R.skill.person.param;
    } else if (!groupBy && opensWho) {
      // "who owes us money", "who hasn't paid": an amount of a resource with no person of its own is answered by
      // the party it belongs to (an invoice's customer). ("who's at offer stage" lists the candidates themselves.)
      const party = (R.skill?.parents ?? []).find((parent) => R.fields.get(parent.param)?.kind === "reference");
      // ("who has the most overdue invoices": the party with the most of them.)
      const mostOf = new RegExp(`\\b(?:most|fewest|least)\\s+(?:[a-z]+\\s+){0,2}(?:${R.nouns.filter((noun) => /s$/.test(noun)).join("|") || "-"})\\b`).test(
        text,
      );
      if (party && (measure?.value.resource === R || mostOf)) groupBy = party.param;
    }

    // The aggregate.
    // ("the smallest number of minutes" is an amount of time, not a count of records.)
    // ("how much projects we have completed": a count, as English learners say it.)
    const muchOfMany = /\bhow much ([a-z]+s)\b/.exec(text)?.[1];
    const countedMuch = Boolean(muchOfMany && R.nouns.includes(muchOfMany));
    const countCue = countedMuch || /\b(how many|number of|count|no of|total number|tally)\b/.test(text.replace(/\bnumber of (?:minutes|hours)\b/g, "_"));
    // ("with a total above 2,000" names the field, it does not ask for a sum.)
    const sumCue =
      (!countedMuch && /\b(how much|sum|in total|altogether|combined|overall)\b/.test(text)) ||
      /\btotal\b(?! (above|over|under|below|of at least|of more|of less|greater|less|more|bigger|smaller)\b)/.test(
        // ("invoices with a total over 5k" filters; "with a total for each" sums.)
        text.replace(/\b(a|with|whose|where|their|its) total\b(?!\s+(?:for|per|of)\s+(?:each|every|them|those)\b)/g, "_"),
      );
    // "total" asks for a sum; it names the invoice field "total" only when nothing else is summed.
    const totalWord = occurrences(w.words, "total")[0];
    const explicitNoun = nouns.some((noun) => noun.value === R && !noun.object && noun.plural);
    const avgCue = /\b(average|avg|mean|typical)\b/.exec(text);
    const minMaxWord = (list: string[]) => list.find((word) => occurrences(w.words, word).some((at) => !at.some((i) => taken.has(i) && !periodAt.includes(i))));
    // "most recent" is the newest, not the most of something.
    const desc = /\bmost recent/.test(text) ? undefined : minMaxWord(DESC);
    const asc = minMaxWord(ASC);
    const newest = /\bwhen\b/.test(text) || !range ? minMaxWord(NEWEST) : undefined;
    const oldest = minMaxWord(OLDEST);

    if (measure?.value.resource === R) {
      const m = measure.value.measure;
      // "what did lynn log on monday", "did tim log anything today", "did globex pay us anything in oct": the
      // entries themselves, not their sum.
      // ("what did soylent pay us" is how much.)
      const entriesAsked =
        (/^(?:what (?:did|has|have)|did|has|have)\b.*\b(?:log|logged|work|worked)\b/.test(text) ||
          /^(?:did|has|have)\b.*\b(?:pay|paid)\b/.test(text) ||
          // ("anything paid to us so far this week?": whether there are any — the records.)
          /^(?:(?:is|was) there\s+)?anything\s+(?:paid|received|come in|came in|logged|booked|collected)\b/.test(text) ||
          // ("pull up everything we invoiced Umbrella", "stuff Tim logged on data warehouse": the records.)
          /\b(?:everything|stuff|all the (?:stuff|things|entries))\b/.test(text) ||
          // ("give me list of invoices which are not paid yet": a list asked for by that word.)
          /\b(?:(?:a |the )?list of|give me (?:a |the )?list)\b/.test(text) ||
          // ("just the ones with more than 10k still owing": the amount is what they are picked by.)
          /\b(?:the ones|those|ones|them)\s+(?:with|having|that have|that still have|where)\s+(?:more than|less than|over|under|above|below|at least|at most)\b/.test(
            text,
          ) ||
          // ("only where they still owe more than 10k": the records picked by it.)
          /^(?:only|just)\s+(?:where|when|if)\b.*\b(?:more than|less than|over|under|above|below|at least|at most)\b/.test(text) ||
          // ("of the invoices we raised in August, which are still outstanding", "which past due inv has the largest
          // amount owing": which records are so — the records, not what they add up to.)
          /\bwhich\s+(?:ones?\s+|of (?:them|those|these)\s+)?(?:are|is|were|was)\s+(?:still\s+)?[a-z]/.test(text) ||
          new RegExp(`\\bwhich\\s+(?:[a-z-]+\\s+){0,2}(?:${R.nouns.join("|")})\\s+(?:has|have|had|is|are|was|were)\\b`).test(text) ||
          // ("bank transfers that came in yesterday": records described, then what happened to them — which ones.)
          // (Not money itself: "money that came in this week" is how much.)
          /^(?!(?:the\s+|all\s+(?:the\s+)?)?(?:how|what|whats|what's|total|sum|amount|money|cash|revenue|income|funds|sales)\b)(?:[a-z-]+\s+){1,3}(?:that|which)\s+(?:came|come|were|was|got|have|has|we|they)\b/.test(
            text,
          ) ||
          // ("who's logged time on the mobile app": the entries, each with its person — not a ranking, not a total.)
          (/^(?:who|whos|who's)\s+(?:has\s+|have\s+)?(?:logged|worked|put|booked|clocked|spent)\b/.test(text) &&
            !/\b(?:most|least|top|more|less|each|per|how)\b/.test(text))) &&
        !sumCue &&
        !countCue &&
        !avgCue;
      if (m.show) show = m.show;
      else if (!(explicitNoun && !sumCue && !countCue && !avgCue) && !entriesAsked) {
        // "eur deals in the pipeline" lists deals; "how big is the pipeline" adds them up.
        fn = m.fn ?? "sum";
        // "how much tax did we charge": a money field named outright is what is added up, not the verb's own.
        const named = numericFieldNamed(w, R, taken);
        field = named && named !== R.measure && named !== m.field && R.fields.get(named)?.kind === "money" ? named : m.field;
        title = m.title;
      }
      if (m.where) {
        for (const [param, raw] of Object.entries(m.where)) {
          if (!conditions.some((c) => ("field" in c ? c.field : c.param) === param || (param === "status" && "param" in c && c.param === "overdue"))) {
            conditions.push(...conditionsOf(R, { [param]: raw }, raw.replace(/^!/, "not ").replace(/,/g, " or ").replace(/_/g, " "), false, today));
            // (A state the measure implies — what is owed is on sent invoices — is no state said: a follow-up keeps its own.)
            if (["status", "stage"].includes(param)) said.impliedState = true;
          }
        }
      }
    }
    // ("how many open positions": the word counted may follow a state word.)
    const countedWords = /\b(?:how many|number of) ([a-z]+)(?: ([a-z]+))?\b/.exec(text);
    const countsField = (word: string | undefined) =>
      word
        ? [...R.fields.values()].find(
            (f) => (f.kind === "number" || f.kind === "minutes") && f.words.some((phrase) => phrase.split(" ")[0] === word || phrase === word),
          )
        : undefined;
    const countedField = countsField(countedWords?.[1]) ? countedWords?.[1] : countsField(countedWords?.[2]) ? countedWords?.[2] : countedWords?.[1];
    const numericCounted = countsField(countedField);
    if (countCue && numericCounted && numericCounted.kind === "number") {
      // "how many positions for support specialist": a number field, summed (or one record's).
      fn = "sum";
      field = numericCounted.name;
      claim(occurrences(w.words, countedField!)[0] ?? []);
    } else if (countCue) {
      const measured =
        measure?.value.resource === R &&
        // ("how many billable hours": a word or two before the unit may be a state of the entries.)
        (/\bhow many (?:(?:billable|non-billable|nonbillable|unbillable|non billable|logged|tracked|total|overtime) ){0,2}(hours|hrs|minutes|mins)\b/.test(
          text,
        ) ||
          (/\b(hours|minutes|time)\b/.test(text) && /\band how (?:many|much|long)\b/.test(text)));
      if (!measured) {
        fn = "count";
        field = null;
      }
    } else if (avgCue) {
      fn = "avg";
      field = numericFieldNamed(w, R, taken) ?? field ?? R.measure;
    } else if (sumCue && fn === "list" && !show) {
      fn = "sum";
      // "total overdue": the number a state is about (what is still due), else the resource's own measure.
      const stateMeasure = stateMeasureOf(R, conditions);
      if (totalWord) claim(totalWord);
      const named = numericFieldNamed(w, R, taken);
      // "how much is overdue": the resource's own measure named by a general word is the state's number.
      field = (named === R.measure && stateMeasure ? stateMeasure : named) ?? stateMeasure ?? R.measure;
      // (Only a field of its own, not the measure's general words, binds a follow-up: "how much is that".)
      said.field = named !== null && named !== R.measure;
    }
    if (groupBy && fn === "list") {
      // "payments by method", "billable vs non billable": rows that are amounts (no name of their own) add up.
      const named = R.nameField ? R.fields.get(R.nameField)?.kind === "text" && R.nameField !== "id" : false;
      const amounts = !named && R.measure && !countCue;
      // ("overdue amounts by customer": money said in the plural, added up per group — what the states are about.)
      const moneyAsked =
        Boolean(R.measure) &&
        !countCue &&
        // ("which source brings in the most lead value": the value itself, unless it picks records — "value over 10k".)
        // ("overdue balance by customer": what is left on them, added up — not "a balance over 10k", which picks.)
        /\b(?:amounts?|totals|sums|values|money|(?:value|balances?)(?! (?:above|over|under|below|of at least|of more|of less|greater|less|more|bigger|smaller|between|at least|at most)\b))\b/.test(
          text,
        );
      fn = (measure?.value.resource === R && field) || amounts || moneyAsked ? "sum" : "count";
      if ((amounts || moneyAsked) && !field) field = moneyAsked ? (stateMeasureOf(R, conditions) ?? R.measure) : R.measure;
    }
    // "who has the most…", "which project ate the most hours": one winner.
    const oneWinner =
      /^where (?:do|did|does) most\b/.test(text) ||
      // ("proj w/ the most late tasks?", "the customer with the highest balance": one, said in the singular.)
      /^(?:(?:the|which|what)\s+)?(?!(?:people|staff|everyone|everybody|anyone|anybody|personnel|team|folks|those|these|ones)\b)[a-z]+(?<!s)\s+(?:with|w\/)\s+the\s+(?:most|fewest|least|highest|lowest|biggest|largest)\b/.test(
        text,
      ) ||
      /^(?:(?:and|so|ok|okay|then|also|but) )?(?:(?:can you |could you )?(?:tell me|let me know) )?(who|whos|who's|which (?!of)\w+ (?:(?:last|this|of|in) [a-z]+ )?(has|have|had|is|was|did|does|got|gets|ate|logged|owes|brought|brings|bring|generates|produces|spent|gives|give|gave|sends|sent|makes|made|wins|won|converts|converted|delivers|do we|we have|have we)|what (customer|project|person|employee|stage|source))\b/.test(
        text,
      );
    // ("soonest due first", "biggest balance first": an order for the records, not one of them.)
    const ordering =
      /\b(?:earliest|oldest|newest|latest|biggest|largest|smallest|highest|lowest|most|least)\s+(?:\w+\s+){0,2}(?:first|on top|at the top)\b/.test(text);
    if (desc || asc) {
      order = desc ? "desc" : "asc";
      if (groupBy && !limit && (oneWinner || commonestOne)) limit = 1;
      if (fn === "list") {
        // "the biggest unpaid invoice": ranked by what its state is about (what is still due).
        field = numericFieldNamed(w, R, taken) ?? field ?? stateMeasureOf(R, conditions) ?? R.measure;
        const singular = nouns.find((noun) => noun.value === R && !noun.plural);
        // "the biggest invoice", "largest single payment": one record.
        if (!limit && (singular || /\bsingle\b|\b(?:biggest|largest|highest|smallest|lowest)\s+one\b/.test(text)) && !groupBy && !ordering) limit = 1;
      } else if (!groupBy && fn === "sum" && !countCue && /\b(which|who)\b/.test(text) === false) {
        // "the biggest invoice", "the smallest outstanding invoice": the record (ranked by the measure), not a sum.
        fn = "list";
        if (!limit && (nouns.some((noun) => noun.value === R && !noun.plural) || /\bsingle\b/.test(text))) limit = 1;
      }
      // "the biggest payment last quarter", "smallest invoice this month", "largest single payment this year":
      // over a period, with no state named, the amount itself — per currency, which one record cannot give
      // when currencies mix.
      const singular = nouns.some((noun) => noun.value === R && !noun.plural);
      if (fn === "list" && limit === 1 && (singular || /\bsingle\b/.test(text)) && period && conditions.length === 0 && !/\b(which|who)\b/.test(text)) {
        fn = desc ? "max" : "min";
        order = null;
        limit = null;
      }
      // "the least we've ever billed on one invoice", "smallest amount anyone paid us", "smallest number of
      // minutes anyone logged in one go": the amount itself, asked of whoever did it — its minimum or maximum.
      const word = (desc ?? asc)!;
      const amountAsked = new RegExp(
        `\\b${word}\\s+(?:(?:amount|number of \\w+|sum|value|total)\\s+)?(?:we(?:'ve| have)?|anyone|anybody|someone|somebody|they|you|i(?:'ve)?)\\b`,
      ).test(text);
      // ("smallest deal we won this year": the record's own noun, what we did with it, and a period — the amount.)
      const doneInPeriod =
        Boolean(period) &&
        new RegExp(`\\b${word}\\s+(?:single\\s+)?(?:${R.nouns.join("|")})\\s+(?:that\\s+)?(?:we|anyone|anybody|someone)\\s+(?!ever\\b)[a-z]+`).test(text);
      // ("the three biggest deals we lost in 2026": a number of them is the records, ranked.)
      if (fn === "list" && !groupBy && (amountAsked || doneInPeriod) && !(limit && limit > 1)) {
        fn = desc ? "max" : "min";
        field = numericFieldNamed(w, R, taken) ?? stateMeasureOf(R, conditions) ?? R.measure;
        order = null;
        limit = null;
      }
    } else if (newest || oldest) {
      const dateField = range ? null : dateFieldFor(w, R, [], dateVerbHits);
      // ("the oldest due date on initech's open invoices", "latest close date of open deals": the date itself.)
      // (Not an order for the records: "oldest due date first".)
      const dateNamed = ordering ? null : dateNamedAfter(text, R, (newest ?? oldest)!);
      // ("globex's most recent payment, what date was that?", "date of wonka's latest payment": when, asked so.)
      if (/\bwhen\b|\b(?:what|which)\s+(?:date|day)\b|^(?:the\s+)?date\s+of\b/.test(text) || dateNamed) {
        fn = newest ? "max" : "min";
        field = dateNamed ?? dateField ?? R.defaultDate;
      } else if (fn === "list") {
        order = newest ? "desc" : "asc";
        field = dateField ?? R.defaultDate;
        // "the latest payment", "most recent hire" (a date verb standing for the record): one.
        const singular =
          Boolean(nouns.find((noun) => noun.value === R && !noun.plural)) ||
          (!nouns.some((noun) => noun.value === R) && dateVerbHits.some((hit) => hit.value.resource === R && !/s$/.test(w.words[hit.indexes.at(-1)!]!))) ||
          /^(?:who|whos|who's)\b/.test(text) ||
          // ("whats the oldest one" after a list: one of them.)
          /\b(?:oldest|newest|latest|earliest|most recent)\s+one\b/.test(text);
        if (!limit) limit = singular && !ordering ? 1 : null;
      }
    }
    if (upcoming && fn === "list" && !order && !groupBy) {
      order = "asc";
      field = upcoming;
      if (!limit && nouns.some((noun) => noun.value === R && !noun.plural) && !/\b(?:upcoming|deadlines)\b/.test(text)) limit = 1;
    }
    if (limit && fn === "list" && !order) {
      order = "desc";
      field = field ?? R.measure;
    }
    // ("how much does soylent owe us? give it invoice wise", "… by invoice": each of those records with its amount —
    // a sum split by the records themselves.)
    if (fn === "sum" && field && !groupBy && !show && new RegExp(`\\b(?:by|for each|by each)\\s+(?:${R.nouns.map(escapeRegExp).join("|")})\\b`).test(text)) {
      show = field;
      fn = "list";
      field = null;
    }
    // ("tasks, earliest due date first": the name of the field they are ordered by is no name of a record.)
    if (order && field) for (const hit of matchPhrases(w.words, [{ phrases: R.fields.get(field)?.words ?? [], value: field }], new Set())) claim(hit.indexes);
    // ("how much of X is done" of tasks, which have no amount: how many — a sum of nothing is no answer.)
    if (fn === "sum" && !field && !groupBy) fn = "count";
    said.fn = countCue || sumCue || Boolean(avgCue) || Boolean(measure) || Boolean(desc || asc);
    // ("split that by customer, biggest first": an order alone, no count or sum of its own.)
    said.onlyOrder = !(countCue || sumCue || avgCue || measure) && Boolean(desc || asc);
    said.aggregate = said.fn || Boolean(groupBy);

    // A field asked of one record: "phone of Ada", "what dept is Hedy in", "when did Lynn start".
    if (!show) {
      const fieldHits = matchPhrases(
        w.words,
        [...R.fields.values()]
          .filter((f) => f.kind !== "reference" || true)
          .map((f) => ({ phrases: f.words.filter((word) => word.length > 2), value: f.name })),
        new Set(taken),
      );
      // ("INV-000123 due date?": the verb's "due" is also the first word of the field's "due date".)
      const verbIndexes = new Set(dateVerbHits.flatMap((hit) => hit.indexes));
      const phrased = matchPhrases(
        w.words,
        [...R.fields.values()].map((f) => ({ phrases: f.words.filter((word) => word.includes(" ")), value: f.name })),
        new Set([...taken].filter((i) => !verbIndexes.has(i))),
      ).find(
        (hit) =>
          hit.indexes.some((i) => verbIndexes.has(i)) &&
          // (Longer than the verb: "due date" is more than "due"; "clocked in" is only the verb.)
          hit.indexes.some((i) => !verbIndexes.has(i) && !taken.has(i)) &&
          hit.value !== R.nameField &&
          R.fields.get(hit.value)?.kind !== "reference",
      );
      // (The longest phrase first: "where did X come from" asks the source, not the status "where" is a word of.)
      // ("the sales managers in the Berlin office": a place's noun after its name is where, not what is asked.)
      const placed = (hit: Hit<string>) => {
        const at = hit.indexes[0]!;
        return (
          hit.indexes.length === 1 &&
          at >= 2 &&
          // (or a name of two words, then its kind, ending the question: "on the data warehouse project")
          (/^(?:in|at|from|of|the)$/.test(w.words[at - 2]!) ||
            (R.fields.get(hit.value)?.kind === "reference" &&
              at >= 3 &&
              w.words[at - 3] === "the" &&
              at === w.words.length - 1 &&
              !FILLER.has(w.words[at - 2]!) &&
              !GRAMMAR.has(w.words[at - 2]!))) &&
          !FILLER.has(w.words[at - 1]!) &&
          !/['’]/.test(w.text.slice(w.tokens[at - 1]!.end - 2, w.tokens[at - 1]!.end + 1))
        );
      };
      const asked =
        phrased ??
        [...fieldHits]
          .sort((a, b) => b.indexes.length - a.indexes.length)
          .find(
            (hit) =>
              hit.value !== R.nameField &&
              !placed(hit) &&
              (R.fields.get(hit.value)?.kind !== "reference" || /\bwho\b|\bwhich (project|customer|person|employee)\b/.test(text)),
          );
      // "value of deals lost in october", "what's the total of invoices sent this week": a money field said first,
      // of many records, is their total.
      // ("q3 tax on our invoices": words of the period may come first.)
      const lead = w.words.slice(0, asked?.indexes[0] ?? 0).filter((_word, i) => !taken.has(i));
      const ofMany =
        asked &&
        R.fields.get(asked.value)?.kind === "money" &&
        lead.every((word) => ["what", "whats", "what's", "is", "was", "the", "total", "combined"].includes(word)) &&
        ["of", "on"].includes(w.words[asked.indexes.at(-1)! + 1] ?? "") &&
        (nouns.some((noun) => noun.value === R && noun.plural && noun.indexes[0]! <= asked.indexes.at(-1)! + 4) ||
          // ("value of everything we voided this year", "value of this year's wins": many records, not one.)
          ["everything", "all", "every", "these", "those", "this", "last", "our"].includes(w.words[asked.indexes.at(-1)! + 2] ?? ""));
      if (asked && ofMany && fn === "list" && !groupBy && !order && !limit) {
        fn = "sum";
        field = asked.value;
        claim(asked.indexes);
      } else if (asked && fn === "list" && !groupBy && !order) {
        show = asked.value;
        claim(asked.indexes);
      }
    }
    // "when is INV-000305 due", "when does the erp migration end": the date the verb names, shown of the record.
    if (!show && fn === "list" && !groupBy && !order && /^(?:when|whens|when's)\b/.test(text)) {
      const said = (word: string) => occurrences(w.words, word).length > 0;
      // (The longest phrase said: "supposed to close" is the expected date, not "close" the closing one.)
      const longest = (date: (typeof R.dateWords)[number]) => Math.max(0, ...date.words.filter(said).map((word) => word.length));
      const byVerb = R.dateWords.filter((date) => longest(date) > 0 && R.fields.has(date.field)).sort((a, b) => longest(b) - longest(a))[0];
      // A field whose own name is said ("expected … close" → expected_close_date) beats a verb's field (closed_at).
      const named = [...R.fields.values()]
        .filter((f) => f.kind === "date" || f.kind === "datetime")
        .map((f) => ({ name: f.name, score: f.name.split("_").filter((part) => part.length > 2 && (said(part) || said(`${part}s`))).length }))
        .sort((a, b) => b.score - a.score)[0];
      show = named && named.score >= 2 ? named.name : (byVerb?.field ?? (named && named.score > 0 ? named.name : null));
    }
    if (rankedBy && fn === "list" && order) field = rankedBy;
    if (sortField && fn === "list") {
      order = /\b(desc|descending|latest first|newest first|highest first)\b/.test(text) ? "desc" : "asc";
      field = sortField;
    }
    // "deals lost to bad timing", "lost because it was too expensive": a free-text field's usual value, said in
    // its own vocabulary, once the state it belongs to is asked for (a lost reason of lost deals).
    for (const [name, spec] of Object.entries(R.skill?.fields ?? {})) {
      if (!spec.means || conditions.some((c) => "field" in c && c.field === name)) continue;
      const inState = Object.entries(spec.when ?? {}).every(([param, value]) => conditions.some((c) => "field" in c && c.field === param && c.value === value));
      const vocabulary = Object.entries(spec.means).map(([value, phrases]) => ({ phrases, value }));
      // (As typed, too: "expensive" is no typo of "expense".)
      const typed = w.tokens.map((token) => token.lower.replace(/[.']+$/, ""));
      const hit = inState ? (matchPhrases(typed, vocabulary, new Set(taken))[0] ?? matchPhrases(w.words, vocabulary, new Set(taken))[0]) : undefined;
      if (!hit) continue;
      conditions.push({ field: name, op: "eq", value: hit.value, label: `${name.replace(/_/g, " ")} ${hit.value}` });
      claim(hit.indexes);
      // ("because they were too expensive": the reason's own word.)
      for (const at of occurrences(w.words, "because")) claim(at);
    }
    // Words naming R's fields are no names ("amount", "date").
    // ("sum of customer balances": a field's word in the plural too.)
    for (const hit of matchPhrases(
      w.words,
      [...R.fields.values()].map((f) => ({ phrases: f.words.filter((word) => word.length > 2).flatMap((word) => [word, `${word}s`]), value: f.name })),
      new Set(taken),
    ))
      claim(hit.indexes);
    const party = period ? null : partyCompared(R, conditions, groupBy);
    if (party)
      return finish({ ...party, period: null, show: null, groupBy: null, who: false, fn: "list", field: null, order: null, limit: null, by: null, said });
    if (addressed && show === addressed) show = null;
    return finish({ resource: R, conditions, period, show, groupBy, who, fn, field, order, limit, by, said, title });
  }
  // No resource yet: the names will tell. Field words ("dept", "email") are no part of a name.
  for (const hit of matchPhrases(
    w.words,
    schema.resources.flatMap((resource) => [...resource.fields.values()].map((f) => ({ phrases: f.words.filter((word) => word.length > 2), value: f.name }))),
    new Set(taken),
  ))
    claim(hit.indexes);
  return finish({ resource: null, conditions, period: null, show, groupBy, who, fn, field, order, limit, by, said });

  /**
   * "who owes us more than 10k", "usd customers who owe nothing": an amount compared per party, when the party
   * keeps that amount as a field of its own (the verb is one of the field's words: a customer's balance is
   * what it owes), is that field compared — the parties are listed, not their invoices added up.
   */
  function partyCompared(R: ResourceModel, conditions: Condition[], groupBy: string | null): { resource: ResourceModel; conditions: Condition[] } | null {
    const P = groupBy ? schema.byName.get(R.fields.get(groupBy)?.target ?? "") : undefined;
    if (!P) return null;
    const verbs = measureHits.filter((hit) => hit.value.resource === R).flatMap((hit) => hit.indexes.map((i) => w.words[i]!));
    const own = [...P.fields.values()].find((f) => f.kind === "money" && f.words.some((word) => verbs.includes(word)));
    if (!own) return null;
    const nothing = verbs.length > 0 && /\b(?:owes?|owed)\s+(?:us\s+)?(?:nothing|no money|zero|0)\b/.test(text);
    const compared = conditions.filter(
      (c) => "field" in c && (c.op === "gt" || c.op === "lt" || c.op === "gte" || c.op === "lte") && R.fields.get(c.field)?.kind === "money",
    );
    if (compared.length === 0 && !nothing) return null;
    const kept = conditions.filter(
      (c) => !compared.includes(c) && "field" in c && P.fields.has(c.field) && R.fields.get(c.field)?.kind !== "enum" && c.field !== groupBy,
    );
    const on = compared.map((c) => ({ ...c, field: own.name }) as Condition);
    if (nothing) {
      on.push({ field: own.name, op: "eq", value: 0, label: "owing nothing" });
      for (const word of ["nothing", "no", "money", "zero", "0"]) for (const at of occurrences(w.words, word)) claim(at);
    }
    return { resource: P, conditions: [...kept, ...on] };
  }

  /** "in proposal or negotiation": two values of one field are either. */
  function combined(conditions: Condition[]): Condition[] {
    const out: Condition[] = [];
    for (const condition of conditions) {
      const same =
        "field" in condition
          ? out.find((c) => "field" in c && c.field === condition.field && (c.op === "eq" || c.op === "in") && (condition.op === "eq" || condition.op === "in"))
          : undefined;
      if (same && "field" in same && "field" in condition && same.value !== condition.value) {
        const listOf = (value: unknown) => (Array.isArray(value) ? value : [value]);
        // ("leads we contacted but haven't qualified yet": a state said with what it has not reached yet is both at
        // once — those of it, not either.)
        const notYet = [same, condition].find((c) => c.label.startsWith("not "));
        const other = notYet === same ? condition : same;
        const both = notYet ? listOf(other.value).filter((value) => listOf(notYet.value).includes(value)) : [];
        if (both.length > 0) {
          Object.assign(same, { op: both.length === 1 ? "eq" : "in", value: both.length === 1 ? both[0] : both, label: `${other.label}, ${notYet!.label}` });
          continue;
        }
        const values = [...listOf(same.value), ...listOf(condition.value)];
        Object.assign(same, { op: "in", value: [...new Set(values)], label: `${same.label} or ${condition.label}` });
      } else out.push(condition);
    }
    return out;
  }

  function finish(parts: {
    resource: ResourceModel | null;
    conditions: Condition[];
    period: Period | null;
    show: string | null;
    groupBy: string | null;
    who: boolean;
    fn: Aggregate["fn"];
    field: string | null;
    order: Aggregate["order"];
    limit: number | null;
    by: ResourceModel | null;
    said: QueryDraft["said"];
    title?: string;
  }): QueryDraft {
    // Another resource's measure or date words ("billed", "came in") are no part of a name either.
    for (const hit of [...measureHits, ...dateVerbHits]) if (!hit.indexes.some((i) => taken.has(i))) claim(hit.indexes);
    // (A message that starts by taking something out — "leave out the lost ones", "minus drafts" — narrows the last answer.)
    // ("sort by due date", "which one had the most", "the invoices behind that": the last answer, reordered or named.)
    const followUp =
      /^(and|what about|how about|only|just|same|those|of those|of them|them|which of|now|also|but|plus|ok and|then|leave out|leaving out|ignore|ignoring|exclude|excluding|without|minus|except|skip|drop|remove the|sort|sorted|order|ordered|rank|which one|which ones|who had|who has)\b/.test(
        text,
      ) || /\b(?:behind|in|of|on|for|across|from|under|making up) (?:that|those|them|these)\s*[?.!]*$/.test(text);
    const conditions = combined(pendingOnly(parts.resource, parts.period, parts.conditions, today));
    const { aggregate, show } = sideBySide(parts.resource, text, {
      conditions,
      aggregate: { fn: parts.fn, field: parts.field, groupBy: parts.groupBy, order: parts.order, limit: parts.limit },
      show: parts.show,
    });
    return {
      resource: parts.resource,
      conditions,
      period: parts.period,
      aggregate,
      show,
      names: leftovers(w, taken).map((span) =>
        // ("the Website project", "the candidate katherine": a name next to its resource's noun is one of those records.)
        parts.resource &&
        nouns.some(
          (noun) =>
            noun.value === parts.resource && !noun.plural && (noun.indexes[0] === span.indexes.at(-1)! + 1 || noun.indexes.at(-1) === span.indexes[0]! - 1),
        )
          ? { ...span, own: true }
          : span,
      ),
      by: parts.by,
      who: parts.who,
      reference,
      followUp,
      said: parts.said,
      ...(parts.title ? { title: parts.title } : {}),
    };
  }
}

/** An enum value as typed: "partially paid", and a one-word state's plural as a noun ("ignore voids", "the drafts"). */
function statePhrases(value: string): string[] {
  const phrase = value.replace(/_/g, " ");
  return /^[a-z]{3,}$/.test(phrase) && !/(s|ed|ing|y)$/.test(phrase) ? [phrase, `${phrase}s`] : [phrase];
}

/**
 * "customers we bill in EUR vs USD", "avg lead value, referrals vs website": two values of one field set against each
 * other — grouped by it (a list with an amount shown is that amount added up: "lead value referral vs website"). Run on
 * the parsed query and again once names have resolved into values.
 */
export function sideBySide<Q extends Pick<Query, "conditions" | "aggregate" | "show">>(R: ResourceModel | null, text: string, query: Q): Q {
  if (query.aggregate.groupBy || !/\b(?:vs\.?|versus|compared to|against)\s/.test(`${text} `)) return query;
  const pairs = query.conditions.filter((c) => "field" in c && c.op === "in" && Array.isArray(c.value) && c.value.length === 2);
  const against = pairs[0];
  if (pairs.length !== 1 || !against || !("field" in against)) return query;
  const { aggregate, show } = query;
  const amount = show && ["money", "number", "minutes"].includes(R?.fields.get(show)?.kind ?? "") ? show : null;
  const fn = aggregate.fn !== "list" ? aggregate.fn : amount ? "sum" : "count";
  return { ...query, show: amount ? null : show, aggregate: { ...aggregate, groupBy: against.field, fn, field: amount ?? aggregate.field } };
}

/** No noun, no measure: the resource whose state words are used ("how much is overdue"), money-bearing first. */
/** Of some resources, the one whose state the message names: spelt as its own value ("done" is a task's) first. */
function statedAmong(w: Words, owners: ResourceModel[], taken: Set<number>): ResourceModel | null {
  const hits = owners.flatMap((resource) =>
    matchPhrases(
      w.words,
      (resource.skill?.filters ?? []).map((filter) => ({ phrases: filter.words, value: resource })),
      new Set(taken),
    ),
  );
  const spelt = hits.find((hit) => {
    const phrase = hit.indexes.map((i) => w.words[i]).join(" ");
    return [...hit.value.fields.values()].some((field) => field.kind === "enum" && field.values?.some((value) => value.replace(/_/g, " ") === phrase));
  });
  // (Else the longest phrase's: "not done" is a task's "open", over a project's "done".)
  const longest = Math.max(0, ...hits.map((hit) => hit.indexes.length));
  const owning = [...new Set(hits.filter((hit) => hit.indexes.length === longest).map((hit) => hit.value))];
  return spelt?.value ?? (owning.length === 1 ? owning[0]! : null);
}

/** "what does grace lamarr still have open": what someone has is theirs to do — of these, a resource with a person of its own. */
function someonesOwn(w: Words, owners: ResourceModel[]): ResourceModel | null {
  // ("high prio stuff assigned to lynn wilson": the resource whose own words for its person are said.)
  const text = ` ${w.joined} `;
  const assigned = owners.find((owner) => owner.skill?.person?.words.some((phrase) => phrase.includes(" ") && text.includes(` ${phrase} `)));
  if (assigned) return assigned;
  const someoneHas = /^(?:what|which|anything|how many|how much)\b.*\b(?:does|do|has|have)\b.+\b(?:have|got|has)\b/.test(w.joined);
  return someoneHas ? (owners.find((owner) => owner.skill?.person) ?? null) : null;
}

function stateResource(w: Words, schema: SchemaModel, taken: Set<number>): ResourceModel | null {
  // (Each resource's words on their own: "in progress" is an open deal's and a task's.)
  const ranked = schema.resources.flatMap((resource) =>
    matchPhrases(
      w.words,
      (resource.skill?.filters ?? []).map((filter, rank) => ({ phrases: filter.words, value: { resource, rank } })),
      new Set(taken),
    ),
  );
  if (ranked.length === 0) return null;
  // (A word that is one resource's first state and another's later one is the first's: "open" is a deal's before
  // it is a lead's.)
  const hits = [...ranked].sort((a, b) => a.value.rank - b.value.rank).map((hit) => ({ ...hit, value: hit.value.resource }));
  const asksMoney = /\b(how much|total|sum|amount|value|worth)\b/.test(w.joined);
  const owners = [...new Set(hits.map((hit) => hit.value))];
  // "late on the task board": a resource named anywhere, even after a preposition, is the one.
  const named = owners.find((owner) => owner.nouns.some((noun) => occurrences(w.words, noun).length > 0));
  if (named) return named;
  // "got in progress": the resource whose own state is spelt so (a task's in_progress) over one that only
  // counts the words as a synonym (an open deal).
  const spelt = (owner: ResourceModel) =>
    hits.some((hit) => {
      const phrase = hit.indexes.map((i) => w.words[i]).join(" ");
      return (
        hit.value === owner && hit.indexes.length > 1 && [...owner.fields.values()].some((f) => f.values?.some((value) => value.replace(/_/g, " ") === phrase))
      );
    });
  return (
    (asksMoney ? owners.find((owner) => [...owner.fields.values()].some((field) => field.kind === "money")) : null) ??
    someonesOwn(w, owners) ??
    owners.find(spelt) ??
    owners[0]!
  );
}

/** The date field a period is about: the verb nearest before it, the resource's own date words, else its default. */
function dateFieldFor(w: Words, R: ResourceModel, periodAt: number[], verbs: Hit<{ resource: ResourceModel; field: string }>[]): string | null {
  const own = verbs.filter((hit) => hit.value.resource === R);
  if (own.length > 0) {
    const start = periodAt[0] ?? w.words.length;
    const nearest = [...own].sort((a, b) => Math.abs(start - a.indexes[0]!) - Math.abs(start - b.indexes[0]!))[0]!;
    return nearest.value.field;
  }
  // A date field's own words ("created", "due", "issued").
  for (const field of R.fields.values()) {
    if (field.kind !== "date" && field.kind !== "datetime") continue;
    const words = field.name.replace(/_(at|date)$/, "").split("_");
    if (words[0] && w.words.includes(words[0])) return field.name;
  }
  if (/\b(new|added|created|signed|came in|joined)\b/.test(w.words.join(" ")) && R.fields.has("created_at") && R.defaultDate !== "date") return "created_at";
  return R.defaultDate;
}

/** The money or number field named just before an amount ("amount due over 1,000"), if any. */
function fieldNamedNear(w: Words, R: ResourceModel, start: number, end = start): string | null {
  const before = w.text.slice(Math.max(0, start - 30), start).toLowerCase();
  // "more than 2k still due": a field's words right after the amount name it too.
  const after = w.text.slice(end, end + 14).toLowerCase();
  let best: { field: string; at: number } | null = null;
  let next: { field: string; at: number } | null = null;
  for (const field of R.fields.values()) {
    if (field.kind !== "money" && field.kind !== "number") continue;
    for (const word of field.words) {
      if (word.length <= 2) continue;
      const at = before.lastIndexOf(word);
      if (at >= 0 && (!best || at > best.at)) best = { field: field.name, at };
      const ahead = new RegExp(`^\\s*${escapeRegExp(word)}\\b`).test(after) ? 0 : -1;
      if (ahead === 0 && (!next || word.length > next.at)) next = { field: field.name, at: word.length };
    }
  }
  // ("where they still owe more than 10k": a measure's words name the field it adds up.)
  for (const measure of R.skill?.measures ?? []) {
    if (!measure.field || !["money", "number"].includes(R.fields.get(measure.field)?.kind ?? "")) continue;
    for (const word of measure.words) {
      const at = before.search(new RegExp(`\\b${escapeRegExp(word)}\\b(?!.*\\b${word}\\b)`));
      if (word.length > 2 && at >= 0 && (!best || at > best.at)) best = { field: measure.field, at };
    }
  }
  return next?.field ?? best?.field ?? null;
}

/** A number field named anywhere ("average deal size", "biggest amount due"); its words are claimed. */
/** No noun, measure or verb: the first resource (in the packages' order) with an amount field of that name ("total tax in q2" → invoices). */
function amountFieldOwner(w: Words, schema: SchemaModel, taken: Set<number>): ResourceModel | null {
  // (A word of some resource's own measure — "balance", "total" — is no such name: it says too little.)
  const general = new Set(schema.resources.flatMap((R) => (R.measure ? (R.fields.get(R.measure)?.words ?? []) : [])));
  // ("tax id" is a customer's field of its own, not the invoices' tax.)
  const longer = matchPhrases(
    w.words,
    schema.resources.flatMap((R) =>
      [...R.fields.values()].filter((f) => f.kind !== "money").map((f) => ({ phrases: f.words.filter((phrase) => phrase.includes(" ")), value: f.name })),
    ),
    new Set(taken),
  ).flatMap((hit) => hit.indexes);
  const blocked = new Set([...taken, ...longer]);
  const owners = schema.resources.filter(
    (R) =>
      matchPhrases(
        w.words,
        [...R.fields.values()]
          .filter((f) => f.kind === "money" && f.name !== R.measure)
          .map((f) => ({ phrases: f.words.filter((phrase) => !general.has(phrase)), value: f.name })),
        blocked,
      ).length > 0,
  );
  return owners[0] ?? null;
}

function numericFieldNamed(w: Words, R: ResourceModel, taken: Set<number>): string | null {
  const hits = matchPhrases(
    w.words,
    [...R.fields.values()].filter((f) => f.kind === "money" || f.kind === "number" || f.kind === "minutes").map((f) => ({ phrases: f.words, value: f.name })),
    new Set(taken),
  );
  // ("total positions across the open openings": a field whose word is also the resource's noun still names it.)
  if (hits.length === 0)
    hits.push(
      ...matchPhrases(
        w.words,
        [...R.fields.values()]
          .filter((f) => (f.kind === "number" || f.kind === "money" || f.kind === "minutes") && f.words.some((word) => R.nouns.includes(word)))
          .map((f) => ({ phrases: f.words, value: f.name })),
        new Set(),
      ),
    );
  // "total tax": the specific field over the resource's general measure ("total" also names the sum).
  // ("avg amount due": a field's phrase of several words names it even where a word of it was read as a date's verb.)
  const loose = matchPhrases(
    w.words,
    [...R.fields.values()].filter((f) => f.kind === "money" || f.kind === "number" || f.kind === "minutes").map((f) => ({ phrases: f.words, value: f.name })),
    new Set(),
  ).find((candidate) => candidate.value !== R.measure && candidate.indexes.length > 1);
  const hit = hits.find((candidate) => candidate.value !== R.measure) ?? loose ?? hits[0];
  for (const i of hit?.indexes ?? []) taken.add(i);
  return hit?.value ?? null;
}

/** The number a query's states are about: "unpaid", "overdue", "partially paid" invoices → what is still due. */
export function stateMeasureOf(R: ResourceModel, conditions: Condition[]): string | undefined {
  for (const measure of R.skill?.measures ?? []) {
    if (!measure.where || !measure.field) continue;
    const within = Object.entries(measure.where).every(([param, raw]) =>
      conditions.some((c) => {
        // A list filter that is no field ("overdue") narrows to those states.
        if ("param" in c) return !c.negate;
        if (c.field !== param || raw.startsWith("!") || c.op === "ne" || c.op === "not_in") return false;
        const wanted = raw.split(",");
        return (Array.isArray(c.value) ? c.value : [c.value]).every((value) => wanted.includes(String(value)));
      }),
    );
    if (within) return measure.field;
  }
  return undefined;
}

/** "stage", "project", "customer", "who", "source": the field a group-by phrase names. */
function groupField(R: ResourceModel, schema: SchemaModel, phrase: string): { field: string; words: number; phrase: string } | null {
  // "which day", "per day": the record's own day, when it is a plain date (a time entry's).
  const day = /^(day|days|date|dates)\b/.exec(phrase);
  if (day && R.fields.get(R.defaultDate)?.kind === "date") return { field: R.defaultDate, words: 1, phrase: day[1]! };
  const words = phrase.split(" ");
  for (const candidate of [...new Set([phrase, words.at(-1)!, words[0]!])]) {
    const take = candidate.split(" ").length;
    for (const field of R.fields.values()) {
      if (field.kind === "reference" || field.kind === "enum" || field.kind === "text" || field.kind === "boolean" || field.kind === "date") {
        if (field.words.includes(candidate) || field.name === candidate || `${field.name}s` === candidate)
          return { field: field.name, words: take, phrase: candidate };
      }
      if (field.kind === "reference" && schema.byName.get(field.target!)?.nouns.includes(candidate))
        return { field: field.name, words: take, phrase: candidate };
    }
    if (PERSON_WORDS.includes(candidate) && R.skill?.person) return { field: R.skill.person.param, words: take, phrase: candidate };
  }
  return null;
}

/** After a name's words: a plural noun ("companies", "ones") or "in the name" — records of that kind, not one of them. */
function kindOfMany(w: Words, taken: Set<number>, next: number): boolean {
  const word = w.words[next] ?? "";
  if (/^in (?:the|their|its) names?\b/.test(w.words.slice(next, next + 3).join(" "))) return true;
  return word === "ones" || (taken.has(next) && /[^s]s$/.test(word));
}

/** What no schema word claimed: runs of words that may name records or values, with the word before them. */
function leftovers(w: Words, taken: Set<number>): NameSpan[] {
  const spans: NameSpan[] = [];
  let run: number[] = [];
  const flush = () => {
    // Trailing and leading filler ("the", "of") is not part of a name; inner filler may be ("Bank of Ireland").
    while (run.length && FILLER.has(w.words[run[0]!]!)) run.shift();
    while (run.length && FILLER.has(w.words[run.at(-1)!]!)) run.pop();
    // "what department is the finance analyst job under": a preposition that ends the message is its grammar.
    if (run.length === 1 && run[0] === w.words.length - 1 && isPreposition(w.words[run[0]]!)) run.pop();
    if (run.length && !run.every((i) => /^\d+$/.test(w.words[i]!))) {
      const trigger = wordBefore(w, run[0]!).word;
      const negated =
        negatedAt(w, run[0]!) ||
        ["outside", "except", "excluding", "besides"].includes(trigger) ||
        /\b(leave out|not in|not for|other than)\s*$/.test(w.words.slice(0, run[0]).join(" "));
      const before = run[0]! > 0 ? w.words[run[0]! - 1]! : "";
      // (A list's names: split where a comma stands between words, or at "and"/"or".)
      const parts: number[][] = [[]];
      run.forEach((i, k) => {
        const gap = k > 0 ? w.text.slice(w.tokens[run[k - 1]!]!.end, w.tokens[i]!.start) : "";
        if (["and", "or", "&"].includes(w.words[i]!)) parts.push([]);
        else {
          if ((gap.includes(",") || gap.includes("+")) && parts.at(-1)!.length > 0) parts.push([]);
          parts.at(-1)!.push(i);
        }
      });
      const listed = parts.filter((part) => part.length > 0);
      spans.push({
        text: rawOf(w, run),
        indexes: run,
        ...(listed.length >= 2 ? { parts: listed.map((part) => rawOf(w, part)) } : {}),
        trigger: isPreposition(trigger) ? trigger : null,
        ...(negated ? { negated } : {}),
        ...(before && !FILLER.has(before) && !GRAMMAR.has(before) && !isPreposition(before) ? { before } : {}),
        // "the holdings companies", "customers with labs in the name": a word of many names, each of them wanted.
        ...(["called", "named"].includes(before) || kindOfMany(w, taken, run.at(-1)! + 1) ? { called: true } : {}),
      });
    }
    run = [];
  };
  w.words.forEach((word, i) => {
    const boundary =
      taken.has(i) ||
      GRAMMAR.has(word) ||
      // ("sales managers not in berlin": "not" before a preposition negates what follows; it ends the name before it.)
      (word === "not" && isPreposition(w.words[i + 1] ?? "")) ||
      (FILLER.has(word) && !(run.length > 0 && ["of", "and", "&"].includes(word) && i + 1 < w.words.length && !taken.has(i + 1)));
    // ("ship emails (partner api)": what is in brackets is a name of its own — the parent that tells which.)
    const bracketed = i > 0 && /[()]/.test(w.text.slice(w.tokens[i - 1]!.end, w.tokens[i]!.start));
    if (boundary || bracketed) flush();
    if (!boundary) run.push(i);
  });
  flush();
  return spans;
}

/** "deals closing this month": a date only the records still open have ahead of them — those, unless a state is said. */
function pendingOnly(R: ResourceModel | null, period: Period | null, conditions: Condition[], today: string): Condition[] {
  const date = R && period ? R.dateWords.find((candidate) => candidate.field === period.field && candidate.where) : undefined;
  if (!R || !date?.where || conditions.some((c) => "field" in c && ["status", "stage"].includes(c.field))) return conditions;
  const label = Object.values(date.where).join(" or ").replace(/,/g, " or ").replace(/_/g, " ");
  return [...conditions, ...conditionsOf(R, date.where, label, false, today)];
}

/** A state's label, negated as people say it: "not paid", but "who haven't left" (not "not who left"). */
function notSaid(label: string): string {
  const who = /^who\s+(\S+)(.*)$/.exec(label);
  return who ? `who haven't ${who[1]}${who[2]}` : `not ${label}`;
}

/** A date field of R named right after a word for the earliest or latest ("oldest due date"): that field. */
function dateNamedAfter(text: string, R: ResourceModel, word: string): string | null {
  for (const field of R.fields.values()) {
    if (field.kind !== "date" && field.kind !== "datetime") continue;
    // (Its words that say "date", so that "the latest payment" is still one record.)
    const phrases = field.words.filter((phrase) => /\bdate\b/.test(phrase)).map((phrase) => escapeRegExp(phrase));
    if (phrases.length > 0 && new RegExp(`\\b${word}\\s+(?:${phrases.join("|")})\\b`).test(text)) return field.name;
  }
  return null;
}
