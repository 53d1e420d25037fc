import { words as spaced, withArticle } from "../../../platform/format";
import type { ApiRecord } from "../../../platform/skills";
import { distance, EMAIL, escapeRegExp } from "../text";
import { readAddress } from "./address";
import type { Fetch } from "./execute";
import type { BodyField, ResourceModel, SchemaModel } from "./model";
import { atCompany, type Candidate, findAtCompany, findNamed, hasValue, labelOf, nameOf, referencedRecord, saysName, underParentSaid } from "./names";
import { type ActionCue, REASON_GIVEN, readDates, readMinutes, readMoney, readStates, SAYS_REASON } from "./parse-action";
import type { ActionDraft, Choice, Resume } from "./query";
import { bare, matchValue, sameWords, type Values, valueInPhrase, valuePair } from "./values";
import { FILLER, type Words, wordsOf } from "./words";

/**
 * A command → a draft with every field the message gives (see parse-action.ts for how each kind is read),
 * then its names found (references by name, the record it changes), then the request it would make.
 * Nothing is written here: the assistant proposes, the user confirms (§11).
 */

export type ActionRequest = { method: string; path: string; body?: Record<string, unknown>; unchanged_since?: string };

export type ActionEnv = {
  fetch: Fetch;
  schema: SchemaModel;
  now: number;
  refuse(error: import("../../../platform/dispatch").ApiErrorBody): string;
  values: Values;
  /** The records the conversation's last answer listed ("send the aperture one" picks among them). */
  listed?: Choice[];
  /** The message as typed (a clause of it may be what is built: the reason for a change is often beside it). */
  message?: string;
  /** The record the last answer was about ("Outstanding for Umbrella"): whose "oldest one" is meant. Only for that. */
  about?: Choice;
};

export type Built =
  | { kind: "proposal"; draft: ActionDraft; request: ActionRequest; summary: string; records: Choice[] }
  | { kind: "missing"; draft: ActionDraft; missing: string[]; text: string }
  | { kind: "choose"; text: string; options: Candidate[]; resume: Resume }
  | { kind: "fail"; text: string };

const PHONE = /(?:\+\d[\d\s().-]{6,}\d|\b\d{3}[\s.-]\d{3}[\s.-]\d{4}\b)/;
const PRONOUN = /\b(it|her|him|them|that|this|this one|that one)\b/i;

/** The operation a verb means on a resource. */
export function operationOf(cue: ActionCue, R: ResourceModel): string {
  const own = R.operations.map((operation) => operation.name);
  // "mark INV-000287 as sent", "mark it void": a state only the resource's own action reaches is that action.
  if (cue.op === "update") {
    const reached = { sent: "send", voided: "void", void: "void", reminded: "remind", hired: "hire" } as Record<string, string>;
    const said = /\b(?:as|to|is)\s+(sent|voided|void|reminded|hired)\b/i.exec(cue.rest)?.[1]?.toLowerCase();
    if (said && own.includes(reached[said]!) && !R.update?.some((field) => field.values?.includes(said))) return reached[said]!;
  }
  if (["send", "void", "remind", "hire"].includes(cue.op) && own.includes(cue.op)) return cue.op;
  if (cue.op === "void" && R.name !== "invoices") return "update";
  if (cue.op === "log" || cue.op === "create") return R.create ? "create" : "update";
  if (cue.op === "delete") return "delete";
  return "update";
}

/** The body an operation takes: the create or update body, or an API action's fields. */
export function bodyFor(R: ResourceModel, operation: string): BodyField[] {
  if (operation === "create") return R.create ?? [];
  if (operation === "update") return R.update ?? [];
  const fields = R.skill?.operationFields?.[operation] ?? R.operations.find((op) => op.name === operation)?.fields ?? [];
  return fields.map((name) => ({
    name,
    required: false,
    kind: name.endsWith("_date") || name === "date_of_joining" ? "date" : name === "to" ? "text" : "text",
  }));
}

type Piece = { text: string; trigger: string | null };

/** Text in quotes: a quote that opens or closes inside a word is an apostrophe ("the opening's 'a, b'"), not a quote. */
const QUOTED = /(?<![\p{L}\p{N}])["'‘“]([^"“”]{2,200}?)["'’”](?![\p{L}\p{N}])/u;

/** The message after its verb and the resource's noun, cut at commas into pieces, each with the word that introduces it. */
function piecesOf(rest: string, R: ResourceModel): Piece[] {
  let text = ` ${rest} `;
  // The noun right after the verb ("add a lead …", "new customer: …").
  for (const noun of R.nouns) {
    const pattern = new RegExp(`^\\s*(?:an?\\s+|the\\s+|one\\s+)?(?:new\\s+)?${noun.replace(/[-\s]/g, "[-\\s]")}\\b[:\\s-]*`, "i");
    if (pattern.test(text)) {
      text = text.replace(pattern, " ");
      break;
    }
  }
  // ("save procurement@stark.example as a contact under stark": the kind it is saved as is no name.)
  for (const noun of R.nouns) text = text.replace(new RegExp(`\\s+as\\s+(?:an?\\s+)?(?:new\\s+)?${noun.replace(/[-\s]/g, "[-\\s]")}\\b`, "i"), " ");
  // "review exports (mobile app)": what is in brackets is where the record is.
  text = text.replace(/\s*\(([^)]*)\)/g, ", in $1,");
  // ("set department to finance and title to accountant": a second field with its value is a piece of its own.)
  const names = [...R.fields.values()].flatMap((field) => [field.name.replace(/_/g, " "), ...field.words]).filter((word) => /^[a-z ]{2,30}$/.test(word));
  if (names.length > 0)
    text = text.replace(new RegExp(`\\s+and\\s+(?=(?:(?:his|her|their|its|the)\\s+)?(?:${names.join("|")})\\s+(?:to|=|:|is)\\s)`, "gi"), ", ");
  return (
    text
      // (A sentence's end too: "…, Sophia Lindqvist. Her email is …" — not an abbreviation's dot, "Ltd. Billing".)
      .split(
        /\s*[,;]\s*|(?<=\p{Ll}{3})[.!?]\s+(?=\p{L})|[.!?]\s+(?=(?:we|i|he|she|they)\s)|\s+-\s+|\s+\(|\)\s*|\s+(?=as\s)|\s+(?=into\s)|\s+(?:has|have|is|are|was|were)\s+(?:now\s+)?|\s+to\s+$|\s+(?:and|but)\s+(?=(?:he|she|they|we|i|hes|shes|theyre|have|has|had)\s)/u,
      )
      .map((piece) => piece.trim())
      .filter(Boolean)
      .map((piece) => ({ text: piece, trigger: null }))
  );
}

const REFERENCE_TRIGGERS =
  /\b(?:for customer|customer|for contact|contact|for project|in project|on project|project|under|assign(?:ed)? it to|assign(?:ed)? to|assign(?:ed)?|give it to|give to|hand it to|for the|for|in the|in|on the|on|to|at|from|with|by)\s+/i;

/** Text fields a word introduces ("department finance", "as support specialist", "note: …"). */
function textTriggers(R: ResourceModel, body: BodyField[]): { field: string; pattern: RegExp }[] {
  const out: { field: string; pattern: RegExp }[] = [];
  const has = (name: string) => body.some((field) => field.name === name && (field.kind === "text" || field.kind === "other"));
  for (const field of body) {
    if (field.kind !== "text") continue;
    // (The field's name, or a phrase of the skill's for it: "vat number" is a tax id.)
    const names = [field.name.replace(/_/g, " "), ...(R.fields.get(field.name)?.words ?? []).filter((word) => word.includes(" "))];
    const name = `(?:${[...new Set(names)].map((word) => escapeRegExp(word).replace(/ /g, "\\s+")).join("|")})`;
    out.push({ field: field.name, pattern: new RegExp(`\\b${name}s?\\s*(?::|is|=)?\\s+(.+)$`, "i") });
    // "evelyn's title to …", "his role to …": after a possessive, the skill's one-word names of the field too.
    const single = (R.fields.get(field.name)?.words ?? []).filter((word) => !word.includes(" ") && word !== field.name);
    if (single.length > 0) {
      out.push({ field: field.name, pattern: new RegExp(`(?:['’]s|\\b(?:his|her|their))\\s+(?:${single.join("|")})\\s+(?:to|=|:)\\s*(.+)$`, "i") });
      // ("… and title to accountant": a piece of its own that starts with the field's word.)
      out.push({ field: field.name, pattern: new RegExp(`^(?:the\\s+)?(?:${single.join("|")})\\s+(?:to|=|:)\\s*(.+)$`, "i") });
    }
  }
  // ("…, Support department", "Berlin office": a value, then its field's one-word name.)
  for (const name of ["department", "branch"]) {
    const single = (R.fields.get(name)?.words ?? []).filter((word) => /^[a-z]+$/.test(word));
    if (has(name) && single.length > 0)
      out.push({ field: name, pattern: new RegExp(`^(?:the\\s+)?(\\p{Lu}[\\p{L}&-]*(?:\\s+\\p{L}[\\p{L}&-]*)?)\\s+(?:${single.join("|")})$`, "u") });
  }
  if (has("notes")) out.push({ field: "notes", pattern: /\b(?:add a note|note)s?\b.*?[:]\s*(.+)$/i });
  // ("put PO 5512 in the notes")
  if (has("notes")) out.push({ field: "notes", pattern: /\b(?:put|add|write|include)\s+(.+?)\s+(?:in|into|on|to)\s+(?:the\s+)?notes?\b/i });
  if (has("note")) out.push({ field: "note", pattern: /\bnotes?\s*[:]\s*(.+)$/i });
  if (has("description")) out.push({ field: "description", pattern: /\b(?:description|details)\s*[:]\s*(.+)$/i });
  // ("as a backend engineer in engineering": the department after "in" is a piece of its own.)
  if (has("designation")) out.push({ field: "designation", pattern: /^as (?:an? )?(.+?)(?:\s+in\s+(?:the\s+)?(.+))?$/i });
  // ("hire Dennis into engineering": the department joined.)
  if (has("department")) out.push({ field: "department", pattern: /^(?:into|to join)\s+(?:the\s+)?(.+?)(?:\s+(?:team|department|dept))?$/i });
  // ("met at a trade show", "came in through the website": where a lead came from.)
  if (has("source"))
    out.push({
      field: "source",
      pattern:
        /^(?:(?:we |i )?met (?:him |her |them )?(?:at|through|via|on)|came (?:in )?(?:from|through|via)|found us (?:on|via|through))\s+(?:an? |the )?(.+)$/i,
    });
  if (has("lost_reason")) out.push({ field: "lost_reason", pattern: REASON_GIVEN });
  for (const value of R.skill?.values ?? []) {
    if (!has(value.param)) continue;
    out.push({
      field: value.param,
      pattern: new RegExp(`^(?:${value.words.map((word) => word.replace(/ /g, "\\s+")).join("|")})\\s+(?:the\\s+|an?\\s+)?(.+)$`, "i"),
    });
  }
  return out;
}

