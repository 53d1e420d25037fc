import type { Context } from "hono";
import type { RequestIdVariables } from "hono/request-id";
import type { IsolateState } from "./isolate";
import type { RateLimiter } from "./rate-limit/durable-object";
import type { Plan, Role, TokenKind } from "./schema";
import type { ExtensionSource } from "./tenancy/tenant";

/** What every layer may read of the worker serving a request; services.ts (platformOf) has the whole of it. */
export type PlatformCore = { registry: ExtensionSource; isolate: IsolateState };

/** Who is calling: the token, its user and its workspace, resolved from the Authorization header. */
export type Principal = {
  tokenId: number;
  tokenKind: TokenKind;
  tokenHash: string;
  expiresAt: number | null;
  /** null for session tokens (they act with the role alone). */
  scopes: string[] | null;
  role: Role;
  user: { id: number; name: string; email: string; role: Role };
  workspace: { id: number; name: string; plan: Plan };
  /** The workspace's shard (the D1 binding of its business data), and whether it is being moved right now. */
  shard: string;
  moving: boolean;
  disabledPackages: string[];
};

/** Bindings and variables declared in wrangler.toml. */
export interface Env {
  /** The directory (and shard 0). */
  DB: D1Database;
  /** The D1 bindings holding business data, comma-separated ("DB,SHARD_1"); see shards.ts. */
  SHARDS?: string;
  /** Shard bindings (SHARD_1, SHARD_2 …), looked up by name. */
  [shard: `SHARD_${number}`]: D1Database | undefined;
  /** The analytics package's database (sites, events, rollups, salts). */
  ANALYTICS_DB: D1Database;
  ANALYTICS_QUEUE: Queue<unknown>;
  ANALYTICS_DLQ: Queue<unknown>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  WEBHOOKS_QUEUE: Queue<{ deliveryId: number; shard?: string }>;
  /** Cloudflare Email Service: every outgoing message (simulated by `wrangler dev`: written out, not sent). */
  EMAIL: SendEmail;
  /** Files (expense receipts), keyed `w/{workspace_id}/…`: never listed across workspaces. */
  FILES: R2Bucket;
  /** The mail outbox's queue (see platform/mail). */
  MAIL_QUEUE: Queue<{ id: number; workspaceId: number; shard: string }>;
  /** The address every message is sent from (its domain onboarded to Email Service in production). */
  MAIL_FROM?: string;
  /** The domain of the workspaces' support addresses (support+{workspace_id}@SUPPORT_DOMAIN). */
  SUPPORT_DOMAIN: string;
  /** Seconds before each retry of a failed send, comma-separated (default 60,300,1800,7200). */
  MAIL_RETRY_SECONDS?: string;
  /** Where the Stripe SDK sends its requests (default https://api.stripe.com); tests point it at a local server. */
  STRIPE_API_BASE?: string;
  ALLOW_INSECURE_WEBHOOK_URLS: string;
  RATE_LIMIT_OVERRIDE: string;
  /** Secret (wrangler secret put CURSOR_SECRET): the MAC key of list cursors, ≥ 32 characters. Required. */
  CURSOR_SECRET?: string;
  /** Secret: `kid:base64(32 bytes)[,kid:…]`, the keyring that encrypts signing secrets at rest. Required. */
  SIGNING_SECRETS_KEY?: string;
  /** Secret, optional (≥ 32 characters): the operator's bearer token for /ops (moving workspaces between shards); without it /ops does not exist. */
  OPERATOR_TOKEN?: string;
  /** Seconds before the cron dispatches outbox events a request's own dispatch missed (default 30). */
  OUTBOX_GRACE_SECONDS?: string;
  /** Seconds a pending delivery may be overdue before the cron re-sends its lost queue message (default 600). */
  REDELIVER_AFTER_SECONDS?: string;
  /** The API's public origin (https://api.example.com): the SSO issuer. Required unless in local development. */
  PUBLIC_BASE_URL?: string;
  /** A name for this running instance, echoed in X-Instance-Id by /health (local scripts confirm which server answers). */
  INSTANCE_ID?: string;
  /** "true" serves the demo pro app (/demo/pro-app) outside local development too; local builds always serve it. */
  DEMO?: string;
  /** Optional: a Workers AI binding and model the assistant may plan with (off unless both are set). */
  AI?: { run(model: string, input: Record<string, unknown>): Promise<unknown> };
  ASSISTANT_MODEL?: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: RequestIdVariables & {
    /** The worker's platform (registry, in-process fetch, isolate caches), set first: read it with platformOf(c). */
    platform: PlatformCore;
    /** Set by the authenticate middleware when the request carries a valid credential. */
    principal?: Principal;
    /** A credential was sent but is malformed, unknown, expired or revoked. */
    credentialRejected?: boolean;
    /** The request recorded outbox events; they are dispatched once the response is ready. */
    eventsRecorded?: boolean;
    /** Whose events, when the request has no principal (a public endpoint that wrote to a workspace). */
    eventsWorkspace?: { id: number; shard: string };
    /** An in-process call made for a request already counted by the rate limiter (see dispatch.ts). */
    dispatched?: boolean;
    /** The raw JSON body text, read once by the body middleware (idempotency hashes it). */
    bodyText?: string;
  };
};

/** A public request (no principal) recorded events in a workspace: dispatch them after the response, as for an API write. */
export function eventsRecordedFor(c: Context<AppEnv>, workspace: { id: number; shard: string }): void {
  c.set("eventsRecorded", true);
  c.set("eventsWorkspace", workspace);
}
