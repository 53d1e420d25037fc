import { z } from "@hono/zod-openapi";
import { eq, gt, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Principal } from "../../platform/auth/principal";
import type { AppEnv } from "../../platform/context";
import { base62, randomBytes } from "../../platform/crypto";
import { dispatch } from "../../platform/dispatch";
import { ApiError } from "../../platform/errors";
import { logError } from "../../platform/log";
import { listRefusal } from "../../platform/resource/readable";
import { platformOf } from "../../platform/services";
import type { ApiRecord } from "../../platform/skills";
import { tenantOf } from "../../platform/tenancy";
import { clock, isoTimestamp } from "../../platform/time";
import { actions, conversations, messages } from "./schema";
import { turn } from "./semantic/converse";
import type { Fetch } from "./semantic/execute";
import { sqlAggregator, sqlValues } from "./semantic/sql";
import { conversationState, semanticOf } from "./semantic/state";
import { type Ctx, type ProposedAction, permissionFor, type Reply, refusal, run } from "./tools";
import { type Catalog, skills, understand } from "./understand";
import { planWithModel } from "./workers-ai";

export const ACTION_TTL_MS = 10 * 60_000;
export const CONVERSATION_DAYS = 30;

export const RecordRef = z.object({ resource: z.string(), id: z.number().int(), label: z.string() }).openapi("AssistantRecord");
export const ActionRef = z
  .object({ id: z.string(), kind: z.string().openapi({ example: "create_task" }), summary: z.string(), expires_at: z.string() })
  .openapi("AssistantAction");
export const ReplyShape = z
  .object({
    text: z.string(),
    intent: z.enum(["metric", "list", "lookup", "action", "clarify", "help", "unknown"]),
    data: z.unknown().optional(),
    records: z.array(RecordRef).optional(),
    action: ActionRef.optional(),
  })
  .openapi("AssistantReply");

const newId = (prefix: string) => `${prefix}_${base62(randomBytes(16))}`;

/** The Workers AI model's plan when one is configured; null otherwise or when it fails (the built-in engine answers). */
async function modelPlan(c: Context<AppEnv>, catalog: Catalog, message: string, now: number) {
  if (!c.env.AI || !c.env.ASSISTANT_MODEL) return null;
  try {
    return await planWithModel(c.env.AI, c.env.ASSISTANT_MODEL, catalog, message, new Date(now).toISOString().slice(0, 10));
  } catch (error) {
    logError("assistant: the model failed; the built-in engine answers", error);
    return null;
  }
}

export type Answer = { conversationId: string; reply: Reply & { action?: z.infer<typeof ActionRef> } };

/**
 * Understands a message, answers it as `principal`, and records the exchange (and a proposed action) in
 * one D1 batch. `readOnly` (the chat bot): actions are stored for the user to confirm in the dashboard.
 */
export async function answer(
  c: Context<AppEnv>,
  principal: Principal,
  message: string,
  options: { conversationId?: string; readOnly?: boolean } = {},
): Promise<Answer> {
  const now = clock.now();
  const { registry } = platformOf(c);
  const catalog = skills(registry);
  const tenant = tenantOf(c);
  const ctx: Ctx = { c, principal, now, registry, catalog };
  const state = options.conversationId ? await conversationState(tenant, options.conversationId, principal.user.id, now - CONVERSATION_DAYS * 86_400_000) : {};
  const semantic = semanticOf(registry, catalog);
  // (Each path is read once per message: the readings try a name against the same resources more than once, and
  // nothing is written while a message is read, so a second read could only repeat the first.)
  const reads = new Map<string, ReturnType<Fetch>>();
  const fetch: Fetch = async (path) => {
    let read = reads.get(path);
    if (!read) {
      read = dispatch<ApiRecord[]>(c, principal, "GET", path).then((result) =>
        result.ok ? { ok: true as const, data: result.data, meta: result.meta } : { ok: false as const, error: result.error },
      );
      reads.set(path, read);
    }
    const result = await read;
    return result.ok ? { ...result, data: [...result.data] } : result;
  };
  const mayList = (resource: string) => listRefusal(registry, principal, resource);
  const understood = await turn(
    {
      ...semantic,
      now,
      fetch,
      refuse: (error) => refusal(ctx, error),
      aggregate: sqlAggregator(c, registry, mayList),
      values: sqlValues(c, registry, mayList),
    },
    message,
    state,
  );
  let proposal: ProposedAction | undefined;
  let reply: Reply;
  if (understood) {
    reply = understood.reply;
    if (understood.proposal) proposal = { ...understood.proposal, ...permissionFor(ctx, understood.proposal.resource, options.readOnly === true) };
  } else {
    // Greetings, help and the dashboard's metrics (win rate, traffic) stay with the intent engine.
    const plan = (await modelPlan(c, catalog, message, now)) ?? (await understand(message, now, registry));
    ({ proposal, ...reply } = await run(ctx, plan, { readOnly: options.readOnly }));
  }
  const ws = tenant.workspaceId;
  const userId = principal.user.id;
  const conversationId = options.conversationId ?? newId("conv");
  const out: Answer["reply"] = { ...reply };
  const actionId = proposal ? newId("act") : null;
  if (proposal && actionId) {
    out.action = { id: actionId, kind: proposal.kind, summary: proposal.summary, expires_at: isoTimestamp(now + ACTION_TTL_MS) };
    out.text = proposal.allowed
      ? `${proposal.summary}. Confirm to do it${options.readOnly ? " in the dashboard" : ""} (within 10 minutes).`
      : `${proposal.summary}: you can't do this (${proposal.refusal}).`;
  }
  const ownConversation = tenant.scope(conversations, eq(conversations.id, conversationId), eq(conversations.userId, userId));
  const mine = sql`EXISTS (SELECT 1 FROM ${conversations} WHERE ${ownConversation})`;
  const statements = [
    options.conversationId
      ? tenant
          .update(
            conversations,
            { updatedAt: now },
            eq(conversations.id, conversationId),
            eq(conversations.userId, userId),
            gt(conversations.updatedAt, now - CONVERSATION_DAYS * 86_400_000),
          )
          .returning({ id: conversations.id })
      : tenant.insert(conversations, { id: conversationId, userId, createdAt: now, updatedAt: now }).returning({ id: conversations.id }),
    tenant.rows(sql`INSERT INTO ${messages} (workspace_id, conversation_id, role, text, reply, created_at)
          SELECT ${ws}, ${conversationId}, 'user', ${message}, NULL, ${now} WHERE ${mine}
          UNION ALL SELECT ${ws}, ${conversationId}, 'assistant', ${out.text}, ${JSON.stringify(out)}, ${now + 1} WHERE ${mine}`),
    ...(proposal && actionId
      ? [
          tenant.rows(sql`INSERT INTO ${actions} (id, workspace_id, user_id, conversation_id, kind, request, summary, status, expires_at, created_at, updated_at)
                SELECT ${actionId}, ${ws}, ${userId}, ${conversationId}, ${proposal.kind}, ${JSON.stringify(proposal.request)}, ${proposal.summary}, 'pending', ${now + ACTION_TTL_MS}, ${now}, ${now} WHERE ${mine}`),
        ]
      : []),
  ];
  const [claimed] = (await tenant.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]])) as [{ id: string }[], ...unknown[]];
  if (claimed.length === 0) throw ApiError.notFound("conversation");
  return { conversationId, reply: out };
}
