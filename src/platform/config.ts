import type { Env } from "./context";
import { fromBase64, utf8 } from "./crypto";

/** One key of the keyring that encrypts signing secrets at rest; `id` is stored with each sealed value. */
export type SealingKey = { id: string; raw: Uint8Array<ArrayBuffer> };

/**
 * An HMAC-SHA-256 key made from a secret, imported on first use and kept by the configuration that
 * holds it (which lives as long as its env: one import per isolate).
 */
export class HmacKey {
  private imported: Promise<CryptoKey> | undefined;
  constructor(private readonly secret: string) {}
  key(): Promise<CryptoKey> {
    this.imported ??= crypto.subtle.importKey("raw", utf8(this.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    return this.imported;
  }
  /** Hex HMAC-SHA-256 of the parts (joined by NUL), cut to `hexChars`. */
  async hex(parts: (string | number)[], hexChars = 64): Promise<string> {
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.key(), utf8(parts.join("\u0000"))));
    return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0"))
      .join("")
      .slice(0, hexChars);
  }
}

/** What the worker needs to run, read from its variables and secrets once per isolate. */
export type Config = {
  /** MAC key of list cursors (from CURSOR_SECRET). */
  cursorKey: HmacKey;
  /** MAC key of the pages' CSRF tokens (derived from CURSOR_SECRET, apart from the cursors'). */
  csrfKey: HmacKey;
  /**
   * MAC key that names clients without keeping them (derived from CURSOR_SECRET, apart from the others):
   * per-IP limiter objects and the workspace-keyed hash of server-side analytics visitor ids.
   */
  clientKey: HmacKey;
  /** The first key seals; every key opens (so a key can be rotated without a flag day). */
  sealingKeys: [SealingKey, ...SealingKey[]];
  /** The public origin of the API (SSO `iss`, OpenAPI servers); null = the request's own, in local development only. */
  publicBaseUrl: string | null;
  /** ALLOW_INSECURE_WEBHOOK_URLS = "true": local development and tests (http and loopback webhook targets). */
  development: boolean;
};

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** `SIGNING_SECRETS_KEY` = `kid:base64(32 bytes)[,kid:base64(32 bytes)…]`, the sealing key first. */
function parseKeyring(value: string | undefined, problems: string[]): SealingKey[] {
  if (!value) {
    problems.push("SIGNING_SECRETS_KEY is not set (wrangler secret put SIGNING_SECRETS_KEY; format kid:base64-of-32-bytes)");
    return [];
  }
  const keys: SealingKey[] = [];
  for (const entry of value.split(",").map((part) => part.trim())) {
    const [id, material, extra] = entry.split(":");
    let raw: Uint8Array<ArrayBuffer> | null = null;
    try {
      raw = material ? fromBase64(material) : null;
    } catch {
      raw = null;
    }
    if (!id || !KEY_ID.test(id) || extra !== undefined || !raw || raw.length !== 32) {
      problems.push("SIGNING_SECRETS_KEY: every entry must be kid:base64-of-32-bytes (kid: letters, digits, _ or -)");
      return [];
    }
    if (keys.some((key) => key.id === id)) problems.push(`SIGNING_SECRETS_KEY: key id ${id} appears twice`);
    keys.push({ id, raw });
  }
  return keys;
}

function parseBaseUrl(value: string | undefined, development: boolean, problems: string[]): string | null {
  if (!value) {
    if (!development) problems.push("PUBLIC_BASE_URL is not set (e.g. https://api.example.com): tokens name it as their issuer");
    return null;
  }
  try {
    const url = new URL(value);
    if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash || url.username) throw new Error();
    return url.href.replace(/\/$/, "");
  } catch {
    problems.push("PUBLIC_BASE_URL must be an absolute http(s) URL such as https://api.example.com");
    return null;
  }
}

const cache = new WeakMap<object, { config: Config } | { problems: string[] }>();

/** The worker's configuration, or what is wrong with it. There are no built-in fallback keys. */
export function readConfig(env: Env): { config: Config } | { problems: string[] } {
  let result = cache.get(env);
  if (result) return result;
  const problems: string[] = [];
  const development = env.ALLOW_INSECURE_WEBHOOK_URLS === "true";
  if (!env.CURSOR_SECRET || env.CURSOR_SECRET.length < 32)
    problems.push("CURSOR_SECRET must be set to at least 32 random characters (wrangler secret put CURSOR_SECRET)");
  const sealingKeys = parseKeyring(env.SIGNING_SECRETS_KEY, problems);
  const publicBaseUrl = parseBaseUrl(env.PUBLIC_BASE_URL, development, problems);
  result =
    problems.length > 0
      ? { problems }
      : {
          config: {
            cursorKey: new HmacKey(env.CURSOR_SECRET!),
            csrfKey: new HmacKey(`csrf:${env.CURSOR_SECRET}`),
            clientKey: new HmacKey(`client:${env.CURSOR_SECRET}`),
            sealingKeys: sealingKeys as Config["sealingKeys"],
            publicBaseUrl,
            development,
          },
        };
  cache.set(env, result);
  return result;
}

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/** The configuration; throws when the worker is misconfigured (requests never get this far then). */
export function configOf(env: Env): Config {
  const result = readConfig(env);
  if ("problems" in result) throw new ConfigurationError(`the worker is misconfigured: ${result.problems.join("; ")}`);
  return result.config;
}
