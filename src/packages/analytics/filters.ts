import { type SQL, sql } from "drizzle-orm";
import { ApiError } from "../../platform/errors";

/**
 * The report filters (`filters=country==DE;channel==Organic Search`), as Plausible's dashboard filters:
 * `property==value`, `property!=value` and `property~=substring` (case-insensitive), all of which must
 * hold. Visit properties (where the visit came from, its entry and exit page) select whole visits: every
 * event of a matching visit counts; event properties select events. `goal==X` keeps the visitors who
 * completed goal X (its value: an event name or a page path).
 */

export const VISIT_PROPERTIES = [
  "entry_page",
  "exit_page",
  "referrer",
  "source",
  "channel",
  "utm_medium",
  "utm_source",
  "utm_campaign",
  "utm_term",
  "utm_content",
] as const;
export const EVENT_PROPERTIES = ["page", "country", "region", "city", "device", "browser", "os", "event"] as const;
/** Every breakdown property but `prop:<key>` (any key). */
export const PROPERTIES = ["page", ...VISIT_PROPERTIES, ...EVENT_PROPERTIES.slice(1)] as const;
export type Property = (typeof PROPERTIES)[number] | `prop:${string}`;

export type Filter = { property: Property | "goal"; op: "==" | "!=" | "~="; value: string };

/** What a blank value is called in reports (a filter on that name matches the blank). */
export function blankName(property: Property): string | null {
  if (property === "source" || property === "referrer") return "Direct / None";
  if (["country", "region", "city", "device", "browser", "os"].includes(property)) return "(unknown)";
  return null;
}

const PROP_KEY = /^prop:(.{1,64})$/;

export function isProperty(name: string): name is Property {
  return (PROPERTIES as readonly string[]).includes(name) || PROP_KEY.test(name);
}

/** Parses `filters=`; an unknown property or operator is a 400 that names it. */
export function parseFilters(text: string | undefined): Filter[] {
  if (!text) return [];
  const filters: Filter[] = [];
  for (const part of text.split(";")) {
    if (!part.trim()) continue;
    const match = /^([a-z_]+(?::[^=!~]{1,64})?)\s*(==|!=|~=)(.*)$/s.exec(part.trim());
    if (!match) {
      const name = /^[a-z_:]+/.exec(part.trim())?.[0];
      if (name && !isProperty(name) && name !== "goal") throw badFilter(`unknown property ${name}`);
      throw badFilter(`"${part.slice(0, 100)}" has no operator: use ==, != or ~=`);
    }
    const [, property, op, raw] = match as unknown as [string, string, Filter["op"], string];
    if (!isProperty(property) && property !== "goal") throw badFilter(`unknown property ${property}`);
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {}
    if (value.length > 500) throw badFilter(`the value for ${property} is longer than 500 characters`);
    filters.push({ property, op, value });
  }
  if (filters.length > 20) throw badFilter("at most 20 filters");
  return filters;
}

const badFilter = (message: string) => ApiError.validation([{ path: "filters", message }]);

const COLUMNS: Record<string, string> = {
  referrer: "referrer",
  source: "source",
  channel: "channel",
  utm_medium: "utm_medium",
  utm_source: "utm_source",
  utm_campaign: "utm_campaign",
  utm_term: "utm_term",
  utm_content: "utm_content",
  country: "country",
  region: "region",
  city: "city",
  device: "device",
  browser: "browser",
  os: "os",
  event: "name",
  page: "path",
};

/** The value of a property on an events row `e` (entry and exit pages come from the visit, `visit`). */
export function columnOf(property: Property, e = "e", visit = "v"): SQL {
  const key = PROP_KEY.exec(property)?.[1];
  if (key !== undefined) return sql`CAST(json_extract(${sql.raw(`${e}.props`)}, ${`$."${key.replace(/"/g, '\\"')}"`}) AS TEXT)`;
  if (property === "entry_page" || property === "exit_page") return sql.raw(`${visit}.${property}`);
  return sql.raw(`${e}.${COLUMNS[property]}`);
}

/** A page value with `*` is a GLOB pattern (every other character literal). */
const glob = (value: string) => value.replace(/[[\]?]/g, (char) => `[${char}]`);

/** One condition on a value expression. */
export function condition(column: SQL, filter: Pick<Filter, "op" | "value">, property: Property): SQL {
  const blank = blankName(property);
  const value = blank !== null && filter.value === blank ? "" : filter.value;
  const wildcard = (property === "page" || property === "entry_page" || property === "exit_page") && value.includes("*");
  if (filter.op === "~=") return sql`instr(lower(coalesce(${column}, '')), ${value.toLowerCase()}) > 0`;
  const equal = wildcard ? sql`${column} GLOB ${glob(value)}` : sql`coalesce(${column}, '') = ${value}`;
  // A plain equality on a non-empty value means the same (NULL never equals it) and, unwrapped, can use an index.
  if (filter.op === "==") return !wildcard && value !== "" ? sql`${column} = ${value}` : equal;
  return sql`NOT (${equal})`;
}

/**
 * The filters as conditions on events row `e`. `page` selects pageviews by path, `event` events by name;
 * an entry or exit page is its visit's (`visitOf` gives the visit row `vf` of `e`, scoped by the caller's
 * tenant). Goal filters are left to the caller (they need the goals).
 */
export function eventConditions(filters: Filter[], visitOf: (condition: SQL) => SQL): SQL[] {
  return filters
    .filter((filter) => filter.property !== "goal")
    .map((filter) => {
      const property = filter.property as Property;
      if (property === "entry_page" || property === "exit_page") return visitOf(condition(columnOf(property, "e", "vf"), filter, property));
      const test = condition(columnOf(property), filter, property);
      return property === "page" && filter.op !== "!=" ? sql`(e.name = 'pageview' AND ${test})` : test;
    });
}
