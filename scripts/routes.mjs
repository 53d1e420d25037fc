// npm run routes [-- <text>] [-- --json]: every route the worker serves — method, path, operationId,
// package and the file that defines it — read from the app itself (src/index.ts's platform), so a
// handler is found from its URL. A resource's generated routes are its definition's file; other routes
// are the file that exports their router. `<text>` keeps the rows that contain it ("deals", "/auth").
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { loadWorker } from "./lib/load-worker.mjs";

const { platform } = await loadWorker();
const { routersOf } = await import("../src/platform/create.ts");

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

// Which file exports each router, page app, resource definition and route definition.
const fileOf = new Map();
const declared = new Map();
for (const path of sources("src")) {
  const module = await import(pathToFileURL(path).href);
  const file = relative(".", path).replaceAll("\\", "/");
  for (const value of Object.values(module)) {
    if (!value || typeof value !== "object" || fileOf.has(value)) continue;
    fileOf.set(value, file);
    if (typeof value.method === "string" && typeof value.path === "string" && value.operationId)
      declared.set(`${value.method.toUpperCase()} /api/v1${value.path}`, { operationId: value.operationId, file });
  }
}

const toOpenApiPath = (path) => path.replace(/:(\w+)(\{(?:[^{}]|\{[^{}]*\})*\})?/g, "{$1}");
const rows = new Map();
const add = (method, path, row) => {
  const key = `${method} ${path}`;
  if (!rows.has(key)) rows.set(key, { method, path, ...row });
};

for (const manifest of platform.registry.all) {
  const definitions = manifest.resources ?? [];
  // routersOf lists the package's own routers first, then one per resource definition.
  const own = (manifest.routers ?? []).length;
  const statics = manifest.staticRouters ?? [];
  [...statics, ...routersOf(manifest)].forEach((router, j) => {
    const i = j - statics.length;
    const source = i < own ? router : definitions[i - own];
    const file = fileOf.get(source) ?? "(not exported: export it so this table can name its file)";
    const operations = new Map(
      router.openAPIRegistry.definitions
        .filter((definition) => definition.type === "route")
        .map(({ route }) => [`${route.method.toUpperCase()} ${route.path}`, route.operationId]),
    );
    for (const route of router.routes) {
      if (route.method === "ALL") continue;
      const path = toOpenApiPath(route.path);
      const operationId =
        operations.get(`${route.method} ${path}`) ?? (route.method === "PATCH" ? `${operations.get(`PUT ${path}`) ?? "—"} (PATCH alias)` : "—");
      add(route.method, `/api/v1${path}`, { operationId, package: manifest.name, file });
    }
  });
  for (const routes of [...(manifest.operatorRoutes ?? []), ...(manifest.pages ?? [])]) {
    for (const route of routes.routes) {
      if (route.method === "ALL") continue;
      // A resource's generated pages are found in its definition's file.
      const file = fileOf.get(routes) ?? (routes.resource ? fileOf.get(routes.resource) : undefined) ?? "(not exported)";
      add(route.method, toOpenApiPath(route.path), { operationId: "—", package: manifest.name, file });
    }
  }
}
// What the platform itself serves (health, readiness, the OpenAPI document and its reference).
for (const route of platform.app.routes) {
  if (route.method === "ALL") continue;
  const path = toOpenApiPath(route.path);
  const known = declared.get(`${route.method} ${path}`);
  add(route.method, path, { operationId: known?.operationId ?? "—", package: "(platform)", file: known?.file ?? "src/platform/http/health.ts" });
}

if (process.argv.includes("--check")) {
  // npm test: every route is found from its URL — a package, a file that exists, and an operationId for the API's.
  const problems = [...rows.values()].filter(
    (row) => row.file.startsWith("(") || (row.path.startsWith("/api/v1/") && row.path !== "/api/v1/docs" && row.operationId === "—"),
  );
  for (const row of problems) console.error(`routes: ${row.method} ${row.path} has no ${row.file.startsWith("(") ? "file" : "operationId"}`);
  if (problems.length > 0) process.exit(1);
  console.log(`routes: ${rows.size} routes, each with its package and defining file`);
  process.exit(0);
}

const filter = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
const table = [...rows.values()]
  .filter((row) => !filter || Object.values(row).some((value) => String(value).includes(filter)))
  .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(table, null, 2));
} else {
  const columns = ["method", "path", "operationId", "package", "file"];
  const widths = columns.map((column) => Math.max(column.length, ...table.map((row) => String(row[column]).length)));
  const line = (values) =>
    values
      .map((value, i) => String(value).padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  console.log(line(columns.map((column) => column.toUpperCase())));
  for (const row of table) console.log(line(columns.map((column) => row[column])));
  console.log(`\n${table.length} routes`);
}
