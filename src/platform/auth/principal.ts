import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Principal } from "../context";
import { type Plan, type Role, tokens, users, workspaces } from "../schema";
import { platformOf } from "../services";
import { acrossWorkspaces, isHeld } from "../tenancy";
import { hashToken, looksLikeToken } from "./tokens";

export type { Principal } from "../context";

/** The user and workspace columns every principal is read with (a token, or a chat bot's user). */
export const principalColumns = {
  userId: users.id,
  userName: users.name,
  email: users.email,
  role: users.role,
  workspaceId: workspaces.id,
  workspaceName: workspaces.name,
  plan: workspaces.plan,
  disabledPackages: workspaces.disabledPackages,
  shard: workspaces.shard,
  movingSince: workspaces.movingSince,
};

type PrincipalRow = {
  userId: number;
  userName: string;
  email: string;
  role: Role;
  workspaceId: number;
  workspaceName: string;
  plan: Plan;
  disabledPackages: string[];
  shard: string;
  movingSince: number | null;
};

/** A principal from its user and workspace row (principalColumns) and the credential it acts with. */
export function buildPrincipal(
  row: PrincipalRow,
  credential: Pick<Principal, "tokenId" | "tokenKind" | "tokenHash" | "expiresAt" | "scopes">,
  now: number,
): Principal {
  return {
    ...credential,
    role: row.role,
    user: { id: row.userId, name: row.userName, email: row.email, role: row.role },
    workspace: { id: row.workspaceId, name: row.workspaceName, plan: row.plan },
    shard: row.shard,
    moving: isHeld(row.movingSince, now),
    disabledPackages: row.disabledPackages,
  };
}

/**
 * Verified tokens are kept in the isolate for TOKEN_CACHE_TTL_MS so the hot path costs no D1 read.
 * Revocation, role and plan changes evict matching entries in the isolate that made them at once;
 * other isolates notice within the TTL — the documented bound on how long a revoked token may live.
 */
export const TOKEN_CACHE_TTL_MS = 5_000;
const TOKEN_CACHE_MAX_ENTRIES = 10_000;

/**
 * The isolate's verified tokens (by hash) and the hash of each token it has seen recently: a SHA-256 per
 * request is the one cryptographic step of the hot path, and a token's hash never changes.
 */
type TokenCache = { principals: Map<string, { principal: Principal; cachedAt: number }>; hashes: Map<string, string> };

function tokenCache(c: Context<AppEnv>): TokenCache {
  return platformOf(c).isolate.get("auth.tokens", () => ({ principals: new Map(), hashes: new Map() }));
}

/** Forgets the cached principals that match (after a revocation, a role or a plan change). */
export function evictCachedTokens(c: Context<AppEnv>, matches: (principal: Principal) => boolean): void {
  const { principals } = tokenCache(c);
  for (const [hash, entry] of principals) if (matches(entry.principal)) principals.delete(hash);
}

function remember(cache: TokenCache, principal: Principal, now: number): void {
  if (cache.principals.size >= TOKEN_CACHE_MAX_ENTRIES) {
    // Map iteration is insertion order: drop the oldest entry.
    const oldest = cache.principals.keys().next().value;
    if (oldest !== undefined) cache.principals.delete(oldest);
  }
  cache.principals.set(principal.tokenHash, { principal, cachedAt: now });
}

export type Resolution = { principal: Principal; fromCache: boolean } | null;

/** A bearer token → its principal, or null when it is malformed, unknown, expired or revoked. */
export async function resolveToken(c: Context<AppEnv>, token: string, now: number): Promise<Resolution> {
  if (!looksLikeToken(token)) return null;
  const cache = tokenCache(c);
  const { hashes } = cache;
  let hash = hashes.get(token);
  if (hash === undefined) {
    hash = await hashToken(token);
    if (hashes.size >= TOKEN_CACHE_MAX_ENTRIES) hashes.clear();
    hashes.set(token, hash);
  }
  const cached = cache.principals.get(hash);
  if (cached && now - cached.cachedAt < TOKEN_CACHE_TTL_MS) {
    if (cached.principal.expiresAt !== null && cached.principal.expiresAt <= now) return null;
    return { principal: cached.principal, fromCache: true };
  }
  cache.principals.delete(hash);

  // A token names its workspace: the lookup is by its hash, across workspaces.
  const row = await acrossWorkspaces(c.env, "directory")
    .selectFrom({ tokenId: tokens.id, tokenKind: tokens.kind, expiresAt: tokens.expiresAt, scopes: tokens.scopes, ...principalColumns }, tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .innerJoin(workspaces, eq(workspaces.id, tokens.workspaceId))
    .where(eq(tokens.tokenHash, hash))
    .get();
  if (!row || (row.expiresAt !== null && row.expiresAt <= now)) return null;

  const principal = buildPrincipal(
    row,
    { tokenId: row.tokenId, tokenKind: row.tokenKind, tokenHash: hash, expiresAt: row.expiresAt, scopes: row.tokenKind === "api" ? (row.scopes ?? []) : null },
    now,
  );
  remember(cache, principal, now);
  return { principal, fromCache: false };
}
