import { Hono } from "hono";
import { unauthorized } from "../platform/auth/middleware";
import { configOf } from "../platform/config";
import type { AppEnv, Env } from "../platform/context";
import { ApiError } from "../platform/errors";
import { publicOrigin } from "../platform/http/origin";
import { countRequest } from "../platform/rate-limit/middleware";
import { platformOf } from "../platform/services";
import { verifyIssuedToken } from "./service";

/**
 * A demo pro app, to see single sign-on work locally (point a pro app's app_url at it and open it in the
 * dashboard at /app/apps/{app}): /demo/pro-app takes the token from the fragment or a postMessage, has its
 * "backend" (/demo/pro-app/verify, using src/sso/verify.ts with the app secret) check it, shows the user.
 */
export const demoPages = new Hono<AppEnv>();

/** Only a local build (ALLOW_INSECURE_WEBHOOK_URLS) or one that asks for it (DEMO = "true") serves the demo app. */
const demoServed = (env: Env) => configOf(env).development || env.DEMO === "true";

demoPages.use("/demo/*", async (c, next) => {
  if (!demoServed(c.env)) throw new ApiError("not_found", `No route for ${c.req.method} ${c.req.path}`);
  await next();
});

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
    if (!response.ok) { document.getElementById("status").textContent = "rejected: " + body.error.message; return; }
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

/** The demo's "backend": public, so counted per client IP like every anonymous request, and strict about its input. */
demoPages.post("/demo/pro-app/verify", async (c) => {
  for (const [name, value] of Object.entries(await countRequest(c, { ip: c.req.header("cf-connecting-ip") ?? "unknown" }))) c.header(name, value);
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) throw new ApiError("unsupported_media_type", "Content-Type must be application/json");
  if (Number(c.req.header("content-length") ?? 0) > 16_384) throw new ApiError("payload_too_large", "The request body exceeds 16384 bytes");
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON");
  }
  const token = typeof body === "object" && body !== null && "token" in body && typeof body.token === "string" && body.token.length <= 8192 ? body.token : null;
  if (token === null) throw ApiError.validation([{ path: "token", message: "is required: the SSO token (a string)" }]);
  const verified = await verifyIssuedToken(c.env, platformOf(c).registry, token, publicOrigin(c));
  if (!verified) throw unauthorized(true, "The SSO token is invalid, expired or not for this app");
  return c.json({ claims: verified.claims }, 200);
});
