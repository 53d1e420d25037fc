import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { principalOf, unauthorized } from "../platform/auth/middleware";
import { hashPassword, spendPasswordCheck, verifyPassword } from "../platform/auth/password";
import { access } from "../platform/auth/permissions";
import { evictCachedTokens } from "../platform/auth/principal";
import { SESSION_TTL_SECONDS } from "../platform/auth/tokens";
import { ApiError } from "../platform/errors";
import { isUniqueViolation } from "../platform/errors-db";
import { newRouter } from "../platform/http/router";
import { defineRoute, envelope, jsonBodyOf, jsonContent } from "../platform/openapi";
import { users, workspaces } from "../platform/schema";
import { acrossWorkspaces, leastLoadedShard } from "../platform/tenancy";
import { isoTimestamp } from "../platform/time";
import { LoginBody, Me, SessionGrant, SignupBody, SignupGrant } from "./schemas";
import { newSession, revokeToken } from "./sessions";

const tags = ["Authentication"];
/** The reference's words for this file's tag (the manifest lists them). */
export const authTags = { Authentication: "Sign up, exchange e-mail and password for a session token (bps_…, 1 hour), refresh, revoke, and who am I." };

const signup = defineRoute(access.public, {
  method: "post",
  path: "/auth/signup",
  operationId: "signUp",
  errors: ["conflict"],
  tags,
  summary: "Create a workspace on the Starter plan and its owner",
  description:
    "Public (no token). Creates the workspace, with every package enabled except the pro apps, and its owner, and answers with the owner's session token (1 hour). An e-mail is unique across all workspaces: one already registered → 409 conflict; the password needs 10–1024 characters.",
  request: { body: jsonBodyOf(SignupBody) },
  responses: { 201: jsonContent(envelope(SignupGrant), "The owner's session token") },
});

const login = defineRoute(access.public, {
  method: "post",
  path: "/auth/token",
  operationId: "createSessionToken",
  errors: ["unauthorized"],
  tags,
  summary: "Exchange e-mail and password for a session token",
  description:
    "Public (no token). Answers with the token fields at the top level (no success envelope), the OAuth-style shape most clients expect; the token lasts 1 hour (renew it with POST /auth/refresh). The e-mail is matched case-insensitively; a wrong e-mail and a wrong password get the same 401.",
  request: { body: jsonBodyOf(LoginBody) },
  responses: { 200: jsonContent(SessionGrant, "A session token valid for expires_in seconds") },
});

const refresh = defineRoute(access.session, {
  method: "post",
  path: "/auth/refresh",
  operationId: "refreshSessionToken",
  tags,
  summary: "Swap the presented session token for a new one; the old one is revoked",
  description:
    "Needs a session token (an API token → 403). Answers in the top-level shape of POST /auth/token with a new token valid for 1 hour. Of two refreshes racing with one token only the first gets a new one; the other → 401.",
  responses: { 200: jsonContent(SessionGrant, "A new session token") },
});

const logout = defineRoute(access.authenticated, {
  method: "delete",
  path: "/auth/token",
  operationId: "revokeToken",
  tags,
  summary: "Revoke the presented token",
  description:
    "Revokes the token in the Authorization header, a session or an API token alike (another API token is revoked with DELETE /api-tokens/{id}). Other servers may accept it for up to 5 seconds more.",
  responses: { 200: jsonContent(envelope(z.object({ revoked: z.literal(true) })), "Revoked") },
});

const me = defineRoute(access.authenticated, {
  method: "get",
  path: "/me",
  operationId: "getMe",
  tags,
  summary: "The calling user, workspace and token",
  description:
    "Any valid token. The user (id, name, e-mail, role), the workspace (id, name, plan) and the token: its type (session or api), its scopes (null for a session, which acts with the user's role) and when it expires (null: never).",
  responses: { 200: jsonContent(envelope(Me), "The caller") },
});

export const authRoutes = newRouter()
  .openapi(signup, async (c) => {
    const body = c.req.valid("json");
    // A new workspace has no tenant yet: signup writes the directory across workspaces.
    const db = acrossWorkspaces(c.env, "directory");
    const now = Date.now();
    const passwordHash = await hashPassword(body.password);
    // One batch: the workspace (on the shard with the fewest workspaces), its owner and the first session
    // stand or fall together.
    const session = await newSession(
      db,
      { id: sql`last_insert_rowid()`, workspaceId: sql`(SELECT workspace_id FROM users WHERE id = last_insert_rowid())` },
      now,
    );
    try {
      const [[workspace]] = await db.batch([
        db
          .insert(workspaces, { name: body.workspace_name, shard: leastLoadedShard(c.env), planUpdatedAt: now, createdAt: now, updatedAt: now })
          .returning({ id: workspaces.id }),
        db.insert(users, {
          workspaceId: sql`last_insert_rowid()`,
          name: body.name,
          email: body.email,
          passwordHash,
          role: "owner",
          createdAt: now,
          updatedAt: now,
        }),
        session.statement,
      ]);
      return c.json({ success: true as const, data: { token: session.token, expires_in: SESSION_TTL_SECONDS, workspace_id: workspace!.id } }, 201);
    } catch (error) {
      if (isUniqueViolation(error, "users.email"))
        throw new ApiError("conflict", "email: already registered", { details: [{ path: "email", message: "already registered" }] });
      throw error;
    }
  })
  .openapi(login, async (c) => {
    const body = c.req.valid("json");
    // Login is by e-mail, before anyone knows the workspace: across workspaces.
    const db = acrossWorkspaces(c.env, "directory");
    const user = await db.select(users, eq(users.email, body.email.trim().toLowerCase())).get();
    const valid = user ? await verifyPassword(body.password, user.passwordHash) : await spendPasswordCheck(body.password);
    if (!user || !valid) throw unauthorized(false, "Invalid e-mail or password");
    const now = Date.now();
    const session = await newSession(db, { id: user.id, workspaceId: user.workspaceId }, now);
    await session.statement.run();
    return c.json({ token: session.token, token_type: "Bearer" as const, expires_in: SESSION_TTL_SECONDS, workspace_id: user.workspaceId }, 200);
  })
  .openapi(refresh, async (c) => {
    const principal = principalOf(c);
    const db = acrossWorkspaces(c.env, "directory");
    // Revoke first: of two refreshes racing with one token, only the one that revoked it gets a new session.
    const revoked = await revokeToken(db, principal.tokenId).run();
    evictCachedTokens(c, (p) => p.tokenId === principal.tokenId);
    if (revoked.meta.changes === 0) throw unauthorized(true);
    const session = await newSession(db, { id: principal.user.id, workspaceId: principal.workspace.id }, Date.now());
    await session.statement.run();
    return c.json({ token: session.token, token_type: "Bearer" as const, expires_in: SESSION_TTL_SECONDS, workspace_id: principal.workspace.id }, 200);
  })
  .openapi(logout, async (c) => {
    const principal = principalOf(c);
    await revokeToken(acrossWorkspaces(c.env, "directory"), principal.tokenId).run();
    evictCachedTokens(c, (p) => p.tokenId === principal.tokenId);
    return c.json({ success: true as const, data: { revoked: true as const } }, 200);
  })
  .openapi(me, (c) => {
    const principal = principalOf(c);
    return c.json(
      {
        success: true as const,
        data: {
          user: principal.user,
          workspace: principal.workspace,
          token: { type: principal.tokenKind, scopes: principal.scopes, expires_at: isoTimestamp(principal.expiresAt) },
        },
      },
      200,
    );
  });
