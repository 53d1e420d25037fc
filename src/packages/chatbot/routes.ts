import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { packageDisabled, unauthorized } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import { buildPrincipal, principalColumns } from "../../platform/auth/principal";
import { configOf } from "../../platform/config";
import type { AppEnv } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { apiBaseUrl, publicOrigin } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { countRequest } from "../../platform/rate-limit/middleware";
import { ListMeta } from "../../platform/resource/routes";
import { users, workspaces } from "../../platform/schema";
import { openSecret, sealSecret } from "../../platform/secrets";
import { platformOf } from "../../platform/services";
import { directoryFor, directoryOf } from "../../platform/tenancy";
import { clock, isoTimestamp } from "../../platform/time";
import { answer } from "../assistant/routes";
import { integrations, PROVIDERS, type Provider } from "./schema";
import { verifySlack, verifyTeams, verifyTelegram } from "./verify";

const tags = ["Chat bot"];
/** The reference's words for this file's tag (the manifest lists them). */
export const chatbotTags = {
  "Chat bot":
    "The assistant in Slack, Microsoft Teams and Telegram. Inbound requests are authenticated by the platform's signature alone and answered in the HTTP response: the worker never calls the chat platform. The bot acts as a chosen user, read-only; actions are answered with a link to confirm them in the dashboard.",
};

const MAX_BODY = 64 * 1024;

const Integration = z
  .object({
    provider: z.enum(PROVIDERS),
    enabled: z.boolean(),
    acts_as_user_id: z.number().int(),
    endpoint_url: z.string().openapi({ description: "Where the chat platform must send its requests" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ChatIntegration");

const ProviderParam = z.object({
  provider: z.enum(PROVIDERS, "must be slack, teams or telegram").openapi({ param: { name: "provider", in: "path" }, example: "slack" }),
});

const putIntegration = defineRoute(access.admin, {
  method: "put",
  path: "/chatbot/integrations/{provider}",
  operationId: "setChatIntegration",
  tags,
  summary: "Connect or change a chat platform (the secret is stored encrypted and never shown again)",
  description:
    "Admins and owners (an API token needs the admin scope); the bot answers as acts_as_user_id, read-only, which must be a user of this workspace → otherwise 400. secret: the Slack signing secret, the Teams outgoing-webhook security token (base64, else 400), or the Telegram secret_token given to setWebhook; required when connecting (→ 400 without it), omit it to keep the current one. Give the platform the endpoint_url of the answer.",
  request: {
    params: ProviderParam,
    body: jsonBodyOf(
      z
        .strictObject({
          enabled: z.boolean(),
          secret: z.string().min(8, "must be at least 8 characters").max(512).optional(),
          acts_as_user_id: z.number().int().positive(),
        })
        .openapi("SetChatIntegration", { example: { enabled: true, secret: "8f742231b10e8888abcd99yyyzzz85a5", acts_as_user_id: 1 } }),
    ),
  },
  responses: { 200: jsonContent(envelope(Integration), "The integration") },
});

const listIntegrations = defineRoute(access.admin, {
  method: "get",
  path: "/chatbot/integrations",
  operationId: "listChatIntegrations",
  tags,
  summary: "The connected chat platforms (without their secrets)",
  description:
    "Admins and owners (an API token needs the admin scope). Each connected platform, enabled or not, with the user the bot acts as and the endpoint_url to give the platform; platforms never connected are absent.",
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Integration), meta: ListMeta }), "Every integration") },
});

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

type Row = typeof integrations.$inferSelect;
const toIntegration = (c: Context<AppEnv>, row: Row): z.infer<typeof Integration> => ({
  provider: row.provider,
  enabled: row.enabled,
  acts_as_user_id: row.actsAsUserId,
  endpoint_url: `${apiBaseUrl(c)}/chatbot/${row.provider}/${row.workspaceId}`,
  created_at: isoTimestamp(row.createdAt),
  updated_at: isoTimestamp(row.updatedAt),
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

export const chatbotRoutes = newRouter()
  .openapi(putIntegration, async (c) => {
    const { provider } = c.req.valid("param");
    const input = c.req.valid("json");
    if (provider === "teams" && input.secret !== undefined && !/^[A-Za-z0-9+/]+={0,2}$/.test(input.secret)) {
      throw ApiError.validation([{ path: "secret", message: "must be the base64 security token Teams shows when the outgoing webhook is created" }]);
    }
    const tenant = directoryOf(c);
    const ws = tenant.workspaceId;
    const now = Date.now();
    const sealed = input.secret === undefined ? null : await sealSecret(input.secret, configOf(c.env).sealingKeys);
    // One statement: the user must belong to this workspace; a missing secret keeps the current one.
    const member = tenant.scope(users, eq(users.id, input.acts_as_user_id));
    const [row] = await tenant.rows<Record<string, unknown>>(
      sealed
        ? sql`INSERT INTO ${integrations} (workspace_id, provider, enabled, secret, acts_as_user_id, created_at, updated_at)
              SELECT ${ws}, ${provider}, ${input.enabled ? 1 : 0}, ${sealed}, id, ${now}, ${now} FROM ${users} WHERE ${member}
              ON CONFLICT (workspace_id, provider) DO UPDATE SET enabled = excluded.enabled, secret = excluded.secret, acts_as_user_id = excluded.acts_as_user_id, updated_at = excluded.updated_at
              RETURNING *`
        : sql`UPDATE ${integrations} SET enabled = ${input.enabled ? 1 : 0}, acts_as_user_id = ${input.acts_as_user_id}, updated_at = ${now}
              WHERE ${tenant.scope(integrations, eq(integrations.provider, provider))} AND EXISTS (SELECT 1 FROM ${users} WHERE ${member})
              RETURNING *`,
    );
    if (!row) {
      const known = await tenant.selectFrom({ id: users.id }, users, eq(users.id, input.acts_as_user_id)).get();
      if (!known) throw ApiError.validation([{ path: "acts_as_user_id", message: "no user with this id in this workspace" }]);
      throw ApiError.validation([{ path: "secret", message: "is required to connect a platform" }]);
    }
    const integration: Row = {
      workspaceId: Number(row.workspace_id),
      provider: row.provider as Provider,
      enabled: Boolean(row.enabled),
      secret: "",
      actsAsUserId: Number(row.acts_as_user_id),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
    return c.json({ success: true as const, data: toIntegration(c, integration) }, 200);
  })
  .openapi(listIntegrations, async (c) => {
    const rows = await directoryOf(c).select(integrations).orderBy(integrations.provider);
    const data = rows.map((row) => toIntegration(c, row));
    return c.json({ success: true as const, data, meta: { limit: data.length, has_more: false, next_cursor: null } }, 200);
  })
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
