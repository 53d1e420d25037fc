import type { Context } from "hono";
import { Hono } from "hono";
import type { Child } from "hono/jsx";
import { knownScopes } from "../platform/auth/permissions";
import type { Principal } from "../platform/auth/principal";
import type { AppEnv } from "../platform/context";
import { type ApiErrorBody, dispatch } from "../platform/dispatch";
import { newNonce } from "../platform/docs";
import { platformOf } from "../platform/services";
import { PERIODS } from "../platform/widgets";
import { WidgetCard, type WidgetView } from "./charts";
import { Csrf, FieldError, type NavItem, Notice, pageHeaders, Shell } from "./layout";
import { checkForm, endSession, type PageSession, pageSession, sameOrigin, startSession } from "./session";

/**
 * The dashboard for people, at the site root: server-rendered with hono/jsx, no client framework and no
 * outside assets. Every page asks the API's own routes in-process as the signed-in user (see
 * platform/dispatch.ts), so what a page shows or does is exactly what that user's session could do.
 */
export const webPages = new Hono<AppEnv>();

type Page = { status?: 200 | 400 | 403 | 404 | 409; title: string; active: string; body: Child; frames?: string[]; script?: string; scriptSrc?: string };

const PERIOD_LABELS: Record<string, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "12mo": "Last 12 months",
  mtd: "Month to date",
  ytd: "Year to date",
};

/** The pro apps enabled for the workspace, for the navigation. */
async function appsOf(c: Context<AppEnv>, principal: Principal): Promise<NavItem[]> {
  const catalogue = await dispatch<{ name: string; title: string; tier: unknown; enabled: boolean }[]>(c, principal, "GET", "/packages");
  return catalogue.ok ? catalogue.data.filter((pkg) => pkg.tier === 2 && pkg.enabled).map((pkg) => ({ href: `/app/apps/${pkg.name}`, label: pkg.title })) : [];
}

async function render(c: Context<AppEnv>, session: PageSession, page: Page) {
  const nonce = newNonce();
  const apps = await appsOf(c, session.principal);
  const body = (
    <Shell title={page.title} session={session} active={page.active} apps={apps}>
      {page.body}
      {page.scriptSrc ? <script nonce={nonce} src={page.scriptSrc} /> : null}
      {page.script ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: page.script }} /> : null}
    </Shell>
  );
  return c.html(`<!doctype html>${await body}`, page.status ?? 200, pageHeaders(nonce, page.frames));
}

/** A signed-in page, or a redirect to /login (no cookie, or an expired or revoked session). */
function signedIn(handler: (c: Context<AppEnv>, session: PageSession) => Promise<Response>) {
  return async (c: Context<AppEnv>) => {
    const session = await pageSession(c);
    if (!session) {
      endSession(c);
      return c.redirect(`/login?next=${encodeURIComponent(new URL(c.req.url).pathname)}`, 303);
    }
    return handler(c, session);
  };
}

/** A form POST of the signed-in user: same origin and the session's CSRF token, else 403 and nothing done. */
function posted(handler: (c: Context<AppEnv>, session: PageSession, form: FormData) => Promise<Response>) {
  return signedIn(async (c, session) => {
    const form = await c.req.formData().catch(() => new FormData());
    if (!(await checkForm(c, session, form))) {
      return c.html(
        "<!doctype html><title>Forbidden</title><p>This form was not sent from this site's own page. Go back, reload it and try again.</p>",
        403,
        pageHeaders(newNonce()),
      );
    }
    return handler(c, session, form);
  });
}

/** An API error's field messages, keyed by the field's first path segment ("scopes.0" → "scopes"). */
function fieldErrors(error: ApiErrorBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const detail of (Array.isArray(error.details) ? error.details : []) as { path?: string; message?: string }[]) {
    const field = (detail.path ?? "").split(".")[0] || "form";
    out[field] ??= detail.message ?? error.message;
  }
  if (Object.keys(out).length === 0) out.form = error.message;
  return out;
}

/** A path parameter (the handlers are shared, so their paths are not typed). */
const param = (c: Context<AppEnv>, name: string) => c.req.param(name) ?? "";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

function NeedsAdmin() {
  return (
    <>
      <h1>Admins only</h1>
      <p class="lead">Only an admin or owner of this workspace can see or change these settings.</p>
    </>
  );
}

