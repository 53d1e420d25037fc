import { gte, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { access, denial, isAllowed } from "../../../platform/auth/permissions";
import type { AppEnv } from "../../../platform/context";
import { dispatch } from "../../../platform/dispatch";
import { ApiError } from "../../../platform/errors";
import { publicOrigin } from "../../../platform/http/origin";
import { platformOf } from "../../../platform/services";
import { clock } from "../../../platform/time";
import { Csrf, FieldError, fieldErrors, Notice, param, posted, refusalPage, render, signedIn, text } from "../../../platform/web/page";
import type { PageSession } from "../../../platform/web/session";
import { analyticsTenant } from "../collect";
import { daily, sites } from "../schema";
import { DashboardBody, PICKER_SCRIPT } from "./dashboard";
import { exportResponse } from "./export";
import { loadDashboard } from "./load";
import { exportHref, rangeOfView, viewOf } from "./view";

/**
 * The app's analytics pages: the workspace's sites with their tracker snippets (admins add sites here),
 * each site's dashboard and its CSV export, and (admins) the site's shared links. Members and above read
 * analytics; a viewer gets the app's refusal page, another workspace's site is a 404. The numbers are read
 * server-side as the signed-in user's workspace on the analytics database; writes go through the API.
 */
export const analyticsAppPages = new Hono<AppEnv>();

const ACTIVE = "/app/analytics";
const SITE = "/app/analytics/:id{[1-9][0-9]{0,15}}";

/** The refusal when the user may not read analytics (the package off, or a viewer), else null. */
function refusal(c: Context<AppEnv>, session: PageSession) {
  const { registry } = platformOf(c);
  const { principal } = session;
  if (principal.disabledPackages.includes("analytics")) {
    return refusalPage(
      c,
      session,
      { code: "package_disabled", message: "The analytics package is disabled", details: [{ package: "analytics" }] },
      403,
      ACTIVE,
    );
  }
  const who = { role: principal.role, scopes: null };
  const need = access.read("analytics");
  if (!isAllowed(who, need, registry)) {
    const why = denial(who, need, registry);
    return refusalPage(c, session, { code: "forbidden", message: why.message, details: [why.details ?? {}] }, 403, ACTIVE);
  }
  return null;
}

const isAdmin = (c: Context<AppEnv>, session: PageSession) => isAllowed({ role: session.principal.role, scopes: null }, access.admin, platformOf(c).registry);

/** The tag a site's pages carry, as the API documents it. */
export const snippetOf = (origin: string, siteKey: string) => `<script defer src="${origin}/api/v1/analytics/script.js" data-site="${siteKey}"></script>`;

async function sitesPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: { errors?: Record<string, string>; domain?: string; notice?: string; status?: 200 | 400 | 403 | 409 } = {},
) {
  const tenant = analyticsTenant(c);
  const since = new Date(clock.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const [rows, visitors] = await tenant.batch([
    tenant.select(sites).orderBy(sites.id),
    // Visitors of the last 30 days per site, from the daily rollups (browser visitors: the sites list's glance).
    tenant
      .selectFrom({ siteId: daily.siteId, visitors: sql<number>`coalesce(sum(${daily.browserVisitors}), 0)` }, daily, gte(daily.day, since))
      .groupBy(daily.siteId),
  ]);
  const seen = new Map(visitors.map((row) => [row.siteId, Number(row.visitors)]));
  const origin = publicOrigin(c);
  const admin = isAdmin(c, session);
  const errors = state.errors ?? {};
  return render(c, session, {
    status: state.status ?? 200,
    title: "Analytics",
    active: ACTIVE,
    body: (
      <>
        <div class="bar compact">
          <div>
            <h1>Analytics</h1>
            <p class="lead">Cookie-less web analytics for this workspace's own sites. Put a site's snippet in its pages; visits show here within seconds.</p>
          </div>
        </div>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {errors.form && !errors.domain ? <Notice kind="error">{errors.form}</Notice> : null}
        {rows.length === 0 ? (
          <p class="empty">{admin ? "No sites yet: add the first one below." : "No sites yet. An admin of the workspace can add one."}</p>
        ) : (
          rows.map((site) => (
            <section class="card spaced" aria-labelledby={`site-${site.id}`} data-site={String(site.id)}>
              <div class="bar compact">
                <div>
                  <h2 id={`site-${site.id}`} class="flush">
                    <a href={`/app/analytics/${site.id}`}>{site.domain}</a>
                  </h2>
                  <p class="meta flush">{`${(seen.get(site.id) ?? 0).toLocaleString("en-US")} visitors in the last 30 days`}</p>
                </div>
                <a class="button secondary" href={`/app/analytics/${site.id}`}>
                  Open dashboard
                </a>
              </div>
              <p class="hint">Tracker snippet — paste it into the &lt;head&gt; of every page of {site.domain}:</p>
              <pre class="code" id={`snippet-${site.id}`}>
                {snippetOf(origin, site.siteKey)}
              </pre>
              <p class="tight-top">
                <button type="button" class="secondary small" data-copy={`snippet-${site.id}`}>
                  Copy snippet
                </button>
              </p>
            </section>
          ))
        )}
        {admin ? (
          <section class="card" aria-labelledby="add-site">
            <h2 id="add-site">Add a site</h2>
            <form method="post" action="/app/analytics" novalidate>
              <Csrf session={session} />
              <label for="domain">Domain</label>
              <input
                id="domain"
                name="domain"
                type="text"
                required
                maxlength={253}
                placeholder="shop.example.com"
                value={state.domain ?? ""}
                aria-invalid={errors.domain ? "true" : undefined}
                aria-describedby={errors.domain ? "domain-error" : "domain-hint"}
              />
              <p class="hint" id="domain-hint">
                Its subdomains count as the site too.
              </p>
              <FieldError errors={errors} field="domain" />
              <div class="form-actions">
                <button type="submit">Add site</button>
              </div>
            </form>
          </section>
        ) : null}
      </>
    ),
  });
}

analyticsAppPages.get(
  ACTIVE,
  signedIn(async (c, session) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    const added = c.req.query("added");
    return sitesPage(c, session, { notice: added ? `The site was added. Put its snippet in the site's pages to start collecting.` : undefined });
  }),
);

