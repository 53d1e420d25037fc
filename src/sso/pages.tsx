import { Hono } from "hono";
import type { AppEnv } from "../platform/context";
import { dispatch } from "../platform/dispatch";
import { platformOf } from "../platform/services";
import { Notice, param, render, signedIn } from "../platform/web/page";

/** The pro apps: each embedded, signed in with a single sign-on token. */
export const proAppPages = new Hono<AppEnv>();

type SsoGrant = { token: string; expires_in: number; app_url: string; launch_url: string };

proAppPages.get(
  "/app/apps/:app",
  signedIn(async (c, session) => {
    const app = param(c, "app");
    const grant = await dispatch<SsoGrant>(c, session.principal, "POST", "/sso/token", { body: { app } });
    const title = platformOf(c).registry.get(app)?.title ?? app;
    if (!grant.ok) {
      return render(c, session, {
        status: grant.status === 404 ? 404 : 403,
        title,
        active: `/app/apps/${app}`,
        body: (
          <>
            <h1>{title}</h1>
            <Notice kind="error">{grant.error.message}</Notice>
          </>
        ),
      });
    }
    // The first token is issued here, on the server (the session cookie never reaches a script); embed.js
    // then refreshes it with the token itself (POST /api/v1/sso/refresh) and hands each new one to the
    // app's exact origin with postMessage.
    const initial = JSON.stringify({
      token: grant.data.token,
      expires_in: grant.data.expires_in,
      app_url: grant.data.app_url,
      launch_url: grant.data.launch_url,
    }).replace(/</g, "\\u003c");
    return render(c, session, {
      title,
      active: `/app/apps/${app}`,
      frames: [new URL(grant.data.app_url).origin],
      body: (
        <>
          <h1>{title}</h1>
          <p class="lead">
            Signed in to {title} as {session.principal.user.name}. The app's token is refreshed automatically (refreshes so far:{" "}
            <strong id="refreshes">0</strong>).
          </p>
          <div class="app-frame" id="app" />
        </>
      ),
      scripts: ["/api/v1/sso/embed.js"],
      script: `BusinessPlatformSSO.mount({
  container: document.getElementById("app"),
  app: ${JSON.stringify(app)},
  apiBase: location.origin + "/api/v1",
  initial: ${initial},
  refreshBeforeSeconds: ${Math.min(59, Math.max(1, Number(c.req.query("lead") ?? 15) || 15))},
  height: "560px",
  onToken: (_token, refreshes) => { document.getElementById("refreshes").textContent = String(refreshes); document.body.dataset.refreshes = String(refreshes); },
  onError: (error) => { document.getElementById("refreshes").textContent = "stopped: " + error.message; },
});`,
    });
  }),
);
