import { findRange } from "../dates";
import { escapeRegExp } from "../text";
import { before, matchPhrases, nounsIn } from "./lexicon";
import type { BodyField, ResourceModel, SchemaModel } from "./model";
import type { ActionDraft } from "./query";
import { FILLER, GRAMMAR, occurrences, type Words } from "./words";

/** The words that give why a record is in its state ("lost because of price", "went with a competitor", "reason: budget"). */
const REASON_WORDS = "because|reason:?|lost to|went with|due to";
/** Whether a why is said. */
export const SAYS_REASON = new RegExp(`\\b(?:${REASON_WORDS})\\b`, "i");
/** The why itself, after its word ("went with a competitor" → "competitor"). */
export const REASON_GIVEN = new RegExp(`\\b(?:${REASON_WORDS})\\s+(?:an? |the )?(.+)$`, "i");

/**
 * A command → a draft action: which operation (create, a field change, a state change, delete, or one of
 * the API's own actions such as send, void, hire), on which resource, the record it changes (by
 * reference, by name, or "it"), and every field the message gives, each read by the kind the definition
 * gives it (e-mail, phone, money with its currency, minutes, dates by the word before them, enum values,
 * references by name, text after its field's word). Names stay names here; resolve-action.ts finds them.
 */

const LEAD_IN =
  /^(?:(?:please to|please|pls|hey|hi|hello|oh|actually|hiya|morning|good morning|good afternoon|ok|okay|so|and|also|then|now|quickly|kindly|can you|could you|would you|can u|could u|i need to|i want to|i'd like to|let's|lets|go ahead and|need to|want to)[,!.\s]+)+/i;

type Verb = { words: string[]; op: string };
const VERBS: Verb[] = [
  {
    words: [
      "create",
      "add",
      "new",
      "make",
      "set up",
      "setup",
      "register",
      "enter",
      "open",
      "save",
      "raise",
      "draft",
      "put in",
      "put together",
      "prepare",
      "start",
      "post",
    ],
    op: "create",
  },
  { words: ["log", "book", "record", "track", "clock", "took", "collected"], op: "log" },
  { words: ["delete", "remove", "get rid of", "drop", "trash", "erase", "reverse", "undo"], op: "delete" },
  { words: ["resend", "send", "email", "e-mail", "deliver"], op: "send" },
  { words: ["void", "cancel", "kill", "scrap"], op: "void" },
  { words: ["remind", "chase", "nudge", "follow up on", "follow up with"], op: "remind" },
  { words: ["hire", "onboard"], op: "hire" },
  { words: ["assign", "reassign", "give", "hand", "hand over"], op: "assign" },
  { words: ["reschedule", "postpone", "push back", "delay", "extend", "push"], op: "reschedule" },
  { words: ["lost", "won", "lose", "win"], op: "update" },
  {
    words: [
      "mark",
      "move",
      "set",
      "change",
      "update",
      "rename",
      "edit",
      "put",
      "bump",
      "close",
      "reopen",
      "complete",
      "finish",
      "reject",
      "advance",
      "qualify",
      "unqualify",
      "disqualify",
      "approve",
      "archive",
      "promote",
      "convert",
      "flag",
      "make it",
      "switch",
      "reset",
      "revert",
      "upgrade",
      "downgrade",
      "reactivate",
      "deactivate",
      "pause",
      "lower",
      "raise it",
      "increase",
      "decrease",
    ],
    op: "update",
  },
];
/** Verbs that also say the state ("reject" → rejected, "close" → closed). */
const STATE_VERBS: Record<string, string[]> = {
  lost: ["lost"],
  lose: ["lost"],
  won: ["won"],
  win: ["won"],
  reject: ["rejected"],
  close: ["closed", "done", "completed", "won"],
  reopen: ["todo", "open", "active", "negotiation"],
  complete: ["done", "completed"],
  finish: ["done", "completed"],
  qualify: ["qualified"],
  disqualify: ["unqualified"],
  convert: ["converted"],
  reactivate: ["active"],
  pause: ["on_hold"],
  deactivate: ["inactive"],
};

/** The verbs a state's past participle comes from: unqualified → unqualify, approved → approve, rejected → reject. */
function stateVerbs(state: string): string[] {
  if (/ied$/.test(state)) return [state.replace(/ied$/, "y")];
  if (/ed$/.test(state)) return [state.replace(/ed$/, ""), state.replace(/d$/, "")];
  return [];
}

export type ActionCue = { op: string; verb: string; at: number; rest: string };

