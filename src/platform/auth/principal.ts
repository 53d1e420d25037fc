import { eq } from "drizzle-orm";
import { database } from "../db";
import { type Plan, type Role, type TokenKind, tokens, users, workspaces } from "../schema";
import { isHeld } from "../shards";
import { hashToken, looksLikeToken } from "./tokens";

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
const cache = new Map<string, { principal: Principal; cachedAt: number }>();

export function evictCachedTokens(matches: (principal: Principal) => boolean): void {
  for (const [hash, entry] of cache) if (matches(entry.principal)) cache.delete(hash);
}

function remember(principal: Principal, now: number): void {
  if (cache.size >= TOKEN_CACHE_MAX_ENTRIES) {
    // Map iteration is insertion order: drop the oldest entry.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(principal.tokenHash, { principal, cachedAt: now });
}

export type Resolution = { principal: Principal; fromCache: boolean } | null;

/** A bearer token → its principal, or null when it is malformed, unknown, expired or revoked. */
// The hash of each token this isolate has seen recently: a SHA-256 per request is the one cryptographic
// step of the hot path, and a token's hash never changes (the principal behind it is cached apart).
const hashes = new Map<string, string>();

export async function resolveToken(d1: D1Database, token: string, now: number): Promise<Resolution> {
  if (!looksLikeToken(token)) return null;
  let hash = hashes.get(token);
  if (hash === undefined) {
    hash = await hashToken(token);
    if (hashes.size >= TOKEN_CACHE_MAX_ENTRIES) hashes.clear();
    hashes.set(token, hash);
  }
  const cached = cache.get(hash);
  if (cached && now - cached.cachedAt < TOKEN_CACHE_TTL_MS) {
    if (cached.principal.expiresAt !== null && cached.principal.expiresAt <= now) return null;
    return { principal: cached.principal, fromCache: true };
  }
  cache.delete(hash);

  const row = await database(d1)
    .select({
      tokenId: tokens.id,
      tokenKind: tokens.kind,
      expiresAt: tokens.expiresAt,
      scopes: tokens.scopes,
      ...principalColumns,
    })
    .from(tokens)
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
  remember(principal, now);
  return { principal, fromCache: false };
}
