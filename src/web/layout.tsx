import type { Child } from "hono/jsx";
import type { PageSession } from "./session";

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

export type NavItem = { href: string; label: string };

/** The page around every signed-in view: the side navigation (by role and enabled packages) and sign-out. */
export function Shell(props: { title: string; session: PageSession; active: string; apps: NavItem[]; children: Child }) {
  const { principal, csrf } = props.session;
  const admin = principal.role === "admin" || principal.role === "owner";
  const link = (href: string, label: string) => (
    <a href={href} aria-current={props.active === href ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${principal.workspace.name}`}</title>
        <link rel="stylesheet" href="/app.css" />
      </head>
      <body>
        <div class="shell">
          <nav class="side" aria-label="Main">
            <div class="brand">
              Business Platform
              <small>{principal.workspace.name}</small>
            </div>
            {link("/app", "Dashboard")}
            {link("/app/assistant", "Assistant")}
            {props.apps.length > 0 && <div class="group">Apps</div>}
            {props.apps.map((app) => link(app.href, app.label))}
            <div class="group">Settings</div>
            {admin && link("/app/settings/api", "API")}
            {admin && link("/app/settings/webhooks", "Webhooks")}
            {link("/app/settings/packages", "Packages")}
            <form method="post" action="/logout">
              <div class="who">
                {principal.user.name} · {principal.role}
              </div>
              <input type="hidden" name="csrf" value={csrf} />
              <button type="submit">Sign out</button>
            </form>
          </nav>
          <main>{props.children}</main>
        </div>
      </body>
    </html>
  );
}

export function Notice(props: { kind: "ok" | "error" | "secret"; children: Child }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

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
