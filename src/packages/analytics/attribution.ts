import referrers from "./referrers.json";

/**
 * Where a visit came from: the referring host, a source name, a channel and the UTM tags. Pure (no I/O) and
 * cheap per event: the referrer list is a plain host → entry object, read with a few property lookups.
 *
 * The list is Snowplow's referer-parser (referers.yml), turned into referrers.json by
 * scripts/update-referrers.mjs (see there what it keeps). The channels follow Plausible's and GA4's default
 * channel groups, reduced to the six below.
 */

/** The channels (`attribute` tries their rules in another order: Paid, Email, Organic Search, Organic Social, Referral, Direct). */
export const CHANNELS = ["Direct", "Organic Search", "Organic Social", "Referral", "Email", "Paid"] as const;
export type Channel = (typeof CHANNELS)[number];

/** The list's groups: "unknown" is a known site of no particular medium (support.google.com, news.yahoo.com). */
export type ReferrerGroup = "unknown" | "email" | "social" | "search" | "paid" | "chatbot";
/** A referrer the list knows: its name ("Google", "Gmail", "Twitter") and group. */
export type KnownReferrer = { name: string; group: ReferrerGroup };

export type Utm = { source: string; medium: string; campaign: string; term: string; content: string };
export type Attribution = {
  /** The referring host, lower case without "www."; "" for none or the site itself. */
  referrer: string;
  /** utm_source, else the list's name for the referrer, else the referring host; "" for none. */
  source: string;
  channel: Channel;
  /** The UTM tags, "" for each one absent. */
  utm: Utm;
};

/** Which version of the upstream list referrers.json was made from (its commit). */
export const REFERRER_LIST_VERSION: string = referrers.v;

// The generated JSON is typed by TypeScript as `{ "t.co": string[], … }`: these are its real shapes.
/** Host (lower case, no "www.") → [name, group]; a host's subdomains are found by walking up its labels. */
const HOSTS = referrers.hosts as unknown as Readonly<Record<string, readonly [name: string, group: ReferrerGroup]>>;
/** The names of the search and social groups, as `sourceKey` writes them → the group. */
const SOURCES = referrers.sources as unknown as Readonly<Record<string, "search" | "social">>;

/** A UTM value's longest length (the queue and the tables keep short text). */
const UTM_MAX = 200;
/** A DNS name's longest length: anything longer is not a host name. */
const HOST_MAX = 253;
/** utm_medium values of paid traffic: cpc, cpm, cpv, ppc, paid_social, retargeting… (GA4's rule). */
const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/i;
/** utm_medium or utm_source values that mean an e-mail (lower case). */
const EMAIL_TAGS: readonly string[] = ["email", "e-mail", "e_mail", "e mail", "newsletter"];
/** utm_medium values that mean a social network (lower case). */
const SOCIAL_MEDIUMS: readonly string[] = ["social", "social-network", "social-media", "sm", "social network", "social media"];

/** A host lower case, without a trailing dot or a leading "www.": the form the list and the reports use. */
function bareHost(host: string): string {
  const lower = host.trim().toLowerCase().replace(/\.$/, "");
  return lower.startsWith("www.") ? lower.slice(4) : lower;
}

/** An http(s) URL, or undefined: a referrer may be anything the page sent (android-app://…, "about:blank", junk). */
function httpUrl(value: string | URL | undefined): URL | undefined {
  if (value instanceof URL) return value.protocol === "http:" || value.protocol === "https:" ? value : undefined;
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}

/** The referring host of a parsed referrer URL, "" for the site itself (see `referrerHost`). */
function hostOf(url: URL | undefined, siteDomain: string): string {
  if (!url) return "";
  const host = bareHost(url.hostname);
  if (host === "" || host.length > HOST_MAX) return "";
  const site = bareHost(siteDomain);
  if (site !== "" && (host === site || host.endsWith(`.${site}`))) return "";
  return host;
}

/**
 * The referring host, lower case without a leading "www." ("news.google.com", "t.co"), which is what the
 * reports group by. "" when there is none to count: no referrer, one that is not an http(s) URL, or the
 * site's own domain or one of its subdomains (a visitor moving between the site's pages came from nowhere new).
 */
export function referrerHost(referrer: string | undefined, siteDomain: string): string {
  return hostOf(httpUrl(referrer), siteDomain);
}

/**
 * The list's entry for a host: the host itself, else its nearest parent domain the list gives
 * ("news.google.de" → Google News; "foo.tumblr.com" → tumblr.com; "mail.google.com" is listed itself, as
 * Gmail). Plain property reads walking up the labels: no index is built, nothing is cached.
 */
