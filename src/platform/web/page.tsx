import type { Context } from "hono";
import type { Child } from "hono/jsx";
import { access, isAllowed } from "../auth/permissions";
import type { AppEnv } from "../context";
import type { ApiErrorBody } from "../dispatch";
import { newNonce } from "../docs";
import { PackageSwitches } from "../package-state";
import type { PackageRegistry } from "../packages";
import { platformOf } from "../services";
import { directoryOf } from "../tenancy";
import { checkForm, endSession, type PageSession, pageSession } from "./session";
import type { NavEntry, NavGroup, NavItem } from "./shell";

/**
 * What every page of the web app is made with, whichever package brings it: server-rendered with hono/jsx,
 * no client framework and no outside assets. Every page asks the API's own routes in-process as the
 * signed-in user (platform/dispatch.ts), so what a page shows or does is exactly what that user's session
 * could do. The shell around a page (layout, navigation) is the web module's, reached through the registry.
 */

export type PageStatus = 200 | 400 | 403 | 404 | 409 | 413 | 422;
export type Page = {
  status?: PageStatus;
  title: string;
  /** The navigation entry to mark as current (its href). */
  active: string;
  body: Child;
  /** Origins the page may frame (a pro app). */
  frames?: string[];
  /** Inline script (nonce'd) or a static script under /app-assets/. */
  script?: string;
  scripts?: string[];
};

