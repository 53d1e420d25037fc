import type { Context } from "hono";
import { Hono } from "hono";
import { knownScopes } from "../../platform/auth/permissions";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import { platformOf } from "../../platform/services";
import { Csrf, FieldError, fieldErrors, NeedsAdmin, Notice, param, posted, render, signedIn, text } from "../../platform/web/page";
import type { PageSession } from "../../platform/web/session";

/** Settings → API: the workspace's API tokens, created and revoked. */
export const apiTokenPages = new Hono<AppEnv>();

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

apiTokenPages.get(
  "/app/settings/api",
  signedIn(async (c, session) =>
    apiPage(c, session, { notice: c.req.query("done") === "revoked" ? "The token was revoked: it stopped working at once." : undefined }),
  ),
);

apiTokenPages.post(
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

apiTokenPages.post(
  "/app/settings/api/:id/revoke",
  posted(async (c, session) => {
    const result = await dispatch(c, session.principal, "DELETE", `/api-tokens/${encodeURIComponent(param(c, "id"))}`);
    if (!result.ok) return apiPage(c, session, { errors: { form: result.error.message } });
    return c.redirect("/app/settings/api?done=revoked", 303);
  }),
);
