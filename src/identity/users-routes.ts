import { z } from "@hono/zod-openapi";
import { eq, exists, ne, sql } from "drizzle-orm";
import { principalOf } from "../platform/auth/middleware";
import { hashPassword } from "../platform/auth/password";
import { access, actsAsOwner } from "../platform/auth/permissions";
import type { Principal } from "../platform/auth/principal";
import { evictCachedTokens } from "../platform/auth/principal";
import { configOf } from "../platform/config";
import { ApiError } from "../platform/errors";
import { isUniqueViolation } from "../platform/errors-db";
import { linkNextPage } from "../platform/http/links";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, IdParam, jsonBodyOf, jsonContent } from "../platform/openapi";
import { idPage, PageQuery } from "../platform/resource/id-page";
import { ListMeta } from "../platform/resource/routes";
import { type Role, tokens, users } from "../platform/schema";
import { directoryOf } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { CreateUserBody, UpdateUserBody, User } from "./schemas";

const tags = ["Users"];
/** The reference's words for this file's tag (the manifest lists them). */
export const userTags = {
  Users: "The people of a workspace and their roles: owner, admin, member, viewer. Admins manage users; only an owner's session manages owners.",
};

export function toUser(row: typeof users.$inferSelect): z.infer<typeof User> {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

const listUsers = defineRoute(access.admin, {
  method: "get",
  path: "/users",
  operationId: "listUsers",
  tags,
  summary: "List the workspace's users, newest first",
  description: "Admins and owners (an API token needs the admin scope). Cursor-paged: pass meta.next_cursor as cursor for the next page.",
  request: { query: PageQuery },
  responses: { 200: jsonContent(z.object({ success: z.literal(true), data: z.array(User), meta: ListMeta }), "A page of users") },
});

const createUser = defineRoute(access.admin, {
  method: "post",
  path: "/users",
  operationId: "createUser",
  errors: ["conflict"],
  tags,
  summary: "Add a user to the workspace",
  description:
    "Admins and owners (an API token needs the admin scope). Only an owner, with a session token, may create another owner (never an API token) → otherwise 403. An e-mail is unique across all workspaces: one already registered → 409 conflict; the password needs 10–1024 characters.",
  request: { body: jsonBodyOf(CreateUserBody) },
  responses: { 201: jsonContent(envelope(User), "The new user") },
});

const updateUser = defineRoute(access.admin, {
  method: "put",
  path: "/users/{id}",
  operationId: "updateUser",
  errors: ["conflict"],
  tags,
  summary: "Change a user's role or name",
  description:
    "Admins and owners (an API token needs the admin scope); send only the fields to change. Changing an owner (even the name) or making someone owner needs an owner's session → otherwise 403. Demoting the last owner → 409 conflict. A new role applies to the user's existing tokens too (within seconds).",
  request: { params: IdParam, body: jsonBodyOf(UpdateUserBody) },
  responses: { 200: jsonContent(envelope(User), "The updated user") },
});

const deleteUser = defineRoute(access.admin, {
  method: "delete",
  path: "/users/{id}",
  operationId: "deleteUser",
  errors: ["conflict"],
  tags,
  summary: "Remove a user and revoke all of their tokens",
  description:
    "Admins and owners (an API token needs the admin scope). Their sessions and API tokens are revoked with them. Only an owner with a session token may remove an owner → otherwise 403; nobody can remove themselves → 409 conflict.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(z.object({ id: z.number().int(), deleted: z.literal(true) })), "Removed") },
});

function mayManage(actor: Principal, target: Role, newRole?: Role): boolean {
  if (actsAsOwner(actor)) return true;
  return target !== "owner" && newRole !== "owner";
}

export const userRoutes = newRouter()
  .openapi(listUsers, async (c) => {
    const page = await idPage(directoryOf(c), users, "users", c.req.valid("query"), [], configOf(c.env).cursorKey);
    linkNextPage(c, page.meta);
    return c.json({ success: true as const, data: page.rows.map(toUser), meta: page.meta }, 200);
  })
  .openapi(createUser, async (c) => {
    const body = c.req.valid("json");
    const actor = principalOf(c);
    if (!mayManage(actor, body.role, body.role))
      throw new ApiError("forbidden", "Only an owner, signed in with a session (not an API token), can create an owner");
    const now = Date.now();
    try {
      const [row] = await directoryOf(c)
        .insert(users, { name: body.name, email: body.email, passwordHash: await hashPassword(body.password), role: body.role, createdAt: now, updatedAt: now })
        .returning();
      return c.json({ success: true as const, data: toUser(row!) }, 201);
    } catch (error) {
      if (isUniqueViolation(error, "users.email"))
        throw new ApiError("conflict", "email: already registered", { details: [{ path: "email", message: "already registered" }] });
      throw error;
    }
  })
  .openapi(updateUser, async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const actor = principalOf(c);
    const tenant = directoryOf(c);
    const target = await tenant.select(users, eq(users.id, id)).get();
    if (!target) throw ApiError.notFound("user");
    if (!mayManage(actor, target.role, body.role))
      throw new ApiError("forbidden", "Only an owner, signed in with a session (not an API token), can promote to or demote an owner");
    const demotesOwner = target.role === "owner" && body.role !== undefined && body.role !== "owner";
    // The last-owner rule lives in the UPDATE itself so two concurrent demotions cannot both pass.
    const anotherOwner = demotesOwner ? exists(tenant.selectFrom({ one: sql`1` }, users, eq(users.role, "owner"), ne(users.id, id))) : undefined;
    const [row] = await tenant.update(users, { ...body, updatedAt: Date.now() }, eq(users.id, id), anotherOwner).returning();
    if (!row) throw new ApiError("conflict", "The workspace must keep at least one owner");
    if (body.role !== undefined) evictCachedTokens(c, (p) => p.user.id === id);
    return c.json({ success: true as const, data: toUser(row) }, 200);
  })
  .openapi(deleteUser, async (c) => {
    const { id } = c.req.valid("param");
    const actor = principalOf(c);
    if (actor.user.id === id) throw new ApiError("conflict", "You cannot remove yourself; ask another admin or owner");
    const tenant = directoryOf(c);
    const target = await tenant.select(users, eq(users.id, id)).get();
    if (!target) throw ApiError.notFound("user");
    if (!mayManage(actor, target.role)) throw new ApiError("forbidden", "Only an owner, signed in with a session (not an API token), can remove an owner");
    await tenant.batch([tenant.delete(tokens, eq(tokens.userId, id)), tenant.delete(users, eq(users.id, id))]);
    evictCachedTokens(c, (p) => p.user.id === id);
    return c.json({ success: true as const, data: { id, deleted: true as const } }, 200);
  });
