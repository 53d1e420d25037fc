// The package registry this project installs from does not carry workerd's macOS and Windows binaries, so
// npm records optional edges in package-lock.json that `npm ci` then reports as missing. Drop the edges
// to packages the lock does not contain. Run after `npm install` changes the lock.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
let pruned = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) {
      delete entry.optionalDependencies[name];
      pruned += 1;
    }
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`pruned ${pruned} optional dependency edge(s) missing from the registry`);
