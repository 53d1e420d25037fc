import { z } from "@hono/zod-openapi";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { principalOf } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import type { Principal } from "../../platform/auth/principal";
import type { AppEnv } from "../../platform/context";
import { base62, randomBytes } from "../../platform/crypto";
import { dispatch } from "../../platform/dispatch";
import { ApiError, type ErrorCode } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { logError } from "../../platform/log";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { platformOf } from "../../platform/services";
import { tenantOf } from "../../platform/tenancy";
import { clock, isoTimestamp } from "../../platform/time";
import { actions, conversations, messages } from "./schema";
import { type Reply, run } from "./tools";
import { type Catalog, skills, understand } from "./understand";
import { planWithModel } from "./workers-ai";

const tags = ["Assistant"];
/** The reference's words for this file's tag (the manifest lists them). */
export const assistantTags = {
  Assistant:
    "Answers questions about the workspace and prepares actions, in the worker itself: no call to any outside service. Every answer comes from the API's own routes, run as the caller, so roles, token scopes and disabled packages apply as over HTTP. Writes are only proposed and run when confirmed.",
};

export const ACTION_TTL_MS = 10 * 60_000;
export const CONVERSATION_DAYS = 30;

const RecordRef = z.object({ resource: z.string(), id: z.number().int(), label: z.string() }).openapi("AssistantRecord");
const ActionRef = z
  .object({ id: z.string(), kind: z.string().openapi({ example: "create_task" }), summary: z.string(), expires_at: z.string() })
  .openapi("AssistantAction");
const ReplyShape = z
  .object({
    text: z.string(),
    intent: z.enum(["metric", "list", "lookup", "action", "help", "unknown"]),
    data: z.unknown().optional(),
    records: z.array(RecordRef).optional(),
    action: ActionRef.optional(),
  })
  .openapi("AssistantReply");

const postMessage = defineRoute(access.authenticated, {
  method: "post",
  path: "/assistant/messages",
  operationId: "sendAssistantMessage",
  tags,
  summary: "Ask the assistant: a number, a list, a detail, or an action to prepare",
  description:
    'Understands metrics ("revenue this month"), filtered lists ("open deals in negotiation over 10,000"), lookups ("phone of Ada Lovelace", "status of INV-000012") and actions ("create a task Call Acme in Website due Friday"). An action is only proposed: confirm it with POST /assistant/actions/{id}/confirm within 10 minutes. Any valid token; every answer is computed as the caller (role, scopes, enabled packages). A conversation_id that is not yours or has been idle 30 days → 404.',
  request: {
    body: jsonBodyOf(
      z
        .strictObject({
          message: z.string().trim().min(1, "must not be empty").max(2000, "must be at most 2000 characters"),
          conversation_id: z.string().max(64).optional().openapi({ description: "Continue a conversation (yours, within 30 days)" }),
        })
        .openapi("AssistantMessage", { example: { message: "overdue invoices" } }),
    ),
  },
  responses: { 200: jsonContent(envelope(z.object({ conversation_id: z.string(), reply: ReplyShape })), "The reply") },
});

const getConversation = defineRoute(access.authenticated, {
  method: "get",
  path: "/assistant/conversations/{id}",
  operationId: "getAssistantConversation",
  tags,
  summary: "A conversation's messages (yours, the last 30 days)",
  description:
    "Any valid token, for the caller's own conversations: another user's, an unknown one or one idle for 30 days → 404. Messages oldest first; each assistant message carries its full reply (data, records, proposed action).",
  request: {
    params: z.object({
      id: z
        .string()
        .max(64)
        .openapi({ param: { name: "id", in: "path" }, example: "conv_3kTZ…" }),
    }),
  },
  responses: {
    200: jsonContent(
      envelope(
        z.object({
          id: z.string(),
          created_at: z.string(),
          messages: z.array(z.object({ role: z.enum(["user", "assistant"]), text: z.string(), reply: ReplyShape.optional(), created_at: z.string() })),
        }),
      ),
      "The conversation",
    ),
  },
});

const confirmAction = defineRoute(access.authenticated, {
  method: "post",
  path: "/assistant/actions/{id}/confirm",
  operationId: "confirmAssistantAction",
  errors: ["conflict", "package_disabled", "forbidden", "invalid_transition"],
  tags,
  summary: "Run a proposed action (yours, within 10 minutes, once)",
  description:
    "Runs the action through the same route a client would call (validation, permissions, package checks, events). A second confirmation → 409; another user's, an unknown or an expired action → 404; a caller who may not do it → 403.",
  request: {
    params: z.object({
      id: z
        .string()
        .max(64)
        .openapi({ param: { name: "id", in: "path" }, example: "act_3kTZ…" }),
    }),
  },
  responses: {
    200: jsonContent(
      envelope(z.object({ action: ActionRef.extend({ status: z.enum(["done"]) }), result: z.unknown() })),
      "Done: the route's answer is in result",
    ),
  },
});

const ActionDetail = ActionRef.extend({
  status: z.enum(["pending", "running", "done", "failed"]),
  request: z
    .object({ method: z.string(), path: z.string(), body: z.record(z.string(), z.unknown()).optional() })
    .openapi({ description: "The API call it makes when confirmed" }),
  record: z.object({ resource: z.string(), id: z.number().int() }).nullable().openapi({ description: "The existing record it changes (null for a create)" }),
}).openapi("AssistantActionDetail");

