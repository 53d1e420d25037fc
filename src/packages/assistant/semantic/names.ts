import Fuse from "fuse.js";
import type { ApiErrorBody } from "../../../platform/dispatch";
import type { ApiRecord } from "../../../platform/skills";
import { distance, escapeRegExp } from "../text";
import type { Fetch } from "./execute";
import type { ResourceModel } from "./model";
import { FILLER } from "./words";

/**
 * Names → records of the workspace: the list route's `?q=` (as the asker), then fuse.js ranks what came
 * back. A typo ("Margret Goldwasser") is searched word by word. Two candidates that score alike are both
 * offered, never one guessed.
 */

export type Candidate = { resource: ResourceModel; record: ApiRecord; label: string };
/** Several: the first few to offer, and (`all`) every one found, for another clue to tell apart. */
export type Found =
  | { kind: "one"; found: Candidate }
  | { kind: "many"; options: Candidate[]; all?: Candidate[] }
  | { kind: "none" }
  | { kind: "error"; error: ApiErrorBody };

export const labelOf = (resource: ResourceModel, record: ApiRecord) => resource.skill?.label(record) ?? String(record[resource.nameField ?? "id"] ?? record.id);
/** A record's own name (a task's title, a customer's name). */
export const nameOf = (resource: ResourceModel, record: ApiRecord) => String(record[resource.nameField ?? "id"] ?? "");

/** First names as people shorten them. */
const NICKNAMES: Readonly<Record<string, string>> = {
  kathy: "katherine",
  kate: "katherine",
  katie: "katherine",
  cathy: "katherine",
  fran: "frances",
  frannie: "frances",
  jim: "james",
  jimmy: "james",
  jamie: "james",
  maggie: "margaret",
  meg: "margaret",
  peggy: "margaret",
  babs: "barbara",
  barb: "barbara",
  don: "donald",
  donny: "donald",
  ed: "edsger",
  alex: "alexander",
  sam: "samuel",
  bill: "william",
  will: "william",
  bob: "robert",
  rob: "robert",
  mike: "michael",
  dave: "david",
  tom: "thomas",
  chris: "christopher",
  nick: "nicholas",
  ben: "benjamin",
  dan: "daniel",
  matt: "matthew",
  steve: "steven",
  tony: "anthony",
  liz: "elizabeth",
  beth: "elizabeth",
  jen: "jennifer",
  jenny: "jennifer",
  sue: "susan",
  ken: "kenneth",
};

/** Words that cannot be a name alone. */
const WEAK: ReadonlySet<string> = new Set(["the", "a", "an", "and", "of", "for", "new", "old", "all", "my", "our"]);

