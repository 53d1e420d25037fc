import type { Catalog } from "../understand";
import type { ResourceModel, SchemaModel } from "./model";
import type { Condition } from "./query";
import { FILLER, GRAMMAR, occurrences, type Words } from "./words";

/**
 * The words of the schema, matched in a message: resource nouns, state words (the skills' filter words and
 * every enum value of the definitions), date verbs, measure words and field words. Each match claims its
 * tokens so that what is left over is names and values.
 */

export type Hit<T> = { value: T; indexes: number[] };

/** The vocabulary typos are corrected to: every word the schema and the skills use. */
export function vocabularyOf(schema: SchemaModel, catalog: Catalog): Set<string> {
  const out = new Set<string>(catalog.vocabulary);
  const add = (phrase: string) => {
    for (const word of phrase.toLowerCase().split(/[\s_-]+/)) if (word) out.add(word);
  };
  for (const resource of schema.resources) {
    resource.nouns.forEach(add);
    for (const field of resource.fields.values()) {
      field.words.forEach(add);
      field.values?.forEach(add);
    }
    for (const measure of resource.skill?.measures ?? []) measure.words.forEach(add);
  }
  for (const word of VERBS) add(word);
  // Words of the question's grammar are never "corrected" into domain words ("least" is not "last").
  for (const word of [...GRAMMAR, ...FILLER]) out.add(word);
  return out;
}

const VERBS = ["average", "total", "biggest", "largest", "highest", "smallest", "lowest", "latest", "oldest", "overdue", "assigned", "logged"];

/** Longest phrases first, each token claimed once. */
export function matchPhrases<T>(words: readonly string[], candidates: { phrases: string[]; value: T }[], taken: Set<number>): Hit<T>[] {
  const hits: (Hit<T> & { length: number })[] = [];
  for (const candidate of candidates)
    for (const phrase of candidate.phrases)
      for (const indexes of occurrences(words, phrase)) hits.push({ value: candidate.value, indexes, length: indexes.length });
  hits.sort((a, b) => b.length - a.length || a.indexes[0]! - b.indexes[0]!);
  const accepted: Hit<T>[] = [];
  for (const hit of hits) {
    if (hit.indexes.some((i) => taken.has(i))) continue;
    for (const i of hit.indexes) taken.add(i);
    accepted.push({ value: hit.value, indexes: hit.indexes });
  }
  return accepted.sort((a, b) => a.indexes[0]! - b.indexes[0]!);
}

const PREPOSITIONS: ReadonlySet<string> = new Set(["in", "for", "of", "on", "to", "at", "from", "under", "into", "about", "with", "by", "per", "each"]);
const ARTICLES: ReadonlySet<string> = new Set(["the", "a", "an", "our", "my", "their", "that", "this", "its"]);

/** The word before a token, articles skipped. */
export function before(w: Words, index: number): { word: string; at: number } {
  let k = index - 1;
  while (k >= 0 && ARTICLES.has(w.words[k]!)) k--;
  return { word: w.words[k] ?? "", at: k };
}

export const isPreposition = (word: string) => PREPOSITIONS.has(word);

/** Words of how many or which, before "of" and a noun: "number of leads", "list of invoices", "which of the deals". */
const QUANTITIES: ReadonlySet<string> = new Set([
  "number",
  "count",
  "list",
  "total",
  "sum",
  "all",
  "any",
  "each",
  "some",
  "which",
  "none",
  "most",
  "lot",
  "lots",
  "bunch",
  "couple",
]);

/**
 * "time logged on the Ship checkout task", "… against the Billing v2 project": a singular noun after a name that a
 * preposition leads is that preposition's object too. The preposition's place, or -1.
 */
function namedBefore(w: Words, at: number, singular: boolean): number {
  if (!singular) return -1;
  let k = at - 1;
  let named = 0;
  while (k >= 0 && at - k <= 5) {
    const word = w.words[k]!;
    if (["on", "in", "for", "at", "against", "into"].includes(word)) return named > 0 ? k : -1;
    if (isPreposition(word) || GRAMMAR.has(word) || (FILLER.has(word) && !ARTICLES.has(word))) return -1;
    if (!ARTICLES.has(word)) named++;
    k--;
  }
  return -1;
}

