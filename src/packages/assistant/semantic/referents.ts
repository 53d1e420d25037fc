import type { SchemaModel } from "./model";
import { actionCue } from "./parse-action";
import type { Choice, ConversationState, Query } from "./query";
import { wordsOf } from "./words";

/**
 * What a message's pronouns, ordinals and "the X one" refer to, from the conversation's last reply: each helper
 * rewrites the message with the record named, so that the rest of the reading sees a name ("the email for the
 * second one" → "the email for the customer Wonka Labs", "whats her phone" → "whats the employee Katherine
 * Conway's phone").
 */

type Said = { schema: SchemaModel; vocabulary: Set<string> };

/** The message with what the conversation's last reply makes of its pronouns and picks. */
export function referentsNamed(said: string, state: ConversationState, env: Said): string {
  return therePlaced(
    theyNamed(
      whoseNamed(
        itNamed(
          pickFromList(paidOnFocus(sameAgain(fieldShown(kinNamed(said, state, env.schema), state, env.schema), state), state), state, env.schema),
          state,
          env,
        ),
        state,
        env,
      ),
      state,
      env,
    ),
    state,
  );
}

/**
 * "what does globex owe us" → "when did they last pay us", "and what do they still owe": in a question, a pronoun that
 * is who does the verb is the one record the last question was about (its subject, or the record it was restricted
 * to), or else the one record the last answer was about.
 */
