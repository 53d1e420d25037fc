// The layers (docs/architecture.md): src/platform is the base and imports nothing above it; the core
// modules (identity, workspace, webhooks, sso, dashboard, ops, web) build on the platform alone; a
// package under src/packages builds on the platform and on the packages its manifest declares — that
// last rule depends on the manifests, so scripts/check-architecture.mjs adds it when it runs this set.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import circle (type-only imports included) ties modules into one knot.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "platform-is-the-base",
      comment: "src/platform is what every request shares: it never imports a module or a package.",
      severity: "error",
      from: { path: "^src/platform/" },
      to: { path: "^src/", pathNot: "^src/platform/" },
    },
    {
      name: "core-modules-build-on-the-platform",
      comment: "A core module (identity, workspace, webhooks, sso, dashboard, ops, web) imports the platform and itself only.",
      severity: "error",
      from: { path: "^src/(identity|workspace|webhooks|sso|dashboard|ops|web)/" },
      to: { path: "^src/", pathNot: ["^src/platform/", "^src/$1/"] },
    },
    {
      name: "nothing-imports-the-composition-root",
      comment: "src/index.ts lists the packages; nothing in src imports it.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/index\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "\\.json$" },
  },
};
