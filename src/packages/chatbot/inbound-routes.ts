import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { packageDisabled, unauthorized } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import { buildPrincipal, principalColumns } from "../../platform/auth/principal";
import { rawBody } from "../../platform/body";
import { configOf } from "../../platform/config";
import type { AppEnv } from "../../platform/context";
import { publicOrigin } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { defineRoute, jsonContent } from "../../platform/openapi";
import { countRequest } from "../../platform/rate-limit/middleware";
import { users, workspaces } from "../../platform/schema";
import { openSecret } from "../../platform/secrets";
import { platformOf } from "../../platform/services";
import { directoryFor } from "../../platform/tenancy";
import { clock } from "../../platform/time";
import { answer } from "../assistant/answer";
import { asksToLink, type Incoming, readIncoming } from "./incoming";
import { tags } from "./integration-routes";
import { LINK_CODE_MS, newLinkCode } from "./link-routes";
import { chatLinks, chatReplays, integrations, type Provider } from "./schema";
import { verifySlack, verifyTeams, verifyTelegram } from "./verify";

const MAX_BODY = 64 * 1024;
/** Slack's and Teams' requests more than this far from their timestamp are refused as stale. */
const REPLAY_WINDOW_MS = 300_000;

const WorkspaceParam = z.object({
  workspace_id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .transform(Number)
    .openapi({ param: { name: "workspace_id", in: "path" }, type: "integer", example: 7 }),
});

// Documented here, read raw by the route: the signature covers the exact bytes, so no validator parses them first.
const BODIES: Record<Provider, { type: string; schema: Record<string, unknown> }> = {
  slack: {
    type: "application/x-www-form-urlencoded",
    schema: {
      type: "object",
      description: "Slack's slash-command payload; the question is `text`",
      properties: { command: { type: "string" }, text: { type: "string" }, user_id: { type: "string" } },
    },
  },
  teams: {
    type: "application/json",
    schema: {
      type: "object",
      description: "A Bot Framework activity; the question is `text` (the bot's <at> mention removed)",
      properties: { type: { type: "string" }, id: { type: "string" }, timestamp: { type: "string", format: "date-time" }, text: { type: "string" } },
      example: { type: "message", id: "1485983408511", timestamp: "2026-11-23T10:15:00.000Z", text: "<at>Business Platform</at> overdue invoices" },
    },
  },
  telegram: {
    type: "application/json",
    schema: {
      type: "object",
      description: "A Telegram Update; the question is `message.text`",
      properties: { update_id: { type: "integer" }, message: { type: "object" } },
      example: { update_id: 10000, message: { message_id: 1365, date: 1795428900, chat: { id: 1111111, type: "private" }, text: "/ask overdue invoices" } },
    },
  },
};

const inboundRoute = (provider: Provider, summary: string, description: string, response: z.ZodType) =>
  defineRoute(access.public, {
    method: "post",
    path: `/chatbot/${provider}/{workspace_id}`,
    operationId: `receive${provider[0]!.toUpperCase()}${provider.slice(1)}Message`,
    tags,
    summary,
    description,
    requestBody: {
      required: true,
      content: {
        [BODIES[provider].type]: { schema: BODIES[provider].schema },
        // Slack's Events API posts JSON: its url_verification is answered with the challenge.
        ...(provider === "slack"
          ? {
              "application/json": {
                schema: { type: "object", description: "A Slack Events API request: url_verification, or an event callback (answered with nothing)" },
                example: { type: "url_verification", token: "Jhj5dZrVaK7ZwHHjRyZWjbDl", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" },
              },
            }
          : {}),
      },
    },
    request: { params: WorkspaceParam },
    responses: { 200: jsonContent(response, "The bot's answer, in the platform's format") },
    errors: ["unauthorized", "package_disabled", "payload_too_large"],
  });

const refused = () => unauthorized(true, "The request's signature is missing, invalid or expired, or this integration is not enabled");

/** The rate-limit headers of a counted request, on whatever response follows (an answer or an error). */
function withLimitHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}

type Answer = { text: string } | { challenge: string } | null;

