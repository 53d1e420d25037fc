import { fromBase64, utf8 } from "../../platform/crypto";

/**
 * The chat platforms' request signatures, checked over the raw body bytes with Web Crypto. HMACs are
 * verified with crypto.subtle.verify and shared tokens compared with timingSafeEqual: constant time.
 */

export const SLACK_WINDOW_SECONDS = 300;

const hmacKey = (secret: Uint8Array) => crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);

function hexBytes(hex: string): Uint8Array | null {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
}

function base64Bytes(value: string): Uint8Array | null {
  try {
    return fromBase64(value);
  } catch {
    return null;
  }
}

/** Slack: `X-Slack-Signature: v0=<hex HMAC-SHA256(secret, "v0:{timestamp}:{body}")>`, timestamp within 300 s. */
export async function verifySlack(secret: string, headers: Headers, body: Uint8Array, nowMs: number): Promise<boolean> {
  const timestamp = headers.get("x-slack-request-timestamp") ?? "";
  const signature = hexBytes((headers.get("x-slack-signature") ?? "").replace(/^v0=/, ""));
  if (!/^\d{1,12}$/.test(timestamp) || !signature || !(headers.get("x-slack-signature") ?? "").startsWith("v0=")) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_WINDOW_SECONDS) return false;
  const signed = new Uint8Array([...utf8(`v0:${timestamp}:`), ...body]);
  return crypto.subtle.verify("HMAC", await hmacKey(utf8(secret)), signature, signed);
}

/** Teams outgoing webhook: `Authorization: HMAC <base64 HMAC-SHA256(base64-decoded secret, body)>`. */
export async function verifyTeams(secret: string, headers: Headers, body: Uint8Array): Promise<boolean> {
  const match = /^HMAC (\S+)$/.exec(headers.get("authorization") ?? "");
  const signature = match ? base64Bytes(match[1]!) : null;
  const key = base64Bytes(secret);
  if (!signature || !key || signature.length !== 32) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(key), signature, body);
}

/** Telegram: `X-Telegram-Bot-Api-Secret-Token` equals the secret_token set with setWebhook. */
export async function verifyTelegram(secret: string, headers: Headers): Promise<boolean> {
  const sent = headers.get("x-telegram-bot-api-secret-token");
  if (sent === null) return false;
  // Digests first: timingSafeEqual needs equal lengths, and comparing digests reveals nothing about the secret's.
  const [a, b] = await Promise.all([crypto.subtle.digest("SHA-256", utf8(sent)), crypto.subtle.digest("SHA-256", utf8(secret))]);
  return crypto.subtle.timingSafeEqual(a, b);
}
