import { Hono } from "hono";
import type { AppEnv } from "../platform/context";
import { publicOrigin } from "../platform/app";
import { verifyIssuedToken } from "./service";

/**
 * A demo pro app, to see single sign-on work locally (point a pro app's app_url at it and open it in the
 * dashboard at /app/apps/{app}): /demo/pro-app takes the token from the fragment or a postMessage, has its
 * "backend" (/demo/pro-app/verify, using src/sso/verify.ts with the app secret) check it, shows the user.
 */
export const demoPages = new Hono<AppEnv>();

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:1.5rem;color:#222}code{background:#f3f3f3;padding:0 .3em}</style></head>
<body>${body}</body></html>`;

demoPages.get("/demo/pro-app", (c) =>
  c.html(
    page(
      "Demo pro app",
      `<h1>Demo pro app</h1>
<p>Status: <strong id="status">waiting for a token</strong></p>
<p>Signed in as: <strong id="user">nobody</strong></p>
<p>Tokens verified: <strong id="count">0</strong></p>
<script>
  let verified = 0;
  async function accept(token) {
    const response = await fetch("/demo/pro-app/verify", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
    });
    const body = await response.json();
    if (!response.ok) { document.getElementById("status").textContent = "rejected: " + body.error; return; }
    verified += 1;
    document.getElementById("status").textContent = "verified";
    document.getElementById("user").textContent = body.claims.name + " <" + body.claims.email + "> (" + body.claims.role + ")";
    document.getElementById("count").textContent = String(verified);
    document.body.dataset.verified = String(verified);
  }
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get("sso_token");
  if (fromFragment) { history.replaceState(null, "", location.pathname); accept(fromFragment); }
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || !event.data || event.data.type !== "bp:sso_token") return;
    accept(event.data.token);
  });
</script>`,
    ),
  ),
);

demoPages.post("/demo/pro-app/verify", async (c) => {
  const body = await c.req.json<{ token?: unknown }>().catch(() => ({}) as { token?: unknown });
  if (typeof body.token !== "string") return c.json({ error: "token is required" }, 400);
  const verified = await verifyIssuedToken(c.env, body.token, publicOrigin(c));
  if (!verified) return c.json({ error: "invalid token" }, 401);
  return c.json({ claims: verified.claims }, 200);
});
