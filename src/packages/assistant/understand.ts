import { StemmerEn } from "@nlpjs/lang-en-min";
import type { NlpInstance } from "@nlpjs/nlp";
import type { PackageRegistry } from "../../platform/packages";
import type { ActionSkill, MetricSkill, ResourceSkill, Skill } from "../../platform/skills";
import { findAmount } from "./amounts";
import { newClassifier } from "./classifier";
import { CORPUS } from "./corpus";
import { type DayRange, type Direction, findRange, namedPeriod, shiftDays, todayIso } from "./dates";
import trained from "./model.json";
import { correct, EMAIL, STOP, type Token, tokenize } from "./text";

/**
 * The understanding layer: a message → one tool call with its arguments (a Plan), offline and
 * deterministic. The @nlpjs classifier (trained at build time) names the family — metric, count, list,
 * lookup, one of the actions, help, greeting or none; the packages' skills supply the words for
 * resources, fields, states and metrics; chrono-node reads dates; names stay text here and are resolved
 * against the workspace's records by the tools (fuse.js), so this step reads no data.
 */

export type NameRef = { resource: string; text: string };
export type PeriodChoice = { period: string } | { from: string; to: string };

export type Plan =
  | { intent: "metric"; widget: string; title: string; period: PeriodChoice; label: string; pick?: { widget: string; text: string } }
  | { intent: "count" | "list"; resource: string; query: Record<string, string>; refs: Record<string, NameRef>; conditions: string[] }
  | { intent: "lookup"; resources: string[]; field: string | null; reference: Record<string, string> | null; name: string | null }
  | { intent: "action"; action: string; values: Record<string, unknown>; refs: Record<string, NameRef>; labels: Record<string, string>; missing: string[] }
  | { intent: "help" | "greeting" | "unknown" };

type Owned<S> = { pkg: string; skill: S };
export type Catalog = {
  resources: Owned<ResourceSkill>[];
  metrics: Owned<MetricSkill>[];
  actions: Owned<ActionSkill>[];
  vocabulary: Set<string>;
  /** The trained intent classifier, loaded on first use. */
  classify(text: string): ReturnType<NlpInstance["process"]>;
  /** Word → stem, remembered (a few thousand words at most). */
  stems: Map<string, string>;
};

// One catalogue per registry: a pure function of the packages it lists, built on first use.
const catalogs = new WeakMap<PackageRegistry, Catalog>();

/** The skills of every package of this build, and the words they use. */
export function skills(registry: PackageRegistry): Catalog {
  let catalog = catalogs.get(registry);
  if (!catalog) {
    catalog = buildCatalog(registry);
    catalogs.set(registry, catalog);
  }
  return catalog;
}

function buildCatalog(registry: PackageRegistry): Catalog {
  const all = registry.all.flatMap((manifest) => (manifest.skills ?? []).map((skill: Skill) => ({ pkg: manifest.name, skill })));
  const resources = all.filter((entry): entry is Owned<ResourceSkill> => entry.skill.kind === "resource");
  const metrics = all.filter((entry): entry is Owned<MetricSkill> => entry.skill.kind === "metric");
  const actions = all.filter((entry): entry is Owned<ActionSkill> => entry.skill.kind === "action");
  const vocabulary = new Set<string>();
  const add = (phrase: string) => {
    for (const word of phrase.toLowerCase().split(/[\s-]+/)) vocabulary.add(word);
  };
  for (const { skill } of resources) {
    [skill.singular, skill.plural, ...(skill.synonyms ?? [])].forEach(add);
    for (const field of Object.values(skill.fields)) field.words.forEach(add);
    skill.filters?.forEach((filter) => filter.words.forEach(add));
    skill.dates?.forEach((date) => date.words.forEach(add));
  }
  for (const { skill } of metrics) skill.phrases.forEach(add);
  for (const { skill } of actions)
    for (const slot of skill.slots)
      Object.values(slot.states ?? {})
        .flat()
        .forEach(add);
  Object.values(CORPUS).flat().forEach(add);
  let classifier: Promise<NlpInstance> | null = null;
  const classify = (text: string) => {
    classifier ??= newClassifier().then((nlp) => {
      nlp.import(trained.model);
      return nlp;
    });
    return classifier.then((nlp) => nlp.process("en", text));
  };
  return { resources, metrics, actions, vocabulary, classify, stems: new Map() };
}