const getAction = defineRoute(access.authenticated, {
  method: "get",
  path: "/assistant/actions/{id}",
  operationId: "getAssistantAction",
  tags,
  summary: "A proposed action (yours): what it will do before you confirm it",
  description:
    "The summary, the API call it makes and the record it changes, so a confirmation is never blind. Another user's, an unknown or an expired pending action → 404.",
  request: {
    params: z.object({
      id: z
        .string()
        .max(64)
        .openapi({ param: { name: "id", in: "path" }, example: "act_3kTZ…" }),
    }),
  },
  responses: { 200: jsonContent(envelope(ActionDetail), "The action") },
});

/** `/deals/12/…` → the record a call changes; a create (`POST /tasks`) changes none yet. */
function recordOf(path: string): { resource: string; id: number } | null {
  const match = /^\/([a-z-]+)\/(\d+)(\/|$)/.exec(path);
  return match ? { resource: match[1]!, id: Number(match[2]) } : null;
}

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
  const plan = (await modelPlan(c, catalog, message, now)) ?? (await understand(message, now, registry));
  const { proposal, ...reply } = await run({ c, principal, now, registry, catalog }, plan, { readOnly: options.readOnly });
  const tenant = tenantOf(c);
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

export const assistantRoutes = newRouter()
  .openapi(postMessage, async (c) => {
    const body = c.req.valid("json");
    const result = await answer(c, principalOf(c), body.message, { conversationId: body.conversation_id });
    return c.json({ success: true as const, data: { conversation_id: result.conversationId, reply: result.reply as z.infer<typeof ReplyShape> } }, 200);
  })
  .openapi(getConversation, async (c) => {
    const { id } = c.req.valid("param");
    const principal = principalOf(c);
    const tenant = tenantOf(c);
    const since = clock.now() - CONVERSATION_DAYS * 86_400_000;
    const [conversation, rows] = await tenant.batch([
      tenant.select(conversations, eq(conversations.id, id), eq(conversations.userId, principal.user.id), gt(conversations.updatedAt, since)),
      tenant
        .select(
          messages,
          eq(messages.conversationId, id),
          gt(messages.createdAt, since),
          sql`EXISTS (SELECT 1 FROM ${conversations} WHERE ${tenant.scope(conversations, eq(conversations.id, id), eq(conversations.userId, principal.user.id))})`,
        )
        .orderBy(asc(messages.id)),
    ]);
    const found = conversation[0];
    if (!found) throw ApiError.notFound("conversation");
    return c.json(
      {
        success: true as const,
        data: {
          id: found.id,
          created_at: isoTimestamp(found.createdAt),
          messages: rows.map((row) => ({
            role: row.role,
            text: row.text,
            ...(row.reply ? { reply: row.reply as z.infer<typeof ReplyShape> } : {}),
            created_at: isoTimestamp(row.createdAt),
          })),
        },
      },
      200,
    );
  })
  .openapi(getAction, async (c) => {
    const { id } = c.req.valid("param");
    const principal = principalOf(c);
    const now = clock.now();
    const row = await tenantOf(c).select(actions, eq(actions.id, id), eq(actions.userId, principal.user.id)).get();
    if (!row || (row.status === "pending" && row.expiresAt <= now)) throw ApiError.notFound("action");
    return c.json(
      {
        success: true as const,
        data: {
          id: row.id,
          kind: row.kind,
          summary: row.summary,
          expires_at: isoTimestamp(row.expiresAt),
          status: row.status,
          request: row.request,
          record: recordOf(row.request.path),
        },
      },
      200,
    );
  })
  .openapi(confirmAction, async (c) => {
    const { id } = c.req.valid("param");
    const principal = principalOf(c);
    const tenant = tenantOf(c);
    const now = clock.now();
    const mine = and(eq(actions.id, id), eq(actions.userId, principal.user.id));
    // Claimed by one statement: of two concurrent confirmations, one runs it and the other gets 409.
    const [claimed] = await tenant
      .update(actions, { status: "running", updatedAt: now }, mine, eq(actions.status, "pending"), gt(actions.expiresAt, now))
      .returning();
    if (!claimed) {
      const existing = await tenant.selectFrom({ status: actions.status, expiresAt: actions.expiresAt }, actions, mine).get();
      if (!existing || (existing.status === "pending" && existing.expiresAt <= now)) throw ApiError.notFound("action");
      throw new ApiError("conflict", `This action was already confirmed (${existing.status === "running" ? "it is running" : existing.status})`);
    }
    const request = claimed.request;
    const result = await dispatch(c, principal, request.method, request.path, request.body ? { body: request.body } : {});
    const ref = { id: claimed.id, kind: claimed.kind, summary: claimed.summary, expires_at: isoTimestamp(claimed.expiresAt) };
    if (!result.ok) {
      // Refused for who the caller is: it stays pending (someone may fix the role); anything else ends it.
      const status = result.status === 403 ? ("pending" as const) : ("failed" as const);
      await tenant.update(actions, { status, result: result.error, updatedAt: now }, mine).run();
      throw new ApiError(result.error.code as ErrorCode, result.error.message, result.error.details ? { details: result.error.details as never } : {});
    }
    await tenant.update(actions, { status: "done", result: result.data as object, updatedAt: now }, mine).run();
    return c.json({ success: true as const, data: { action: { ...ref, status: "done" as const }, result: result.data } }, 200);
  });
