import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Every table here lives in the analytics database (ANALYTICS_DB, migrations-analytics/), so collecting
// events never contends with business writes. Nothing stores an IP address or a user agent.

export const sites = sqliteTable(
  "analytics_sites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull(),
    /** Lower case, without a leading "www."; its subdomains count as the site. */
    domain: text("domain").notNull(),
    /** `site_` + 16 random bytes base62: public, it goes in the web pages' snippet. */
    siteKey: text("site_key").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [index("analytics_sites_workspace_idx").on(table.workspaceId, table.id)],
);

/** Raw events; deleted after 400 days by the cron (the daily rollups stay). */
export const events = sqliteTable(
  "analytics_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The queue message it came from: a redelivered message is written once. */
    eventKey: text("event_key").notNull().unique(),
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    /** 16 hex characters: SHA-256 of a daily salt, the site and the client, or of the site and a caller's id. */
    visitor: text("visitor").notNull(),
    visitId: text("visit_id").notNull(),
    name: text("name").notNull(),
    /** URL path without the query string. */
    path: text("path").notNull(),
    /** Where the visit came from: the referring host of its first event ("" when none or the site itself). */
    referrer: text("referrer").notNull(),
    country: text("country").notNull(),
    device: text("device").notNull(),
    props: text("props"),
    revenueAmount: integer("revenue_amount"),
    revenueCurrency: text("revenue_currency"),
    ts: integer("ts").notNull(),
    /**
     * The visitor's order: ts × 1024 + the event's seq within its page load (capped at 1023). Events one
     * click fired in the same millisecond keep the order the page fired them in (funnels compare this).
     */
    ord: integer("ord").notNull().default(0),
    /** browser (a tracker's request) or server (POST /analytics/events): how its visitor id lasts. */
    kind: text("kind", { enum: ["browser", "server"] })
      .notNull()
      .default("browser"),
    browser: text("browser").notNull().default(""),
    browserVersion: text("browser_version").notNull().default(""),
    os: text("os").notNull().default(""),
    osVersion: text("os_version").notNull().default(""),
    region: text("region").notNull().default(""),
    city: text("city").notNull().default(""),
    // The visit's attribution, copied onto each of its events so a filter on it reads one table.
    source: text("source").notNull().default(""),
    channel: text("channel").notNull().default("Direct"),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    utmTerm: text("utm_term").notNull().default(""),
    utmContent: text("utm_content").notNull().default(""),
  },
  (table) => [
    index("analytics_events_site_ts_idx").on(table.workspaceId, table.siteId, table.ts),
    index("analytics_events_site_name_ts_idx").on(table.workspaceId, table.siteId, table.name, table.ts),
    // A page filter (pageviews of one path) reads only that path's rows.
    index("analytics_events_site_name_path_ts_idx").on(table.workspaceId, table.siteId, table.name, table.path, table.ts),
    index("analytics_events_site_visitor_ord_idx").on(table.workspaceId, table.siteId, table.visitor, table.name, table.ord),
  ],
);

/** A visit: a visitor's events with no gap of 30 minutes. */
export const visits = sqliteTable(
  "analytics_visits",
  {
    id: text("id").primaryKey(),
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    visitor: text("visitor").notNull(),
    /** The UTC day the visit started (YYYY-MM-DD): its rollup row. */
    day: text("day").notNull(),
    /** The referring host of its first event: every event of the visit is attributed to it. */
    referrer: text("referrer").notNull(),
    startedAt: integer("started_at").notNull(),
    lastAt: integer("last_at").notNull(),
    pageviews: integer("pageviews").notNull(),
    events: integer("events").notNull(),
    kind: text("kind", { enum: ["browser", "server"] })
      .notNull()
      .default("browser"),
    /** Paths of the visit's first and last pageview ("" while it has none). */
    entryPage: text("entry_page").notNull().default(""),
    exitPage: text("exit_page").notNull().default(""),
    /** The ord of its first and last pageview: a late-arriving earlier pageview moves the entry page. */
    entryOrd: integer("entry_ord").notNull().default(0),
    exitOrd: integer("exit_ord").notNull().default(0),
    source: text("source").notNull().default(""),
    channel: text("channel").notNull().default("Direct"),
    utmSource: text("utm_source").notNull().default(""),
    utmMedium: text("utm_medium").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    utmTerm: text("utm_term").notNull().default(""),
    utmContent: text("utm_content").notNull().default(""),
  },
  (table) => [
    index("analytics_visits_visitor_idx").on(table.workspaceId, table.siteId, table.visitor, table.lastAt),
    index("analytics_visits_site_started_idx").on(table.workspaceId, table.siteId, table.startedAt),
  ],
);

