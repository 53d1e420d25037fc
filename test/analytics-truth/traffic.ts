/**
 * Deterministic synthetic traffic for the analytics ground-truth test.
 *
 * Written from the specification only (contract §10 and the decisions that complete it), never from the
 * implementation. One seeded PRNG (mulberry32) drives every choice: no Math.random, no real clock.
 *
 * Two UTC days on one site: 2026-06-10 (the day under test) and a smaller 2026-06-09 (the previous period for
 * `compare=previous_period`, and a two-day period for the "Σ over days" visitor rule).
 *
 * Shape of the data (each choice keeps the figures unambiguous under the spec; expected.ts re-checks all of it):
 * - every browser visit starts with a pageview, and a visit with any custom event has at least two pageviews
 *   (the spec does not define a bounce; these visits are non-bounces under every usual definition);
 * - gaps inside a visit are at most 10 minutes, gaps between visits at least 34 minutes (the 30-minute rule);
 * - no event in the first or last 35 minutes of a day (no visit crosses midnight);
 * - whole-second event times, except a few "jittered" events inside a visit (never first or last).
 */

export const DOMAIN = "shop.example.com";
export const ORIGIN = `https://${DOMAIN}`;
export const DAY = "2026-06-10";
export const PREVIOUS_DAY = "2026-06-09";

export type Revenue = { amount: number | string; currency: string };

export type Hit = {
  /** Request time (ms since epoch): the test clock is set to it before the request. */
  time: number;
  /** Client IP (cf-connecting-ip): one per simulated browser (a household shares one between two browsers). */
  ip: string;
  /** User-Agent header ("" for server-side events: none is sent). */
  ua: string;
  /** CF-IPCountry header. */
  country?: string;
  /** The request's `cf` object (region and city). */
  cf?: { region: string; city: string };
  body: {
    name: string;
    url: string;
    referrer?: string;
    props?: Record<string, string | number>;
    revenue?: Revenue;
    load?: string;
    seq?: number;
  };
  /** "collect": POST /analytics/collect (public); "server": POST /analytics/events (bearer) with `visitor`. */
  kind: "collect" | "server";
  visitor?: string;
};

/** Real browsers' user agents (the names ua-parser-js 1.x gives them are in expected.ts). */
export const UA = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  iphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  androidChrome: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
  ipad: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
} as const;

/** Crawlers and scripts: accepted (202) and dropped (§10.2, decisions "Bots (isbot) → 202 and dropped"). */
export const BOT_UA = {
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  googlebotSmartphone:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  curl: "curl/8.5.0",
  pythonRequests: "python-requests/2.32.3",
} as const;

/** The site's goals, created before any event is sent (revenue goal: decisions "Revenue"). */
export const GOALS = [
  { type: "event", value: "signup", revenue: false },
  { type: "page", value: "/thank-you", revenue: false },
  { type: "event", value: "donation", revenue: true },
] as const;

/** A custom page funnel with a short window (§10.4): some returning shoppers take longer than it. */
export const CUSTOM_FUNNEL = {
  name: "Product to thank-you",
  steps: [
    { type: "page", value: "/product/*" },
    { type: "page", value: "/cart" },
    { type: "page", value: "/checkout" },
    { type: "page", value: "/thank-you" },
  ],
  window_minutes: 60,
} as const;

