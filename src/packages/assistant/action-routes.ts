import { z } from "@hono/zod-openapi";
import { and, eq, gt } from "drizzle-orm";
import type { Context } from "hono";
import { principalOf } from "../../platform/auth/middleware";
import { access } from "../../platform/auth/permissions";
import type { Principal } from "../../platform/auth/principal";
import type { AppEnv } from "../../platform/context";
import { type Dispatched, dispatch } from "../../platform/dispatch";
import { ApiError, type ErrorCode } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, jsonContent } from "../../platform/openapi";
import { tenantOf } from "../../platform/tenancy";
import { clock, isoTimestamp } from "../../platform/time";
import { ActionRef } from "./answer";
import { tags } from "./conversation-routes";
import { actions } from "./schema";

const ActionDetail = ActionRef.extend({
  status: z.enum(["pending", "running", "done", "failed"]),
  request: z
    .object({
      method: z.string(),
      path: z.string(),
      body: z.record(z.string(), z.unknown()).optional(),
      unchanged_since: z
        .string()
        .optional()
        .openapi({ description: "The record's updated_at when proposed: if it changed since, confirming refuses (409) and writes nothing" }),
    })
    .openapi({ description: "The API call it makes when confirmed" }),
  record: z.object({ resource: z.string(), id: z.number().int() }).nullable().openapi({ description: "The existing record it changes (null for a create)" }),
}).openapi("AssistantActionDetail");

/** `/deals/12/…` → the record a call changes; a create (`POST /tasks`) changes none yet. */
function recordOf(path: string): { resource: string; id: number } | null {
  const match = /^\/([a-z-]+)\/(\d+)(\/|$)/.exec(path);
  return match ? { resource: match[1]!, id: Number(match[2]) } : null;
}

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

/** The refusal for a record that is not as it was when the action was proposed (null when it is). */
async function changedSince(c: Context<AppEnv>, principal: Principal, path: string, version: string): Promise<Dispatched<unknown> | null> {
  const record = recordOf(path);
  if (!record) return null;
  const current = await dispatch<{ updated_at?: string }>(c, principal, "GET", `/${record.resource}/${record.id}`);
  if (!current.ok) return current;
  if (current.data.updated_at === version) return null;
  return {
    ok: false,
    status: 409,
    error: {
      code: "conflict",
      message: `The record changed after this action was proposed (it was updated at ${current.data.updated_at}); ask again to act on it as it is now`,
    },
  };
}

export const actionRoutes = newRouter()
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
    // Proposed against a record as it was: if it changed (or went) since, say so and write nothing.
    const stale = request.unchanged_since ? await changedSince(c, principal, request.path, request.unchanged_since) : null;
    const result = stale ?? (await dispatch(c, principal, request.method, request.path, request.body ? { body: request.body } : {}));
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
