import { z } from "@hono/zod-openapi";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { principalOf } from "../../platform/auth/caller";
import { access, isAllowed } from "../../platform/auth/permissions";
import { randomBytes, sha256Hex } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../../platform/openapi";
import { Deleted, ListMeta } from "../../platform/resource/routes";
import { users } from "../../platform/schema";
import { platformOf } from "../../platform/services";
import type { Tenant } from "../../platform/tenancy";
import { directoryOf } from "../../platform/tenancy";
import { isoTimestamp } from "../../platform/time";
import { tags } from "./integration-routes";
import { chatLinkCodes, chatLinks, PROVIDERS, type Provider } from "./schema";

/** A linking code is good for this long, once. */
export const LINK_CODE_MS = 10 * 60_000;
// No 0/O, 1/I: a code is read off one screen and typed into another.
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

const normalize = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, "");

/** A new one-time code for a chat account ("K7QF-2MZD"); the directory keeps its hash. */
export async function newLinkCode(directory: Tenant, provider: Provider, chatUserId: string, chatUserName: string | null, now: number): Promise<string> {
  const code = Array.from(randomBytes(8), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  await directory.insert(chatLinkCodes, { codeHash: await sha256Hex(code), provider, chatUserId, chatUserName, expiresAt: now + LINK_CODE_MS }).run();
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

const Link = z
  .object({
    id: z.number().int(),
    provider: z.enum(PROVIDERS),
    chat_user_id: z.string(),
    chat_user_name: z.string().nullable(),
    user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
    created_at: z.string(),
  })
  .openapi("ChatLink");

const createLink = defineRoute(access.authenticated, {
  method: "post",
  path: "/chatbot/links",
  operationId: "linkChatAccount",
  tags,
  summary: "Link a chat account to yourself with the code /link gave it",
  description:
    "Any signed-in user: the chat account that asked for the code (by sending /link to the bot) is answered as you from then on, with your role, read-only. A code works once, for 10 minutes, in its own workspace; anything else → 400. Linking an account again moves it to the new user.",
  request: { body: jsonBodyOf(z.strictObject({ code: z.string().trim().min(1).max(20) }).openapi("LinkChatAccount"), { code: "K7QF-2MZD" }) },
  responses: { 201: jsonContent(envelope(Link), "The link") },
});

const listLinks = defineRoute(access.authenticated, {
  method: "get",
  path: "/chatbot/links",
  operationId: "listChatLinks",
  tags,
  summary: "Linked chat accounts: yours, or the workspace's for admins",
  description: "Admins and owners see every link of the workspace; others their own.",
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(Link), meta: ListMeta }), "The links") },
});

const deleteLink = defineRoute(access.authenticated, {
  method: "delete",
  path: "/chatbot/links/{id}",
  operationId: "unlinkChatAccount",
  tags,
  summary: "Unlink a chat account",
  description: "Your own link, or any link of the workspace for admins; another's, or an unknown id → 404. The account gets the linking instructions again.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(Deleted), "Unlinked") },
});

const linkColumns = {
  id: chatLinks.id,
  provider: chatLinks.provider,
  chatUserId: chatLinks.chatUserId,
  chatUserName: chatLinks.chatUserName,
  userId: users.id,
  userName: users.name,
  email: users.email,
  createdAt: chatLinks.createdAt,
};
type LinkRow = {
  id: number;
  provider: Provider;
  chatUserId: string;
  chatUserName: string | null;
  userId: number;
  userName: string;
  email: string;
  createdAt: number;
};

const toLink = (row: LinkRow): z.infer<typeof Link> => ({
  id: row.id,
  provider: row.provider,
  chat_user_id: row.chatUserId,
  chat_user_name: row.chatUserName,
  user: { id: row.userId, name: row.userName, email: row.email },
  created_at: isoTimestamp(row.createdAt),
});

export const linkRoutes = newRouter()
  .openapi(createLink, async (c) => {
    const directory = directoryOf(c);
    const principal = principalOf(c);
    const now = Date.now();
    // The code is spent first (deleted and read in one statement), so it can never link twice.
    const [code] = await directory
      .delete(chatLinkCodes, eq(chatLinkCodes.codeHash, await sha256Hex(normalize(c.req.valid("json").code))), gt(chatLinkCodes.expiresAt, now))
      .returning();
    if (!code) throw ApiError.validation([{ path: "code", message: "is not a valid code, or it expired: send /link to the bot again" }]);
    const [link] = await directory
      .insert(chatLinks, { provider: code.provider, chatUserId: code.chatUserId, chatUserName: code.chatUserName, userId: principal.user.id, createdAt: now })
      .onConflictDoUpdate({
        target: [chatLinks.workspaceId, chatLinks.provider, chatLinks.chatUserId],
        set: { userId: principal.user.id, chatUserName: code.chatUserName, createdAt: sql`${now}` },
      })
      .returning({ id: chatLinks.id });
    const row = { ...code, id: link!.id, userId: principal.user.id, userName: principal.user.name, email: principal.user.email, createdAt: now };
    return c.json({ success: true as const, data: toLink(row) }, 201);
  })
  .openapi(listLinks, async (c) => {
    const directory = directoryOf(c);
    const principal = principalOf(c);
    const mine = isAllowed(principal, access.admin, platformOf(c).registry) ? undefined : eq(chatLinks.userId, principal.user.id);
    const rows = await directory
      .selectFrom(linkColumns, chatLinks, mine)
      .innerJoin(users, directory.scope(users, eq(users.id, chatLinks.userId)))
      .orderBy(desc(chatLinks.id))
      .limit(200);
    return c.json({ success: true as const, data: rows.map(toLink), meta: { limit: 200, has_more: false, next_cursor: null } }, 200);
  })
  .openapi(deleteLink, async (c) => {
    const { id } = c.req.valid("param");
    const principal = principalOf(c);
    const mine = isAllowed(principal, access.admin, platformOf(c).registry) ? undefined : eq(chatLinks.userId, principal.user.id);
    const removed = await directoryOf(c)
      .delete(chatLinks, and(eq(chatLinks.id, id), mine))
      .returning({ id: chatLinks.id });
    if (removed.length === 0) throw ApiError.notFound("chat link");
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  });
