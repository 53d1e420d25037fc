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

// Signing secrets must be readable to sign, so they are encrypted at rest rather than hashed.
// Production sets WEBHOOK_SECRETS_KEY (base64, 32 bytes); local development uses a fixed key.
const DEVELOPMENT_KEY = "business-platform-api/webhook-secrets/development";
const keys = new Map<string, Promise<CryptoKey>>();

function encryptionKey(configured: string | undefined): Promise<CryptoKey> {
  const material = configured || DEVELOPMENT_KEY;
  let key = keys.get(material);
  if (!key) {
    key = (async () => {
      const raw = configured ? fromBase64(configured) : new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(DEVELOPMENT_KEY)));
      return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    })();
    keys.set(material, key);
  }
  return key;
}

export async function sealSecret(secret: string, configuredKey: string | undefined): Promise<string> {
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await encryptionKey(configuredKey), utf8(secret));
  return `v1:${base64(iv)}:${base64(new Uint8Array(sealed))}`;
}

export async function openSecret(sealed: string, configuredKey: string | undefined): Promise<string> {
  const [version, iv, data] = sealed.split(":");
  if (version !== "v1" || !iv || !data) throw new Error("unreadable webhook secret");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, await encryptionKey(configuredKey), fromBase64(data));
  return new TextDecoder().decode(plain);
}
