import { base64, fromBase64, randomBytes, utf8 } from "../platform/crypto";

const SECRET_PREFIX = "whsec_";

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newSigningSecret(): string {
  return SECRET_PREFIX + base64(randomBytes(32));
}

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
function keyBytes(secret: string): Uint8Array<ArrayBuffer> {
  return fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

/** `v1,<base64(HMAC-SHA256(key, "${id}.${timestamp}.${body}"))>` */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", keyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, utf8(`${id}.${timestamp}.${body}`));
  return `v1,${base64(new Uint8Array(mac))}`;
}

/** The webhook-* headers for one attempt; during a rotation both secrets sign (space-separated). */
export async function signedHeaders(secrets: string[], id: string, timestamp: number, body: string): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => signature(secret, id, timestamp, body)));
  return {
    "content-type": "application/json",
    "user-agent": "BusinessPlatform-Webhooks/1.0",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
