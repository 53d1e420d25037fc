// node scripts/update-referrers.mjs <path/to/referers.yml> [--version <upstream commit or date>]
//
// Writes src/packages/analytics/referrers.json, the referrer list the web-analytics attribution
// (src/packages/analytics/attribution.ts) imports, from Snowplow's referer-parser list
// (https://github.com/snowplow-referer-parser/referer-parser/blob/master/resources/referers.yml).
// The worker never parses YAML: this script turns the list into a plain host → [name, group] object once,
// and the JSON is committed. Deterministic: the same list and version give the same file.
//
// What it keeps, and why (the list has ~2,500 domains; the JSON ships in the worker bundle):
// - Keys are hosts, lower case, without a leading "www." (attribution.ts strips it from the referrer too).
// - Path-specific entries ("google.de/imgres", "bing.com/images/search", "orange.fr/webmail", …) are dropped:
//   browsers send only the origin of a cross-site referrer (the default policy strict-origin-when-cross-origin),
//   so a path rarely reaches the collector. Nearly all of them (Google Images, Google Product Search, Bing
//   Images) sit on a host the list already gives in the same group; the others (orange.fr/webmail,
//   apollo.lv/portal/search/, inbox.com/search/) would mislabel a whole host if promoted to it.
// - Android app ids ("com.google.android.gm", "org.telegram.messenger") are dropped: they only match
//   android-app:// referrers, which attribution.ts does not read (http and https only).
// - A host whose nearest listed parent domain has the same [name, group] is dropped ("m.facebook.com" under
//   "facebook.com"): the lookup walks up the labels and finds the same answer there.
// - "sources": the names of the search and social groups, lower case with letters and digits only ("Yahoo!" →
//   "yahoo"), so that a utm_source naming one ("google", "Facebook", "hacker_news") is recognised. A name in
//   both groups counts as search, the channel rule that comes first.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "yaml";

const OUT = new URL("../src/packages/analytics/referrers.json", import.meta.url);
/** The list's groups, in its order; attribution.ts maps each to a channel, so a new one must be looked at. */
const GROUPS = ["unknown", "email", "social", "search", "paid", "chatbot"];

const USAGE = `Usage: node scripts/update-referrers.mjs <path/to/referers.yml> [--version <upstream commit or date>]

Get the upstream list and the commit it is at:
  curl -fsSL -o /tmp/referers.yml \\
    https://raw.githubusercontent.com/snowplow-referer-parser/referer-parser/master/resources/referers.yml
  git ls-remote https://github.com/snowplow-referer-parser/referer-parser refs/heads/master
then
  node scripts/update-referrers.mjs /tmp/referers.yml --version <that commit>
  npx biome check src/packages/analytics/referrers.json

Without --version, "v" is today's date (UTC). Writes ${decodeURIComponent(OUT.pathname)}.`;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { version: { type: "string" }, help: { type: "boolean", short: "h" } } });
if (values.help || positionals.length !== 1) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 1);
}
const text = readFileSync(positionals[0], "utf8");
const version = values.version ?? new Date().toISOString().slice(0, 10);
const list = parse(text);

/** An Android app id (reverse domain, "com.twitter.android"): only ever an android-app:// referrer. */
const isAppId = (domain) => /^(com|org|net|io)\./.test(domain);

const hosts = new Map(); // host → [name, group], in the list's order
const dropped = { paths: [], apps: [], duplicates: [] };
for (const [group, providers] of Object.entries(list)) {
  if (!GROUPS.includes(group)) throw new Error(`unknown group "${group}" in the list: teach attribution.ts its channel, then add it to GROUPS`);
  for (const [name, entry] of Object.entries(providers)) {
    if (!Array.isArray(entry?.domains)) throw new Error(`${group} / ${name}: no domains`);
    for (const domain of entry.domains) {
      const raw = String(domain).trim().toLowerCase();
      if (raw.includes("/")) {
        dropped.paths.push(`${raw} (${name}, ${group})`);
        continue;
      }
      if (isAppId(raw)) {
        dropped.apps.push(raw);
        continue;
      }
      const host = raw.replace(/^www\./, "").replace(/\.$/, "");
      const known = hosts.get(host);
      if (known) {
        if (known[0] !== name || known[1] !== group) dropped.duplicates.push(`${host}: ${name} (${group}), kept ${known[0]} (${known[1]})`);
        continue;
      }
      hosts.set(host, [name, group]);
    }
  }
}

// Hosts the upstream list does not have yet (checked 2025-11): added here, so a regenerated file keeps them.
// Remove an entry once upstream lists it.
const LOCAL_ADDITIONS = [
  ["x.com", "Twitter", "social"],
  ["bsky.app", "Bluesky", "social"],
];
for (const [host, name, group] of LOCAL_ADDITIONS) if (!hosts.has(host)) hosts.set(host, [name, group]);

/** The nearest listed parent domain of a host ("m.facebook.com" → "facebook.com"), as the lookup walks. */
function parentEntry(host) {
  for (let dot = host.indexOf("."); dot !== -1; dot = host.indexOf(".", dot + 1)) {
    const entry = hosts.get(host.slice(dot + 1));
    if (entry) return entry;
  }
  return undefined;
}
// Dropping a host its parent already answers never changes another host's answer: whoever found it first
// now finds the parent, which says the same.
const kept = [...hosts].filter(([host, [name, group]]) => {
  const parent = parentEntry(host);
  return !parent || parent[0] !== name || parent[1] !== group;
});

/** As attribution.ts reads a utm_source: lower case, letters and digits only ("Yahoo!" → "yahoo", "hacker_news" → "hackernews"). */
const sourceKey = (name) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
const sources = new Map();
for (const group of ["search", "social"]) {
  for (const name of Object.keys(list[group] ?? {})) {
    const key = sourceKey(name);
    // A name needs a letter ("1&1" would be "11"); one in both groups stays search, the channel rule that comes first.
    if (/\p{L}/u.test(key) && !sources.has(key)) sources.set(key, group);
  }
}

// Written as biome formats it (one entry a line), so that `biome check` leaves it alone.
const line = (key, value) => `    ${JSON.stringify(key)}: ${JSON.stringify(value).replace(/","/g, '", "')}`;
const json = `{
  "v": ${JSON.stringify(version)},
  "hosts": {
${kept.map(([host, entry]) => line(host, entry)).join(",\n")}
  },
  "sources": {
${[...sources].map(([key, group]) => line(key, group)).join(",\n")}
  }
}
`;
writeFileSync(OUT, json);

const count = (group) => kept.filter(([, entry]) => entry[1] === group).length;
console.log(`${decodeURIComponent(OUT.pathname)}: v ${version}, list sha256 ${createHash("sha256").update(text).digest("hex").slice(0, 12)}`);
console.log(`  ${kept.length} hosts (${GROUPS.map((group) => `${group} ${count(group)}`).join(", ")}), ${sources.size} source names`);
console.log(`  dropped: ${hosts.size - kept.length} hosts a parent answers, ${dropped.paths.length} path entries, ${dropped.apps.length} app ids`);
for (const path of dropped.paths.filter((path) => !/\/(imgres|products) \(Google/.test(path))) console.log(`    path: ${path}`);
for (const duplicate of dropped.duplicates) console.warn(`  listed twice: ${duplicate}`);
console.log(`  ${Buffer.byteLength(json)} bytes`);
