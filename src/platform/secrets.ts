import { base64, fromBase64, randomBytes, utf8 } from "./crypto";

// Signing secrets (webhooks, SSO apps) must be readable to sign, so they are encrypted at rest rather
// than hashed. Production sets SIGNING_SECRETS_KEY (base64, 32 bytes); local development uses a fixed key.
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
