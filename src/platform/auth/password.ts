import { base64, fromBase64, randomBytes, timingSafeEqual, utf8 } from "../crypto";

/**
 * PBKDF2-SHA-256. The deployed Workers runtime refuses more than 100,000 iterations (local workerd
 * does not enforce the cap), so this is the maximum the platform allows, not a guess.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const PBKDF2_MAX_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;
const SCHEME = "pbkdf2-sha256";

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", utf8(password.normalize("NFKC")), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BITS);
  return new Uint8Array(bits);
}

/** `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${base64(salt)}$${base64(hash)}`;
}

export function parsePasswordHash(stored: string): { iterations: number; salt: Uint8Array<ArrayBuffer>; hash: Uint8Array } | null {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== SCHEME || !iterations || !salt || !hash) return null;
  const count = Number(iterations);
  if (!Number.isInteger(count) || count < 1 || count > PBKDF2_MAX_ITERATIONS) return null;
  return { iterations: count, salt: fromBase64(salt), hash: fromBase64(hash) };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations);
  return timingSafeEqual(candidate, parsed.hash);
}

const DUMMY_SALT = new Uint8Array(SALT_BYTES);

/** Spends the same work as a real check, so an unknown e-mail cannot be told apart by timing. */
export async function spendPasswordCheck(password: string): Promise<false> {
  await derive(password, DUMMY_SALT, PBKDF2_ITERATIONS);
  return false;
}
