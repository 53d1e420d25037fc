import { z } from "@hono/zod-openapi";
import type { HmacKey } from "./config";
import { base64Url, fromBase64, timingSafeEqual, utf8 } from "./crypto";
import { ApiError } from "./errors";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** Where a page ended: enough to continue the keyset walk, bound to the list it came from. */
export type CursorPosition = {
  /** resource name */
  r: string;
  /** workspace id */
  w: number;
  /** sort, e.g. "-created_at" */
  s: string;
  /** sort value of the last row */
  v: string | number | null;
  /** id of the last row */
  i: number;
};

const CursorShape = z.object({
  r: z.string(),
  w: z.number().int(),
  s: z.string(),
  v: z.union([z.string(), z.number(), z.null()]),
  i: z.number().int(),
});

// A cursor is a position, not a credential: the MAC (keyed by CURSOR_SECRET) makes edits detectable.

async function mac(payload: string, key: HmacKey): Promise<Uint8Array> {
  const signature = await crypto.subtle.sign("HMAC", await key.key(), utf8(payload));
  return new Uint8Array(signature).slice(0, 16);
}

export async function encodeCursor(position: CursorPosition, key: HmacKey): Promise<string> {
  const payload = base64Url(utf8(JSON.stringify(position)));
  return `${payload}.${base64Url(await mac(payload, key))}`;
}

/** Verifies and opens a cursor; a forged, edited or foreign one (other list, workspace or sort) → 400. */
export async function decodeCursor(cursor: string, expected: Omit<CursorPosition, "v" | "i">, key: HmacKey): Promise<CursorPosition> {
  const invalid = () => new ApiError("invalid_cursor", "The cursor is invalid or belongs to another list; start again without it");
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw invalid();
  let position: unknown;
  try {
    if (!timingSafeEqual(fromBase64(signature), await mac(payload, key))) throw invalid();
    position = JSON.parse(new TextDecoder().decode(fromBase64(payload)));
  } catch {
    throw invalid();
  }
  // A cursor with a valid MAC but another shape (an older format, a bug) is still only an invalid cursor.
  const parsed = CursorShape.safeParse(position);
  if (!parsed.success) throw invalid();
  const opened = parsed.data;
  if (opened.r !== expected.r || opened.w !== expected.w || opened.s !== expected.s) throw invalid();
  return opened;
}
