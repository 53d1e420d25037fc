import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context";
import { validationHook } from "../validation";

export type Router = OpenAPIHono<AppEnv>;

/** A router for one group of routes; zod failures go through the one validation hook. */
export function newRouter(): Router {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
