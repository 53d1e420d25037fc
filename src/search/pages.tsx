import { Hono } from "hono";
import type { AppEnv } from "../platform/context";
import { dispatch } from "../platform/dispatch";
import { labelOf } from "../platform/web/fields";
import { Notice, render, signedIn } from "../platform/web/page";
import type { Hit } from "./search";

/** /app/search?q=: the search box's results, grouped by what they are, each a link to its record. */
export const searchPages = new Hono<AppEnv>();

searchPages.get(
  "/app/search",
  signedIn(async (c, session) => {
    const q = (c.req.query("q") ?? "").trim();
    const result = q ? await dispatch<Hit[]>(c, session.principal, "GET", `/search?${new URLSearchParams({ q: q.slice(0, 200), limit: "50" })}`) : null;
    const hits = result?.ok ? result.data : [];
    const groups = new Map<string, Hit[]>();
    for (const hit of hits) groups.set(hit.resource, [...(groups.get(hit.resource) ?? []), hit]);
    return render(c, session, {
      status: result && !result.ok ? 400 : 200,
      title: q ? `Search: ${q}` : "Search",
      active: "/app/search",
      body: (
        <>
          <h1>Search</h1>
          <form method="get" action="/app/search" class="card spaced">
            <label for="search-page-q">Find contacts, customers, invoices, deals, tasks and more</label>
            <div class="actions">
              <input id="search-page-q" type="search" name="q" value={q} maxlength={200} />
              <button type="submit">Search</button>
            </div>
          </form>
          {result && !result.ok ? <Notice kind="error">{result.error.message}</Notice> : null}
          {q && result?.ok && hits.length === 0 ? <p class="lead">Nothing matches “{q}”.</p> : null}
          {[...groups].map(([resource, list]) => (
            <section class="card spaced" aria-label={labelOf(resource.replaceAll("-", "_"))}>
              <h2>{labelOf(resource.replaceAll("-", "_"))}</h2>
              <ul class="hits">
                {list.map((hit) => (
                  <li>
                    <a href={`/app/${hit.resource}/${hit.id}`}>{hit.label || `#${hit.id}`}</a>
                    {hit.snippet ? <span class="meta"> — {hit.snippet}</span> : null}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      ),
    });
  }),
);
