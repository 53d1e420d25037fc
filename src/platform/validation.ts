import type { Hook } from "@hono/zod-openapi";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "./context";
import { ApiError, type ErrorDetail } from "./errors";

/** Zod issues → the contract's `details`, one entry per field; unknown keys are named individually. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix: (string | number)[] = []): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path.map(String)];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) details.push({ path: [...path, key].join("."), message: "unknown field" });
      continue;
    }
    details.push({ path: path.join("."), message: humanMessage(issue) });
  }
  return details;
}

function humanMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && / received undefined$/.test(issue.message)) return "is required";
  return issue.message;
}

/**
 * The one validation hook: a bad path parameter means the resource cannot exist (404), anything
 * else is a 400 validation_error naming each field.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  if (result.target === "param") throw ApiError.notFound();
  throw ApiError.validation(issuesToDetails(result.error.issues));
};
