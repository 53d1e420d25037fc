import { eq, type sql } from "drizzle-orm";
import { issueToken, SESSION_TTL_SECONDS } from "../platform/auth/tokens";
import type { Database } from "../platform/db";
import { tokens } from "../platform/schema";

/** A new session token row for the user; the caller puts the statement in its batch. */
export async function newSession(db: Database, user: { id: number | ReturnType<typeof sql>; workspaceId: number | ReturnType<typeof sql> }, now: number) {
  const issued = await issueToken("session");
  const statement = db.insert(tokens).values({
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

export function revokeToken(db: Database, tokenId: number) {
  return db.delete(tokens).where(eq(tokens.id, tokenId));
}
