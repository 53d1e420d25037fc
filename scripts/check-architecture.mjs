// The house rules `npm test` enforces (docs/architecture.md):
//   1. layers and no import circles — dependency-cruiser with .dependency-cruiser.cjs, plus a rule per
//      package generated from the manifests: a package imports the platform, itself, and the packages
//      its manifest declares (dependsOn or optionalDependsOn); a pro app also sso's proAppPackage;
//   2. the tenancy wall — outside src/platform/tenancy no raw D1 handle and no hand-written workspace
//      filter; the cross-workspace doors (acrossWorkspaces, everyShard, tenantOn, directoryFor) only in
//      the modules listed below, each for a stated reason;
//   3. no module state — no top-level let/var, no mutable Map/Set at module scope (WeakMap memos of
//      a pure function of their key are allowed; constant sets are typed ReadonlySet).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { cruise } from "dependency-cruiser";
import { loadWorker } from "./lib/load-worker.mjs";

const require = createRequire(import.meta.url);
const problems = [];

// 1. Layers, circles and declared package links.
const { platform } = await loadWorker();
const config = require("../.dependency-cruiser.cjs");
const packageRules = platform.registry.all
  .filter((manifest) => manifest.tier !== "core")
  .map((manifest) => {
    const allowed = [manifest.name, ...manifest.dependsOn, ...(manifest.optionalDependsOn ?? [])];
    return {
      name: `package-${manifest.name}-imports-what-it-declares`,
      severity: "error",
      from: { path: `^src/packages/${manifest.name}/` },
      to: {
        path: "^src/",
        pathNot: ["^src/platform/", `^src/packages/(${allowed.join("|")})/`, ...(manifest.tier === 2 ? ["^src/sso/pro-apps\\.ts$"] : [])],
      },
    };
  });
for (const folder of readdirSync("src/packages")) {
  if (!platform.registry.get(folder)) problems.push(`src/packages/${folder} is not the folder of a package listed in src/index.ts`);
}
const result = await cruise(["src"], { ...config.options, ruleSet: { forbidden: [...config.forbidden, ...packageRules] }, validate: true });
for (const violation of result.output.summary.violations) {
  const path = violation.cycle ? [violation.from, ...violation.cycle.map((step) => step.name ?? step)].join(" → ") : `${violation.from} → ${violation.to}`;
  problems.push(`${violation.rule.name}: ${path}`);
}

// 2 and 3. What the sources say.
const TENANCY = "src/platform/tenancy/";
/** Modules that work across workspaces, and why (everything else reaches tenant rows through a Tenant). */
const CROSS_WORKSPACE = {
  "src/platform/auth/principal.ts": "resolving a token: the workspace is what it finds",
  "src/identity/auth-routes.ts": "sign-up and log-in: there is no workspace yet",
  "src/platform/sweeps.ts": "cron sweeps over every workspace",
  "src/platform/reseal.ts": "cron: re-sealing secrets in every workspace",
  "src/webhooks/dispatch.ts": "the outbox dispatcher (after a request, and the cron) for any workspace",
  "src/webhooks/consumer.ts": "the delivery queue's consumer, for any workspace",
  "src/packages/analytics/collect.ts": "the public collector: the site key says whose site it is",
  "src/packages/analytics/consumer.ts": "the analytics queue's consumer, for any workspace",
  "src/packages/analytics/ingest.ts": "the analytics queue's consumer writes a batch of many workspaces' events",
  "src/packages/analytics/sweeps.ts": "retention sweeps over every workspace",
  "src/packages/analytics/share-routes.ts": "a shared dashboard link: its token is the credential, the workspace is what its hash finds",
  "src/packages/chatbot/inbound-routes.ts": "inbound chat: the URL names the workspace, the signature proves it",
  "src/packages/chatbot/sweeps.ts": "cron: expired linking codes and old replay keys of every workspace",
  "src/packages/account/stripe.ts": "Stripe's webhook: the URL names the workspace, the signature over its secret proves it",
  "src/platform/mail/consumer.ts": "the mail queue's consumer, for any workspace",
  "src/platform/mail/inbound.ts": "inbound e-mail: the support address names the workspace",
  "src/platform/public-links.ts": "a public link: its token is the credential, the workspace is what its hash finds",
  "src/sso/service.ts": "SSO token exchange: the signed token names the workspace",
  "src/sso/token-routes.ts": "SSO token exchange: the signed token names the workspace",
  "src/ops/move-routes.ts": "the operator moves workspaces between shards",
};
const RAW_HANDLE = [
  [/\bD1Database\b|\bD1PreparedStatement\b/, "a D1 type"],
  [/\$client\b/, "drizzle's raw client"],
  [/drizzle-orm\/d1/, "a drizzle D1 handle"],
  [/\benv\.(DB|ANALYTICS_DB)\b|\benv\[[^\]]*SHARD/, "a database binding"],
  [/\.withSession\(/, "a D1 session"],
];
const WORKSPACE_FILTER = [
  [/\b(eq|ne|inArray)\(\s*[\w.]+\.workspaceId\b/, "a workspace condition written by hand"],
  [/\bworkspace_id\s*(=(?!=)|<>|!=|\bIN\b)/i, "a workspace condition in raw SQL"],
  [/\.workspaceId\)?\}\s*(=(?!=)|<>|\bIN\b)/, "a workspace condition in raw SQL"],
];
const DOORS = /\b(acrossWorkspaces|everyShard|tenantOn|directoryFor)\b/;
const MODULE_STATE = [
  [/^(export )?(let|var) /, "a module-level variable"],
  [/^(export )?const \w+(: (?!Readonly)[^=]+)? = new (Map|Set)\b/, "a mutable Map or Set at module scope (type constants ReadonlyMap/ReadonlySet)"],
  [/new AsyncLocalStorage\b/, "request context outside tenancy/session.ts"],
];

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The code without its comments (so prose may name what code must not do). */
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

for (const file of sources("src").map((path) => relative(".", path).replaceAll("\\", "/"))) {
  if (file.startsWith(TENANCY)) continue;
  const lines = code(readFileSync(file, "utf8")).split("\n");
  const report = (i, what) => problems.push(`${file}:${i + 1}: ${what}: ${lines[i].trim().slice(0, 120)}`);
  lines.forEach((line, i) => {
    if (file !== "src/platform/context.ts") for (const [pattern, what] of RAW_HANDLE) if (pattern.test(line)) report(i, `${what} outside the tenancy module`);
    if (!(file in CROSS_WORKSPACE)) {
      for (const [pattern, what] of WORKSPACE_FILTER) if (pattern.test(line)) report(i, `${what} (use tenant.scope, or sameWorkspace in a definition)`);
      if (DOORS.test(line)) report(i, "cross-workspace access outside the modules scripts/check-architecture.mjs lists");
    }
    if (file === "src/packages/analytics/script.ts") return;
    for (const [pattern, what] of MODULE_STATE) if (pattern.test(line)) report(i, what);
  });
}

if (problems.length > 0) {
  console.error(`architecture check: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(`architecture check: ${result.output.summary.totalCruised} modules in their layers, no circles, the tenancy wall holds, no module state`);
