import type { NameSpan } from "./parse-query";
import { rawOf, type Words } from "./words";

/**
 * Words of how people talk around a question — verbs, adverbs and asides that no record's name is made of
 * ("which projects belong to Umbrella", "employees working in Berlin", "I was wondering how many hours…").
 * They are only ever left out of a name that was not found, and only when what remains is then all found.
 */
const TALK: ReadonlySet<string> = new Set(
  (
    "belong belongs belonged belonging work working worked incoming outgoing receive received receiving gave given giving " +
    "having till until whether wondering wonder wondered ended end up ending happen happened happening counting count counted " +
    "leaving quick quickly small common commonly usually usual basically literally honestly maybe perhaps probably possibly " +
    "think thought guess guessing suppose supposed remember remind tell telling told ask asking asked wanted wanting needed " +
    "needing trying try tried look looking looked seems seem seemed appear appears appeared handle handling handled " +
    "managed manage managing run running ran keep keeping kept stand standing stood total sitting sits sit " +
    "exist exists existing listed listing mentioned showing shown shows find finding found hold holding held involved " +
    "involving include including included includes currently presently today yet anymore overall roughly approximately " +
    "about around exactly precisely total ever even though although anyway anyways btw fyi real really truly actually kinda " +
    "sorta sort kind type bit little some few several quite pretty rather somewhat already recently lately just simply " +
    "column columns records record entries entry info information figures figure numbers number stats statistics " +
    "breakdown summary overview details " +
    "please kindly thanks thank cheers urgent urgently asap soon fast internal send sends sent gives gave refer refers " +
    "referred bring brings brought somewhere sometime sometimes either whatever whichever holds bunch lot lots " +
    "altogether together overall combined long carry carries carrying books"
  ).split(" "),
);

/** A word as typed, in lower case, that is a talk word or a long verb form ("-ing", "-ed") or adverb ("-ly"). */
function talkWord(raw: string, corrected = raw): boolean {
  if (raw !== raw.toLowerCase()) return false;
  return TALK.has(corrected) || TALK.has(raw) || /^[a-z]{3,}(?:ing|ed|ly)$/.test(raw);
}

function isTalk(w: Words, index: number): boolean {
  const raw = w.tokens[index]?.raw ?? "";
  // ("Needed for audit purpose.", "Whatever tasks …", "Till date …": a sentence's capital makes no name of a talk word.)
  if (raw !== raw.toLowerCase() && sentenceStart(w, index) && TALK.has(raw.toLowerCase())) return true;
  return talkWord(raw, w.words[index] ?? "");
}

function sentenceStart(w: Words, index: number): boolean {
  const token = w.tokens[index];
  const before = w.tokens[index - 1];
  return !token || !before || /[.!?]/.test(w.text.slice(before.end, token.start));
}

/**
 * The names of a question with the talk words left out of those not found ("belong", "whether Tim" → "Tim"):
 * null when none of them has any.
 */
export function namesWithoutTalk(w: Words, names: NameSpan[], notFound: string[]): NameSpan[] | null {
  let changed = false;
  const kept = names.flatMap((span) => {
    if (!notFound.includes(span.text)) return [span];
    const keep = span.indexes.filter((i) => !isTalk(w, i));
    if (keep.length === span.indexes.length) return [span];
    changed = true;
    // (Each run of words that stays together is a name of its own.)
    const runs: number[][] = [];
    for (const i of keep) {
      if (runs.length > 0 && runs.at(-1)!.at(-1) === i - 1) runs.at(-1)!.push(i);
      else runs.push([i]);
    }
    return runs.map((run, k) => ({ ...span, indexes: run, text: rawOf(w, run), ...(k > 0 ? { trigger: null } : {}) }));
  });
  return changed ? kept : null;
}

/** A phrase with its talk words (as typed, in lower case) left out: "James Keller applying" → "James Keller". */
export function phraseWithoutTalk(phrase: string): string {
  return phrase
    .split(/\s+/)
    .filter((word) => !talkWord(word))
    .join(" ");
}
