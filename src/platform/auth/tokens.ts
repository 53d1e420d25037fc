import { base62, randomBytes, sha256Hex } from "../crypto";
import type { TokenKind } from "../schema";

export const SESSION_TTL_SECONDS = 3600;
const TOKEN_PREFIX: Record<TokenKind, string> = { session: "bps_", api: "bpk_" };
const TOKEN_SHAPE = /^bp[sk]_[0-9A-Za-z]{43}$/;

export type IssuedToken = { token: string; hash: string; prefix: string; lastFour: string };

/** `bps_`/`bpk_` + 32 random bytes in base62. Only the hash is ever stored. */
export async function issueToken(kind: TokenKind): Promise<IssuedToken> {
  const token = TOKEN_PREFIX[kind] + base62(randomBytes(32));
  return { token, hash: await sha256Hex(token), prefix: TOKEN_PREFIX[kind], lastFour: token.slice(-4) };
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

export function tokenKindOf(value: string): TokenKind {
  return value.startsWith("bps_") ? "session" : "api";
}

export const hashToken = sha256Hex;
