/** Tokens of a message, with their original spelling kept for names and titles. */
export type Token = { raw: string; lower: string; start: number; end: number };

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}@._+'’&-]*/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    // Trailing dots, apostrophes and dashes belong to the sentence, not the word (emails keep theirs).
    let raw = match[0].replace(/[.'’-]+$/u, "");
    if (raw.endsWith("'s") || raw.endsWith("’s")) raw = raw.slice(0, -2);
    if (!raw) continue;
    // "win-rate", "e-mail", "non-billable": the words either side, unless it is a reference or an address (INV-000012).
    if (/^\p{L}+(-\p{L}+)+$/u.test(raw)) {
      let offset = match.index;
      for (const part of raw.split("-")) {
        out.push({ raw: part, lower: part.toLowerCase(), start: offset, end: offset + part.length });
        offset += part.length + 1;
      }
      continue;
    }
    out.push({ raw, lower: raw.toLowerCase().replace(/’/g, "'"), start: match.index, end: match.index + raw.length });
  }
  return out;
}

/** Words that carry no name or value: function words and the verbs of questions and commands. */
export const STOP: ReadonlySet<string> = new Set(
  (
    "a an the of for to in on at by with from and or but is are was were be been being am do does did done have has had " +
    "what whats what's which who whom whose where when why how much many me my mine our ours we us i you your it its " +
    "this that these those there here please can could would will shall should may might must show list give get find " +
    "display tell let see view pull up bring look lookup check any all every some each number count total about info " +
    "details detail information on off out into onto as is it's there's let's just also only still currently right now " +
    "so far than then them they their he she his her him hers kindly quickly need want like know is any anything everything " +
    "named called titled with without via per whats show's who's ok okay hey hi hello"
  ).split(" "),
);

/** Damerau–Levenshtein distance, capped: enough to tell "invoces" from "invoices". */
export function distance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}

/** Numbers said as words ("three largest", "two positions", "fifty thousand"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** Everyday words a letter away from a domain word, never a slip for it: "three" is no "there". */
const KEPT: ReadonlySet<string> = new Set(Object.keys(NUMBER_WORDS));

/**
 * Corrects a typo to the domain word it is one (or, for long words, two) edits away from: "invoces" →
 * "invoices", "employes" → "employees". Short words and words close to several are left alone, so a
 * name like "Mary" is not turned into "many".
 */
export function correct(word: string, vocabulary: ReadonlySet<string>): string {
  if (vocabulary.has(word) || KEPT.has(word) || !/^[a-z]+$/.test(word)) return word;
  // Five letters and fewer are left alone ("grace" or "lynn" is a name more often than a typo), but for two
  // letters swapped: "taks" is a task, no one's name.
  // ("staus": five letters with one left out of a longer domain word is that word.)
  if (word.length < 6) return word.length >= 4 ? (swapped(word, vocabulary) ?? (word.length === 5 ? missingLetter(word, vocabulary) : null) ?? word) : word;
  // ("invocie": two letters swapped in a longer word is that word, before any nearer-looking one.)
  const twisted = swapped(word, vocabulary);
  if (twisted) return twisted;
  const cap = word.length >= 8 ? 2 : 1;
  let best: string[] = [];
  let bestDistance = cap + 1;
  for (const candidate of vocabulary) {
    // A typo keeps the first letter ("invocie", "custmer"); a different one is more often a name ("keller", not "seller").
    if (candidate.length < 4 || Math.abs(candidate.length - word.length) > cap || candidate[0] !== word[0]) continue;
    const d = distance(word, candidate, cap);
    if (d < bestDistance) [best, bestDistance] = [[candidate], d];
    else if (d === bestDistance && d <= cap) best.push(candidate);
  }
  if (best.length === 0) return word;
  // Two letters swapped is the likeliest slip of all: "entires" is entries, not entire.
  const swap = best.length > 1 ? swapped(word, new Set(best)) : null;
  if (swap) return swap;
  // Ties between forms of one word ("employee", "employees") are fine: take the longest.
  const stem = best[0]!.slice(0, 4);
  if (!best.every((candidate) => candidate.startsWith(stem))) return word;
  return best.reduce((a, b) => (b.length > a.length ? b : a));
}

/** The one six-letter word of the vocabulary that is this word with a letter put back in (not the first). */
function missingLetter(word: string, vocabulary: ReadonlySet<string>): string | null {
  const found = [...vocabulary].filter(
    (candidate) =>
      candidate.length === word.length + 1 &&
      candidate[0] === word[0] &&
      [...candidate].some((_, i) => i > 0 && candidate.slice(0, i) + candidate.slice(i + 1) === word),
  );
  return found.length === 1 ? found[0]! : null;
}

/** The one word of the vocabulary that is this word with two neighbouring letters swapped back. */
function swapped(word: string, vocabulary: ReadonlySet<string>): string | null {
  const found = new Set<string>();
  for (let i = 1; i < word.length - 1; i++) {
    const candidate = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (candidate !== word && vocabulary.has(candidate)) found.add(candidate);
  }
  return found.size === 1 ? [...found][0]! : null;
}

const CALENDAR = [
  ..."january february march april june july august september october november december".split(" "),
  ..."monday tuesday wednesday thursday friday saturday sunday".split(" "),
];

/** A month or a weekday misspelt ("ocotber", "wendesday", "febuary"): the dates are read from the text itself. */
export function correctCalendar(text: string): string {
  // Holidays with a fixed day are that day: "before christmas", "by new year's eve".
  const holidays = text
    .replace(/\b(?:christmas|xmas|x-mas)(?: day)?\b/gi, "december 25")
    .replace(/\bchristmas eve\b/gi, "december 24")
    .replace(/\bnew year'?s eve\b/gi, "december 31")
    .replace(/\bnew year'?s(?: day)?\b/gi, "january 1");
  return holidays.replace(/\b[A-Za-z]{6,10}\b/g, (word) => {
    const lower = word.toLowerCase();
    if (CALENDAR.includes(lower)) return word;
    // (Short names are left alone: "Marcy" or "Junie" is a person.)
    const near = CALENDAR.filter((name) => name.length >= 6 && name[0] === lower[0] && distance(lower, name, 1) <= 1);
    return near.length === 1 ? near[0]! : word;
  });
}

/** Where a phrase occurs as whole words in a token list (token indexes), or -1. */
export function findPhrase(tokens: readonly string[], phrase: string, from = 0): number {
  const words = phrase.toLowerCase().split(/\s+/);
  for (let i = from; i + words.length <= tokens.length; i++) {
    if (words.every((word, k) => tokens[i + k] === word)) return i;
  }
  return -1;
}

export const EMAIL = /[^\s@<>(),;:"']+@[^\s@<>(),;:"']+\.[a-z]{2,}/i;

/** A text as a regular expression that matches it literally (a name or a word a pattern is built around). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
