import { desc, eq, gt, sql } from "drizzle-orm";
import type { PackageRegistry } from "../../../platform/packages";
import type { Tenant } from "../../../platform/tenancy";
import { conversations, messages } from "../schema";
import type { Catalog } from "../understand";
import { vocabularyOf } from "./lexicon";
import { buildSchema, type SchemaModel } from "./model";
import type { ConversationState } from "./query";

/**
 * The conversation's memory is its last reply: the query it answered, the choice or field it asked for,
 * the action it proposed and the record it was about. Read in one statement before the message is
 * understood; nothing else is kept.
 */
export async function conversationState(tenant: Tenant, conversationId: string, userId: number, since: number): Promise<ConversationState> {
  const [last] = await tenant
    .selectFrom(
      { reply: messages.reply },
      messages,
      eq(messages.conversationId, conversationId),
      eq(messages.role, "assistant"),
      gt(messages.createdAt, since),
      // Only the asker's own conversation (another user's id reads as empty and then 404s on write).
      sqlOwn(tenant, conversationId, userId),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return stateOf(last?.reply as { data?: Record<string, unknown>; records?: { resource: string; id: number; label: string }[] } | undefined);
}

function sqlOwn(tenant: Tenant, conversationId: string, userId: number) {
  return sql`EXISTS (SELECT 1 FROM ${conversations} WHERE ${tenant.scope(conversations, eq(conversations.id, conversationId), eq(conversations.userId, userId))})`;
}

export function stateOf(reply: { data?: Record<string, unknown>; records?: { resource: string; id: number; label: string }[] } | undefined): ConversationState {
  if (!reply?.data) return {};
  const data = reply.data as Record<string, never>;
  const state: ConversationState = {};
  if (data.query) state.query = data.query;
  if (data.choose) state.choose = data.choose;
  if (data.slot) state.slot = data.slot;
  if (data.draft) state.pending = data.draft;
  const answer = data.answer as { kind?: string; ids?: number[]; resource?: string } | undefined;
  // (A record of another kind beside one record's answer is the one its shown reference names.)
  const own = answer?.kind === "records" && answer.resource ? reply.records?.filter((record) => record.resource === answer.resource) : reply.records;
  const named = answer?.kind === "records" && answer.resource ? reply.records?.find((record) => record.resource !== answer.resource) : undefined;
  if (named) state.named = named;
  if (own?.length === 1) state.focus = own[0];
  else if (answer?.kind === "records" && answer.ids?.length === 1 && own?.[0]) state.focus = own[0];
  // (Groups by a reference list the records they are of: "top 5 clients by balance" → "the second one".)
  if ((answer?.kind === "records" && (own?.length ?? 0) > 1) || (answer?.kind === "groups" && reply.records?.length)) state.listed = own;
  // (Records the answer counted beyond those it showed are listed too, by number: "drafts pls" → "send the tyrell one".)
  if (answer?.kind === "records" && answer.resource && state.listed && (answer.ids?.length ?? 0) > state.listed.length) {
    const shown = new Set(state.listed.map((record) => record.id));
    const more = answer.ids!.filter((id) => !shown.has(id)).map((id) => ({ resource: answer.resource!, id, label: `#${id}` }));
    state.listed = [...state.listed, ...more];
  }
  // (A proposal made about one of a list keeps the list: "send the first one", then "and the last one".)
  else if (data.listed) state.listed = data.listed;
  return state;
}

// One schema per registry: a pure function of the packages it lists, built on first use.
const built = new WeakMap<PackageRegistry, { schema: SchemaModel; vocabulary: Set<string>; metricPhrases: string[] }>();

export function semanticOf(registry: PackageRegistry, catalog: Catalog): { schema: SchemaModel; vocabulary: Set<string>; metricPhrases: string[] } {
  let entry = built.get(registry);
  if (!entry) {
    const schema = buildSchema(catalog, registry.definitions());
    const metricPhrases = catalog.metrics.flatMap(({ skill }) => (skill.ownsPhrases ? skill.phrases : []));
    entry = { schema, vocabulary: vocabularyOf(schema, catalog), metricPhrases };
    built.set(registry, entry);
  }
  return entry;
}
