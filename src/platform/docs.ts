import { base64 } from "./crypto";

/** Where the worker's static assets put Scalar's standalone bundle (scripts/build-assets.mjs copies it). */
export const SCALAR_BUNDLE = "/vendor/scalar/standalone.js";

export function newNonce(): string {
  return base64(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * GET /api/v1/docs: the API reference rendered in the browser by Scalar from /api/v1/openapi.json, with
 * navigation, schemas, examples and a request console. Everything comes from this origin (the bundle is
 * a Workers static asset, fonts are the system's): the Content-Security-Policy allows no other host, so
 * the page works offline and sends nothing anywhere else.
 */
export function docsPage(nonce: string): string {
  const configuration = {
    url: "/api/v1/openapi.json",
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    hideDarkModeToggle: false,
    documentDownloadType: "json",
    persistAuth: false,
    metaData: { title: "Business Platform API reference" },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Business Platform API reference</title>
</head>
<body>
<noscript>The reference needs JavaScript. The machine-readable document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
<div id="app"></div>
<script src="${SCALAR_BUNDLE}" nonce="${nonce}"></script>
<script nonce="${nonce}">Scalar.createApiReference("#app", ${JSON.stringify(configuration)});</script>
</body>
</html>`;
}

/** The page's policy: scripts by nonce, everything else from this origin only (Scalar needs inline styles). */
export function docsSecurityHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ].join("; "),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  };
}