/** Whether a message is a command, and its verb. Questions are not. */
export function actionCue(w: Words, schema: SchemaModel): ActionCue | null {
  // ("acme paid what they owed", "hooli settled the rest of their invoice", "nakatomi sent €8k against the
  // september invoice": the same, the invoice told by whose it is.)
  const said = w.text.toLowerCase();
  // ("could you give me a quick count of …", "can you show me …": asked politely, still a read.)
  if (
    /^(?:(?:hey|hi|ok|so)[,\s]+)?(?:can|could|would|will) you (?:please |pls |quickly |just )?(?:give me|show me|tell me|pull up|list|find|get me)\b/.test(said)
  )
    return null;
  const settled =
    /\b(?:paid|settled|cleared|sent|wired|transferred)\s+(?:us\s+)?(?:what (?:they|he|she) owed?|what was (?:owed|due|left)|the rest|the remainder|the balance|in full|the full amount|up)\b/.test(
      said,
    ) ||
    /\b(?:settled|cleared)\s+(?:their|the|his|her)\s+(?:\w+\s+)?invoice\b/.test(said) ||
    /\b(?:paid|sent|wired|transferred)\s+(?:us\s+)?[$€£]?\d[\d,.]*\s?(?:k\b|[$€£]|usd|eur|gbp)?\s*(?:against|towards|on|for)\s+(?:their|the|his|her)\s+(?:\w+\s+){0,2}invoice\b/.test(
      said,
    );
  // (With the invoice's number, the rule for money said against a number below reads it.)
  // ("won vs lost this year", "card vs cash": two states compared is a question.)
  if (
    /\b(?:vs|versus)\b/.test(said) &&
    !/^(?:(?:pls|please)\s+)?(?:create|add|new|log|record|update|set|change|move|mark|send|void|delete|remind|hire)\b/.test(said)
  )
    return null;
  if (settled && !/\binv(?:oice)?-\d{3,}/.test(said) && !/\?$/.test(said) && !/^(did|has|have|how|who|which|what|when)\b/.test(said))
    return { op: "log", verb: "paid", at: 0, rest: w.text };
  // ("For Grace Lamarr, please add a time entry dated yesterday: …": whom it is for, said first, goes with the record.)
  // (The nouns' pattern is built only for a message that opens so.)
  const forFirst = /^for\s/i.test(w.text)
    ? new RegExp(
        `^for\\s+([^,]{2,40}?)\\s*,\\s*(?:${LEAD_IN.source.slice(1)})?(add|log|record|create|enter|book)\\s+((?:an?\\s+|the\\s+|new\\s+)*(?:${schema.resources
          .flatMap((resource) => resource.nouns)
          .sort((a, b) => b.length - a.length)
          .map((noun) => escapeRegExp(noun))
          .join("|")}))\\b[:,]?\\s*`,
        "iu",
      )
    : null;
  // "we're hiring Evelyn Sagan!", "we hired her": the hire itself.
  // "fix Yukihiro's email, should be y@…": a correction of one field is a change to it.
  const text = (forFirst ? w.text.replace(forFirst, "$2 $3 for $1, ") : w.text)
    .replace(LEAD_IN, "")
    // ("change the notes on X to: …": the value follows "to".)
    .replace(/\bto:\s*/gi, "to ")
    // "start working on draft exports — set it in progress": the task started.
    .replace(
      /^(?:i(?:'m| am)\s+|\p{Lu}\p{Ll}+(?:'s|\s+is|\s+has)\s+)?(?:start(?:ed|ing)?|begin(?:ning)?|began)\s+(?:(?:working|work)\s+)?on\s+(.+?)(?:\s*[—–]\s*.*|\s+-\s+.*|,\s*(?:pls\s+|please\s+)?(?:set|move|mark|put)\s+(?:it|this)\b.*)?$/iu,
      "set $1 to in progress",
    )
    // "the contact John Hamilton is actually spelled Jon Hamilton, can you fix the name": a new spelling of the name.
    .replace(/^(?:[^—–]*[—–]\s*)?(?:the\s+\w+\s+)?(.+?)\s+is\s+(?:actually\s+)?(?:spelled|spelt|written)\s+(.+?)(?:\s*[,;.!].*)?$/iu, "rename $1 to $2")
    // ("design system needs a task 'audit colour tokens', give it to ada": a new task there.)
    .replace(/^(?:the\s+)?(.+?)\s+(?:project\s+)?(?:needs|could use|should get)\s+(?:a|an|another)\s+(?:new\s+)?task\b[:,]?\s*(.+)$/iu, "new task $2 in $1")
    // ("new task on the website relaunch — update favicon — low priority": where, then what, then the rest.)
    .replace(
      /^(new|add|create)\s+(?:a\s+)?task\s+(?:on|in|for)\s+(?:the\s+)?([^:]+?)\s+[—–-]\s+([^,]+?)(?:(?:\s+[—–-]\s+|\s*,\s*)(.+))?$/iu,
      (_m, verb: string, where: string, title: string, rest?: string) => `${verb} task "${title}" in ${where}${rest ? `, ${rest}` : ""}`,
    )
    // ("we're not hiring a product marketer after all, take that opening down": that opening, deleted.)
    .replace(
      /^(?:we(?:'re| are)\s+)?not\s+(?:hiring|recruiting)\s+(?:an?\s+|the\s+)?(.+?)\s+(?:after all|anymore|any more)\b.*?\b(?:take|pull|close|delete|remove|drop)\s+(?:that|the|this)\s+(?:opening|posting|role|position|job)\b.*$/iu,
      "delete the $1 opening",
    )
    // ("senior engineer opening - make it 3 positions": that record, changed.)
    .replace(/^(?!(?:new|add|create)\b)([^,:?]{3,60}?)\s+[-–—]\s+(?:(?:pls|please)\s+)?(?:make|set|change)\s+it\s+(?:to\s+)?(.+)$/iu, "update $1, $2")
    // "the issue date on INV-000323 should be the 16th": that field of that record, as it should be.
    .replace(
      /^(?:the\s+)?((?:issue|due|start|end|close|expected close|paid|joining)\s+date|amount|priority|status|stage|email|phone|title|name|value|notes?|description)\s+(?:on|of|for)\s+(.+?)\s+(?:should be|needs to be|must be|has to be)\s+(?:actually\s+)?(.+)$/iu,
      "set the $1 of $2 to $3",
    )
    // "Alan Thomson's start date was actually 27 October, not Nov 3": the field as it should be.
    .replace(/^(.+?)['’]s\s+([a-z][a-z ]{1,24}?)\s+(?:was|is|should be)\s+actually\s+(.+?)(?:,?\s+not\s+.+)?$/iu, "set $1's $2 to $3")
    // "Data warehouse description: '…'", "Acme notes: …": a record, one of its text fields, then the value.
    .replace(
      /^(?!(?:what|whats|what's|which|who|how|when|where|why|log|add|create|new|please|pls|record|make|set|update|change)\b)([^,:()]{2,40}?)\s+(description|notes?)\s*:\s*(.+)$/iu,
      (_m, whose: string, field: string, value: string) => `set ${whose}'s ${field} to ${value.trim()}`,
    )
    // "Customer portal is running long, extend the end date to 31 Jan 2027": the change, on the record said first.
    .replace(
      /^(?!(?:what|whats|what's|which|who|how|when|where|why|is|are)\b)(.+?)\s+(?:is|are|was|has been)\s+[^,;.]{2,30}[,;.]\s*(?:so\s+|pls\s+|please\s+)?(extend|push|move|change|set|update|bump)\s+(?:the|its|their)\s+(.+?)\s+to\s+(.+)$/iu,
      "$2 the $3 on $1 to $4",
    )
    // "oh and make the value 65k euros": the record talked about, that field.
    .replace(/^make\s+(?:the|its)\s+([a-z][a-z ]{1,20}?)\s+(?=[$€£]?\d)/iu, "set its $1 to ")
    // "ERP migration is wrapped. mark it completed": the record of the first sentence is the "it" of the command.
    .replace(
      /^(?!(?:what|whats|what's|which|who|whos|who's|how|when|where|why|is|are|does|do|did|can|could)\b)(.+?)\s+(?:is|are|was|has been|got)\s+[^.!;?]{1,30}?\s*[.!;]+\s+(?:(?:so|pls|please|can you|could you)\s+)?(mark|set|move|make|change|put|close|update|flag)\s+(?:it|this|that)\b/iu,
      "$2 $1",
    )
    // "reassign X to Y and set it to high": one record, two changes.
    .replace(/\s+and\s+(?:also\s+)?(?:set|make|mark|change|put)\s+(?:it|her|him|them|its priority|the priority)\s+(?:to|as|at)?\s*/gi, ", ")
    // "Test permissions on Onboarding revamp: due friday, urgent": a record, then what it is to be now.
    .replace(
      /^(?!(?:what|whats|what's|which|who|how|when|where|why)\b)([^:?]{3,60}?)(?::|\s[-–—]>?|\s*→)\s*((?:due|priority|assign(?:ed)?\s+to|give\s+it\s+to)\s+[^?]+)$/iu,
      "update $1, $2",
    )
    // ("ship search in erp migration should be alan allen's now": whose it is to be — a person's, not a time's or a
    // thing's: "the rate should be last year's" is no assignment.)
    .replace(
      /^(?!(?:what|whats|which|who|how|when|where|why|is|are)\b)(.+?)\s+should\s+(?:be|go to)\s+(?!(?:the|this|that|last|next|today|tomorrow|yesterday|at|our|their|his|her|its|my|your|everyone|someone|somebody|anyone|nobody)\b)(\p{L}+(?:\s+\p{L}+)?)['’]s(?:\s+now)?\s*[.!]*$/iu,
      "assign $1 to $2",
    )
    // ("give soylent until jan 15 on INV-000335": more time to pay that invoice, to that day.)
    // (Given to a name or "them" and nothing more: "give them 10% off until friday" is a discount.)
    .replace(
      /^give\s+(?:(?!\S*[\d%])(?!(?:an?|the|some|more|extra|another)\b)\p{L}[\p{L}'-]*(?:\s+(?!(?:off|discount|credit)\b)\p{L}[\p{L}'-]*){0,2}\s+)?(?:until|till|til)\s+(.+?)\s+(?:on|for)\s+([a-z]{2,7}-\d{3,})\s*[.!]*$/iu,
      "set the due date of $2 to $1",
    )
    // "add 45 min to Tim's timesheet on …": time for Tim.
    .replace(/\b(?:to|on|in)\s+([\p{L} .'-]+?)['’]s?\s+(?:timesheet|time sheet|hours|time)\b/giu, "for $1")
    // "Lynn Wilson is moving to the remote branch from next month": a move to record.
    .replace(
      /^([\p{Lu}][\p{L}'-]*(?:\s+[\p{Lu}][\p{L}'-]*){0,3})\s+(?:is|will be)\s+(?:moving|transferring|relocating)\s+to\s+(.+?)(?:\s+(?:from|starting|as of)\s+.+)?$/u,
      "$1 moved to $2",
    )
    // "link the prestige renewal deal to the customer Prestige": that record's reference set.
    .replace(/^(?:link|attach|connect|tie)\s+(.+?)\s+(?:to|with)\s+(?:the\s+)?(customer|contact|project|client|company)\s+(.+)$/i, "set $1's $2 to $3")
    // ("attach the Wonka renewal deal to the Wonka customer record", "link the Mobile app project to Hooli": whoever
    // the name is, through the reference that takes it.)
    .replace(
      /^(?:link|attach|connect|tie)\s+(.+?)\s+(?:to|with)\s+(?:the\s+)?(.+?)(?:\s+(?:customer|client|contact|project|company))?(?:\s+(?:record|account|profile))?\s*$/i,
      "assign $1 to $2",
    )
    .replace(/^(?:we(?:'re| are| will|'ll)?|i(?:'m| am| will|'ll)?)\s+(?:going to\s+|gonna\s+)?(?:hiring|hired|hire)\b/i, "hire")
    // ("need an invoice for aperture holdings, due next friday": a record needed is one to create.)
    .replace(
      /^(?:(?:i|we)\s+)?need\s+(?:a|an|another)\s+(?:new\s+)?(invoice|task|deal|project|lead|contact|customer|quote|opening|job opening)\s+(for|to|on|in|with)\b/i,
      "create a $1 $2",
    )
    // ("please add the following note to INV-000323: '…'": that text field, with the words after the colon.)
    .replace(/^(?:add|put|attach)\s+(?:the following\s+|this\s+|a\s+)?(notes?|description)\s+(?:to|on|for)\s+(.+?)\s*:\s*(.+)$/iu, "update $2, $1: $3")
    // "pymt 1200 eur on INV-000310 bank transfer": a payment, its amount first, is one to record.
    .replace(
      /^(?:(?:an?\s+)?(?:partial|part|full|final|first|second|last)\s+)?(?:payment|deposit)\s+(?:of\s+)?(?=[$€£]?\s?\d[\d,.]*\s*(?:k\b|[a-z]{3}\b|[$€£])?.*\b(?:on|for|against|towards)\s+inv)/i,
      "record payment of ",
    )
    // "Initech just paid that, $3,773.99 by bank transfer": a payment on the invoice the talk is about.
    .replace(
      /^(?:(?:\p{L}[\p{L}'-]*\s+){1,3}|they\s+|she\s+|he\s+)?(?:just\s+|finally\s+|have\s+|has\s+)*paid\s+(?:that|it|this|this one|that one)\b\s*[,;:—–-]?\s*(?=.*\d)/iu,
      "record a payment on it, ",
    )
    // "payment reminder to globex labs for INV-000208 pls", "ping them with a reminder": a reminder said as a noun.
    .replace(/^(?:an?\s+)?(?:payment\s+)?reminder\s+(?:to|for)\s+(.+?)(?:\s*,?\s+(?:pls|please|thx|thanks))?\s*[.!]?$/iu, "remind $1")
    .replace(/^(?:ping|poke|hit|nudge)\s+(.+?)\s+(?:with|about)\s+(?:a|the|another)\s+(?:payment\s+)?reminder\b.*$/iu, "remind $1")
    // "INV-000098 needs to be in EUR, not dollars": a currency as it should be.
    .replace(
      /^(?!(?:what|whats|what's|which|who|how|when|where|why|is|are|does|do)\b)(.+?)\s+(?:needs to|should|has to|must)\s+be\s+(?:billed\s+)?in\s+([a-z]{3}|euros?|dollars?|pounds?)\b.*$/iu,
      "set $1's currency to $2",
    )
    // "add to the notes on INV-000347: wire only, ref GL-347": that text field, with the words after the colon (a
    // note runs to the end of the message).
    .replace(/^(?:add|put|append)\s+(?:this\s+)?(?:to|in)\s+(?:the\s+)?(notes?|description)\s+(?:on|of|for)\s+(.+?)\s*:\s*(.+)$/iu, "update $2, $1: $3")
    // "stark holdings gave us their tax id, US-998877, pls add it": a value they gave, for the field it names.
    .replace(
      /^(?!(?:what|whats|what's|which|who|how|when|where|why|did|has|have)\b)(.+?)\s+(?:gave us|sent us|sent over|shared|gave|sent)\s+(?:us\s+)?(?:their|his|her|its)\s+(?:new\s+)?([a-z][a-z ]{1,20}?)\s*[,:—–-]?\s*([^\s,]*\d[^\s,]*|[^\s,]+@[^\s,]+)\s*(?:[,;.].*)?$/iu,
      "set $1's $2 to $3",
    )
    // "tyrell labs have a new billing email: invoices@…": a new value said as news is a change of it.
    .replace(
      /^(?:customer\s+)?(.+?)\s+(?:has|have|got)\s+(?:a\s+)?new\s+((?:billing\s+)?(?:e-?mail(?: address)?|phone(?: number)?|website|tax id|vat (?:id|number)))\s*(?::|\s-|—|,|\bis\b)?\s*(\S+?)[.!]?$/iu,
      "change $1's $2 to $3",
    )
    // "Aperture's billing address: 1 Science Way, …", "Soylent has a new address: …", "Monarch Labs moved — new
    // billing address is …": a new address said as news is a change of it.
    .replace(
      /^(?!(?:what|whats|what's|where|wheres|where's|who|which|is|does|do)\b)(?:(?:update|change|set|edit|fix|correct)\s+)?(?:customer\s+)?(.+?)['’]s?\s+(?:new\s+)?(?:billing\s+)?address\s*(?:is(?: now)?\s+|:|=|\s-|—)\s*(?=\S*\d)(.+)$/iu,
      "change $1's billing address to $2",
    )
    .replace(/^(?:customer\s+)?(.+?)\s+(?:has|got)\s+(?:a\s+)?new\s+(?:billing\s+)?address\s*(?::|\s-|—|,)?\s*(.+)$/iu, "change $1's billing address to $2")
    .replace(
      /^(?:customer\s+)?(.+?)\s+(?:has\s+)?moved(?:\s+(?:offices?|hq|premises|address))?\s*(?:[—–,;.]|\s-)\s*(?:their\s+|the\s+|(?:pls|please)\s+(?:set|update)\s+(?:the\s+)?)?(?:new\s+)?(?:billing\s+)?address\s*(?:is\s*|:|to\s+)?:?\s*(.+)$/iu,
      "change $1's billing address to $2",
    )
    // ("Radia Perlman's title is changing to Sales Lead, please update her designation": the title as it is to be.)
    .replace(
      /^(?!(?:what|whats|what's|which|who|whos|who's|how|when|where|why|is|are|does|do|did)\b)(.+?)['’]s\s+(?:job\s+)?(?:title|designation|role|position)\s+(?:is\s+(?:now|changing\s+to|going\s+to\s+be)|has\s+changed\s+to|changed\s+to|changes\s+to|will\s+be|becomes)\s+(.+?)(?:\s*[,;.!]\s*.*)?$/iu,
      "change $1's title to $2",
    )
    // People's news: "X got promoted to Senior Engineer", "X is now Head of Partnerships, pls update his title",
    // "X left last friday, update his status", "X should be in Finance", "transfer X to the Remote branch",
    // "she's moving to the Berlin branch", "reactivate her".
    .replace(
      /^(?!(?:what|whats|what's|which|who|whos|who's|how|when|where|why|is|are|does|do|did|should|can|could|has|have)\b)(.+?)\s+(?:got|was|has been|is being|just got|is|'s)\s+(?:just\s+)?promoted\s+to\s+(.+?)[.!]*$/iu,
      "promote $1 to $2",
    )
    // ("hire margaret for the finance analyst job", "we're hiring dennis — senior engineer, start 4 jan": the job is
    // the title they are hired as.)
    .replace(/\b(hire|hiring)\s+(.+?)\s+for\s+(?:the\s+)?(.+?)\s+(?:job|role|position|opening|post)\b/iu, "hire $2 as $3")
    // ("Hire Hedy for Finance Analyst, starting January 4": a title in capitals after "for" is the job.)
    .replace(/^([Hh]ire)\s+(\p{L}+(?:\s+\p{L}+)?)\s+for\s+(?:the\s+)?(\p{Lu}[\p{L}&-]*(?:\s+\p{Lu}[\p{L}&-]*){0,3})(?=\s*(?:[,.;]|$))/u, "$1 $2 as $3")
    .replace(/^(?:we(?:'re|’re| are)\s+)?(?:going to\s+)?hir(?:e|ing)\s+(\p{L}+\s+\p{L}+)\s+[—–-]\s+((?:\p{L}+\s+){0,3}\p{L}+)\s*,/iu, "hire $1 as $2,")
    // ("we're scrapping support tooling entirely, delete the project": that project.)
    .replace(
      /^(?:we(?:'re| are)\s+)?(?:scrapping|killing|dropping|cancell?ing|canceling|shelving|binning|abandoning)\s+(?:the\s+)?(.+?)(?:\s+(?:entirely|completely|altogether|for good))?\s*(?:[,.;—–]|\s-)\s*(?:(?:pls|please|so)\s+)?(?:delete|remove|archive|drop)\s+(?:the\s+|that\s+|it)?\s*(project|deal|task|lead|opening)?\b.*$/iu,
      (_m, what: string, noun?: string) => `delete the ${noun ? `${noun} ` : ""}${what}`,
    )
    // ("finance analyst opening should have 2 positions": that many.)
    .replace(/^(.+?)\s+should\s+(?:have|get|be)\s+(\d+)\s+(positions|openings|seats|spots|hires)\b.*$/iu, "set the positions of $1 to $2")
    // ("lead from the trade show yesterday: Aiko Tanaka of …": a new lead, told.)
    .replace(/^(?:new\s+)?lead\s+from\s+(?:the\s+|a\s+)?[^:]{2,40}:\s*(.+)$/iu, "new lead $1")
    // ("frances boyd got promoted - senior engineer": to that.)
    .replace(/^(.+?)\s+(?:got|was|has been|just got)\s+promoted\s*(?:[-–—:,]|\s-)\s*(?:to\s+)?(?:an?\s+)?(.+?)[.!]*$/iu, "promote $1 to $2")
    // ("data warehouse wrapped up last week - mark complete": that record, in that state.)
    .replace(
      /^(.+?)\s+(?:wrapped up|wrapped|finished|completed|shipped|is done|is finished|went live)\b(?:\s+(?:last|this|yesterday|today|early|late|on|in)\b[^,.;—–-]*)?\s*(?:[,.;—–]|\s-)\s*(?:(?:pls|please|so)\s+)?(?:mark|set|move)\s+(?:it\s+)?(?:as\s+|to\s+)?(complete|completed|done|finished)\b.*$/iu,
      "mark $1 as $2",
    )
    // ("umbrella labs rebranded, rename them to Umbrella Research": renamed.)
    .replace(/^(.+?)\s+(?:rebranded|changed (?:their|its) name)\b.*?\brename\s+(?:them|it)\s+(?:to\s+|as\s+)?(.+)$/iu, "rename $1 to $2")
    // ("ken torvalds lead value should be 1500 not 1080": set to what it should be.)
    .replace(/^(.+?)\s+should\s+be\s+([$€£]?\d[\d,.]*k?(?:\s*(?:usd|eur|gbp))?)\s*,?\s+not\s+[$€£]?\d[\d,.]*k?\s*[.!]*$/iu, "set $1 to $2")
    // ("monarch labs changed their AP address, use finance@… from now on": that field, the new value.)
    .replace(
      /^(.+?)\s+changed\s+(?:their|its|his|her)\s+(e-?mail|email address|phone|number)\b.*?\b(?:use|to|is now|now)\s+([^\s@]+@[^\s@,;!]+\.[a-z]{2,}|\+?\d[\d ()-]{6,}\d)(?=[\s,.;!]|$).*$/iu,
      "set $1's $2 to $3",
    )
    // ("promote sophie to support lead": a title of two words or more is the new title, however it is typed.)
    .replace(
      /^promote\s+(.+?)\s+to\s+(?:an?\s+|the\s+)?((?![\w ]*\b(?:stage|round|interview|offer|screening|phase)\b)[\p{L}&-]+(?:\s+[\p{L}&-]+){1,4})\s*[.!]*$/iu,
      "set $1's designation to $2",
    )
    .replace(
      /^(?!(?:what|whats|what's|which|who|whos|who's|how|when|where|why|is|are|does|do|did|should|can|could|has|have)\b)(.+?)\s+is\s+now\s+(?:an?\s+|the\s+|our\s+)?(.+?)\s*[,.;—–-]\s*(?:(?:pls|please|can you|could you)\s+)?(?:update|change|fix|set)\s+(?:his|her|their)\s+(?:job\s+)?(?:title|designation|role)\b.*$/iu,
      "set $1's designation to $2",
    )
    .replace(
      /^(?!(?:what|whats|what's|which|who|whos|who's|how|when|where|why|is|are|does|do|did|should|can|could|has|have)\b)(.+?)\s+(?:has\s+)?(?:officially\s+|finally\s+|just\s+)?left\b(?:\s+(?:the company|us|last \w+|yesterday|today|on [\w ]+?|this \w+))*\s*[,.;—–-]\s*(?:[^.]*\.\s*)?(?:(?:pls|please|can you|could you)\s+)?(?:update|change|set|mark)\s+(?:his|her|their)\s+(?:status|record|profile|file|details)\b.*$/iu,
      "mark $1 as left",
    )
    .replace(
      /^(?!(?:what|whats|what's|which|who|whos|who's|how|when|where|why|is|are|does|do|did|should|can|could|has|have)\b)(.+?)\s+should\s+be\s+in\s+(?:the\s+)?(.+?)(?:\s+(?:department|dept|team))?\s*(?:[,.;—–-].*)?$/iu,
      "move $1 to $2",
    )
    .replace(/^transfer\s+(.+?)\s+to\s+(?:the\s+)?(.+?\s+(?:branch|department|dept|team|office))\b.*$/iu, "$1 moved to $2")
    .replace(
      /^(?:and\s+)?(she|he|they)(?:'s|'re|\s+is|\s+are|\s+will\s+be)\s+moving\s+to\s+/iu,
      (_m, who: string) => `move ${who.toLowerCase() === "she" ? "her" : who.toLowerCase() === "he" ? "him" : "them"} to `,
    )
    // "send them a reminder", "send a reminder on the biggest one": a reminder is a remind.
    .replace(
      /^send\s+(?:(them|him|her|it|[a-z]{2,7}-\d{3,})\s+)?an?\s+(?:reminder|nudge|chaser|follow[- ]?up)(?:\s+(?:for|on|about|of)\s+(.+))?$/iu,
      (_m, who?: string, what?: string) => `remind ${what ?? who ?? "it"}`,
    )
    // "Prestige Labs wants to be billed in USD from now on": its currency.
    .replace(
      /^(.+?)\s+(?:(?:wants?|would like|asked|needs?)\s+to\s+(?:be\s+)?|(?:is|are)\s+(?:now\s+)?|should\s+(?:now\s+)?be\s+|will\s+(?:now\s+)?be\s+)(?:billed|invoiced|charged|pay|paying)\s+in\s+([a-z]{3}|euros?|dollars?|pounds?)\b.*$/iu,
      "set $1's currency to $2",
    )
    // "INV-000287 needs voiding", "X has to be sent": the action it awaits.
    .replace(
      /^(.+?)\s+(?:needs|need|should be|has to be|must be|needs to be|is to be)\s+(void(?:ing|ed)?|cancel(?:l?ing|l?ed)?|sen[dt](?:ing)?|delet(?:ing|ed)|remov(?:ing|ed)|clos(?:ing|ed))\b/iu,
      (_m, what: string, verb: string) =>
        `${/^(?:void|cancel)/i.test(verb) ? "void" : /^sen/i.test(verb) ? "send" : /^clos/i.test(verb) ? "close" : "delete"} ${what}`,
    )
    // "start screening Yukihiro Hopper", "pause the mobile app project", "X opening is filled": the state it means.
    .replace(
      /^(?:start|begin)\s+(screening|interviewing)\s+(.+)$/iu,
      (_m, stage: string, who: string) => `move ${who} to ${stage.toLowerCase() === "screening" ? "screening" : "interview"}`,
    )
    .replace(/^(.+?)\s+(?:is|has been|got|was)\s+filled\b.*$/iu, "close $1")
    // "Finance Analyst: make it 2 positions": the number the record's field is to be.
    .replace(/^(.+?):\s*(?:make it|change it to|set it to|now)\s+(\d+)\s+([a-z]+)\s*[.!]*$/iu, "set $1's $3 to $2")
    .replace(/^(?:fix|correct)\s+(?=[\p{L} .-]+['’]s\s)/iu, "update ")
    .replace(/^(update .+?['’]s\s+[\p{L} ]+?),?\s+(?:it\s+)?should be\s+/iu, "$1 to ");
  const lower = text.toLowerCase();
  // "open EUR deals, smallest first", "void invoices this year", "new customers since july": a state (or "new")
  // before many records is what they are, a question — not a new one, nor a change.
  const plurals = schema.resources.flatMap((resource) => resource.nouns.filter((noun) => /s$/.test(noun)));
  const many = new RegExp(
    `^(?:open|void|draft|paid|sent|new|lost|won|closed)\\s+(?:(?!a\\b|an\\b|new\\b|the\\b)[a-z$€£]+\\s+){0,2}(?:${plurals.join("|")})\\b(?!\\s*:)`,
  );
  const typed = w.joined.replace(LEAD_IN, "");
  if (many.test(lower.replace(LEAD_IN, "")) || many.test(typed)) return null;
  // "add phone +49 30 1234567 to grace stroustrup", "new phone for Evelyn Hopper: +1 415…": a field of someone
  // already there, given a value, is a change to that record.
  const FIELD = "phone(?: number)?|mobile|e-?mail(?: address)?|tax id|vat number|website";
  const head = `^(?:add|new|set)\\s+(?:a\\s+)?(?:new\\s+)?(${FIELD})\\s+`;
  // (the field, whose it is, then the value: "new phone for Evelyn: +1 …", "set tax id for Soylent to DE…")
  const named = new RegExp(`${head}(?:for|of|on)\\s+(.+?)\\s*(?:[:=]|\\bto\\b)\\s*(.+)$`, "i").exec(text);
  // (the field, the value, then whose it is: "add phone +49 30 1234567 to grace")
  const valued = named ? null : new RegExp(`${head}(.+?)\\s+(?:to|for|on)\\s+(.+)$`, "i").exec(text);
  if (named || valued) {
    const [field, name, value] = named ? [named[1]!, named[2]!, named[3]!] : [valued![1]!, valued![3]!, valued![2]!];
    return { op: "update", verb: "set", at: 0, rest: `${name.trim()}'s ${field} to ${value.trim()}` };
  }
  // "change expected close on the Prestige pilot to jan 15", "update the lost reason on Nakatomi platform to …":
  // a field's words, whose it is, then the value.
  const fieldOn =
    /^(?:change|update|set|edit|fix|move|push|switch|extend|bump)\s+(?:the\s+)?(.+?)\s+(?:on|of|for)\s+(?:the\s+)?(.+?)\s+to(?:\s+|:\s*)(.+)$/i.exec(text) ??
    // ("Office move: change end date to end of january", "set source = event for Bjarne Johnson".)
    /^(?:(?:project|task|deal|lead|invoice|customer|contact|employee|candidate|opening)\s+)?(.+?):\s*(?:change|set|update|move|push|extend|bump|raise|increase|lower|drop|cut)\s+(?:the\s+|its\s+)?(.+?)\s+to\s+(.+)$/i
      .exec(text)
      ?.map((part, i, all) => (i === 1 ? all[2]! : i === 2 ? all[1]! : part)) ??
    /^(?:set|change|update)\s+(?:the\s+)?([a-z][a-z ]*?)\s*=\s*(.+?)\s+(?:for|on|of)\s+(.+)$/i
      .exec(text)
      ?.map((part, i, all) => (i === 2 ? all[3]! : i === 3 ? all[2]! : part));
  // ("update lead value for Carl to 150k": the kind of record said with its field.)
  const kindSaid = fieldOn ? schema.resources.find((resource) => resource.nouns.some((noun) => fieldOn[1]!.toLowerCase().startsWith(`${noun} `))) : undefined;
  if (fieldOn && kindSaid) {
    const noun = kindSaid.nouns.find((candidate) => fieldOn[1]!.toLowerCase().startsWith(`${candidate} `))!;
    const own = fieldOn[1]!.slice(noun.length + 1);
    if ([...kindSaid.fields.values()].some((field) => field.name.replace(/_/g, " ") === own.toLowerCase() || field.words.includes(own.toLowerCase()))) {
      fieldOn[1] = own;
      fieldOn[2] = `${noun} ${fieldOn[2]}`;
    }
  }
  if (
    fieldOn &&
    schema.resources.some((resource) =>
      [...resource.fields.values()].some(
        (field) => field.name.replace(/_/g, " ") === fieldOn[1]!.toLowerCase() || field.words.includes(fieldOn[1]!.toLowerCase()),
      ),
    )
  )
    return {
      op: "update",
      verb: "set",
      at: 0,
      // ("the notes on draft INV-000098": the state said before a number is no part of the name. A quoted text
      // field keeps its quotes, so that its commas stay in it.)
      rest: `${fieldOn[2]!.trim().replace(/^(?:draft|sent|paid|void|unpaid|overdue)\s+(?=inv)/i, "")}'s ${fieldOn[1]} to ${/^(?:notes?|description|comment)$/i.test(fieldOn[1]!) ? fieldOn[3]!.trim() : fieldOn[3]!.trim().replace(/^["'‘“](.*)["'’”]$/, "$1")}`,
    };
  // "unassign Test checkout on Website relaunch": nobody on it any more.
  const unassigned = /^(?:unassign|un-assign|deassign)\s+(.+?)(?:\s+from\s+(?:him|her|them|\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?))?\s*[.!]*$/iu.exec(text);
  if (unassigned) return { op: "update", verb: "unassign", at: 0, rest: unassigned[1]! };
  // "Sophie Wirth came from the website, pls set the source": where someone came from, to record.
  const cameFrom =
    /^(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,3})\s+(?:came|comes|come)\s+(?:in\s+)?(?:from|through|via)\s+(?:the\s+|an?\s+)?([\p{L} -]+?)\s*(?:[,;—–-].*)?[.!]*$/u.exec(
      text,
    );
  // (Not money: "Payment came from Gringotts for INV-000190" is a payment, below.)
  if (cameFrom && !/^(?:payment|money|cash|the money|the payment)$/i.test(cameFrom[1]!) && schema.resources.some((resource) => resource.fields.has("source")))
    return { op: "update", verb: "set", at: 0, rest: `${cameFrom[1]}'s source to ${cameFrom[2]}` };
  // "Katherine Thompson is at Globex now, not Tyrell": where someone works now is a change of their company.
  const nowAt =
    /^(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,3})\s+(?:is|works|is working)\s+(?:at|for|with)\s+(.+?)\s+now\b(?:\s*,?\s*not\s+.+)?\s*[.!]*$/u.exec(text);
  if (nowAt) return { op: "update", verb: "set", at: 0, rest: `${nowAt[1]}'s company to ${nowAt[2]}` };
  // "grace lamarr finished Plan search on data warehouse": someone's work done is that task done.
  const finished =
    /^((?:\p{L}[\p{L}'-]*)(?:\s+\p{L}[\p{L}'-]*)?)\s+(?:has\s+|just\s+)?(?:finished|completed|wrapped up|is done with)\s+(?:the\s+)?(.+?)\s*[.!]*$/iu.exec(
      text,
    );
  // (Not "tasks completed last week": a resource's noun is no one.)
  const nounish = (phrase: string) =>
    phrase
      .toLowerCase()
      .split(/\s+/)
      .some((word) => schema.resources.some((resource) => resource.nouns.includes(word)));
  if (
    finished &&
    !/^(?:who|what|which|how|when|where|did|has|have|is|are|i|we|anything|everything|all|any)$/i.test(finished[1]!.split(/\s+/)[0]!) &&
    !nounish(finished[1]!)
  )
    return { op: "update", verb: "mark", at: 0, rest: `${finished[2]} as done` };
  // "cyberdyne's new VAT number is DE…", "grace borg has a new email: …", "save Joan's number pls: +44 …":
  // whose, the field, then the value.
  const FIELDS = `${FIELD}|number`;
  // "hooli's AP moved to invoices@hooli.example, update the billing email": where a company's bills go now is its
  // billing e-mail.
  const billsTo =
    /^(.+?)['’]s?\s+(?:ap|a\/p|accounts payable|billing|invoicing|bookkeeping|accounting|finance|e-?mail)(?:\s+(?:team|dept|department|contact|address|inbox))?\s+(?:moved|changed|switched|is now|has moved|now)\s+(?:to\s+|over to\s+)?([^\s@,]+@[^\s@,]+\.[a-z]{2,})\b/i.exec(
      text,
    );
  if (billsTo && schema.resources.some((resource) => resource.update?.some((field) => field.parts?.includes("email"))))
    return { op: "update", verb: "set", at: 0, rest: `${billsTo[1]}'s ${/\bbilling\b/i.test(text) ? "billing " : ""}email to ${billsTo[2]}` };
  const owned =
    new RegExp(
      `^(?:add|save|store|update|change|set)?\\s*(.+?)(?:['’]s|s['’])\\s+(?:new\\s+)?(?:(?:ap|work|main|office)\\s+)?(${FIELDS})(?:\\s+(?:pls|please))?\\s*(?:(?:has\\s+)?changed to|is changing to|is now|is|:|=|to|as|(?=[A-Z+\\d][\\w+-]*\\d))\\s*(.+)$`,
      "i",
    ).exec(text) ??
    // ("lead Mary Ritchie phone: +44 …": the kind, whose, the field, then the value.)
    new RegExp(`^(?:the\\s+)?(?:lead|contact|customer|employee|candidate|client)\\s+(.+?)\\s+(${FIELDS})\\s*[:=]\\s*(.+)$`, "i").exec(text) ??
    // ("Nakatomi gave us their VAT number: DE…": a value handed over is the record's.)
    new RegExp(
      `^(.+?)\\s+(?:gave us|sent us|sent|shared|provided)\\s+(?:their|his|her|the|its)\\s+(?:new\\s+)?(${FIELDS})\\s*(?::|is|-|—)?\\s*(.+)$`,
      "i",
    ).exec(text) ??
    new RegExp(
      `^(.+?)\\s+(?:has|have|got|gets|has got)\\s+(?:a\\s+)?new\\s+(${FIELDS})(?:\\s+number)?(?:\\s+(?:now|too))?\\s*(?::|,|-|—|of|which is|it's|its)?\\s*(.+)$`,
      "i",
    ).exec(text);
  if (owned && /[\d@]/.test(owned[3]!) && !/^(?:what|whats|who|which|how|when|where|is|are|does|do)\b/i.test(owned[1]!)) {
    const field = owned[2]!.toLowerCase() === "number" ? "phone" : owned[2]!;
    return { op: "update", verb: "set", at: 0, rest: `${owned[1]!.trim()}'s ${field} to ${owned[3]!.trim()}` };
  }
  // "mark INV-000123 as paid, got a cheque": paid in full is a payment of what is still due.
  // ("aperture settled, mark INV-000341 as paid": the news before it is why.)
  const markedPaid =
    /^(?:[^,;.]{2,60}[,;.]\s*(?:so\s+|pls\s+|please\s+)?)?(?:mark|set)\s+(inv(?:oice)?-\d+)\s+(?:as\s+)?(?:fully\s+)?paid\b[,.]?\s*(.*)$/i.exec(text);
  if (markedPaid) return { op: "create", verb: "record", at: 0, rest: `payment in full on ${markedPaid[1]}${markedPaid[2] ? `, ${markedPaid[2]}` : ""}` };
  // "we need 3 support specialists now, not 2": how many an opening is for.
  const needed = /^we (?:need|want|are hiring|'re hiring|now need)\s+(\d{1,3})\s+(.+?)(?:\s+now)?(?:,?\s*(?:not|instead of)\s+\d{1,3})?\s*[.!]*$/i.exec(text);
  if (needed && schema.byName.get("job-openings")?.fields.has("positions"))
    return { op: "update", verb: "set", at: 0, rest: `${needed[2]!.replace(/(?<=[a-z]{3})s$/i, "")}'s positions to ${needed[1]}` };
  // "Donald Hamilton → interview", "Grace Turing converted 🙌", "anita allen - unqualified, no budget",
  // "Initech platform deal - we won it!!": a record, then the state it is in now, is that state change.
  const states = new Set(
    schema.resources.flatMap((resource) =>
      ["status", "stage"].flatMap((name) => (resource.fields.get(name)?.values ?? []).map((value) => value.replace(/_/g, " "))),
    ),
  );
  // ("the wonka pilot is dead": a state said in the skill's own words for one value, when they are words of weight.)
  for (const resource of schema.resources)
    for (const filter of resource.skill?.filters ?? []) {
      const [entry, ...more] = Object.entries(filter.query);
      if (!entry || more.length > 0 || !["status", "stage"].includes(entry[0]) || entry[1].includes(",") || entry[1].startsWith("$")) continue;
      for (const word of filter.words) if (word.length >= 4 && !/^(?:open|active|current|new|closed)$/.test(word)) states.add(word);
    }
  // ("grace hopper (lead) converted, update her", "James Perlman (lead) has been contacted now, update pls": a name,
  // its kind in brackets, then its new state.)
  const bracketed = /^(.+?)\s*\((\p{L}+)\)\s+(?:(?:is|has been|was|got)\s+(?:now\s+)?)?([\p{L} ]+?)(?:\s+now)?(?:\s*[,;—–!.-].*)?$/u.exec(text);
  if (bracketed) {
    const kind = schema.resources.find((resource) => resource.singular === bracketed[2]!.toLowerCase());
    const value = bracketed[3]!.toLowerCase().trim();
    if (kind && ["status", "stage"].some((name) => kind.fields.get(name)?.values?.includes(value.replace(/ /g, "_"))))
      return { op: "update", verb: "mark", at: 0, rest: `${kind.singular} ${bracketed[1]} as ${value}` };
  }
  // ("INV-000133 needs PO reference 88213 in the notes": that text in its notes.)
  const noted = /^(.+?)\s+(?:needs|should have|gets|wants)\s+(.+?)\s+(?:in|on|added to)\s+(?:the|its|their)\s+(notes?|description)\s*[.!]*$/i.exec(text);
  if (noted)
    return { op: "update", verb: "note", at: 0, rest: `${noted[1]}, ${noted[3]!.toLowerCase().startsWith("desc") ? "description" : "note"}: ${noted[2]}` };
  // "Carl Perlman signed with us - lead converted": a person named, news, then the record's kind and its new state.
  const tagged = /^(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){1,3})\s+\p{Ll}.*?(?:\s[-—–:]|[,;])\s*(\p{L}+(?:\s+\p{L}+)?)\s*[.!]*$/u.exec(text);
  if (tagged && !text.includes("?")) {
    const [noun, ...rest] = tagged[2]!.toLowerCase().split(/\s+/);
    const kind = schema.resources.find((resource) => resource.singular === noun);
    const value = rest.join(" ").replace(/ /g, "_");
    if (kind && ["status", "stage"].some((name) => kind.fields.get(name)?.values?.includes(value)))
      return { op: "update", verb: "mark", at: 0, rest: `${kind.singular} ${tagged[1]} as ${rest.join(" ")}` };
  }
  const alternatives = [...states].sort((a, b) => b.length - a.length).join("|");
  const news = alternatives
    ? new RegExp(
        `^(?:the\\s+)?([\\p{L}][\\p{L}\\d'’&.-]*(?:\\s+[\\p{L}\\d][\\p{L}\\d'’&.-]*){0,5}?)(\\s*\\([^()]{2,60}\\)|\\s+(?:in|on|under)\\s+(?:the\\s+)?[\\p{L}][\\p{L}\\d'’&.-]*(?:\\s+[\\p{L}\\d][\\p{L}\\d'’&.-]*){0,4}?(?=\\s+(?:is|was|has been|is now|passed)\\s))?\\s*(?:→|->|=>|:|\\s-|—|–)?\\s*(?:(?:we|they|she|he)\\s+(?:just\\s+)?)?(?:(?:is|was|has been|is now)\\s+)?(?:moved\\s+to\\s+|went\\s+to\\s+|to\\s+)?(${alternatives})\\b(?:\\s+(?:it|that one|the deal|them|her|him))?\\s*(?:[!.,;:—–-].*|[\\p{Extended_Pictographic}\\s]*)$`,
        "iu",
      ).exec(text)
    : null;
  const state = news?.[3]?.toLowerCase();
  // ("Draft reports in Mobile app is ready for review", "fix login (data warehouse) passed review": the record,
  // told by its parent.)
  const record = news ? `${news[1]}${news[2] ?? ""}` : "";
  // (Not "grace allen accepted — hire her": a command after it says what to do.)
  const rest = news ? text.slice(text.indexOf(record) + record.length) : "";
  const after = state ? rest.slice(rest.toLowerCase().indexOf(state) + state.length) : "";
  const commandAfter = /^[\s!.,;:—–-]*(\p{L}+)/u.exec(after)?.[1]?.toLowerCase();
  if (
    news &&
    state &&
    !text.includes("?") &&
    !(commandAfter && VERBS.some((verb) => verb.words.includes(commandAfter))) &&
    // (A name, not a command or a question: no verb first, no glue or question words in it.)
    // (A title may start with a verb when it is told by its parent: "Draft reports in Mobile app is …".)
    (!VERBS.some((verb) => verb.words.includes(news[1]!.split(/\s+/)[0]!.toLowerCase())) ||
      (news[2] !== undefined && /^\s+(?:is|was|has been|passed)\s/i.test(rest))) &&
    !news[1]!.split(/\s+/).some((word) => FILLER.has(word.toLowerCase()) || GRAMMAR.has(word.toLowerCase())) &&
    !/^(?:who|whos|who's|what|whats|what's|which|how|when|where|why|any|anyone|anybody|is|are)\b/i.test(news[1]!) &&
    // (Not "Acme invoices paid": many records, a question about them.)
    !news[1]!
      .toLowerCase()
      .split(/\s+/)
      .some((word) => schema.resources.some((resource) => resource.nouns.includes(word) && (word === resource.nouns[0] || /s$/.test(word))))
  )
    // ("Globex pilot is lost, they went with a competitor": why, when it is said, goes with the state.)
    return { op: "update", verb: "mark", at: 0, rest: `${record} as ${state}${SAYS_REASON.test(after) ? after : ""}` };
  // "make Plan checkout in the mobile app urgent": "make" + a record + a value its fields take is a change
  // ("make a task …", "make new …" stay creates).
  // ("make 'Build emails' on billing v2 low priority, it can wait": the field's noun and an aside after it.)
  const made =
    /^make\s+(?!(?:a|an|new|the new|me|us)\b)(.+?)\s+((?:in\s+)?[a-z_]+)(?:\s+priority)?(?:\s+again)?\s*(?:[,;—–-]\s*(?:it|that|this|they)\b.*)?[.!]*$/i.exec(
      text,
    );
  if (made) {
    const value = made[2]!.toLowerCase();
    const takes = schema.resources.some((resource) =>
      [...resource.fields.values()].some((field) => field.kind === "enum" && field.values?.some((v) => v.replace(/_/g, " ") === value)),
    );
    if (
      takes &&
      !schema.resources.some((resource) => resource.nouns.some((noun) => made[1]!.toLowerCase().startsWith(`${noun} `) || made[1]!.toLowerCase() === noun))
    )
      return { op: "update", verb: "mark", at: 0, rest: `${made[1]} as ${made[2]}` };
  }
  if (
    /^(how|what|whats|what's|which|who|whos|who's|when|where|why|is|are|does|do|did|show|list|any|find|give me|tell|can i see|let me see)\b/.test(lower) &&
    !/^(can you|could you)\b/.test(w.text.toLowerCase())
  ) {
    // "give me" and "show" are reads; "is it paid" too.
    return null;
  }
  // "add a note on candidate X: …": a note is a change to that record.
  const note = /^(?:(?:add|put|leave|write)\s+(?:a\s+)?)?(note|comment)s?\s+(?:on|to|for|about)\s+(.+?):\s*(.+)$/i.exec(text);
  if (note) return { op: "update", verb: "note", at: 0, rest: `${note[2]}, note: ${note[3]}` };
  // "add a description to Security audit: Annual SOC2 readiness review": the same for a description.
  const described = /^(?:add|put|set|write)\s+(?:a\s+|the\s+)?description\s+(?:on|to|for)\s+(.+?):\s*(.+)$/i.exec(text);
  if (described) return { op: "update", verb: "note", at: 0, rest: `${described[1]}, description: ${described[2]}` };
  // "email for Margaret", "email address of …": a field asked for, not an e-mail to send.
  if (/^(e-?mail|phone|number)\s+(for|of|address|addresses|adress)\b/.test(lower)) return null;
  for (const verb of VERBS) {
    for (const word of [...verb.words].sort((a, b) => b.length - a.length)) {
      if (!(lower === word || lower.startsWith(`${word} `) || lower.startsWith(`${word}:`))) continue;
      // "open deals over 100k", "new leads this week": an adjective before a plural noun is a question.
      const next = lower.slice(word.length).trim().split(/\s+/).slice(0, 2).join(" ");
      if (
        ["open", "new", "draft", "start", "record", "log", "track", "set", "put", "save", "lost", "won", "closed"].includes(word) &&
        pluralAhead(next, schema)
      )
        return null;
      // ("lost reasons this year", "open pipeline by stage": the word begins a field's or a measure's own name — a question.)
      if (namesWithWord(lower, word, schema)) return null;
      // "send a payment reminder for INV-…": a reminder sent is a reminder; "onboard Nora Feld, nora@…": a person
      // with an address of their own is a new employee, not a candidate hired.
      // ("put 45 min on Test emails for Grace": time put on a task is time logged.)
      const op =
        verb.op === "send" && /\breminder\b/i.test(text)
          ? "remind"
          : verb.op === "hire" && /[^\s@]+@[^\s@]+\.[a-z]{2,}/i.test(text)
            ? "create"
            : word === "put" && /^\s*\d+(?:\.\d+)?\s+(?:minutes|hours)\b/i.test(text.slice(word.length))
              ? "log"
              : // ("kill the review dashboard task", "scrap the Hooli pilot deal": of a record the API cannot void, deleted.)
                verb.op === "void" && word !== "void" && notVoidable(lower.slice(word.length), schema)
                ? "delete"
                : verb.op;
      return { op, verb: word, at: 0, rest: text.slice(word.length).replace(/^[:\s-]+/, "") };
    }
  }
  // "Linus Gosling 6 hrs yesterday", "Grace Lamarr - 7.5 hours - Draft checkout - last friday": a person and a
  // time said as a timesheet line is time to log.
  if (/^(?:\p{Lu}[\p{L}'-]*\s+){0,3}\p{Lu}[\p{L}'-]*\s*[-–,:]?\s*\d+(?:\.\d+)?\s*(?:hours|minutes)\b/u.test(text) && !/\?\s*$/.test(text))
    return { op: "log", verb: "log", at: 0, rest: text.replace(/\s+[-–]\s+/g, ", ") };
  // "got €1,000 from Soylent on INV-000130", "Stark wired us 20k yesterday for INV-000116": money received
  // against an invoice, said as news, is a payment to record.
  // ("Stark sent 10k by card towards INV-…", "soylent wired the rest", "Initech paid half of INV-…".)
  const share = /\b(?:the rest|the remainder|the balance|half|a third|a quarter)\b/.test(lower);
  if (
    // ("Payment came from Gringotts for INV-000190, 2093 USD, by card", "payment from X for INV-…, 500 by card": a
    // payment told as news.)
    /\b(?:got|received|receive|wired|paid|transferred|sent us|sent|came in|in from|came from|arrived|landed)\b|^(?:a\s+|the\s+)?payment\s+(?:of|from|for)\b/.test(
      lower,
    ) &&
    /\binv(?:oice)?-\d{3,}/.test(lower) &&
    // ("INV-000366 came in by bank transfer, can you log the payment": a payment asked for, its amount asked next.)
    (share ||
      /\b(?:log|record|enter|book)\s+(?:the|a|this|that)\s+payment\b/.test(lower) ||
      /[$€£]\s?\d|\b\d[\d,.]*\s?(?:k|usd|eur|gbp|dollars?|euros?|pounds?)?\b/.test(lower.replace(/\binv(?:oice)?[-\s#]*\d+/g, ""))) &&
    !/\?\s*$/.test(lower)
  ) {
    const said = text
      .replace(/\bwired(?:\s+us)?\b/gi, "by wire")
      .replace(/\s*[,;]?\s*(?:(?:can|could) you\s+|pls\s+|please\s+)?(?:log|record|enter|book)\s+(?:the|a|this|that|it)(?:\s+payment)?\b[?.!]*/gi, "")
      .replace(/\bin from\b/gi, "from")
      .replace(/\b(?:the rest|the remainder|the balance)\b/gi, "in full")
      .replace(/\b(?:got|received|receive|paid(?:\s+us)?|transferred(?:\s+us)?|sent us|sent|came in)\b/gi, " ")
      .replace(/\s+towards\b/gi, " for")
      // ("sent 500 by card": a small bare number is the amount, said so.)
      .replace(/(^|\s)(\d{1,3}(?:\.\d{1,2})?)(?=\s+(?:by|in|via|through|with|for|on|today|yesterday)\b)/i, "$1of $2");
    // ("payment 500" would name payment #500: the amount is "of" it.)
    return { op: "create", verb: "record", at: 0, rest: `payment ${/^\s*[$€£]?\d/.test(said) ? "of " : ""}${said.trim()}` };
  }
  // "invoice acme for 10 hours…", "bill wayne €300 for the workshop": a resource noun (or "bill") used as the verb.
  // ("invoice for a data migration, 2500 usd", "invoice for 4 months of support at 299": for a thing, not a customer —
  // a new invoice whose customer is asked.)
  const billed =
    /^((?:(?:please|pls|can you|could you|i need to|we need to|need to|i want to|i'd like to|let's|lets)\s+)*(?:invoice|bill))\s+(?!\d(?![\d.]*\s+[^,?]*?\s(?:at|@)\s*[$€£]?\d)|for\b(?!\s+(?:a|an|the)\s+(?!customer|client)\S+(?:\s+\S+)?\s*,\s*[$€£]?\d|\s+\d+(?:\.\d+)?\s+[^,?]*?\s(?:at|@)\s*[$€£]?\d)|to\b|from\b|drafts?\b|numbers?\b|totals?\b|amounts?\b|lines?\b|dates?\b|status)/i.exec(
      text,
    );
  // ("… at 150 dollars per hour": a price's "per" is no grouping.)
  if (
    billed &&
    !/\b(?:count|counts|total|totals|by|per(?!\s+(?:hour|hr|day|unit|seat|licen[cs]e|month|session|user|item|piece)\b)|how|list|numbers?|stats|status|statuses)\b/i.test(
      text,
    )
  )
    return { op: "create", verb: "invoice", at: 0, rest: text.slice(billed[1]!.length).trim() };
  // "tim wilson moved to the berlin branch", "james moved to initech, update his company": a move stated is one to record.
  const moved =
    /^([\p{L} .'-]+?)\s+(?:has\s+|just\s+|is\s+|will\s+be\s+)?(?:moved|transferred|relocated|switched|moving|transferring|switching)\s+(?:over\s+)?(?:to|into)\s+(.+?)(?:\s*(?:[,;]|\s[—–-])\s*(?:pls\s+|please\s+)?(?:update|change|fix)\s+(?:his|her|their|the|him|them|it)(?:\s+([\p{L} ]+?))?(?:\s+and\s+(e-?mail|phone|title)\s+(?:to\s+)?(\S+))?)?\s*[.!]?$/iu.exec(
      text,
    );
  // ("moved to the Remote branch", "to the sales team": the field is said after its value.)
  const place = moved ? /^(?:the\s+)?(.+?)\s+(branch|office|department|dept|team)$/i.exec(moved[2]!) : null;
  if (moved && place && !moved[3]) moved[3] = /branch|office/i.test(place[2]!) ? "branch" : "department";
  if (moved && place) moved[2] = place[1]!;
  if (moved && !/\?$/.test(lower) && !/^(who|which|what|when|how)\b/.test(lower))
    return moved[3]
      ? // ("… update his company and email to carl@stark.example": a second field with its value.)
        { op: "update", verb: "set", at: 0, rest: `${moved[1]}'s ${moved[3]} to ${moved[2]}${moved[4] ? `, ${moved[4]} ${moved[5]}` : ""}` }
      : { op: "update", verb: "move", at: 0, rest: `${moved[1]}, ${moved[2]}` };
  // "finance analyst job can be closed now": a record and the state it may take.
  const may = /^(.+?)\s+(?:can|should|could|must|needs to|has to)\s+(?:be\s+)?(?:now\s+)?([a-z_ ]+?)(?:\s+now)?\s*[.!]?$/i.exec(text);
  if (may && !/\?$/.test(lower) && !/^(who|which|what|when|how)\b/.test(lower) && stateWord(may[2]!.trim(), schema))
    return { op: "update", verb: "mark", at: 0, rest: `${may[1]} as ${may[2]!.trim()}` };
  // "i called Katherine, mark her contacted": a command after a comma, about whom the first part names.
  const later =
    /(?:,|;|\s[—–-]|\band then|\bso)\s+(mark|move|set|change|assign|reassign|delete|remove|send|void|hire|convert|reject|qualify|unqualify|disqualify|advance|promote|put|bump|close|reopen)\b\s*(.*)$/i.exec(
      text,
    );
  if (later) {
    // "…, send him to offer stage": a person sent to a stage is moved, not e-mailed.
    if (later[1]!.toLowerCase() === "send" && /^(?:her|him|them|it)\s+(?:to|into|through)\b/i.test(later[2]!)) later[1] = "move";
    const about = text
      .slice(0, later.index)
      .replace(/^(?:(?:i|we)\s+)?(?:just\s+)?(?:called|emailed|met|spoke to|spoke with|talked to|heard from|saw|met with|had a call with)\s+/i, "")
      .replace(/\(.*?\)/g, "")
      // ("spoke to Joan Wilson at Stark today": when and where are no part of the name.)
      .replace(/\s+(?:today|yesterday|this morning|this afternoon|earlier|just now|on the phone)\s*$/i, "")
      .replace(/\s+(?:at|from)\s+\p{Lu}[\p{L} .&-]*$/u, "");
    const rest = later[2]!.replace(/^(?:her|him|them|it)\b\s*(?:as\s+)?/i, "");
    // ("…, send them a reminder": a reminder sent is a remind.)
    const reminder = later[1]!.toLowerCase() === "send" && /^(?:an?\s+)?(?:payment\s+)?(?:reminder|nudge|chaser)\b/i.test(rest);
    const op = reminder ? "remind" : VERBS.find((verb) => verb.words.includes(later[1]!.toLowerCase()))!.op;
    return {
      op,
      verb: later[1]!.toLowerCase(),
      at: 0,
      rest: `${about}, ${reminder ? rest.replace(/^(?:an?\s+)?(?:payment\s+)?(?:reminder|nudge|chaser)\b/i, "") : rest}`,
    };
  }
  // "lead: olga petrova …", "task: call the movers", "task for Alan in Billing v2: reconcile payments": a noun, what
  // it belongs to, and a colon make a new record (whose title follows the colon: extract() reads it).
  // ("task for mobile app - fix push notifications": a dash after what it belongs to is the colon.)
  const dashed = /^((?:(?:a|an)\s+)?[a-z][a-z-]{1,20}\s+(?:for|in|on|under)\s+[^:–—-]{2,40}?)\s+[-–—]\s+(.+)$/i.exec(text);
  const labelled = /^(?:(?:a|an)\s+)?([a-z][a-z-]{1,20}(?:\s[a-z-]{1,20})?)\b([^:]{0,80}):\s*(.+)$/i.exec(dashed ? `${dashed[1]}: ${dashed[2]}` : text);
  const labelNoun =
    labelled && [labelled[1]!, labelled[1]!.split(" ")[0]!].find((noun) => schema.resources.some((resource) => resource.nouns.includes(noun.toLowerCase())));
  if (
    labelled &&
    labelNoun &&
    (labelled[2]!.trim() === "" || /^\s*(?:for|in|on|under|at|with)\b/i.test(text.slice(labelled[0].indexOf(labelNoun) + labelNoun.length)))
  )
    return {
      op: "create",
      verb: "new",
      at: 0,
      rest: labelled[0].replace(/^(?:(?:a|an)\s+)/i, "").replace(/,\s*(?:give|hand)\s+(?:it|this)\s+to\s+/i, ", assign to "),
    };
  // "we lost the vandelay deal", "ken keller has left the company", "globex pilot is lost", "donald -> interview".
  if (/^we (won|lost|closed)\b/.test(lower)) return { op: "update", verb: "state", at: 0, rest: text.replace(/^we\s+/i, "") };
  // "Dennis Keller converted!!": a name and what happened to it.
  if (/^(?:\p{Lu}[\p{L}'-]*\s+){1,4}(?:won|lost|done|finished|completed|hired|rejected|closed|qualified|contacted|converted|paid)\s*[!.]*$/u.test(text))
    return { op: "update", verb: "state", at: 0, rest: text.replace(/[!.]+$/, "") };
  if (
    /\b(is|are|has|have|was)\s+(now\s+)?(won|lost|done|finished|complete|completed|left|hired|rejected|closed|on hold|qualified|contacted|converted|paid|(?:in |ready for )review|in progress)\b/.test(
      lower,
    ) &&
    !/\?$/.test(lower) &&
    // "leads nobody has contacted yet": a question about a state not reached.
    !/\b(nobody|no one|noone|anyone|anybody|never|not|yet)\s+(is|are|has|have|was)\b/.test(lower) &&
    // "people who have left or gone inactive", "deals that are won": records picked by a state, not a change.
    !/^(?:(?:show|list|all|any|the)\s+)*[a-z]+\s+(?:who|that|which)\s+(?:is|are|has|have|was|were)\b/.test(lower)
  )
    return { op: "update", verb: "state", at: 0, rest: text };
  if (
    /^[\p{L} .'-]+ to (interview|offer|screening|applied|rejected|done|review|todo|in progress|won|lost|negotiation|proposal|qualification|meeting)\b/u.test(
      lower,
    ) &&
    lower.split(" ").length <= 6
  )
    return { op: "update", verb: "state", at: 0, rest: text };
  // "mary gosling's new number is +1415…": a field of a named record given a new value.
  const restated = /^([\p{L} .&-]+?)['’]s\s+(?:new|updated|correct|current)\s+([\p{L} -]{2,24}?)\s+(?:is now|is|should be|=)\s+(.+)$/iu.exec(text);
  if (restated && !/\?$/.test(lower)) return { op: "update", verb: "set", at: 0, rest: `${restated[1]}'s ${restated[2]} to ${restated[3]}` };
  // "gringotts paid $500 on INV-000190": a payment to record.
  if (
    (/\bpaid (?:us )?[$€£]?\d/.test(lower) || /\bpaid\b.*\b(?:in full|the whole (?:thing|amount|lot))\b/.test(lower)) &&
    !/\?$/.test(lower) &&
    !/^(did|has|have|how)\b/.test(lower)
  )
    return { op: "log", verb: "paid", at: 0, rest: text };
  // "lynn wilson did 1h30 on fix permissions": time spent on a task is time to log.
  if (/\b\d+(?:\.\d+)? (?:hours|minutes)\b/.test(lower) && /\b(did|spent|worked|put in|on)\b/.test(lower) && !/\?$/.test(lower))
    return { op: "log", verb: "did", at: 0, rest: text };
  return null;
}

/** "deals", "time entries", "won deals": a plural noun of the schema in the next two words. */
function pluralAhead(next: string, schema: SchemaModel): boolean {
  const words = next.split(" ");
  return (
    schema.resources.some((resource) =>
      resource.nouns.some(
        (noun) => noun !== resource.singular && noun.endsWith("s") && (next === noun || next.startsWith(`${noun} `) || words[1] === noun || words[0] === noun),
      ),
    ) || /^(ones|all)\b/.test(next)
  );
}

/** The resource a command is about: a noun, else what its words imply (a duration is time, "payment" a payment). */
/** Whether a word is some resource's state (an enum value, as written or spaced). */
function stateWord(word: string, schema: SchemaModel): boolean {
  const wanted = word.toLowerCase().replace(/ /g, "_");
  return schema.resources.some((resource) => [...resource.fields.values()].some((field) => field.kind === "enum" && field.values?.includes(wanted)));
}

export function actionResource(w: Words, cue: ActionCue, schema: SchemaModel): ResourceModel | null {
  // (What a note says is no noun of the command: "…, note: 'quote the PO on your remittance'".)
  const note = /\b(?:notes?|description|comment)\b[^:]{0,40}:/i.exec(w.text);
  const noteAt = note ? note.index + note[0].length : Number.POSITIVE_INFINITY;
  const nouns = nounsIn(w, schema, new Set()).filter((noun) => (w.tokens[noun.indexes[0]!]?.start ?? 0) < noteAt);
  const lower = w.text.toLowerCase();
  const start = firstContentIndex(w, cue);
  // A noun in brackets qualifies a name ("test search (customer portal)"); it is not what the command is about.
  const bracketed = [...w.text.matchAll(/\(([^)]*)\)/g)].map((match) => match[1]!.toLowerCase());
  // ("move Dennis to offer": after "to", a state of some resource's records, not the noun it also is.)
  const stateOf = (noun: (typeof nouns)[number]) =>
    ["to", "into", "as"].includes(w.words[noun.indexes[0]! - 1] ?? "") &&
    schema.resources.some((resource) =>
      [...resource.fields.values()].some((field) => field.kind === "enum" && field.values?.includes(noun.indexes.map((i) => w.words[i]).join("_"))),
    );
  // ("change sophie's title to support lead": a noun ending the value set is part of that value, not the record's kind.)
  const inValue = (noun: (typeof nouns)[number]) => {
    const at = noun.indexes[0]!;
    const before = w.words.slice(Math.max(0, at - 4), at);
    return cue.op === "update" && before.includes("to") && !["to", "into", "as", "a", "an", "the", "this", "that"].includes(before.at(-1) ?? "");
  };
  // ("set the contact on the globex pilot to anita", "globex pilot's contact to …": the noun names another record's
  // reference field — a deal's contact — not what is changed.)
  const fieldWord = (noun: (typeof nouns)[number]) =>
    cue.op === "update" &&
    /^(?:to|on|of|for)$/.test(w.words[noun.indexes.at(-1)! + 1] ?? "") &&
    schema.resources.some(
      (resource) =>
        resource !== noun.value &&
        [...resource.fields.values()].some(
          (field) => field.kind === "reference" && field.target === noun.value.name && field.words.includes(w.words[noun.indexes[0]!]!),
        ),
    );
  // ("hire Evelyn as Account Executive": the title they are hired as is no resource's noun.)
  const asTitle = (noun: (typeof nouns)[number]) => cue.op === "hire" && w.words[noun.indexes[0]! - 1] === "as";
  const first = nouns.find(
    (noun) =>
      !inValue(noun) &&
      !asTitle(noun) &&
      !fieldWord(noun) &&
      noun.indexes[0]! >= start &&
      noun.indexes[0]! <= start + 2 &&
      !stateOf(noun) &&
      !bracketed.some((inside) => noun.indexes.every((i) => inside.split(/\s+/).includes(w.words[i]!))),
  );
  // "close the product marketer opening": a noun, a word or two of a name, then the noun the command is about.
  // (Not in a new record's title: "add task chase nakatomi payment" is a task.)
  const head =
    first && cue.op !== "create" && cue.op !== "log"
      ? nouns.find((noun) => {
          const gap = w.words.slice(first.indexes.at(-1)! + 1, noun.indexes[0]);
          return noun !== first && gap.length >= 1 && gap.length <= 2 && gap.every((word) => !FILLER.has(word) && !GRAMMAR.has(word) && /^[a-z]+$/.test(word));
        })
      : // ("open a Customer Success Manager role": a noun in a title's capitals, then the noun of what is made.)
        first && cue.op === "create" && /^\p{Lu}/u.test(w.tokens[first.indexes[0]!]!.raw)
        ? nouns.find((noun) => {
            const gap = w.tokens.slice(first.indexes.at(-1)! + 1, noun.indexes[0]);
            return (
              noun !== first &&
              gap.length >= 1 &&
              gap.length <= 3 &&
              gap.every((token) => /^\p{Lu}/u.test(token.raw)) &&
              /^\p{Ll}/u.test(w.tokens[noun.indexes[0]!]!.raw)
            );
          })
        : undefined;
  // ("set up Q1 audit prep as a new project", "save wei@… as a contact": on a create, the kind said after "as" is
  // what is made, wherever it stands.)
  const asKind =
    cue.op === "create"
      ? nouns.find(
          (noun) =>
            noun.indexes[0]! > start && /\bas (?:an? )?(?:new )?$/.test(`${w.words.slice(Math.max(0, noun.indexes[0]! - 3), noun.indexes[0]).join(" ")} `),
        )
      : undefined;
  const afterVerb = asKind ?? head ?? first;
  // "send a payment reminder": a reminder goes out for what has the remind action (an invoice), whatever noun is near.
  if (cue.op === "remind" && !afterVerb?.value.operations.some((operation) => operation.name === "remind"))
    return schema.resources.find((resource) => resource.operations.some((operation) => operation.name === "remind")) ?? null;
  if (afterVerb && cue.op !== "log" && !(cue.op === "create" && afterVerb.value.name === "time-entries")) return afterVerb.value;
  // "record a $500 bank transfer on INV-000003": an amount on a record named by its number is a record of the
  // resource whose new rows refer to that one and carry an amount (a payment on an invoice).
  if ((cue.op === "log" || cue.op === "create") && readMoney(w.text.replace(/\b[A-Z]{2,5}-\d+\b/g, ""))) {
    for (const referenced of schema.resources) {
      if (!referenced.skill?.reference?.pattern.test(w.text)) continue;
      const carrier = schema.resources.find(
        (resource) =>
          resource !== referenced &&
          resource.create?.some((field) => field.kind === "reference" && field.target === referenced.name && field.required) &&
          resource.create?.some((field) => field.kind === "money"),
      );
      if (carrier && (!afterVerb || afterVerb.value === carrier || !afterVerb.value.create)) return carrier;
    }
  }
  if (cue.op === "log") {
    if (cue.verb === "paid" || /\bpayment|paid|received\b/.test(lower)) return schema.byName.get("payments") ?? null;
    if (/\b\d+(?:\.\d+)? (hours|minutes)\b/.test(lower) || /\btime\b/.test(lower)) return schema.byName.get("time-entries") ?? null;
  }
  if (
    cue.op === "create" &&
    /\b\d+(?:\.\d+)? (hours|minutes)\b/.test(lower) &&
    !nouns.some((noun) => !noun.object && noun.value.name !== "time-entries") &&
    /^(add|put in|book)\b/.test(cue.verb)
  )
    return schema.byName.get("time-entries") ?? null;
  if (cue.op === "send" || cue.op === "void" || cue.op === "remind") return schema.byName.get("invoices") ?? nouns[0]?.value ?? null;
  if (cue.op === "hire" && !nouns.some((noun) => noun.value.name === "candidates")) return schema.byName.get("candidates") ?? null;
  if (cue.op === "create" && (cue.verb === "hire" || cue.verb === "onboard") && !afterVerb) return schema.byName.get("employees") ?? null;
  // ("add Sara Lindgren to engineering as a senior engineer, …, starts dec 1": someone given a job and a start is staff.)
  if (
    cue.op === "create" &&
    !afterVerb &&
    /\bas (?:an? |our )?(?:new )?(?!contact|lead|customer|client|candidate)[a-z]+/.test(lower) &&
    /\b(?:starts?|starting|start date|joins?|joining)\b/.test(lower)
  )
    return schema.byName.get("employees") ?? null;
  if (cue.verb === "invoice" || cue.verb === "raise") return schema.byName.get("invoices") ?? null;
  if (/\bpayment\b/.test(lower) && (cue.op === "log" || cue.op === "create")) return schema.byName.get("payments") ?? null;
  // "remove Dennis Thompson from contacts": the collection it is taken out of.
  if (cue.op === "delete") {
    const from = nouns.find(
      (noun) =>
        noun.object &&
        /^(?:from|out of)$/.test(
          w.words
            .slice(Math.max(0, noun.indexes[0]! - 2), noun.indexes[0])
            .filter((word) => !["the", "our", "my"].includes(word))
            .at(-1) ?? "",
        ),
    );
    if (from) return from.value;
  }
  // ("get rid of the globex draft INV-000233": no noun of its own, but a number only one kind of record has.)
  if (cue.op === "delete") {
    const referenced = schema.resources.filter((resource) => resource.skill?.reference?.pattern.test(w.text));
    if (referenced.length === 1 && !nouns.some((noun) => noun.value !== referenced[0] && !noun.object)) return referenced[0]!;
  }
  // "trash the vandelay labs draft": no noun, but a state only records of some kinds are in — the first of them
  // (the core package's before add-ons).
  if (cue.op === "delete" || cue.op === "update") {
    const state = /\b(?:the\s+)?(?:[\p{L}&.'-]+\s+){1,3}(draft|pending|submitted)\s*(?:one|invoice)?\s*(?:[.!,;—–]|\s-\s|$)/iu.exec(w.text)?.[1]?.toLowerCase();
    const holder = state ? schema.resources.find((resource) => resource.fields.get("status")?.values?.includes(state) && resource.deletable) : undefined;
    if (holder) return holder;
  }
  // "add Ravi Patel, ravi@patel.example, +1415…": a person with an address and no kind said goes in the address book.
  if (cue.op === "create" && nouns.length === 0 && /[^\s@]+@[^\s@]+\.[a-z]{2,}/i.test(w.text) && schema.byName.get("contacts"))
    return schema.byName.get("contacts")!;
  // Else the first noun that is no preposition's object (nor in brackets).
  return (
    nouns.find(
      (noun) =>
        !noun.object &&
        !stateOf(noun) &&
        !inValue(noun) &&
        !fieldWord(noun) &&
        !bracketed.some((inside) => noun.indexes.every((i) => inside.split(/\s+/).includes(w.words[i]!))),
    )?.value ?? null
  );
}

function firstContentIndex(w: Words, cue: ActionCue): number {
  const verbWords = cue.verb.split(" ");
  const at = occurrences(w.words, verbWords.join(" "))[0];
  return at ? at.at(-1)! + 1 : 0;
}

export type Chunk = { text: string; trigger: string | null };

/** A field value read from the message: what it is, and the words it came from (removed before the name is read). */
export type Extracted = {
  fields: Record<string, unknown>;
  used: string[];
  refs: Record<string, { text: string }>;
  title: string | null;
  target: string | null;
};

const MONEY =
  /(?:([$€£¥₹])\s?(\d[\d,.]*\d|\d)\s?(k|m)?\b|\b(\d[\d,.]*\d|\d)\s?(k|m)?\s?(usd|eur|gbp|chf|cad|aud|inr|dollars?|euros?|pounds?|bucks)\b|\b(\d[\d,.]*)\s?(k)\b|\b(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{4,}(?:\.\d{1,2})?|\d{1,3}\.\d{2})\b)/i;

/** An amount said in `text`; with `bare`, a text that is only a number ("900") is one too (a price said alone). */
export function readMoney(text: string, options: { bare?: boolean } = {}): { minor: number; currency?: string; match: string } | null {
  const match = MONEY.exec(text);
  const bare = options.bare && !match ? /^\s*(\d+(?:\.\d{1,2})?)\s*$/.exec(text) : null;
  if (bare) return { minor: Math.round(Number(bare[1]) * 100), match: bare[0] };
  if (!match) return null;
  const symbol = match[1];
  const digits = match[2] ?? match[4] ?? match[7] ?? match[9]!;
  const suffix = (match[3] ?? match[5] ?? match[8] ?? "").toLowerCase();
  const code = match[6]?.toLowerCase();
  let value = Number(digits.replace(/,/g, ""));
  if (Number.isNaN(value)) return null;
  if (suffix === "k") value *= 1_000;
  if (suffix === "m") value *= 1_000_000;
  const currency = symbol
    ? ({ $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR" } as Record<string, string>)[symbol]
    : code
      ? /^dollar|bucks/.test(code)
        ? "USD"
        : /^euro/.test(code)
          ? "EUR"
          : /^pound/.test(code)
            ? "GBP"
            : code.toUpperCase()
      : undefined;
  return { minor: Math.round(value * 100), ...(currency ? { currency } : {}), match: match[0] };
}

export function readMinutes(text: string): { minutes: number; match: string } | null {
  const match = /\b(\d+(?:\.\d+)?)\s?(hours|minutes)\b/i.exec(text);
  if (!match) return null;
  return { minutes: Math.round(Number(match[1]) * (match[2]!.toLowerCase() === "hours" ? 60 : 1)), match: match[0] };
}

/** The date fields of a body and the words that introduce each. */
function dateTriggers(body: BodyField[]): { field: string; words: string[] }[] {
  const out: { field: string; words: string[] }[] = [];
  for (const field of body) {
    if (field.kind !== "date" && field.kind !== "datetime") continue;
    const name = field.name;
    const words =
      name === "due_date"
        ? ["due", "by", "deadline", "due date", "for"]
        : name === "start_date" || name === "date_of_joining"
          ? ["starting", "starts", "start", "start date", "from", "joining", "joins", "beginning", "begins", "kicks off", "kick off", "kicking off", "on"]
          : name === "end_date"
            ? ["ending", "ends", "end", "end date", "until", "till", "through", "thru", "to"]
            : name === "expected_close_date"
              ? ["expected close", "closing", "close", "expected to close", "close date"]
              : name === "issue_date"
                ? ["issued", "issue date", "dated"]
                : name === "paid_at"
                  ? ["paid", "received", "on"]
                  : [name.replace(/_/g, " "), "on", "for", "at"];
    out.push({ field: name, words });
  }
  return out;
}

/** Dates in a command: each after its trigger word ("starts jan 5", "ending mar 31", "due friday"). */
const LOOKS_BACK: ReadonlySet<string> = new Set(["date", "paid_at"]);

export function readDates(text: string, body: BodyField[], now: number, deadline = false): { field: string; value: string; match: string }[] {
  const triggers = dateTriggers(body);
  if (triggers.length === 0) return [];
  const lower = text.toLowerCase();
  const out: { field: string; value: string; match: string }[] = [];
  const allWords = [...new Set(triggers.flatMap((trigger) => trigger.words))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(
    `\\b(${allWords.map((word) => word.replace(/ /g, "\\s+")).join("|")})(?:\\s*[:=]\\s*|\\s+(?:(?:is|will be|should be)\\s+)?(?:(?:to|until|on|of|as)\\s+)?)(?:the\\s+)?(?:(end|start|beginning)\\s+of\\s+)?`,
    "g",
  );
  for (const match of lower.matchAll(pattern)) {
    let segment = text.slice(match.index + match[0].length);
    // "due date on INV-000204 to next friday": the record's number (already cut out) sits between.
    const lead = /^[,\s]*(?:to\s+|until\s+)?/.exec(segment)![0];
    segment = segment.slice(lead.length);
    const trigger = triggers.find((candidate) => candidate.words.includes(match[1]!.replace(/\s+/g, " "))) ?? null;
    const field =
      trigger && !out.some((entry) => entry.field === trigger.field)
        ? trigger.field
        : triggers.find((candidate) => !out.some((entry) => entry.field === candidate.field))?.field;
    if (!field) continue;
    // A day worked or a payment made is in the past ("on monday" is the one just gone); a deadline is ahead.
    const range = findRange(segment.split(/,|;| and (?=[a-z]+ )/)[0]!, now, LOOKS_BACK.has(field) ? "past" : "future");
    if (!range || range.start > 2) continue;
    // "end of january": the range's last day.
    const value =
      match[2] === "end" || /^(?:the\s+)?end of\b/i.test(segment.trim()) || (match[1] === "end" && /^of\b/i.test(segment.trim())) ? range.to : range.from;
    out.push({ field, value, match: text.slice(match.index, match.index + match[0].length + lead.length + range.end) });
  }
  if (out.length === 0) {
    // A bare date with one date field ("log 2h yesterday", "monday").
    const range = findRange(text, now, body.some((field) => LOOKS_BACK.has(field.name)) ? "past" : "future");
    // ("it's ready for review now": when it is said, no date of the record.)
    const said = range ? text.slice(range.start, range.end).trim() : "";
    const nowSaid = /^(?:right\s+)?now$/i.test(said);
    // ("a task Prep Q1 roadmap in Mobile app": a quarter between two words of a title is part of the title.)
    const inTitle =
      range &&
      /^(?:q[1-4]|h[12])$/i.test(said) &&
      /\p{L}\s+$/u.test(text.slice(0, range.start)) &&
      !/\b(?:by|in|for|until|till|before|after|during|of|from|to|since|through|thru|due|starting|ending)\s+$/i.test(text.slice(0, range.start)) &&
      /^\s+\p{L}/u.test(text.slice(range.end));
    if (range && triggers.length >= 1 && !inTitle) {
      // ("push it to december 15": a record rescheduled moves its deadline.)
      const field =
        triggers.find((trigger) => trigger.field === "date")?.field ??
        (triggers.length === 1 ? triggers[0]!.field : null) ??
        (deadline ? (triggers.find((trigger) => ["due_date", "end_date", "expected_close_date"].includes(trigger.field))?.field ?? null) : null);
      // "to the end of january": that month's last day.
      const endOf = /\bend\s+(?:of\s+)?$/i.test(text.slice(0, range.start));
      // (A day worked "now" is today.)
      if (field && (!nowSaid || LOOKS_BACK.has(field))) out.push({ field, value: endOf ? range.to : range.from, match: text.slice(range.start, range.end) });
    }
  }
  // ("runs dec 1 to jan 15", said on Dec 2: one run — its start the Dec 1 before its end, not next year's, which each
  // date looking ahead on its own would give.)
  const start = out.find((entry) => entry.field === "start_date");
  const end = out.find((entry) => entry.field === "end_date");
  if (start && end && start.value > end.value) {
    const earlier = `${Number(start.value.slice(0, 4)) - 1}${start.value.slice(4)}`;
    if (earlier <= end.value && !/\b\d{4}\b/.test(start.match) && !start.value.endsWith("-02-29")) start.value = earlier;
  }
  return out;
}

/** Enum values (and the skill's state words) in a command, for the body's enum fields. */
export function readStates(w: Words, R: ResourceModel, body: BodyField[], verb: string, skip: number): Record<string, string> {
  const out: Record<string, string> = {};
  const enums = body.filter((field) => field.kind === "enum");
  const candidates = [
    ...(R.skill?.filters ?? []).flatMap((filter) => {
      const entries = Object.entries(filter.query);
      if (entries.length !== 1) return [];
      const [param, value] = entries[0]!;
      if (value.includes(",") || value.startsWith("$") || !enums.some((field) => field.name === param)) return [];
      return [{ phrases: filter.words, value: { field: param, value } }];
    }),
    ...enums.flatMap((field) => (field.values ?? []).map((value) => ({ phrases: [value.replace(/_/g, " ")], value: { field: field.name, value } }))),
  ];
  // Deals change state through their stage.
  const mapped = candidates.map((candidate) =>
    candidate.value.field === "status" &&
    !body.some((field) => field.name === "status") &&
    body.some((field) => field.name === "stage" && field.values?.includes(candidate.value.value))
      ? { ...candidate, value: { field: "stage", value: candidate.value.value } }
      : candidate,
  );
  const hits = matchPhrases(w.words, mapped, new Set(Array.from({ length: skip }, (_, i) => i)));
  // The state something is moved to ("to offer", "as done", "back into review") before one it is only described by
  // ("nailed the interview, send him to offer").
  // ("put her straight in interview": "in" after a verb of placing is a "to".)
  const placed = (at: number) =>
    before(w, at).word === "in" &&
    w.words.slice(Math.max(0, at - 5), at).some((word) => ["put", "place", "move", "straight", "directly", "bump"].includes(word));
  // ("… review checkout … — set it in progress": the state said of "it" after a verb of setting.)
  const ofIt = (at: number) =>
    ["it", "them", "him", "her", "this", "that"].includes(w.words[at - 1] ?? "") &&
    ["set", "mark", "make", "put", "move", "get", "have"].includes(w.words[at - 2] ?? "");
  // ("a new opportunity …, it's already at proposal": where it already is, said of a new record.)
  const already = (at: number) => ["at", "in"].includes(w.words[at - 1] ?? "") && ["already", "currently"].includes(w.words[at - 2] ?? "");
  const target = (indexes: number[]) =>
    ["to", "as", "into"].includes(before(w, indexes[0]!).word) ||
    ["back", "to"].includes(w.words[indexes[0]!]!) ||
    placed(indexes[0]!) ||
    ofIt(indexes[0]!) ||
    already(indexes[0]!);
  // A verb made of a state ("unqualify" → unqualified, "approve" → approved, "archive" → archived).
  const derived = enums.flatMap((field) => (field.values ?? []).filter((value) => stateVerbs(value).includes(verb)));
  const verbStates = [...(STATE_VERBS[verb] ?? []), ...derived];
  // ("didn't make it past screening, reject her": the verb's state beats one the record is only described in.)
  const verbField = enums.find((field) => verbStates.some((state) => field.values?.includes(state)))?.name;
  // ("mark review login in design system done": a state that ends the message is the one it is marked; an earlier
  // one may be part of its name.)
  const last = (indexes: number[]) => !target(indexes) && indexes.at(-1) === w.words.length - 1;
  // ("… review exports task: set status todo again": a state said after its field's own word is what it is set to.)
  const ofField = (hit: (typeof hits)[number]) => w.words[hit.indexes[0]! - 1] === hit.value.field;
  const ordered = [
    ...hits.filter(ofField),
    ...hits.filter((hit) => !ofField(hit) && target(hit.indexes)),
    ...hits.filter((hit) => !ofField(hit) && last(hit.indexes)),
    ...hits.filter((hit) => !ofField(hit) && !target(hit.indexes) && !last(hit.indexes)),
  ];
  for (const hit of ordered) {
    if (!body.some((field) => field.name === hit.value.field && field.values?.includes(hit.value.value))) continue;
    // ("add a new lead Olga Petrova, we contacted her already": "new" before the record's own noun makes one — no state.)
    const next = w.words[hit.indexes.at(-1)! + 1] ?? "";
    if (hit.value.value === "new" && hit.indexes.length === 1 && R.nouns.includes(next) && w.words.filter((word) => word === "new").length === 1) continue;
    if (hit.value.field === verbField && !target(hit.indexes)) continue;
    // ("the lost reason": a field's own words are no state — unless it is what the record is set to: "mark task 57 as
    // completed", though "completed" also names when it was.)
    const phrase = w.words.slice(hit.indexes[0]!, hit.indexes.at(-1)! + 2).join(" ");
    const setTo = target(hit.indexes) && hit.indexes.at(-1) === w.words.length - 1;
    if (
      !setTo &&
      [...R.fields.values()].some((field) => field.words.includes(phrase) || field.name.replace(/_/g, " ") === phrase) &&
      new RegExp(`\\b${phrase.replace(/\s+/g, "\\s+")}\\b`, "i").test(w.text)
    )
      continue;
    out[hit.value.field] ??= hit.value.value;
  }
  for (const state of verbStates) {
    const field = enums.find((candidate) => candidate.values?.includes(state));
    if (field && out[field.name] === undefined) {
      out[field.name] = state;
      break;
    }
  }
  return out;
}

export type { ActionDraft };

/** The message opens with a field's or a measure's name whose first word is the verb's ("lost reason", "open pipeline"). */
function namesWithWord(lower: string, word: string, schema: SchemaModel): boolean {
  const phrases = schema.resources.flatMap((R) => [
    ...[...R.fields.values()].flatMap((field) => field.words),
    ...(R.skill?.measures ?? []).flatMap((measure) => measure.words),
  ]);
  return phrases.some((phrase) => phrase.startsWith(`${word} `) && new RegExp(`^${escapeRegExp(phrase)}s?\\b`).test(lower));
}

/** The words name a kind of record (its noun) that can be deleted and has no "void" of its own: a task, a deal. */
function notVoidable(rest: string, schema: SchemaModel): boolean {
  const R = schema.resources.find((candidate) => candidate.nouns.some((noun) => new RegExp(`\\b${escapeRegExp(noun)}\\b`).test(rest)));
  return Boolean(R?.deletable && !R.operations.some((operation) => operation.name === "void"));
}
