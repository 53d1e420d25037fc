import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { Principal } from "../platform/auth/principal";
import type { AppEnv } from "../platform/context";
import { type ApiErrorBody, dispatch } from "../platform/dispatch";
import { newNonce } from "../platform/docs";
import { type NavItem, pageHeaders, Shell } from "./layout";
import { checkForm, endSession, type PageSession, pageSession } from "./session";

/**
 * What every page of the dashboard is made with: server-rendered with hono/jsx, no client framework and
 * no outside assets. Every page asks the API's own routes in-process as the signed-in user (see
 * platform/dispatch.ts), so what a page shows or does is exactly what that user's session could do.
 */

export type Page = { status?: 200 | 400 | 403 | 404 | 409; title: string; active: string; body: Child; frames?: string[]; script?: string; scriptSrc?: string };

/** The pro apps enabled for the workspace, for the navigation. */
export async function appsOf(c: Context<AppEnv>, principal: Principal): Promise<NavItem[]> {
  const catalogue = await dispatch<{ name: string; title: string; tier: unknown; enabled: boolean }[]>(c, principal, "GET", "/packages");
  return catalogue.ok ? catalogue.data.filter((pkg) => pkg.tier === 2 && pkg.enabled).map((pkg) => ({ href: `/app/apps/${pkg.name}`, label: pkg.title })) : [];
}

export async function render(c: Context<AppEnv>, session: PageSession, page: Page) {
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
export function signedIn(handler: (c: Context<AppEnv>, session: PageSession) => Promise<Response>) {
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
export function posted(handler: (c: Context<AppEnv>, session: PageSession, form: FormData) => Promise<Response>) {
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
export function fieldErrors(error: ApiErrorBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const detail of (Array.isArray(error.details) ? error.details : []) as { path?: string; message?: string }[]) {
    const field = (detail.path ?? "").split(".")[0] || "form";
    out[field] ??= detail.message ?? error.message;
  }
  if (Object.keys(out).length === 0) out.form = error.message;
  return out;
}

/** A path parameter (the handlers are shared, so their paths are not typed). */
export const param = (c: Context<AppEnv>, name: string) => c.req.param(name) ?? "";

export const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

export function NeedsAdmin() {
  return (
    <>
      <h1>Admins only</h1>
      <p class="lead">Only an admin or owner of this workspace can see or change these settings.</p>
    </>
  );
}
