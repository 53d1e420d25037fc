import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Config, SealingKey } from "./config";
import { base64, fromBase64, randomBytes, utf8 } from "./crypto";

// Signing secrets (webhooks, SSO apps, chat integrations) must be readable to sign, so they are
// encrypted at rest (AES-256-GCM) rather than hashed, under the keyring in SIGNING_SECRETS_KEY.
// A sealed value names its key: `v2:<key id>:<iv>:<ciphertext>`.

// Each keyring entry is imported once: the keys are the configuration's own objects (one per isolate).
const imported = new WeakMap<SealingKey, Promise<CryptoKey>>();

function cryptoKey(key: SealingKey): Promise<CryptoKey> {
  let promise = imported.get(key);
  if (!promise) {
    promise = crypto.subtle.importKey("raw", key.raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    imported.set(key, promise);
  }
  return promise;
}

export async function sealSecret(secret: string, keys: Config["sealingKeys"]): Promise<string> {
  const key = keys[0];
  const iv = randomBytes(12);
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: utf8(key.id) }, await cryptoKey(key), utf8(secret));
  return `v2:${key.id}:${base64(iv)}:${base64(new Uint8Array(sealed))}`;
}

export async function openSecret(sealed: string, keys: Config["sealingKeys"]): Promise<string> {
  const [version, keyId, iv, data] = sealed.split(":");
  const key = keys.find((candidate) => candidate.id === keyId);
  if (version !== "v2" || !iv || !data) throw new Error("unreadable sealed secret");
  if (!key) throw new Error(`sealed with key ${keyId}, which SIGNING_SECRETS_KEY no longer holds`);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv), additionalData: utf8(key.id) }, await cryptoKey(key), fromBase64(data));
  return new TextDecoder().decode(plain);
}

/** A column holding sealed secrets, with the table's primary key to rewrite it by. */
export type SealedColumn = { table: SQLiteTable; column: SQLiteColumn; key: SQLiteColumn[] };
