import { EMAIL } from "../text";
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

  // The address runs to the next field's word, or to the end.
  const address = new RegExp(
    `\\b(?:${field.name}\\s+)?address\\s*(?:is\\s+|to\\s+|:\\s*)?(.+?)(?=,\\s*(?:invoices?|e-?mail|currency|tax|vat|phone|in\\s+(?:eur|usd|gbp|chf)|eur|usd|gbp|chf)\\b|;|$)`,
    "i",
  ).exec(rest);
  if (address && parts.has("address_line1")) {
    const pieces = address[1]!.split(/\s*,\s*/).filter(Boolean);
    value.address_line1 = pieces.shift()!;
    for (const piece of pieces) {
      const code = countryCode(piece);
      const postalFirst = /^(\d{4,6}|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2})\s+(.+)$/i.exec(piece);
      const postalLast = /^(.+?)\s+(\d{5}(?:-\d{4})?)$/.exec(piece);
      if (code && parts.has("country") && !value.country) value.country = code;
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
  // "US based", "a German-based firm", "they're in Rotterdam (NL)": the country said another way.
  const based = /\b([a-z][a-z.]{1,20}(?:\s[a-z]+)?)[\s-]based\b|\(([a-z]{2})\)/i.exec(rest);
  const basedCode = based ? countryCode((based[1] ?? based[2])!) : null;
  if (based && basedCode && parts.has("country") && !value.country) {
    value.country = basedCode;
    rest = rest.replace(based[0], ",");
  }
  for (const part of Object.keys(value)) if (!parts.has(part)) delete value[part];
  return Object.keys(value).length > 0 ? { field: field.name, value, rest } : null;
}
