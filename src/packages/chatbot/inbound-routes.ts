import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { packageDisabled, unauthorized } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import { buildPrincipal, principalColumns } from "../../platform/auth/principal";
import { configOf } from "../../platform/config";
import type { AppEnv } from "../../platform/context";
import { ApiError } from "../../platform/errors";
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
import { tags } from "./integration-routes";
import { integrations, type Provider } from "./schema";
import { verifySlack, verifyTeams, verifyTelegram } from "./verify";

const MAX_BODY = 64 * 1024;

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
    requestBody: { required: true, content: { [BODIES[provider].type]: { schema: BODIES[provider].schema } } },
    request: { params: WorkspaceParam },
    responses: { 200: jsonContent(response, "The bot's answer, in the platform's format") },
    errors: ["unauthorized", "package_disabled", "payload_too_large"],
  });

const refused = () => unauthorized(true, "The request's signature is missing, invalid or expired, or this integration is not enabled");

/** The rate-limit headers of a counted request, on whatever response follows (an answer or an error). */
function withLimitHeaders(c: Context<AppEnv>, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}

/**
 * An inbound chat request: the integration and its user in one read, the signature checked over the raw
 * bytes, the request counted (against the workspace once verified, the client IP otherwise), then the
 * assistant's answer as the bot's user — all in this request, so Slack's 3 s are never at risk.
 */
async function receive(c: Context<AppEnv>, provider: Provider, workspaceId: number, read: (body: Uint8Array) => Promise<{ text: string } | null>) {
  const ip = c.req.header("cf-connecting-ip") ?? "unknown";
  if (Number(c.req.header("content-length") ?? 0) > MAX_BODY) throw new ApiError("payload_too_large", `The request body exceeds ${MAX_BODY} bytes`);
  const body = new Uint8Array(await c.req.raw.arrayBuffer());
  if (body.length > MAX_BODY) throw new ApiError("payload_too_large", `The request body exceeds ${MAX_BODY} bytes`);
  // The workspace is named by the URL, not by a credential: the signature below decides whether to believe it.
  const named = directoryFor(c.env, platformOf(c).registry, workspaceId);
  const row = await named
    .selectFrom({ enabled: integrations.enabled, secret: integrations.secret, ...principalColumns }, integrations, eq(integrations.provider, provider))
    .innerJoin(users, named.scope(users, eq(users.id, integrations.actsAsUserId)))
    .innerJoin(workspaces, named.own())
    .get();
  const secret = row?.enabled ? await openSecret(row.secret, configOf(c.env).sealingKeys) : null;
  const verified =
    secret !== null &&
    (provider === "slack"
      ? await verifySlack(secret, c.req.raw.headers, body, clock.now())
      : provider === "teams"
        ? await verifyTeams(secret, c.req.raw.headers, body)
        : await verifyTelegram(secret, c.req.raw.headers));
  if (!row || !verified) {
    withLimitHeaders(c, await countRequest(c, { ip }));
    throw refused();
  }
  withLimitHeaders(c, await countRequest(c, { workspace: { id: row.workspaceId, plan: row.plan } }));
  for (const name of ["chatbot", "assistant"]) if (row.disabledPackages.includes(name)) throw packageDisabled(name);
  const message = await read(body);
  if (!message) return null;
  // The bot's caller: the chosen user with a read-only scope, so every answer is a read the user could make.
  const principal = buildPrincipal(row, { tokenId: 0, tokenKind: "api", tokenHash: "", expiresAt: null, scopes: ["read"] }, clock.now());
  c.set("principal", principal);
  const { reply } = await answer(c, principal, message.text.trim().slice(0, 2000) || "help", { readOnly: true });
  return reply.action ? `${reply.action.summary}. Confirm it in the dashboard: ${publicOrigin(c)}/app/assistant?action=${reply.action.id}` : reply.text;
}

const json = (body: Uint8Array) => {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
  } catch {
    return null;
  }
};

const slack = inboundRoute(
  "slack",
  "Slack slash command",
  "Form-encoded slash command. X-Slack-Signature = v0= + hex HMAC-SHA256(signing secret, v0:{X-Slack-Request-Timestamp}:{raw body}), the timestamp within 300 s; otherwise 401 and nothing is answered.",
  z.object({ response_type: z.literal("ephemeral"), text: z.string() }).openapi("SlackAnswer"),
);
const teams = inboundRoute(
  "teams",
  "Microsoft Teams outgoing webhook",
  "An activity (JSON). Authorization: HMAC <base64 HMAC-SHA256(base64-decoded security token, raw body)>; otherwise 401.",
  z.object({ type: z.literal("message"), text: z.string() }).openapi("TeamsAnswer"),
);
const telegram = inboundRoute(
  "telegram",
  "Telegram bot webhook",
  "An Update (JSON) with message.text. X-Telegram-Bot-Api-Secret-Token must equal the secret_token; otherwise 401. The answer is a sendMessage method in the response body (updates without text get {}).",
  z
    .object({ method: z.literal("sendMessage").optional(), chat_id: z.union([z.number(), z.string()]).optional(), text: z.string().optional() })
    .openapi("TelegramAnswer"),
);

export const inboundRoutes = newRouter()
  .openapi(slack, async (c) => {
    const text = await receive(c, "slack", c.req.valid("param").workspace_id, async (body) => ({
      text: new URLSearchParams(new TextDecoder().decode(body)).get("text") ?? "",
    }));
    return c.json({ response_type: "ephemeral" as const, text: text ?? "" }, 200);
  })
  .openapi(teams, async (c) => {
    // Teams wraps the mention of the bot in <at>…</at> and may send HTML.
    const text = await receive(c, "teams", c.req.valid("param").workspace_id, async (body) => {
      const activity = json(body);
      return {
        text: String(activity?.text ?? "")
          .replace(/<at>.*?<\/at>/g, "")
          .replace(/<[^>]+>/g, " ")
          .replace(/&nbsp;/g, " "),
      };
    });
    return c.json({ type: "message" as const, text: text ?? "" }, 200);
  })
  .openapi(telegram, async (c) => {
    let chatId: number | string | undefined;
    const text = await receive(c, "telegram", c.req.valid("param").workspace_id, async (body) => {
      const update = json(body) as { message?: { text?: unknown; chat?: { id?: number | string } } } | null;
      if (typeof update?.message?.text !== "string" || update.message.chat?.id === undefined) return null;
      chatId = update.message.chat.id;
      // "/ask overdue invoices" or "/start": the command is not the question.
      return { text: update.message.text.replace(/^\/\w+(@\w+)?\s*/, "") };
    });
    if (text === null || chatId === undefined) return c.json({}, 200);
    return c.json({ method: "sendMessage" as const, chat_id: chatId, text }, 200);
  });
