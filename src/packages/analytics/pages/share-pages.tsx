import { type Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Child } from "hono/jsx";
import { verifyPassword } from "../../../platform/auth/password";
import { configOf } from "../../../platform/config";
import type { AppEnv } from "../../../platform/context";
import { timingSafeEqual, utf8 } from "../../../platform/crypto";
import { newNonce } from "../../../platform/docs";
import { durableLimiter, ipKey } from "../../../platform/rate-limit/limiter";
import { platformOf } from "../../../platform/services";
import { clock } from "../../../platform/time";
import { pageHeaders } from "../../../platform/web/page";
import { type OpenSharedLink, openSharedLink, sharePass } from "../share-routes";
import { DashboardBody, PICKER_SCRIPT } from "./dashboard";
import { exportResponse } from "./export";
import { loadDashboard } from "./load";
import { exportHref, rangeOfView, viewOf } from "./view";

/**
 * A shared link's dashboard at /share/{token}: the site's dashboard, public and read-only, outside the app
 * (no navigation, no session). The token is the credential; an unknown, deleted or switched-off link is a
 * 404 that says nothing more. A link with a password asks for it first: the right one sets a cookie bound
 * to the link and its password hash (HttpOnly, SameSite=Lax, for /share/{token} only), checked in
 * constant time on every request; a wrong one is a 401, and tries are counted per client IP and link
 * (10 a minute, then 429). The form only counts when posted from this origin.
 */
export const analyticsSharePages = new Hono<AppEnv>();

const SHARE = "/share/:token";
const COOKIE = "bp_share";
const COOKIE_MAX_AGE = 7 * 24 * 3600;
const TRIES_PER_MINUTE = 10;

type Status = 200 | 400 | 401 | 403 | 404 | 429;

/**
 * The page's frame: the app's stylesheet and nothing that needs a login. The token never leaves in a Referer
 * (same-origin: another site gets none, while this origin's own form still carries a real Origin header).
 */
async function sharedPage(
  c: Context<AppEnv>,
  props: { title: string; status?: Status; body: Child; script?: string; headers?: Record<string, string>; bare?: boolean },
) {
  const nonce = newNonce();
  const html = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{props.title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/app.css" />
      </head>
      <body>
        {props.bare ? (
          <main id="main" class="login">
            {props.body}
          </main>
        ) : (
          <>
            <header class="top">
              <span class="brand">
                Analytics <small>shared dashboard · read-only</small>
              </span>
            </header>
            <main id="main">{props.body}</main>
          </>
        )}
        {props.script ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: props.script }} /> : null}
      </body>
    </html>
  );
  return c.html(`<!doctype html>${await html}`, props.status ?? 200, {
    ...pageHeaders(nonce),
    "Referrer-Policy": "same-origin",
    "X-Robots-Tag": "noindex, nofollow",
    ...props.headers,
  });
}

const notFound = (c: Context<AppEnv>) =>
  sharedPage(c, {
    title: "Dashboard not found",
    status: 404,
    body: (
      <>
        <h1>Dashboard not found</h1>
        <p class="lead">This link is not valid, or it was closed. Ask whoever shared it for a new one.</p>
      </>
    ),
  });

const insecureOrigin = (url: URL) => url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1");

/** Whether this browser is past the link's password (always, for a link without one). */
async function unlocked(c: Context<AppEnv>, open: OpenSharedLink): Promise<boolean> {
  if (open.link.passwordHash === null) return true;
  const sent = getCookie(c, COOKIE);
  if (!sent) return false;
  return timingSafeEqual(utf8(sent), utf8(await sharePass(c.env, open.link)));
}

function passwordPage(c: Context<AppEnv>, token: string, state: { status: Status; error?: string; headers?: Record<string, string> }) {
  const search = new URL(c.req.url).search;
  return sharedPage(c, {
    title: "Password required",
    status: state.status,
    headers: state.headers,
    bare: true,
    body: (
      <form class="card" method="post" action={`/share/${token}${search}`} data-password-form>
        <h1>This dashboard is protected</h1>
        <p class="lead">Enter the password you were given to see it.</p>
        {state.error ? (
          <div class="notice error" role="alert">
            {state.error}
          </div>
        ) : null}
        <label for="share-password">Password</label>
        <input
          id="share-password"
          name="password"
          type="password"
          required
          maxlength={200}
          autocomplete="current-password"
          aria-invalid={state.error ? "true" : undefined}
          autofocus
        />
        <button type="submit">Show the dashboard</button>
      </form>
    ),
  });
}

