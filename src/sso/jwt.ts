import { base64Url, fromBase64, randomBytes, utf8 } from "../platform/crypto";
import type { SsoClaims } from "./verify";

export const SSO_TOKEN_TTL_SECONDS = 60 as const;

/** A new app secret: 32 random bytes, base64url. */
export function newAppSecret(): string {
  return base64Url(randomBytes(32));
}

/** Signs claims as an HS256 JWT with the app secret's 32 bytes (Web Crypto HMAC-SHA-256). */
export async function signSsoToken(claims: Omit<SsoClaims, "iat" | "nbf" | "exp" | "jti">, secret: string, now: number): Promise<string> {
  const iat = Math.floor(now / 1000);
  const payload: SsoClaims = { ...claims, iat, nbf: iat, exp: iat + SSO_TOKEN_TTL_SECONDS, jti: base64Url(randomBytes(16)) };
  const encode = (value: object) => base64Url(utf8(JSON.stringify(value)));
  const signingInput = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(payload)}`;
  const key = await crypto.subtle.importKey("raw", fromBase64(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(signingInput)));
  return `${signingInput}.${base64Url(signature)}`;
}