/** The message as words: typos in domain words corrected, names and titles kept as typed. */
/** Stems make "coming" meet "come" and "projects" meet "project" (the Porter stemmer of @nlpjs/lang-en-min). */
const stemmer = new StemmerEn();
function stem(stems: Map<string, string>, word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = /^[a-z]+$/.test(word) ? stemmer.stemWord(word) : word;
    if (stems.size > 5_000) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

type Words = { tokens: Token[]; words: string[]; stems: string[]; text: string; raw: string; catalog: Catalog };

function wordsOf(message: string, catalog: Catalog): Words {
  const tokens = tokenize(message);
  const words = tokens.map((token) => correct(token.lower, catalog.vocabulary));
  return { tokens, words, stems: words.map((word) => stem(catalog.stems, word)), text: words.join(" "), raw: message, catalog };
}

/** Every occurrence of `phrase` as whole words, allowing `gap` extra words between its words ("how big is the sales team"). */
function occurrences(words: readonly string[], phrase: string, gap = 0): number[][] {
  const parts = phrase.toLowerCase().split(/[\s-]+/);
  const found: number[][] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== parts[0]) continue;
    const at = [i];
    let position = i;
    for (const part of parts.slice(1)) {
      let next = -1;
      for (let k = position + 1; k <= Math.min(words.length - 1, position + 1 + gap); k++) {
        if (words[k] === part) {
          next = k;
          break;
        }
      }
      if (next < 0) break;
      at.push(next);
      position = next;
    }
    if (at.length === parts.length) found.push(at);
  }
  return found;
}

/** The longest non-overlapping phrase matches of a set of candidates, longest first. */
function matchAll<T>(words: readonly string[], candidates: { phrases: string[]; value: T }[], taken: Set<number>, gap = 0) {
  const hits: { value: T; indexes: number[]; length: number }[] = [];
  for (const candidate of candidates) {
    for (const phrase of candidate.phrases) {
      for (const indexes of occurrences(words, phrase, gap)) hits.push({ value: candidate.value, indexes, length: phrase.split(/[\s-]+/).length });
    }
  }
  hits.sort((a, b) => b.length - a.length || a.indexes[0]! - b.indexes[0]!);
  const accepted: typeof hits = [];
  for (const hit of hits) {
    if (hit.indexes.some((i) => taken.has(i))) continue;
    hit.indexes.forEach((i) => taken.add(i));
    accepted.push(hit);
  }
  return accepted;
}

const nounsOf = (skill: ResourceSkill) => [skill.plural, skill.singular, ...(skill.synonyms ?? [])];
const PREPOSITIONS: ReadonlySet<string> = new Set(["in", "for", "of", "on", "to", "at", "from", "under", "into"]);

/** The resource the message is about: the first noun that is not the object of a preposition ("tasks in project X"). */
function findResource(
  w: Words,
  taken: Set<number>,
  among?: Owned<ResourceSkill>[],
): { entry: Owned<ResourceSkill>; indexes: number[]; plural: boolean } | null {
  const entries = among ?? w.catalog.resources;
  const hits = entries
    .flatMap((entry) =>
      nounsOf(entry.skill).flatMap((noun) =>
        occurrences(w.words, noun).map((indexes) => ({ entry, indexes, length: noun.split(/[\s-]+/).length, plural: noun !== entry.skill.singular })),
      ),
    )
    .filter((hit) => !hit.indexes.some((i) => taken.has(i)));
  if (hits.length === 0) return null;
  hits.sort((a, b) => a.indexes[0]! - b.indexes[0]! || b.length - a.length);
  // The word before the noun, articles skipped: "from the website" is the object of "from".
  const before = (i: number) => {
    let k = i - 1;
    while (k >= 0 && (w.words[k] === "the" || w.words[k] === "a" || w.words[k] === "an" || w.words[k] === "our")) k--;
    return w.words[k] ?? "";
  };
  const free = hits.find((hit) => !PREPOSITIONS.has(before(hit.indexes[0]!))) ?? hits[0]!;
  free.indexes.forEach((i) => taken.add(i));
  return { entry: free.entry, indexes: free.indexes, plural: free.plural };
}

/** Token indexes a character span covers. */
function indexesIn(w: Words, start: number, end: number): number[] {
  return w.tokens.flatMap((token, i) => (token.start < end && token.end > start ? [i] : []));
}

