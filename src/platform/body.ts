import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;
/** A collector's event is small (30 short properties, a URL): anything much larger is refused before parsing. */
export const COLLECTOR_MAX_BODY_BYTES = 64 * 1024;
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Reads the body of POST/PUT/PATCH once, enforcing the contract's rules before any route runs:
 * over 1 MiB (a collector's: 64 KiB) → 413, a body that is not JSON by Content-Type → 415, unparsable JSON → invalid_json.
 * `beaconPaths` also take JSON sent as text/plain: what navigator.sendBeacon posts, with no CORS preflight;
 * `rawPrefixes` are left alone (signed inbound webhooks verify and parse their own bytes), and so are `uploads`
 * (a file's bytes, which its route reads with `rawBody` under its own limit).
 */
export function jsonBody(
  beaconPaths: ReadonlySet<string> = new Set(),
  rawPrefixes: readonly string[] = [],
  uploads: readonly { method: string; path: RegExp }[] = [],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== "POST" && method !== "PUT" && method !== "PATCH") return next();
    // Signed webhooks read their own raw bytes (the signature covers them exactly); an upload is a file.
    if (rawPrefixes.some((prefix) => c.req.path.startsWith(prefix))) return next();
    if (uploads.some((upload) => upload.method === method && upload.path.test(c.req.path))) return next();

    const limit = beaconPaths.has(c.req.path) ? COLLECTOR_MAX_BODY_BYTES : MAX_BODY_BYTES;
    const declaredLength = Number(c.req.header("content-length") ?? "0");
    if (declaredLength > limit) throw tooLarge(limit);
    const text = c.req.raw.body ? await readLimited(c.req.raw.body, limit) : "";
    if (text.length === 0) {
      // An empty body is no body: the stream is spent, so hand the routes a request without one (and
      // without a Content-Type that promises JSON), whatever headers the client sent with it.
      const headers = new Headers(c.req.raw.headers);
      headers.delete("content-type");
      headers.delete("content-length");
      c.req.raw = new Request(c.req.raw.url, { method: method, headers });
      return next();
    }

    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim();
    const beacon = mediaType.toLowerCase() === "text/plain" && beaconPaths.has(c.req.path);
    if (!JSON_MEDIA_TYPE.test(mediaType) && !beacon) {
      throw new ApiError("unsupported_media_type", "Content-Type must be application/json");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError("invalid_json", "The request body is not valid JSON");
    }
    if (beacon) {
      const headers = new Headers(c.req.raw.headers);
      headers.set("content-type", "application/json");
      c.req.raw = new Request(c.req.raw.url, { method, headers });
    }
    // The validators read the body (parsed once) through Hono's cache; the stream itself is spent.
    Object.assign(c.req.bodyCache, { text: Promise.resolve(text), json: Promise.resolve(parsed) });
    c.set("bodyText", text);
    return next();
  };
}

/**
 * The raw bytes of a signed inbound request (its signature covers them exactly), read up to `limit`: a
 * declared or actual length over it → 413 before anything is verified.
 */
export async function rawBody(c: Context<AppEnv>, limit: number): Promise<Uint8Array> {
  if (Number(c.req.header("content-length") ?? 0) > limit) throw tooLarge(limit);
  return c.req.raw.body ? readLimitedBytes(c.req.raw.body, limit) : new Uint8Array();
}

async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  return new TextDecoder().decode(await readLimitedBytes(stream, limit));
}

async function readLimitedBytes(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(limit = MAX_BODY_BYTES): ApiError {
  return new ApiError("payload_too_large", `The request body exceeds ${limit} bytes`);
}