/** What every page's response carries: no inline script without its nonce, never framed, never cached. */
export function pageHeaders(nonce: string, frameOrigins: string[] = []): Record<string, string> {
  return {
    "Content-Security-Policy": [
      "default-src 'self'",
      `script-src 'nonce-${nonce}'`,
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      `frame-src ${frameOrigins.length ? frameOrigins.join(" ") : "'none'"}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ].join("; "),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
  };
}

/**
 * The navigation for this user: every enabled package's entries (grouped under its title unless an entry
 * names its group) that the user's role may read. Pro apps' on/off state is the SSO app's, read through
 * the package's own `navEnabled` when it has one.
 */
export function navigationOf(registry: PackageRegistry, session: PageSession, enabledExtras: ReadonlySet<string>): NavGroup[] {
  const { principal } = session;
  const groups = new Map<string, NavItem[]>();
  for (const manifest of registry.all) {
    if (!manifest.nav || principal.disabledPackages.includes(manifest.name)) continue;
    if (manifest.enabledState && !enabledExtras.has(manifest.name)) continue;
    for (const entry of manifest.nav) {
      if (!mayOpen(registry, session, entry)) continue;
      const label = entry.group ?? manifest.title;
      groups.set(label, [...(groups.get(label) ?? []), { href: entry.href, label: entry.label }]);
    }
  }
  return [...groups].map(([label, items]) => ({ label, items }));
}

function mayOpen(registry: PackageRegistry, session: PageSession, entry: NavEntry): boolean {
  const who = { role: session.principal.role, scopes: null };
  if (entry.admin) return isAllowed(who, access.admin, registry);
  return entry.resource ? isAllowed(who, access.read(entry.resource), registry) : true;
}

const OWN_STATE_TTL_MS = 5_000;
type OwnStates = Map<number, { at: number; enabled: ReadonlySet<string> }>;
const ownStatesOf = (c: Context<AppEnv>) => platformOf(c).isolate.get("web.ownStates", (): OwnStates => new Map());

/**
 * The packages that keep their on/off state themselves (the pro apps: their SSO app's `enabled`) and are
 * on, for the navigation: one directory read per workspace per 5 s in this isolate, forgotten at once when
 * a switch happens here (forgetPackageStates).
 */
async function ownStateEnabled(c: Context<AppEnv>, session: PageSession): Promise<ReadonlySet<string>> {
  const { registry } = platformOf(c);
  const names = registry.all.filter((manifest) => manifest.enabledState && manifest.nav).map((manifest) => manifest.name);
  if (names.length === 0) return new Set();
  const cache = ownStatesOf(c);
  const workspace = session.principal.workspace.id;
  const now = Date.now();
  const known = cache.get(workspace);
  if (known && now - known.at < OWN_STATE_TTL_MS) return known.enabled;
  const states = await new PackageSwitches(directoryOf(c), registry).states(names);
  const enabled = new Set([...states].filter(([, on]) => on).map(([name]) => name));
  if (cache.size > 10_000) cache.clear();
  cache.set(workspace, { at: now, enabled });
  return enabled;
}

/** After a package switch: the navigation reads the workspace's package states again. */
export function forgetPackageStates(c: Context<AppEnv>, workspaceId: number): void {
  ownStatesOf(c).delete(workspaceId);
}

/** A page in the shell: the navigation, the page, its scripts (nonce'd), the security headers. */
export async function render(c: Context<AppEnv>, session: PageSession, page: Page) {
  const nonce = newNonce();
  const { registry } = platformOf(c);
  const Shell = registry.shell();
  const enabledApps = await ownStateEnabled(c, session);
  const content = (
    <>
      {page.body}
      {(page.scripts ?? []).map((src) => (
        <script nonce={nonce} src={src} />
      ))}
      {page.script ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: page.script }} /> : null}
    </>
  );
  const body = Shell
    ? Shell({
        title: page.title,
        principal: session.principal,
        csrf: session.csrf,
        active: page.active,
        nav: navigationOf(registry, session, enabledApps),
        nonce,
        // The header's box shows the search being looked at (a list's own q is its filter, not a search).
        query: c.req.path === "/app/search" ? c.req.query("q") : undefined,
        children: content,
      })
    : content;
  return c.html(`<!doctype html>${await body}`, page.status ?? 200, pageHeaders(nonce, page.frames));
}

/** A signed-in page, or a redirect to /login (no cookie, or an expired or revoked session). */
export function signedIn(handler: (c: Context<AppEnv>, session: PageSession) => Promise<Response>) {
  return async (c: Context<AppEnv>) => {
    const session = await pageSession(c);
    if (!session) {
      endSession(c);
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    // The page's own reads (its navigation) go through the tenancy module as this user.
    c.set("principal", session.principal);
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

/** An API error's messages by field path ("items.0.quantity"), and under "form" what names no field. */
export function fieldErrors(error: ApiErrorBody): Record<string, string> {
  const out: Record<string, string> = {};
  for (const detail of (Array.isArray(error.details) ? error.details : []) as { path?: string; message?: string }[]) {
    const path = detail.path || "form";
    out[path] ??= detail.message ?? error.message;
    // The field's first segment too ("scopes.0" → "scopes"), for forms that show one message per field.
    const field = path.split(".")[0]!;
    out[field] ??= detail.message ?? error.message;
  }
  if (Object.keys(out).length === 0 || error.code !== "validation_error") out.form ??= error.message;
  return out;
}

/** A path parameter (the handlers are shared, so their paths are not typed). */
export const param = (c: Context<AppEnv>, name: string) => c.req.param(name) ?? "";

/** A form field's text, trimmed ("" when absent). */
export const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

export function Notice(props: { kind: "ok" | "error" | "secret"; children: Child }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** A field's message, with the id its input names in aria-describedby (`{path}-error`). */
export function FieldError(props: { errors: Record<string, string>; field: string }) {
  const message = props.errors[props.field];
  return message ? (
    <p class="field-error" id={`${props.field}-error`}>
      {message}
    </p>
  ) : null;
}

/** The CSRF token every form posts. */
export const Csrf = (props: { session: PageSession }) => <input type="hidden" name="csrf" value={props.session.csrf} />;

/**
 * An API refusal as a page the user can act on: 403 says which role or package is needed, 404 that the
 * record is not there (another workspace's looks the same), anything else what the API said.
 */
export function refusalPage(c: Context<AppEnv>, session: PageSession, error: ApiErrorBody, status: number, active = "/app") {
  const details = (Array.isArray(error.details) ? error.details[0] : undefined) as { required_role?: string; package?: string; role?: string } | undefined;
  if (status === 404) {
    return render(c, session, {
      status: 404,
      title: "Not found",
      active,
      body: (
        <>
          <h1>Not found</h1>
          <p class="lead">{error.message}. It may have been deleted, or the link is wrong.</p>
          <p>
            <a href={active}>Back</a>
          </p>
        </>
      ),
    });
  }
  const why =
    error.code === "package_disabled"
      ? `The ${details?.package ?? ""} package is disabled for this workspace. An admin can enable it under Settings → Packages.`
      : details?.required_role
        ? `Your role (${details.role ?? session.principal.role}) cannot do this; it needs ${details.required_role}. Ask an admin of the workspace.`
        : error.message;
  return render(c, session, {
    status: status === 403 ? 403 : 409,
    title: status === 403 ? "Not allowed" : "Not possible",
    active,
    body: (
      <>
        <h1>{status === 403 ? "Not allowed" : "Not possible"}</h1>
        <p class="lead">{why}</p>
        <p>
          <a href={active}>Back</a>
        </p>
      </>
    ),
  });
}

/** The page an admins-only settings page shows anyone else. */
export function NeedsAdmin() {
  return (
    <>
      <h1>Admins only</h1>
      <p class="lead">Only an admin or owner of this workspace can see or change these settings.</p>
    </>
  );
}

/** A page address that does not exist, for people (the API answers its own 404 in JSON). */
export function notFoundPage(c: Context<AppEnv>) {
  const nonce = newNonce();
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/app.css"></head><body><main id="main"><h1>Not found</h1><p class="lead">There is no page at this address.</p><p><a href="/app">Go to the dashboard</a></p></main></body></html>`,
    404,
    pageHeaders(nonce),
  );
}
