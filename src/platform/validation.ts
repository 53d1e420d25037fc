import type { Hook } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
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
    details.push({ path: path.join("."), message: issue.message });
  }
  return details;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
};

const FORMAT_NAMES: Record<string, string> = {
  email: "a valid e-mail address",
  datetime: "an ISO 8601 date-time",
  date: "a date YYYY-MM-DD",
  url: "a valid URL",
  uuid: "a UUID",
};

/**
 * Messages for schemas that do not set their own, in the API's words rather than zod's
 * ("must be a string", not "Invalid input: expected string, received null").
 */
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case "invalid_type":
        if (issue.input === undefined) return "is required";
        return `must be ${TYPE_NAMES[issue.expected] ?? `of type ${issue.expected}`}`;
      case "too_small": {
        const min = Number(issue.minimum);
        if (issue.origin === "string") return min === 1 ? "must not be empty" : `must be at least ${min} characters`;
        if (issue.origin === "array" || issue.origin === "set") return `must have at least ${min} item${min === 1 ? "" : "s"}`;
        return issue.inclusive ? `must be at least ${min}` : `must be greater than ${min}`;
      }
      case "too_big": {
        const max = Number(issue.maximum);
        if (issue.origin === "string") return `must be at most ${max} characters`;
        if (issue.origin === "array" || issue.origin === "set") return `must have at most ${max} items`;
        return issue.inclusive ? `must be at most ${max}` : `must be less than ${max}`;
      }
      case "invalid_value":
        return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.join(", ")}`;
      case "invalid_format":
        return `must be ${FORMAT_NAMES[issue.format] ?? "in the expected format"}`;
      case "not_multiple_of":
        return `must be a multiple of ${issue.divisor}`;
      case "unrecognized_keys":
        return "unknown field";
      case "invalid_union":
      case "invalid_element":
      case "invalid_key":
        return "has an invalid value";
      default:
        return undefined;
    }
  },
});

/**
 * The one validation hook: a bad path parameter means the resource cannot exist (404), anything
 * else is a 400 validation_error naming each field.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  if (result.target === "param") throw ApiError.notFound();
  throw ApiError.validation(issuesToDetails(result.error.issues));
};
