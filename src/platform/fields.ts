import { z } from "@hono/zod-openapi";

/** Field validators shared by every resource, so one rule has one wording. */
export const fields = {
  name: () => z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  email: () =>
    z
      .string()
      .trim()
      .max(254, "must be at most 254 characters")
      .pipe(z.email("must be a valid e-mail address"))
      .transform((email) => email.toLowerCase())
      .openapi({ type: "string", format: "email", example: "ada@example.com" }),
  password: () => z.string().min(10, "must be at least 10 characters").max(1024, "must be at most 1024 characters"),
  text: (max: number) => z.string().trim().max(max, `must be at most ${max} characters`),
  phone: () => z.string().regex(/^\+[1-9]\d{1,14}$/, "must be an E.164 number such as +14155550123"),
  timestamp: () => z.string().openapi({ format: "date-time", example: "2026-11-21T10:15:53.150Z" }),
  id: () => z.number().int().positive(),
};