/** The built-in funnel every site has (§10.4). */
export const CHECKOUT_FUNNEL = {
  steps: [
    { type: "event", value: "view_item" },
    { type: "event", value: "add_to_cart" },
    { type: "event", value: "begin_checkout" },
    { type: "event", value: "add_payment_info" },
    { type: "event", value: "purchase" },
  ],
  window_minutes: 1440,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: a tiny, well-known 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MIN = 60_000;
const SEC = 1000;
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

// ---------------------------------------------------------------------------------------------------------------
// Where visits come from: landing query (UTM) and referrer. The resulting source/channel is worked out in expected.ts.

type Entry = { query?: string; referrer?: string };
const ENTRIES = {
  direct: {},
  google: { referrer: "https://www.google.com/" },
  bing: { referrer: "https://www.bing.com/" },
  duckduckgo: { referrer: "https://duckduckgo.com/" },
  twitter: { referrer: "https://t.co/Xk3pQ9zLm2" },
  facebook: { referrer: "https://www.facebook.com/" },
  linkedin: { referrer: "https://www.linkedin.com/feed/" },
  reddit: { referrer: "https://www.reddit.com/r/running/comments/1d2x3y/new_trail_shoes/" },
  /** UTM on the landing url, no referrer: Email by utm_medium. */
  newsletter: { query: "utm_source=newsletter&utm_medium=email&utm_campaign=june_sale&utm_content=header_link" },
  /** A webmail referrer (the list's email group) with a utm_source but no utm_medium. */
  gmail: { referrer: "https://mail.google.com/", query: "utm_source=digest&utm_campaign=weekly_digest" },
  /** Paid search: utm_medium=cpc (first channel rule), arriving from Google. */
  googleAdsA: { referrer: "https://www.google.com/", query: "utm_source=google&utm_medium=cpc&utm_campaign=brand&utm_term=running_shoes&utm_content=ad_a" },
  googleAdsB: { referrer: "https://www.google.com/", query: "utm_source=google&utm_medium=cpc&utm_campaign=brand&utm_term=trail_shoes&utm_content=ad_b" },
  bingAds: { referrer: "https://www.bing.com/", query: "utm_source=bing&utm_medium=ppc&utm_campaign=generic&utm_term=running_shoes" },
  /** Social by utm_medium, no referrer. */
  instagram: { query: "utm_source=instagram&utm_medium=social&utm_campaign=summer_drop" },
  /** Unlisted referrers: Referral (one with "www." to strip). */
  blog: { referrer: "https://blog.example.org/2026/06/best-running-shoes" },
  friend: { referrer: "https://www.somefriend.net/links" },
  /** UTM only in the referrer url (decisions: "when the landing url has none of them, from the referrer url's query string"). */
  partnerReview: { referrer: "https://blog.example.org/review?utm_source=partnerblog&utm_medium=referral&utm_campaign=review_june" },
  partnerMail: { referrer: "https://links.partner-mail.net/c/8f2a?utm_source=partner&utm_medium=email&utm_campaign=june_sale" },
  /** UTM tags without a referrer that match no other rule: Referral. */
  partnerSite: { query: "utm_source=partner_site&utm_campaign=collab" },
  /** utm_source naming a search engine, no medium, no referrer: Organic Search. */
  duckduckgoTagged: { query: "utm_source=duckduckgo&utm_campaign=privacy_week" },
  /** The site itself and a subdomain of it as referrer: no referrer (""), so Direct. */
  self: { referrer: `${ORIGIN}/blog/spring-sale` },
  subdomain: { referrer: "https://help.shop.example.com/faq/shipping" },
} satisfies Record<string, Entry>;
type EntryName = keyof typeof ENTRIES;

/** Typical mixes of entries, weighted. */
const MIX = {
  casual: [
    ["direct", 8],
    ["google", 10],
    ["bing", 3],
    ["duckduckgo", 2],
    ["twitter", 3],
    ["facebook", 3],
    ["linkedin", 2],
    ["reddit", 2],
    ["blog", 2],
    ["friend", 1],
    ["instagram", 2],
    ["self", 1],
    ["subdomain", 1],
    ["partnerSite", 1],
    ["duckduckgoTagged", 1],
  ],
  shopping: [
    ["direct", 5],
    ["google", 5],
    ["googleAdsA", 4],
    ["googleAdsB", 2],
    ["bingAds", 2],
    ["newsletter", 4],
    ["gmail", 2],
    ["facebook", 2],
    ["twitter", 1],
    ["partnerReview", 2],
    ["partnerMail", 2],
    ["blog", 1],
  ],
} satisfies Record<string, [EntryName, number][]>;

/** Locations: CF-IPCountry plus the `cf` object; some with a country only, some with nothing. */
type Location = { country?: string; cf?: { region: string; city: string } };
const LOCATIONS: [Location, number][] = [
  [{ country: "DE", cf: { region: "Berlin", city: "Berlin" } }, 10],
  [{ country: "DE", cf: { region: "Bavaria", city: "Munich" } }, 6],
  [{ country: "DE" }, 3],
  [{ country: "US", cf: { region: "California", city: "San Francisco" } }, 8],
  [{ country: "US", cf: { region: "New York", city: "New York" } }, 6],
  [{ country: "GB", cf: { region: "England", city: "London" } }, 6],
  [{ country: "FR", cf: { region: "Île-de-France", city: "Paris" } }, 4],
  [{ country: "NL", cf: { region: "North Holland", city: "Amsterdam" } }, 3],
  [{ country: "JP", cf: { region: "Tokyo", city: "Tokyo" } }, 2],
  [{}, 3],
];

const BROWSER_MIX: [string, number][] = [
  [UA.chromeWindows, 30],
  [UA.iphone, 20],
  [UA.androidChrome, 15],
  [UA.safariMac, 10],
  [UA.firefoxLinux, 8],
  [UA.edgeWindows, 8],
  [UA.ipad, 5],
  [UA.chromeMac, 4],
];

const PRODUCTS = ["trail-runner", "road-racer", "city-walker", "hiking-boot", "sprint-spike", "rain-jacket", "wool-socks", "running-cap"];
const CONTENT_PAGES = ["/", "/about", "/pricing", "/blog/how-to-choose", "/blog/spring-sale", "/contact", "/faq"];

/** Purchase revenue in every accepted form (§10.5 "Forgiving collection", decisions "revenue.amount"). */
const PURCHASES: Revenue[] = [
  { amount: 4999, currency: "EUR" }, // integer: minor units → 4999 EUR
  { amount: "49.99", currency: "EUR" }, // decimal string: major units → 4999 EUR
  { amount: 19.95, currency: "USD" }, // non-integer number: major units → 1995 USD
  { amount: "129", currency: "eur" }, // integer string: major units → 12900 EUR; currency case-insensitive
  { amount: 8900, currency: "USD" }, // 8900 USD
  { amount: "12800", currency: "JPY" }, // JPY has no minor unit → 12800 JPY
  { amount: 59.5, currency: "EUR" }, // → 5950 EUR
  { amount: 2400, currency: "JPY" }, // integer: minor units (= yen) → 2400 JPY
];
/** Donations: counted through the revenue goal on `donation`. */
const DONATIONS: Revenue[] = [
  { amount: "25", currency: "EUR" }, // → 2500 EUR
  { amount: 1000, currency: "EUR" }, // → 1000 EUR
  { amount: 7.5, currency: "USD" }, // → 750 USD
  { amount: "10.00", currency: "usd" }, // → 1000 USD
  { amount: 500, currency: "JPY" }, // → 500 JPY
];
/** A prop value over 200 characters (cut to 200). */
export const LONG_COUPON = `LONG-${"0123456789".repeat(25)}`;

// ---------------------------------------------------------------------------------------------------------------
// The generator

type Who = { ip: string; ua: string } & Location;

class Traffic {
  readonly hits: Hit[] = [];
  private readonly rand: () => number;
  private ipCount = 0;
  private loadCount = 0;

  constructor(seed: number) {
    this.rand = mulberry32(seed);
  }

  float(): number {
    return this.rand();
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    const total = pairs.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.rand() * total;
    for (const [item, weight] of pairs) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return pairs[pairs.length - 1]![0];
  }
  shuffle<T>(items: T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.rand() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  entry(mix: keyof typeof MIX): Entry {
    return ENTRIES[this.weighted(MIX[mix])];
  }

  /** A fresh client IP (100.64.0.0/10, one per browser). */
  nextIp(): string {
    this.ipCount += 1;
    return `100.64.${Math.floor(this.ipCount / 200)}.${(this.ipCount % 200) + 1}`;
  }
  /** A page-load id (decisions: 1–64 of [A-Za-z0-9_-]); unique thanks to the counter suffix. */
  loadId(): string {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let id = "";
    for (let i = 0; i < 10; i++) id += alphabet[Math.floor(this.rand() * alphabet.length)];
    this.loadCount += 1;
    return `${id}-${this.loadCount.toString(36)}`;
  }

  /** A new simulated browser: its own IP (or a given one), a user agent and a location. */
  who(options: { ip?: string; ua?: string } = {}): Who {
    return { ip: options.ip ?? this.nextIp(), ua: options.ua ?? this.weighted(BROWSER_MIX), ...this.weighted(LOCATIONS) };
  }
  browser(who: Who): Browser {
    return new Browser(this, who);
  }
  product(): string {
    return `/product/${this.pick(PRODUCTS)}`;
  }
  /** A time on `day` between `fromMinute` and `toMinute` after midnight, on a whole second. */
  timeOn(day: string, fromMinute: number, toMinute: number): number {
    return dayStart(day) + this.int(fromMinute * 60, toMinute * 60) * SEC;
  }
}

/** One browser (IP + user agent) as the tracker would report it: a pageview per page load, events within a load. */
class Browser {
  private t = 0;
  private url = "";
  private load = "";
  private seq = 0;

  constructor(
    private readonly g: Traffic,
    private readonly who: Who,
  ) {}

  private push(body: Hit["body"], time = this.t) {
    this.g.hits.push({
      time,
      ip: this.who.ip,
      ua: this.who.ua,
      ...(this.who.country ? { country: this.who.country } : {}),
      ...(this.who.cf ? { cf: this.who.cf } : {}),
      body,
      kind: "collect",
    });
  }
  private pageview(url: string, referrer?: string) {
    this.url = url;
    this.load = this.g.loadId();
    this.seq = 0;
    this.push({ name: "pageview", url, ...(referrer ? { referrer } : {}), load: this.load, seq: this.seq++ });
  }

  /** Starts a visit at `time` on `path`, coming from `entry` (its UTM query goes on the landing url). */
  land(time: number, path: string, entry: Entry): this {
    this.t = time;
    this.pageview(`${ORIGIN}${path}${entry.query ? `?${entry.query}` : ""}`, entry.referrer);
    return this;
  }
  /** Navigates to `path` after `seconds` (a new page load; the referrer is the previous page). */
  view(path: string, seconds: number): this {
    const previous = this.url;
    this.t += seconds * SEC;
    this.pageview(`${ORIGIN}${path}`, previous);
    return this;
  }
  /** A custom event on the current page after `seconds`. */
  event(name: string, seconds: number, extra: { props?: Record<string, string | number>; revenue?: Revenue } = {}): this {
    this.t += seconds * SEC;
    this.push({ name, url: this.url, load: this.load, seq: this.seq++, ...extra });
    return this;
  }
  /** Several events fired by one click at the same millisecond (seq in firing order), sent in shuffled order. */
  burst(events: { name: string; revenue?: Revenue }[], seconds: number): this {
    this.t += seconds * SEC;
    const bodies = events.map((e) => ({ name: e.name, url: this.url, load: this.load, seq: this.seq++, ...(e.revenue ? { revenue: e.revenue } : {}) }));
    for (const body of this.g.shuffle(bodies)) this.push(body);
    return this;
  }
  /**
   * Several events of one click whose requests arrive in reverse order, 40 ms apart: the last-fired one arrives first
   * (decisions "Ordering": the k-th smallest arrival time goes to the k-th smallest seq, so they count in seq order).
   */
  jittered(names: string[], seconds: number): this {
    this.t += seconds * SEC;
    const bodies = names.map((name) => ({ name, url: this.url, load: this.load, seq: this.seq++ }));
    bodies.reverse().forEach((body, i) => {
      this.push(body, this.t + i * 40);
    });
    return this;
  }
  /** Leaves for `minutes` (≥ 34: the next `land` starts a new visit). */
  away(minutes: number): number {
    return this.t + minutes * MIN;
  }
  get now(): number {
    return this.t;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Behaviours

const ADD_TO_CART_NAMES = ["add_to_cart", "Add To Cart", " ADD  TO  CART ", "Add To Cart"]; // all normalise to add_to_cart

function bounce(g: Traffic, b: Browser, start: number) {
  const page = g.weighted<string>([
    ["/", 5],
    ["/blog/how-to-choose", 3],
    ["/blog/spring-sale", 2],
    [g.product(), 3],
    ["/pricing", 1],
  ]);
  b.land(start, page, g.entry("casual"));
}

function browse(g: Traffic, b: Browser, start: number, mix: keyof typeof MIX = "casual") {
  b.land(start, g.pick(["/", "/blog/how-to-choose", "/blog/spring-sale", g.product()]), g.entry(mix));
  const more = g.int(1, 4);
  for (let i = 0; i < more; i++) b.view(g.float() < 0.5 ? g.product() : g.pick(CONTENT_PAGES), g.int(10, 300));
  // A newsletter opt-in with a name the collector normalises ("Newsletter Signup!" → newsletter_signup).
  if (g.float() < 0.2) b.event("Newsletter Signup!", g.int(5, 60), { props: { list: "weekly" } });
}

/** A shopper who stops after `depth` checkout steps (1–4). */
function partial(g: Traffic, b: Browser, start: number, depth: number) {
  const product = g.product();
  b.land(start, g.pick(["/", "/blog/how-to-choose", g.product()]), g.entry("shopping"));
  b.view(product, g.int(5, 120)).event("view_item", g.int(2, 20), { props: { item: product.slice(9) } });
  if (depth >= 2) {
    // Revenue on a non-purchase event: stored, never summed (§10.5, decisions "Revenue").
    const revenue = g.float() < 0.4 ? { revenue: { amount: 4999, currency: "EUR" } } : {};
    b.event(g.pick(ADD_TO_CART_NAMES), g.int(10, 180), { props: { item: product.slice(9), qty: g.int(1, 3) }, ...revenue });
    b.view("/cart", g.int(5, 60));
  }
  if (depth >= 3) b.view("/checkout", g.int(10, 120)).event("begin_checkout", g.int(2, 10));
  if (depth >= 4) b.event("add_payment_info", g.int(20, 240));
}

/** The full checkout, one request per step, ending on /thank-you. */
function buyer(g: Traffic, b: Browser, start: number, revenue: Revenue) {
  const product = g.product();
  b.land(start, g.pick(["/", product]), g.entry("shopping"));
  b.view(product, g.int(5, 90)).event("view_item", g.int(2, 15), { props: { item: product.slice(9) } });
  b.event(g.pick(ADD_TO_CART_NAMES), g.int(10, 120), { props: { item: product.slice(9), qty: 1 } });
  b.view("/cart", g.int(5, 60));
  b.view("/checkout", g.int(10, 90)).event("begin_checkout", g.int(2, 10));
  b.event("add_payment_info", g.int(20, 200)).event("purchase", g.int(5, 60), { revenue, props: { items: 1 } });
  b.view("/thank-you", g.int(2, 8));
}

/** "Buy now": all five checkout steps fired by one click at the same millisecond, sent in shuffled order. */
function burstBuyer(g: Traffic, b: Browser, start: number, revenue: Revenue) {
  b.land(start, "/", g.entry("shopping"));
  b.view(g.product(), g.int(10, 90));
  b.burst(
    [{ name: "View Item" }, { name: "Add To Cart" }, { name: "begin_checkout" }, { name: "Add Payment Info" }, { name: "purchase", revenue }],
    g.int(10, 120),
  );
  b.view("/thank-you", g.int(20, 90));
}

/**
 * Steps out of order: add_to_cart before view_item (in time and in seq), then the rest of the checkout.
 * The checkout funnel reaches step 1 only (no add_to_cart after the view_item); the page funnel completes.
 */
function outOfOrderBuyer(g: Traffic, b: Browser, start: number, revenue: Revenue) {
  const product = g.product();
  b.land(start, "/", g.entry("shopping"));
  b.view(product, g.int(10, 60)).event("add_to_cart", g.int(5, 30)).event("view_item", g.int(5, 30));
  b.view("/cart", g.int(10, 60));
  b.view("/checkout", g.int(10, 60)).event("begin_checkout", g.int(2, 10)).event("add_payment_info", g.int(20, 120));
  b.event("purchase", g.int(5, 40), { revenue });
  b.view("/thank-you", g.int(2, 8));
}

/** view_item and add_to_cart of one click arrive reversed (40 ms apart): counted in seq order. */
function jitterShopper(g: Traffic, b: Browser, start: number, revenue: Revenue | undefined) {
  b.land(start, "/", g.entry("shopping"));
  b.view(g.product(), g.int(10, 60)).jittered(["view_item", "add_to_cart"], g.int(5, 60));
  b.view("/cart", g.int(10, 60));
  b.view("/checkout", g.int(10, 60)).event("begin_checkout", g.int(2, 10)).event("add_payment_info", g.int(20, 120));
  if (revenue) b.event("purchase", g.int(5, 40), { revenue }).view("/thank-you", g.int(2, 8));
  else b.view("/", g.int(20, 60));
}

/**
 * Two visits: a product looked at, then back `gapMinutes` later straight to the cart and through checkout.
 * Checkout funnel (window 1,440 min): complete. Page funnel (window 60 min): complete only when the whole journey
 * stays within 60 minutes of the product view ("quick"), else step 1 only ("slow").
 */
function returningBuyer(g: Traffic, b: Browser, start: number, revenue: Revenue, gapMinutes: number, secondEntry: Entry) {
  const product = g.product();
  b.land(start, product, g.entry("shopping")).event("view_item", g.int(5, 20), { props: { item: product.slice(9) } });
  b.event("add_to_cart", g.int(10, 50)).view("/about", g.int(10, 60));
  b.land(b.away(gapMinutes), "/cart", secondEntry);
  b.view("/checkout", g.int(10, 50)).event("begin_checkout", g.int(2, 10)).event("add_payment_info", g.int(10, 60));
  b.event("purchase", g.int(5, 30), { revenue }).view("/thank-you", g.int(2, 8));
}

/** Pricing → sign-up form → `signup` event (goal) with a plan (the prop: breakdown) and sometimes a coupon. */
function signup(g: Traffic, b: Browser, start: number, coupon: string | undefined) {
  if (g.float() < 0.5) b.land(start, "/pricing", g.entry("casual"));
  else b.land(start, "/", g.entry("casual")).view("/pricing", g.int(10, 120));
  b.view("/signup", g.int(10, 120));
  b.event("signup", g.int(20, 180), { props: { plan: g.float() < 0.55 ? "pro" : "basic", ...(coupon ? { coupon } : {}) } });
  b.view("/welcome", g.int(2, 10));
}

function donor(g: Traffic, b: Browser, start: number, revenue: Revenue) {
  b.land(start, "/", g.entry("casual")).view("/donate", g.int(10, 90));
  b.event("donation", g.int(20, 120), { revenue }).view("/", g.int(5, 30));
}

/** Two browsing visits of one browser, the second from somewhere else. */
function twoVisits(g: Traffic, b: Browser, start: number) {
  browse(g, b, start);
  browse(g, b, b.away(g.int(40, 180)), "shopping");
}

/** Server-side events (POST /analytics/events): two per visit, no pageview, no UA or location. */
function server(g: Traffic, visitor: string, start: number, revenue: Revenue, sameMillisecond = false) {
  const base = { time: start, ip: "192.0.2.10", ua: "", kind: "server" as const, visitor };
  const url = `${ORIGIN}/api/billing/webhook`;
  if (sameMillisecond) {
    // Both at once, with seq, the second-fired one sent first (§10.5: "Server events may send seq too").
    g.hits.push({ ...base, body: { name: "purchase", url, revenue, seq: 1 } });
    g.hits.push({ ...base, body: { name: "invoice_paid", url, props: { plan: "pro" }, seq: 0 } });
  } else {
    g.hits.push({ ...base, body: { name: "invoice_paid", url, props: { plan: "pro" } } });
    g.hits.push({ ...base, time: start + g.int(30, 90) * SEC, body: { name: "purchase", url, revenue } });
  }
}

/** A crawler or script: pageviews spread over the day from one IP (all dropped). */
function bot(g: Traffic, ua: string, ip: string, day: string, count: number) {
  for (let i = 0; i < count; i++) {
    const path = g.float() < 0.5 ? g.product() : g.pick(CONTENT_PAGES);
    g.hits.push({ time: g.timeOn(day, 40, 1390), ip, ua, kind: "collect", body: { name: "pageview", url: `${ORIGIN}${path}` } });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The two days

/** Sessions start between 00:40 and 21:30 (multi-visit ones before 19:00), so every visit ends well before midnight. */
const EARLY = 40;
const LATE = 21 * 60 + 30;
const LATE_MULTI = 19 * 60;

export function generateTraffic(seed = 20260610): Hit[] {
  const g = new Traffic(seed);
  let purchase = 0;
  const nextPurchase = () => PURCHASES[purchase++ % PURCHASES.length]!;
  let donation = 0;
  const nextDonation = () => DONATIONS[donation++ % DONATIONS.length]!;

  // --- 2026-06-09: the previous period (smaller) ---
  const d1 = PREVIOUS_DAY;
  const repeaters: Who[] = [];
  for (let i = 0; i < 12; i++) bounce(g, g.browser(g.who()), g.timeOn(d1, EARLY, LATE));
  for (let i = 0; i < 10; i++) {
    const who = g.who();
    if (i < 3) repeaters.push(who); // the same IP + user agent comes back on 06-10: another visitor then
    browse(g, g.browser(who), g.timeOn(d1, EARLY, LATE));
  }
  for (let i = 0; i < 5; i++) partial(g, g.browser(g.who()), g.timeOn(d1, EARLY, LATE), 1 + (i % 4));
  for (let i = 0; i < 6; i++) buyer(g, g.browser(g.who()), g.timeOn(d1, EARLY, LATE), PURCHASES[(i * 3) % PURCHASES.length]!);
  for (let i = 0; i < 4; i++) signup(g, g.browser(g.who()), g.timeOn(d1, EARLY, LATE), i === 0 ? "SPRING24" : undefined);
  for (let i = 0; i < 2; i++) donor(g, g.browser(g.who()), g.timeOn(d1, EARLY, LATE), DONATIONS[i]!);
  twoVisits(g, g.browser(g.who()), g.timeOn(d1, EARLY, LATE_MULTI));
  server(g, "cust_1001", g.timeOn(d1, EARLY, LATE), { amount: 2900, currency: "USD" }); // also active on 06-10
  server(g, "cust_0901", g.timeOn(d1, EARLY, LATE), { amount: 9900, currency: "EUR" });
  bot(g, BOT_UA.googlebot, "66.249.66.1", d1, 8);
  bot(g, BOT_UA.curl, "203.0.113.50", d1, 3);

  // --- 2026-06-10: the day under test ---
  const d2 = DAY;
  const early = () => g.timeOn(d2, EARLY, LATE);
  const earlyMulti = () => g.timeOn(d2, EARLY, LATE_MULTI);
  for (let i = 0; i < 40; i++) bounce(g, g.browser(g.who()), early());
  for (let i = 0; i < 48; i++) browse(g, g.browser(g.who()), early());
  for (const who of repeaters) browse(g, g.browser(who), early());
  for (let i = 0; i < 6; i++) twoVisits(g, g.browser(g.who()), earlyMulti());
  for (let i = 0; i < 24; i++) partial(g, g.browser(g.who()), early(), 1 + (i % 4));
  for (let i = 0; i < 16; i++) buyer(g, g.browser(g.who()), early(), nextPurchase());
  for (let i = 0; i < 5; i++) burstBuyer(g, g.browser(g.who()), early(), nextPurchase());
  for (let i = 0; i < 4; i++) outOfOrderBuyer(g, g.browser(g.who()), early(), nextPurchase());
  for (let i = 0; i < 4; i++) jitterShopper(g, g.browser(g.who()), early(), i % 2 === 0 ? nextPurchase() : undefined);
  for (let i = 0; i < 4; i++) {
    const second = i % 2 === 0 ? ENTRIES.newsletter : ENTRIES.direct;
    returningBuyer(g, g.browser(g.who()), earlyMulti(), nextPurchase(), g.int(90, 180), second); // slow: past the 60-min window
  }
  for (let i = 0; i < 3; i++) returningBuyer(g, g.browser(g.who()), earlyMulti(), nextPurchase(), g.int(34, 38), ENTRIES.direct); // quick
  const coupons = ["SPRING24", undefined, "WELCOME10", LONG_COUPON, undefined, "SPRING24"];
  for (let i = 0; i < 12; i++) signup(g, g.browser(g.who()), early(), coupons[i % coupons.length]);
  for (let i = 0; i < 5; i++) donor(g, g.browser(g.who()), early(), nextDonation());
  // Households: a second browser behind an IP already used (another user agent: another visitor).
  for (let i = 0; i < 3; i++) {
    const first = g.who({ ua: UA.chromeWindows });
    browse(g, g.browser(first), early());
    browse(g, g.browser({ ...first, ua: i === 0 ? UA.iphone : UA.ipad }), early());
  }
  server(g, "cust_1001", early(), { amount: 2900, currency: "USD" });
  server(g, "cust_1002", early(), { amount: 4900, currency: "USD" });
  server(g, "cust_1003", early(), { amount: 1900, currency: "EUR" }, true);
  server(g, "cust_1004", early(), { amount: "99.00", currency: "USD" });
  server(g, "cust_1005", early(), { amount: 12.5, currency: "EUR" });
  bot(g, BOT_UA.googlebot, "66.249.66.1", d2, 30);
  bot(g, BOT_UA.googlebotSmartphone, "66.249.66.2", d2, 10);
  bot(g, BOT_UA.bingbot, "157.55.39.1", d2, 15);
  bot(g, BOT_UA.curl, "203.0.113.50", d2, 5);
  bot(g, BOT_UA.pythonRequests, "203.0.113.51", d2, 5);

  // Time order (stable: a burst keeps its shuffled sending order).
  return [...g.hits].sort((a, b) => a.time - b.time);
}