/** Reads every field of the body the message gives; the leftover pieces are the name, the title or the record. */
export function extract(
  w: Words,
  cue: ActionCue,
  R: ResourceModel,
  operation: string,
  now: number,
  references: RegExp[] = [],
): { fields: Record<string, unknown>; refs: Piece[]; free: Piece[] } {
  const body = bodyFor(R, operation);
  const has = (name: string) => body.some((field) => field.name === name);
  const fields: Record<string, unknown> = {};
  let rest = cue.rest;
  // A record's reference ("INV-000141", "task 57") is no amount or date: build() reads it apart.
  for (const pattern of references) rest = rest.replace(new RegExp(pattern.source, "gi"), ",");
  // "note: internal sync, ask Ana": a note runs to the end of the message, commas and all.
  const noteField = body.find((field) => ["note", "notes", "description"].includes(field.name));
  // ("note 'thanks for your business'": a quoted note is that text alone.)
  // ("set the description of the X opening to 'a, b, c'": quoted, commas and all; the record named between stays.)
  const note =
    /\b(?:notes?|description|comment)(?:\s*:\s*(.+)$|((?:\s+(?:of|on|for)\s+[^"'‘“:,]{1,60}?)?)\s*(?:(?:to|as|=)\s*)?["'‘“]([^"“”]{1,500}?)["'’”](?![\p{L}\p{N}]))/iu.exec(
      rest,
    );
  if (note && noteField) {
    // ("note: 'Please quote the PO.'": the words inside the quotes.)
    // ("Note: internal sync.": the sentence's full stop is no part of an unquoted note.)
    const said = (note[1] ?? note[3]!).trim();
    const inQuotes = /^["'‘“](.*)["'’”]$/s.exec(said);
    fields[noteField.name] = inQuotes ? inQuotes[1] : note[1] !== undefined ? said.replace(/(?<![.\s])\.$/, "") : said;
    rest = `${rest.slice(0, note.index)} ${note[2] ?? ""} ${rest.slice(note.index + note[0].length)}`;
  }
  const titleField = body.find((field) => field.name === "title" || field.name === "name");
  // "rename the Product Marketer job to Growth Marketer": the new name is what follows the last "to".
  const renamed = cue.verb === "rename" && titleField ? /\s+(?:to|as|into)\s+["'‘“]?([^"'’”]+?)["'’”]?\s*$/i.exec(rest) : null;
  if (renamed && titleField) {
    fields[titleField.name] = tidy(renamed[1]!);
    rest = rest.slice(0, renamed.index);
  }
  const quoted = QUOTED.exec(rest);
  if (quoted && titleField && operation === "create") {
    fields[titleField.name] = quoted[1]!.trim();
    rest = rest.replace(quoted[0], ",");
  }
  // ("create a job opening: title Bookkeeper, Finance department": the field's own word before it, as "called".)
  // (The name ends where another field is said: "called baxter renovations the email is …", "rita moreno email rita@…".)
  const named =
    /(?:\b(?:called|named|titled)|(?:^|[,:;]\s*)(?:title|name)\s*:?)\s+(.+?)(?=,|;|$|\s+(?:for|from|in|due|with|worth|at|starting|starts|beginning|kicking off|ending|ends|running|runs)\s|\s+(?:the|their|his|her|its)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are)\s|\s+(?:e-?mail(?:\s+address)?(?:\s+is)?\s+)?[^\s@]+@)/i.exec(
      rest,
    );
  if (named && titleField && operation === "create" && fields[titleField.name] === undefined) {
    fields[titleField.name] = nameCase(R, titleField.name, tidy(named[1]!));
    rest = rest.replace(named[0], ",");
  }
  // "task for Alan in Billing v2: reconcile october payments, due the 30th": after a colon, the first piece is the
  // title, up to a comma ("lead: olga petrova from acme", a piece with more fields in it, is read as any other).
  // ("New task in Mobile app: Write release notes. Assign to Tim, …": a sentence's end ends the title too.)
  const colon = /:\s*([^,;:]+?)\s*(?=,|;|\s+-\s|\.\s+(?=\p{L})|$)/iu.exec(rest);
  const plain = colon && !/@|^\W*[$€£]?\d|\s(?:from|for|at|due|with|worth|in|on)\s/i.test(colon[1]!);
  if (colon && plain && titleField && operation === "create" && fields[titleField.name] === undefined) {
    fields[titleField.name] = nameCase(R, titleField.name, tidy(colon[1]!));
    rest = `${rest.slice(0, colon.index)} ${rest.slice(colon.index + colon[0].length)}`;
    // ("…: Update cookie banner - legal wants new wording, urgent": after the title and a dash, what it is about.)
    const about = /^\s*[-–—]\s+([^,;]{8,200}?)\s*(?=[,;]|$)/.exec(rest.slice(colon.index));
    if (about && noteField && fields[noteField.name] === undefined && about[1]!.trim().split(/\s+/).length >= 3) {
      fields[noteField.name] = about[1]!.trim();
      rest = `${rest.slice(0, colon.index)} ${rest.slice(colon.index + about[0].length)}`;
    }
  }
  // "new contact at initech — Joanna Kim, joanna.kim@…": a dash before a name in capitals, as a colon.
  // (Only after where they are, or nothing: "add contact Jane Doe - Acme" is a name, then a company.)
  const dashed = colon ? null : /\s[—–-]\s*(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,4})\s*(?=,|;|$)/u.exec(rest);
  const before = dashed ? R.nouns.reduce((text, noun) => text.replace(new RegExp(`\\b${escapeRegExp(noun)}\\b`, "gi"), " "), rest.slice(0, dashed.index)) : "";
  const placedFirst = dashed && /^\s*(?:(?:new|an?|the)\s+)*(?:(?:at|from|for|with|of|in)\s+\S.*)?$/i.test(before);
  if (dashed && placedFirst && titleField && operation === "create" && fields[titleField.name] === undefined) {
    fields[titleField.name] = tidy(dashed[1]!);
    rest = `${rest.slice(0, dashed.index)} ${rest.slice(dashed.index + dashed[0].length)}`;
  }
  // "new role: Customer Success Manager in Support": a title in capitals, then what places it.
  const titleInCapitals = colon && !plain ? /^((?:[A-Z][\w&'-]*\s+)*[A-Z][\w&'-]*)\s+(?=in\s)/.exec(colon[1]!) : null;
  if (colon && titleInCapitals && titleField && operation === "create" && fields[titleField.name] === undefined) {
    fields[titleField.name] = tidy(titleInCapitals[1]!);
    rest = `${rest.slice(0, colon.index)} ${rest.slice(colon.index + colon[0].length - colon[1]!.length + titleInCapitals[0].length)}`;
  }
  // "open a Customer Success Manager role in Support": a name in capitals said before the resource's own noun.
  const nouns = R.nouns.map((noun) => escapeRegExp(noun)).join("|");
  // ("create deal Initech - renewal, 45k usd, …": where a package names its records "who — what", a dashed name is
  // one name — not a name and a note. Elsewhere it is two: "jane doe - acme" is a name and a company.)
  const paired =
    colon || dashed || !R.skill?.pairedName
      ? null
      : new RegExp(
          `^\\s*(?:(?:an?|the)\\s+)?(?:new\\s+)?(?:(?:${nouns})\\b\\s*)?((?:\\p{L}[\\p{L}\\d&'.]*\\s+){0,2}\\p{L}[\\p{L}\\d&'.]*\\s+[—–-]\\s+(?:\\p{L}[\\p{L}\\d&'.]*\\s+){0,2}\\p{L}[\\p{L}\\d&'.]*)\\s*(?=[,;]|$)`,
          "iu",
        ).exec(rest);
  if (paired && titleField && operation === "create" && fields[titleField.name] === undefined) {
    fields[titleField.name] = tidy(paired[1]!);
    rest = `,${rest.slice(paired[0].length)}`;
  }
  const beforeNoun =
    titleField && operation === "create" && fields[titleField.name] === undefined && nouns
      ? new RegExp(`^\\s*(?:(?:a|an|the)\\s+)?(?:new\\s+)?((?:\\p{Lu}[\\p{L}\\d&'-]*\\s+){1,5})(?:${nouns})\\b`, "u").exec(rest)
      : null;
  if (beforeNoun && titleField) {
    fields[titleField.name] = tidy(beforeNoun[1]!);
    rest = `,${rest.slice(beforeNoun[0].length)}`;
  }
  // Invoice lines: "10 hours consulting at $150/hr", "3 licences @ 499 and 1 training day 1200", "19% vat".
  if (has("items")) {
    const read = readLines(rest);
    if (read.items.length > 0) {
      fields.items = read.items;
      rest = read.rest;
      if (read.currency && has("currency")) fields.currency = read.currency;
    }
  }
  // ("…, billing address 12 Quay Street, Dublin, Ireland, invoiced in EUR": how it is billed is no part of the address.)
  const billedIn = has("currency")
    ? /\b(?:invoiced|billed|bills?|charged|paying|pays)\s+in\s+(usd|eur|gbp|chf|cad|aud|inr|sek|nok|dkk|pln|jpy)\b\.?/i.exec(rest)
    : null;
  if (billedIn && fields.currency === undefined) {
    fields.currency = billedIn[1]!.toUpperCase();
    rest = rest.replace(billedIn[0], ",");
  }
  // "billing address …", "invoices to ap@…", "based in germany": the body's address object.
  const address = readAddress(rest, body);
  if (address) {
    fields[address.field] = address.value;
    rest = address.rest;
  }
  const email = EMAIL.exec(rest);
  if (email) {
    const target = has("email") ? "email" : has("to") ? "to" : null;
    if (target) fields[target] = email[0].toLowerCase();
    // "mei lin <mei@…>", "with email ann@…": the brackets and the label go with the address.
    // ("remove the contact tim@…": an address no field takes names the record.)
    if (target) rest = rest.replace(new RegExp(`(?:\\b(?:with\\s+)?(?:e-?mail|email address)\\s*:?\\s*)?<?${escapeRegExp(email[0])}>?`), ",");
  }
  const phone = PHONE.exec(rest);
  if (phone && has("phone")) {
    fields.phone = phone[0].replace(/[\s().-]/g, "");
    rest = rest.replace(new RegExp(`(?:\\b(?:with\\s+)?(?:phone|tel|mobile|cell|number)(?:\\s+number)?\\s*:?\\s*)?${escapeRegExp(phone[0])}`), ",");
  }
  // ("sent €8k against the september invoice": the month tells which invoice, not when this happened.)
  const ownMonth = /\b(?:the|their|his|her)\s+((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*)\s+(?=(?:invoice|bill)\b)/i;
  for (const date of readDates(rest.replace(ownMonth, "the "), body, now, cue.op === "reschedule")) {
    // A moment ("paid yesterday") is that day's start in UTC: the API takes a date-time there.
    fields[date.field] = body.find((field) => field.name === date.field)?.kind === "datetime" ? `${date.value}T00:00:00Z` : date.value;
    rest = rest.replace(date.match, ",");
  }
  const minutesField = body.find((field) => field.kind === "minutes" || field.name === "minutes");
  const minutes = minutesField ? readMinutes(rest) : null;
  if (minutes && minutesField) {
    fields[minutesField.name] = minutes.minutes;
    rest = rest.replace(minutes.match, ",");
  }
  // ("3 positions", "positions to 3")
  const positions =
    /\b(\d+)\s+(positions?|seats?|openings?|roles?|spots?|hires?|heads?|people)\b/i.exec(rest) ??
    /\b(?:positions?|seats?|spots?|headcount)\s*(?:to|:|=|at)\s*(\d+)\b/i.exec(rest);
  if (positions && has("positions")) {
    fields.positions = Number(positions[1]);
    rest = rest.replace(positions[0], ",");
  }
  const moneyField = body.find((field) => field.kind === "money" && field.name !== "unit_amount");
  // ("a payment of 500", "add 500 on it, they paid by card": a small number is money too when a word of amount leads it,
  // or it comes first.)
  const small =
    /(?:^\s*|\b(?:of|amount(?: of)?|for|paid|received)\s+)(\d{1,3}(?:\.\d{1,2})?)\b(?!\s*(?:hours?|minutes?|mins?|h|%|days?|weeks?|positions?|people|x\b|each))/i.exec(
      rest,
    );
  const read = moneyField ? (readMoney(rest) ?? (small ? { minor: Math.round(Number(small[1]) * 100), match: small[0] } : null)) : null;
  // ("create deal Stark renewal 2027": a bare year ending a name is part of it, not an amount.)
  const year =
    read &&
    !read.currency &&
    /^(?:19|20)\d{2}$/.test(read.match.trim()) &&
    !new RegExp(`\\b(?:worth|value|valued at|for|at|of|amount)\\s+${read.match.trim()}`, "i").test(rest);
  const money = year ? null : read;
  if (money && moneyField) {
    fields[moneyField.name] = money.minor;
    if (money.currency && has("currency")) fields.currency = money.currency;
    // "worth about $8k", "€12k potential": the words around an amount belong to it.
    const escaped = escapeRegExp(money.match);
    rest = rest.replace(
      new RegExp(
        `(?:\\b(?:worth|valued at|value of|value|budget of|budget|estimated at|about|around|roughly|approx\\.?|~)\\s+)*${escaped}(?:\\s+(?:potential|value|budget|deal|estimated|est\\.?))?`,
        "i",
      ),
      ",",
    );
  }
  // ("switch Wonka to euro billing": a currency's name is its code.)
  const currency =
    /\b(?:in|to|bills? in|billed in|currency)\s+(usd|eur|gbp|chf|cad|aud|inr|sek|nok|dkk|pln|jpy|euros?|dollars?|pounds?|sterling)\b|\b(usd|eur|gbp|chf|cad|aud|inr)\b/i.exec(
      rest,
    );
  if (currency && has("currency") && fields.currency === undefined) {
    const code = (currency[1] ?? currency[2])!.toLowerCase();
    fields.currency = /^euro/.test(code) ? "EUR" : /^dollar/.test(code) ? "USD" : /^(?:pound|sterling)/.test(code) ? "GBP" : code.toUpperCase();
    rest = rest.replace(currency[0], ",");
  }
  const billable = /\b(non[-\s]?billable|not billable|unbillable)\b|\bbillable\b/i.exec(rest);
  if (billable && has("billable")) {
    fields.billable = !billable[1];
    rest = rest.replace(billable[0], ",");
  }
  // (Handing a task over or moving its date changes no state: "give Review checkout to Shafi" keeps the name.)
  // ("reassign X to Y and set it to high": a state said in a change of its own is read all the same.)
  const alsoSet = /\s+and\s+(?:also\s+)?(?:set|make|mark|change|put)\s+(?:it|her|him|them|its priority|the priority)\b/i.exec(w.text);
  // ("push it to negotiation and bump the value to 95k": a state pushed to is a state all the same.)
  const pushedTo = (found: Record<string, string>) =>
    Object.fromEntries(Object.entries(found).filter(([, value]) => new RegExp(`\\bto\\s+(?:the\\s+)?${value.replace(/_/g, "[ _-]?")}\\b`, "i").test(w.text)));
  const states = ["assign", "reschedule"].includes(cue.op)
    ? alsoSet
      ? readStates(wordsOf(w.text.slice(alsoSet.index), new Set()), R, body, "state", 0)
      : cue.op === "reschedule"
        ? pushedTo(readStates(w, R, body, cue.verb, cue.verb.split(" ").length))
        : {}
    : readStates(w, R, body, cue.verb, cue.verb === "state" ? 0 : cue.verb.split(" ").length);
  for (const [field, value] of Object.entries(states)) {
    fields[field] = value;
    // ("in proposal stage": the field's own noun after the value goes with it.)
    const phrase = new RegExp(
      `\\b(?:to |as |in |at |already at |already |now )?${value.replace(/_/g, "[ _-]?")}\\b(?:\\s+${field.replace(/_/g, " ")}\\b)?`,
      "i",
    );
    // ("add a new lead X, status new": the value after its field's name, where that is how it was said.)
    const named = new RegExp(`\\b${field.replace(/_/g, " ")}\\s*(?::|=|is|to)?\\s*${value.replace(/_/g, "[ _-]?")}\\b`, "i");
    rest = rest.replace(named.test(rest) ? named : phrase, ",");
  }
  // ("mark the Oscorp deal as lost because of price", "the Globex pilot was lost to a competitor": a reason for a state
  // — lost_reason — said with the state's own word is that state too; "change the lost reason" is not.)
  for (const field of body.filter((candidate) => candidate.kind === "enum")) {
    const implied = (field.values ?? []).find((value) => has(`${value}_reason`));
    if (!implied || fields[field.name] !== undefined) continue;
    if (new RegExp(`\\b${implied}\\b(?!\\s+reason)`, "i").test(w.text) && SAYS_REASON.test(w.text)) fields[field.name] = implied;
  }
  // ("unassign X": its person cleared.)
  if (cue.verb === "unassign") {
    const person = body.find((field) => field.kind === "reference" && (field.name === R.skill?.person?.param || field.target === "employees"));
    if (person) fields[person.name] = null;
  }
  // State words the skill spells differently ("high prio" → high, "wip" → in progress) are removed too.
  rest = rest.replace(/\b(?:high|low|medium)\s+priority\b|\bpriority\b/gi, ",");
  const pieces = piecesOf(rest, R);
  const triggers = textTriggers(R, body);
  const refs: Piece[] = [];
  const free: Piece[] = [];
  for (const piece of pieces) {
    // ("give his Fix checkout task to Sophie", "delete the employee record for Bjarne": whose, and the record itself, name nothing.)
    const text = piece.text
      .replace(/^(?:and|also|plus|then|it|its|it's|is|are|the|his|their)\s+/i, "")
      .replace(/^[Hh]er\s+(?=(?:the\s+)?\p{Lu})/u, "")
      .replace(/^(?:the\s+)?(?:record|profile|entry|file|details)\s+(?:for|of)\s+/i, "")
      .trim();
    if (!text || /^(already|please|pls|thanks|asap|now|it|him|her|them|too)$/i.test(text)) continue;
    // A piece of only small words ("for", "with the") is what was left around a value.
    if (text.split(/\s+/).every((word) => FILLER.has(word.toLowerCase()))) continue;
    const textField = triggers.find((trigger) => trigger.pattern.test(text) && fields[trigger.field] === undefined);
    if (textField) {
      const match = textField.pattern.exec(text)!;
      fields[textField.field] = tidy(match[1]!.replace(/^(?:to|as|=)\s+/i, ""));
      // "hooli's tax id to …": what comes before the field's word names the record.
      const head = tidy(text.slice(0, match.index).replace(/['’]s\s*$/, ""));
      if (head && !head.split(/\s+/).every((word) => FILLER.has(word.toLowerCase()))) free.push({ text: head, trigger: null });
      // ("in Engineering at the Berlin branch": each place its own piece.)
      if (match[2]) for (const part of match[2].split(/\s+at\s+(?:the\s+)?/i)) free.push({ text: tidy(part), trigger: null });
      continue;
    }
    // Several references and a title may share one piece: "Update pricing page in website relaunch for Ana".
    const split = splitReferences(tidy(text));
    free.push(...split.free);
    refs.push(...split.refs);
  }
  return { fields, refs, free };
}

const LINE =
  /(\d+(?:\.\d+)?)\s*(?:x\s+)?((?:[a-z]+\s+){0,5}?[a-z]+)\s*(?:@|at|for|x|,)?\s*([$€£])?\s?(\d[\d,]*(?:\.\d{1,2})?)(k)?\s*([$€£])?\s*(?:each|apiece|a piece|\/\s?h(?:ou)?r?|an hour|per hour|a day|\/\s?day|per day|per unit)?/gi;
/** "the 3 consulting days we did for them, $1,200 each": a count of something, more words, then the price of each. */
const EACH =
  /\b(\d+(?:\.\d+)?)\s+([a-z]+(?:\s+(?!(?:we|that|which|i|you|they|for|to|on|in|last|this|from)\b)[a-z]+){0,2})\b[^$€£\d,;]{0,40},\s*([$€£])?\s?(\d[\d,]*(?:\.\d{1,2})?)(k)?\s*([$€£])?\s*(?:each|apiece|a piece|per (?:day|hour|unit|session|seat))\b/i;

const SIGNED =
  /(?<=(?:^|[:,;]|\s[-–—]|\bplus\b|\band\b)\s*)(?:the\s+|a\s+|an\s+|one\s+)?((?!(?:a|an|the|for|and|plus|at|due|net|issue|issued|pay|paid|in|within|by|on)\b)[a-z]+(?:\s+[a-z]+){0,3})\s+(?:([$€£])\s?(\d[\d,]*(?:\.\d+)?)(k)?|()(\d{1,3}(?:,\d{3})+|\d{3,})(k)?)(?!\s*(?:each|apiece|per\b|\/|an hour|a day|days?|weeks?|months?|hours?|hrs?|minutes?|mins?|%|x\b))\b/gi;
/(?<=(?:^|[:,;]|\bplus\b|\band\b)\s*)((?!(?:a|an|the|for|and|plus|at)\b)[a-z]+(?:\s+[a-z]+){0,3})\s+([$€£])\s?(\d[\d,]*(?:\.\d+)?)(k)?(?!\s*(?:each|apiece|per\b|\/|an hour|a day))\b/gi;

const SYMBOLS: Readonly<Record<string, string>> = { $: "USD", "€": "EUR", "£": "GBP" };

/** Invoice lines in a command, each {description, quantity, unit_amount}, and a tax rate said once for all. */
export function readLines(message: string): { items: Record<string, unknown>[]; rest: string; currency?: string } {
  const items: Record<string, unknown>[] = [];
  // ("implementation package 4500 + setup fee 500": a plus sign joins lines as "plus" does.)
  // ("150 dollars each hour", "400 euros each": a price in words is a price with its sign; "licence x2 @ 400": the
  // count after the line's name, as "2 x licence @ 400".)
  let text = message
    .replace(/\s\+\s/g, " plus ")
    .replace(/\b(\d[\d,]*(?:\.\d{1,2})?k?)\s+(dollars?|bucks|usd|euros?|eur|pounds?|gbp)\b/gi, (_m, amount: string, code: string) => {
      const sign = /^(?:euro|eur)/i.test(code) ? "€" : /^(?:pound|gbp)/i.test(code) ? "£" : "$";
      return `${sign}${amount}`;
    })
    .replace(/\b((?:[a-z]+\s+){0,2}[a-z]+)\s+x\s?(\d{1,4})(?=\s*(?:@|at)\s*[$€£]?\d)/gi, "$2 x $1")
    .replace(/\b(each|per|an?)\s+(?:hour|hr)\b/gi, "per hour")
    .replace(/\b(?:each|per|a)\s+day\b/gi, "per day");
  let rest = text;
  let currency: string | undefined;
  const tax = /\b(\d{1,2}(?:\.\d)?)\s?%\s*(?:vat|tax|gst|sales tax)?/i.exec(text);
  // "€300 for the onboarding workshop": one line at that price.
  // ("bill Massive Dynamic 5,000 for implementation": without a sign, an amount of three figures or more.)
  const priced =
    /([$€£])\s?(\d[\d,]*(?:\.\d+)?)(k)?\s+for\s+(?:the\s+|a\s+|an\s+)?([\p{L}][^,;$€£%\d]*?)\s*(?=,|;|$)/iu.exec(text) ??
    /(?<=\s)()(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{3,}(?:\.\d+)?|\d+(?:\.\d+)?(?=k))(k)?\s+for\s+(?:the\s+|a\s+|an\s+)?([\p{L}][^,;$€£%\d]*?)\s*(?=,|;|$)/iu.exec(
      text,
    );
  const line = (said: string, quantity: number, amount: number) => {
    // ("one implementation package": the count is the quantity, not the name.)
    // ("one consulting day at 1104": the word before the price is no part of the line's name.)
    const description = said.replace(/^(?:one|a|an|single|the)\s+(?=\S)/i, "").replace(/\s+(?:at|@|for|x)$/i, "");
    return {
      description: `${description[0]!.toUpperCase()}${description.slice(1)}`,
      quantity,
      unit_amount: Math.round(amount * 100),
      ...(tax ? { tax_rate: Number(tax[1]) } : {}),
    };
  };
  if (priced) {
    currency = priced[1] ? SYMBOLS[priced[1]] : undefined;
    items.push(line(priced[4]!.trim(), 1, Number(priced[2]!.replace(/,/g, "")) * (priced[3] ? 1000 : 1)));
    text = text.replace(priced[0], ",");
    rest = text;
  }
  const each = priced ? null : EACH.exec(text);
  if (each) {
    currency = SYMBOLS[each[3] ?? each[6] ?? ""] ?? currency;
    const quantity = Number(each[1]);
    const description = each[2]!.trim().replace(/^(?:hours?|hrs?|days?|units?|pcs|pieces?)\s+(?:of\s+)?(?=\S)/i, "");
    items.push(
      line(quantity > 1 ? description.replace(/(?<=[a-z]{3})s$/i, "") : description, quantity, Number(each[4]!.replace(/,/g, "")) * (each[5] ? 1000 : 1)),
    );
    text = text.replace(each[0], ",");
    rest = text;
  }
  // ("…: implementation package €4,140 plus 2 training sessions …": a line named, then its price with its sign.)
  for (const match of priced ? [] : text.matchAll(SIGNED)) {
    // (Without a sign, only beside another line or after the customer's colon: "…: data migration 2500 plus …".)
    if (!match[2] && !/[:]|\bplus\b|\band\b|\bat\b|\beach\b/i.test(text)) continue;
    currency = SYMBOLS[match[2] ?? ""] ?? currency;
    items.push(line(match[1]!.trim(), 1, Number((match[3] ?? match[6])!.replace(/,/g, "")) * (match[4] || match[7] ? 1000 : 1)));
    text = text.replace(match[0], ",");
    rest = text;
  }
  // "for the setup fee, 500 dollars", "for the audit - €1,200": what it is for, then its price.
  const named =
    priced || each
      ? null
      : /\bfor\s+(?:the\s+|a\s+|an\s+)?([\p{L}][\p{L} -]{2,40}?)\s*(?:,|-|–|—|:|at)\s*(?:([$€£])\s?(\d[\d,]*(?:\.\d+)?)(k)?|(\d[\d,]*(?:\.\d+)?)(k)?\s*(dollars?|euros?|pounds?|usd|eur|gbp|bucks))\b/iu.exec(
          text,
        );
  if (named) {
    const code = named[7]?.toLowerCase();
    currency = named[2] ? SYMBOLS[named[2]] : code ? (/^(?:euro|eur)/.test(code) ? "EUR" : /^(?:pound|gbp)/.test(code) ? "GBP" : "USD") : undefined;
    const amount = Number((named[3] ?? named[5])!.replace(/,/g, "")) * (named[4] || named[6] ? 1000 : 1);
    items.push(line(named[1]!.trim(), 1, amount));
    text = text.replace(named[0], ",");
    rest = text;
  }
  for (const match of text.matchAll(LINE)) {
    const quantity = Number(match[1]);
    const words = match[2]!.trim().split(/\s+/);
    // "10 hours consulting": the unit is hours, the line is consulting; "1 training day": the line is a training day.
    const unitWord = /^(hours?|hrs?|days?|units?|pcs|pieces?|months?|weeks?|years?)$/i;
    // ("6 months of the support plan": the unit, then what the line is.)
    const described = (words.length > 1 && unitWord.test(words[0]!) ? words.slice(1) : words).filter(
      (word, i, all) => !(i === 0 && word === "of") && !(i <= 1 && word === "the" && all.length > i + 1),
    );
    if (described.every((word) => /^(for|at|of|and|the|a|an|with|to)$/i.test(word))) continue;
    let description = described.join(" ");
    // ("… - consulting, 12 hours at $150 an hour": a unit alone is told what it is by the piece just before it.)
    const before = unitWord.test(description) ? /(?:^|[,:;—–-])\s*([a-z]+(?:\s+[a-z]+){0,2})\s*[,:;—–-]\s*$/i.exec(text.slice(0, match.index)) : null;
    if (before && !before[1]!.split(/\s+/).some((word) => /^(?:for|to|invoice|bill|new|draft|please|pls|the|a|an|and)$/i.test(word))) description = before[1]!;
    if (quantity > 1) description = description.replace(/(?<=[a-z]{3})s$/i, "");
    const amount = Number(match[4]!.replace(/,/g, "")) * (match[5] ? 1000 : 1);
    if (!Number.isFinite(amount) || amount <= 0 || !Number.isFinite(quantity) || quantity <= 0) continue;
    if (match[3] ?? match[6]) currency = SYMBOLS[(match[3] ?? match[6])!];
    items.push(line(description, quantity, amount));
    rest = rest.replace(match[0], ",");
  }
  if (tax && items.length > 0) rest = rest.replace(tax[0], ",");
  // Lines in the order they were said.
  const lower = message.toLowerCase();
  const at = (item: Record<string, unknown>) => lower.indexOf(String(item.description).toLowerCase().split(" ")[0]!);
  items.sort((a, b) => at(a) - at(b));
  return { items, rest, ...(currency ? { currency } : {}) };
}

/** "Update pricing page in website relaunch" → free "Update pricing page", ref "in website relaunch". */
function splitReferences(text: string): { free: Piece[]; refs: Piece[] } {
  const refs: Piece[] = [];
  let head = text;
  for (;;) {
    // "on customer portal": a noun after a preposition is part of a name, not the word that introduces one.
    const matches = [...head.matchAll(new RegExp(REFERENCE_TRIGGERS, "gi"))].filter(
      (match) => !(/^(?:customer|contact|project)\s/i.test(match[0]) && /\b(?:on|in|for|the|to|at|of|from|a|an)\s*$/i.test(head.slice(0, match.index))),
    );
    const last = matches.at(-1);
    if (!last) break;
    const value = head.slice(last.index + last[0].length).trim();
    if (!value) break;
    refs.unshift({ text: value, trigger: last[0].trim().toLowerCase() });
    head = head.slice(0, last.index).trim();
  }
  return { free: head ? [{ text: head, trigger: null }] : [], refs };
}

const tidy = (text: string) =>
  text
    .replace(/^(?:for\s+)?(?:the|a|an)\s+/i, "")
    .replace(/[.,;:!?]+$/, "")
    .replace(/\s+(?:to|as|into|in|on|at|for|from|with|is|are|has|have)$/i, "")
    .trim();

/** A person's or company's name typed in lower case is capitalised word by word; a title, its first letter. */
function nameCase(R: ResourceModel, field: string, text: string): string {
  const proper = field === "name" && (R.fields.has("email") || R.name === "customers");
  if (proper && /^[\p{Ll} .'-]+$/u.test(text)) return titleCase(text);
  return capitalised(text);
}

const capitalised = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);
/** "head of sales" → "Head of Sales": each word capitalised but the small ones inside ("of", "and", "the"). */
const titleCase = (text: string) =>
  text.replace(/\p{L}[\p{L}'’]*/gu, (word, at: number) =>
    at > 0 && /^(?:of|and|the|for|in|on|at|to|a|an|or|with|de|van|von)$/.test(word) ? word : word[0]!.toUpperCase() + word.slice(1),
  );

/** Finds the references and the record, then the request and its summary (or what to ask). */
export async function build(env: ActionEnv, w: Words, cue: ActionCue, R: ResourceModel, focus: Choice | null): Promise<Built> {
  const operation = operationOf(cue, R);
  const references = env.schema.resources.flatMap((resource) => (resource.skill?.reference ? [resource.skill.reference.pattern] : []));
  const read = extract(w, cue, R, operation, env.now, references);
  const body = bodyFor(R, operation);
  const fields: Record<string, unknown> = { ...read.fields };
  // ("billing@initech.example should receive invoice 98, send it there": where it goes, said before the command —
  // only when the command points back to it; an address said for anything else is never where it goes.)
  // ("… fire off INV-000098 to the address": words after "to" that are no address say where it goes, not what.)
  if (typeof fields.to === "string" && !EMAIL.test(fields.to)) delete fields.to;
  const pointsBack = /\b(?:there|(?:that|this|the) (?:e-?mail )?address|to (?:them|that|it))\b/i.test(w.text);
  const address =
    body.some((field) => field.name === "to") && fields.to === undefined
      ? (EMAIL.exec(w.text) ?? (pointsBack && (env.message ?? "").match(new RegExp(EMAIL.source, "gi"))?.length === 1 ? EMAIL.exec(env.message!) : null))
      : null;
  if (address) fields.to = address[0].toLowerCase();
  if (Array.isArray(fields.items)) fields.items = await catalogueNamed(env, fields.items as Record<string, unknown>[]);
  const draft: ActionDraft = { resource: R.name, operation, target: null, fields };
  const referenceFields = body.filter((field) => field.kind === "reference");
  const free = [...read.free];

  // The record it changes: a reference ("task 57", "INV-000052"), "it", or the first free piece.
  let target: Candidate | null = null;
  let choice: { text: string; options: Candidate[] } | null = null;
  if (operation !== "create") {
    // A quoted name is the record's ("mark 'Plan exports' done") unless it is a value read already ("… to 'a, b'").
    const quoted = QUOTED.exec(cue.rest)?.[1];
    const quotedName = quoted && !Object.values(fields).includes(quoted) ? quoted : undefined;
    const onParent = R.skill?.reference?.pattern.test(w.text) ? null : await recordOnParent(env, R, w.text);
    const pattern = R.skill?.reference?.pattern;
    const match = pattern?.exec(w.text);
    const reference = match && R.skill?.reference ? R.skill.reference.query(match[1] ?? match[0]) : null;
    // ("whats the billing address we have for Stark" → "change the city to Boston": no name at all is the one
    // record the conversation is about, when it is of this kind.)
    const unnamed = free.length === 0 && read.refs.length === 0 && !quotedName;
    // (Or the record the last question was restricted to: "anything paid on INV-000150?" → "send them a reminder".)
    const inFocus = [focus, env.about].find((record) => record?.resource === R.name);
    // (Never for what cannot be undone: "delete the customer" still asks which.)
    const undoable = !["delete", "void"].includes(operation);
    const focused = !reference && !onParent && unnamed && undoable && inFocus ? await referencedRecord(env.fetch, R, { id: inFocus.id }) : undefined;
    if (reference) {
      const found = reference.id
        ? await env.fetch(`/${R.name}?ids=${reference.id}`)
        : await env.fetch(`/${R.name}?q=${encodeURIComponent(reference.q!)}&limit=5`);
      if (!found.ok) return { kind: "fail", text: env.refuse(found.error) };
      const record = found.ok
        ? found.data.find((row) => (reference.id ? row.id === Number(reference.id) : String(row[R.nameField ?? "id"]) === reference.q))
        : undefined;
      if (!record) return { kind: "fail", text: `I couldn't find ${R.singular} ${reference.id ?? reference.q}.` };
      target = { resource: R, record, label: labelOf(R, record) };
      // The reference's words are no name.
      for (let i = free.length - 1; i >= 0; i--) if (pattern!.test(free[i]!.text) || /^\d+$/.test(free[i]!.text.trim())) free.splice(i, 1);
      for (let i = read.refs.length - 1; i >= 0; i--) if (pattern!.test(read.refs[i]!.text)) read.refs.splice(i, 1);
    } else if (onParent) {
      const on = onParent;
      if (on.kind === "fail") return on;
      if (on.kind === "choose") return { kind: "choose", text: on.text, options: on.options, resume: { kind: "action", draft, role: { target: true } } };
      target = on.found;
      free.length = 0;
    } else if (PRONOUN.test(cue.rest.split(/[,;]/)[0] ?? "") && focus && focus.resource === R.name) {
      const record = await referencedRecord(env.fetch, R, { id: focus.id });
      if (record) target = { resource: R, record, label: labelOf(R, record) };
      for (let i = free.length - 1; i >= 0; i--) if (PRONOUN.test(free[i]!.text) && free[i]!.text.split(" ").length <= 2) free.splice(i, 1);
    } else if (focused) {
      target = { resource: R, record: focused, label: labelOf(R, focused) };
    } else {
      const name = quotedName ? { text: quotedName, trigger: null } : (free.shift() ?? read.refs.shift());
      if (quotedName) for (let i = free.length - 1; i >= 0; i--) if (quotedName.toLowerCase().includes(free[i]!.text.toLowerCase())) free.splice(i, 1);
      if (!name) return { kind: "missing", draft, missing: ["target"], text: `Which ${R.singular} do you mean? Give me its name or number.` };
      // "carl berners-lee's lead value": the name ends where the resource's noun or a field's word begins.
      const words = [...R.nouns, ...[...R.fields.values()].flatMap((field) => field.words.filter((word) => word.length > 3))].map((word) => escapeRegExp(word));
      const cut = name.text.replace(new RegExp(`(?:'s)?\\s+(?:${words.join("|")})\\b.*$`, "i"), "");
      let cleaned = tidy((cut || name.text).replace(/^(?:the|my|our)\s+/i, ""));
      // "fix checkout on website relaunch": a task's project narrows it.
      const within = read.refs.find((ref) => ["on", "in", "on the", "in the", "from", "for", "at"].includes(ref.trigger ?? "")) ?? free[0];
      // ("remove the contact tim@…": the one whose address it is.)
      const byEmail =
        /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(cleaned) && R.filters.has("email")
          ? await env.fetch(`/${R.name}?email=${encodeURIComponent(cleaned)}&limit=2`)
          : null;
      let found: Awaited<ReturnType<typeof findNamed>> =
        byEmail?.ok && byEmail.data.length === 1
          ? { kind: "one", found: { resource: R, record: byEmail.data[0]!, label: labelOf(R, byEmail.data[0]!) } }
          : ((await findAtCompany(env.fetch, [R], cleaned)) ?? (await findNamed(env.fetch, [R], cleaned)));
      // "guido allen nailed the interview": the name leads, what was said of it follows.
      const said = cleaned.split(/\s+/);
      // ("hire Evelyn as Account Executive": a first name alone, when what follows is what they become.)
      const least = /^(?:as|for)$/i.test(said[1] ?? "") ? 1 : 2;
      for (let n = said.length - 1; found.kind === "none" && n >= least && said.length <= 8; n--) {
        const shorter = await findNamed(env.fetch, [R], said.slice(0, n).join(" "));
        if (shorter.kind === "one") found = shorter;
      }
      // "drop review dashboard on erp migration to low priority": a state word just before the name ("review") is the
      // name's when with it fewer records are so named — and no state is then said unless the word comes again.
      const named = escapeRegExp(cleaned);
      const before = new RegExp(`\\b([a-z]+)\\s+${named}`, "i").exec(w.text)?.[1]?.toLowerCase() ?? "";
      const stateWord = before && [...R.fields.values()].some((field) => field.kind === "enum" && field.values?.includes(before)) ? before : "";
      const stateField = Object.keys(read.fields).find((field) => R.fields.get(field)?.kind === "enum" && read.fields[field] === stateWord);
      const count = (candidates: typeof found) =>
        candidates.kind === "one" ? 1 : candidates.kind === "many" ? (candidates.all ?? candidates.options).length : 0;
      if (stateWord && found.kind !== "one") {
        const longer = await findNamed(env.fetch, [R], `${stateWord} ${cleaned}`);
        if (longer.kind === "one" || (longer.kind === "many" && (found.kind !== "many" || count(longer) <= count(found)))) {
          found = longer;
          cleaned = `${stateWord} ${cleaned}`;
          if (stateField && (w.text.match(new RegExp(`\\b${stateWord}\\b`, "gi")) ?? []).length < 2) delete fields[stateField];
        }
      }
      // ("set Hedy in Marketing's designation to …": where they are, said inside the name.)
      const inside = /^(.+?)\s+(?:in|at|from|on)\s+(?:the\s+)?(.+)$/i.exec(cleaned);
      if ((found.kind === "many" || found.kind === "none") && inside) {
        const named = await findNamed(env.fetch, [R], inside[1]!);
        const narrowed = named.kind === "many" ? await narrow(env, R, named.all ?? named.options, inside[2]!) : null;
        if (narrowed?.length === 1) found = { kind: "one", found: narrowed[0]! };
      }
      if (found.kind === "error") return { kind: "fail", text: env.refuse(found.error) };
      // "remind Vandelay about the $1,200 invoice", "send the initech draft out": a record of no name of its own,
      // told by whose it is and what it is.
      if (found.kind === "none") {
        const ranked = (await rankedFromListed(env, R, cleaned, focus ?? env.about ?? null, operation)) ?? (await datedOne(env, R, cleaned, w.text));
        if (ranked) found = { kind: "one", found: ranked };
      }
      if (found.kind === "none") {
        const told = await toldByParent(env, R, cue, cleaned, w.text);
        if (told.length === 1) found = { kind: "one", found: told[0]! };
        else if (told.length > 1) found = { kind: "many", options: told.slice(0, 6) };
      }
      // ("void the draft one from october" after Globex's unpaid invoices: not among those listed — whose it is, is
      // whom the conversation is about.)
      if (found.kind === "none" && env.about && /^(?:[\p{L}-]+\s+)?ones?$/iu.test(cleaned)) {
        const told = await toldByParent({ ...env, listed: undefined }, R, cue, `${env.about.label} ${cleaned}`, w.text);
        if (told.length === 1) found = { kind: "one", found: told[0]! };
        else if (told.length > 1) found = { kind: "many", options: told.slice(0, 6) };
      }
      if (found.kind === "none") return { kind: "fail", text: `I couldn't find ${withArticle(R.singular)} called "${cleaned}".` };
      // (Of several, the one the last answer listed: "show me the drafts" → "send the aperture one".)
      const onList = found.kind === "many" ? found.options.filter((option) => env.listed?.some((c) => c.resource === R.name && c.id === option.record.id)) : [];
      if (onList.length === 1) found = { kind: "one", found: onList[0]! };
      // ("talked to the gringotts folks, they want more scope on the platform deal": of several, the one whose name
      // alone has a word the message says elsewhere — Gringotts — platform.)
      if (found.kind === "many") {
        const wordsIn = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
        const said = new Set(wordsIn(env.message ?? w.text));
        const typed = new Set(wordsIn(cleaned));
        const options = found.all ?? found.options;
        const nameWords = options.map((option) => wordsIn(nameOf(option.resource, option.record)));
        const told = options.filter((_, i) =>
          nameWords[i]!.some(
            (word) => word.length >= 4 && !typed.has(word) && said.has(word) && nameWords.filter((other) => other.includes(word)).length === 1,
          ),
        );
        if (told.length === 1) found = { kind: "one", found: told[0]! };
      }
      if (found.kind === "many") {
        // (A value narrows only when said as theirs: "Hedy in Marketing's title", not "put Frances in Finance".)
        const narrowed = within ? await narrow(env, R, found.all ?? found.options, within.text, /['’]s\s/.test(within.text)) : null;
        const underSaid =
          narrowed?.length === 1 ? null : await underParentSaid(env.fetch, parentsOf(env, R), found.all ?? found.options, env.message ?? w.text);
        if (underSaid) {
          target = underSaid.found;
          spendParent(underSaid.parent, read.refs, free);
        } else if (narrowed?.length === 1) {
          target = narrowed[0]!;
          if (read.refs.includes(within as Piece)) read.refs.splice(read.refs.indexOf(within as Piece), 1);
          else free.splice(free.indexOf(within as Piece), 1);
        } else {
          // Which one is asked once the rest is read, so that the answer resumes with every field said
          // ("frances is moving over to finance" → "matsumoto": her department still changes). The first
          // option stands in meanwhile; nothing is proposed for it.
          choice = { text: cleaned, options: narrowed && narrowed.length > 1 ? narrowed : found.options };
          target = choice.options[0]!;
          // ("update ken at globex": where they work only told them apart.)
          if (within && ["at", "from"].includes(within.trigger ?? "")) {
            if (read.refs.includes(within as Piece)) read.refs.splice(read.refs.indexOf(within as Piece), 1);
            else free.splice(free.indexOf(within as Piece), 1);
          }
        }
      } else {
        target = found.found;
        // The project that only qualified the name is no field to change.
        if (within && read.refs.includes(within as Piece) && R.fields.get("project_id")) read.refs.splice(read.refs.indexOf(within as Piece), 1);
        // ("qualify katherine allen at initech": where she already works only said who she is.)
        const where = within ? tidy(within.text).toLowerCase() : "";
        if (
          within &&
          ["at", "from"].includes(within.trigger ?? "") &&
          Object.values(target.record).some((value) => typeof value === "string" && value.toLowerCase() === where)
        ) {
          if (read.refs.includes(within as Piece)) read.refs.splice(read.refs.indexOf(within as Piece), 1);
          else if (free.includes(within as Piece)) free.splice(free.indexOf(within as Piece), 1);
        }
      }
    }
    draft.target = {
      id: target!.record.id,
      name: target!.label,
      ...(typeof target!.record.updated_at === "string" ? { version: target!.record.updated_at } : {}),
    };
    // ("scrap 245, it's a draft we don't need", "kill the draft INV-000233": a draft nobody has seen is thrown away,
    // as the API allows only for drafts; said "void" or "cancel", it is voided.)
    if (operation === "void" && target!.record.status === "draft" && R.deletable && !/^(?:void|cancel)/i.test(cue.verb)) draft.operation = "delete";
  }

  // References by their own pattern ("on INV-000216"): the referenced record by number.
  const labels: Record<string, string> = {};
  for (const field of referenceFields) {
    const target = env.schema.byName.get(field.target ?? "");
    const match = target?.skill?.reference?.pattern.exec(w.text);
    if (!target || !match || target === R || fields[field.name] !== undefined) continue;
    const query = target.skill!.reference!.query(match[1] ?? match[0]);
    const record = await referencedRecord(env.fetch, target, query);
    if (!record) return { kind: "fail", text: `I couldn't find ${target.singular} ${query.id ?? query.q}.` };
    fields[field.name] = record.id;
    labels[field.name] = labelOf(target, record);
    // "paid in full": the amount still due on the record it is paid against.
    const moneyField = body.find((candidate) => candidate.kind === "money");
    if (
      moneyField &&
      fields[moneyField.name] === undefined &&
      /\b(?:in full|(?:the )?full amount|the whole (?:amount|thing|lot|balance)|everything (?:owed|due))\b/i.test(`${w.text} ${cue.rest}`)
    ) {
      const due = record.amount_due;
      if (typeof due === "number" && due > 0) fields[moneyField.name] = due;
    }
    // "paid half of INV-…": that share of what is still due.
    const part = /\b(half|a third|a quarter)\b/i.exec(`${w.text} ${cue.rest}`)?.[1]?.toLowerCase();
    if (moneyField && fields[moneyField.name] === undefined && part && typeof record.amount_due === "number" && record.amount_due > 0)
      fields[moneyField.name] = Math.round(record.amount_due / (part === "half" ? 2 : part === "a third" ? 3 : 4));
    const pattern = target.skill!.reference!.pattern;
    for (let i = free.length - 1; i >= 0; i--) if (pattern.test(free[i]!.text)) free.splice(i, 1);
    for (let i = read.refs.length - 1; i >= 0; i--) if (pattern.test(read.refs[i]!.text)) read.refs.splice(i, 1);
  }
  if (body.some((field) => field.name === "items") && fields.items === undefined) {
    const lines = await catalogueLines(env, [...read.refs, ...free]);
    if (lines.length > 0) {
      fields.items = lines.map(({ line }) => line);
      labels.items = lines.map(({ label, line }) => `${line.quantity} × ${label}`).join(", ");
      for (const { piece } of lines) {
        if (read.refs.includes(piece)) read.refs.splice(read.refs.indexOf(piece), 1);
        if (free.includes(piece)) free.splice(free.indexOf(piece), 1);
      }
    }
  }
  // References by name: each piece against the body's reference fields, by the word before it.
  const unresolved: Piece[] = [];
  const ambiguous: { ref: Piece; field: string; options: Candidate[] }[] = [];
  const fieldChoices: { text: string; options: Candidate[]; field: string }[] = [];
  for (const ref of read.refs) {
    const resolved = await referenceFor(env, R, referenceFields, fields, ref);
    if (resolved === "none") unresolved.push(ref);
    else if (resolved.kind === "choose") ambiguous.push({ ref, field: resolved.field, options: resolved.options });
    else {
      fields[resolved.field] = resolved.id;
      labels[resolved.field] = resolved.label;
    }
  }
  // "plan search in data warehouse": a name shared by several tasks, narrowed by the project beside it.
  for (const { ref, field, options } of ambiguous) {
    // (The one the last answer listed, if only one of them was.)
    const onList = options.filter((option) => env.listed?.some((c) => c.resource === option.resource.name && c.id === option.record.id));
    let chosen: Candidate | null = onList.length === 1 ? onList[0]! : null;
    // The project may be said with a preposition ("in data warehouse") or in brackets ("(mobile app)").
    for (const other of chosen ? [] : [...unresolved, ...free]) {
      const narrowed = await narrow(env, options[0]!.resource, options, other.text);
      if (narrowed?.length === 1) {
        chosen = narrowed[0]!;
        if (unresolved.includes(other)) unresolved.splice(unresolved.indexOf(other), 1);
        else free.splice(free.indexOf(other), 1);
        break;
      }
    }
    // Which one is asked once the rest is read ("2h for grace on draft exports (website relaunch)": the task is still
    // narrowed by its project, and the answer resumes with it). The first option stands in meanwhile (so no other
    // piece is taken for that field); nothing is proposed for it, and each name still unclear is asked in turn.
    const underSaid = chosen ? null : await underParentSaid(env.fetch, parentsOf(env, options[0]!.resource), options, env.message ?? w.text);
    if (underSaid) {
      chosen = underSaid.found;
      spendParent(underSaid.parent, unresolved, free);
    }
    if (!chosen) {
      fieldChoices.push({ text: ref.text, options, field });
      chosen = options[0]!;
    }
    fields[field] = chosen.record.id;
    labels[field] = chosen.label;
  }
  // A text field its word introduces ("at Northwind" → a lead's company), if the skill says so.
  for (const ref of [...unresolved]) {
    // "met him at an event": a value the workspace already uses (a lead's source) before the word's field (company).
    const valued = await textValueFor(env, R, operation, body, fields, tidy(ref.text));
    if (valued && !(R.skill?.values ?? []).some((value) => value.param === valued.field && value.words.includes(ref.trigger ?? ""))) {
      const owner = (R.skill?.values ?? []).find((value) => value.words.includes(ref.trigger ?? ""));
      if (owner && owner.param !== valued.field) {
        fields[valued.field] = valued.value;
        if (valued.also) fields[valued.also.field] = valued.also.value;
        unresolved.splice(unresolved.indexOf(ref), 1);
        continue;
      }
    }
    // ("Priya Natarajan from Halcyon Foods": a proper name after "from", no source the workspace knows, is where
    // the person works.)
    if (
      ref.trigger === "from" &&
      !valued &&
      fields.company === undefined &&
      body.some((field) => field.name === "company" && field.kind === "text") &&
      /^\p{Lu}[\p{L}\d&.' -]{1,40}$/u.test(tidy(ref.text))
    ) {
      fields.company = tidy(ref.text);
      unresolved.splice(unresolved.indexOf(ref), 1);
      continue;
    }
    const entry = (R.skill?.values ?? []).find(
      (value) =>
        value.words.includes(ref.trigger ?? "") &&
        body.some((field) => field.name === value.param && field.kind === "text") &&
        fields[value.param] === undefined,
    );
    if (!entry) continue;
    fields[entry.param] = nameCase(R, "name", tidy(ref.text));
    unresolved.splice(unresolved.indexOf(ref), 1);
  }
  // Unfound on a create: part of the title ("Fix bug in login"); on a change, maybe a value ("to sales").
  for (const ref of unresolved) free.push({ text: operation === "create" ? `${ref.trigger ?? ""} ${ref.text}`.trim() : ref.text, trigger: null });
  await toldByOwner(env, cue, w.text, operation, body, fields, labels, free);
  draft.labels = labels;
  // The name or title of a new record: the first free piece ("Chase Nakatomi payment"); for pieces left over, a
  // reference field still empty (a project said without "in").
  const titleField = body.find((field) => field.name === "title" || field.name === "name");
  if (operation === "create" && titleField && fields[titleField.name] === undefined && free.length > 0 && free[0]!.text) {
    const piece = free.shift()!;
    // "a deal for Initech support renewal": the preposition after the noun is no part of the title.
    let text = tidy(piece.text)
      .replace(/^for\s+/i, "")
      // ("add a customer for me, the email is …": the words that introduced a value are no name.)
      // ("… with the address ravi@…": the words that introduce the address are no name either.)
      .replace(/^(?:(?:with|at|under)\s+)?(?:(?:the|their|her|his)\s+)?(?:e-?mail|phone|number|address|contact|customer|owner)(?:\s+(?:is|address))?$/i, "")
      // ("set up a new customer, they're in austria": who they are is still to be said.)
      .replace(/^(?:they|they're|theyre|they are|he's|she's|it's|he|she|it|we|we're)\b.*$/i, "")
      // ("a customer record for the guys we met at the trade show": who they are, described — no name yet.)
      .replace(/^(?:(?:the|those|these|some)\s+)?(?:guys|people|folks|ones|lady|man|woman|team|company)\s+(?:we|i|you|that|who)\b.*$/, "")
      // ("an employee record for the new ops hire", "add something to the partner api board": a role or a
      // placeholder, no name yet.)
      .replace(
        /^(?:(?:the|a|an|our|my)\s+)?(?:new|next|latest|upcoming)\s+(?:[\p{L}-]+\s+){0,2}(?:hire|starter|joiner|person|guy|girl|employee|recruit|customer|client|lead|deal|opportunity|project|job|role|opening|task)$/iu,
        "",
      )
      .replace(/^(?:something|anything|stuff|a thing|one|already|it|this|that)$/i, "");
    // ("add a $40,000 deal for Acme", "Support expansion deal": the record's own noun is no name, nor the end of one.)
    const ownNoun = `(?:${R.nouns.map((noun) => escapeRegExp(noun)).join("|")})`;
    text = text.replace(new RegExp(`^(?:(?:a|an|the|new)\\s+)*${ownNoun}$|(?<=\\S)\\s+${ownNoun}$`, "i"), "");
    // "new opening in marketing, remote": a known value (a branch) is no title; the title is then still missing.
    const valued = text ? await textValueFor(env, R, operation, body, fields, text) : null;
    // "an opening for 2 Account Managers": how many, and one of them is the title.
    const counted = /^(\d{1,3})\s+(.+?)(?<!s)s$/i.exec(text);
    const countField = body.find((field) => field.name === "positions" || field.name === "quantity");
    // ("…, remote branch": a known value said with its field's own word is that field's too.)
    const withItsWord = valued && new RegExp(`^\\S+\\s+(?:${valued.field.replace(/_/g, " ")}|office|dept)$`, "i").test(text);
    // ("new deal hooli 40k": a name that is all of a customer's — a record it refers to — is whom the deal is for; its
    // own name is still asked. A name is one to four words: a longer title is never read against the records.)
    const owner = text && !valued && text.split(/\s+/).length <= 4 ? await ownerNamed(env, R, referenceFields, fields, text) : null;
    if (owner) {
      fields[owner.field] = owner.found.record.id;
      labels[owner.field] = owner.found.label;
    } else if (valued && (text.split(/\s+/).length === 1 || withItsWord)) fields[valued.field] = valued.value;
    else if (counted && countField && fields[countField.name] === undefined && Number(counted[1]) > 0) {
      fields[countField.name] = Number(counted[1]);
      fields[titleField.name] = nameCase(R, titleField.name, counted[2]!);
    } else if (text) fields[titleField.name] = nameCase(R, titleField.name, text);
  }
  for (const piece of free) {
    const empty = referenceFields.filter((field) => fields[field.name] === undefined);
    if (empty.length === 0) break;
    const resolved = await referenceFor(env, R, empty, fields, { text: piece.text, trigger: null });
    // "2 hrs for John yesterday, Plan checkout on the mobile app", "1.5 hours yesterday, Build reports, ERP migration":
    // a name several records share, narrowed by the parent named with it — or anywhere in the message — else asked.
    if (resolved !== "none" && resolved.kind === "choose") {
      const { options, field } = resolved;
      let chosen: Candidate | null = null;
      // (Where it is — "on the intranet" — before whom it is for; then the other pieces said bare.)
      const where = (ref: Piece) => (/^(?:on|in|on the|in the|under)$/.test(ref.trigger ?? "") ? 0 : 1);
      for (const other of [...[...read.refs].sort((a, b) => where(a) - where(b)), ...free.filter((other) => other !== piece && other.text)]) {
        const within = await narrow(env, options[0]!.resource, options, other.text);
        if (within?.length !== 1) continue;
        chosen = within[0]!;
        if (free.includes(other)) other.text = "";
        break;
      }
      const underSaid = chosen ? null : await underParentSaid(env.fetch, parentsOf(env, options[0]!.resource), options, env.message ?? w.text);
      if (underSaid) {
        chosen = underSaid.found;
        for (const other of free) if (saysName(underSaid.parent, other.text) && saysName(other.text, underSaid.parent)) other.text = "";
      }
      // (Still several, each so named: which one is asked, like a name said with its field's word. Not when the
      // piece only resembles their names — "Linus is swamped" is no project.)
      if (!chosen && !options.every((option) => sameWords(nameOf(option.resource, option.record), tidy(piece.text)))) continue;
      if (!chosen) {
        fieldChoices.push({ text: piece.text, options, field });
        chosen = options[0]!;
      }
      fields[field] = chosen.record.id;
      labels[field] = chosen.label;
      piece.text = "";
    } else if (resolved !== "none" && resolved.kind === "one") {
      fields[resolved.field] = resolved.id;
      labels[resolved.field] = resolved.label;
      piece.text = "";
    }
  }
  // ("create lead Tom Becker, …, from Stark, event": a value after one field's word that the workspace has only in
  // another field — Stark is a company its leads have, no source — is that other field's; "event" is then the source.)
  const known = await env.values(R);
  for (const field of body) {
    const value = fields[field.name];
    if (field.kind !== "text" || typeof value !== "string" || !CANONICAL.has(field.name)) continue;
    if (known.get(field.name)?.some((candidate) => sameWords(candidate, value))) continue;
    const other = [...known].find(
      ([name, list]) =>
        name !== field.name && fields[name] === undefined && body.some((open) => open.name === name) && list.some((candidate) => sameWords(candidate, value)),
    );
    if (!other) continue;
    fields[other[0]] = value;
    delete fields[field.name];
  }
  // Pieces that are a value of a text field in the workspace's rows ("finance", "Berlin", "remote"); else a
  // short name left over on a new record with a company field is its company ("…, Northwind, from linkedin").
  for (const piece of free) {
    if (!piece.text) continue;
    const value = await textValueFor(env, R, operation, body, fields, tidy(piece.text));
    if (value) {
      fields[value.field] = value.value;
      if (value.also) fields[value.also.field] = value.also.value;
    } else if (
      operation === "create" &&
      fields.company === undefined &&
      body.some((field) => field.name === "company" && field.kind === "text") &&
      // (In lower case too when it ends as companies do: "kessler gmbh".)
      (/^\p{Lu}[\p{L}\d&.' -]{1,40}$/u.test(piece.text.trim()) ||
        /^[\p{L}\d&.' -]{1,40}\s(?:gmbh|inc|ltd|llc|ag|corp|co|sa|bv|ab|as|oy|plc|srl|sas|pty|kg|sarl|spa|nv)\.?$/iu.test(piece.text.trim())) &&
      piece.text.trim().split(/\s+/).length <= 4 &&
      // (Not a field's own word left over when its value was read: "… already. Email olga@…".)
      ![...R.fields.values()].some((field) => field.words.includes(piece.text.trim().toLowerCase()))
    )
      fields.company = piece.text.trim().replace(/^\p{Ll}/u, (first) => first.toUpperCase());
    // "…, non billable, internal sync": on a new record with no title, a last phrase in lower case is its note.
    else if (
      operation === "create" &&
      !titleField &&
      w.text
        .trim()
        .replace(/[.!]+$/, "")
        .endsWith(piece.text.trim()) &&
      !/^(?:in|on|at|for|to|from|with|by|under)\s/i.test(piece.text.trim()) &&
      /^[\p{Ll}][\p{Ll}\d ,.'-]{2,200}$/u.test(piece.text.trim()) &&
      piece.text.trim().split(/\s+/).length >= 2
    ) {
      const noteField = body.find((field) => ["note", "notes", "description"].includes(field.name) && fields[field.name] === undefined);
      if (noteField) fields[noteField.name] = piece.text.trim();
    }
  }
  // ("new lead tom baker from contoso, tom@contoso.example": "from" a name that is no source the workspace knows, nor
  // one in the skill's words for its sources, is where they work — when the record has a company and none was given,
  // and the name is their address's domain or typed with a capital.)
  const fromWhom = typeof fields.source === "string" ? fields.source : undefined;
  if (fromWhom && fields.company === undefined && body.some((field) => field.name === "company")) {
    const known = (await knownValues(env, R, new Set(["source"]))).get("source") ?? [];
    const lower = fromWhom.toLowerCase();
    const means = Object.entries(R.skill?.fields.source?.means ?? {});
    const isSource =
      known.some((value) => value.toLowerCase() === lower) ||
      Boolean(matchValue(new Map([["source", known]]), fromWhom)?.exact) ||
      means.some(([value, words]) => value === lower || words.some((word) => lower.includes(word)));
    const domain = typeof fields.email === "string" ? fields.email.split("@")[1]?.toLowerCase() : undefined;
    const said = new RegExp(`\\bfrom\\s+(?:the\\s+)?(${escapeRegExp(fromWhom)})\\b`, "i").exec(w.text)?.[1];
    const named = Boolean(said && (/^\p{Lu}/u.test(said) || domain?.includes(lower.replace(/[^a-z0-9]/g, ""))));
    if (!isSource && named) {
      fields.company = fromWhom;
      delete fields.source;
    }
  }
  // Text values as the workspace already spells them ("engineering" → "Engineering"), or in its style.
  for (const field of body) {
    const value = fields[field.name];
    if (field.kind !== "text" || typeof value !== "string" || !CANONICAL.has(field.name)) continue;
    fields[field.name] = await canonical(env, operation === "hire" ? (env.schema.byName.get("employees") ?? R) : R, field.name, value);
  }
  // ("wonka pilot is dead, they said we are too expensive": a reason said in words the skill gives for one of the
  // field's usual values is that value, when the change is the one that says it.)
  for (const field of body) {
    const skill = R.skill?.fields[field.name];
    const said = fields[field.name];
    // (A reason typed as one — "reason: budget cut" — stays as typed.)
    const typed = new RegExp(
      `\\b(?:${(R.fields.get(field.name)?.words ?? []).filter((word) => !word.includes(" ")).join("|") || "-"})\\b\\s*(?::|is|=)?\\s*\\p{L}`,
      "iu",
    );
    if (!skill?.means || (said !== undefined && (typeof said !== "string" || typed.test(env.message ?? w.text)))) continue;
    if (skill.when && !Object.entries(skill.when).every(([name, value]) => fields[name] === value)) continue;
    const text = typeof said === "string" ? said : (env.message ?? w.text);
    const meant = Object.entries(skill.means).find(([, list]) => list.some((word) => new RegExp(`\\b${word.replace(/ /g, "\\s+")}\\b`, "i").test(text)));
    if (meant) fields[field.name] = meant[0];
  }
  // "they just paid $1.2k of that": a reference still empty is the record the conversation is about, if it is one.
  if (focus && /\b(?:it|that|this|them|those)\b/i.test(w.text)) {
    for (const field of referenceFields) {
      if (fields[field.name] === undefined && field.target === focus.resource && focus.resource !== R.name) {
        fields[field.name] = focus.id;
        labels[field.name] = focus.label;
      }
    }
  }
  // ("send INV-000233 to globex": an address field takes an address; a name there is whom it is for already.)
  for (const name of ["to", "cc", "bcc"])
    if (typeof fields[name] === "string" && !String(fields[name]).includes("@") && operation !== "create" && operation !== "update") delete fields[name];
  // Time is logged by someone on a task: a task's project is not a task.
  if (R.name === "time-entries" && operation === "create" && typeof fields.project_id === "number") delete fields.project_id;

  // Every name still unclear is asked, one after the other; the stand-ins are no part of what resumes.
  const asked: { text: string; options: Candidate[]; role: { target: true } | { field: string } }[] = [
    ...(choice ? [{ text: choice.text, options: choice.options, role: { target: true as const } }] : []),
    ...fieldChoices.map((entry) => ({ text: entry.text, options: entry.options, role: { field: entry.field } })),
  ];
  if (asked.length > 0) {
    const unasked = new Set(fieldChoices.map((entry) => entry.field));
    const others = Object.fromEntries(Object.entries(fields).filter(([name]) => !unasked.has(name)));
    const named = Object.fromEntries(Object.entries(labels).filter(([name]) => !unasked.has(name)));
    const [first, ...rest] = asked;
    return {
      kind: "choose",
      text: first!.text,
      options: first!.options,
      resume: {
        kind: "action",
        draft: { ...draft, ...(choice ? { target: null } : {}), fields: others, labels: named },
        role: first!.role,
        ...(rest.length > 0
          ? {
              queued: rest.map((entry) => ({
                text: entry.text,
                role: entry.role,
                options: entry.options.map((option) => ({ resource: option.resource.name, id: option.record.id, label: option.label })),
              })),
            }
          : {}),
      },
    };
  }
  if (operation === "update" && Object.keys(fields).length === 0) {
    return { kind: "missing", draft, missing: ["fields"], text: `What should change on ${draft.target?.name ?? `the ${R.singular}`}?` };
  }
  return complete(env, R, draft);
}

/** A draft's proposal, or the question for what a new record still needs (also once a choice resumes it). */
export function complete(env: ActionEnv, R: ResourceModel, draft: ActionDraft): Built {
  const required =
    draft.operation === "create"
      ? bodyFor(R, "create")
          .filter((field) => field.required && draft.fields[field.name] === undefined)
          .map((field) => field.name)
      : [];
  if (required.length > 0) return { kind: "missing", draft, missing: required, text: askFor(R, required, draft.fields) };
  return proposal(env, R, draft);
}

/**
 * Lines named after the workspace's catalogue ("for 3 setup fees", "with 2 licences"): a count, then a
 * product's name (singular or plural) → `{product_id, quantity}`; the products package fills in the rest.
 */
async function catalogueLines(env: ActionEnv, pieces: Piece[]): Promise<{ piece: Piece; line: { product_id: number; quantity: number }; label: string }[]> {
  const products = env.schema.byName.get("products");
  if (!products) return [];
  const out: { piece: Piece; line: { product_id: number; quantity: number }; label: string }[] = [];
  for (const piece of pieces) {
    const counted = /^(\d+(?:\.\d+)?)\s+(?:x\s+)?(.+)$/i.exec(tidy(piece.text));
    if (!counted) continue;
    const name = counted[2]!.trim();
    for (const attempt of [...new Set([name, name.replace(/(?<=[a-z]{3})s$/i, "")])]) {
      const found = await env.fetch(`/products?q=${encodeURIComponent(attempt)}&active=true&limit=2`);
      if (!found.ok || found.data.length !== 1) continue;
      const product = found.data[0]!;
      out.push({ piece, line: { product_id: product.id, quantity: Number(counted[1]) }, label: String(product.name) });
      break;
    }
  }
  return out;
}

/**
 * Lines described as the catalogue names a product, a letter or two off ("5 training sesions @ 800"), take the
 * product's own name; a line the catalogue does not have keeps its words.
 */
async function catalogueNamed(env: ActionEnv, items: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  if (!env.schema.byName.get("products") || !items.some((item) => typeof item.description === "string")) return items;
  const found = await env.fetch("/products?active=true&limit=100");
  const names = found.ok ? found.data.map((product) => String(product.name ?? "")).filter((name) => name.length >= 6) : [];
  return items.map((item) => {
    const said = typeof item.description === "string" ? item.description.toLowerCase() : "";
    const near = said ? names.filter((name) => distance(name.toLowerCase(), said, 2) <= 2) : [];
    return near.length === 1 ? { ...item, description: near[0] } : item;
  });
}

/** Fields whose values form a small vocabulary of the workspace's own (departments, branches, titles, sources). */
const CANONICAL: ReadonlySet<string> = new Set(["department", "branch", "designation", "source", "company"]);

async function canonical(env: ActionEnv, source: ResourceModel, field: string, value: string): Promise<string> {
  const known = (await knownValues(env, source, new Set([field]))).get(field) ?? [];
  if (known.length === 0) return value;
  const same = known.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  if (same) return same;
  // ("the SF office": the one value those initials, or those words in another number, stand for — San Francisco.)
  const match = matchValue(new Map([[field, known]]), value);
  if (match?.exact && match.values.length === 1) return match.values[0]!;
  // New to the workspace: capitalised like the values it has ("Support Specialist"), if those are.
  const styled = known.some((candidate) => /^\p{Lu}/u.test(candidate));
  return styled && /^[\p{Ll}\d .'&-]+$/u.test(value) ? titleCase(value) : value;
}

/**
 * The workspace's values of a resource's text fields, with those of the same fields on other records shared by
 * name (an opening's branch is one of the branches employees work in): its words for them, wherever kept.
 */
async function knownValues(env: ActionEnv, source: ResourceModel, fields: ReadonlySet<string>): Promise<Map<string, string[]>> {
  const values = new Map(await env.values(source));
  for (const other of env.schema.resources) {
    if (other === source || ![...fields].some((field) => other.fields.get(field)?.kind === "text" && other.filters.has(field))) continue;
    for (const [field, list] of await env.values(other)) if (fields.has(field)) values.set(field, [...new Set([...(values.get(field) ?? []), ...list])]);
  }
  return values;
}

/** A text field whose existing values include this one, or one of its words ("met him at an event" → event). */
async function textValueFor(
  env: ActionEnv,
  R: ResourceModel,
  operation: string,
  body: BodyField[],
  filled: Record<string, unknown>,
  text: string,
): Promise<{ field: string; value: unknown; also?: { field: string; value: unknown } } | null> {
  if (!text || text.length > 60) return null;
  // A hire's fields are an employee's.
  const source = operation === "hire" ? env.schema.byName.get("employees") : R;
  if (!source) return null;
  const open = new Set(body.filter((field) => field.kind === "text" && filled[field.name] === undefined).map((field) => field.name));
  const values = await knownValues(env, source, open);
  const exact = matchValue(values, text, (field) => open.has(field));
  if (exact?.exact) {
    // ("in SF": initials stand for the one value they begin — San Francisco.)
    const value = exact.values.find((candidate) => sameWords(candidate, bare(text))) ?? (exact.values.length === 1 ? exact.values[0] : undefined);
    if (value !== undefined) return { field: exact.field, value };
  }
  // ("a job in the berlin ops team": a branch and a department the workspace has, said together.)
  const pair = valuePair(new Map([...values].filter(([field]) => open.has(field))), text.replace(/\s+(?:team|department|dept|office)$/i, ""));
  if (pair && pair[0].values.length === 1 && pair[1].values.length === 1)
    return { field: pair[0].field, value: pair[0].values[0], also: { field: pair[1].field, value: pair[1].values[0] } };
  const inPhrase = text.split(/\s+/).length <= 6 ? valueInPhrase(values, text, (field) => open.has(field)) : null;
  // "promote carl to Senior Marketer": a title typed as one, ending in one the workspace has, is the whole title.
  const whole = bare(text);
  if (
    typeof inPhrase?.value === "string" &&
    /^\p{Lu}/u.test(whole) &&
    whole.split(/\s+/).length <= 4 &&
    whole.toLowerCase().endsWith(` ${inPhrase.value.toLowerCase()}`)
  )
    return { field: inPhrase.field, value: whole };
  // ("hire him as senior support specialist": a rank before a title the workspace has is part of the title, typed in
  // lower case or not.)
  const rank =
    typeof inPhrase?.value === "string"
      ? whole
          .toLowerCase()
          .slice(0, -inPhrase.value.length - 1)
          .split(/\s+/)
      : [];
  if (
    typeof inPhrase?.value === "string" &&
    whole.toLowerCase().endsWith(` ${inPhrase.value.toLowerCase()}`) &&
    rank.length <= 2 &&
    rank.every((word) => /^(?:senior|sr|junior|jr|lead|principal|staff|head|chief|associate|assistant|deputy)$/.test(word))
  )
    return { field: inPhrase.field, value: titleCase(whole) };
  // "moved over to stark labs": a company the workspace knows, with more name after it, is another company.
  const more = typeof inPhrase?.value === "string" && whole.toLowerCase().startsWith(`${inPhrase.value.toLowerCase()} `);
  const tail = more ? whole.slice(String(inPhrase?.value).length).trim().split(/\s+/) : [];
  if (inPhrase?.field === "company" && more && tail.length <= 2 && !tail.some((word) => FILLER.has(word.toLowerCase())))
    return { field: "company", value: /^[\p{Ll}\d .'&-]+$/u.test(whole) ? titleCase(whole) : whole };
  return inPhrase;
}

/**
 * "undo the payment on INV-000222", "reverse the last payment on INV-000162": a record with no name of its own,
 * named by the record it belongs to — the one there, the latest when "last" is said, else a choice.
 */
async function recordOnParent(
  env: ActionEnv,
  R: ResourceModel,
  text: string,
): Promise<{ kind: "one"; found: Candidate } | { kind: "choose"; text: string; options: Candidate[] } | { kind: "fail"; text: string } | null> {
  if (R.nameField && R.nameField !== "id") return null;
  for (const field of R.fields.values()) {
    const parent = field.kind === "reference" ? env.schema.byName.get(field.target ?? "") : undefined;
    const match = parent?.skill?.reference?.pattern.exec(text);
    if (!parent?.skill?.reference || !match || !R.filters.has(field.name)) continue;
    const reference = parent.skill.reference.query(match[1] ?? match[0]);
    const found = reference.id
      ? await env.fetch(`/${parent.name}?ids=${reference.id}`)
      : await env.fetch(`/${parent.name}?q=${encodeURIComponent(reference.q!)}&limit=5`);
    if (!found.ok) return { kind: "fail", text: env.refuse(found.error) };
    const record = found.data.find((row) => (reference.id ? row.id === Number(reference.id) : String(row[parent.nameField ?? "id"]) === reference.q));
    if (!record) return { kind: "fail", text: `I couldn't find ${parent.singular} ${reference.id ?? reference.q}.` };
    const rows = await env.fetch(`/${R.name}?${field.name}=${record.id}&limit=25`);
    if (!rows.ok) return { kind: "fail", text: env.refuse(rows.error) };
    const options = rows.data.map((row) => ({ resource: R, record: row, label: labelOf(R, row) }));
    if (options.length === 0) return { kind: "fail", text: `${labelOf(parent, record)} has no ${R.plural}.` };
    if (options.length === 1) return { kind: "one", found: options[0]! };
    if (/\b(?:last|latest|most recent|newest)\b/i.test(text)) return { kind: "one", found: options.reduce((a, b) => (b.record.id > a.record.id ? b : a)) };
    const described = describedOne(R, text, options);
    if (described) return { kind: "one", found: described };
    return { kind: "choose", text: labelOf(parent, record), options };
  }
  return null;
}

/**
 * "the card payment on INV-000063 … delete it": of the records there, the one the state said right before the
 * noun describes (a method, a status), when only one of them has it.
 */
function describedOne(R: ResourceModel, text: string, options: Candidate[]): Candidate | null {
  const said = new RegExp(`\\b((?:\\p{L}+\\s+)?\\p{L}+)\\s+(?:${R.singular}|${R.plural})\\b`, "iu").exec(text)?.[1]?.toLowerCase();
  if (!said) return null;
  const states = [
    ...(R.skill?.filters ?? []).flatMap((filter) => {
      const entries = Object.entries(filter.query);
      return entries.length === 1 ? [{ words: filter.words, field: entries[0]![0], value: entries[0]![1] }] : [];
    }),
    ...[...R.fields.values()].flatMap((field) =>
      field.kind === "enum" ? (field.values ?? []).map((value) => ({ words: [value.replace(/_/g, " ")], field: field.name, value })) : [],
    ),
  ];
  for (const phrase of new Set([said, said.split(/\s+/).at(-1)!])) {
    const state = states.find((candidate) => candidate.words.includes(phrase));
    const matching = state ? options.filter((option) => String(option.record[state.field]) === state.value) : [];
    if (matching.length === 1) return matching[0]!;
  }
  return null;
}

/** A name among several, narrowed by a parent named beside it ("on website relaunch"). */
/**
 * The records of whoever a name is (an invoice's customer), narrowed by what else the message says of the record:
 * an amount (a total, or what is still due), a state, a month of its date — and, for a reminder, only what is owed.
 */
async function toldByParent(env: ActionEnv, R: ResourceModel, cue: ActionCue, name: string, message: string): Promise<Candidate[]> {
  const required = new Set((R.create ?? []).filter((field) => field.required).map((field) => field.name));
  const parents = [...R.fields.values()].filter((field) => field.target && required.has(field.name) && env.schema.byName.get(field.target)?.nameField);
  // ("the tyrell one": whose it is, without the "one" that stands for it.)
  // ("the globex draft": a state of the record is no part of whose it is.)
  const stateNames = new Set((R.fields.get("status")?.values ?? []).map((value) => value.replace(/_/g, " ")));
  const words = name
    .replace(/\s+ones?$/i, "")
    .split(/\s+/)
    .filter((word, i, all) => i === 0 || all.length === 1 || !stateNames.has(word.toLowerCase()));
  for (const parent of parents) {
    const owner = env.schema.byName.get(parent.target!)!;
    let found: Awaited<ReturnType<typeof findNamed>> = { kind: "none" };
    // (A name said in full beats a shorter one found loosely: "acme labs about …" is Acme Labs, not Acme.)
    for (let n = Math.min(3, words.length); n >= 1; n--) {
      const said = words.slice(0, n).join(" ");
      const named = await findNamed(env.fetch, [owner], said);
      if (named.kind !== "one") continue;
      if (found.kind !== "one") found = named;
      if (String(named.found.record[owner.nameField!] ?? "").toLowerCase() === said.toLowerCase()) {
        found = named;
        break;
      }
    }
    if (found.kind !== "one") continue;
    const listed = await env.fetch(`/${R.name}?${parent.name}=${found.found.record.id}&limit=100`);
    if (!listed.ok) return [];
    let rows = listed.data;
    const keep = (test: (row: ApiRecord) => boolean) => {
      const kept = rows.filter(test);
      if (kept.length > 0) rows = kept;
    };
    // ("show me the drafts" → "delete the globex one": among what the last answer listed, if some are.)
    keep((row) => env.listed?.some((choice) => choice.resource === R.name && choice.id === row.id) ?? false);
    if (cue.op === "remind") keep((row) => ["sent", "partially_paid"].includes(String(row.status)));
    if (cue.op === "send") keep((row) => ["draft", "sent", "partially_paid"].includes(String(row.status)));
    // (Only a draft can be deleted; a sent one is voided.)
    if (cue.op === "delete" && R.fields.get("status")?.values?.includes("draft")) keep((row) => row.status === "draft");
    // (The verb is no state: "void the hooli invoice" is not one already void.)
    const states = (R.skill?.filters ?? []).filter((filter) => filter.words.some((word) => new RegExp(`\\b${word}\\b`, "i").test(cue.rest)));
    for (const state of states) {
      const wanted = Object.entries(state.query).filter(([param]) => R.fields.get(param)?.kind === "enum");
      if (wanted.length) keep((row) => wanted.every(([param, value]) => value.split(",").includes(String(row[param]))));
    }
    const money = readMoney(message.replace(/\b[A-Z]{2,5}-\d+\b/g, ""));
    if (money) {
      const close = (value: unknown) => typeof value === "number" && Math.abs(value - money.minor) <= (/k\b/i.test(money.match) ? 50_000 : 100);
      keep((row) => [...R.fields.values()].some((field) => field.kind === "money" && close(row[field.name])));
    }
    const month = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.exec(message)?.[1]?.toLowerCase();
    if (month) {
      const number = String("janfebmaraprmayjunjulaugsepoctnovdec".indexOf(month) / 3 + 1).padStart(2, "0");
      // (Its own date first — "the september invoice" was issued then — else any of its dates.)
      keep((row) => String(row[R.defaultDate] ?? "").slice(5, 7) === number);
      keep((row) => [...R.fields.values()].some((field) => field.kind === "date" && String(row[field.name] ?? "").slice(5, 7) === number));
    }
    if (cue.op === "void") keep((row) => ["draft", "sent"].includes(String(row.status)) && !Number(row.amount_paid));
    // (Several left: they are offered, never one guessed — unless nothing told them apart from many.)
    if (rows.length > 6) return [];
    return rows.map((record) => ({ resource: R, record, label: labelOf(R, record) }));
  }
  return [];
}

/**
 * "acme holdings paid what they owed", "prestige paid €3,788.55 on their overdue invoice": a new record's required
 * reference (the invoice a payment is on) told by whose it is — the one still open of that customer's — and "what
 * they owed", "the rest" the amount still due on it.
 */
async function toldByOwner(
  env: ActionEnv,
  cue: ActionCue,
  message: string,
  operation: string,
  body: BodyField[],
  fields: Record<string, unknown>,
  labels: Record<string, string>,
  free: Piece[],
): Promise<void> {
  const moneyField = body.find((candidate) => candidate.kind === "money");
  // (Only an amount paid against a record the message speaks of — "their invoice", "what they owed"; "we got 3k
  // from wonka" says not which, and a write is never guessed.)
  const owed =
    /\b(?:in full|(?:the )?full amount|the whole (?:amount|thing|lot|balance)|what (?:they|he|she|we) owed?|what was (?:owed|due|left)|the rest|the remainder|the balance|everything (?:owed|due))\b/i;
  if (operation !== "create" || !moneyField || !(owed.test(message) || /\b(?:invoice|bill)\b/i.test(message))) return;
  for (const field of body.filter((candidate) => candidate.kind === "reference")) {
    const target = env.schema.byName.get(field.target ?? "");
    if (!field.required || fields[field.name] !== undefined || !target) continue;
    for (const piece of free) {
      // (Of the records still open: what is paid is what was owed.)
      // (Whose it is comes before what they did: "hooli labs | paid what they owed".)
      const whose = tidy(piece.text.split(/\b(?:paid|settled|cleared|sent|wired|transferred)\b/i)[0]!).replace(/^(?:from|by|for)\s+/i, "");
      if (!whose) continue;
      // (What they did is no state of it: "sent €8k" is not a sent invoice.)
      const rest = message.replace(/\b(?:paid|settled|cleared|sent|wired|transferred)\b/gi, " ");
      let told = await toldByParent(env, target, { ...cue, op: "remind", rest }, whose, message);
      // ("settled the rest": the one already part paid.)
      if (told.length > 1 && /\b(?:the rest|the remainder|what was left)\b/i.test(message)) told = told.filter((one) => Number(one.record.amount_paid) > 0);
      if (told.length !== 1) continue;
      const [record] = told;
      fields[field.name] = record!.record.id;
      labels[field.name] = record!.label;
      free.splice(free.indexOf(piece), 1);
      const due = record!.record.amount_due;
      if (fields[moneyField.name] === undefined && owed.test(message) && typeof due === "number" && due > 0) fields[moneyField.name] = due;
      break;
    }
  }
}

/** "send a reminder on the biggest one", "the oldest one": of what the last answer listed, the first by its measure or date. */
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * "void the one from september", "the draft one from october": the one record (of the last list, else of all) in
 * that state whose own date falls in that month — the latest such month up to now.
 */
async function datedOne(env: ActionEnv, R: ResourceModel, name: string, text: string): Promise<Candidate | null> {
  const said = /^(?:(\p{L}+)\s+)?one$/iu.exec(name.trim());

  const month = /\b(?:from|in|of)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.exec(text)?.[1]?.toLowerCase();
  if (!said || !month || !R.defaultDate) return null;
  const state = said[1]?.toLowerCase();
  if (state && !R.fields.get("status")?.values?.includes(state)) return null;
  const now = new Date(env.now);
  const index = MONTHS.indexOf(month);
  const year = index > now.getUTCMonth() ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
  const from = new Date(Date.UTC(year, index, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(year, index + 1, 0)).toISOString().slice(0, 10);
  const ids = (env.listed ?? []).filter((choice) => choice.resource === R.name).map((choice) => choice.id);
  const rows = await env.fetch(`/${R.name}?${ids.length > 0 ? `ids=${ids.join(",")}&` : ""}${state ? `status=${state}&` : ""}limit=100`);
  if (!rows.ok) return null;
  const inMonth = rows.data.filter((row) => {
    const date = String(row[R.defaultDate] ?? "").slice(0, 10);
    return date >= from && date <= to;
  });
  return inMonth.length === 1 ? { resource: R, record: inMonth[0]!, label: labelOf(R, inMonth[0]!) } : null;
}

/**
 * "the biggest one" of the records the last answer listed; "their oldest one" of the records of whom the talk is
 * about (a customer's invoices) — of those the action can be taken on (a reminder only for one still owed).
 */
async function rankedFromListed(env: ActionEnv, R: ResourceModel, text: string, focus: Choice | null, operation: string): Promise<Candidate | null> {
  const said =
    /^(?:(?:the|their|his|her|its)\s+)?(biggest|largest|highest|smallest|lowest|oldest|newest|latest|earliest|most recent|bigger|larger|smaller|older|newer)(?:\s+\p{L}+)?$/iu.exec(
      text.trim(),
    );
  if (!said) return null;
  const ids = (env.listed ?? []).filter((choice) => choice.resource === R.name).map((choice) => choice.id);
  const owner =
    focus && focus.resource !== R.name ? [...R.fields.values()].find((field) => field.target === focus.resource && R.filters.has(field.name)) : undefined;
  const query = ids.length >= 2 ? `ids=${ids.join(",")}` : owner ? `${owner.name}=${focus!.id}` : null;
  const word = said[1]!.toLowerCase();
  const bySize = /biggest|largest|highest|smallest|lowest|bigger|larger|smaller/.test(word);
  const field = bySize ? R.measure : R.defaultDate;
  if (!field || !query) return null;
  const first = /biggest|largest|highest|newest|latest|most recent|bigger|larger|newer/.test(word) ? -1 : 1;
  // (Sorted by the API where it can, so that the hundred read are the ones at that end.)
  const sorted = await env.fetch(`/${R.name}?${query}&sort=${first < 0 ? "-" : ""}${field}&limit=100`);
  const rows = sorted.ok ? sorted : await env.fetch(`/${R.name}?${query}&limit=100`);
  const when = R.operations.find((candidate) => candidate.name === operation)?.when;
  const eligible = rows.ok ? rows.data.filter((row) => !when || when(row)) : [];
  const value = (row: ApiRecord) => (bySize ? Number(row[field] ?? 0) : String(row[field] ?? ""));
  const [best, next] = [...eligible].sort((a, b) => (value(a) < value(b) ? -first : value(a) > value(b) ? first : 0));
  // (Two alike — the same day, the same amount — is no one record: the name is then asked for.)
  if (!best || (next && value(next) === value(best))) return null;
  return { resource: R, record: best, label: labelOf(R, best) };
}

/** The pieces that only said a parent's name ("(ERP migration)", "in Data warehouse"): no field to fill. */
function spendParent(parent: string, ...lists: Piece[][]) {
  for (const list of lists)
    for (let i = list.length - 1; i >= 0; i--) if (saysName(parent, list[i]!.text) && saysName(list[i]!.text, parent)) list.splice(i, 1);
}

/** The fields naming a record's parent (a task's project), with the resource each names. */
function parentsOf(env: ActionEnv, R: ResourceModel): { field: string; resource: ResourceModel }[] {
  return [...R.fields.values()].flatMap((field) => {
    const resource = field.target ? env.schema.byName.get(field.target) : undefined;
    return resource?.nameField ? [{ field: field.name, resource }] : [];
  });
}

async function narrow(env: ActionEnv, R: ResourceModel, options: Candidate[], said: string, byValue = true): Promise<Candidate[] | null> {
  // ("linus at hooli — email is now …": the place ends where a dash starts what to change.)
  // ("in Marketing's designation": the place ends where what of theirs changes begins.)
  const within = said.split(/\s*[—–]\s*|\s+-\s+/)[0]!.replace(/['’]s\s.*$/, "");
  for (const parent of parentsOf(env, R)) {
    const found = await findNamed(env.fetch, [parent.resource], tidy(within));
    const under = found.kind === "one" ? options.filter((option) => option.record[parent.field] === found.found.record.id) : [];
    if (under.length > 0) return under;
  }
  // ("ken at globex": people told apart by where they work.)
  const there = atCompany(options, tidy(within));
  if (there.length > 0) return there;
  // ("Hedy in Marketing", "the Lovelace in Berlin": told apart by a value of theirs — a department, a branch. Not
  // where a change puts them: "put Frances in Finance" asks which Frances.)
  if (!byValue) return null;
  const valued = options.filter((option) => hasValue(option.record, tidy(within)));
  return valued.length > 0 ? valued : null;
}

type ReferenceFound = { kind: "one"; field: string; id: number; label: string } | { kind: "choose"; field: string; options: Candidate[] } | "none";

/** The one record a still-empty reference field points to whose whole name is the text ("hooli" → Hooli). */
async function ownerNamed(
  env: ActionEnv,
  R: ResourceModel,
  referenceFields: BodyField[],
  fields: Record<string, unknown>,
  text: string,
): Promise<{ field: string; found: Candidate } | null> {
  for (const field of referenceFields) {
    const target = env.schema.byName.get(field.target ?? "");
    if (!target || target === R || fields[field.name] !== undefined || target.nameField !== "name") continue;
    const rows = await env.fetch(`/${target.name}?q=${encodeURIComponent(text)}&limit=5`);
    const named = rows.ok ? rows.data.filter((row) => sameWords(nameOf(target, row), text)) : [];
    if (named.length === 1) return { field: field.name, found: { resource: target, record: named[0]!, label: labelOf(target, named[0]!) } };
  }
  return null;
}

/** A piece → the reference field it fills: the word before it picks among fields ("assign to" → assignee), else the resource its name is found in. */
async function referenceFor(env: ActionEnv, R: ResourceModel, fields: BodyField[], filled: Record<string, unknown>, piece: Piece): Promise<ReferenceFound> {
  const open = fields.filter((field) => filled[field.name] === undefined);
  if (open.length === 0) return "none";
  const trigger = piece.trigger ?? "";
  const person = R.skill?.person?.param;
  const ordered = [...open].sort((a, b) => score(b) - score(a));
  function score(field: BodyField) {
    const target = env.schema.byName.get(field.target ?? "");
    if (!target) return -1;
    if (target.nouns.some((noun) => trigger.includes(noun))) return 10;
    if (/assign|give|hand/.test(trigger) && field.name === (person ?? "assignee_id")) return 9;
    if (/^(in|on|in the|on the|under)$/.test(trigger) && field.target === "projects") return 8;
    if (/^(for|to|by|with|assign|assigned)$/.test(trigger) && (field.name === person || field.target === "employees")) return 6;
    if (/^(for|for the|to)$/.test(trigger) && field.target === "customers") return 5;
    return 1;
  }
  const text = tidy(piece.text.replace(/\s+(?:deal|project|customer|opening|task)$/i, ""));
  let several: ReferenceFound = "none";
  for (const field of ordered) {
    const target = env.schema.byName.get(field.target ?? "");
    if (!target) continue;
    // With no word choosing the field, one record named so ("with acme" → the customer Acme) beats several
    // that only mention it (contacts whose company is Acme).
    if (several !== "none" && score(field) > 1) break;
    const found = await findNamed(env.fetch, [target], text);
    if (found.kind === "one") return { kind: "one", field: field.name, id: found.found.record.id, label: found.found.label };
    if (found.kind === "many" && several === "none") {
      several = { kind: "choose", field: field.name, options: found.options };
      if (score(field) > 1) break;
    }
  }
  // ("test checkout onboarding revamp": a task named with its project's name is found by findNamed itself.)
  return several;
}

function askFor(R: ResourceModel, missing: string[], fields: Record<string, unknown>): string {
  const name = fields.name ?? fields.title;
  const what = missing.map((field) =>
    field.endsWith("_id") ? `which ${spaced(field.replace(/_id$/, ""))}` : field === "email" ? "the e-mail address" : `the ${spaced(field)}`,
  );
  return `To create the ${R.singular}${name ? ` ${name}` : ""}, I need ${what.join(" and ")}. What ${missing.length === 1 ? "is it" : "are they"}?`;
}

/** The request a complete draft makes, checked against the route's own schema first. */
export function proposal(_env: ActionEnv, R: ResourceModel, draft: ActionDraft): Built {
  const { operation, fields } = draft;
  const id = draft.target?.id;
  const path = operation === "create" ? `/${R.name}` : `/${R.name}/${id}`;
  const op = R.operations.find((candidate) => candidate.name === operation);
  const base =
    operation === "create"
      ? { method: "POST", path, body: fields }
      : operation === "delete"
        ? { method: "DELETE", path }
        : op
          ? {
              method: op.method,
              path: `${path}/${op.path}`,
              ...(Object.keys(fields).length > 0 || op.method !== "DELETE" ? { body: { ...op.body, ...fields } } : {}),
            }
          : { method: "PATCH", path, body: fields };
  // Confirming re-checks the record: if it changed after this was proposed, nothing is written (409).
  const request = draft.target?.version ? { ...base, unchanged_since: draft.target.version } : base;
  const schema = operation === "create" ? R.schemas.create : operation === "update" ? R.schemas.update : null;
  const checked = schema
    ? (schema as { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }).safeParse(fields)
    : { success: true };
  if (!checked.success) {
    const bad = [...new Set((checked.error?.issues ?? []).map((issue) => String(issue.path[0] ?? "")))].filter(Boolean);
    return {
      kind: "missing",
      draft,
      missing: bad,
      text: `I need a different ${bad.map(spaced).join(" and ") || "value"}. Could you give ${bad.length === 1 ? "it" : "them"} again?`,
    };
  }
  const described = Object.entries(fields)
    .filter(([field]) => operation !== "create" || (field !== "name" && field !== "title"))
    .map(([field, value]) => {
      // "task 289 …" under "task", "450 min" under "minutes": the value says what it is.
      const said = describeValue(R, field, value, draft.labels ?? {});
      const label = spaced(R.fields.get(field)?.kind === "reference" || labelsHave(draft.labels, field) ? field.replace(/_id$/, "") : field);
      return said.toLowerCase().startsWith(`${label.toLowerCase()} `) || R.fields.get(field)?.kind === "minutes" ? said : `${label} ${said}`;
    });
  const name = fields.name ?? fields.title;
  const what = draft.target?.name ?? `the ${R.singular}`;
  const summary =
    operation === "create"
      ? `Create the ${R.singular}${name ? ` "${name}"` : ""}${described.length ? ` (${described.join(", ")})` : ""}`
      : operation === "delete"
        ? `Delete ${what}`
        : op
          ? `${capitalised(op.label)} ${what}${described.length ? ` (${described.join(", ")})` : ""}`
          : `Change ${what}: ${described.join(", ")}`;
  const records: Choice[] = draft.target?.id ? [{ resource: R.name, id: draft.target.id, label: draft.target.name ?? `${R.singular} ${draft.target.id}` }] : [];
  return { kind: "proposal", draft, request, summary, records };
}

function describeValue(R: ResourceModel, field: string, value: unknown, labels: Record<string, string>): string {
  const model = R.fields.get(field);
  if (model?.kind === "money" && typeof value === "number") return `${(value / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  if (model?.kind === "minutes" && typeof value === "number")
    return value >= 60 ? `${Math.floor(value / 60)} h${value % 60 ? ` ${value % 60} min` : ""}` : `${value} min`;
  if (model?.kind === "datetime" && typeof value === "string" && /T00:00:00(?:\.000)?Z$/.test(value)) return value.slice(0, 10);
  if (value === null) return "none";
  if (model?.kind === "reference" || labels[field] !== undefined) return labels[field] ?? `#${value}`;
  if (Array.isArray(value)) return value.map(describeLine).join("; ");
  // ("billing city Munich, country DE": an object's parts each by name; an e-mail or address line says itself.)
  if (value && typeof value === "object")
    return Object.entries(value)
      .map(([part, said]) => (["email", "address_line1"].includes(part) ? String(said) : `${spaced(part)} ${said}`))
      .join(", ");
  return spaced(value);
}

const labelsHave = (labels: Record<string, string> | undefined, field: string) => labels?.[field] !== undefined;

/** An invoice or quote line as people read it: "2 × Training session at 736.00 (19 % tax)". */
function describeLine(line: unknown): string {
  if (!line || typeof line !== "object") return String(line);
  const { quantity, description, unit_amount: unit, tax_rate: tax, product_id: product } = line as Record<string, unknown>;
  const what = description ?? (product !== undefined ? `product #${product}` : "line");
  const price = typeof unit === "number" ? ` at ${(unit / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}` : "";
  return `${quantity ?? 1} × ${what}${price}${tax !== undefined ? ` (${tax} % tax)` : ""}`;
}

export type { ApiRecord };

/**
 * "start Plan search in ERP migration": "start" makes a record, or starts one. When a record of that name is already
 * there (under the same parents the message names), it is started — the state its resource says "start" of — rather
 * than made again.
 */
export async function startedInstead(env: ActionEnv, R: ResourceModel, built: Built, cue: ActionCue): Promise<Built | null> {
  if (built.kind !== "proposal" || built.draft.operation !== "create" || !/^(?:start|begin)$/i.test(cue.verb) || !R.nameField) return null;
  const started = R.skill?.filters?.find((filter) => filter.words.includes("start") || filter.words.includes("started"));
  const name = built.draft.fields[R.nameField];
  if (!started || typeof name !== "string") return null;
  const found = await env.fetch(`/${R.name}?q=${encodeURIComponent(name)}&limit=25`);
  if (!found.ok) return null;
  const parents = Object.entries(built.draft.fields).filter(([field]) => R.fields.get(field)?.kind === "reference");
  const same = found.data.filter(
    (row) => String(row[R.nameField!] ?? "").toLowerCase() === name.toLowerCase() && parents.every(([field, value]) => row[field] === value),
  );
  if (same.length !== 1) return null;
  const record = same[0]!;
  return proposal(env, R, {
    resource: R.name,
    operation: "update",
    target: { id: record.id, name: labelOf(R, record), ...(typeof record.updated_at === "string" ? { version: record.updated_at } : {}) },
    fields: { ...started.query },
  });
}

/**
 * "Just got off the phone with Wayne, they want … Can you create an invoice: 3 training sessions …": the record a
 * new one needs (its customer), named in the talk before the command after "with", "for", "from" or "at" — only a
 * name said whole, of the one record so named.
 */
export async function namedInTalk(env: ActionEnv, R: ResourceModel, built: Built, text: string, cue: ActionCue): Promise<Built | null> {
  if (built.kind !== "missing" || built.draft.operation !== "create") return null;
  const field = (R.create ?? []).find((candidate) => candidate.kind === "reference" && built.missing.includes(candidate.name));
  const target = field ? env.schema.byName.get(field.target ?? "") : undefined;
  if (!field || !target?.nameField) return null;
  // (The message as said: the talk before a command is no part of the words the command is read from.)
  const at = text.toLowerCase().lastIndexOf(cue.rest.slice(0, 12).toLowerCase());
  const talk = at > 0 ? text.slice(0, at) : "";
  for (const said of talk.matchAll(/\b(?:with|for|from|at)\s+(\p{L}[\p{L}&.'-]*(?:\s+\p{L}[\p{L}&.'-]*){0,2})/giu)) {
    const words = said[1]!.split(/\s+/);
    for (let n = words.length; n >= 1; n--) {
      const phrase = words.slice(0, n).join(" ");
      const found = await findNamed(env.fetch, [target], phrase);
      if (found.kind !== "one" || nameOf(target, found.found.record).toLowerCase() !== phrase.toLowerCase()) continue;
      const draft = {
        ...built.draft,
        fields: { ...built.draft.fields, [field.name]: found.found.record.id },
        labels: { ...built.draft.labels, [field.name]: found.found.label },
      };
      return proposal(env, R, draft);
    }
  }
  return null;
}