/** Adding a site: the API's POST /analytics/sites as the user (admins only: the API refuses anyone else). */
analyticsAppPages.post(
  ACTIVE,
  posted(async (c, session, form) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    const domain = text(form, "domain");
    const result = await dispatch<{ id: number }>(c, session.principal, "POST", "/analytics/sites", { body: { domain } });
    if (!result.ok) {
      if (result.status === 403) return refusalPage(c, session, result.error, 403, ACTIVE);
      return sitesPage(c, session, { errors: fieldErrors(result.error), domain, status: 400 });
    }
    return c.redirect(`/app/analytics?added=${result.data.id}#site-${result.data.id}`, 303);
  }),
);

const notFound = (c: Context<AppEnv>, session: PageSession) => refusalPage(c, session, { code: "not_found", message: "Site not found" }, 404, ACTIVE);

analyticsAppPages.get(
  SITE,
  signedIn(async (c, session) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    const id = Number(param(c, "id"));
    const now = clock.now();
    const { view, problems } = viewOf(c.req.query());
    const { range, interval, problem } = rangeOfView(view, now);
    if (problem) problems.push(problem);
    let data: Awaited<ReturnType<typeof loadDashboard>>;
    try {
      data = await loadDashboard(analyticsTenant(c), id, view, range, interval, now);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return notFound(c, session);
      throw error;
    }
    const base = `/app/analytics/${id}`;
    return render(c, session, {
      status: problems.length > 0 || data.filterError ? 400 : 200,
      title: data.site.domain,
      active: ACTIVE,
      body: (
        <DashboardBody
          data={data}
          view={view}
          base={base}
          exportHref={exportHref(base, view, range)}
          problems={problems}
          crumbs={<a href={ACTIVE}>Analytics</a>}
          actions={
            isAdmin(c, session) ? (
              <a class="button secondary" href={`${base}/share`}>
                Share
              </a>
            ) : null
          }
        />
      ),
      script: PICKER_SCRIPT,
    });
  }),
);

/** The period's stats as a ZIP of CSVs (what GET /analytics/sites/{id}/export gives a token), for the session. */
analyticsAppPages.get(
  `${SITE}/export.zip`,
  signedIn(async (c, session) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    const result = await exportResponse(analyticsTenant(c), Number(param(c, "id")), c.req.query(), clock.now());
    if (result instanceof Response) return result;
    if (result.status === 404) return notFound(c, session);
    return refusalPage(c, session, { code: "validation_error", message: result.message }, 400, `/app/analytics/${param(c, "id")}`);
  }),
);

type SharedLink = { id: number; name: string; has_password: boolean; created_at: string };

