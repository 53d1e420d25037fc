// End to end: every shell example in README.md and docs/*.md runs as written against a fresh dev server
// (migrated and seeded like `npm run dev`). Each file's blocks run in order in one bash, after the README's
// quick start (BASE, API, TOKEN), so later examples can use what earlier ones defined. The one change made
// to an example is the server's address: http://127.0.0.1:8787 becomes this run's own free port.
//
// A request that answers outside 2xx fails the run unless its block shows that status as the expected
// answer (`# → 409 …`). Blocks that talk to no local server (deploy steps, wrangler commands) are skipped;
// a `curl` to the local server written without $BASE/$API fails the run (one variable changes the port).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localSecrets, migrateLocal, startLocalServer } from "./local-server.mjs";
import { seedDemo } from "./seed.mjs";

const LOCAL = "http://127.0.0.1:8787";
const files = [
  "README.md",
  ...readdirSync("docs")
    .filter((name) => name.endsWith(".md"))
    .map((name) => join("docs", name)),
];

/** The fenced shell blocks of a markdown file, with the line each starts on. */
function shellBlocks(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [];
  let current = null;
  lines.forEach((line, index) => {
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence && !current) current = { lang: fence[1], line: index + 1, text: [] };
    else if (fence && current) {
      if (["sh", "bash", "shell"].includes(current.lang)) blocks.push({ line: current.line, text: current.text.join("\n") });
      current = null;
    } else if (current) current.text.push(line);
  });
  return blocks;
}

const problems = [];
const runnable = (block) => /\$(\{)?(BASE|API)\b/.test(block.text);
for (const file of files) {
  for (const block of shellBlocks(file)) {
    if (/curl[^\n]*127\.0\.0\.1:8787/.test(block.text))
      problems.push(`${file}:${block.line}: a curl to the local server must use $BASE or $API, not the address itself`);
  }
}

const persistTo = mkdtempSync(join(tmpdir(), "bp-docs-"));
let server;
const ran = [];
try {
  migrateLocal({ persistTo, log: join(persistTo, "migrations.log") });
  seedDemo({ persistTo });
  server = await startLocalServer({ persistTo, quiet: true, vars: { ALLOW_INSECURE_WEBHOOK_URLS: "true", ...localSecrets() } });
  const quickStart = shellBlocks("README.md").filter(runnable)[0];
  if (!quickStart || !/TOKEN=/.test(quickStart.text))
    throw new Error("README.md: the first runnable block must be the quick start that sets BASE, API and TOKEN");
  for (const file of files) {
    const blocks = shellBlocks(file).filter(runnable);
    if (blocks.length === 0) continue;
    const work = mkdtempSync(join(tmpdir(), "bp-docs-run-"));
    const statusFile = join(work, "statuses");
    // Each block appends a marker line, then its requests' statuses (curl writes them to stderr, which the
    // wrapper sends to the status file; the example's own output is untouched).
    const script = [
      "set -uo pipefail",
      `curl() { command curl --write-out '%{stderr}%{http_code}\\n' "$@" 2>>"${statusFile}"; }`,
      ...(file === "README.md" ? [] : [`# README quick start\n${quickStart.text}`]),
      ...blocks.map((block, i) => `echo "block ${i}" >> "${statusFile}"\n# ${file}:${block.line}\n${block.text}`),
      `echo "end" >> "${statusFile}"`,
    ]
      .join("\n")
      .replaceAll(LOCAL, server.url);
    writeFileSync(join(work, "run.sh"), script);
    const result = spawnSync("bash", [join(work, "run.sh")], { encoding: "utf8", timeout: 120_000 });
    const statuses = readFileSync(statusFile, "utf8").split("\n");
    if (!statuses.includes("end")) problems.push(`${file}: the examples stopped early (exit ${result.status}): ${result.stderr.slice(-500)}`);
    let index = -1;
    for (const line of statuses) {
      const marker = /^block (\d+)$/.exec(line);
      if (marker) {
        index = Number(marker[1]);
        continue;
      }
      if (!/^\d{3}$/.test(line) || index < 0) continue;
      const status = Number(line);
      const block = blocks[index];
      ran.push(`${file}:${block.line} → ${status}`);
      const expected = new Set([...block.text.matchAll(/→\s*(\d{3})\b/g)].map((match) => Number(match[1])));
      if ((status < 200 || status > 299) && !expected.has(status))
        problems.push(`${file}:${block.line}: a request answered ${status}, which the example does not show`);
    }
    for (const line of result.stderr.split("\n")) {
      if (/syntax error|command not found|unbound variable/.test(line)) problems.push(`${file}: ${line.replace(join(work, "run.sh"), "examples")}`);
    }
    if (result.status !== 0 && statuses.includes("end")) problems.push(`${file}: bash exited with ${result.status}: ${result.stderr.slice(-500)}`);
    rmSync(work, { recursive: true, force: true });
  }
} finally {
  server?.stop();
  rmSync(persistTo, { recursive: true, force: true });
}

console.log(`docs examples: ${ran.length} requests from ${new Set(ran.map((entry) => entry.split(":")[0])).size} files`);
if (problems.length > 0) {
  console.error(problems.map((problem) => `  ✗ ${problem}`).join("\n"));
  process.exit(1);
}
console.log("docs examples: every request answered as its example shows");