const LINK_HELP = "Link your chat account first: send /link here, then enter the code in Business Platform under Settings → Chat.";

/**
 * An inbound chat request: the integration read, the signature checked over the raw bytes, the request
 * counted (against the workspace once verified, the client IP otherwise), refused when stale, answered once
 * however often it is replayed, only in allowed chats, and as the user the chat account is linked to — all
 * in this request, so Slack's 3 s are never at risk.
 */
async function receive(c: Context<AppEnv>, provider: Provider, workspaceId: number): Promise<{ answer: Answer; incoming: Incoming | null }> {
  const ip = c.req.header("cf-connecting-ip") ?? "unknown";
  const body = await rawBody(c, MAX_BODY);
  // The workspace is named by the URL, not by a credential: the signature below decides whether to believe it.
  const named = directoryFor(c.env, platformOf(c).registry, workspaceId);
  const integration = await named
    .selectFrom(
      {
        enabled: integrations.enabled,
        secret: integrations.secret,
        fallbackUserId: integrations.actsAsUserId,
        allowedChats: integrations.allowedChats,
        plan: workspaces.plan,
        disabledPackages: workspaces.disabledPackages,
      },
      integrations,
      eq(integrations.provider, provider),
    )
    .innerJoin(workspaces, named.own())
    .get();
  const secret = integration?.enabled ? await openSecret(integration.secret, configOf(c.env).sealingKeys) : null;
  const now = clock.now();
  const verified =
    secret !== null &&
    (provider === "slack"
      ? await verifySlack(secret, c.req.raw.headers, body, now)
      : provider === "teams"
        ? await verifyTeams(secret, c.req.raw.headers, body)
        : await verifyTelegram(secret, c.req.raw.headers));
  if (!integration || !verified) {
    withLimitHeaders(c, await countRequest(c, { ip }));
    throw refused();
  }
  withLimitHeaders(c, await countRequest(c, { workspace: { id: workspaceId, plan: integration.plan } }));
  for (const name of ["chatbot", "assistant"]) if (integration.disabledPackages.includes(name)) throw packageDisabled(name);
  const incoming = readIncoming(provider, body, c.req.raw.headers);
  if (incoming.kind === "challenge") return { answer: { challenge: incoming.challenge }, incoming };
  if (incoming.kind === "message" && incoming.sentAt !== null && Math.abs(now - incoming.sentAt) > REPLAY_WINDOW_MS) throw refused();

  // Once per request however often it arrives: the first copy claims its key, a repeat is answered with nothing.
  const replayKey = incoming.replayKey;
  const claimed = await named
    .insert(chatReplays, { provider, key: (replayKey ?? "").slice(0, 200), seenAt: now })
    .onConflictDoNothing()
    .returning({ key: chatReplays.key });
  if (replayKey !== null && claimed.length === 0) return { answer: null, incoming };
  if (incoming.kind !== "message") return { answer: null, incoming };
  if (integration.allowedChats.length > 0 && !incoming.chatIds.some((id) => integration.allowedChats.includes(id))) {
    return {
      answer: {
        text: `This chat is not set up for the bot. An admin can allow it (chat id ${incoming.chatIds[0] ?? "unknown"}) in the integration's allowed_chats.`,
      },
      incoming,
    };
  }
  if (asksToLink(incoming.text)) {
    if (!incoming.chatUserId) return { answer: { text: "This chat does not say who you are, so it cannot be linked." }, incoming };
    const code = await newLinkCode(named, provider, incoming.chatUserId, incoming.chatUserName, now);
    const minutes = LINK_CODE_MS / 60_000;
    return {
      answer: {
        text: `Your linking code is ${code}. Enter it in Business Platform under Settings → Chat (${publicOrigin(c)}/app/settings/chat) within ${minutes} minutes.`,
      },
      incoming,
    };
  }
  // The user the account is linked to, else the integration's fallback user (if it has one), in one read.
  const linkedUser = named.selectFrom(
    { userId: chatLinks.userId },
    chatLinks,
    eq(chatLinks.provider, provider),
    eq(chatLinks.chatUserId, incoming.chatUserId ?? ""),
  );
  const row = await named
    .selectFrom(principalColumns, users, sql`${users.id} = coalesce((${linkedUser}), ${integration.fallbackUserId})`)
    .innerJoin(workspaces, named.own())
    .get();
  if (!row) return { answer: { text: LINK_HELP }, incoming };
  // The bot's caller: the linked user (or the fallback) with a read-only scope, so every answer is a read they could make.
  const principal = buildPrincipal(row, { tokenId: 0, tokenKind: "api", tokenHash: "", expiresAt: null, scopes: ["read"] }, now);
  c.set("principal", principal);
  const { reply } = await answer(c, principal, incoming.text.trim().slice(0, 2000) || "help", { readOnly: true });
  const text = reply.action ? `${reply.action.summary}. Confirm it in the dashboard: ${publicOrigin(c)}/app/assistant?action=${reply.action.id}` : reply.text;
  return { answer: { text }, incoming };
}