/** The words after a trigger up to the next known word, as typed: "assigned to Ana Garcia due Friday" → "Ana Garcia". */
function valueAfter(w: Words, triggers: string[], taken: Set<number>, stopAt: Set<number> = new Set()): { text: string; indexes: number[] } | null {
  for (const trigger of [...triggers].sort((a, b) => b.split(" ").length - a.split(" ").length)) {
    for (const at of occurrences(w.words, trigger)) {
      if (at.some((i) => taken.has(i))) continue;
      let i = at.at(-1)! + 1;
      while (i < w.words.length && (w.words[i] === "the" || w.words[i] === "a")) i++;
      const run: number[] = [];
      while (i < w.words.length && !taken.has(i) && !stopAt.has(i) && !(run.length > 0 && STOP.has(w.words[i]!))) {
        if (STOP.has(w.words[i]!) && run.length === 0) break;
        run.push(i);
        i++;
      }
      if (run.length > 0) return { text: run.map((k) => w.tokens[k]!.raw).join(" "), indexes: [...at, ...run] };
    }
  }
  return null;
}

/** What is left once every known word is accounted for: the name of a record, as typed. */
function leftover(w: Words, taken: Set<number>): string | null {
  const runs: number[][] = [];
  let run: number[] = [];
  w.words.forEach((word, i) => {
    const known = taken.has(i) || STOP.has(word);
    if (known) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(i);
  });
  if (run.length) runs.push(run);
  if (runs.length === 0) return null;
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a));
  return longest.map((i) => w.tokens[i]!.raw).join(" ");
}

function periodChoice(range: DayRange | null, now: number, fallback: string): { period: PeriodChoice; label: string } {
  if (!range)
    return {
      period: { period: fallback },
      label:
        {
          "7d": "in the last 7 days",
          "30d": "in the last 30 days",
          "90d": "in the last 90 days",
          "12mo": "in the last 12 months",
          mtd: "this month",
          ytd: "this year",
        }[fallback] ?? "",
    };
  const named = namedPeriod(range, now);
  return named
    ? { period: { period: named }, label: periodLabel(named) }
    : { period: { from: range.from, to: range.to }, label: range.from === range.to ? `on ${range.from}` : `from ${range.from} to ${range.to}` };
}
const periodLabel = (name: string) =>
  ({
    "7d": "in the last 7 days",
    "30d": "in the last 30 days",
    "90d": "in the last 90 days",
    "12mo": "in the last 12 months",
    mtd: "this month",
    ytd: "this year",
  })[name] ?? "";

function bestMetric(w: Words, taken: Set<number>): { entry: Owned<MetricSkill>; words: number; indexes: number[]; exact: boolean } | null {
  const hits = matchAll(
    w.stems,
    w.catalog.metrics.map((entry) => ({
      phrases: entry.skill.phrases.map((phrase) =>
        phrase
          .split(/[\s-]+/)
          .map((word) => stem(w.catalog.stems, word))
          .join(" "),
      ),
      value: entry,
    })),
    new Set(taken),
    1,
  );
  const best = hits[0];
  if (!best) return null;
  // A one-word phrase met only by its stem ("book" for "bookings") is weak evidence.
  const exact = best.length > 1 || best.value.skill.phrases.some((phrase) => phrase === w.words[best.indexes[0]!]);
  return { entry: best.value, words: best.length, indexes: best.indexes, exact };
}

/** "Friday" after "due" in a task: the range, in the direction the word points. */
function rangeFor(w: Words, now: number, direction: Direction) {
  return findRange(w.raw, now, direction);
}

/** Words that must be there for the classifier's action to be one ("create", "mark", "send"…). */
const ACTION_CUES: Record<string, RegExp> = {
  create_task: /\b(create|add|new|make|set up|setup|schedule|open|i need|please|task:|to-?do:)/,
  set_task_status: /\b(mark|set|move|complete|finish|close|start|reopen|put|change|is|are|done)\b/,
  move_deal: /\b(move|mark|set|advance|close|change|put|push|we won|we lost|is won|is lost|goes)\b/,
  create_contact: /@/,
  send_invoice: /\b(send|email|e-mail|deliver|issue|resend)\b/,
  move_candidate: /\b(move|advance|reject|set|put|goes|progress|promote)\b/,
};