/** Resource nouns in the message, in order, with whether each is the object of a preposition. */
// "leave out the lost ones" is a negation, not the leave package's noun.
export function nounsIn(w: Words, schema: SchemaModel, taken: Set<number>): (Hit<ResourceModel> & { object: boolean; plural: boolean })[] {
  const hits = matchPhrases(
    w.words,
    schema.resources.map((resource) => ({ phrases: resource.nouns, value: resource })),
    new Set(taken),
  );
  // ("Radia's job title": a noun that starts a longer field phrase of some resource is that field's word.)
  const fieldPhrases = schema.resources.flatMap((resource) =>
    [...resource.fields.values()].flatMap((field) => field.words.filter((word) => word.includes(" "))),
  );
  const startsField = (hit: Hit<ResourceModel>) => {
    const from = hit.indexes[0]!;
    return fieldPhrases.some((phrase) => {
      const parts = phrase.split(" ");
      return parts.length > hit.indexes.length && parts.every((part, k) => w.words[from + k] === part);
    });
  };
  return hits
    .filter((hit) => !(hit.indexes.length === 1 && w.words[hit.indexes[0]!] === "leave" && w.words[hit.indexes[0]! + 1] === "out"))
    .filter((hit) => !startsField(hit))
    .map((hit) => {
      const typed = hit.indexes.map((i) => w.words[i]).join(" ");
      // (Only with no noun before the name: in "who's the contact on the soylent platform deal" the deal is asked
      // about; in "time logged on the customer portal project" the name's own "customer" is no such noun.)
      const led = namedBefore(w, hit.indexes[0]!, typed === hit.value.singular);
      const first = !hits.some((other) => other.indexes[0]! < (led >= 0 ? led : hit.indexes[0]!));
      // ("number of leads", "list of invoices", "which of the deals": what is counted or listed, no preposition's object.)
      const prior = before(w, hit.indexes[0]!);
      const counted = prior.word === "of" && QUANTITIES.has(w.words[prior.at - 1] ?? "");
      return {
        ...hit,
        object: (isPreposition(prior.word) && !counted) || (first && led >= 0),
        plural: typed !== hit.value.singular,
      };
    });
}

const NEGATIONS: ReadonlySet<string> = new Set([
  "not",
  "no",
  "non",
  "except",
  "excluding",
  "exclude",
  "without",
  "never",
  "other",
  "besides",
  "apart",
  "outside",
  // "leads nobody has contacted": nobody did it, so it is not the case.
  "nobody",
  "noone",
]);
const SKIPPABLE: ReadonlySet<string> = new Set([
  "yet",
  "been",
  "are",
  "is",
  "be",
  "the",
  "that",
  "which",
  "currently",
  "still",
  "marked",
  "as",
  "in",
  "than",
  "from",
  "ones",
  "has",
  "have",
  "had",
  // ("did not come from referrals": where something came from is what is negated.)
  "come",
  "came",
  "comes",
]);

/** "not done", "aren't paid", "except won", "other than draft": a negation just before a token. */
export function negatedAt(w: Words, index: number): boolean {
  // "leave out the lost ones", "ignore voids", "minus the drafts", "skip done".
  if (
    /\b(leave out|leaving out|ignore|ignoring|minus|skip|skipping|without|exclude|excluding|apart from|other than|but not|not counting)( the| any| all| anything| everything| those| whatever is| anything that is| anything that s)?(?:( in| from| on| under| at| for)( the)?)?$/.test(
      w.words.slice(0, index).join(" "),
    )
  )
    return true;
  for (let k = index - 1, seen = 0; k >= 0 && seen < 4; k--, seen++) {
    const word = w.words[k]!;
    if (NEGATIONS.has(word) || (word === "one" && w.words[k - 1] === "no")) return true;
    // "outside engineering and sales", "not at globex or wonka", "weren't by card": the negation reaches
    // across a list and a preposition.
    if (["and", "or", "nor"].includes(word)) {
      for (let j = k - 1; j >= Math.max(0, k - 4); j--) if (negatedAt(w, j)) return true;
      return false;
    }
    if (!SKIPPABLE.has(word) && !["by", "at", "for", "with", "on"].includes(word)) return false;
  }
  return false;
}

/** A filter in the skills' syntax (`status: "sent,partially_paid"`, `"!draft,void"`, `"true"`) as conditions. */
export function conditionsOf(resource: ResourceModel, query: Record<string, string>, label: string, negate: boolean, today: string): Condition[] {
  return Object.entries(query).map(([param, raw]): Condition => {
    const resolved = raw === "$today" ? today : raw === "$yesterday" ? shiftIso(today, -1) : raw;
    const field = resource.fields.get(param);
    if (!field) return { param, value: resolved, label };
    const not = resolved.startsWith("!") !== negate;
    const text = resolved.replace(/^!/, "");
    const list = text.split(",");
    const value = field.kind === "boolean" ? text === "true" : list.length > 1 ? list : list[0];
    if (field.kind === "boolean") return { field: param, op: "eq", value: not ? !value : value, label };
    return { field: param, op: list.length > 1 ? (not ? "not_in" : "in") : not ? "ne" : "eq", value, label };
  });
}

export const shiftIso = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
