/** The blind evaluation set, and which part of it is held out (see README.md beside this file). */
import writerA from "./writer-a.json";
import writerB from "./writer-b.json";
import writerC from "./writer-c.json";
import writerD from "./writer-d.json";
import writerE from "./writer-e.json";
import writerF from "./writer-f.json";
import writerG from "./writer-g.json";
import writerH from "./writer-h.json";
import writerI from "./writer-i.json";
import writerJ from "./writer-j.json";

export type Item = {
  id: string;
  message: string;
  after: string | null;
  kind: "query" | "action" | "refusal";
  query?: { resource: string; filters?: { field: string; op: string; value: unknown }[]; aggregate?: { fn: string } | null };
  action?: { resource: string; operation: string; fields?: Record<string, unknown>; missing?: string[] };
  refusal?: boolean;
};

/** The evaluation's "now": Wednesday 2026-11-18 15:00 UTC. The demo is seeded as of it and relative dates resolve against it. */
export const EVAL_NOW = Date.UTC(2026, 10, 18, 15, 0, 0);

/** The evaluation set proper: 840 messages, 40 % of them held out. */
export const EVALUATION = [...(writerA as Item[]), ...(writerB as Item[]), ...(writerC as Item[])];
/**
 * A tuning set written later by a fourth blind writer (README.md): training only, never held out, so
 * that the assistant can be improved on more phrasings without touching the held-out part.
 */
export const TUNING = writerD as unknown as Item[];
/**
 * A fresh set by a fifth blind writer, who wrote as a different crowd (terse phone typing, non-native
 * English, long careful sentences): measured on the final code of the session it arrived in and never tuned
 * on — a second check of the held-out figure. Not held out by the hash either: it is reported on its own.
 */
export const FRESH = writerE as unknown as Item[];
/**
 * A second tuning set by a sixth blind writer (chat users mid-workday and first-week users, weighted to time
 * entries, openings, candidates, contacts and payments): measured once before any tuning on it, then tuned on.
 */
export const TUNING_F = writerF as unknown as Item[];
/**
 * A third tuning set by a seventh blind writer (the evaluation's own crowd again — owners, bookkeepers, project
 * leads, HR, sales — over all twelve resources): measured once before any tuning on it, then tuned on.
 */
export const TUNING_G = writerG as unknown as Item[];
/**
 * A second fresh set by an eighth blind writer (the same crowd, sloppier and with more follow-ups): measured on
 * the final code of the session it arrived in, never tuned on; its wrong answers are never printed.
 */
export const FRESH_H = writerH as unknown as Item[];
/**
 * A fourth tuning set by a ninth blind writer (the same crowd, weighted to actions across all twelve resources,
 * with 41 follow-ups): measured once before any tuning on it, then tuned on.
 */
export const TUNING_I = writerI as unknown as Item[];
/**
 * A third fresh set by a tenth blind writer (an office manager, an agency owner typing in fragments, HR, a sales
 * lead between calls, a precise accountant): measured on the final code of the session it arrived in, never tuned
 * on; its wrong answers are never printed.
 */
export const FRESH_J = writerJ as unknown as Item[];
export const ITEMS = [...EVALUATION, ...TUNING, ...FRESH, ...TUNING_F, ...TUNING_G, ...FRESH_H, ...TUNING_I, ...FRESH_J];
const tuning = new Set([...TUNING, ...FRESH, ...TUNING_F, ...TUNING_G, ...FRESH_H, ...TUNING_I, ...FRESH_J].map((item) => item.id));
export const byId = new Map(ITEMS.map((item) => [item.id, item]));

/** The conversation a message belongs to: its first message's id (a follow-up stays with what it follows). */
function rootOf(item: Item): string {
  let current = item;
  while (current.after) current = byId.get(current.after)!;
  return current.id;
}

/** 40 % held out, by a hash of the conversation's first id: fixed, and blind to the messages' content. */
export function heldOut(item: Item): boolean {
  if (tuning.has(item.id)) return false;
  let hash = 2166136261;
  for (const char of rootOf(item)) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % 100 < 40;
}