/** One row per visitor and day: the visitors of a day, and of a period for visitor ids that last (server events). */
export const visitorDays = sqliteTable(
  "analytics_visitor_days",
  {
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    day: text("day").notNull(),
    visitor: text("visitor").notNull(),
    /** browser (the id changes every day with the salt) or server (the caller's id, the same every day). */
    source: text("source", { enum: ["browser", "server"] }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.workspaceId, table.siteId, table.day, table.visitor] }),
    index("analytics_visitor_days_source_idx").on(table.workspaceId, table.siteId, table.source, table.day, table.visitor),
  ],
);

/** Per site and UTC day: the counts stats add up (kept by the consumer in the batch that writes the events). */
export const daily = sqliteTable(
  "analytics_daily",
  {
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    day: text("day").notNull(),
    /** Distinct browser visitors that day (their ids are that day's alone). */
    browserVisitors: integer("browser_visitors").notNull().default(0),
    /** Distinct visitors of any kind that day. */
    visitors: integer("visitors").notNull().default(0),
    visits: integer("visits").notNull().default(0),
    pageviews: integer("pageviews").notNull().default(0),
    events: integer("events").notNull().default(0),
    /** Visits that started that day with exactly one pageview. */
    bounces: integer("bounces").notNull().default(0),
    /** Σ (last event − first event) of the visits that started that day, ms. */
    durationMs: integer("duration_ms").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.siteId, table.day] })],
);

/**
 * Per site, UTC day, property and value: the daily totals again, for the properties breakdowns ask most —
 * where visits came from (source, channel, referrer, UTM: the visit's) and who the visitor is (browser, OS,
 * device, country, region, city: constant for a visitor id, which hashes the IP and user agent). Kept by the
 * consumer in the batch that writes the events; an unfiltered breakdown of these reads a few rows a day.
 */
export const dailyProperties = sqliteTable(
  "analytics_daily_properties",
  {
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    day: text("day").notNull(),
    property: text("property").notNull(),
    value: text("value").notNull(),
    /** Distinct visitors that day with this value (a server visitor counts once per day here). */
    visitors: integer("visitors").notNull().default(0),
    visits: integer("visits").notNull().default(0),
    pageviews: integer("pageviews").notNull().default(0),
    events: integer("events").notNull().default(0),
    bounces: integer("bounces").notNull().default(0),
    durationMs: integer("duration_ms").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.siteId, table.property, table.day, table.value] })],
);

/** Per site, UTC day and currency: the revenue of `purchase` events (revenue goals are summed from raw events). */
export const dailyRevenue = sqliteTable(
  "analytics_daily_revenue",
  {
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    day: text("day").notNull(),
    currency: text("currency").notNull(),
    amount: integer("amount").notNull(),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.siteId, table.day, table.currency] })],
);

/** The daily salt of browser visitor ids: created on first use of a UTC day, deleted after 48 h. */
export const salts = sqliteTable("analytics_salts", {
  day: text("day").primaryKey(),
  salt: text("salt").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const funnels = sqliteTable(
  "analytics_funnels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    name: text("name").notNull(),
    steps: text("steps", { mode: "json" }).$type<{ type: "page" | "event"; value: string }[]>().notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [index("analytics_funnels_site_idx").on(table.workspaceId, table.siteId, table.id)],
);

/** Goals: an event name or a page path (`*` wildcard) whose completions stats count; revenue goals sum revenue. */
export const goals = sqliteTable(
  "analytics_goals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    type: text("type", { enum: ["event", "page"] }).notNull(),
    value: text("value").notNull(),
    revenue: integer("revenue", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [uniqueIndex("analytics_goals_site_value_idx").on(table.workspaceId, table.siteId, table.type, table.value)],
);

/** Public read-only dashboards: the token is kept only as its SHA-256, the password only as a PBKDF2 hash. */
export const sharedLinks = sqliteTable(
  "analytics_shared_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id").notNull(),
    siteId: integer("site_id").notNull(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    passwordHash: text("password_hash"),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("analytics_shared_links_site_idx").on(table.workspaceId, table.siteId, table.id)],
);

/** Deleted sites whose events, visits and visitor-days the cron is still deleting (in chunks, by index). */
export const deletedSites = sqliteTable("analytics_deleted_sites", {
  siteId: integer("site_id").primaryKey(),
  workspaceId: integer("workspace_id").notNull(),
  deletedAt: integer("deleted_at").notNull(),
});

/** Queue messages the consumer could not read, kept for the operator after the dead-letter queue. */
export const deadLetters = sqliteTable("analytics_dead_letters", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  body: text("body").notNull(),
  reason: text("reason").notNull(),
  receivedAt: integer("received_at").notNull(),
});
