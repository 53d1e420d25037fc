import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { type Principal, resolveToken } from "../auth/principal";
import { SESSION_TTL_SECONDS } from "../auth/tokens";
import { configOf } from "../config";
import type { AppEnv } from "../context";
import { base64Url, utf8 } from "../crypto";

/**
 * The dashboard's session: the same session token POST /auth/token issues, kept in the `bp_session`
 * cookie (HttpOnly, SameSite=Lax, Secure except on a loopback http origin, Path=/). Only pages read the
 * cookie; the API under /api/v1 takes bearer tokens alone. Every form carries a CSRF token bound to the
 * session (an HMAC of the session's hash), and a POST must also come from the page's own origin.
 */
export const SESSION_COOKIE = "bp_session";

const insecureOrigin = (url: URL) => url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1");

export function startSession(c: Context<AppEnv>, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: !insecureOrigin(new URL(c.req.url)),
    path: "/",
    maxAge: SESSION_TTL_SECONDS,
  });
}

export function endSession(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: !insecureOrigin(new URL(c.req.url)), httpOnly: true, sameSite: "Lax" });
}

export type PageSession = { principal: Principal; token: string; csrf: string };

/** The signed-in person, or null (no cookie, or one that is expired, revoked or not a session token). */
export async function pageSession(c: Context<AppEnv>): Promise<PageSession | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  const resolution = await resolveToken(c, token, Date.now());
  if (resolution?.principal.tokenKind !== "session") return null;
  return { principal: resolution.principal, token, csrf: await csrfToken(c, resolution.principal.tokenHash) };
}

async function csrfToken(c: Context<AppEnv>, sessionHash: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await configOf(c.env).csrfKey.key(), utf8(sessionHash));
  return base64Url(new Uint8Array(mac));
}

/** A form POST is the session's own: same origin, and the session's CSRF token (compared in constant time). */
export async function checkForm(c: Context<AppEnv>, session: PageSession, form: FormData): Promise<boolean> {
  const origin = c.req.header("origin");
  if (!origin || origin !== new URL(c.req.url).origin) return false;
  const sent = form.get("csrf");
  if (typeof sent !== "string") return false;
  const [a, b] = await Promise.all([crypto.subtle.digest("SHA-256", utf8(sent)), crypto.subtle.digest("SHA-256", utf8(session.csrf))]);
  return crypto.subtle.timingSafeEqual(a, b);
}

/** The login form has no session yet: its POST must still come from this origin. */
export function sameOrigin(c: Context<AppEnv>): boolean {
  return c.req.header("origin") === new URL(c.req.url).origin;
}