export function knownReferrer(host: string): KnownReferrer | undefined {
  let rest = bareHost(host);
  while (rest !== "") {
    if (Object.hasOwn(HOSTS, rest)) {
      const [name, group] = HOSTS[rest]!;
      return { name, group };
    }
    const dot = rest.indexOf(".");
    if (dot === -1) return undefined;
    rest = rest.slice(dot + 1);
  }
  return undefined;
}

/** A utm_source as the list's names are keyed: lower case, letters and digits only ("Hacker_News" → "hackernews"). */
function sourceKey(source: string): string {
  return source.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/** Whether a utm_source names a search engine or a social network of the list ("google", "Facebook"). */
function sourceGroup(source: string): "search" | "social" | undefined {
  const key = sourceKey(source);
  return key !== "" && Object.hasOwn(SOURCES, key) ? SOURCES[key] : undefined;
}

/** Trimmed and cut to UTM_MAX characters, never splitting a surrogate pair (the text is stored). */
function utmValue(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length <= UTM_MAX) return trimmed;
  const code = trimmed.charCodeAt(UTM_MAX - 1);
  return trimmed.slice(0, code >= 0xd800 && code <= 0xdbff ? UTM_MAX - 1 : UTM_MAX).trimEnd();
}

/** The UTM tags of a URL's query string: keys case-insensitive (UTM_Source counts), the first non-empty value of each. */
function utmOf(url: URL | undefined): Utm {
  const utm: Utm = { source: "", medium: "", campaign: "", term: "", content: "" };
  if (!url) return utm;
  for (const [key, value] of url.searchParams) {
    if (!/^utm_/i.test(key)) continue;
    const field = key.slice(4).toLowerCase();
    if (field === "source" || field === "medium" || field === "campaign" || field === "term" || field === "content") {
      if (utm[field] === "") utm[field] = utmValue(value);
    }
  }
  return utm;
}

function hasUtm(utm: Utm): boolean {
  return utm.source !== "" || utm.medium !== "" || utm.campaign !== "" || utm.term !== "" || utm.content !== "";
}

/** The first channel whose rule matches (a tagged paid campaign beats its referrer's group; see `attribute`). */
function channelOf(host: string, group: ReferrerGroup | undefined, utm: Utm): Channel {
  const medium = utm.medium.toLowerCase();
  const source = utm.source.toLowerCase();
  const named = utm.source === "" ? undefined : sourceGroup(utm.source);
  if (PAID_MEDIUM.test(utm.medium) || group === "paid") return "Paid";
  if (EMAIL_TAGS.includes(medium) || EMAIL_TAGS.includes(source) || group === "email") return "Email";
  if (group === "search" || medium === "organic" || named === "search") return "Organic Search";
  if (group === "social" || SOCIAL_MEDIUMS.includes(medium) || named === "social") return "Organic Social";
  // Any other referrer (the list's "unknown" and "chatbot" groups too), or tags that said nothing more.
  if (host !== "" || hasUtm(utm)) return "Referral";
  return "Direct";
}

/**
 * Where a visit came from, from its landing page's URL and the page's referrer (document.referrer):
 * - UTM tags from the landing URL's query string; when it has none, from the referrer URL's (a page that
 *   redirects in script, or a link shortener's page, passes the campaign on that way).
 * - source: utm_source, else the list's name for the referring host (t.co → "Twitter"), else the host.
 * - channel: the first rule that matches — Paid (utm_medium cpc, ppc, paid…, or an ad network), Email
 *   (medium or source email/newsletter, or a webmail), Organic Search (a search engine, utm_medium=organic,
 *   or utm_source naming one), Organic Social (a social network, a social utm_medium, or utm_source naming
 *   one), Referral (any other referrer, or tags matching nothing above), Direct (no referrer, no tags).
 */
export function attribute({ landingUrl, referrer, siteDomain }: { landingUrl: string | URL; referrer?: string | undefined; siteDomain: string }): Attribution {
  const referrerUrl = httpUrl(referrer);
  const host = hostOf(referrerUrl, siteDomain);
  const landingUtm = utmOf(httpUrl(landingUrl));
  // The referrer's tags only when it is another site's page (an internal page's tags would re-credit a campaign).
  const utm = hasUtm(landingUtm) || host === "" ? landingUtm : utmOf(referrerUrl);
  const known = host === "" ? undefined : knownReferrer(host);
  return {
    referrer: host,
    source: utm.source || known?.name || host,
    channel: channelOf(host, known?.group, utm),
    utm,
  };
}