/** A site's shared links (admins): the public, read-only dashboards of the site, with or without a password. */
async function sharePage(
  c: Context<AppEnv>,
  session: PageSession,
  id: number,
  state: { created?: { url: string; name: string }; errors?: Record<string, string>; name?: string; notice?: string; status?: 200 | 400 } = {},
) {
  const [site, links] = await Promise.all([
    dispatch<{ id: number; domain: string }>(c, session.principal, "GET", `/analytics/sites/${id}`),
    dispatch<SharedLink[]>(c, session.principal, "GET", `/analytics/sites/${id}/shared-links`),
  ]);
  if (!site.ok) return refusalPage(c, session, site.error, site.status, ACTIVE);
  if (!links.ok) return refusalPage(c, session, links.error, links.status, `/app/analytics/${id}`);
  const errors = state.errors ?? {};
  const base = `/app/analytics/${id}`;
  return render(c, session, {
    status: state.status ?? 200,
    title: `Share ${site.data.domain}`,
    active: ACTIVE,
    body: (
      <>
        <p class="crumbs">
          <a href={ACTIVE}>Analytics</a> / <a href={base}>{site.data.domain}</a>
        </p>
        <h1>Share the dashboard</h1>
        <p class="lead">
          A shared link shows this site's dashboard to anyone who has it, read-only and without signing in; a password keeps it to those you tell.
        </p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.created ? (
          <Notice kind="secret">
            <strong>{state.created.name}</strong>: copy the link now — it is shown only once.
            <div class="secret-value">
              <code id="shared-url">{state.created.url}</code>
              <button type="button" class="secondary small" data-copy="shared-url">
                Copy
              </button>
            </div>
          </Notice>
        ) : null}
        {errors.form && !errors.name && !errors.password ? <Notice kind="error">{errors.form}</Notice> : null}
        <div class="columns">
          <section class="card" aria-labelledby="links-title">
            <h2 id="links-title">Shared links</h2>
            {links.data.length === 0 ? (
              <p class="empty">No shared links yet.</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Password</th>
                    <th scope="col">Created</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {links.data.map((link) => (
                    <tr data-link={String(link.id)}>
                      <td>{link.name}</td>
                      <td>{link.has_password ? "Yes" : "No"}</td>
                      <td>{link.created_at.slice(0, 10)}</td>
                      <td>
                        <form
                          class="inline"
                          method="post"
                          action={`${base}/share/${link.id}/delete`}
                          data-confirm={`Close the link ${link.name}? It stops working at once.`}
                        >
                          <Csrf session={session} />
                          <button type="submit" class="danger small">
                            Delete
                          </button>
                        </form>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section class="card" aria-labelledby="new-link">
            <h2 id="new-link">New shared link</h2>
            <form method="post" action={`${base}/share`} novalidate>
              <Csrf session={session} />
              <label for="link-name">Name</label>
              <input
                id="link-name"
                name="name"
                type="text"
                required
                maxlength={200}
                value={state.name ?? ""}
                aria-describedby={errors.name ? "name-error" : undefined}
              />
              <FieldError errors={errors} field="name" />
              <label for="link-password">Password (optional, at least 8 characters)</label>
              <input
                id="link-password"
                name="password"
                type="password"
                autocomplete="new-password"
                aria-describedby={errors.password ? "password-error" : undefined}
              />
              <FieldError errors={errors} field="password" />
              <div class="form-actions">
                <button type="submit">Create link</button>
              </div>
            </form>
          </section>
        </div>
      </>
    ),
  });
}

analyticsAppPages.get(
  `${SITE}/share`,
  signedIn(async (c, session) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    return sharePage(c, session, Number(param(c, "id")), {
      notice: c.req.query("done") === "deleted" ? "The link was closed: it stopped working at once." : undefined,
    });
  }),
);

analyticsAppPages.post(
  `${SITE}/share`,
  posted(async (c, session, form) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    const id = Number(param(c, "id"));
    const name = text(form, "name");
    const password = typeof form.get("password") === "string" ? String(form.get("password")) : "";
    const result = await dispatch<{ url: string; name: string }>(c, session.principal, "POST", `/analytics/sites/${id}/shared-links`, {
      body: { name, ...(password ? { password } : {}) },
    });
    if (!result.ok) {
      if (result.status === 403 || result.status === 404) return refusalPage(c, session, result.error, result.status, ACTIVE);
      return sharePage(c, session, id, { errors: fieldErrors(result.error), name, status: 400 });
    }
    return sharePage(c, session, id, { created: { url: result.data.url, name: result.data.name } });
  }),
);

analyticsAppPages.post(
  `${SITE}/share/:link{[1-9][0-9]{0,15}}/delete`,
  posted(async (c, session) => {
    const refused = refusal(c, session);
    if (refused) return refused;
    const id = Number(param(c, "id"));
    const result = await dispatch(c, session.principal, "DELETE", `/analytics/sites/${id}/shared-links/${param(c, "link")}`);
    if (!result.ok) return refusalPage(c, session, result.error, result.status, `/app/analytics/${id}/share`);
    return c.redirect(`/app/analytics/${id}/share?done=deleted`, 303);
  }),
);
