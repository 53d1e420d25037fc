import { eq, type sql } from "drizzle-orm";
import { issueToken, SESSION_TTL_SECONDS } from "../platform/auth/tokens";
import { tokens } from "../platform/schema";
import type { Unscoped } from "../platform/tenancy";

/** A new session token row for the user; the caller puts the statement in its batch. */
export async function newSession(db: Unscoped, user: { id: number | ReturnType<typeof sql>; workspaceId: number | ReturnType<typeof sql> }, now: number) {
  const issued = await issueToken("session");
  const statement = db.insert(tokens, {
    workspaceId: user.workspaceId,
    userId: user.id,
    kind: "session",
    tokenHash: issued.hash,
    prefix: issued.prefix,
    lastFour: issued.lastFour,
    expiresAt: now + SESSION_TTL_SECONDS * 1000,
    createdAt: now,
  });
  return { token: issued.token, statement };
}

export function revokeToken(db: Unscoped, tokenId: number) {
  return db.delete(tokens).where(eq(tokens.id, tokenId));
}
