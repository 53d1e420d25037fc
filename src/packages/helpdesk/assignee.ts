import { and, eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { users } from "../../platform/schema";
import { directoryOf } from "../../platform/tenancy";

/**
 * A ticket's assignee must be a user of the workspace. Users live in the directory database and tickets on the
 * workspace's shard, so no statement of the write's batch can check it: it is read here, before the write, only
 * when a body names one (a user removed later leaves the ticket with an id the page shows as unknown).
 */
const assigneeIsAUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (["POST", "PUT", "PATCH"].includes(c.req.method)) {
    const text = c.get("bodyText");
    let assignee: unknown;
    try {
      assignee = text ? (JSON.parse(text) as Record<string, unknown>)?.assignee_user_id : undefined;
    } catch {
      assignee = undefined; // the route's own validation answers a body that is not JSON
    }
    if (typeof assignee === "number" && Number.isSafeInteger(assignee) && assignee > 0) {
      const found = await directoryOf(c)
        .selectFrom({ id: users.id }, users, and(eq(users.id, assignee)))
        .get();
      if (!found) throw ApiError.validation([{ path: "assignee_user_id", message: "is not a user of this workspace" }]);
    }
  }
  await next();
};

export const assigneeRoutes = newRouter();
assigneeRoutes.use("/tickets", assigneeIsAUser);
assigneeRoutes.use("/tickets/:id", assigneeIsAUser);
