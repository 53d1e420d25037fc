/**
 * GET /api/v1/sso/embed.js — for the dashboard (or any host page) to mount a pro app:
 *
 *   <script src="https://api.example.com/api/v1/sso/embed.js"></script>
 *   <script>
 *     BusinessPlatformSSO.mount({ container: document.getElementById("app"), app: "hrm-pro",
 *       apiBase: "https://api.example.com/api/v1", sessionToken: "bps_…" });
 *   </script>
 *
 * It asks POST /sso/token for a token (or takes `initial`, a token its server already issued), loads the app
 * at its launch_url (token in the fragment), and
 * ~15 s before each token expires gets a fresh one from POST /sso/refresh and hands it to the iframe
 * with postMessage({type: "bp:sso_token", token}) addressed to the app's exact origin.
 */
export const EMBED_SCRIPT = `(() => {
  "use strict";
  async function call(apiBase, path, bearer, body) {
    const response = await fetch(apiBase + path, {
      method: "POST",
      headers: { authorization: "Bearer " + bearer, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((payload.error && payload.error.message) || "HTTP " + response.status);
    return payload.data;
  }

  async function mount(options) {
    const apiBase = options.apiBase.replace(/\\/$/, "");
    const lead = options.refreshBeforeSeconds === undefined ? 15 : options.refreshBeforeSeconds;
    const notify = options.onToken || (() => {});
    const fail = options.onError || ((error) => console.error("BusinessPlatformSSO:", error));
    // A host that already holds a first token (issued by its server) passes it as initial.
    let current = options.initial || (await call(apiBase, "/sso/token", options.sessionToken, { app: options.app }));
    const origin = new URL(current.app_url).origin;
    const iframe = document.createElement("iframe");
    iframe.title = options.app;
    iframe.style.border = "0";
    iframe.style.width = "100%";
    iframe.style.height = options.height || "600px";
    iframe.src = current.launch_url;
    options.container.appendChild(iframe);
    notify(current.token, 0);

    let refreshes = 0;
    let timer;
    let failures = 0;
    const schedule = (seconds) => {
      timer = setTimeout(refresh, Math.max(1, seconds) * 1000);
    };
    async function refresh() {
      try {
        current = await call(apiBase, "/sso/refresh", current.token);
        failures = 0;
        refreshes += 1;
        // Only the app's own origin may read the token.
        iframe.contentWindow.postMessage({ type: "bp:sso_token", token: current.token }, origin);
        notify(current.token, refreshes);
        schedule(current.expires_in - lead);
      } catch (error) {
        failures += 1;
        if (failures >= 3) return fail(error);
        schedule(2 * failures);
      }
    }
    schedule(current.expires_in - lead);
    return { iframe, stop: () => clearTimeout(timer) };
  }

  window.BusinessPlatformSSO = { mount };
})();
`;
