import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../platform/context";
import { sha256Hex, timingSafeEqual, utf8 } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import { platformOf } from "../platform/services";
import { moveSteps, startStep } from "../platform/tenancy/move";
import { issuesToDetails } from "../platform/validation";

/**
 * The operator's routes under /ops: moving a workspace between shards, step by step, driven by
 * `npm run shard:move`. They exist only when the OPERATOR_TOKEN secret is set, and answer 404 to anyone
 * without it (the token is compared as SHA-256 digests, in constant time).
 */
const Step = z.strictObject({
  to: z.string().min(1).max(64),
  table: z.string().max(64).optional(),
  after: z.number().int().min(0).optional(),
  since: z.number().int().min(0).optional(),
  held_since: z.number().int().min(0).optional(),
});

/** The operator's bearer token, compared in constant time; without OPERATOR_TOKEN the routes do not exist. */
async function operatorOnly(c: Context<AppEnv>, next: () => Promise<void>) {
  const expected = c.env.OPERATOR_TOKEN;
  const sent = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
  const ok =
    expected !== undefined && expected.length >= 32 && sent !== undefined && timingSafeEqual(utf8(await sha256Hex(sent)), utf8(await sha256Hex(expected)));
  if (!ok) throw new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`);
  await next();
}

/** Reads the step's body and the workspace named in the path. */
async function parse(c: Context<AppEnv>) {
  const body = await c.req.json().catch(() => {
    throw new ApiError("invalid_json", "The request body is not valid JSON");
  });
  const parsed = Step.safeParse(body);
  if (!parsed.success) throw ApiError.validation(issuesToDetails(parsed.error.issues));
  const id = Number(c.req.param("id"));
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError("not_found", `No workspace ${c.req.param("id")}`);
  return startStep(c.env, id, parsed.data, platformOf(c).registry.directoryTables());
}

export const moveRoutes = new Hono<AppEnv>().use("/ops/*", operatorOnly);
/** POST /ops/workspaces/{id}/move: the plan (where the workspace is, the tables in order). */
moveRoutes.post("/ops/workspaces/:id/move", async (c) => c.json(await moveSteps.plan(await parse(c))));
/** POST /ops/workspaces/{id}/move/{copy|hold|prune|switch|cleanup|abort}: one step (see tenancy/move.ts). */
for (const name of ["copy", "hold", "prune", "switch", "cleanup", "abort"] as const) {
  moveRoutes.post(`/ops/workspaces/:id/move/${name}`, async (c) => c.json(await moveSteps[name](await parse(c))));
}
