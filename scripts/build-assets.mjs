// Copies third-party browser files the worker serves as Workers static assets (public/vendor/, git-ignored):
// Scalar's standalone API reference (MIT). Runs on npm install (prepare), and before dev, tests and deploys.
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const files = [["node_modules/@scalar/api-reference/dist/browser/standalone.js", "public/vendor/scalar/standalone.js"]];
for (const [from, to] of files) {
  const source = join(root, from);
  const target = join(root, to);
  mkdirSync(dirname(target), { recursive: true });
  let fresh = false;
  try {
    fresh = statSync(target).mtimeMs >= statSync(source).mtimeMs;
  } catch {}
  if (!fresh) copyFileSync(source, target);
}
