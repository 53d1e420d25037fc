import { eq } from "drizzle-orm";
import { base64, randomBytes, utf8 } from "../../platform/crypto";
import type { IsolateState } from "../../platform/isolate";
import type { Unscoped } from "../../platform/tenancy";
import { salts } from "./schema";

/**
 * Visitor ids without cookies and without keeping anything that identifies a person:
 * browser events: the first 8 bytes of SHA-256(daily salt ‖ site id ‖ IP ‖ user agent) — the salt
 * changes at 00:00 UTC and is deleted after 48 hours, after which nobody (us included) can link the id
 * to a client again; server events: SHA-256(site id ‖ the caller's own visitor id), no salt.
 * The IP address and the user agent are used here and never stored or queued.
 */
export async function visitorId(...parts: (string | number)[]): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(parts.join("\u0000"))));
  return Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A day's salt never changes once made, so an isolate keeps the ones it has read (and a missing
 * yesterday's, which cannot appear later), and drops them when the cron deletes them.
 */
export type SaltCache = Map<string, string | null>;
export const saltCache = (isolate: IsolateState): SaltCache => isolate.get("analytics.salts", () => new Map());

/** The salt of a UTC day: read, or created on first use (one conditional insert). */
export async function saltFor(db: Unscoped, cached: SaltCache, day: string, now: number, create: boolean): Promise<string | null> {
  const known = cached.get(day);
  if (known !== undefined) return known;
  let row = await db.selectFrom({ salt: salts.salt }, salts).where(eq(salts.day, day)).get();
  if (!row && create) {
    await db
      .insert(salts, { day, salt: base64(randomBytes(32)), createdAt: now })
      .onConflictDoNothing()
      .run();
    row = await db.selectFrom({ salt: salts.salt }, salts).where(eq(salts.day, day)).get();
  }
  forgetOldSalts(cached, dayOf(now - 86_400_000));
  cached.set(day, row?.salt ?? null);
  return row?.salt ?? null;
}

/** Drops the cached salts of days before `day` (deleted from the database by the cron). */
export function forgetOldSalts(cached: SaltCache, day: string): void {
  for (const key of cached.keys()) if (key < day) cached.delete(key);
}

/** Today's id for a browser, and yesterday's (to continue a visit across midnight) while that salt lives. */
export async function browserVisitor(db: Unscoped, cached: SaltCache, siteId: number, ip: string, userAgent: string, now: number) {
  const [today, yesterday] = await Promise.all([saltFor(db, cached, dayOf(now), now, true), saltFor(db, cached, dayOf(now - 86_400_000), now, false)]);
  return {
    visitor: await visitorId(today!, siteId, ip, userAgent),
    previousVisitor: yesterday ? await visitorId(yesterday, siteId, ip, userAgent) : undefined,
  };
}

/** Forgets every cached salt (tests that delete salts behind the isolate's back). */
export function forgetSalts(isolate: IsolateState): void {
  saltCache(isolate).clear();
}
