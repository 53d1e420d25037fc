import type { Context } from "hono";
import type { AppEnv, Env } from "./context";
import type { Background } from "./packages";

/**
 * What every request can reach of the worker it runs in: the package registry, the worker's own fetch (for
 * in-process calls, see dispatch.ts) and the isolate's caches. Built once by createPlatform and set on
 * each request's context; background work (queues, cron) receives it as an argument.
 */
export type Platform = Background & {
  fetch(request: Request, env: Env, ctx: ExecutionContext<unknown>): Promise<Response>;
};

/** The platform of the worker serving this request. */
export function platformOf(c: Context<AppEnv>): Platform {
  const platform = c.get("platform") as Platform | undefined;
  if (!platform) throw new Error("no platform on this request: it did not come through createPlatform's app");
  return platform;
}