function normalised(text: string) {
  return text
    .toLowerCase()
    .replace(/[—–-]/g, " ")
    .replace(/[^\p{L}\p{N} ]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
}

export async function findNamed(fetch: Fetch, resources: ResourceModel[], text: string): Promise<Found> {
  const found = await findNamedAmong(fetch, resources, text);
  if (found.kind === "one" || found.kind === "error") return found;
  // "the mobile app's fix dashboard task", "Plan search (ERP migration project)": a name with its parent's.
  const qualified = await findUnderParentNamed(fetch, resources, text);
  return qualified ?? found;
}

/** Words that join a record's name to its parent's ("Review exports in the Mobile app project", "Ship permissions of …"). */
const JOINS = /^(?:in|on|of|for|from|under|within|inside|the|project|task|deal|opening|job)$/;

/**
 * "mobile app's fix dashboard", "Onboarding revamp / Test checkout", "review exports in the ERP migration
 * project", "Plan search (ERP migration)": the whole name of a parent record (a task's project), said first or
 * last, and the rest found among that parent's records only. Null unless that gives exactly one.
 */
async function findUnderParentNamed(fetch: Fetch, resources: ResourceModel[], text: string): Promise<Found | null> {
  const words = text
    .replace(/['’]s\b/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length < 2 || words.length > 10) return null;
  const trim = (part: string[]) => {
    let [from, to] = [0, part.length];
    while (from < to && JOINS.test(part[from]!)) from++;
    while (to > from && JOINS.test(part[to - 1]!)) to--;
    return part.slice(from, to);
  };
  // (The parent's whole name, each word as typed or one letter off: "onboarding revamp", not "revamp".)
  const isNamed = (name: string, typed: string[]) => {
    const parts = name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    return parts.length === typed.length && parts.every((part, i) => part === typed[i] || (typed[i]!.length >= 4 && distance(part, typed[i]!, 1) <= 1));
  };
  const splits: { parent: string[]; rest: string[] }[] = [];
  for (let k = 1; k < words.length && k <= 4; k++) {
    splits.push({ parent: trim(words.slice(0, k)), rest: trim(words.slice(k)) });
    splits.push({ parent: trim(words.slice(words.length - k)), rest: trim(words.slice(0, words.length - k)) });
  }
  // (The reads repeat across resources and splits — every resource a project owns reads the same projects — and the
  // message's fetch makes each path once.)
  for (const R of resources)
    for (const { field, resource: owner } of R.parents) {
      for (const { parent, rest } of splits) {
        if (parent.length === 0 || rest.length === 0) continue;
        const rows = await fetch(`/${owner.name}?q=${encodeURIComponent(parent[0]!)}&limit=25`);
        const owners = (rows.ok ? rows.data : []).filter((row) => isNamed(nameOf(owner, row), parent));
        if (owners.length !== 1) continue;
        const within = R.filters.has(field) ? `&${field}=${owners[0]!.id}` : "";
        const found = await findNamedAmong(fetch, [R], rest.join(" "), within);
        const all = found.kind === "one" ? [found.found] : found.kind === "many" ? (found.all ?? found.options) : [];
        const there = all.filter((candidate) => candidate.record[field] === owners[0]!.id);
        if (there.length === 1) return { kind: "one", found: there[0]! };
        if (there.length > 1) return { kind: "many", options: there.slice(0, 6), all: there };
      }
    }
  return null;
}

/** Words that stand for a record, never name one ("move it back", "update him"). */
const STAND_INS: ReadonlySet<string> = new Set(["it", "its", "him", "her", "them", "they", "this", "that", "these", "those", "one", "the", "he", "she"]);

async function findNamedAmong(fetch: Fetch, resources: ResourceModel[], text: string, within = ""): Promise<Found> {
  const named = resources.filter((resource) => resource.nameField);
  if (named.length === 0 || text.trim().length < 2 || STAND_INS.has(text.trim().toLowerCase())) return { kind: "none" };
  const search = (needle: string) =>
    Promise.all(named.map(async (resource) => ({ resource, result: await fetch(`/${resource.name}?q=${encodeURIComponent(needle)}&limit=25${within}`) })));
  let results = await search(text);
  const empty = () => results.every(({ result }) => !result.ok || result.data.length === 0);
  // "kathy conway", "fran boyd": a first name said the short way, when nobody found has it as said (one more
  // search only then) and someone so named in full is there.
  const short = text.trim().split(/\s+/);
  const formal = short.length > 1 ? NICKNAMES[short[0]!.toLowerCase()] : undefined;
  const hasTyped = results.some(({ resource, result }) =>
    result.ok ? result.data.some((record) => normalised(nameOf(resource, record)).split(" ").includes(short[0]!.toLowerCase())) : false,
  );
  if (formal && !hasTyped) {
    const fuller = [formal, ...short.slice(1)].join(" ");
    const again = await search(fuller);
    if (again.some(({ result }) => result.ok && result.data.length > 0)) {
      results = again;
      text = fuller;
    }
  }
  // "brians" → "brian"; then each word, longest first (a typo in one of them).
  if (empty() && /s$/i.test(text) && text.length > 4) results = await search(text.replace(/'?s$/i, ""));
  if (empty()) {
    const words = text
      .split(/\s+/)
      .filter((word) => word.length >= 3 && !WEAK.has(word.toLowerCase()))
      .sort((a, b) => b.length - a.length)
      .slice(0, 3);
    if (words.length > 1 || (words.length === 1 && words[0] !== text)) {
      const merged = new Map<string, { resource: ResourceModel; record: ApiRecord }>();
      for (const word of words) {
        for (const { resource, result } of await search(word))
          if (result.ok) for (const record of result.data) merged.set(`${resource.name}:${record.id}`, { resource, record });
        if (merged.size > 0) break;
      }
      results = named.map((resource) => ({
        resource,
        result: { ok: true as const, data: [...merged.values()].filter((entry) => entry.resource === resource).map((entry) => entry.record) },
      }));
    }
  }
  // One misspelt word ("globx"): its first letters find the candidates, fuse.js ranks them.
  if (empty() && /^\p{L}{5,}$/u.test(text.trim())) results = await search(text.trim().slice(0, 3));
  const errors = results.flatMap(({ result }) => (result.ok ? [] : [result.error]));
  const found = results.flatMap(({ resource, result }) =>
    result.ok ? result.data.map((record) => ({ resource, record, name: normalised(nameOf(resource, record)), label: labelOf(resource, record) })) : [],
  );
  if (found.length === 0) return errors.length > 0 && errors.length === results.length ? { kind: "error", error: errors[0]! } : { kind: "none" };
  const wanted = normalised(text);
  const exact = found.filter((candidate) => candidate.name === wanted);
  if (exact.length === 1) return { kind: "one", found: exact[0]! };
  if (exact.length > 1) return { kind: "many", options: exact };
  // "initech platform" for "Initech — platform", "grace" for "Grace Lamarr": every word typed starts a word of the name.
  const wordsTyped = wanted.split(" ").map((word) => word.replace(/s$/, ""));
  const prefixed = found.filter((candidate) => wordsTyped.every((word) => candidate.name.split(" ").some((part) => part.startsWith(word))));
  if (prefixed.length === 1) return { kind: "one", found: prefixed[0]! };
  if (prefixed.length > 1) {
    // One whose words are all typed beats one with more words ("Acme" over "Acme Holdings").
    const whole = prefixed.filter((candidate) => candidate.name.split(" ").length === wordsTyped.length);
    if (whole.length === 1) return { kind: "one", found: whole[0]! };
    return { kind: "many", options: prefixed.slice(0, 6), all: prefixed };
  }
  // "Globex changed their AP inbox": a name the words begin with, whole (the longest such), over near spellings.
  // (Only when talk follows — "changed their …", "we're not …" — not more of a name: "Initech support renewal", "Acme GmbH".)
  const talkAfter = (name: string) => {
    const rest = wanted.slice(name.length + 1).split(" ");
    return rest.length >= 2 && rest.some((word) => FILLER.has(word) || /^(?:we|they|i)re$|^\w{3,}ed$/.test(word));
  };
  const leading = found.filter((candidate) => candidate.name.length >= 3 && `${wanted} `.startsWith(`${candidate.name} `) && talkAfter(candidate.name));
  const longestLead = Math.max(0, ...leading.map((candidate) => candidate.name.length));
  const led = leading.filter((candidate) => candidate.name.length === longestLead);
  if (led.length === 1) return { kind: "one", found: led[0]! };
  const ranked = new Fuse(found, { keys: ["name"], includeScore: true, threshold: 0.4, ignoreLocation: true }).search(wanted);
  if (ranked.length === 0) return { kind: "none" };
  const [best, second] = ranked;
  if (!second || second.score! - best!.score! > 0.12) return { kind: "one", found: best!.item };
  const close = ranked.filter((hit) => hit.score! - best!.score! <= 0.12).map((hit) => hit.item);
  // "when did massive dynamic become a customer": the one name every word of which was typed, and the longest
  // such ("Massive Dynamic", not "Massive Dynamic Labs", whose "labs" nobody typed).
  const typed = wanted.split(" ");
  const covered = close.filter((candidate) => candidate.name.split(" ").every((part) => typed.some((word) => word.length >= 3 && part.startsWith(word))));
  const longest = Math.max(0, ...covered.map((candidate) => candidate.name.split(" ").length));
  const widest = covered.filter((candidate) => candidate.name.split(" ").length === longest);
  if (widest.length === 1 && longest >= 1) return { kind: "one", found: widest[0]! };
  // "Margaret Hoper": one letter from one of them, further from the rest — that one.
  const edits = close.map((candidate) => distance(candidate.name, wanted, 3));
  const fewest = Math.min(...edits);
  if (fewest <= 2 && edits.filter((d) => d === fewest).length === 1) return { kind: "one", found: close[edits.indexOf(fewest)]! };
  // A misspelt name ("nakatomy", "pied pieper"): as with prefixes, the one as long as what was typed beats the
  // longer names that contain it ("Nakatomi — pilot").
  const whole = close.filter((candidate) => candidate.name.split(" ").length === wordsTyped.length);
  if (whole.length === 1) return { kind: "one", found: whole[0]! };
  return { kind: "many", options: close.slice(0, 6), all: close };
}

/** Of some people, those whose company is the one said ("Massive Dynamic" for "massive dynamic"). */
export function atCompany(candidates: Candidate[], company: string): Candidate[] {
  const said = normalised(company);
  return said.length > 1 ? candidates.filter((candidate) => normalised(String(candidate.record.company ?? "")) === said) : [];
}

/** Whether one of a record's own values is the one said ("Marketing" for "marketing", "screening"): how offered options are told apart. */
export function hasValue(record: ApiRecord, said: string): boolean {
  const wanted = said.toLowerCase();
  return Object.values(record).some((value) => typeof value === "string" && value.toLowerCase() === wanted);
}

/** The record a reference names ("INV-000012", "task 57"): by id, else the one whose name is exactly that. */
export async function referencedRecord(fetch: Fetch, R: ResourceModel, ref: { id?: number | string; q?: string }): Promise<ApiRecord | undefined> {
  const found = ref.id !== undefined ? await fetch(`/${R.name}?ids=${ref.id}`) : await fetch(`/${R.name}?q=${encodeURIComponent(ref.q!)}&limit=5`);
  if (!found.ok) return undefined;
  return found.data.find((row) => (ref.id !== undefined ? row.id === Number(ref.id) : String(row[R.nameField ?? "id"]) === ref.q));
}

/**
 * "ken at globex", "tim over at massive dynamic": people of that name whose company is the one said — the one,
 * or the few to offer. Null when the words are not so said, or nobody so named works there.
 */
export async function findAtCompany(fetch: Fetch, resources: ResourceModel[], text: string): Promise<Found | null> {
  const said = /^(.+?)\s+(?:over\s+)?(?:at|from|with)\s+(.+)$/i.exec(text.trim());
  const people = resources.filter((resource) => resource.fields.has("company"));
  if (!said || people.length === 0) return null;
  const found = await findNamed(fetch, people, said[1]!);
  const all = found.kind === "one" ? [found.found] : found.kind === "many" ? (found.all ?? found.options) : [];
  const there = atCompany(all, said[2]!);
  if (there.length === 0) return null;
  return there.length === 1 ? { kind: "one", found: there[0]! } : { kind: "many", options: there.slice(0, 6), all: there };
}

/** Whether a name is said in a message as whole words ("Customer portal" in "customer portal — test emails …"). */
export function saysName(message: string, name: string): boolean {
  const said = normalised(name);
  return said.length > 2 && ` ${normalised(message)} `.includes(` ${said} `);
}

/**
 * "Customer portal — Test emails needs to be urgent", "In Onboarding revamp, remove the task Draft checkout": of
 * several records so named, the one whose parent (a task's project) the message names anywhere — one fetch of
 * those parents. With several under it, the one whose own full name is said too. Null when that tells none apart;
 * else the one, and its parent's name (a piece that said it is spent).
 */
export async function underParentSaid(
  fetch: Fetch,
  parents: { field: string; resource: ResourceModel }[],
  options: Candidate[],
  message: string,
): Promise<{ found: Candidate; parent: string } | null> {
  for (const { field, resource } of parents) {
    const ids = [...new Set(options.map((option) => option.record[field]).filter((id): id is number => typeof id === "number"))];
    if (ids.length < 2) continue;
    const found = await fetch(`/${resource.name}?ids=${ids.join(",")}&limit=${ids.length}`);
    if (!found.ok) continue;
    const said = found.data.filter((record) => saysName(message, nameOf(resource, record)));
    if (said.length !== 1) continue;
    const under = options.filter((option) => option.record[field] === said[0]!.id);
    const whole = under.length > 1 ? under.filter((option) => saysName(message, nameOf(option.resource, option.record))) : under;
    if (whole.length === 1) return { found: whole[0]!, parent: nameOf(resource, said[0]!) };
  }
  return null;
}

/**
 * ("Customer portal is running long, extend the end date …": the word of a kind that begins another record's whole
 * name — the project Customer portal.) The resource of the one record so named, of those that can be changed.
 */
export async function kindInName(fetch: Fetch, resources: ResourceModel[], R: ResourceModel, text: string): Promise<ResourceModel | null> {
  const others = resources.filter((resource) => resource !== R && resource.nameField && resource.update);
  for (const noun of R.nouns) {
    const after = new RegExp(`\\b${escapeRegExp(noun)}((?:\\s+[\\p{L}\\p{N}-]+){1,3})`, "iu").exec(text);
    if (!after) continue;
    const words = after[1]!.trim().split(/\s+/);
    for (let n = words.length; n >= 1; n--) {
      const phrase = `${noun} ${words.slice(0, n).join(" ")}`.toLowerCase();
      const found = await findNamed(fetch, others, phrase);
      if (found.kind === "one" && nameOf(found.found.resource, found.found.record).toLowerCase() === phrase) return found.found.resource;
    }
  }
  return null;
}
