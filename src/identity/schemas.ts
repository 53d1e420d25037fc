import { z } from "@hono/zod-openapi";
import { fields } from "../platform/fields";
import { PLANS, ROLES } from "../platform/schema";

export const Role = z.enum(ROLES);

export const User = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: Role,
    created_at: fields.timestamp(),
    updated_at: fields.timestamp(),
  })
  .openapi("User");

export const SignupBody = z
  .strictObject({
    workspace_name: fields.name(),
    name: fields.name(),
    email: fields.email(),
    password: fields.password(),
  })
  .openapi("SignupRequest", {
    example: { workspace_name: "Acme Trading", name: "Ada Lovelace", email: "ada@acme.example", password: "correct horse battery staple" },
  });

export const LoginBody = z
  .strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(1024) })
  .openapi("TokenRequest", { example: { email: "demo@example.com", password: "demo-password-123" } });

export const SessionGrant = z
  .object({
    token: z.string().openapi({ example: "bps_4Vd…" }),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().openapi({ example: 3600 }),
    workspace_id: z.number().int(),
  })
  .openapi("SessionToken");

export const SignupGrant = SessionGrant.omit({ token_type: true }).openapi("SignupResult");

export const Me = z
  .object({
    user: z.object({ id: z.number().int(), name: z.string(), email: z.string(), role: Role }),
    workspace: z.object({ id: z.number().int(), name: z.string(), plan: z.enum(PLANS) }),
    token: z.object({ type: z.enum(["session", "api"]), scopes: z.array(z.string()).nullable(), expires_at: fields.timestamp().nullable() }),
  })
  .openapi("Me");

export const CreateUserBody = z
  .strictObject({ name: fields.name(), email: fields.email(), password: fields.password(), role: Role })
  .openapi("CreateUserRequest", { example: { name: "Grace Hopper", email: "grace@acme.example", password: "a long passphrase 42", role: "member" } });

export const UpdateUserBody = z
  .strictObject({ name: fields.name().optional(), role: Role.optional() })
  .openapi("UpdateUserRequest", { example: { role: "admin" } });

/** A scope's shape; whether it names a resource of this build is checked by the route (the packages know). */
const Scope = z.string().regex(/^(read|write|admin|[a-z][a-z0-9-]*:(read|write))$/, "must be one of read, write, admin or <resource>:read / <resource>:write");

export const CreateApiTokenBody = z
  .strictObject({
    name: fields.name(),
    scopes: z.array(Scope).min(1, "must name at least one scope").max(50).optional(),
    expires_at: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time" })
      .optional()
      .openapi({ description: "When the token stops working; must be in the future. Without it the token never expires" }),
  })
  .openapi("CreateApiTokenRequest", { example: { name: "Accounting sync", scopes: ["invoices:read", "payments:write"] } });

export const ApiToken = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string(),
    last_four: z.string(),
    scopes: z.array(z.string()),
    expires_at: fields.timestamp().nullable(),
    last_used_at: fields.timestamp().nullable(),
    created_at: fields.timestamp(),
    created_by: z.number().int(),
  })
  .openapi("ApiToken");

export const CreatedApiToken = ApiToken.extend({ token: z.string().openapi({ description: "Shown once; only its hash is stored." }) }).openapi(
  "CreatedApiToken",
);
