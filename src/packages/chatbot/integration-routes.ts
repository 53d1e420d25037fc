import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { access } from "../../platform/auth/permissions";
import { configOf } from "../../platform/config";
import type { AppEnv } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { apiBaseUrl } from "../../platform/http/origin";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { ListMeta } from "../../platform/resource/routes";
import { users } from "../../platform/schema";
import { sealSecret } from "../../platform/secrets";
import { directoryOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { integrations, PROVIDERS, type Provider } from "./schema";

export const tags = ["Chat bot"];
/** The reference's words for this file's tag (the manifest lists them). */
export const chatbotTags = {
  "Chat bot":
    "The assistant in Slack, Microsoft Teams and Telegram. Inbound requests are authenticated by the platform's signature, refused when stale or repeated, and answered in the HTTP response: the worker never calls the chat platform. Each chat account is linked to a user (`/link` in the chat gives a one-time code for Settings → Chat) and answered as that user, read-only; actions are answered with a link to confirm them in the dashboard.",
};

const Integration = z
  .object({
    provider: z.enum(PROVIDERS),
    enabled: z.boolean(),
    acts_as_user_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Who unlinked chat users are answered as (read-only); null: they get only the linking instructions" }),
    allowed_chats: z.array(z.string()).openapi({ description: "Chat, team or channel ids the bot answers in; empty: all" }),
    endpoint_url: z.string().openapi({ description: "Where the chat platform must send its requests" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ChatIntegration");

const ProviderParam = z.object({
  provider: z.enum(PROVIDERS, "must be slack, teams or telegram").openapi({ param: { name: "provider", in: "path" }, example: "slack" }),
});

type Row = typeof integrations.$inferSelect;
const toIntegration = (c: Context<AppEnv>, row: Row): z.infer<typeof Integration> => ({
  provider: row.provider,
  enabled: row.enabled,
  acts_as_user_id: row.actsAsUserId,
  allowed_chats: row.allowedChats,
  endpoint_url: `${apiBaseUrl(c)}/chatbot/${row.provider}/${row.workspaceId}`,
  created_at: isoTimestamp(row.createdAt),
  updated_at: isoTimestamp(row.updatedAt),
});

const putIntegration = defineRoute(access.admin, {
  method: "put",
  path: "/chatbot/integrations/{provider}",
  operationId: "setChatIntegration",
  tags,
  summary: "Connect or change a chat platform (the secret is stored encrypted and never shown again)",
  description:
    "Admins and owners (an API token needs the admin scope). Linked chat accounts are answered as their user; acts_as_user_id (optional, a user of this workspace → otherwise 400) answers unlinked ones, read-only — without it they only get the linking instructions. allowed_chats limits the bot to those chat, team or channel ids (Slack channel or team, Teams conversation or team, Telegram chat). secret: the Slack signing secret, the Teams outgoing-webhook security token (base64, else 400), or the Telegram secret_token given to setWebhook; required when connecting (→ 400 without it), omit it to keep the current one. Give the platform the endpoint_url of the answer.",
  request: {
    params: ProviderParam,
    body: jsonBodyOf(
      z
        .strictObject({
          enabled: z.boolean(),
          secret: z.string().min(8, "must be at least 8 characters").max(512).optional(),
          acts_as_user_id: z.number().int().positive().nullable().optional(),
          allowed_chats: z.array(z.string().trim().min(1).max(100)).max(50, "at most 50 ids").optional(),
        })
        .openapi("SetChatIntegration", { example: { enabled: true, secret: "8f742231b10e8888abcd99yyyzzz85a5", allowed_chats: ["C024BE91L"] } }),
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

export const integrationRoutes = newRouter()
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
    const fallback = input.acts_as_user_id ?? null;
    const allowed = [...new Set(input.allowed_chats ?? [])];
    // One statement: a fallback user must belong to this workspace; a missing secret keeps the current one.
    const memberOk = fallback === null ? sql`1` : sql`EXISTS (SELECT 1 FROM ${users} WHERE ${tenant.scope(users, eq(users.id, fallback))})`;
    const [row] = await tenant.rows<Record<string, unknown>>(
      sealed
        ? sql`INSERT INTO ${integrations} (workspace_id, provider, enabled, secret, acts_as_user_id, allowed_chats, created_at, updated_at)
              SELECT ${ws}, ${provider}, ${input.enabled ? 1 : 0}, ${sealed}, ${fallback}, ${JSON.stringify(allowed)}, ${now}, ${now} WHERE ${memberOk}
              ON CONFLICT (workspace_id, provider) DO UPDATE SET enabled = excluded.enabled, secret = excluded.secret, acts_as_user_id = excluded.acts_as_user_id, allowed_chats = excluded.allowed_chats, updated_at = excluded.updated_at
              RETURNING *`
        : sql`UPDATE ${integrations} SET enabled = ${input.enabled ? 1 : 0}, acts_as_user_id = ${fallback}, allowed_chats = ${JSON.stringify(allowed)}, updated_at = ${now}
              WHERE ${tenant.scope(integrations, eq(integrations.provider, provider))} AND ${memberOk}
              RETURNING *`,
    );
    if (!row) {
      if (fallback !== null) {
        const known = await tenant.selectFrom({ id: users.id }, users, eq(users.id, fallback)).get();
        if (!known) throw ApiError.validation([{ path: "acts_as_user_id", message: "no user with this id in this workspace" }]);
      }
      throw ApiError.validation([{ path: "secret", message: "is required to connect a platform" }]);
    }
    const integration: Row = {
      workspaceId: Number(row.workspace_id),
      provider: row.provider as Provider,
      enabled: Boolean(row.enabled),
      secret: "",
      actsAsUserId: row.acts_as_user_id === null ? null : Number(row.acts_as_user_id),
      allowedChats: JSON.parse(String(row.allowed_chats)) as string[],
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
    return c.json({ success: true as const, data: toIntegration(c, integration) }, 200);
  })
  .openapi(listIntegrations, async (c) => {
    const rows = await directoryOf(c).select(integrations).orderBy(integrations.provider);
    const data = rows.map((row) => toIntegration(c, row));
    return c.json({ success: true as const, data, meta: { limit: data.length, has_more: false, next_cursor: null } }, 200);
  });