analyticsSharePages.get(SHARE, async (c) => {
  const token = c.req.param("token");
  const open = await openSharedLink(c.env, platformOf(c).registry, token);
  if (!open) return notFound(c);
  if (!(await unlocked(c, open))) return passwordPage(c, token, { status: 200 });
  const now = clock.now();
  const { view, problems } = viewOf(c.req.query());
  const { range, interval, problem } = rangeOfView(view, now);
  if (problem) problems.push(problem);
  const data = await loadDashboard(open.tenant, open.site.id, view, range, interval, now);
  const base = `/share/${token}`;
  return sharedPage(c, {
    title: `${data.site.domain} · Analytics`,
    status: problems.length > 0 || data.filterError ? 400 : 200,
    body: <DashboardBody data={data} view={view} base={base} exportHref={exportHref(base, view, range)} problems={problems} />,
    script: PICKER_SCRIPT,
  });
});

/** A form on another site must not post passwords here (nor log a browser in to a link of its choosing). */
function fromThisOrigin(c: Context<AppEnv>): boolean {
  const origin = c.req.header("origin");
  if (origin && origin !== "null") return origin === new URL(c.req.url).origin;
  // No Origin (or "null", under a no-referrer policy): the browser's own word on where the form was.
  return c.req.header("sec-fetch-site") === "same-origin";
}

analyticsSharePages.post(SHARE, async (c) => {
  const token = c.req.param("token");
  if (!fromThisOrigin(c)) {
    return sharedPage(c, {
      title: "Forbidden",
      status: 403,
      body: (
        <>
          <h1>Forbidden</h1>
          <p class="lead">This form was not sent from this site's own page. Go back, reload it and try again.</p>
        </>
      ),
    });
  }
  const open = await openSharedLink(c.env, platformOf(c).registry, token);
  if (!open) return notFound(c);
  const back = `/share/${token}${new URL(c.req.url).search}`;
  if (open.link.passwordHash === null) return c.redirect(back, 303);
  // Every try counts (per client IP and link), before the password is checked: guessing is slow by design.
  const now = clock.now();
  const ip = c.req.header("cf-connecting-ip") ?? "unknown";
  const decision = await durableLimiter(c.env.RATE_LIMITER, platformOf(c).isolate)
    .check(await ipKey(configOf(c.env).clientKey, ip, now, `share:${open.link.id}`), TRIES_PER_MINUTE, now, true)
    .catch(() => null);
  if (decision && !decision.allowed) {
    const retry = Math.max(1, Math.ceil((decision.resetAt - now) / 1000));
    return passwordPage(c, token, { status: 429, error: `Too many tries. Wait ${retry} seconds, then try again.`, headers: { "Retry-After": String(retry) } });
  }
  const form = await c.req.formData().catch(() => new FormData());
  const password = form.get("password");
  if (typeof password !== "string" || password.length === 0 || password.length > 200 || !(await verifyPassword(password, open.link.passwordHash))) {
    return passwordPage(c, token, { status: 401, error: "That password is not right." });
  }
  setCookie(c, COOKIE, await sharePass(c.env, open.link), {
    httpOnly: true,
    sameSite: "Lax",
    secure: !insecureOrigin(new URL(c.req.url)),
    path: `/share/${token}`,
    maxAge: COOKIE_MAX_AGE,
  });
  return c.redirect(back, 303);
});

analyticsSharePages.get(`${SHARE}/export.zip`, async (c) => {
  const token = c.req.param("token");
  const open = await openSharedLink(c.env, platformOf(c).registry, token);
  if (!open) return notFound(c);
  if (!(await unlocked(c, open))) return passwordPage(c, token, { status: 401, error: "Enter the password to export the dashboard." });
  const result = await exportResponse(open.tenant, open.site.id, c.req.query(), clock.now());
  if (result instanceof Response) {
    result.headers.set("Referrer-Policy", "same-origin");
    result.headers.set("X-Robots-Tag", "noindex, nofollow");
    return result;
  }
  if (result.status === 404) return notFound(c);
  return sharedPage(c, {
    title: "Export not possible",
    status: 400,
    body: (
      <>
        <h1>Export not possible</h1>
        <p class="lead">{result.message}</p>
        <p>
          <a href={`/share/${token}`}>Back to the dashboard</a>
        </p>
      </>
    ),
  });
});