export async function understand(message: string, now: number, registry: PackageRegistry): Promise<Plan> {
  const w = wordsOf(message, skills(registry));
  if (w.words.length === 0) return { intent: "unknown" };
  const result = await w.catalog.classify(w.text);
  const ranked = result.classifications.filter((c) => c.score >= 0.5 || c === result.classifications[0]);
  const acceptable = (name: string) => {
    if (name.startsWith("action.")) return ACTION_CUES[name.slice(7)]?.test(w.text) ?? true;
    if (name === "greeting") return w.words.length <= 4;
    return true;
  };
  const top = ranked.find((c) => acceptable(c.intent) && c.score >= 0.5);
  let intent = top?.intent ?? "None";
  // An e-mail address with "add", "create" or "new": a contact to create, whatever the rest says.
  if (EMAIL.test(w.raw) && /\b(add|create|new|save)\b/.test(w.text) && w.catalog.actions.some((a) => a.skill.name === "create_contact"))
    intent = "action.create_contact";
  if (intent === "greeting" || intent === "help") return { intent };
  if (intent.startsWith("action.")) {
    // "add a lead …", "new customer …": the kind of record the words name is never swapped for another.
    if (createsAnotherKind(intent.slice(7), w)) return { intent: "unknown" };
    const plan = planAction(intent.slice(7), w, now);
    // "finished tasks", "deals we lost": a plural noun and nothing to act on is a list.
    if (plan && plan.intent === "action" && plan.missing.length > 0) {
      const noun = findResource(
        w,
        new Set(),
        w.catalog.resources.filter((entry) => entry.skill.resource === w.catalog.actions.find((a) => a.skill.name === plan.action)?.skill.resource),
      );
      if (noun?.plural) intent = "list";
      // Nothing names what to act on, not even its noun ("send an email to my mum"): not ours.
      else if (!noun) return { intent: "unknown" };
      else return plan;
    } else return plan ?? { intent: "unknown" };
  }

  // "status of INV-000012": a reference to one record is a lookup, whatever the classifier made of it.
  if (w.catalog.resources.some(({ skill }) => skill.reference?.pattern.test(w.raw))) return planLookup(w);

  const taken = new Set<number>();
  const metric = bestMetric(w, taken);
  const resource = findResource(w, new Set());
  const asksCount = /^(how many|number of|count|total number|tally)\b/.test(w.text);
  const asksAmount = /^(how much|(what('s| is) )?(the |our )?(total |sum of (the )?)?(value|amount|sum|total)( of)?)\b/.test(w.text);
  const asksList = /^(list|show|display|give me (a |the )?list|which|find|pull up|get|any)\b/.test(w.text) && Boolean(resource?.plural);
  // A metric phrase that contains the noun ("leads by source", "website traffic") names the metric,
  // unless the resource's own filter words are there too ("billable hours logged yesterday" is a list).
  const filtered = Boolean(
    resource &&
      (resource.entry.skill.filters ?? []).some((filter) =>
        filter.words.some((word) => occurrences(w.words, word).some((at) => !at.every((i) => metric?.indexes.includes(i)))),
      ),
  );
  const metricCoversNoun = Boolean(metric && resource?.indexes.every((i) => metric.indexes.includes(i)) && !filtered && !asksList);
  if (intent === "None") {
    if (metric?.exact && (!resource || metricCoversNoun)) intent = "metric";
    else if (resource) intent = asksCount ? "count" : "list";
    else if (/^(who is|who's|whos|look up|lookup|find)\b/.test(w.text)) intent = "lookup";
    else return { intent: "unknown" };
  }
  // "how many positions does the X opening have": a field of one record, not a count.
  if (intent === "count" || intent === "list" || intent === "lookup") {
    const asField = planLookup(w);
    if (
      asField.intent === "lookup" &&
      asField.field &&
      asField.name &&
      resource &&
      Object.values(resource.entry.skill.fields).some((field) => field.words.some((word) => word.startsWith("how many") && w.text.startsWith(word)))
    )
      return asField;
  }
  if (asksCount && resource && (intent === "lookup" || intent === "list")) intent = "count";
  if (intent === "metric" && resource && filtered && !asksAmount) intent = asksCount ? "count" : "list";
  if (intent === "metric" && !metric) intent = resource ? (asksCount ? "count" : "list") : "unknown";
  if (intent === "count" && metric && !resource) intent = "metric";
  if (intent === "count" && metric && metric.words >= 2 && metricCoversNoun) intent = "metric";
  if ((intent === "list" || intent === "lookup") && metric && (metricCoversNoun || asksAmount || (!resource && metric.words >= 2))) intent = "metric";

  switch (intent) {
    case "metric":
      return planMetric(w, metric!, now);
    case "count":
    case "list": {
      const plan = planList(intent, w, now);
      if (plan) return plan;
      const lookup = planLookup(w);
      return lookup.intent === "lookup" && lookup.field && lookup.name ? lookup : metric ? planMetric(w, metric, now) : { intent: "unknown" };
    }
    case "lookup": {
      const plan = planLookup(w);
      // "partially paid invoices": no name (or only the resource's filter words) and no reference is a list.
      if (plan.intent === "lookup" && !plan.reference && resource) {
        const filterWords = new Set((resource.entry.skill.filters ?? []).flatMap((filter) => filter.words.flatMap((word) => word.split(" "))));
        if (
          !plan.name ||
          plan.name
            .toLowerCase()
            .split(/\s+/)
            .every((word) => filterWords.has(word))
        )
          return planList("list", w, now) ?? plan;
        // "what tasks does Grace have", "contacts who work at Hooli": a plural noun asks for a list.
        if (resource.plural) {
          const listed = planList("list", w, now);
          if (listed?.intent === "list") {
            const person = resource.entry.skill.person;
            if (person && !listed.refs[person.param] && Object.keys(listed.query).length === 0 && plan.name)
              listed.refs[person.param] = { resource: "employees", text: plan.name };
            return listed;
          }
        }
      }
      return plan;
    }
    default:
      return { intent: "unknown" };
  }
}

function planMetric(w: Words, metric: { entry: Owned<MetricSkill>; indexes: number[] }, now: number): Plan {
  const { skill } = metric.entry;
  const range = rangeFor(w, now, "past");
  const { period, label } = periodChoice(range, now, skill.defaultPeriod ?? "30d");
  const plan: Plan = { intent: "metric", widget: skill.widget, title: skill.title, period, label: skill.now ? "now" : label };
  if (skill.pick) {
    const taken = new Set(metric.indexes);
    if (range) indexesIn(w, range.start, range.end).forEach((i) => taken.add(i));
    // Resource nouns and the metric's own words are not the item ("employees in engineering").
    findResource(w, taken);
    for (const word of ["headcount", "team", "department", "staff", "people", "employees", "size", "big"])
      w.words.forEach((x, i) => x === word && taken.add(i));
    const text = leftover(w, taken);
    if (text) plan.pick = { widget: skill.pick.widget, text };
  }
  return plan;
}

function resolvePlaceholder(value: string, now: number): string {
  const today = todayIso(now);
  return value === "$today" ? today : value === "$yesterday" ? shiftDays(today, -1) : value;
}

function planList(intent: "count" | "list", w: Words, now: number): Plan | null {
  const taken = new Set<number>();
  let found = findResource(w, taken);
  // No noun ("who joined last month"): the resource whose date words are used.
  if (!found) {
    const byDate = w.catalog.resources.filter(({ skill }) => skill.dates?.some((date) => date.words.some((word) => occurrences(w.words, word).length > 0)));
    if (byDate.length === 1) found = { entry: byDate[0]!, indexes: [], plural: true };
  }
  if (!found) return null;
  const { skill } = found.entry;
  const query: Record<string, string> = {};
  const refs: Record<string, NameRef> = {};
  const conditions: string[] = [];

  // Dates first: "due next week", "joined last month", "this quarter".
  const dateWords = skill.dates ?? [];
  const future = dateWords.some(
    (date) => date.format === "date" && date.words.some((word) => ["due", "deadline"].includes(word) && occurrences(w.words, word).length > 0),
  );
  const range = findRange(w.raw, now, future ? "future" : "past");
  if (range) {
    const span = indexesIn(w, range.start, range.end);
    span.forEach((i) => taken.add(i));
    const before = w.words.slice(Math.max(0, span[0]! - 3), span[0]);
    const date =
      dateWords.find((d) => d.words.some((word) => before.includes(word) || occurrences(w.words, word).length > 0)) ?? dateWords.find((d) => d.default) ?? null;
    if (date) {
      query[date.after] = date.format === "date" ? range.from : `${range.from}T00:00:00Z`;
      query[date.before] = date.format === "date" ? range.to : `${range.to}T23:59:59.999Z`;
      date.words.forEach((word) => occurrences(w.words, word).forEach((at) => at.forEach((i) => taken.add(i))));
      conditions.push(`${date.words[0]} ${range.from === range.to ? `on ${range.from}` : `from ${range.from} to ${range.to}`}`);
    } else {
      query.created_after = `${range.from}T00:00:00Z`;
      query.created_before = `${range.to}T23:59:59.999Z`;
      conditions.push(`created ${range.from === range.to ? `on ${range.from}` : `from ${range.from} to ${range.to}`}`);
    }
  }
  const amount = skill.amount ? findAmount(w.raw) : null;
  if (amount && skill.amount) {
    indexesIn(w, amount.start, amount.end).forEach((i) => taken.add(i));
    if (amount.min !== undefined) query[skill.amount.min] = String(amount.min);
    if (amount.max !== undefined) query[skill.amount.max] = String(amount.max);
    conditions.push(
      amount.min !== undefined && amount.max !== undefined
        ? `between ${amount.min / 100} and ${amount.max / 100}`
        : amount.min !== undefined
          ? `of at least ${(amount.min / 100).toLocaleString("en-US")}`
          : `of at most ${(amount.max! / 100).toLocaleString("en-US")}`,
    );
  }
  for (const hit of matchAll(
    w.words,
    (skill.filters ?? []).map((filter) => ({ phrases: filter.words, value: filter })),
    taken,
  )) {
    for (const [param, value] of Object.entries(hit.value.query)) query[param] = resolvePlaceholder(value, now);
    conditions.push(hit.value.label);
  }
  for (const sort of skill.sorts ?? []) {
    if (sort.words.some((word) => occurrences(w.words, word).length > 0)) {
      query.sort = sort.sort;
      sort.words.forEach((word) => occurrences(w.words, word).forEach((at) => at.forEach((i) => taken.add(i))));
    }
  }
  for (const parent of skill.parents ?? []) {
    // "in project Website": the parent's own noun may introduce it.
    const parentSkill = w.catalog.resources.find((entry) => entry.skill.resource === parent.resource)?.skill;
    const triggers = [
      ...parent.words,
      ...(parentSkill ? parent.words.flatMap((word) => [`${word} ${parentSkill.singular}`, `${word} the ${parentSkill.singular}`]) : []),
    ];
    const value = valueAfter(w, triggers, taken);
    if (value) {
      value.indexes.forEach((i) => taken.add(i));
      refs[parent.param] = { resource: parent.resource, text: value.text.replace(new RegExp(`^${parentSkill?.singular ?? "\u0000"}\\s+`, "i"), "") };
      conditions.push(`in ${value.text}`);
    }
  }
  if (skill.person) {
    const person = valueAfter(w, skill.person.words, taken);
    if (person) {
      person.indexes.forEach((i) => taken.add(i));
      refs[skill.person.param] = { resource: "employees", text: person.text };
      conditions.push(`for ${person.text}`);
    }
  }
  for (const value of skill.values ?? []) {
    const found = valueAfter(w, value.words, taken);
    if (found) {
      found.indexes.forEach((i) => taken.add(i));
      query[value.param] = found.text;
      conditions.push(`${value.words[0]} ${found.text}`);
    }
  }
  return { intent, resource: skill.resource, query, refs, conditions };
}

function planLookup(w: Words): Plan {
  const { resources } = w.catalog;
  const taken = new Set<number>();
  // A reference first: "INV-000012", "invoice 12", "task 7".
  for (const { skill } of resources) {
    const match = skill.reference?.pattern.exec(w.raw);
    if (match) {
      indexesIn(w, match.index, match.index + match[0].length).forEach((i) => taken.add(i));
      const field = findField(w, [skill], taken);
      return { intent: "lookup", resources: [skill.resource], field, reference: skill.reference!.query(match[1] ?? match[0]), name: null };
    }
  }
  // The field first ("how many positions" holds a noun), then the resource among the other words.
  const preliminary = findResource(w, new Set());
  // Without a noun, people are looked up first: contacts, employees, leads, customers, candidates.
  const order = ["contacts", "employees", "leads", "customers", "candidates"];
  const rank = (skill: ResourceSkill) => (order.includes(skill.resource) ? order.indexOf(skill.resource) : order.length);
  const candidates = preliminary
    ? [preliminary.entry.skill]
    : resources
        .map((entry) => entry.skill)
        .filter((skill) => skill.nameField)
        .sort((a, b) => rank(a) - rank(b));
  const field = findField(w, candidates, taken);
  const found = findResource(w, taken) ?? preliminary;
  const owners = found ? [found.entry.skill] : candidates.filter((skill) => !field || field in skill.fields);
  const name = leftover(w, taken);
  return { intent: "lookup", resources: owners.map((skill) => skill.resource), field, reference: null, name };
}

function findField(w: Words, candidates: ResourceSkill[], taken: Set<number>): string | null {
  const hits = matchAll(
    w.words,
    candidates.flatMap((skill) => Object.entries(skill.fields).map(([field, spec]) => ({ phrases: spec.words, value: field }))),
    taken,
  );
  return hits[0]?.value ?? null;
}

/** The words that say "do it" for an action, removed before its slots are read. */
const ACTION_VERBS: ReadonlySet<string> = new Set(
  "create add new make set up setup schedule save please i need a an the move mark change put advance close finish complete start reopen send email deliver issue out reject we to-do todo ticket task".split(
    " ",
  ),
);

/** A create action whose verb is followed by another resource's noun ("new lead tom baker, tom@…" is not a contact). */
function createsAnotherKind(name: string, w: Words): boolean {
  const action = w.catalog.actions.find((candidate) => candidate.skill.name === name)?.skill;
  if (!action || !name.startsWith("create_")) return false;
  const noun = /\b(?:add|create|new|make|save|register|log)\s+(?:an?\s+|the\s+|one\s+)?(?:new\s+)?([a-z-]+)/.exec(w.text)?.[1];
  if (!noun) return false;
  const named = w.catalog.resources.find(({ skill }) => [skill.singular, skill.plural, ...(skill.synonyms ?? [])].some((word) => word.toLowerCase() === noun));
  return named !== undefined && named.skill.resource !== action.resource;
}

function planAction(name: string, w: Words, now: number): Plan | null {
  const entry = w.catalog.actions.find((candidate) => candidate.skill.name === name);
  if (!entry) return null;
  const action = entry.skill;
  const target = w.catalog.resources.find((candidate) => candidate.skill.resource === action.resource)?.skill;
  const taken = new Set<number>();
  const values: Record<string, unknown> = {};
  const refs: Record<string, NameRef> = {};
  const labels: Record<string, string> = {};

  // The slots introduced by a word ("in Website", "due Friday", "assigned to Ana") bound the others.
  const triggers = new Map<number, string>();
  for (const slot of action.slots) {
    for (const trigger of slot.after ?? []) for (const at of occurrences(w.words, trigger)) if (!triggers.has(at[0]!)) triggers.set(at[0]!, slot.name);
  }
  const boundaries = new Set(triggers.keys());
  const email = EMAIL.exec(w.raw);
  if (email) indexesIn(w, email.index, email.index + email[0].length).forEach((i) => boundaries.add(i));
  const quoted = /["“'‘]([^"”'’]{2,200})["”'’]/.exec(w.raw);

  for (const slot of action.slots) {
    if (slot.kind === "state") {
      const hits = matchAll(
        w.words,
        Object.entries(slot.states ?? {}).map(([state, phrases]) => ({ phrases, value: state })),
        taken,
      );
      if (hits[0]) values[slot.name] = hits[0].value;
    }
  }
  for (const slot of action.slots) {
    if (slot.kind === "date") {
      const at = [...triggers].find(([, name]) => name === slot.name)?.[0];
      const range =
        at !== undefined
          ? findRange(
              w.tokens
                .slice(at)
                .map((token) => token.raw)
                .join(" "),
              now,
              "future",
            )
          : null;
      if (range) {
        values[slot.name] = range.from;
        labels[slot.name] = range.from;
        const start = w.tokens[at!]!.start;
        indexesIn(w, start, w.tokens[at!]!.end).forEach((i) => taken.add(i));
        const absolute = w.raw.slice(start);
        const inner = findRange(absolute.slice(absolute.indexOf(" ") + 1), now, "future");
        if (inner) indexesIn(w, start + absolute.indexOf(" ") + 1 + inner.start, start + absolute.indexOf(" ") + 1 + inner.end).forEach((i) => taken.add(i));
      }
    }
    if (slot.kind === "email" && email) {
      values[slot.name] = email[0].toLowerCase();
      indexesIn(w, email.index, email.index + email[0].length).forEach((i) => taken.add(i));
    }
  }
  // Words introduced by a trigger: a record by name ("in Website"), up to the next trigger.
  for (const slot of action.slots) {
    if (slot.kind !== "record" || !slot.after) continue;
    const at = [...triggers]
      .filter(([, name]) => name === slot.name)
      .map(([index]) => index)
      .find((index) => !taken.has(index));
    if (at === undefined) continue;
    const trigger = (slot.after ?? []).filter((t) => occurrences(w.words, t).some((o) => o[0] === at)).sort((a, b) => b.length - a.length)[0]!;
    let i = at + trigger.split(" ").length;
    const run: number[] = [];
    while (i < w.words.length && !boundaries.has(i) && !taken.has(i)) {
      if (!(run.length === 0 && (w.words[i] === "the" || w.words[i] === "project" || w.words[i] === "a"))) run.push(i);
      i++;
    }
    if (run.length === 0) continue;
    for (let k = at; k < i; k++) taken.add(k);
    const resource = slot.resource!;
    refs[slot.name] = {
      resource,
      text: run
        .map((k) => w.tokens[k]!.raw)
        .join(" ")
        .replace(/[,:;.]+$/, ""),
    };
  }
  // The subject: a reference ("task 12", "INV-000012") or the name around the resource's noun.
  for (const slot of action.slots) {
    if (slot.kind !== "record" || slot.after) continue;
    const reference = target?.reference?.pattern.exec(w.raw);
    if (reference && slot.resource === action.resource) {
      const query = target!.reference!.query(reference[1] ?? reference[0]);
      if (query.id) values[slot.name] = Number(query.id);
      else refs[slot.name] = { resource: slot.resource, text: query.q! };
      indexesIn(w, reference.index, reference.index + reference[0].length).forEach((i) => taken.add(i));
      continue;
    }
    if (slot.byReference) continue;
    const noun = target
      ? findResource(
          w,
          new Set(),
          w.catalog.resources.filter((entry) => entry.skill === target),
        )
      : null;
    const free = (i: number) => !taken.has(i) && !boundaries.has(i) && !ACTION_VERBS.has(w.words[i]!) && !STOP.has(w.words[i]!);
    let run: number[] = [];
    if (noun) {
      for (let i = noun.indexes.at(-1)! + 1; i < w.words.length && (free(i) || (run.length === 0 && STOP.has(w.words[i]!) && !boundaries.has(i))); i++)
        if (free(i)) run.push(i);
      if (run.length === 0) for (let i = noun.indexes[0]! - 1; i >= 0 && free(i); i--) run.unshift(i);
    } else {
      run = w.words.map((_, i) => i).filter(free);
    }
    if (run.length > 0) refs[slot.name] = { resource: slot.resource!, text: run.map((k) => w.tokens[k]!.raw).join(" ") };
  }
  // The title or name: quoted, else what is left between the verb and the first trigger.
  for (const slot of action.slots) {
    if (slot.kind !== "title") continue;
    if (quoted) {
      values[slot.name] = quoted[1]!.trim();
      continue;
    }
    const noun = target
      ? findResource(
          w,
          new Set(),
          w.catalog.resources.filter((candidate) => candidate.skill === target),
        )
      : null;
    const colon = w.raw.indexOf(":");
    let start = noun ? noun.indexes.at(-1)! + 1 : 0;
    if (colon >= 0) {
      const afterColon = w.tokens.findIndex((token) => token.start > colon);
      if (afterColon >= 0 && (afterColon >= start || triggers.has(start))) start = afterColon;
    }
    while (start < w.words.length && ["called", "named", "titled", "to", "a", "the", "for", "new"].includes(w.words[start]!) && !triggers.has(start)) start++;
    const run: number[] = [];
    for (let i = start; i < w.words.length && !boundaries.has(i) && !taken.has(i); i++) run.push(i);
    let text = run.map((k) => w.tokens[k]!.raw).join(" ");
    if (!text && slot.name === "name") {
      // "add Ana Garcia ana@acme.com to contacts": the name before the e-mail.
      const before = w.words
        .map((_, i) => i)
        .filter((i) => !taken.has(i) && !ACTION_VERBS.has(w.words[i]!) && !STOP.has(w.words[i]!) && !boundaries.has(i) && !noun?.indexes.includes(i));
      text = before.map((k) => w.tokens[k]!.raw).join(" ");
    }
    text = text
      .replace(/^(?:with email|email)\s+/i, "")
      .replace(/[,:;.]+$/, "")
      .trim();
    if (text) values[slot.name] = text;
  }
  const missing = action.slots.filter((slot) => slot.required && values[slot.name] === undefined && !refs[slot.name]).map((slot) => slot.name);
  return { intent: "action", action: action.name, values, refs, labels, missing };
}
