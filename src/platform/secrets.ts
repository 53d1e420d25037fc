import { and, getTableColumns, getTableName, isNotNull, like, not, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Config, configOf, type SealingKey } from "./config";
import { base64, fromBase64, randomBytes, utf8 } from "./crypto";
import type { Sweep } from "./packages";
import { acrossWorkspaces, everyShard } from "./tenancy";

// Signing secrets (webhooks, SSO apps, chat integrations) must be readable to sign, so they are
// encrypted at rest (AES-256-GCM) rather than hashed, under the keyring in SIGNING_SECRETS_KEY.
// A sealed value names its key: `v2:<key id>:<iv>:<ciphertext>`.

const imported = new Map<string, Promise<CryptoKey>>();

function cryptoKey(key: SealingKey): Promise<CryptoKey> {
  const cacheKey = `${key.id}:${base64(key.raw)}`;
  let promise = imported.get(cacheKey);
  if (!promise) {
    promise = crypto.subtle.importKey("raw", key.raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    imported.set(cacheKey, promise);
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

const RESEAL_BATCH = 50;

/**
 * Cron: re-encrypts up to 50 secrets per column that were sealed with a key other than the current
 * one, so an old key can leave SIGNING_SECRETS_KEY once no row names it (the log counts what is left).
 * Each rewrite is conditional on the value read, so a concurrent rotation is never overwritten.
 */
export function resealSweep(columns: SealedColumn[]): Sweep {
  const run: Sweep["run"] = async (env, _now, worker) => {
    const keys = configOf(env).sealingKeys;
    const current = `v2:${keys[0].id}:%`;
    let resealed = 0;
    // A directory table is in DB only; a business table on every shard.
    const directoryTables = worker.registry.directoryTables();
    const places = columns.flatMap((sealed) =>
      (directoryTables.includes(getTableName(sealed.table)) ? [acrossWorkspaces(env, "directory")] : everyShard(env).map((shard) => shard.data)).map((db) => ({
        ...sealed,
        db,
      })),
    );
    for (const { table, column, key, db } of places) {
      const stale = (await db
        .selectFrom({ value: column, ...Object.fromEntries(key.map((part) => [part.name, part])) }, table)
        .where(and(isNotNull(column), not(like(column, current))))
        .limit(RESEAL_BATCH)) as Record<string, unknown>[];
      for (const row of stale) {
        const value = row.value as string;
        const next = await sealSecret(await openSecret(value, keys), keys);
        const where = and(sql`${column} = ${value}`, ...key.map((part) => sql`${part} = ${row[part.name]}`));
        await db
          .update(table, { [columnProperty(table, column)]: next })
          .where(where)
          .run();
        resealed += 1;
      }
    }
    if (resealed > 0) console.log(JSON.stringify({ level: "info", msg: "re-sealed secrets under the current key", count: resealed }));
  };
  return { name: "re-seal secrets", run };
}

function columnProperty(table: SQLiteTable, column: SQLiteColumn): string {
  const entry = Object.entries(getTableColumns(table)).find(([, candidate]) => candidate === column);
  if (!entry) throw new Error(`${column.name} is not a column of its table`);
  return entry[0];
}
