import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import { newNonce } from "../../platform/docs";
import { fieldErrors, Notice, pageHeaders, posted, text } from "../../platform/web/page";
import { endSession, pageSession, sameOrigin, startSession } from "../../platform/web/session";

/** Signing in and out: the login form, its POST, and /logout. */
export const signInPages = new Hono<AppEnv>();

function LoginPage(props: { error?: string; email?: string; next: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Sign in · Business Platform</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/app.css" />
      </head>
      <body>
        <div class="login">
          <form class="card" method="post" action={`/login?next=${encodeURIComponent(props.next)}`}>
            <h1>Sign in</h1>
            <p class="lead">Business Platform dashboard</p>
            {props.error ? <Notice kind="error">{props.error}</Notice> : null}
            <label for="email">E-mail</label>
            <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
            <label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
            <button type="submit">Sign in</button>
          </form>
        </div>
      </body>
    </html>
  );
}

/** Where to go after signing in: a path of this dashboard only (never another site). */
const nextPath = (c: Context<AppEnv>) => {
  const next = c.req.query("next") ?? "/app";
  return /^\/app(\/[\w/-]*)?(\?[\w=&%.-]*)?$/.test(next) ? next : "/app";
};

async function loginPage(c: Context<AppEnv>, props: { error?: string; email?: string }, status: 200 | 400 | 401 | 403 | 429 = 200) {
  return c.html(`<!doctype html>${await (<LoginPage {...props} next={nextPath(c)} />)}`, status, pageHeaders(newNonce()));
}

signInPages.get("/", async (c) => c.redirect((await pageSession(c)) ? "/app" : "/login", 303));

signInPages.get("/login", async (c) => ((await pageSession(c)) ? c.redirect(nextPath(c), 303) : loginPage(c, {})));

signInPages.post("/login", async (c) => {
  if (!sameOrigin(c)) return loginPage(c, { error: "This form was not sent from this site's own page. Reload it and try again." }, 403);
  const form = await c.req.formData().catch(() => new FormData());
  const email = text(form, "email");
  // The API's own login: the same checks, the same per-IP limit, the same single message for both mistakes.
  const result = await dispatch<{ token: string }>(c, null, "POST", "/auth/token", { body: { email, password: String(form.get("password") ?? "") } });
  if (!result.ok) {
    const error =
      result.status === 401
        ? "Wrong e-mail or password."
        : result.status === 429
          ? `Too many attempts. ${result.error.message}.`
          : Object.values(fieldErrors(result.error))[0];
    return loginPage(c, { error, email }, result.status === 429 ? 429 : result.status === 401 ? 401 : 400);
  }
  startSession(c, result.data.token);
  return c.redirect(nextPath(c), 303);
});

signInPages.post(
  "/logout",
  posted(async (c, session) => {
    await dispatch(c, session.principal, "DELETE", "/auth/token");
    endSession(c);
    return c.redirect("/login", 303);
  }),
);
