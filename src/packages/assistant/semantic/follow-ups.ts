import type { ResourceModel } from "./model";
import { stateMeasureOf } from "./parse-query";
import type { Query } from "./query";

/**
 * "sort them by due date", "order by value, biggest first": the last question's records in another order.
 * The field is one of the last question's resource (whatever else the words name: "due date" is also an
 * invoice's); money and numbers rank biggest first unless said otherwise, dates and names earliest first.
 */
export function sortedAgain(message: string, previous: Query, R: ResourceModel): Query | null {
  const sort =
    /^(?:(?:ok|okay|and|now|then|also|can you|could you|please|pls|just)[,\s]+)*(?:sort|order|rank|arrange|list)(?:ed)?\s+(?:(?:them|those|these|it|that|the list|the results?|the ones|all of them|em)\s+)?by\s+(?:the\s+|their\s+)?(.+?)\s*[?.!]*$/i.exec(
      message.trim(),
    );
  if (!sort || previous.aggregate.groupBy || previous.aggregate.fn !== "list") return null;
  // ("sort by amount pls, biggest first": the courtesy is no part of the field.)
  let phrase = sort[1]!
    .toLowerCase()
    .replace(/\s*\b(?:pls|plz|please|thanks|thx|ty)\b[,.!]*/g, "")
    .trim();
  const direction =
    /[,\s]*\b(?:(biggest|largest|highest|most|newest|latest|last|descending|desc|high to low|z to a)|(smallest|lowest|least|oldest|earliest|soonest|first|ascending|asc|low to high|a to z))\b(?:\s+(?:first|on top|at the top))?\s*$/.exec(
      phrase,
    );
  if (direction) phrase = phrase.slice(0, direction.index).trim();
  const field = [...R.fields.values()].find(
    (candidate) => candidate.name === phrase.replace(/ /g, "_") || candidate.words.includes(phrase) || candidate.words.some((word) => `${word}s` === phrase),
  );
  // ("overdue invoices" → "sort by amount": what their state is about, what is still due.)
  const stated = stateMeasureOf(R, previous.conditions);
  const money = (stated ? R.fields.get(stated) : undefined) ?? [...R.fields.values()].find((candidate) => candidate.kind === "money");
  const chosen = field ?? (/^(?:amount|value|size|money|price|total)s?$/.test(phrase) ? money : undefined);
  if (!chosen) return null;
  const ranked = chosen.kind === "money" || chosen.kind === "number" || chosen.kind === "minutes";
  const order = direction?.[1] ? "desc" : direction?.[2] ? "asc" : ranked ? "desc" : "asc";
  return { ...previous, aggregate: { ...previous.aggregate, field: chosen.name, order, limit: previous.aggregate.limit }, show: null };
}

/**
 * A question about one record that names no field, asked in a form that does: "who is INV-000400 for",
 * "who's on Fix exports" (its person: the customer, the assignee), "is Ken still with us", "did INV-245 go
 * out or is it still a draft" (its state — whatever state the words guessed, the record's own is the answer).
 */
