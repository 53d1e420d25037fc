import type { NavGroup, ShellProps } from "../platform/web/shell";

/** Groups in reading order: the unnamed top group, the packages' groups as listed, then Apps, then Settings. */
function ordered(groups: NavGroup[]): NavGroup[] {
  const rank = (label: string) => (label === "" ? 0 : label === "Apps" ? 2 : label === "Settings" ? 3 : 1);
  return [...groups].sort((a, b) => rank(a.label) - rank(b.label));
}

/**
 * The page around every signed-in view: a header with the search box, the navigation the packages
 * contribute (only those on, only what the role may open) and sign-out. On a phone the navigation folds
 * behind a Menu button (app.js; without JavaScript it stays open above the page).
 */
export function Shell(props: ShellProps) {
  const { principal, csrf } = props;
  // The entry for this page; else the section it is in (a record's page marks its list).
  const exact = props.nav.some((group) => group.items.some((item) => item.href === props.active));
  const current = (href: string) => props.active === href || (!exact && href !== "/app" && props.active.startsWith(`${href}/`));
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · ${principal.workspace.name}`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/app.css" />
        <script nonce={props.nonce} src="/app.js" defer />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <button type="button" class="menu secondary small" aria-controls="nav" aria-expanded="false" hidden>
            Menu
          </button>
          <a class="brand" href="/app">
            Business Platform <small>{principal.workspace.name}</small>
          </a>
          <search class="search">
            <form method="get" action="/app/search">
              <label for="search-q" class="sr-only">
                Search this workspace
              </label>
              <input id="search-q" type="search" name="q" placeholder="Search…" value={props.query ?? ""} maxlength={200} autocomplete="off" />
            </form>
          </search>
        </header>
        <div class="shell">
          <nav class="side" id="nav" aria-label="Main">
            {ordered(props.nav).map((group) => (
              <>
                {group.label ? <div class="group">{group.label}</div> : null}
                {group.items.map((item) => (
                  <a href={item.href} aria-current={current(item.href) ? "page" : undefined}>
                    {item.label}
                  </a>
                ))}
              </>
            ))}
            <form method="post" action="/logout" class="signout">
              <div class="who">
                {principal.user.name} · {principal.role}
              </div>
              <input type="hidden" name="csrf" value={csrf} />
              <button type="submit" class="secondary small">
                Sign out
              </button>
            </form>
          </nav>
          <main id="main">{props.children}</main>
        </div>
      </body>
    </html>
  );
}