// ─── Sign in and out ────────────────────────────────────────────────────────────────────────────────

function LoginPage(props: { error?: string; email?: string; next: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Sign in · Business Platform</title>
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

webPages.get("/", async (c) => c.redirect((await pageSession(c)) ? "/app" : "/login", 303));

webPages.get("/login", async (c) => ((await pageSession(c)) ? c.redirect(nextPath(c), 303) : loginPage(c, {})));

webPages.post("/login", async (c) => {
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

webPages.post(
  "/logout",
  posted(async (c, session) => {
    await dispatch(c, session.principal, "DELETE", "/auth/token");
    endSession(c);
    return c.redirect("/login", 303);
  }),
);

// ─── The dashboard ──────────────────────────────────────────────────────────────────────────────────

webPages.get(
  "/app",
  signedIn(async (c, session) => {
    const period = (PERIODS as readonly string[]).includes(c.req.query("period") ?? "") ? c.req.query("period")! : "30d";
    const result = await dispatch<WidgetView[]>(c, session.principal, "GET", `/dashboard?period=${period}`);
    const widgets = result.ok ? result.data : [];
    return render(c, session, {
      title: "Dashboard",
      active: "/app",
      body: (
        <>
          <div class="bar">
            <div>
              <h1>Dashboard</h1>
              <p class="lead flush">
                {result.ok ? `${(result.meta as { from: string; to: string }).from} – ${(result.meta as { from: string; to: string }).to} (UTC)` : ""}
              </p>
            </div>
            <form method="get" action="/app" id="period-form">
              <label for="period" class="flush">
                Period
              </label>
              <select id="period" name="period">
                {PERIODS.map((name) => (
                  <option value={name} selected={name === period}>
                    {PERIOD_LABELS[name]}
                  </option>
                ))}
              </select>{" "}
              <button type="submit" class="secondary small">
                Show
              </button>
            </form>
          </div>
          {widgets.length === 0 ? <p class="empty">No widgets: every package with widgets is disabled, or your role cannot read their data.</p> : null}
          <div class="grid">
            {widgets.map((widget) => (
              <WidgetCard widget={widget} />
            ))}
          </div>
        </>
      ),
      script: `document.getElementById("period").addEventListener("change", (e) => e.target.form.submit());`,
    });
  }),
);

// ─── Settings → API ─────────────────────────────────────────────────────────────────────────────────

type ApiToken = {
  id: number;
  name: string;
  prefix: string;
  last_four: string;
  scopes: string[];
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
};

async function apiPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: {
    created?: { token: string; name: string };
    errors?: Record<string, string>;
    values?: { name: string; scopes: string[]; expires_at: string };
    notice?: string;
  },
) {
  const list = await dispatch<ApiToken[]>(c, session.principal, "GET", "/api-tokens?limit=100");
  if (!list.ok) return render(c, session, { status: 403, title: "API", active: "/app/settings/api", body: <NeedsAdmin /> });
  const errors = state.errors ?? {};
  const values = state.values ?? { name: "", scopes: ["write"], expires_at: "" };
  return render(c, session, {
    status: state.errors ? 400 : 200,
    title: "API",
    active: "/app/settings/api",
    body: (
      <>
        <h1>Settings → API</h1>
        <p class="lead">API tokens let your systems call the API as this workspace. A token never has more power than its creator's role.</p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.created ? (
          <Notice kind="secret">
            <strong>Copy the token "{state.created.name}" now: it is shown only this once.</strong>
            <div class="secret-value">
              <code id="new-token">{state.created.token}</code>
              <button type="button" class="small secondary" id="copy-token">
                Copy
              </button>
            </div>
          </Notice>
        ) : null}
        {errors.form ? <Notice kind="error">{errors.form}</Notice> : null}
        <div class="card spaced">
          <h2>Create a token</h2>
          <form method="post" action="/app/settings/api">
            <Csrf session={session} />
            <label for="name">Name</label>
            <input id="name" name="name" type="text" required maxlength={100} value={values.name} aria-describedby="name-error" />
            <FieldError errors={errors} field="name" />
            <fieldset class="checks">
              <legend>Scopes</legend>
              {knownScopes(platformOf(c).registry).map((scope) => (
                <label>
                  <input type="checkbox" name="scopes" value={scope} checked={values.scopes.includes(scope)} /> {scope}
                </label>
              ))}
            </fieldset>
            <FieldError errors={errors} field="scopes" />
            <label for="expires_at">Expires (optional, UTC)</label>
            <input id="expires_at" name="expires_at" type="datetime-local" value={values.expires_at} />
            <FieldError errors={errors} field="expires_at" />
            <p>
              <button type="submit">Create token</button>
            </p>
          </form>
        </div>
        <div class="card">
          <h2>Tokens</h2>
          {list.data.length === 0 ? (
            <p class="empty">No API tokens yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Token</th>
                  <th>Scopes</th>
                  <th>Last used</th>
                  <th>Expires</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.data.map((token) => (
                  <tr data-token={token.id}>
                    <td>{token.name}</td>
                    <td class="mono">
                      {token.prefix}…{token.last_four}
                    </td>
                    <td>{token.scopes.join(", ")}</td>
                    <td>{token.last_used_at ? token.last_used_at.slice(0, 16).replace("T", " ") : "never"}</td>
                    <td>{token.expires_at ? token.expires_at.slice(0, 16).replace("T", " ") : "never"}</td>
                    <td>
                      <form class="inline" method="post" action={`/app/settings/api/${token.id}/revoke`}>
                        <Csrf session={session} />
                        <button type="submit" class="danger small">
                          Revoke
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </>
    ),
    script: state.created
      ? `document.getElementById("copy-token").addEventListener("click", async (e) => { await navigator.clipboard.writeText(document.getElementById("new-token").textContent); e.target.textContent = "Copied"; });`
      : undefined,
  });
}

webPages.get(
  "/app/settings/api",
  signedIn(async (c, session) =>
    apiPage(c, session, { notice: c.req.query("done") === "revoked" ? "The token was revoked: it stopped working at once." : undefined }),
  ),
);

webPages.post(
  "/app/settings/api",
  posted(async (c, session, form) => {
    const values = { name: text(form, "name"), scopes: form.getAll("scopes").map(String), expires_at: text(form, "expires_at") };
    // Form fields are the API's body fields; a datetime-local is read as UTC.
    const body = {
      name: values.name,
      scopes: values.scopes,
      ...(values.expires_at ? { expires_at: `${values.expires_at.length === 16 ? `${values.expires_at}:00` : values.expires_at}Z` } : {}),
    };
    const result = await dispatch<{ token: string; name: string }>(c, session.principal, "POST", "/api-tokens", { body });
    if (!result.ok) return apiPage(c, session, { errors: fieldErrors(result.error), values });
    return apiPage(c, session, { created: { token: result.data.token, name: result.data.name } });
  }),
);

webPages.post(
  "/app/settings/api/:id/revoke",
  posted(async (c, session) => {
    const result = await dispatch(c, session.principal, "DELETE", `/api-tokens/${encodeURIComponent(param(c, "id"))}`);
    if (!result.ok) return apiPage(c, session, { errors: { form: result.error.message } });
    return c.redirect("/app/settings/api?done=revoked", 303);
  }),
);

// ─── Settings → Webhooks ────────────────────────────────────────────────────────────────────────────

type Endpoint = { id: number; url: string; events: string[]; enabled: boolean; description: string | null; created_at: string; secret?: string };
type Delivery = {
  id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempt: number;
  response_status: number | null;
  error: string | null;
  next_attempt_at: string | null;
  created_at: string;
};

async function webhooksPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: {
    errors?: Record<string, string>;
    values?: { url: string; events: string[]; description: string };
    secret?: { id: number; secret: string };
    notice?: string;
  },
) {
  const list = await dispatch<Endpoint[]>(c, session.principal, "GET", "/webhooks?limit=100");
  if (!list.ok) return render(c, session, { status: 403, title: "Webhooks", active: "/app/settings/webhooks", body: <NeedsAdmin /> });
  const deliveries = await Promise.all(
    list.data.map((endpoint) => dispatch<Delivery[]>(c, session.principal, "GET", `/webhooks/${endpoint.id}/deliveries?limit=10`)),
  );
  const errors = state.errors ?? {};
  const values = state.values ?? { url: "", events: ["*"], description: "" };
  const eventTypes = Object.keys(platformOf(c).registry.events()).sort();
  return render(c, session, {
    status: state.errors ? 400 : 200,
    title: "Webhooks",
    active: "/app/settings/webhooks",
    body: (
      <>
        <h1>Settings → Webhooks</h1>
        <p class="lead">Signed HTTP deliveries of this workspace's events (Standard Webhooks signatures), retried for three days.</p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.secret ? (
          <Notice kind="secret">
            <strong>The signing secret of endpoint {state.secret.id}: copy it now, it is shown only this once.</strong>
            <div class="secret-value">
              <code>{state.secret.secret}</code>
            </div>
          </Notice>
        ) : null}
        {errors.form ? <Notice kind="error">{errors.form}</Notice> : null}
        <div class="card spaced">
          <h2>Add an endpoint</h2>
          <form method="post" action="/app/settings/webhooks">
            <Csrf session={session} />
            <label for="url">URL</label>
            <input id="url" name="url" type="url" required value={values.url} placeholder="https://example.com/hooks" />
            <FieldError errors={errors} field="url" />
            <fieldset class="checks">
              <legend>Events</legend>
              <label>
                <input type="checkbox" name="events" value="*" checked={values.events.includes("*")} /> all events
              </label>
              {eventTypes.map((type) => (
                <label>
                  <input type="checkbox" name="events" value={type} checked={values.events.includes(type)} /> {type}
                </label>
              ))}
            </fieldset>
            <FieldError errors={errors} field="events" />
            <label for="description">Description (optional)</label>
            <input id="description" name="description" type="text" maxlength={500} value={values.description} />
            <FieldError errors={errors} field="description" />
            <p>
              <button type="submit">Add endpoint</button>
            </p>
          </form>
        </div>
        {list.data.length === 0 ? <p class="empty">No endpoints yet.</p> : null}
        {list.data.map((endpoint, i) => {
          const log = deliveries[i];
          return (
            <div class="card spaced" data-endpoint={endpoint.id}>
              <div class="bar compact">
                <div>
                  <h2 class="mono endpoint-url">{endpoint.url}</h2>
                  <span class={`pill ${endpoint.enabled ? "on" : "off"}`}>{endpoint.enabled ? "enabled" : "disabled"}</span>{" "}
                  <span class="hint">{endpoint.events.join(", ")}</span>
                </div>
                <div>
                  <form class="inline" method="post" action={`/app/settings/webhooks/${endpoint.id}/test`}>
                    <Csrf session={session} />
                    <button type="submit" class="secondary small">
                      Send test event
                    </button>
                  </form>{" "}
                  <form class="inline" method="post" action={`/app/settings/webhooks/${endpoint.id}/rotate`}>
                    <Csrf session={session} />
                    <button type="submit" class="secondary small">
                      Rotate secret
                    </button>
                  </form>{" "}
                  <form class="inline" method="post" action={`/app/settings/webhooks/${endpoint.id}/delete`}>
                    <Csrf session={session} />
                    <button type="submit" class="danger small">
                      Delete
                    </button>
                  </form>
                </div>
              </div>
              <table aria-label={`Deliveries to ${endpoint.url}`}>
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th class="num">Attempt</th>
                    <th class="num">Response</th>
                    <th>Sent</th>
                  </tr>
                </thead>
                <tbody>
                  {log?.ok && log.data.length > 0 ? (
                    log.data.map((delivery) => (
                      <tr data-delivery={delivery.id}>
                        <td>
                          {delivery.event_type} <span class="hint mono">{delivery.event_id}</span>
                        </td>
                        <td>
                          <span class={`pill ${delivery.status}`}>{delivery.status}</span>
                        </td>
                        <td class="num">{delivery.attempt}</td>
                        <td class="num" title={delivery.error ?? undefined}>
                          {delivery.response_status ?? (delivery.error ? "error" : "—")}
                        </td>
                        <td>
                          {delivery.created_at.slice(0, 19).replace("T", " ")}
                          {delivery.next_attempt_at && delivery.status === "pending" ? (
                            <span class="hint"> · next try {delivery.next_attempt_at.slice(11, 19)}</span>
                          ) : null}
                        </td>
                      </tr>
                    ))
                  ) : (
                    <tr>
                      <td colspan={5} class="empty">
                        No deliveries yet.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          );
        })}
      </>
    ),
  });
}

webPages.get(
  "/app/settings/webhooks",
  signedIn(async (c, session) => {
    const done = c.req.query("done");
    const notice =
      done === "test"
        ? "A webhook.test event was sent; its delivery appears below."
        : done === "deleted"
          ? "The endpoint was deleted."
          : done === "created"
            ? "The endpoint was added."
            : undefined;
    return webhooksPage(c, session, { notice });
  }),
);

webPages.post(
  "/app/settings/webhooks",
  posted(async (c, session, form) => {
    const values = { url: text(form, "url"), events: form.getAll("events").map(String), description: text(form, "description") };
    const body = {
      url: values.url,
      events: values.events.includes("*") ? ["*"] : values.events,
      ...(values.description ? { description: values.description } : {}),
    };
    const result = await dispatch<Endpoint>(c, session.principal, "POST", "/webhooks", { body });
    if (!result.ok) return webhooksPage(c, session, { errors: fieldErrors(result.error), values });
    return webhooksPage(c, session, { secret: { id: result.data.id, secret: result.data.secret ?? "" }, notice: "The endpoint was added." });
  }),
);

webPages.post(
  "/app/settings/webhooks/:id/:action{test|rotate|delete}",
  posted(async (c, session) => {
    const id = encodeURIComponent(param(c, "id"));
    const action = param(c, "action");
    const result =
      action === "delete"
        ? await dispatch(c, session.principal, "DELETE", `/webhooks/${id}`)
        : await dispatch<{ secret?: string }>(c, session.principal, "POST", `/webhooks/${id}/${action === "test" ? "test" : "rotate-secret"}`);
    if (!result.ok) return webhooksPage(c, session, { errors: { form: result.error.message } });
    if (action === "rotate")
      return webhooksPage(c, session, {
        secret: { id: Number(param(c, "id")), secret: (result.data as { secret?: string }).secret ?? "" },
        notice: "The secret was rotated; the old one keeps signing for 24 hours.",
      });
    return c.redirect(`/app/settings/webhooks?done=${action === "test" ? "test" : "deleted"}`, 303);
  }),
);

// ─── Settings → Packages ────────────────────────────────────────────────────────────────────────────

type Package = { name: string; title: string; description: string; tier: 1 | 2 | "add-on"; depends_on: string[]; dependents: string[]; enabled: boolean };

/** A refused switch, in words: what is missing or what still needs the package. */
function switchRefusal(error: ApiErrorBody, packages: Package[], name: string): { message: string; offerDependencies: boolean } {
  const title = (n: string) => packages.find((p) => p.name === n)?.title ?? n;
  const details = (Array.isArray(error.details) ? (error.details[0] ?? {}) : {}) as { missing?: string[]; required_by?: string[] };
  if (error.code === "dependency_disabled" && details.missing) {
    return {
      message: `${title(name)} needs ${details.missing.map(title).join(" and ")}, which ${details.missing.length > 1 ? "are" : "is"} off. Enable ${details.missing.length > 1 ? "them" : "it"} first, or enable them together.`,
      offerDependencies: true,
    };
  }
  if (error.code === "package_required" && details.required_by) {
    return {
      message: `${title(name)} can't be turned off while ${details.required_by.map(title).join(" and ")} ${details.required_by.length > 1 ? "depend" : "depends"} on it. Turn ${details.required_by.length > 1 ? "those" : "that"} off first.`,
      offerDependencies: false,
    };
  }
  return { message: error.message, offerDependencies: false };
}

async function packagesPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: { refusal?: { name: string; message: string; offerDependencies: boolean; status: 400 | 403 | 404 | 409 }; notice?: string },
) {
  const list = await dispatch<Package[]>(c, session.principal, "GET", "/packages");
  const packages = list.ok ? list.data : [];
  const admin = session.principal.role === "admin" || session.principal.role === "owner";
  const title = (n: string) => packages.find((p) => p.name === n)?.title ?? n;
  return render(c, session, {
    status: state.refusal?.status ?? 200,
    title: "Packages",
    active: "/app/settings/packages",
    body: (
      <>
        <h1>Settings → Packages</h1>
        <p class="lead">
          Switch the parts of the platform this workspace uses. A package can't be on while one it needs is off; data stays when a package is off.
          {admin ? "" : " Only an admin can change them."}
        </p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.refusal ? (
          <Notice kind="error">
            {state.refusal.message}
            {state.refusal.offerDependencies ? (
              <form method="post" action={`/app/settings/packages/${state.refusal.name}`} class="tight-top">
                <Csrf session={session} />
                <input type="hidden" name="enabled" value="true" />
                <input type="hidden" name="with_dependencies" value="true" />
                <button type="submit" class="small">
                  Enable {title(state.refusal.name)} with what it needs
                </button>
              </form>
            ) : null}
          </Notice>
        ) : null}
        <div class="card">
          <table>
            <thead>
              <tr>
                <th>Package</th>
                <th>Needs</th>
                <th>Needed by</th>
                <th>State</th>
                {admin ? <th /> : null}
              </tr>
            </thead>
            <tbody>
              {packages.map((pkg) => (
                <tr data-package={pkg.name}>
                  <td>
                    <strong>{pkg.title}</strong> <span class="pill">{pkg.tier === "add-on" ? "add-on" : `tier ${pkg.tier}`}</span>
                    <div class="hint">{pkg.description}</div>
                  </td>
                  <td>{pkg.depends_on.map(title).join(", ") || "—"}</td>
                  <td>{pkg.dependents.map(title).join(", ") || "—"}</td>
                  <td>
                    <span class={`pill ${pkg.enabled ? "on" : "off"}`}>{pkg.enabled ? "on" : "off"}</span>
                  </td>
                  {admin ? (
                    <td>
                      {pkg.tier === 2 && !pkg.enabled ? (
                        <span class="hint">set up under SSO apps</span>
                      ) : (
                        <form class="inline" method="post" action={`/app/settings/packages/${pkg.name}`}>
                          <Csrf session={session} />
                          <input type="hidden" name="enabled" value={pkg.enabled ? "false" : "true"} />
                          <button type="submit" class={`small ${pkg.enabled ? "danger" : ""}`}>
                            {pkg.enabled ? "Turn off" : "Turn on"}
                          </button>
                        </form>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    ),
  });
}

webPages.get(
  "/app/settings/packages",
  signedIn(async (c, session) => packagesPage(c, session, {})),
);

webPages.post(
  "/app/settings/packages/:name",
  posted(async (c, session, form) => {
    const name = param(c, "name");
    const enabled = text(form, "enabled") === "true";
    const withDependencies = text(form, "with_dependencies") === "true";
    const result = await dispatch<Package>(
      c,
      session.principal,
      "PUT",
      `/packages/${encodeURIComponent(name)}${withDependencies ? "?with_dependencies=true" : ""}`,
      { body: { enabled } },
    );
    if (!result.ok) {
      const list = await dispatch<Package[]>(c, session.principal, "GET", "/packages");
      const refusal =
        result.status === 403
          ? { message: "Only an admin can switch packages.", offerDependencies: false }
          : switchRefusal(result.error, list.ok ? list.data : [], name);
      // The API's status stands: 403 for a role that may not switch, 409 for a dependency rule, 404 for no such package.
      const status = result.status === 403 || result.status === 404 || result.status === 409 ? result.status : 400;
      return packagesPage(c, session, { refusal: { name, status, ...refusal } });
    }
    return packagesPage(c, session, { notice: `${result.data.title} is ${result.data.enabled ? "on" : "off"}.` });
  }),
);

// ─── Pro apps ───────────────────────────────────────────────────────────────────────────────────────

type SsoGrant = { token: string; expires_in: number; app_url: string; launch_url: string };

webPages.get(
  "/app/apps/:app",
  signedIn(async (c, session) => {
    const app = param(c, "app");
    const grant = await dispatch<SsoGrant>(c, session.principal, "POST", "/sso/token", { body: { app } });
    const title = platformOf(c).registry.get(app)?.title ?? app;
    if (!grant.ok) {
      return render(c, session, {
        status: grant.status === 404 ? 404 : 403,
        title,
        active: `/app/apps/${app}`,
        body: (
          <>
            <h1>{title}</h1>
            <Notice kind="error">{grant.error.message}</Notice>
          </>
        ),
      });
    }
    // The first token is issued here, on the server (the session cookie never reaches a script); embed.js
    // then refreshes it with the token itself (POST /api/v1/sso/refresh) and hands each new one to the
    // app's exact origin with postMessage.
    const initial = JSON.stringify({
      token: grant.data.token,
      expires_in: grant.data.expires_in,
      app_url: grant.data.app_url,
      launch_url: grant.data.launch_url,
    }).replace(/</g, "\\u003c");
    return render(c, session, {
      title,
      active: `/app/apps/${app}`,
      frames: [new URL(grant.data.app_url).origin],
      body: (
        <>
          <h1>{title}</h1>
          <p class="lead">
            Signed in to {title} as {session.principal.user.name}. The app's token is refreshed automatically (refreshes so far:{" "}
            <strong id="refreshes">0</strong>).
          </p>
          <div class="app-frame" id="app" />
        </>
      ),
      scriptSrc: "/api/v1/sso/embed.js",
      script: `BusinessPlatformSSO.mount({
  container: document.getElementById("app"),
  app: ${JSON.stringify(app)},
  apiBase: location.origin + "/api/v1",
  initial: ${initial},
  refreshBeforeSeconds: ${Math.min(59, Math.max(1, Number(c.req.query("lead") ?? 15) || 15))},
  height: "560px",
  onToken: (_token, refreshes) => { document.getElementById("refreshes").textContent = String(refreshes); document.body.dataset.refreshes = String(refreshes); },
  onError: (error) => { document.getElementById("refreshes").textContent = "stopped: " + error.message; },
});`,
    });
  }),
);

// ─── The assistant ──────────────────────────────────────────────────────────────────────────────────

type Reply = {
  text: string;
  intent: string;
  records?: { resource: string; id: number; label: string }[];
  action?: { id: string; kind: string; summary: string; expires_at: string };
  data?: { suggestions?: string[] };
};
type Conversation = { id: string; messages: { role: "user" | "assistant"; text: string; reply?: Reply }[] };

const SUGGESTIONS = ["revenue this month", "overdue invoices", "open deals in negotiation", "tasks due this week", "headcount in engineering"];

/** A proposed action as the API describes it, and the label of the record it would change. */
type PendingAction = {
  id: string;
  summary: string;
  status: string;
  expires_at: string;
  request: { method: string; path: string; body?: Record<string, unknown> };
  record: { resource: string; id: number } | null;
  recordLabel?: string;
};

/** The fields a pending action would write, as "name: value" lines. */
const changeLines = (body: Record<string, unknown> | undefined) =>
  Object.entries(body ?? {}).map(([field, value]) => `${field}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

async function assistantPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: { conversation?: Conversation; error?: string; notice?: string; pendingAction?: PendingAction },
) {
  const messages = state.conversation?.messages ?? [];
  return render(c, session, {
    title: "Assistant",
    active: "/app/assistant",
    body: (
      <>
        <h1>Assistant</h1>
        <p class="lead">
          Ask about your workspace — numbers, lists, records — or prepare a change to confirm. It answers from this workspace's data only and sends nothing
          anywhere.
        </p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        {state.pendingAction ? (
          <div class="card spaced" id="pending-action">
            <h2>An action is waiting for you</h2>
            <p>It was prepared from a chat integration. Check it, then confirm it to run it as you.</p>
            <p>
              <strong>{state.pendingAction.summary}</strong>
            </p>
            <dl class="facts">
              <dt>Record</dt>
              <dd>
                {state.pendingAction.record
                  ? `${state.pendingAction.recordLabel ?? `${state.pendingAction.record.resource} #${state.pendingAction.record.id}`} (${state.pendingAction.record.resource} #${state.pendingAction.record.id})`
                  : "a new record"}
              </dd>
              <dt>Call</dt>
              <dd>
                <code>
                  {state.pendingAction.request.method} /api/v1{state.pendingAction.request.path}
                </code>
              </dd>
              {changeLines(state.pendingAction.request.body).length > 0 ? (
                <>
                  <dt>Changes</dt>
                  <dd>
                    <ul>
                      {changeLines(state.pendingAction.request.body).map((line) => (
                        <li>{line}</li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : null}
              <dt>Expires</dt>
              <dd>{state.pendingAction.expires_at}</dd>
            </dl>
            {state.pendingAction.status === "pending" ? (
              <form method="post" action={`/app/assistant/actions/${state.pendingAction.id}/confirm`}>
                <Csrf session={session} />
                <button type="submit">Confirm action</button>
              </form>
            ) : (
              <p>This action is {state.pendingAction.status}; there is nothing to confirm.</p>
            )}
          </div>
        ) : null}
        <div class="chat" aria-live="polite">
          {messages.length === 0 ? (
            <div class="suggestions">
              {SUGGESTIONS.map((suggestion) => (
                <form class="inline" method="post" action="/app/assistant">
                  <Csrf session={session} />
                  <input type="hidden" name="message" value={suggestion} />
                  <button type="submit">{suggestion}</button>
                </form>
              ))}
            </div>
          ) : null}
          {messages.map((message) => (
            <div class={`msg ${message.role}`} data-role={message.role}>
              {message.text}
              {message.reply?.records && message.reply.records.length > 0 && message.reply.intent !== "list" ? (
                <div class="records">{message.reply.records.map((record) => record.label).join(" · ")}</div>
              ) : null}
              {message.reply?.action ? (
                <form method="post" action={`/app/assistant/actions/${message.reply.action.id}/confirm`} class="tight-top">
                  <Csrf session={session} />
                  <input type="hidden" name="conversation_id" value={state.conversation?.id ?? ""} />
                  <button type="submit" class="small">
                    Confirm
                  </button>
                </form>
              ) : null}
            </div>
          ))}
          <form method="post" action="/app/assistant" id="ask">
            <Csrf session={session} />
            {state.conversation ? <input type="hidden" name="conversation_id" value={state.conversation.id} /> : null}
            <input
              type="text"
              name="message"
              aria-label="Your question"
              placeholder="Ask a question or describe a change…"
              maxlength={2000}
              required
              autofocus
            />
            <button type="submit">Ask</button>
          </form>
        </div>
      </>
    ),
  });
}

webPages.get(
  "/app/assistant",
  signedIn(async (c, session) => {
    const id = c.req.query("c");
    const conversation = id ? await dispatch<Conversation>(c, session.principal, "GET", `/assistant/conversations/${encodeURIComponent(id)}`) : null;
    const actionId = c.req.query("action");
    const action = actionId && /^act_\w+$/.test(actionId) ? await dispatch<PendingAction>(c, session.principal, "GET", `/assistant/actions/${actionId}`) : null;
    const pendingAction = action?.ok ? action.data : undefined;
    if (pendingAction?.record) {
      // The record's current name, read as the user: a record they may not read shows by its id only.
      const record = await dispatch<Record<string, unknown>>(c, session.principal, "GET", `/${pendingAction.record.resource}/${pendingAction.record.id}`);
      if (record.ok)
        pendingAction.recordLabel = String(record.data.name ?? record.data.title ?? record.data.number ?? record.data.subject ?? `#${pendingAction.record.id}`);
    }
    return assistantPage(c, session, {
      ...(conversation?.ok ? { conversation: conversation.data } : {}),
      ...(conversation && !conversation.ok ? { error: "That conversation is not available (they are kept for 30 days)." } : {}),
      ...(pendingAction ? { pendingAction } : {}),
      ...(action && !action.ok ? { error: "That action is not available: it expired (they last 10 minutes) or is not yours." } : {}),
      ...(c.req.query("done") === "confirmed" ? { notice: "Done: the action ran." } : {}),
    });
  }),
);

webPages.post(
  "/app/assistant",
  posted(async (c, session, form) => {
    const conversationId = text(form, "conversation_id");
    const result = await dispatch<{ conversation_id: string }>(c, session.principal, "POST", "/assistant/messages", {
      body: { message: text(form, "message"), ...(conversationId ? { conversation_id: conversationId } : {}) },
    });
    if (!result.ok) return assistantPage(c, session, { error: Object.values(fieldErrors(result.error))[0] });
    return c.redirect(`/app/assistant?c=${encodeURIComponent(result.data.conversation_id)}`, 303);
  }),
);

webPages.post(
  "/app/assistant/actions/:id/confirm",
  posted(async (c, session, form) => {
    const result = await dispatch(c, session.principal, "POST", `/assistant/actions/${encodeURIComponent(param(c, "id"))}/confirm`);
    const conversationId = text(form, "conversation_id");
    if (!result.ok) return assistantPage(c, session, { error: `The action did not run: ${result.error.message}.` });
    return c.redirect(`/app/assistant?done=confirmed${conversationId ? `&c=${encodeURIComponent(conversationId)}` : ""}`, 303);
  }),
);
