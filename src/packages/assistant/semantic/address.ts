import { EMAIL, escapeRegExp } from "../text";
import type { BodyField } from "./model";
import { countryCode } from "./resolve";

/**
 * An address said in a command, into the body's address object (a customer's `billing`), whatever parts that
 * object has: "billing address Hauptstr. 5, 10115 Berlin, Germany", "invoices to ap@kessler.example",
 * "billing email to finance@acme.example", "based in germany". The words are taken out of the text so that
 * nothing of the address is read again as a name.
 */
export function readAddress(text: string, body: BodyField[]): { field: string; value: Record<string, string>; rest: string } | null {
  const field = body.find((candidate) => candidate.parts?.includes("country") || candidate.parts?.includes("address_line1"));
  if (!field?.parts) return null;
  const parts = new Set(field.parts);
  const value: Record<string, string> = {};
  let rest = text;

  const email = new RegExp(
    `\\b(?:${field.name}\\s+e-?mail(?:\\s+address)?|invoices?\\s+(?:go(?:es)?\\s+)?to|send\\s+(?:the\\s+)?invoices\\s+to|invoice\\s+e-?mail)\\s*(?:is\\s+|to\\s+|:\\s*|=\\s*)?<?(${EMAIL.source})>?`,
    "i",
  ).exec(rest);
  if (email && parts.has("email")) {
    value.email = email[1]!.toLowerCase();
    rest = rest.replace(email[0], ",");
  }

  // The address runs to the next field's word, or to the end. ("Bill to Hauptstr. 5, …", "addr …": so said too —
  // "bill to" only before a number, a street's or a postal code's, so "bill to acme" stays a name.)
  const address = new RegExp(
    `\\b(?:(?:${field.name}\\s+)?(?:address|addr\\b\\.?)|bill(?:ed)?\\s+to\\b(?=[^,;@]*\\d))\\s*(?:is\\s+|to\\s+|:\\s*)?(.+?)(?=,\\s*(?:invoices?|e-?mail|currency|tax|vat|phone|in\\s+(?:eur|usd|gbp|chf)|eur|usd|gbp|chf)\\b|;|$)`,
    "i",
  ).exec(rest);
  if (address && parts.has("address_line1")) {
    const pieces = address[1]!.split(/\s*,\s*/).filter(Boolean);
    // ("hauptstr. 5 10115 berlin germany": said without commas, the postal code after the street's number parts it.)
    const unparted = pieces.length === 1 ? /^(.*?\d+[a-z]?)\s+(\d{4,6})\s+(.+)$/i.exec(pieces[0]!) : null;
    if (unparted) {
      const place = unparted[3]!.split(/\s+/);
      const countryWords = [2, 1].find((n) => place.length > n && countryCode(place.slice(-n).join(" "))) ?? 0;
      const city = place.slice(0, place.length - countryWords).join(" ");
      pieces.splice(0, 1, unparted[1]!, `${unparted[2]} ${city}`, ...(countryWords ? [place.slice(-countryWords).join(" ")] : []));
    }
    value.address_line1 = pieces.shift()!;
    for (const piece of pieces) {
      const code = countryCode(piece);
      const postalFirst = /^(\d{4,6}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\s+(.+)$/i.exec(piece);
      const postalLast = /^(.+?)\s+(\d{5}(?:-\d{4})?)$/.exec(piece);
      if (code && parts.has("country") && !value.country) value.country = code;
      // ("Suite 400", "Apt 3B", "Floor 2": the address's second line.)
      else if (
        /^(?:suite|ste\.?|apt\.?|apartment|unit|floor|fl\.?|room|building|bldg\.?|#)\s*[\w-]+$/i.test(piece) &&
        parts.has("address_line2") &&
        !value.address_line2
      )
        value.address_line2 = piece;
      else if (postalFirst) {
        value.postal_code = postalFirst[1]!;
        value.city = postalFirst[2]!;
      } else if (postalLast) {
        // ("Malibu CA 90265": a city, its state's code, the ZIP.)
        const withState = /^(.+?)\s+([A-Z]{2})$/.exec(postalLast[1]!);
        value.city = withState && parts.has("state") ? withState[1]! : postalLast[1]!;
        if (withState && parts.has("state")) value.state = withState[2]!;
        value.postal_code = postalLast[2]!;
      } else if (!value.city) value.city = piece;
      else if (!value.state && parts.has("state")) value.state = piece;
    }
    rest = rest.replace(address[0], ",");
  }

  const country =
    /\b(?:based in|located in|billing country(?:\s+is|\s+to)?|country(?:\s+is|\s+to|:)?)\s+(?:the\s+)?([a-z][a-z. ]{1,30}?)(?=\s*(?:,|;|$))/i.exec(rest);
  const code = country ? countryCode(country[1]!) : null;
  if (country && code && parts.has("country") && !value.country) {
    value.country = code;
    rest = rest.replace(country[0], ",");
  }
  // ("set up a customer in the uk, …": a country said after "in", when it names one.)
  const inCountry = /(?:^|,|\s)in\s+(?:the\s+)?([a-z][a-z. ]{1,30}?)(?=\s*(?:,|;|$))/i.exec(rest);
  const inCode = inCountry ? countryCode(inCountry[1]!) : null;
  if (inCountry && inCode && (inCountry[1]!.trim().length > 2 || /^(?:uk|us)$/i.test(inCountry[1]!.trim())) && parts.has("country") && !value.country) {
    value.country = inCode;
    rest = rest.replace(inCountry[0], ",");
  }
  // "US based", "a German-based firm", "they're in Rotterdam (NL)": the country said another way.
  const based = /\b([a-z][a-z.]{1,20}(?:\s[a-z]+)?)[\s-]based\b|\(([a-z]{2})\)/i.exec(rest);
  const basedCode = based ? countryCode((based[1] ?? based[2])!) : null;
  if (based && basedCode && parts.has("country") && !value.country) {
    value.country = basedCode;
    rest = rest.replace(based[0], ",");
  }
  // "Cyberdyne's billing city to Munich", "zip is 10115": one part of the address by its own name.
  const PARTS: Record<string, string> = { city: "city|town", state: "state|province|region", postal_code: "zip|zip code|postal code|postcode" };
  for (const [part, names] of Object.entries(PARTS)) {
    // ("zip 02110", "city Boston": a value that looks like one may follow the part's name directly.)
    const said =
      new RegExp(`\\b(?:${field.name}\\s+)?(?:${names})\\s*(?:is\\s+|to\\s+|:\\s*|=\\s*)(?:now\\s+)?([^,;]+?)\\s*(?=,|;|$)`, "i").exec(rest) ??
      new RegExp(`\\b(?:${field.name}\\s+)?(?:${names})\\s+([\\p{Lu}\\d][^,;]*?)\\s*(?=,|;|$)`, "iu").exec(rest);
    if (said && parts.has(part) && !value[part]) {
      value[part] = said[1]!;
      rest = rest.replace(said[0], ",");
    }
  }
  rest = placesOf(rest, parts, value);
  for (const part of Object.keys(value)) if (!parts.has(part)) delete value[part];
  return Object.keys(value).length > 0 ? { field: field.name, value, rest } : null;
}

/** A town's name as people write it: one to three capitalised words ("Rotterdam", "San Francisco"). */
const TOWN = /^\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+){0,2}$/u;

/**
 * Places said without the word "address", each a piece of its own: "Blue Harbor Ltd, London, GB", "Kessler GmbH -
 * germany", "they're in Rotterdam", "moved to Munich". A country is a piece that is only a country (a code in
 * capitals, or its name); the piece just before it, or a place after "in", is the city. The first piece is the
 * record's name and is never read as a place.
 */
function placesOf(text: string, parts: Set<string>, value: Record<string, string>): string {
  let rest = text;
  const pieces = text
    .split(/\s*(?:[,;]|\.(?=\s)|\s[-–—]\s)\s*/)
    .map((piece) => piece.trim())
    .filter(Boolean);
  const countryOf = (piece: string) => (/^[A-Z]{2}$/.test(piece) || (piece.length > 3 && /^[\p{L} .]+$/u.test(piece)) ? countryCode(piece) : null);
  const take = (piece: string) => {
    rest = rest.replace(new RegExp(`(^|[\\s,;.-])${escapeRegExp(piece)}(?=$|[\\s,;.])`), "$1,");
  };
  // ("Cyberdyne moved to Munich": a move names the new town, in the record's own piece too.)
  const moved =
    /\b(?:moved|relocated|moving)\s+(?:their\s+(?:office|offices|hq|headquarters)\s+)?to\s+(\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+){0,2})(?=$|[\s,;.])/u.exec(
      text,
    );
  if (moved && parts.has("city") && !countryOf(moved[1]!)) {
    value.city = moved[1]!;
    rest = rest.replace(moved[0], ",");
  }
  pieces.forEach((piece, index) => {
    if (index === 0) return;
    const country = countryOf(piece);
    if (country && parts.has("country") && !value.country) {
      value.country = country;
      take(piece);
      const before = index > 1 ? pieces[index - 1]! : "";
      if (TOWN.test(before) && !countryOf(before) && parts.has("city") && !value.city) {
        value.city = before;
        take(before);
      }
      return;
    }
    const placed = /^(?:(?:they(?:'re|’re| are)|we're|it's|(?:they\s+)?(?:moved|relocated))\s+)?(?:in|to)\s+(?:the\s+)?(.+)$/i.exec(piece);
    if (!placed || !/^(?:they|we|it|moved|relocated|in\b)/i.test(piece)) return;
    const place = placed[1]!.trim();
    const code = countryOf(place);
    if (code && parts.has("country") && !value.country) value.country = code;
    else if (!code && TOWN.test(place) && parts.has("city") && !value.city) value.city = place;
    else return;
    take(piece);
  });
  return rest;
}
