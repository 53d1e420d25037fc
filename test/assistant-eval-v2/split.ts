/** The blind evaluation set, and which part of it is held out (see README.md beside this file). */
import writerA from "./writer-a.json";
import writerB from "./writer-b.json";

export type Item = {
  id: string;
  message: string;
  after: string | null;
  kind: "query" | "action" | "refusal";
  query?: { resource: string; filters?: { field: string; op: string; value: unknown }[]; aggregate?: { fn: string } | null };
  action?: { resource: string; operation: string; fields?: Record<string, unknown>; missing?: string[] };
  refusal?: boolean;
};

export const ITEMS = [...(writerA as Item[]), ...(writerB as Item[])];
export const byId = new Map(ITEMS.map((item) => [item.id, item]));

/** The conversation a message belongs to: its first message's id (a follow-up stays with what it follows). */
function rootOf(item: Item): string {
  let current = item;
  while (current.after) current = byId.get(current.after)!;
  return current.id;
}

/** 40 % held out, by a hash of the conversation's first id: fixed, and blind to the messages' content. */
export function heldOut(item: Item): boolean {
  let hash = 2166136261;
  for (const char of rootOf(item)) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % 100 < 40;
}