const slack = inboundRoute(
  "slack",
  "Slack slash command, or the Events API",
  "A form-encoded slash command, or an Events API request (JSON). X-Slack-Signature = v0= + hex HMAC-SHA256(signing secret, v0:{X-Slack-Request-Timestamp}:{raw body}), the timestamp within 300 s; otherwise 401 and nothing is answered. The same signature again within 24 h → 200 and no answer. url_verification → {challenge}; other events → no answer (answering them would need a call to Slack). An unlinked account gets the linking instructions; `/ask link` gives a linking code.",
  z
    .union([
      z.object({ response_type: z.literal("ephemeral"), text: z.string() }).openapi("SlackAnswer"),
      z.object({ challenge: z.string() }).openapi("SlackChallenge"),
    ])
    .openapi({ description: "An ephemeral answer, or the url_verification challenge" }),
);
const teams = inboundRoute(
  "teams",
  "Microsoft Teams outgoing webhook",
  "An activity (JSON). Authorization: HMAC <base64 HMAC-SHA256(base64-decoded security token, raw body)>, and the activity's timestamp within 300 s; otherwise 401. The same activity id again within 24 h → 200 and no answer. An unlinked account gets the linking instructions; `link` gives a linking code.",
  z.object({ type: z.literal("message"), text: z.string() }).openapi("TeamsAnswer"),
);
const telegram = inboundRoute(
  "telegram",
  "Telegram bot webhook",
  "An Update (JSON) with message.text. X-Telegram-Bot-Api-Secret-Token must equal the secret_token; otherwise 401. The answer is a sendMessage method in the response body (updates without text, and an update_id seen in the last 24 h, get {}). An unlinked account gets the linking instructions; `/link` gives a linking code.",
  z
    .object({ method: z.literal("sendMessage").optional(), chat_id: z.union([z.number(), z.string()]).optional(), text: z.string().optional() })
    .openapi("TelegramAnswer"),
);

export const inboundRoutes = newRouter()
  .openapi(slack, async (c) => {
    const { answer: reply } = await receive(c, "slack", c.req.valid("param").workspace_id);
    // Slack's URL check: its challenge back, as JSON.
    if (reply && "challenge" in reply) return c.json({ challenge: reply.challenge }, 200);
    return c.json({ response_type: "ephemeral" as const, text: reply?.text ?? "" }, 200);
  })
  .openapi(teams, async (c) => {
    const { answer: reply } = await receive(c, "teams", c.req.valid("param").workspace_id);
    return c.json({ type: "message" as const, text: reply && "text" in reply ? reply.text : "" }, 200);
  })
  .openapi(telegram, async (c) => {
    const { answer: reply, incoming } = await receive(c, "telegram", c.req.valid("param").workspace_id);
    const chatId = incoming?.kind === "message" ? incoming.chatId : null;
    if (!reply || !("text" in reply) || chatId === null) return c.json({}, 200);
    return c.json({ method: "sendMessage" as const, chat_id: /^-?\d+$/.test(chatId) ? Number(chatId) : chatId, text: reply.text }, 200);
  });
