import { distance } from "../text";
import type { ResourceModel } from "./model";

/**
 * The values a workspace already uses in a resource's categorical text fields (a lead's source, an
 * employee's department, designation and branch, a deal's lost reason): the vocabulary that lets
 * "engineers in berlin", "lost to competitors" or "met him at an event" be read without a phrase list.
 * Read once per resource and message (sql.ts), matched here.
 */
export type Values = (R: ResourceModel) => Promise<Map<string, string[]>>;

/** The text fields whose values are categories: the list route filters by them, and they are no name or address. */
export function categoricalFields(R: ResourceModel): string[] {
  return [...R.fields.values()]
    .filter((field) => field.kind === "text" && R.filters.has(field.name) && field.name !== R.nameField && field.name !== "email")
    .map((field) => field.name);
}

const singular = (word: string) =>
  word.length > 4 && word.endsWith("ies") ? `${word.slice(0, -3)}y` : word.length > 3 && /[^s]s$/.test(word) ? word.slice(0, -1) : word;
const tokens = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(singular);

/** "the berlin office", "the sales team", "finance dept": the place or group itself. */
export const bare = (text: string) => text.replace(/\s+(?:office|offices|branch|team|teams|department|dept|site|location)$/i, "");

/** Whether two phrases are the same words, in any case or number. */
export const sameWords = (a: string, b: string) => tokens(a).join(" ") === tokens(b).join(" ");

export type ValueMatch = { field: string; values: string[]; exact: boolean };

/**
 * The field and values a phrase names: every value whose words include all of the phrase's, in any case or
 * number ("engineers" → Engineer, Backend Engineer, Staff Engineer; "competitors" → competitor). `exact`
 * when one of them is the phrase itself. Only fields in `within` (when given); a field with the phrase
 * itself wins, then the one with the fewest values.
 */
export function matchValue(values: Map<string, string[]>, text: string, within?: (field: string) => boolean): ValueMatch | null {
  const wanted = tokens(bare(text));
  if (wanted.length === 0 || wanted.join(" ").length < 2) return null;
  const phrase = wanted.join(" ");
  let best: ValueMatch | null = null;
  for (const [field, list] of values) {
    if (within && !within(field)) continue;
    // "SF", "NYC": one short word that is the initials of a value of several words ("San Francisco").
    const initials = wanted.length === 1 && /^[a-z]{2,3}$/.test(phrase) ? phrase : null;
    const partial = list.filter((value) => {
      const have = tokens(value);
      if (initials && have.length === initials.length && have.map((word) => word[0]).join("") === initials) return true;
      const set = new Set(have);
      return wanted.every((word) => set.has(word));
    });
    if (partial.length === 0) continue;
    const exact = partial.some((value) => tokens(value).join(" ") === phrase || (initials !== null && tokens(value).length > 1));
    const candidate = { field, values: partial, exact };
    if (!best || (exact && !best.exact) || (exact === best.exact && partial.length < best.values.length)) best = candidate;
  }
  return best ?? nearValue(values, phrase, within);
}

/** "berlin engineering": the words split once into two exact values of two different fields, or null. */
export function valuePair(values: Map<string, string[]>, text: string): [ValueMatch, ValueMatch] | null {
  const words = tokens(bare(text));
  if (words.length < 2 || words.length > 6) return null;
  for (let cut = 1; cut < words.length; cut++) {
    const first = matchValue(values, words.slice(0, cut).join(" "));
    const second = first?.exact ? matchValue(values, words.slice(cut).join(" "), (field) => field !== first.field) : null;
    if (first?.exact && second?.exact) return [first, second];
  }
  return null;
}

/** "linkdin", "marketting": one value of one word the phrase is a slip away from (same first letter). */
function nearValue(values: Map<string, string[]>, phrase: string, within?: (field: string) => boolean): ValueMatch | null {
  if (!/^\p{L}{5,}$/u.test(phrase)) return null;
  const cap = phrase.length >= 8 ? 2 : 1;
  const found: { field: string; value: string }[] = [];
  for (const [field, list] of values) {
    if (within && !within(field)) continue;
    for (const value of list) {
      const word = tokens(value).join(" ");
      if (word !== phrase && word[0] === phrase[0] && !word.includes(" ") && distance(word, phrase, cap) <= cap) found.push({ field, value });
    }
  }
  const distinct = new Set(found.map((entry) => entry.value.toLowerCase()));
  if (distinct.size !== 1 || new Set(found.map((entry) => entry.field)).size !== 1) return null;
  return { field: found[0]!.field, values: [...new Set(found.map((entry) => entry.value))], exact: true };
}

/** The single value a word of the phrase is ("met him at an event" → event): whole values only, the longest first. */
export function valueInPhrase(values: Map<string, string[]>, text: string, within?: (field: string) => boolean): { field: string; value: string } | null {
  const phrase = ` ${tokens(text).join(" ")} `;
  let best: { field: string; value: string; length: number } | null = null;
  for (const [field, list] of values) {
    if (within && !within(field)) continue;
    for (const value of list) {
      const words = tokens(value).join(" ");
      if (words.length < 3 || !phrase.includes(` ${words} `)) continue;
      if (!best || words.length > best.length) best = { field, value, length: words.length };
    }
  }
  return best ? { field: best.field, value: best.value } : null;
}
