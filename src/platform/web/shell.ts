import type { Child } from "hono/jsx";
import type { Principal } from "../context";

/** A link a package puts in the navigation; shown while the package is on and the user may open it. */
export type NavEntry = {
  href: string;
  label: string;
  /** The navigation group; the package's title by default ("Settings" gathers the settings pages). */
  group?: string;
  /** Shown only to roles that may read this resource (or permission name). */
  resource?: string;
  /** Shown only to admins and owners. */
  admin?: boolean;
};

export type NavItem = { href: string; label: string };
export type NavGroup = { label: string; items: NavItem[] };

export type ShellProps = {
  title: string;
  principal: Principal;
  /** The session's CSRF token (the sign-out form). */
  csrf: string;
  /** The href of the navigation entry to mark as current. */
  active: string;
  nav: NavGroup[];
  /** The page's CSP nonce: every script it loads carries it. */
  nonce: string;
  /** What the search box shows. */
  query?: string;
  children: Child;
};

/** The layout every signed-in page is rendered in: the web module provides it (its manifest's `shell`). */
export type PageShell = (props: ShellProps) => unknown;
