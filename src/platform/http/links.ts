import type { Context } from "hono";
import type { AppEnv } from "../context";
import { publicOrigin } from "./origin";

/**
 * `Link: <…?cursor=…>; rel="next"` on a list page that has more (RFC 8288, as GitHub sends it): the same
 * request with `cursor` set to `meta.next_cursor`, every other parameter kept, so a client can follow links
 * without building URLs.
 */
export function linkNextPage(c: Context<AppEnv>, meta: { next_cursor: string | null }): void {
  if (!meta.next_cursor) return;
  const url = new URL(c.req.url);
  url.searchParams.set("cursor", meta.next_cursor);
  c.header("Link", `<${publicOrigin(c)}${url.pathname}${url.search}>; rel="next"`);
}