export function fieldAskedByForm(text: string, query: Query, R: ResourceModel): Query | null {
  if (!query.subject || query.subject.resource !== R.name || query.show || query.aggregate.fn !== "list" || query.aggregate.groupBy) return null;
  // "which customer is the customer portal for": the reference to that kind of record.
  const kind = /^(?:which|what)\s+([a-z]+)\s+(?:is|was|are|were)\b.*\bfor\s*[?.!]*$/.exec(text)?.[1];
  const named = kind
    ? [...R.fields.values()].find((field) => field.kind === "reference" && (field.words.includes(kind) || field.name === `${kind}_id`))
    : undefined;
  if (named) return { ...query, show: named.name };
  if (/^(?:who|whos|who's|whom)\b/.test(text)) {
    const person = R.skill?.person?.param;
    const field =
      (person && R.fields.get(person)) ??
      [...R.fields.values()].find((candidate) => candidate.kind === "reference" && ["customers", "employees", "contacts"].includes(candidate.target!));
    return field ? { ...query, show: field.name } : null;
  }
  // "when did we open the Product Marketer role": the date its verb names (else when it was created).
  if (/^(?:when|whens|when's|what date)\b/.test(text)) {
    const said = (phrase: string) => new RegExp(`\\b${phrase}\\b`).test(text);
    const date = R.dateWords.find((candidate) => candidate.words.some(said) && R.fields.has(candidate.field))?.field;
    const field = date ?? (R.fields.has("created_at") ? "created_at" : null);
    return field ? { ...query, show: field } : null;
  }
  // "what's the expected close on Initech platform": a field named by words a date verb also has.
  const phrased = [...R.fields.values()]
    .filter((field) => field.name !== R.nameField)
    .flatMap((field) => field.words.filter((word) => word.includes(" ") && new RegExp(`\\b${word}\\b`).test(text)).map((word) => ({ field, word })))
    .sort((a, b) => b.word.length - a.word.length)[0];
  if (phrased) return { ...query, show: phrased.field.name };
  const state = ["status", "stage"].map((name) => R.fields.get(name)).find((field) => field?.kind === "enum");
  if (state && /^(?:is|are|was|were|did|does|has|have|had)\b/.test(text)) {
    const conditions = query.conditions.filter((condition) => !("field" in condition) || condition.field !== state.name);
    return { ...query, conditions, show: state.name };
  }
  return null;
}

const OPENING = String.raw`^(?:(?:and|so|ok|okay|then|but|also|right)[,\s]+)*`;

/** The last question again with another aggregate: the same records, no field shown and no measure's title of its own. */
function again(previous: Query, aggregate: Partial<Query["aggregate"]>): Query {
  const { title: _title, ...same } = previous;
  return { ...same, aggregate: { ...previous.aggregate, order: null, limit: null, ...aggregate }, show: null };
}

/**
 * "total billed in october" → "and how much of that has been collected already": what the same records keep of
 * themselves — paid so far, or still due — not a new sum of payments. Only of a resource that keeps that figure.
 */
export function partOfAgain(message: string, previous: Query, R: ResourceModel): Query | null {
  const part = new RegExp(`${OPENING}how\\s+much\\s+of\\s+(?:that|this|it|those|these|them|(?:that|the)\\s+total)\\b(.*)$`, "i").exec(message.trim());
  if (!part || previous.aggregate.groupBy) return null;
  const rest = part[1]!;
  // (What is still due first: "not paid yet" is said with "paid".)
  const field = /\b(?:still|outstanding|left|unpaid|remaining|not\s+(?:yet\s+)?(?:been\s+)?paid|open|owed|owing)\b/i.test(rest)
    ? "amount_due"
    : /\b(?:paid|collected|received|settled|come in|came in|in the bank)\b/i.test(rest)
      ? "amount_paid"
      : null;
  if (!field || R.fields.get(field)?.kind !== "money") return null;
  return again(previous, { fn: "sum", field, groupBy: null });
}

/** "how much is overdue in total" → "how many invoices is that?": the same records, counted. */
export function countedAgain(message: string, previous: Query, R: ResourceModel): Query | null {
  const count = new RegExp(
    `${OPENING}how\\s+many(?:\\s+([a-z][a-z ]*?))?\\s+(?:is|are|was|were)\\s+(?:that|those|these|they|it|this|in there)(?:\\s+(?:then|in total|altogether))?\\s*[?.!]*$`,
    "i",
  ).exec(message.trim());
  const noun = count?.[1]?.toLowerCase();
  if (!count) return null;
  // ("how many positions is that in total" after the openings: a number the records keep, summed.)
  const kept = noun
    ? [...R.fields.values()].find((field) => field.kind === "number" && field.words.some((word) => word === noun || `${word}s` === noun))
    : undefined;
  if (kept) return again(previous, { fn: "sum", field: kept.name });
  if (noun && !R.nouns.includes(noun)) return null;
  return again(previous, { fn: "count", field: null });
}

/**
 * "deals by stage" → "and the value per stage?": the same groups, adding up the number named instead of counting.
 * (Another grouping said with it is a question of its own.)
 */
export function measuredAgain(message: string, previous: Query, R: ResourceModel): Query | null {
  const said = new RegExp(
    `${OPENING}(?:(?:what|how)\\s+about\\s+)?(?:the\\s+|their\\s+|its\\s+)?(?:total\\s+)?([a-z][a-z ]*?)(?:\\s+(?:per|by|for each|of each)\\s+([a-z ]+?))?\\s*[?.!]*$`,
    "i",
  ).exec(message.trim());
  const groupBy = previous.aggregate.groupBy;
  if (!said || !groupBy || previous.aggregate.fn !== "count") return null;
  const phrase = said[1]!.toLowerCase();
  const field = [...R.fields.values()].find(
    (candidate) => (candidate.kind === "money" || candidate.kind === "number" || candidate.kind === "minutes") && candidate.words.includes(phrase),
  );
  const by = said[2]?.toLowerCase();
  const grouped = R.fields.get(groupBy);
  if (!field || (by && !(grouped?.words.includes(by) || by === groupBy.replace(/_/g, " ")))) return null;
  return again(previous, { fn: "sum", field: field.name, order: previous.aggregate.order, limit: previous.aggregate.limit });
}
