import { z } from "@hono/zod-openapi";
import { asc, eq, gt, sql } from "drizzle-orm";
import { principalOf } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { tenantOf } from "../../platform/tenancy";
import { clock, isoTimestamp } from "../../platform/time";
import { answer, CONVERSATION_DAYS, ReplyShape } from "./answer";
import { conversations, messages } from "./schema";

export const tags = ["Assistant"];
/** The reference's words for this file's tag (the manifest lists them). */
export const assistantTags = {
  Assistant:
    "Answers questions about the workspace and prepares actions, in the worker itself: no call to any outside service. Every answer comes from the API's own routes, run as the caller, so roles, token scopes and disabled packages apply as over HTTP. Writes are only proposed and run when confirmed.",
};

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

export const conversationRoutes = newRouter()
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
  });