function theyNamed(said: string, state: ConversationState, env: Said): string {
  const doer = /\b(do|does|did|have|has|had|are|is|was|were|will|would|can|could|should)\s+(they|he|she)\b/i.exec(said);
  const question = /^(?:(?:and|so|ok|okay|then|but)[,\s]+)*(?:what|whats|what's|when|where|which|who|how|is|are|does|do|did|has|have)\b/i.test(said.trim());
  if (!doer || !question) return said;
  const subject = state.query?.subject;
  // ("they" after a list is those records — "how much are they worth together": only the one a question was about;
  // "he"/"she" may also be the one person the last answer was.)
  const about = subject ?? aboutOf(env.schema, state.query) ?? (/^they$/i.test(doer[2]!) ? undefined : state.focus);
  const R = about ? env.schema.byName.get(about.resource) : undefined;
  // (A person's pronoun for a person or a company's; "they" for either. Only a record people name: a customer, an
  // employee — not "task 208".)
  if (!about || !R || R.nameField !== "name") return said;
  // (By its name alone, as the user would say it: "when did the customer Globex last pay us" reads as the customer's own date.)
  return said.replace(doer[0], `${doer[1]} ${about.label.replace(/\s*\([^)]*\)\s*$/, "")}`);
}

/**
 * "wayne's total outstanding?" → "and the holdings entity?": the record of the same name with that word after it
 * (Wayne Holdings) — a sibling company or arm of the one just asked about.
 */
function kinNamed(said: string, state: ConversationState, schema: SchemaModel): string {
  const kin = /^(?:(?:and|what about|how about)\s+)?(?:for\s+)?the\s+(\p{L}[\p{L}-]*)\s+(?:entity|company|side|arm|business)\s*\??$/iu.exec(said.trim());
  const about = kin ? aboutOf(schema, state.query) : undefined;
  if (!kin || !about) return said;
  const base = about.label.replace(/\s*\([^()]*\)\s*$/, "");
  return `and ${base} ${kin[1]![0]!.toUpperCase()}${kin[1]!.slice(1)}?`;
}

/** "email on file for Cyberdyne?" → "change it to payables@…": "it" is the field the last answer showed, of that record. */
function fieldShown(said: string, state: ConversationState, schema: SchemaModel): string {
  // ("who is that one for again": whom the record just asked about is for.)
  const whom = /^(?:and\s+)?who(?:'s| is| was)\s+(?:that|this|it)(?:\s+one)?\s+for(?:\s+again)?\s*\??$/i.test(said.trim());
  if (whom && state.query?.subject) return `who is ${spoken(state.query.subject, schema)} for?`;
  const changed = /^(?:ok\s+|okay\s+|pls\s+|please\s+)?(?:change|update|set|make)\s+(?:it|that)\s+to\s+(.+)$/i.exec(said.trim());
  const subject = state.query?.subject;
  const field = state.query?.show;
  if (!changed || !subject || !field) return said;
  const R = schema.byName.get(subject.resource);
  if (!R?.fields.has(field) || R.fields.get(field)?.kind === "reference") return said;
  return `set ${spoken({ resource: subject.resource, label: subject.label }, schema)}'s ${field.replace(/_/g, " ")} to ${changed[1]}`;
}

/** "add Kenji Sato there too" after "who do we know at Nakatomi": at the company the last question was about. */
function therePlaced(said: string, state: ConversationState): string {
  const company = state.query?.conditions.find(
    (c): c is Extract<typeof c, { field: string }> => "field" in c && c.field === "company" && c.op === "eq" && typeof c.value === "string",
  );
  if (!company || !/^(?:add|create|save|new)\b/i.test(said.trim())) return said;
  return said.replace(/\bthere(?:\s+too|\s+as well)?\b/i, `at ${company.value}`);
}

const ORDINALS: Record<string, number> = {
  first: 0,
  "1st": 0,
  one: 0,
  second: 1,
  "2nd": 1,
  two: 1,
  third: 2,
  "3rd": 2,
  three: 2,
  fourth: 3,
  "4th": 3,
  fifth: 4,
  last: -1,
};

/** "the second one", "2", "#3", "the last", or a name among the options. */
export function chosen(message: string, options: Choice[]): Choice | null {
  const lower = message.toLowerCase().trim();
  const number = /^(?:#|no\.?\s*|number\s*|option\s*)?(\d)\b/.exec(lower);
  if (number) return options[Number(number[1]) - 1] ?? null;
  const ordinal = /\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|last)\b/.exec(lower);
  if (ordinal && lower.split(/\s+/).length <= 5) return ordinal[1] === "last" ? (options.at(-1) ?? null) : (options[ORDINALS[ordinal[1]!]!] ?? null);
  // ("the one who is not van Rossum", "not the allen one": the one option whose label lacks what was said.)
  const not = /^(?:(?:no,?\s+)?the one (?:who|that|which)(?:'s\s+not|\s+is\s+not|\s+isn't|\s+not)|not(?: the)?)\s+(.+?)(?:\s+one)?[?.!]*$/.exec(lower)?.[1];
  if (not) {
    const others = options.filter((option) => !option.label.toLowerCase().includes(not));
    if (others.length === 1 && others.length < options.length) return others[0]!;
  }
  // ("the sagan one", "the one in engineering", "I mean Grace": what only one option's label has.)
  // ("conway obviously, sagan's an engineer", "the stroustrup one pls": the first thing said, without asides.)
  const said = lower
    .split(/\s*[,;—–]\s*|\s+-\s+/)[0]!
    .replace(/[?.!]+$/, "")
    .replace(/\s+(?:obviously|of course|pls|please|plz|thanks|thx|i think|probably|i guess|for sure)$/g, "")
    .replace(/^(?:(?:oh|ah|ok|okay|sorry|yes|yeah|no)[,\s]+)?(?:the one (?:for|called|named|in)|i mean|i meant|it's|its|it is|the)\s+/, "")
    .replace(/\s+one$/, "")
    .replace(/^(?:the\s+)/, "");
  if (!said) return null;
  const named = options.filter((option) => option.label.toLowerCase().includes(said));
  return named.length === 1 ? named[0]! : null;
}

/** After "timesheet for Linus last month": the record the last question was restricted to (Linus), if one. */
export function aboutOf(schema: SchemaModel, query: Query | undefined): ConversationState["focus"] {
  const R = query ? schema.byName.get(query.resource) : undefined;
  const about = query?.conditions.find(
    (c): c is Extract<typeof c, { field: string }> =>
      "field" in c && c.op === "eq" && typeof c.value === "number" && R?.fields.get(c.field)?.kind === "reference",
  );
  if (about && R) return { resource: R.fields.get(about.field)!.target!, id: about.value as number, label: about.label.replace(/^(?:for|of|by|on|in) /, "") };
  // (Or a list filter that is no field of its own but names a record as a reference does: payments "for Globex" are
  // by the filter customer_id, which elsewhere is a reference to a customer.)
  for (const condition of query?.conditions ?? []) {
    if (!("param" in condition) || condition.negate || !/^\d+$/.test(condition.value)) continue;
    const target = schema.resources
      .flatMap((resource) => [...resource.fields.values()])
      .find((field) => field.name === condition.param && field.kind === "reference")?.target;
    if (target) return { resource: target, id: Number(condition.value), label: condition.label.replace(/^(?:for|of|by|on|in) /, "") };
  }
  return undefined;
}

/** "the email for the second one" after a list: that record, by its name. */
function pickFromList(said: string, state: ConversationState, schema: SchemaModel): string {
  // "assign her the Test emails task" after a question about one person: that person is who it goes to.
  const given = /^(assign|give|hand)\s+(him|her|them)\s+(?!to\b)(.+)$/i.exec(said.trim());
  let message =
    given && state.focus && schema.byName.get(state.focus.resource)?.name === "employees" ? `${given[1]} ${given[3]} to ${state.focus.label}` : said;
  if (!state.listed?.length || state.choose) return taken(message);
  // ("send the one for oscorp, not oscorp labs": the listed kind of record, for whom it is — the other name only
  // says which is meant.)
  const whose = /\bthe one ((?:for|from|of|to)\s+[^,]+?)(?:\s*,?\s+not\s+(?:the\s+)?[^,]+)?\s*[.!]*$/i.exec(message);
  const kind = schema.byName.get(state.listed[0]!.resource)?.singular;
  if (whose && kind) return message.replace(whose[0], `the ${kind} ${whose[1]}`);
  // "move the fix dashboard one to review" after a list with one such: that record.
  const described = /\bthe ([\p{L}\d][\p{L}\d .'-]{1,40}?) one\b/iu.exec(message);
  if (described) {
    const matching = state.listed.filter((record) => record.label.toLowerCase().includes(described[1]!.toLowerCase()));
    if (matching.length === 1) {
      return message.replace(described[0], spoken(matching[0]!, schema));
    }
  }
  // "ok mark Edsger as contacted" after a list with one Edsger in it: that one.
  const firstNames = state.listed.map((record) => record.label.split(/\s+/)[0]!.toLowerCase());
  for (const word of message.match(/\b\p{Lu}\p{Ll}{2,}\b/gu) ?? []) {
    const at = firstNames.indexOf(word.toLowerCase());
    const record = state.listed[at];
    if (at < 0 || firstNames.lastIndexOf(word.toLowerCase()) !== at || !record || /[(—]/.test(record.label)) continue;
    if (new RegExp(`\\b${word}\\s+\\p{Lu}`, "u").test(message)) continue;
    const singular = schema.byName.get(record.resource)?.singular;
    return message.replace(new RegExp(`\\b${word}\\b`), singular ? `the ${singular} ${record.label}` : record.label);
  }
  const nth = /\bthe (first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last|top) (?:one|record|entry|item)\b/i.exec(taken(message));
  if (!nth) return message;
  message = taken(message);
  const word = nth[1]!.toLowerCase();
  const picked = state.listed[word === "last" || ORDINALS[word] === -1 ? state.listed.length - 1 : word === "top" ? 0 : (ORDINALS[word] ?? 0)];
  if (!picked) return message;
  // ("the 2nd one - push it to negotiation": the record first, then the command on "it".)
  const first = new RegExp(`^\\s*${nth[0]}\\s*[-–—:,]\\s*(.+)$`, "i").exec(message);
  if (first && /\b(?:it|that one)\b/i.test(first[1]!)) return first[1]!.replace(/\b(?:it|that one)\b/i, spoken(picked, schema));
  return message.replace(nth[0], spoken(picked, schema));
}

/** "take the top one and mark as contacted": the command, done to that one ("mark the top one as contacted"). */
function taken(message: string): string {
  const took = /^(?:(?:ok|okay|so)[,\s]+)?(?:take|grab|pick)\s+(the\s+\S+\s+one)\s+and\s+(\S+)\s+(.*)$/i.exec(message.trim());
  if (!took) return message;
  const pronoun = /\b(?:it|him|her|them)\b/i;
  return pronoun.test(took[3]!) ? `${took[2]} ${took[3]!.replace(pronoun, took[1]!)}` : `${took[2]} ${took[1]} ${took[3]}`;
}

/**
 * A listed record as words a message can carry. A label's own note in brackets — an amount, a project — is no
 * part of the name; the kind is said with it ("the deal Globex — platform"), so "the contact on …" reads it as a deal's.
 */
function spoken(choice: { resource: string; id?: number; label: string }, schema: SchemaModel): string {
  const name = choice.label.replace(/\s*\([^)]*\)\s*$/, "");
  const R = schema.byName.get(choice.resource);
  const singular = R?.singular;
  // (A record that has a number people say — "task 208" — by it: its title's words, "Review exports", are then
  // no state and no other task of that name. Only when that number is its id: an invoice's is its own, INV-000001.)
  const numbered = singular && choice.id !== undefined ? `${singular} ${choice.id}` : null;
  const reference = R?.skill?.reference;
  if (numbered && reference?.pattern.test(numbered) && String(reference.query(String(choice.id)).id) === String(choice.id)) return numbered;
  return singular && !name.toLowerCase().startsWith(singular) ? `the ${singular} ${name}` : name;
}

/**
 * "INV-000397 status?" → "how much is left to pay on it": in a question, "it" after a preposition is the one
 * record the last answer was about (commands find it on their own; "how much of it" is a part of a whole).
 */
function itNamed(said: string, state: ConversationState, env: Said): string {
  const it = /\b(on|for|about|from|to|against|by|with) (it|that one|this one|him|her)\b(?!\s+(?:the\s+)?\p{Lu})/iu.exec(said);
  // ("who's on it?" asks the record's own person, which the last question's record answers as it is.)
  // ("and who's the contact on it" names a field first: "it" is the record.)
  const ownPerson = /^(?:and\s+)?(?:who|whos|who's)\b/i.test(said) && !/^(?:and\s+)?(?:who|whos|who's)\s+(?:is\s+)?the\s+[a-z]+\s+(?:on|for|of)\s/i.test(said);
  if (!it || ownPerson || actionCue(wordsOf(said, env.vocabulary), env.schema)?.at === 0) return said;
  // ("hours Lynn logged" → "which tasks are assigned to her": a person the last question was about.)
  const person = /^(?:him|her)$/i.test(it[2]!);
  const focus = person ? (state.focus ?? aboutOf(env.schema, state.query)) : state.focus;
  if (!focus || (person && env.schema.byName.get(focus.resource)?.nameField !== "name")) return said;
  // (A record told by its kind and number — `task 86 "Ship permissions"` — by those alone.)
  const name = /^([a-z][a-z -]*? \d+)\b/.exec(focus.label)?.[1] ?? focus.label.replace(/\s*\([^)]*\)\s*$/, "");
  const singular = person ? undefined : env.schema.byName.get(focus.resource)?.singular;
  const named = singular && !name.toLowerCase().startsWith(singular) && !/^[A-Z]{2,5}-\d+$/.test(name) ? `the ${singular} ${name}` : name;
  return said.replace(it[0], `${it[1]} ${named}`);
}

/**
 * "whats her phone number" after "the assignee of task 210 is Katherine Conway": a possessive is the person the last
 * answer named (or the person it was about).
 */
function whoseNamed(said: string, state: ConversationState, env: Said): string {
  const person =
    state.named ??
    (state.focus && env.schema.byName.get(state.focus.resource)?.nameField === "name" ? state.focus : undefined) ??
    aboutOf(env.schema, state.query);
  // ("who owes us the most" → "whats their billing email": "their" too, of the one record the answer named.)
  const whose = /\b(her|his|their)\s+(?!own\b|today\b|tomorrow\b|yesterday\b|this\b|next\b|last\b)(?=[a-z])/i.exec(said);
  if (!person || env.schema.byName.get(person.resource)?.nameField !== "name") return said;
  if (/^their$/i.test(whose?.[1] ?? "") && (state.listed?.length ?? 0) > 1) return said;
  const singular = env.schema.byName.get(person.resource)?.singular;
  const kind = singular ? `the ${singular} ` : "";
  // (Only in a question: a command finds its own record — "add 1h for her today" — except the person it acts on
  // right after its verb: "hire her as account executive".)
  const question =
    /\?\s*$/.test(said) ||
    /^(?:(?:and|so|ok|okay|then)\s+)?(?:what|whats|what's|when|where|which|who|whos|who's|how|is|does|do|did|tell me|show me)\b/i.test(said);
  const object = /^((?:(?:ok|okay|great|then|so|pls|please)[,\s]+)?(?:hire|reject|promote|onboard|advance))\s+(her|him)\b/i.exec(said);
  if (object) return said.replace(object[0], `${object[1]} ${kind}${person.label}`);
  if (!question || !whose) return said;
  // (With its kind, so that the question is about that record, not the last one's.)
  return said.replace(whose[0], `${kind}${person.label}'s `);
}

/** "send the tyrell one" → "and the soylent one too": the last proposal's verb, for another record of the list. */
function sameAgain(said: string, state: ConversationState): string {
  const verbs: Record<string, string> = { send: "send", remind: "send a reminder for", void: "void", delete: "delete" };
  const verb = state.pending ? verbs[state.pending.operation] : undefined;
  const again = /^(?:and|also|plus|same for|same with)\s+(the\s+.+?\s+one)(?:\s+too|\s+as well)?\b(.*)$/i.exec(said.trim());
  return verb && again ? `${verb} ${again[1]}${again[2]}` : said;
}

/** "whats the open balance on INV-000397?" → "they just wired the rest": money said as news is for the invoice in focus. */
function paidOnFocus(said: string, state: ConversationState): string {
  const number = state.focus?.resource === "invoices" ? /^[A-Z]{2,5}-\d+/.exec(state.focus.label)?.[0] : undefined;
  const paid =
    /\b(?:wired|paid|sent|transferred|settled)\b.*\b(?:the rest|the remainder|the balance|in full|half|it all|the whole (?:thing|amount|lot))\b/i.test(said);
  return number && paid && !/\b[A-Z]{2,5}-\d+\b|\binv(?:oice)?\s*#?\d/i.test(said) ? `${said.trim()} for ${number}` : said;
}
