/**
 * Verifies a Business Platform SSO token (an HS256 JWT) — dependency-free, for pro apps to copy or import.
 * Works wherever Web Crypto exists (browsers, Workers, Node ≥ 20, Deno, Bun).
 *
 *   const claims = await verifySsoToken(token, process.env.SSO_SECRET, {
 *     audience: "hrm-pro",                // your app id
 *     issuer: "https://api.example.com",  // the API's base URL
 *   });
 *
 * Rules: the header must say alg HS256 (anything else, "none" included, is refused); the signature is
 * checked in constant time with the app secret (base64url of 32 bytes); `exp` is required; `aud`, `iss`
 * and `nbf` are checked; clocks may differ by `leewaySeconds` (default 10); every claim must have its type.
 */
export type SsoClaims = {
  iss: string;
  aud: string;
  sub: string;
  workspace_id: number;
  email: string;
  name: string;
  role: string;
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
  /** The dashboard session the token came from (its id, as a string, like OpenID Connect's sid). */
  sid: string;
};

export type VerifyOptions = { audience: string; issuer: string; leewaySeconds?: number; now?: number };

export class SsoTokenError extends Error {
  override name = "SsoTokenError";
}

function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new SsoTokenError("malformed token");
  const normalized = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(normalized + "=".repeat((4 - (normalized.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function json(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(base64UrlBytes(part)));
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new SsoTokenError("malformed token");
}

export async function verifySsoToken(token: string, secret: string, options: VerifyOptions): Promise<SsoClaims> {
  const parts = token.split(".");
  if (parts.length !== 3) throw new SsoTokenError("malformed token");
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = json(headerPart);
  if (header.alg !== "HS256") throw new SsoTokenError(`algorithm ${String(header.alg)} is not allowed`);

  const key = await crypto.subtle.importKey("raw", base64UrlBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  // crypto.subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify("HMAC", key, base64UrlBytes(signaturePart), new TextEncoder().encode(`${headerPart}.${payloadPart}`));
  if (!valid) throw new SsoTokenError("bad signature");

  const claims = json(payloadPart);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const leeway = options.leewaySeconds ?? 10;
  if (typeof claims.exp !== "number") throw new SsoTokenError("exp is required");
  if (now - leeway >= claims.exp) throw new SsoTokenError("token expired");
  if (typeof claims.nbf === "number" && now + leeway < claims.nbf) throw new SsoTokenError("token not yet valid");
  if (claims.aud !== options.audience) throw new SsoTokenError("wrong audience");
  if (claims.iss !== options.issuer) throw new SsoTokenError("wrong issuer");
  // A token signed with the right key but with claims of the wrong types is still refused.
  const strings = ["sub", "email", "name", "role", "jti", "sid"] as const;
  if (strings.some((name) => typeof claims[name] !== "string") || !Number.isInteger(claims.workspace_id) || typeof claims.iat !== "number") {
    throw new SsoTokenError("malformed claims");
  }
  return claims as unknown as SsoClaims;
}

/** The claims of a token without checking anything: only to find which secret to verify it with. */
export function peekSsoClaims(token: string): Record<string, unknown> | null {
  try {
    const payload = token.split(".")[1];
    return payload ? json(payload) : null;
  } catch {
    return null;
  }
}
