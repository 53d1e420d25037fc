import type { ApiErrorBody } from "../../../platform/dispatch";
import { escapeRegExp } from "../text";
import type { Reply } from "../tools";
import { type ActionEnv, type ActionRequest, type Built, build, complete, namedInTalk, proposal, startedInstead } from "./action";
import { collectionCommand, personReport } from "./command";
import type { Fetch } from "./execute";
import { countedAgain, fieldAskedByForm, measuredAgain, partOfAgain, sortedAgain } from "./follow-ups";
import { nounsIn, vocabularyOf } from "./lexicon";
import type { ResourceModel, SchemaModel } from "./model";
import { type Candidate, findAtCompany, findNamed, hasValue, kindInName, labelOf, referencedRecord } from "./names";
import { actionCue, actionResource, readMoney, readStates } from "./parse-action";
import { type NameSpan, parseQuery, sideBySide } from "./parse-query";
import { withoutPurpose } from "./purpose";
import type { ActionDraft, Choice, Condition, ConversationState, Query } from "./query";
import { aboutOf, chosen, referentsNamed } from "./referents";
import { applyRole, byCompany, candidatesFor, goesOn, merge, narrowByOthers, resolveNames } from "./resolve";
import { runQuery } from "./run-query";
import type { Aggregator } from "./sql";
import { namesWithoutTalk, phraseWithoutTalk } from "./talk";
import { categoricalFields, matchValue, type Values } from "./values";
import { FILLER, GRAMMAR, normalize, type Words, withAfterthoughts, wordsOf } from "./words";

/**
 * One turn of the conversation: a choice answering the last clarification ("the second one"), a value
 * for the field the last action was missing, an action, or a question (continuing the last one when it
 * says so). Returns null for what is none of these (greetings, help, dashboard metrics such as the win
 * rate), which the older intent engine answers.
 */

/** "actually make it 5 hours", "no, 4 sessions": a new count of the one line, said alone (no amount, no percentage). */
const SO_MANY =
  /^\s*(?:(?:actually|no|sorry|oh|wait|ok|okay|hmm|hm|oops|ah)[,.!\s]+)*(?:(?:make|change|set)\s+it\s+(?:to\s+)?|(?:it\s+)?should\s+be\s+|it'?s\s+)?(\d{1,4}(?:\.\d+)?)\s*(?!(?:k|m|%|percent|eur|euros?|usd|dollars?|gbp|pounds?|bucks|chf|each|per|at|@)\b)(?:[a-z]+\s*)?(?:instead|not\s+\d+)?\s*[.!]*$/i;

/** "make it 900 each", "actually $750 per session": a new price of the one line. */
const AT_PRICE =
  /^\s*(?:(?:actually|no|sorry|oh|wait|ok|okay|hmm|hm|oops|ah)[,.!\s]+)*(?:(?:make|change|set)\s+it\s+(?:to\s+)?|(?:it\s+)?should\s+be\s+|it'?s\s+)?([$€£]?\s*\d[\d,]*(?:\.\d{1,2})?\s*(?:k\b)?(?:\s*(?:usd|eur|gbp|chf|dollars?|euros?|pounds?|bucks)\b)?)\s*(?:each|apiece|a\s+piece|per\s+[a-z]+)\s*(?:instead)?\s*[.!]*$/i;

export type Turn = { reply: Reply; proposal?: { kind: string; resource: string; request: ActionRequest; summary: string } };
export type TurnEnv = {
  /** The sentences said before the one read now ("Just got off the phone with Wayne, …"): whom a command may be for. */
  talk?: string;
  fetch: Fetch;
  schema: SchemaModel;
  vocabulary: Set<string>;
  /** Phrases that name a dashboard metric outright (MetricSkill.ownsPhrases): the intent engine answers them. */
  metricPhrases?: string[];
  now: number;
  refuse(error: ApiErrorBody): string;
  aggregate?: Aggregator;
  values: Values;
  /** The whole message as typed, while one of its clauses is read. */
  typed?: string;
};

const queryEnv = (env: TurnEnv) => ({ fetch: env.fetch, schema: env.schema, now: env.now, aggregate: env.aggregate });

const OUT_OF_SCOPE =
  /\b(weather|(?<!cash ?flow )forecast(?!\s+(?:call|meeting|review|sync|deck|numbers))|poem|essay|joke|song|lyrics|recipe|flight|hotels?|offsite|off-site|taxi|uber|bitcoin|crypto|stock price|share price|trading at|exchange rate|exchange rates|fx rate|password|passwords|llc|s corp|liable|lawsuit|sue|lawyer|legal advice|tax advice|python|javascript|typescript|stack ?trace|traceback|keyerror|typeerror|syntax error|back hurts|headache|migraine|what should i take|doctor|symptoms?|legally binding|(?:draft|write|prepare) (?:a|an|the|our) (?:\w+ ){0,2}(?:contract|agreement|nda|terms of service)|recommend an? |laptop|wifi|wi-fi|printer|translate|the score|plane tickets?|train tickets?|flights? to|into (?:french|german|spanish|italian|portuguese|dutch|chinese|japanese|arabic|hindi)|the game|football|soccer|nba|election|president|competitor's|competitors'|other workspace|another workspace|(?:their|his|her|its) own workspace|different workspace|someone else's|hack|stocks?|invest(?:ing|ment)?s?|etfs?|index funds?|shares in|nginx|apache|dns|ssl cert(?:ificate)?|bad gateway|502|503|404 error|server (?:is )?down|(?:fake|forge|forged|make up|made up|backdate|backdated|fudge)\s+(?:an?\s+)?(?:\w+\s+)?(?:invoice|invoices|receipt|receipts|numbers|books|payslip)|(?:show|fool|trick) the (?:bank|taxman|irs|auditor)|twitter|tweet|facebook|instagram|tiktok|social media|legally required|required by law|(?:tax|vat) rate)\b/i;
/** Mass mailings and other companies' own figures are not this workspace's to send or know. */
const NOT_OURS =
  /\b(?:email|e-mail|send|blast|mail)\b.*\bto (?:all|every|each) (?:of )?(?:our |my |the )?(?:contacts|customers|leads|clients|subscribers|list)\b|^(?:ok |okay |so |then |now |please |pls |can you |could you )*(?:email|e-mail|mail|message|blast)\s+(?:all|every|everyone|everybody|each)\b|\btheir (?:own )?(?:numbers|revenue|sales|profit|books|financials)\b|\b(?:meeting|conference) room\b|\b(?:they're|they are|theyre|that's|is|are) (?:our|a) (?:\w+ )?(?:competitor|rival)s?\b|\bwhat will (?:we|i|they) (?:win|make|earn|sell|close|book|bill)\b|\b(?:predict|prediction|projection|project(?:ed)? revenue)\b|\bmarket (?:size|share)\b|\b(?:internal|private|confidential)\s+(?:revenue|numbers|financials|figures|books|sales|profits?)\b|\b(?:annual|yearly) (?:revenue|turnover|sales)\b|\b(?:market cap|valuation|credit rating|credit score)\b|\bcompetitors? (?:charge|pricing|prices|rates|price)\b|\b(?:their|its) own (?:customers|clients|pricing|prices|rates|margins?)\b|\bhow much (?:revenue|money|profit) does (?!(?:the|our|my)\b)\w+(?: \w+)? (?:make|earn|do|bring in)\b|\b(?:earn|make|paid) at (?:google|apple|amazon|meta|microsoft)\b/i;
/**
 * What no API here does: calling or texting someone, moving money out, booking meetings, posting to other
 * sites, exchange rates, mass messages to people, and picking people by age or family.
 */
const NOT_DOABLE = new RegExp(
  [
    /^(?:please |pls |can you |could you )?(?:call|phone|ring|text|sms|whatsapp|skype|zoom)\b(?! (?:it|this|that|of|number|numbers|no|nr|for|log|logs|list)\b)(?!\s*[?]?$)/
      .source,
    // (Money sent out; "send 184" is an invoice by its number.)
    /^(?:please |pls |can you |could you )?(?:(?:wire|transfer)\s+(?:over\s+)?[$€£]?\d|send\s+(?:over\s+)?(?:[$€£]\d|\d[\d,.]*\s*(?:k\b|usd|eur|gbp|dollars?|euros?|bucks|pounds?)))/
      .source,
    /\bbank account\b|\b(?:pay|pay out|reimburse) (?:them|him|her)\b/.source,
    // (Reminders to oneself, logging into other sites, letters and contracts to write.)
    /^(?:please |pls |can you |could you )?remind me\b|\blog (?:in|into|on) to\b|\blog into\b|\bsign (?:in|into)\b/.source,
    /\b(?:write|draft|compose|prepare)\s+(?:me\s+)?(?:a|an|the)\s+(?:[\w-]+\s+)?(?:letter|contract|memo|policy|speech|blog post|essay|reference|press release|job ad)\b/
      .source,
    /\b(?:book|schedule|set up|arrange)\s+(?:a |an )?(?:meeting|call|appointment|zoom|lunch|dinner)\b/.source,
    /\b(?:scrape|scraping|crawl|harvest)\b/.source,
    // (Tables at restaurants, flights and hotels; database commands; tax returns filed; people's home addresses;
    // messages to everyone on another channel; warnings written to staff.)
    /\bbook\b.*\b(?:table|restaurant|flight|hotel|taxi|cab|train)\b/.source,
    /\b(?:get|put|book)\s+(?:me|us|him|her|them)\s+(?:on|onto)\s+(?:a|an|the)\s+(?:plane|flight|train|bus|ferry)\b/.source,
    /^\s*(?:drop|truncate|alter)\s+table\b|\bdelete\s+from\s+\w+\s*;|;\s*--/.source,
    /\b(?:vat|tax|gst)\s+returns?\b|\btax office\b|\birs\b/.source,
    /\bhome address(?:es)?\b/.source,
    /\b(?:whatsapp|sms|text message)\b.*\b(?:everyone|everybody|all|every)\b|\b(?:everyone|everybody|all|every)\b.*\b(?:whatsapp|sms)\b/.source,
    /\b(?:formal|written|disciplinary)\s+warning\b/.source,
    // (Notes posted to other tools; lectures on accounting.)
    /\bpost\s+(?:it|them|that|this|those)\s+(?:in|on|to)\s+(?:slack|teams|twitter|x|linkedin|facebook|instagram)\b/.source,
    /^(?:please |pls |can you |could you )?(?:explain|define)\s+(?:the\s+)?(?:difference|concept|meaning|idea)\b/.source,
    // (Someone's age, and people looked up on other sites.)
    /\bhow old (?:is|are)\b|\b(?:his|her|their)\s+age\b/.source,
    /\b(?:find|look up|search for|search)\b.*\bon (?:linkedin|google|facebook|twitter|instagram|x)\b/.source,
    // (Someone's social profiles, and another company's own internal figures.)
    /\b(?:instagram|facebook|tiktok|twitter|social media)\b.*\b(?:profile|profiles|account|accounts|page|pages|like|posts?)\b|\b(?:his|her|their|[a-z]+'s)\s+(?:instagram|facebook|tiktok|twitter|social media)\b/
      .source,
    /\b[a-z]+'s\s+internal\s+(?:budget|budgets|numbers|financials|figures|costs|margins|plans|documents|pricing)\b/.source,
    // (An answer sent on to someone: no e-mail of reports leaves from here.)
    /\b(?:email|e-mail|send|forward|share|mail)\s+(?:this|that|the|these|those)\s+(?:breakdown|report|list|summary|numbers|figures|chart|table|answer|results?)\b/
      .source,
    // (Records that would be false, and advice on the law and taxes.)
    /\b(?:fake|forged?|falsif\w*|backdated?|made[- ]up)\s+(?:\w+\s+){0,2}(?:invoices?|receipts?|expenses?|payments?|records?|entries|hours|timesheets?)\b/
      .source,
    /\b(?:do|should|can|must)\s+(?:i|we)\s+(?:need to\s+)?(?:register|charge|deduct|claim|file|declare)\b.*\b(?:vat|tax|taxes|gst|sales tax|there|abroad)\b/
      .source,
    /\bwhat (?:vat|tax|gst|sales tax) rate\b/.source,
    /\b(?:post|publish|share|advertise|tweet)\b.*\bon (?:linkedin|twitter|x|facebook|indeed|instagram|glassdoor)\b/.source,
    /\b(?:euros?|eur|dollars?|usd|gbp|pounds?|yen|francs?)\s+(?:to|vs|in|against)\s+(?:euros?|eur|dollars?|usd|gbp|pounds?|yen|francs?)\b.*\b(?:rate|worth|today)\b/
      .source,
    /\b(?:email|e-mail|send|blast|mail|message|text)\b.*\b(?:all|every|each)\b.*\b(?:candidates?|applicants?|employees?|staff|contacts?|leads?|clients?)\b/
      .source,
    /\b(?:candidates|applicants|employees|staff|people|hires)\b.*\b(?:over|under|older than|younger than|aged)\s+\d{2}\b(?!\s*(?:k|hours|minutes|days|%|[$€£]))|\b(?:pregnant|religion|ethnicity|disabled|disability|have kids|has kids|married)\b/
      .source,
  ].join("|"),
  "i",
);
/** A person's pay or private details: refused unless some resource here keeps them. */
const PRIVATE = /\b(salary|salaries|wage|wages|compensation|payslip|payroll|ssn|social security|home address|date of birth|birthday|medical|earns)\b/i;
/** "mark every single invoice as paid": a change to all the records of a kind at once. */
const BULK_CHANGE =
  /^(?:(?:pls|please|can you|could you|just)\s+)?(?:mark|set|move|change|close|update)\s+(?:every|all(?:\s+the)?|each)\s+(?:single\s+)?(?:one\s+of\s+(?:the|our)\s+)?[a-z]+s?\s+(?:as|to)\b/i;
const BULK_DELETE = /\b(delete|erase|wipe|remove|clear|purge|drop|nuke)\b.*\b(everything|all|every|entire|whole)\b|\bclean slate\b|\bstart over\b/i;

export function refusal(text: string): Reply {
  return {
    intent: "unknown",
    text: `${text} I answer from this workspace's own records — invoices, payments, customers, deals, leads, tasks, projects, time, people and hiring — and prepare changes for you to confirm.`,
    data: { refused: true },
  };
}

/**
 * One message. Said with its context ("client found a bug — move Plan checkout back to in progress", "remove
 * the contact …, bounced twice"), the request is one of its clauses: when the whole is not understood, each
 * clause is tried, a person's pronoun standing for the name the message opened with.
 */
export async function turn(env: TurnEnv, message: string, state: ConversationState): Promise<Turn | null> {
  const typed = withoutPurpose(message);
  // ("october numbers - how much did we bill that month?": the month said before, wherever the question is read.)
  const month = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/i.exec(typed)?.[1];
  const said = month ? typed.replace(/\b(?:in\s+)?that month\b/gi, `in ${month}`) : typed;
  const result = await turnOf({ ...env, typed }, said, state);
  // "send a reminder for the first one", then "and resend the last one": a proposal about one of the records the
  // last answer listed keeps that list, so the next message can still pick from it.
  const data = result?.reply.data as Record<string, unknown> | undefined;
  if (result && state.listed && (result.proposal || result.reply.intent === "action") && data && !data.answer && !data.listed)
    result.reply.data = { ...data, listed: state.listed };
  return result;
}

async function turnOf(env: TurnEnv, message: string, state: ConversationState): Promise<Turn | null> {
  const said = withAfterthoughts(message);
  // "doing collections today and want the worst first — which invoices are more than 60 days overdue?": context,
  // then the request in a sentence of its own — that sentence is what is asked.
  // (Not a refusal of the whole, nor a fragment: "only the unpaid ones — how many?" is one question.)
  // ("draft reports (mobile app) is stuck, move it back to todo": the command about what the news was of — even
  // when the news alone reads as one, "draft reports" being a verb and a noun.)
  const stated = STATED.exec(said.trim());
  const then = stated ? /^[^,;—–]*?(?:[,;—–]|\s-)\s*(.+)$/.exec(said.trim().slice(stated[0].length))?.[1] : undefined;
  if (stated && then && /\bit\b/i.test(then) && !state.choose && !state.slot) {
    const command = await turnWhole(env, then.replace(/\bit\b/i, stated[1]!), state);
    if (command?.proposal) return command;
  }
  const whole = await turnWhole(env, said, state);
  const sentences = said
    .split(/\s+[—–]\s+|\s+-\s+|(?<=[.!?])\s+/)
    .map((piece) => piece.trim())
    .filter(Boolean);
  // ("grace allen accepted our offer!! pls hire her, she starts jan 4 in the berlin office": the news before the
  // command named whom; the command said alone, with the name for its pronoun, may read more of its fields.)
  // (A colon after a name ends a sentence too: "guido allen: we're making him an offer".)
  const parts = sentences.length > 1 ? sentences : said.split(/^([^:]{3,40}):\s+/).filter(Boolean);
  const named = parts.length > 1 ? pronounsOf(said)(parts.at(-1)!) : "";
  if (named && named !== parts.at(-1) && !state.choose && !state.slot) {
    const last = await turnWhole(env, named, state);
    const fieldsOf = (turn: Turn) => Object.keys(turn.proposal?.request.body ?? {}).length;
    // ("Evelyn accepted! hire her": the command said after the news, on whom it names, is what to do — not a change of
    // another kind the whole message would make of the news itself. Of the same kind, the whole says more: "a payment
    // on INV-… bounced, please remove it" is the payment.)
    const commanded = actionCue(wordsOf(parts.at(-1)!, env.vocabulary), env.schema)?.at === 0;
    if (
      last?.proposal &&
      (!whole?.proposal ||
        (commanded && last.proposal.request.method !== whole.proposal.request.method) ||
        (last.proposal.request.method === whole.proposal.request.method &&
          last.proposal.request.path === whole.proposal.request.path &&
          fieldsOf(last) > fieldsOf(whole)))
    )
      return last;
  }
  if (whole?.proposal || state.choose || state.slot || (whole?.reply.data as { refused?: boolean } | undefined)?.refused) return whole;
  const asks = (text: string) => QUESTION.test(text) || actionCue(wordsOf(text, env.vocabulary), env.schema)?.at === 0;
  const words = (text: string) => text.split(/\s+/).length;
  const lastNamed = sentences.length > 1 ? pronounsOf(said)(sentences.at(-1)!) : "";
  if (
    sentences.length > 1 &&
    asks(sentences.at(-1)!) &&
    words(sentences.at(-1)!) >= 3 &&
    // (A pronoun named by the opening sentence makes a short one context enough: "Globex pilot signed!!! mark it won".)
    words(sentences.slice(0, -1).join(" ")) >= (lastNamed !== sentences.at(-1) ? 2 : 6) &&
    !sentences.slice(0, -1).some(asks)
  ) {
    // ("Aiko Tanaka, Nakatomi, aiko@…, +81 … . can you save her as a contact": the details said first are the
    // command's — read it with them after it.)
    const context = sentences
      .slice(0, -1)
      .join(" ")
      .replace(/[.!]+$/, "");
    if (/@|\+?\d[\d\s-]{6,}\d/.test(context) && actionCue(wordsOf(sentences.at(-1)!, env.vocabulary), env.schema)?.at === 0) {
      const together = await turnWhole(
        env,
        `${sentences
          .at(-1)!
          .replace(/[.!?]+$/, "")
          .replace(/\b(?:her|him|them)\b/i, "")}: ${context}`,
        state,
      );
      if (together?.proposal) return together;
    }
    const last = await turnWhole({ ...env, talk: sentences.slice(0, -1).join(" ") }, lastNamed, state);
    if (last && !notUnderstood(last)) return last;
  }
  // "overdue tasks?? need to chase ppl before standup", "how many open tasks on Mobile app? trying to see if we
  // ship on time": a question mark ends what is asked; what follows is why. Read that question alone when the
  // whole was not understood, or when the why made it ask which record ("ship" → tasks called "Ship …").
  const asked = /^(.*?\?)[?!\s]*(\S.*)$/su.exec(said);
  // (What follows is plainly why when it is about the asker: "need to …", "trying to …", "have a call …".)
  const why = /^(?:i|i'm|im|we|we're|need|needs|trying|have|having|got|gotta|want|wanna|for|because|cause|bc|so|just|asking|it's|its)\b/i;
  if (
    asked &&
    words(asked[1]!) >= 2 &&
    (notUnderstood(whole) || whole?.reply.intent === "clarify" || why.test(asked[2]!)) &&
    !QUESTION.test(asked[2]!) &&
    // (A command after it is what to do — unless nothing of the whole was understood: "need to chase ppl".)
    (notUnderstood(whole) || actionCue(wordsOf(asked[2]!, env.vocabulary), env.schema)?.at !== 0)
  ) {
    const alone = await turnOf(env, asked[1]!, state);
    // (When the whole was read too, the why only wins over it if it changed what records are asked about.)
    const resourceOf = (turn: Turn | null) => (turn?.reply.data as { query?: { resource?: string } } | undefined)?.query?.resource;
    const wholeRead = !notUnderstood(whole) && whole?.reply.intent !== "clarify";
    // (Nor may a plain why name a record: "… on Initech's open invoices? Want to know how stale their AR is" is not
    // Stark's.)
    const named = (turn: Turn | null) =>
      ((turn?.reply.data as { query?: { conditions?: Condition[] } } | undefined)?.query?.conditions ?? [])
        .filter((condition) => "field" in condition && condition.field.endsWith("_id") && typeof condition.value === "number")
        .map((condition) => ("field" in condition ? `${condition.field}=${condition.value}` : ""));
    const renamed = why.test(asked[2]!) && named(whole).some((reference) => !named(alone).includes(reference));
    if (alone && !notUnderstood(alone) && alone.reply.intent !== "clarify" && (!wholeRead || resourceOf(alone) !== resourceOf(whole) || renamed)) return alone;
  }
  // ("Please give me list of employees which are inactive or left. Needed for audit purpose.": a request ended by its
  // full stop, then why — that request alone, when the whole was not understood.)
  const requested = /^(.*?[.!])\s+(\S.*)$/su.exec(said);
  const polite = (text: string) => text.replace(/^(?:please|pls|plz|kindly)\s+/i, "");
  if (requested && notUnderstood(whole) && words(requested[1]!) >= 3 && asks(polite(requested[1]!)) && !asks(polite(requested[2]!))) {
    const alone = await turnOf(env, requested[1]!, state);
    if (alone && !notUnderstood(alone) && alone.reply.intent !== "clarify") return alone;
  }
  // "Review emails on design system: reassign to Hedy Dijkstra and make it due the 30th": the record, then what to
  // do with it — that command said of the record.
  const told = /^([^:]{3,80}?)\s*:\s+(\p{L}+)\s+(.+)$/u.exec(said);
  if (told && (notUnderstood(whole) || whole?.reply.intent === "clarify") && !/[@\d]/.test(told[1]!)) {
    const command = `${told[2]} ${told[1]} ${told[3]}`;
    if (actionCue(wordsOf(command, env.vocabulary), env.schema)?.at === 0) {
      const again = await turnWhole(env, command, state);
      if (again?.proposal) return again;
    }
  }
  const clauses = clausesOf(said).map((text) => {
    const cue = actionCue(wordsOf(text, env.vocabulary), env.schema);
    return { text, command: cue !== null && cue.at === 0 };
  });
  // Commands first ("bounced twice" or "client unblocked us" is only why).
  clauses.sort((a, b) => Number(b.command) - Number(a.command));
  if (!notUnderstood(whole)) {
    // "Dennis is gone so give his task to Sophie": read as a question, but a clause of it is a command.
    // (Also when the whole only asked which of some names: a command on a record named by its number knows which.)
    const numbered = (text: string) => /\b(?:[A-Z]{2,5}|invoice)-\d{3,}\b/i.test(text);
    const command =
      whole!.reply.intent === "action" || (whole!.reply.intent === "clarify" && !clauses.some((clause) => clause.command && numbered(clause.text)))
        ? undefined
        : clauses.find((clause) => clause.command && (whole!.reply.intent !== "clarify" || numbered(clause.text)));
    const again = command ? await turnWhole(env, command.text, state) : null;
    return again?.proposal ? again : whole;
  }
  // (Only a command or a question: "order pizza for the team, 12 people" asks for no list of people.)
  for (const clause of clauses.filter((clause) => clause.command || QUESTION.test(clause.text))) {
    const again = await turnWhole(env, clause.text, state);
    if (again && !notUnderstood(again)) return again;
  }
  return whole;
}

const QUESTION =
  /^(?:(?:and|so|ok|okay|also|but|then)\s+)?(?:how|what|whats|what's|which|who|whos|who's|whose|when|where|why|is|are|does|do|did|(?:has|have)(?=\s+(?:we|they|you|he|she|it|i|any|anyone|anybody|anything|there|all|the|our|my)\b)|any|show|list|find|give me|tell me|can you (?:show|tell|find|pull|list|check))\b/i;

/** A reply that says the message was not read: nothing found by its words, no record told, nothing to change. */
function notUnderstood(turn: Turn | null): boolean {
  if (!turn) return true;
  const { reply } = turn;
  if (turn.proposal || (reply.data as { refused?: boolean } | undefined)?.refused) return false;
  if (reply.intent === "unknown") return true;
  // ("ken wirth is back from leave, make him active again": people who only share a surname with the name are no
  // reading of it; its clauses are tried.)
  const asked = reply.intent === "clarify" ? /records match "([^"]+)"/.exec(reply.text)?.[1] : undefined;
  const first = asked?.split(/\s+/)[0]?.toLowerCase();
  if (first && asked!.includes(" ") && !(reply.records ?? []).some((option) => option.label.toLowerCase().includes(first))) return true;
  const missing = (reply.data as { missing?: string[] } | undefined)?.missing;
  return /^I (?:couldn't (?:find|tell)|need a different)/.test(reply.text) || (missing?.length === 1 && ["fields", "target"].includes(missing[0]!));
}

/** The clauses of a message said with its context: sentences and dashed asides, then comma pieces. */
/** A clause with its pronoun named by what the message opened with ("Carl Wilson passed the screen, move him on"). */
function pronounsOf(message: string): (clause: string) => string {
  const opener =
    /^([A-Z][\p{L}'-]+ [A-Z][\p{L}'-]+)\b/u.exec(message.trim())?.[1] ??
    // ("ken wirth is back from leave": a name in lower case, then what happened to them.)
    /^([a-z][\p{L}'-]+ [a-z][\p{L}'-]+)(?:\s*:|\s+(?:is|was|has|had|got|just|quit|left|moved|accepted|started|finished|signed|passed|failed|declined|doesn't|does not|isn't|is not|no longer|won't|will not)\b)/u.exec(
      message.trim(),
    )?.[1] ??
    // ("Evelyn accepted! hire her": one name, then what a person does to an offer or a job.)
    /^(?!(?:we|i|they|he|she|you|it|ok|so|the|our|who|which|what|someone|somebody|everyone|everybody|anyone|anybody|nobody)\b)(\p{L}[\p{L}'-]+)\s+(?:just\s+)?(?:accepted|declined|quit|resigned|passed|failed|signed)\b/iu.exec(
      message.trim(),
    )?.[1] ??
    // ("ugh wayne still hasnt paid …", "sad news, prestige labs closed down last month": a company, after a sigh, and
    // what it did.)
    /^(?:(?:ugh+|argh+|sigh|sad news|bad news|good news|great news|fyi|heads up)[,!.:]*\s+)?(?!(?:we|i|they|he|she|you|it|ok|so|the|our|who|which|what|someone|somebody|everyone|everybody|anyone|anybody|nobody|no one)\b)([a-z][\p{L}'-]+(?: [a-z][\p{L}'-]+){0,2}?)\s+(?:still\s+)?(?:hasn't|hasnt|haven't|havent|never|closed down|shut down|went bust|went under|folded|owes?)\b/iu.exec(
      message.trim(),
    )?.[1] ??
    // ("called james perlman, left a voicemail. set him to contacted": whom the message is about.)
    /^(?:(?:i|we)\s+)?(?:just\s+)?(?:called|rang|phoned|emailed|pinged|met|met with|spoke to|spoke with|talked to|chatted with|reached out to|got hold of|heard back from)\s+(?:the\s+(?:lead|contact|candidate|customer|client|applicant)\s+)?([\p{L}'-]+ [\p{L}'-]+)\b/iu.exec(
      message.trim(),
    )?.[1] ??
    // ("that lead shafi hopper from acme i talked to him …": whom the message is about, by what they are.)
    /^(?:that|the|this)\s+(?:lead|contact|candidate|customer|client|applicant|employee)\s+([\p{L}'-]+ [\p{L}'-]+)\b/iu.exec(message.trim())?.[1] ??
    // ("not moving fwd with john conway, reject pls": whom the message is about.)
    /^(?:not\s+(?:moving|going)\s+(?:fwd|forward|ahead)|passing|we(?:'re| are)\s+passing|no\s+go)\s+(?:with|on)\s+([\p{L}'-]+ [\p{L}'-]+)\b/iu.exec(
      message.trim(),
    )?.[1];
  // ("Globex pilot signed!!! mark it won": "it" is what the message opened with news of.)
  // (Not "we just signed it!! mark it won": "it" there is what the conversation is about.)
  const news =
    /^(?!(?:we|i|they|he|she|you)\b(?:\s+just)?\s+(?:signed|closed|accepted|agreed))(.+?)\s+(?:signed|closed|came through|went through|is done|accepted|agreed|fell through|is dead)\b[\s!.]*/i.exec(
      message.trim(),
    )?.[1];
  // ("we closed the acme migration!! mark it won": what we closed.)
  const ours = /^(?:we|i)\s+(?:just\s+)?(?:signed|closed|won|landed)\s+(the\s+.+?)\s*[!.]/i.exec(message.trim())?.[1];
  // ("draft reports (mobile app) is stuck, move it back to todo": "it" is what the message said was stuck.)
  const stated = STATED.exec(message.trim())?.[1];
  // ("globex says they never got INV-000150, resend it": "it" is the one record the message names by its number.)
  // (Also as the words read it: "tyrell's 287 was a duplicate — cancel it".)
  // (Only a message with a figure in it can name one: it is not read twice otherwise.)
  const numbered =
    message.match(/\b[A-Z]{2,5}-\d{3,}\b/g) ??
    (/\d/.test(message)
      ? normalize(message)
          .match(/\binvoice-\d{6,}\b/g)
          ?.map((number) => number.replace(/^invoice/, "INV"))
      : null);
  const record = numbered && new Set(numbered).size === 1 ? numbered[0] : undefined;
  return (clause: string) => {
    const person = opener && !clause.includes(opener) ? clause.replace(/\b(?:him|her|them)\b(?!\s+(?:the\s+)?\p{Lu})/u, opener) : clause;
    // ("…, reject pls": a command with no one to act on acts on whom the message opened with.)
    const alone =
      /^((?:(?:can|could) you\s+|pls\s+|please\s+)?(?:reject|hire|decline|disqualify|unqualify|qualify|convert|archive))\s*(?:pls|please|now|asap)?[?.!]*$/i.exec(
        person,
      );
    if (alone && opener) return `${alone[1]} ${opener}`;
    const named = news ?? ours ?? stated ?? record;
    if (!named || person.includes(named)) return person;
    // ("globex says they never got 143, can you resend": a command with nothing to act on acts on the record named.)
    const bare =
      /^((?:(?:can|could) you\s+|pls\s+|please\s+)?(?:resend|re-send|send|void|remind|chase|cancel|delete))\s*(?:again|pls|please|now|asap)?[?.!]*$/i.exec(
        person,
      );
    if (bare && record) return `${bare[1]} ${record}`;
    return person.replace(/\bit\b/i, named);
  };
}

/** A record, then news of it: "draft reports (mobile app) is stuck". */
const STATED =
  /^(?:(?:ok|okay|so|right|alright|fyi|update|good news|heads up)[,:!]?\s+)?(.+?)\s+(?:is|was|has been|got|looks)\s+(?:stuck|blocked|unblocked|back on track|on hold|meant to|supposed to|due to|late|behind|delayed|waiting|paused|wrong|broken|cancelled|canceled|spam|junk|fake|bogus|garbage|a (?:duplicate|dupe|test|mistake)|duplicated|not real|(?:made|created|raised|sent) (?:by (?:accident|mistake)|in error))\b/i;

function clausesOf(message: string): string[] {
  const named = pronounsOf(message);
  const strong = message
    .split(/\s+[—–]\s+|\s+-\s+|[.!?;]+\s+|:\s+/)
    .map((piece) => piece.trim())
    .filter(Boolean);
  // ("… i talked to him this morning mark him as contacted": said without a stop, a command on "him" begins a clause.)
  const weak = strong.flatMap((piece) =>
    piece.split(/,\s*|\s+so\s+|\s+(?=(?:mark|set|move|change|update|make|put|assign)\s+(?:him|her|them|it)\s)/).map((part) => part.trim()),
  );
  const pieces = [...(strong.length > 1 ? strong : []), ...(weak.length > strong.length ? weak : [])];
  return [...new Set(pieces.filter((piece) => piece.split(/\s+/).length >= 2).map(named))];
}

/**
 * "leads from the website" → "delete the unqualified one": of the records the last answer listed, the one in that
 * state (asked again with it), by its name. Unchanged when none or several are.
 */
async function stateOneNamed(env: TurnEnv, said: string, state: ConversationState): Promise<string> {
  const described = /\bthe ([a-z][a-z ]{2,30}?) one\b/i.exec(said);
  const previous = state.query;
  const R = previous ? env.schema.byName.get(previous.resource) : undefined;
  if (!described || !previous || !R || !state.listed?.length || state.choose) return said;
  const word = described[1]!.toLowerCase();
  if (state.listed.some((record) => record.label.toLowerCase().includes(word))) return said;
  const field = ["status", "stage"].map((name) => R.fields.get(name)).find((candidate) => candidate?.kind === "enum");
  const value = field?.values?.find((candidate) => candidate.replace(/_/g, " ") === word);
  if (!field || !value) return said;
  const conditions: Condition[] = [
    ...previous.conditions.filter((condition) => !("field" in condition) || condition.field !== field.name),
    { field: field.name, op: "eq", value, label: word },
  ];
  const aggregate = { fn: "list" as const, field: null, groupBy: null, order: null, limit: null };
  const reply = await runQuery(queryEnv(env), { ...previous, conditions, aggregate, show: null }, env.refuse);
  const ids = (reply.data as { answer?: { ids?: number[] } } | undefined)?.answer?.ids ?? [];
  const record = ids.length === 1 ? reply.records?.find((candidate) => candidate.id === ids[0]) : undefined;
  return record ? said.replace(described[0], `the ${R.singular} ${record.label.replace(/\s*\([^)]*\)\s*$/, "")}`) : said;
}

async function turnWhole(env: TurnEnv, said: string, state: ConversationState): Promise<Turn | null> {
  const message = referentsNamed(await stateOneNamed(env, said, state), state, env);
  const w = wordsOf(message, env.vocabulary);
  const actionEnv: ActionEnv = {
    fetch: env.fetch,
    schema: env.schema,
    now: env.now,
    refuse: env.refuse,
    values: env.values,
    listed: state.listed ?? (state.focus ? [state.focus] : undefined),
    about: aboutOf(env.schema, state.query) ?? state.focus ?? undefined,
    message: env.typed ?? said,
  };

  // An answer to the last question asked.
  if (state.choose) {
    const choice = chosen(message, state.choose.options) ?? (await chosenByValue(env, message, state.choose.options));
    if (choice) return resume(env, actionEnv, state, choice);
  }
  // What a record is to say (quoted, or after a colon: "add a task for the office: fix the printer") is no topic.
  // (A quote opens after a space and closes before one: the apostrophes of "acme's" and "we're" quote nothing.)
  const topic = message.replace(/(?<=^|\s)["'‘“][^"'’”]*["'’”](?=$|[\s,.!?;])/g, " ").replace(/:.*$/s, "");
  if (OUT_OF_SCOPE.test(topic) || (NOT_OURS.test(topic) && !/\binv(?:oice)?[-\s#]*\d/i.test(topic)))
    return { reply: refusal("That's outside what I can help with here.") };
  if (NOT_DOABLE.test(topic)) return { reply: refusal("That's not something I can do from here.") };
  const kept = PRIVATE.exec(topic)?.[1]?.toLowerCase();
  if (kept && !env.schema.resources.some((resource) => [...resource.fields.values()].some((field) => field.words.includes(kept))))
    return { reply: refusal(`This workspace doesn't keep ${kept === "ssn" ? "social security numbers" : kept === "earns" ? "what people earn" : kept}.`) };
  // "win rate this quarter": the deals closed in the period, won against lost, with the rate said.
  const deals = env.schema.byName.get("deals");
  // ("what % of deals are we winning this qtr", "what share of our deals do we win": the same rate, asked as a share.)
  const shareWon =
    /\bwhat\s+(?:%|percent(?:age)?|share|portion|proportion|fraction)\s+of\s+(?:(?:our|the|my|all)\s+)?deals\s+(?:(?:are|do|did|have)\s+)?(?:we\s+)?(?:winning|win|won|closing\s+won)\b/i;
  if (deals && (/\b(?:win|won|close|closing|success)\s+(?:rate|ratio|percentage|%)/i.test(message) || shareWon.test(message))) {
    const asked = merge(parseQuery(w, env.schema, env.now, deals), null, w.joined) ?? blank(deals);
    const query: Query = {
      ...asked,
      conditions: [
        ...asked.conditions.filter((c) => !("field" in c && ["status", "stage"].includes(c.field))),
        { field: "status", op: "in", value: ["won", "lost"], label: "won or lost" },
      ],
      period: asked.period ? { ...asked.period, field: "closed_at" } : null,
      aggregate: { fn: "count", field: null, groupBy: "status", order: null, limit: null },
      subject: null,
      show: null,
    };
    const reply = await runQuery(queryEnv(env), query, env.refuse);
    const answer = (reply.data as { answer?: { groups?: { key: unknown; value: unknown }[] } } | undefined)?.answer;
    const groups = answer?.groups ?? [];
    const count = (key: string) => Number(groups.find((group) => group.key === key)?.value ?? 0);
    const [won, lost] = [count("won"), count("lost")];
    const when = query.period ? ` (${query.period.label})` : "";
    const rate =
      won + lost === 0 ? `No deals were won or lost${when}.` : `Win rate${when}: ${Math.round((100 * won) / (won + lost))}% — ${won} won, ${lost} lost.`;
    return { reply: { ...reply, intent: "metric", text: rate } };
  }
  // Rates and web traffic are no sum of records: the dashboard's widgets answer them (the intent engine).
  if (/\b(rate|ratio|traffic|visitors|pageviews|page views|bounce|conversion)\b/i.test(message) && !/\b(hourly rate|rate of \$)/i.test(message)) return null;
  if (env.metricPhrases?.some((phrase) => ` ${w.words.join(" ")} `.includes(` ${phrase} `))) return null;
  if (BULK_DELETE.test(message)) return { reply: refusal("I can't delete records in bulk.") };
  if (BULK_CHANGE.test(message)) return { reply: refusal("I change one record at a time, and only when you confirm it.") };
  // ("actually make it 6 days" after a one-line invoice: the same line, so many of it — not a catalogue line.)
  const lines = state.pending?.fields.items;
  const count = Array.isArray(lines) && lines.length === 1 && state.pending?.operation === "create" && !state.slot ? SO_MANY.exec(message) : null;
  // ("make it 900 each": the same line at that price.)
  const price = Array.isArray(lines) && lines.length === 1 && state.pending?.operation === "create" && !state.slot && !count ? AT_PRICE.exec(message) : null;
  if ((count || price) && state.pending && Array.isArray(lines)) {
    const { items: _label, ...labels } = state.pending.labels ?? {};
    const line = {
      ...(lines[0] as Record<string, unknown>),
      ...(count ? { quantity: Number(count[1]) } : { unit_amount: readMoney(price![1]!, { bare: true })!.minor }),
    };
    const draft = { ...state.pending, fields: { ...state.pending.fields, items: [line] }, labels };
    return fromBuilt(env.schema, proposal(actionEnv, env.schema.byName.get(state.pending.resource)!, draft));
  }
  if (state.slot) {
    const filled = await fillSlot(env, actionEnv, message, state.slot);
    if (filled) return filled;
  }

  // "Ana's leave balance": a report a package serves about one person.
  const report = await personReport(actionEnv, message);
  if (report) return { reply: "fail" in report ? { intent: "unknown", text: report.fail } : { intent: "lookup", text: report.text, records: [report.record] } };
  // "clock in Brian": a command a package declares on its collection, naming a person.
  const command = await collectionCommand(actionEnv, message);
  if (command) return fromBuilt(env.schema, command);

  // "how much has wonka paid on INV-000003 so far", "how much of INV-… has been paid": what that record says is
  // paid of it (its own running figure), not a sum of payments the words would otherwise ask for.
  const paidSoFar =
    /^how\s+much\s+(?:(?:has|have|did)\s+.+?\s+paid\s+(?:on|of|towards?|for|against)\s+(.+?)|of\s+(.+?)\s+(?:has|have|is|was)\s+(?:been\s+|they\s+)?paid)(?:\s+(?:so far|to date|yet|already))*\s*\??$/i.exec(
      w.text,
    );
  const paidRef = paidSoFar ? (paidSoFar[1] ?? paidSoFar[2]!) : "";
  const paidOf = paidSoFar ? env.schema.resources.find((R) => R.fields.has("amount_paid") && R.skill?.reference?.pattern.test(paidRef)) : undefined;
  if (paidSoFar && paidOf) {
    const query = paidOf.skill!.reference!.query(paidOf.skill!.reference!.pattern.exec(paidRef)![0]);
    const row = await referencedRecord(env.fetch, paidOf, query);
    if (row) {
      const asked = applyRole(blank(paidOf), { subject: true }, { resource: paidOf.name, id: row.id, label: labelOf(paidOf, row) });
      return { reply: await runQuery(queryEnv(env), { ...asked, show: "amount_paid" }, env.refuse) };
    }
  }
  // "whose email is anita@globex.example": whoever has that address, among everyone who has one.
  const address = /^(?:who|whose|who's|whos|which|what|find|look up|lookup|search)\b.*?([^\s@,;()<>]+@[^\s@,;()<>]+\.[a-z]{2,})/i.exec(message);
  // ("which invoices went out to ap@stark.example": where records were sent is a question of those records.)
  if (address && !/\b(?:sent|went|go|goes|gone|going)\b/i.test(message)) {
    const email = address[1]!.toLowerCase();
    // (People and companies: a ticket also keeps its requester's address, but is no one.)
    const havers = candidatesFor(null, env.schema).filter((candidate) => candidate.fields.has("email") && candidate.nameField === "name");
    const results = await Promise.all(havers.map(async (R) => ({ R, result: await env.fetch(`/${R.name}?q=${encodeURIComponent(email)}&limit=5`) })));
    const exact = results.flatMap(({ R, result }) =>
      result.ok ? result.data.filter((row) => String(row.email ?? "").toLowerCase() === email).map((row) => ({ R, row })) : [],
    );
    if (exact.length === 1) {
      const { R, row } = exact[0]!;
      const query = applyRole(blank(R), { subject: true }, { resource: R.name, id: row.id, label: String(row[R.nameField ?? "id"]) });
      return { reply: await runQuery(queryEnv(env), query, env.refuse) };
    }
    if (exact.length === 0) return { reply: { intent: "lookup", text: `No one in this workspace has the address ${address[1]}.` } };
    // (Several records with that address — a lead who became a contact: each of them.)
    const records = exact.map(({ R, row }) => ({ resource: R.name, id: row.id, label: labelOf(R, row) }));
    return {
      reply: {
        intent: "lookup",
        text: `${records.length} records have the address ${address[1]}:\n${records.map((r) => `• ${r.label} (${env.schema.byName.get(r.resource)!.singular})`).join("\n")}`,
        records,
      },
    };
  }
  const cue = actionCue(w, env.schema);
  if (cue) {
    // "ok move her to offer": a pronoun and a state of the record in focus — that record, whatever noun the state is.
    const focused = state.focus ? (env.schema.byName.get(state.focus.resource) ?? null) : null;
    const fits =
      focused &&
      /\b(?:her|him|them|it)\b/i.test(message) &&
      [...focused.fields.values()].some(
        (field) => field.kind === "enum" && field.values?.some((value) => w.words.includes(value.replace(/_/g, " ")) || w.words.includes(value)),
      );
    // ("list drafts" → "delete the tyrell one": "the … one" is one of the records just listed, whoever "tyrell" is.)
    const listedR =
      state.listed?.length && /\bthe\s+[\p{L}\d .'-]{1,40}?\s+one\b/iu.test(message) && nounsIn(w, env.schema, new Set()).length === 0
        ? env.schema.byName.get(state.listed[0]!.resource)
        : undefined;
    const R = (fits ? focused : null) ?? listedR ?? actionResource(w, cue, env.schema) ?? focused ?? null;
    // "make it high priority…" right after a proposed create: the same record, more fields.
    // (Not another of the API's actions: "resend the last one, they say it never arrived" after a reminder.)
    // ("oh and high prio, due fri, assign lynn": a person or a date given to it is more of the same record too.)
    // (Only of a record still to be made: "and reject Carl" after a proposed change is another change.)
    const adds = state.pending?.operation === "create" && /^(?:(?:oh|ah|ok|okay)[,\s]+)?(?:and|also|plus)\b/i.test(message);
    const another =
      !["create", "update"].includes(state.pending?.operation ?? "") ||
      (cue.op !== state.pending?.operation && !["create", "update", ...(adds ? ["assign", "reschedule"] : [])].includes(cue.op));
    // ("sorry, her start date is jan 4": the person just proposed, if the proposal is of a person.)
    const person = state.pending ? env.schema.byName.get(state.pending.resource)?.nameField === "name" : false;
    // ("oh and he's already qualified": so is the one just proposed.)
    const pendingNamed =
      /\b(it|that)\b/i.test(message) || adds || (person && /\b(her|his|their|he|she|they)\b|\b(?:he|she)['’]s\b|\bthey['’]re\b/i.test(message));
    if (state.pending && !another && pendingNamed && (!R || R.name === state.pending.resource)) {
      const pendingR = env.schema.byName.get(state.pending.resource)!;
      const built = await build(actionEnv, w, { ...cue, op: state.pending.operation === "create" ? "create" : cue.op }, pendingR, null);
      if (built.kind === "proposal" || built.kind === "missing") {
        // The pending record keeps its name: this message only adds fields.
        const added = Object.fromEntries(
          Object.entries(built.draft.fields).filter(([field]) => !(field in state.pending!.fields) || !["name", "title"].includes(field)),
        );
        const draft = { ...state.pending, fields: { ...state.pending.fields, ...added }, labels: { ...state.pending.labels, ...built.draft.labels } };
        return fromBuilt(env.schema, proposal(actionEnv, pendingR, draft));
      }
    }
    // "add 1h for him today on …" after a question about Linus: the person in focus fills the reference.
    // ("add a payment of 500 on it" after the payments on INV-…: "it" is the invoice they were asked about.)
    const pronounRef = /\b(for|to|with|by|on|against)\s+(him|her|them|it)\b/i.exec(message);
    const refersTo = (candidate: ConversationState["focus"]) =>
      candidate &&
      R &&
      candidate.resource !== R.name &&
      [...(R.create ?? []), ...(R.update ?? [])].some((f) => f.kind === "reference" && f.target === candidate.resource);
    const aPerson = pronounRef && !/^it$/i.test(pronounRef[2]!);
    // (A person is whoever the conversation is on; "it" may also be the record the last question was about.)
    const focus = pronounRef
      ? (aPerson ? [state.focus ?? aboutOf(env.schema, state.query)] : [state.focus, aboutOf(env.schema, state.query)]).find(refersTo)
      : undefined;
    if (R && pronounRef && focus) {
      // (By its name alone: "INV-000274 (3,796.00 USD)" would say an amount nobody said.)
      const named = wordsOf(message.replace(pronounRef[0], `${pronounRef[1]} ${focus.label.replace(/\s*\([^()]*\)\s*$/, "")}`), env.vocabulary);
      const again = actionCue(named, env.schema);
      if (again) return fromBuilt(env.schema, await build(actionEnv, named, again, R, null));
    }
    if (R) {
      let built = await build(actionEnv, w, cue, R, state.focus ?? null);
      built = (await startedInstead(actionEnv, R, built, cue)) ?? (await namedInTalk(actionEnv, R, built, `${env.talk ?? ""} ${message}`, cue)) ?? built;
      const named = built.kind === "fail" && /couldn't find/.test(built.text) ? await kindInName(env.fetch, env.schema.resources, R, w.text) : null;
      if (named) built = await build(actionEnv, w, cue, named, state.focus ?? null);
      // "onboard Kelly Kapoor in marketing, she starts monday": no candidate so named — a new employee.
      const employees = env.schema.byName.get("employees");
      if (cue.op === "hire" && built.kind === "fail" && /couldn't find/.test(built.text) && employees?.create)
        return fromBuilt(env.schema, await build(actionEnv, w, { ...cue, op: "create" }, employees, null));
      return fromBuilt(env.schema, built);
    }
    // No noun ("move tyrell pilot to qualification", "reject Niklaus"): the resources whose states the words
    // name first, then every named one, until the record is found.
    const skip = cue.verb === "state" ? 0 : cue.verb.split(" ").length;
    const stateful = env.schema.resources.filter(
      (candidate) => candidate.update && Object.keys(readStates(w, candidate, candidate.update, cue.verb, skip)).length > 0,
    );
    const rest = env.schema.resources.filter((candidate) => candidate.nameField && candidate.update && !stateful.includes(candidate));
    // "reassign …", "reschedule …": first the resources whose changes take what the verb changes (a person, a due date).
    const takes = (candidate: ResourceModel) =>
      cue.op === "assign"
        ? (candidate.update ?? []).some((field) => field.kind === "reference" && (field.target === "employees" || /assignee|owner/.test(field.name)))
        : cue.op === "reschedule"
          ? (candidate.update ?? []).some((field) => field.kind === "date" && /due|end|close/.test(field.name))
          : false;
    let ordered = [...stateful, ...rest].sort((a, b) => Number(takes(b)) - Number(takes(a)));
    const valueFits = new Set<ResourceModel>();
    // "update wonka's email": the record a possessive names, looked up among them all at once, decides.
    // ("sophie allen moved to umbrella": the words before the first comma or "to" name the record the same way.)
    const owner =
      /^(?:the\s+)?([\p{L}\d .&-]+?)['’]s\b/u.exec(cue.rest)?.[1] ??
      /^(?:the\s+)?([\p{L}][\p{L}\d .&-]*?)(?=\s*[,—–]|\s+-\s|\s+(?:to|as)\s)/u.exec(cue.rest)?.[1];
    if (owner) {
      // ("mark Edsger as contacted": among the records whose states the words name first — the lead Edsger.)
      const amongStateful = stateful.length > 0 ? await findNamed(env.fetch, stateful, owner) : null;
      const found =
        amongStateful?.kind === "one" ? amongStateful : ((await findAtCompany(env.fetch, ordered, owner)) ?? (await findNamed(env.fetch, ordered, owner)));
      // ("update ken at globex": of those at Globex, whichever Ken — their resource is the one.)
      // (Of several kinds at the company said — three contacts and a lead called Carl at Aperture — the kind most of them are.)
      if (found.kind === "many") {
        const kinds = [...new Set(found.options.map((option) => option.resource))];
        const most = (kind: ResourceModel) => found.options.filter((option) => option.resource === kind).length;
        const first = kinds.sort((a, b) => most(b) - most(a))[0]!;
        const atCompany = /\s(?:at|from)\s/i.test(owner);
        if (kinds.length === 1 || (atCompany && most(first) > most(kinds[1]!))) {
          ordered = [first, ...ordered.filter((candidate) => candidate !== first)];
          // (Several of one kind at the company named: which of them is asked, not a namesake elsewhere taken.)
          if (atCompany) valueFits.add(first);
        }
      }
      if (found.kind === "one") ordered = [found.found.resource, ...ordered.filter((candidate) => candidate !== found.found.resource)];
    }
    // ("frances is moving over to finance": a value said after "to" that is exactly one a resource's records already
    // have — employees' department Finance — says the record is one of those, even if it must ask which.)
    const moveTo = /(?:\b(?:to|into)|,)\s+(?:the\s+)?([\p{L}][\p{L} &-]{1,30}?)(?:\s+(?:department|dept|team|branch|office))?\s*[.!?]*$/iu.exec(cue.rest)?.[1];
    if (moveTo)
      for (const candidate of ordered) {
        const known = await env.values(candidate);
        const open = new Set((candidate.update ?? []).filter((field) => field.kind === "text").map((field) => field.name));
        if (matchValue(known, moveTo, (field) => open.has(field))?.exact) valueFits.add(candidate);
      }
    ordered.sort((a, b) => Number(valueFits.has(b)) - Number(valueFits.has(a)));
    let asked: Turn | null = null;
    let unchanged: Turn | null = null;
    for (const candidate of ordered) {
      let built = await build(actionEnv, w, cue, candidate, state.focus ?? null);
      built = (await startedInstead(actionEnv, candidate, built, cue)) ?? built;
      if (built.kind === "fail" && /couldn't find/.test(built.text)) continue;
      if (built.kind === "choose" && valueFits.has(candidate)) return fromBuilt(env.schema, built);
      // A resource that cannot tell which of its records is meant may not be the one: try the others first
      // ("update wonka's email": several contacts at Wonka, one customer called Wonka).
      if ((built.kind === "missing" && built.missing.includes("target")) || built.kind === "choose") {
        asked ??= fromBuilt(env.schema, built);
        continue;
      }
      // ("mark barbara as left": a record found where the words change nothing — a candidate has no "left" — is a
      // worse reading than the people of that name whom they would change.)
      if (built.kind === "missing" && built.missing.includes("fields")) {
        unchanged ??= fromBuilt(env.schema, built);
        continue;
      }
      return fromBuilt(env.schema, built);
    }
    if (asked) return asked;
    if (unchanged) return unchanged;
    return {
      reply: {
        intent: "unknown",
        text: "I couldn't tell which record you mean. Name it with its kind, e.g. “mark task 12 done” or “move the deal Acme pilot to won”.",
      },
    };
  }

  const previous = state.query ?? null;
  // "who joined this year" → "just sales": a value of the last question's records narrows it (whatever else
  // the word means on its own); "the berlin engineering team" → "what about the remote ones": it takes the place
  // of the value of its field.
  const only = previous
    ? /^(?:and\s+)?(?:just|only|(?:what|how)\s+about)\s+(?:the\s+)?(?:ones?\s+(?:in|from|at)\s+)?(.+?)(?:\s+(?:ones?|people|team|dept|department|folks))?\s*[?.!]*$/i.exec(
        message,
      )
    : null;
  const lastR = previous ? env.schema.byName.get(previous.resource) : undefined;
  const sorted =
    previous && lastR
      ? (sortedAgain(message, previous, lastR) ??
        partOfAgain(message, previous, lastR) ??
        countedAgain(message, previous, lastR) ??
        measuredAgain(message, previous, lastR))
      : null;
  if (sorted) return { reply: await runQuery(queryEnv(env), sorted, env.refuse) };
  if (only && lastR && previous) {
    const value = matchValue(await env.values(lastR), only[1]!);
    if (value?.exact) {
      const condition: Condition =
        value.values.length === 1
          ? { field: value.field, op: "eq", value: value.values[0]!, label: `${value.field.replace(/_/g, " ")} ${value.values[0]}` }
          : { field: value.field, op: "in", value: value.values, label: `${value.field.replace(/_/g, " ")} ${value.values.join(" or ")}` };
      const narrowed: Query = { ...previous, conditions: [...previous.conditions.filter((c) => !("field" in c) || c.field !== value.field), condition] };
      return { reply: await runQuery(queryEnv(env), narrowed, env.refuse) };
    }
  }
  const draft = parseQuery(w, env.schema, env.now);
  // "when did globex last pay us" → "and what do they still owe": a question of its own, by a measure of another
  // resource (not "and sales?", a value of the last question's records that is also a measure's word).
  const asksMeasureAnew = Boolean(draft.title && !draft.said.noun && /\b(?:what|whats|how|when|which|who)\b/.test(w.joined));
  let base = draft;
  // A follow-up without its own resource is read again against the last question's resource.
  if (!draft.said.resource && previous) {
    base = parseQuery(w, env.schema, env.now, env.schema.byName.get(previous.resource));
  } else if (
    previous &&
    // "candidates per stage" → "just for the support specialist job": the same question, narrowed to a record
    // the last one's records refer to; "which of them have a customer": the last answer's records, whatever
    // other noun is said about them.
    ((draft.followUp &&
      draft.resource &&
      draft.resource.name !== previous.resource &&
      // (Not a measure of that resource asked anew: "when did globex last pay us" → "and what do they still owe".)
      !asksMeasureAnew &&
      [...(env.schema.byName.get(previous.resource)?.fields.values() ?? [])].some((field) => field.target === draft.resource!.name)) ||
      /\b(?:which|how many|any) of (?:them|those|these)\b/.test(w.joined) ||
      // "unpaid invoices of Wonka" → "only the partially paid ones", candidates in interview → "and offer?": a state
      // of the last question's records, though its words name another resource ("paid", the quotes' "offer").
      // (Likewise a verb with no noun: customers → "only the ones we added this year".)
      (draft.followUp &&
        draft.resource &&
        draft.resource.name !== previous.resource &&
        ((!draft.said.noun && !asksMeasureAnew) || statedOf(env.schema.byName.get(previous.resource), w))))
  ) {
    const again = parseQuery(w, env.schema, env.now, env.schema.byName.get(previous.resource), true);
    if (again.resource?.name === previous.resource) base = { ...again, followUp: true };
  }
  let query = merge(base, previous, w.joined, env.now);
  let R: ResourceModel | null = query ? env.schema.byName.get(query.resource)! : null;
  // "security audit hours" → "who logged the most on it", "the website relaunch project" → "who logged time on
  // it": the record the last answer was about, or the one its question was, restricts the new question.
  if (
    query &&
    R &&
    !query.subject &&
    /\b(?:on|for|of|in|to|about|against|toward|towards) it(?:\s+(?:yet|so far|already|now|then|at all|too|either))?\s*[?.!]*$/.test(w.joined)
  ) {
    // (A record the last question was restricted to: "for Security audit" is its project_id.)
    const about = [state.focus, previous?.subject, aboutOf(env.schema, previous ?? undefined)].find(
      (record) => record && (record.resource === R!.name || [...R!.fields.values()].some((field) => field.target === record.resource)),
    );
    const via = about && about.resource !== R.name ? [...R.fields.values()].find((field) => field.target === about.resource) : undefined;
    if (about) query = applyRole(query, via ? { field: via.name } : { subject: true }, about);
  }
  // "deals lost last quarter" → "what were the reasons": a field asked in the plural of many records groups them by it.
  // ("lost reasons this year", "lead sources breakdown": so does a field of few values said first, in the plural.)
  const head = /^(?:(?:the|our|all)\s+)?(?:[a-z]+\s+)?([a-z]+s)\b/.exec(w.joined)?.[1];
  const shown = query?.show ? R?.fields.get(query.show) : undefined;
  const pluralFirst =
    query &&
    R &&
    shown &&
    query.aggregate.fn === "list" &&
    (shown.kind === "enum" || categoricalFields(R).includes(shown.name)) &&
    shown.words.some((phrase) => head === phrase || head === `${phrase.split(" ").at(-1)}s`);
  if (
    query &&
    R &&
    !query.subject &&
    !query.aggregate.groupBy &&
    ((previous && query.resource === previous.resource && /^(what|which)\b/.test(w.joined)) || (pluralFirst && base.names.length === 0))
  ) {
    // (As typed: the typo corrector may have read "stages" as "stage".)
    const typed = w.tokens.map((token) => token.raw.toLowerCase());
    const asked = [...R.fields.values()].find(
      (field) =>
        (field.kind === "enum" || field.kind === "text") &&
        field.words.some((phrase) => !phrase.includes(" ") && typed.includes(`${phrase}s`)) &&
        (!query!.show || query!.show === field.name),
    );
    if (asked) {
      query.aggregate = { fn: "count", field: null, groupBy: asked.name, order: null, limit: null };
      query.show = null;
    }
  }
  // "why are we losing deals": the reason asked of many records is a count of them by reason.
  if (query && R && !query.subject && query.show && query.aggregate.fn === "list" && /^why\b/.test(w.joined)) {
    const field = R.fields.get(query.show);
    if (field && (field.kind === "enum" || field.kind === "text")) {
      query.aggregate = { fn: "count", field: null, groupBy: query.show, order: "desc", limit: null };
      query.show = null;
    }
  }
  // "how many candidates for each?" after a list of job openings: grouped by the reference to what was listed.
  if (
    query &&
    R &&
    previous &&
    previous.resource !== R.name &&
    !query.aggregate.groupBy &&
    /\b(?:for each|per|each)(?: one| of them| of those)?$/.test(w.joined)
  ) {
    const field = [...R.fields.values()].find((candidate) => candidate.target === previous.resource);
    if (field) query.aggregate = { ...query.aggregate, fn: query.aggregate.fn === "list" ? "count" : query.aggregate.fn, groupBy: field.name };
  }

  // No resource said: the names decide ("what stage is Evelyn Sagan at").
  if (!R) {
    const span = base.names[0];
    if (!span) return null;
    // "what stage is Niklaus at": first the records whose resource has the field asked about.
    const everyone = candidatesFor(null, env.schema);
    const asksField = (candidate: ResourceModel) =>
      [...candidate.fields.values()].some(
        (field) =>
          field.kind !== "reference" &&
          field.name !== candidate.nameField &&
          field.words.some((word) => word.length > 2 && ` ${w.joined} `.includes(` ${word} `)),
      );
    const fielded = everyone.filter(asksField);
    const findIn = async () => {
      const first = fielded.length > 0 && fielded.length < everyone.length ? await findNamed(env.fetch, fielded, span.text) : null;
      return first && first.kind !== "none" ? first : findNamed(env.fetch, everyone, span.text);
    };
    const [found, valued] = await Promise.all([findIn(), valueOfAnyResource(env, span.text, /^(?:who|whos|who's)\b/.test(w.joined))]);
    if (found.kind === "error") return { reply: { intent: "unknown", text: env.refuse(found.error) } };
    // "list our accountants", "engineers in berlin": no record by that name (or a plural, which names a kind of
    // record rather than one), but a value of some resource's categorical text field.
    // (A record found only by a near spelling — "engineering" for "Senior Engineer" — loses to a value spelt so.)
    const near =
      found.kind === "one" &&
      !found.found.label.toLowerCase().includes(span.text.toLowerCase()) &&
      Boolean(valued?.values.some((value) => value.toLowerCase() === span.text.toLowerCase()));
    // ("whats gringots balance": a field asked — a balance — that only the record found has, not the value's resource.)
    const fieldFits = found.kind === "one" && fielded.includes(found.found.resource) && !fielded.includes(valued?.resource as ResourceModel);
    if (valued && !fieldFits && (found.kind === "none" || /[^s]s$/i.test(span.text) || near)) {
      R = valued.resource;
      const again = parseQuery(w, env.schema, env.now, R);
      query = merge(again, null, w.joined) ?? blank(R);
      const label = `${valued.field.replace(/_/g, " ")} ${valued.values.join(" or ")}`;
      query.conditions.push(
        valued.values.length === 1
          ? { field: valued.field, op: "eq", value: valued.values[0], label }
          : { field: valued.field, op: "in", value: valued.values, label },
      );
      base = { ...again, names: again.names.filter((name) => !name.indexes.some((i) => span.indexes.includes(i))) };
    } else if (found.kind === "none") return null;
    else {
      let chosen = found.kind === "one" ? found.found : null;
      let offered = found.kind === "many" ? found.options : [];
      if (found.kind === "many") {
        // "email for tim at massive dynamic": those of them who work there, the one or the few.
        const atCompany = byCompany(found.all ?? found.options, base.names, 0);
        if (atCompany.length === 1) chosen = atCompany[0]!;
        else if (atCompany.length > 1) offered = atCompany.slice(0, 6);
      }
      if (found.kind === "many" && !chosen && offered === found.options) {
        // ("status of Ship emails in Partner API": the name went on past where it was cut.)
        const onward = goesOn(found.all ?? found.options, w.words, span);
        if (onward.length > 1) offered = onward;
        if (onward.length === 1) chosen = onward[0]!;
        // "status of ship permissions on mobile app": another name narrows it; else ask.
        else chosen = (await narrowByOthers(env.fetch, env.schema, offered, base.names, 0)) ?? (await narrowByValue(env, offered, base.names.slice(1)));
        // ("whats lynn's email": a first name alone, said of no kind of record, is the one colleague of that name.)
        const colleagues = found.options.filter((option) => option.resource.name === "employees");
        if (!chosen && !/\s/.test(span.text.trim()) && colleagues.length === 1) chosen = colleagues[0]!;
      }
      if (found.kind === "many" && !chosen) {
        const options = offered.map((option) => ({ resource: option.resource.name, id: option.record.id, label: option.label }));
        const asked = merge(parseQuery(w, env.schema, env.now, offered[0]!.resource), null, w.joined) ?? blank(offered[0]!.resource);
        return clarify(span.text, options, { kind: "query", query: asked, role: { subject: true } });
      }
      const picked = chosen!;
      R = picked.resource;
      const again = parseQuery(w, env.schema, env.now, R);
      query = merge(again, null, w.joined)!;
      query = applyRole(query, { subject: true }, { resource: R.name, id: picked.record.id, label: picked.label });
      // The names still to find: not the one just found, nor one that only narrowed it.
      const used = new Set([...span.indexes, ...base.names.filter((name) => !name.text).flatMap((name) => name.indexes)]);
      base = { ...again, names: again.names.filter((name) => !name.indexes.some((i) => used.has(i))) };
    }
  }
  if (base.reference && R) {
    // "task 57", "INV-000012": the record itself, or (payments on an invoice) what refers to it.
    const ref = base.reference;
    const record = await referencedRecord(env.fetch, ref.resource, ref);
    if (!record) return { reply: { intent: "lookup", text: `I couldn't find ${ref.resource.singular} ${ref.id ?? ref.q}.` } };
    const role = ref.resource === R ? ({ subject: true } as const) : [...R.fields.values()].find((field) => field.target === ref.resource.name);
    if (role)
      query = applyRole(query!, "subject" in role ? role : { field: role.name }, {
        resource: ref.resource.name,
        id: record.id,
        label: String(record[ref.resource.nameField ?? "id"]),
      });
  }
  let resolved = await resolveNames(env.fetch, env.schema, query!, base.names, env.values);
  // ("avg lead value, referrals vs website": two values told by their names are set side by side as the schema's own are.)
  if (resolved.kind === "query") resolved = { ...resolved, query: sideBySide(resolved.resource, w.joined, resolved.query) };
  // A resource only guessed from a shared word ("due" is an invoice's and a task's) whose records the names
  // do not fit: another resource with the same words, whose they do ("anything due this week for Shafi").
  if (resolved.kind === "query" && resolved.notFound.length > 0 && !draft.said.noun && !previous) {
    for (const other of env.schema.resources) {
      if (other.name === query!.resource || !sharesWords(w.words, other)) continue;
      const again = parseQuery(w, env.schema, env.now, other);
      const retry = merge(again, null, w.joined);
      if (!retry || retry.resource !== other.name) continue;
      const attempt = await resolveNames(env.fetch, env.schema, retry, again.names, env.values);
      if (attempt.kind !== "query" || attempt.notFound.length === 0) {
        resolved = attempt;
        break;
      }
    }
  }
  // "urgent stuff still in todo, all projects", "what priority is plan checkout in the mobile app project":
  // words no record has are the states or fields of a resource that refers to the one named ("urgent",
  // "todo", "priority" are a task's) — the question is about that one, if its names are then all found.
  if (resolved.kind === "query" && resolved.notFound.length > 0) {
    const missing = resolved.notFound.flatMap((text) => text.toLowerCase().split(/\s+/));
    const owner = env.schema.resources.find(
      (other) =>
        other.name !== query!.resource &&
        [...other.fields.values()].some((field) => field.target === query!.resource) &&
        missing.some(
          (word) =>
            [...other.fields.values()].some(
              (field) => (field.kind === "enum" && field.values?.some((value) => value.replace(/_/g, "") === word)) || field.words.includes(word),
            ) ||
            // ("…and how much of that is overdue": a filter word of the records that refer to these.)
            (other.skill?.filters ?? []).some((filter) => filter.words.includes(word)),
        ),
    );
    if (owner) {
      const again = parseQuery(w, env.schema, env.now, owner, true);
      const retry = merge(again, null, w.joined);
      if (retry?.resource === owner.name) {
        const attempt = await resolveNames(env.fetch, env.schema, retry, again.names, env.values);
        if (attempt.kind !== "query" || attempt.notFound.length === 0) resolved = attempt;
      }
    }
  }
  // "sales managers in SF": a noun ("sales") that, with the words after it, is a value some resource's
  // records use (a designation) — the question is about those records.
  if (resolved.kind === "query" && resolved.notFound.length > 0 && !previous) {
    const missing = resolved.notFound[0];
    const span = base.names.find((name) => name.text === missing);
    const at = span ? span.indexes[0]! - 1 : -1;
    const word = w.words[at] ?? "";
    const valued = word && !FILLER.has(word) && !GRAMMAR.has(word) ? await valueOfAnyResource(env, `${word} ${span!.text}`) : null;
    if (valued) {
      const again = parseQuery(w, env.schema, env.now, valued.resource, true);
      const retry = merge(again, null, w.joined);
      if (retry?.resource === valued.resource.name) {
        const label = `${valued.field.replace(/_/g, " ")} ${valued.values.join(" or ")}`;
        retry.conditions.push(
          valued.values.length === 1
            ? { field: valued.field, op: "eq", value: valued.values[0], label }
            : { field: valued.field, op: "in", value: valued.values, label },
        );
        const used = new Set([at, ...span!.indexes]);
        const names = again.names.filter((name) => !name.indexes.some((i) => used.has(i)));
        const attempt = await resolveNames(env.fetch, env.schema, retry, names, env.values);
        if (attempt.kind !== "query" || attempt.notFound.length === 0) resolved = attempt;
      }
    }
  }
  // "status of Draft exports on website relaunch": a state word ("draft" is an invoice's) that starts a record's
  // name — the question is about that record. ("when does the customer portal end": so does a noun.)
  const nounBefore = (() => {
    const missing = resolved.kind === "query" ? resolved.notFound[0] : undefined;
    const span = missing ? base.names.find((name) => name.text === missing) : undefined;
    const before = span ? w.words[span.indexes[0]! - 1] : undefined;
    return Boolean(before && R?.nouns.includes(before));
  })();
  if (resolved.kind === "query" && resolved.notFound.length > 0 && (!draft.said.noun || nounBefore) && !previous) {
    const missing = resolved.notFound[0];
    const spanIndex = base.names.findIndex((name) => name.text === missing);
    const span = base.names[spanIndex];
    const at = span ? span.indexes[0]! - 1 : -1;
    const word = at >= 0 ? w.tokens[at]?.raw : undefined;
    if (span && word && !FILLER.has(word.toLowerCase()) && !GRAMMAR.has(word.toLowerCase())) {
      const found = await findNamed(env.fetch, candidatesFor(null, env.schema), `${word} ${span.text}`);
      // (A task title several projects share: the project named with it decides.)
      const one =
        found.kind === "one" ? found.found : found.kind === "many" ? await narrowByOthers(env.fetch, env.schema, found.options, base.names, spanIndex) : null;
      if (one) {
        const found = { found: one };
        const owner = found.found.resource;
        const again = parseQuery(w, env.schema, env.now, owner, true);
        const retry = merge(again, null, w.joined);
        if (retry?.resource === owner.name) {
          const used = new Set([at, ...span.indexes]);
          const subject = applyRole(retry, { subject: true }, { resource: owner.name, id: found.found.record.id, label: found.found.label });
          // (Only the words around the name that are no state of the owner: "draft" named it.)
          subject.conditions = subject.conditions.filter((c) => !("field" in c && typeof c.value === "string" && c.value.toLowerCase() === word.toLowerCase()));
          const names = again.names.filter((name) => !name.indexes.some((i) => used.has(i)));
          const attempt = await resolveNames(env.fetch, env.schema, subject, names, env.values);
          if (attempt.kind !== "query" || attempt.notFound.length === 0) resolved = attempt;
        }
      }
    }
  }
  // "who's the client on website relaunch?": no such customer, but a record that has one — its customer is asked.
  if (resolved.kind === "query" && resolved.notFound.length > 0 && R && !previous && /^(?:who|whos|who's|what|whats|what's|which)\b/.test(w.joined)) {
    const missing = phraseWithoutTalk(resolved.notFound[0]!);
    for (const holder of env.schema.resources) {
      const field = [...holder.fields.values()].find((candidate) => candidate.target === R!.name);
      if (!field || !holder.nameField) continue;
      const found = await findNamed(env.fetch, [holder], missing);
      if (found.kind !== "one") continue;
      const asked = applyRole(blank(holder), { subject: true }, { resource: holder.name, id: found.found.record.id, label: found.found.label });
      return { reply: await runQuery(queryEnv(env), { ...asked, show: field.name }, env.refuse) };
    }
  }
  // "account exec pipeline by stage": no such deal, but an opening of that name, and records that belong to it
  // (its candidates) have what is asked (a stage) — the same question of those.
  if (resolved.kind === "query" && resolved.notFound.length > 0 && query && R && !previous && query.aggregate.groupBy) {
    const missing = phraseWithoutTalk(resolved.notFound[0]!);
    const asked = [query.aggregate.groupBy, query.show].filter((field): field is string => Boolean(field));
    for (const owner of env.schema.resources) {
      if (owner === R || !owner.nameField) continue;
      const member = env.schema.resources.find(
        (candidate) => candidate !== R && candidate !== owner && asked.every((field) => candidate.fields.has(field)) && linkTo(candidate, owner),
      );
      if (!member) continue;
      const found = await findNamed(env.fetch, [owner], missing);
      if (found.kind !== "one") continue;
      const measured = query.aggregate.field && member.fields.has(query.aggregate.field);
      const aggregate = measured ? query.aggregate : { ...query.aggregate, fn: "count" as const, field: null };
      const restricted = applyRole(
        { ...blank(member), aggregate, period: query.period?.field && member.fields.has(query.period.field) ? query.period : null },
        { field: linkTo(member, owner)!.name },
        {
          resource: owner.name,
          id: found.found.record.id,
          label: found.found.label,
        },
      );
      return { reply: await runQuery(queryEnv(env), restricted, env.refuse) };
    }
  }
  // "which projects belong to Umbrella", "whether Tim logged anything": a name not found for the words of how
  // people talk around it — those words left out, when what remains is then all found (and the question named
  // its kind of record, or follows one).
  // (Named also when its noun is said after a preposition: "what did we receive in payments last week".)
  const nounSaid = R?.nouns.some((noun) => new RegExp(`\\b${escapeRegExp(noun)}\\b`).test(w.joined));
  if (resolved.kind === "query" && resolved.notFound.length > 0 && query && (draft.said.resource || previous || nounSaid)) {
    const names = namesWithoutTalk(w, base.names, resolved.notFound);
    // (Still a name not found: that one is what to say was not found, not the talk around it.)
    if (names) resolved = await resolveNames(env.fetch, env.schema, query, names, env.values);
  }
  // "people in sales": a word another resource claims ("sales" is revenue) that, after "in", is one of this
  // resource's own values (a department) — when no condition on that field is there yet.
  if (resolved.kind === "query" && resolved.notFound.length === 0) {
    const known = await env.values(resolved.resource);
    for (const match of w.joined.matchAll(/\b(in|from|or|and)\s+(?:the\s+)?([a-z]{3,})\b/g)) {
      const value = matchValue(known, match[2]!);
      const same = resolved.query.conditions.find((c) => "field" in c && c.field === value?.field);
      if (!value?.exact || value.values.length !== 1 || base.names.some((name) => name.text.toLowerCase().includes(match[2]!))) continue;
      // ("openings in sales or marketing": the other value said with "or" joins the one already there;
      // "employees outside engineering and sales": both are left out.)
      const joined = match[1] === "or" || match[1] === "and" || / or /.test(w.joined);
      // ("how many ppl in engineering" → "and sales?": a follow-up opening with "and" asks about that value instead.)
      const instead = previous && match.index === 0 && match[1] === "and" && same && "field" in same && same.op === "eq";
      if (instead) Object.assign(same, { value: value.values[0], label: `${value.field.replace(/_/g, " ")} ${value.values[0]}` });
      else if (same && "field" in same && joined && same.value !== value.values[0] && (same.op === "eq" || same.op === "ne"))
        Object.assign(same, {
          op: same.op === "eq" ? "in" : "not_in",
          value: [same.value, value.values[0]],
          label: `${same.label} or ${value.values[0]}`,
        });
      else if (!same && match[1] !== "and")
        resolved.query.conditions.push({ field: value.field, op: "eq", value: value.values[0], label: `${value.field.replace(/_/g, " ")} ${value.values[0]}` });
    }
    // ("Which Sales employees joined before 2025?": so does such a word right before the resource's noun.)
    const nouns = resolved.resource.nouns.map((noun) => escapeRegExp(noun)).join("|");
    // (Not one left out: "non-sales employees", "excluding sales employees".)
    for (const match of w.joined.matchAll(new RegExp(`(?<![-\\w])([a-z]{3,})\\s+(?:${nouns})\\b`, "g"))) {
      if (FILLER.has(match[1]!) || GRAMMAR.has(match[1]!)) continue;
      if (/\b(?:not|non|except|excluding|outside(?: of)?|other than|without|besides|apart from)\s*$/.test(w.joined.slice(0, match.index))) continue;
      const value = matchValue(known, match[1]!);
      const same = resolved.query.conditions.some((c) => "field" in c && c.field === value?.field);
      if (!value?.exact || value.values.length !== 1 || same || base.names.some((name) => name.text.toLowerCase().includes(match[1]!))) continue;
      resolved.query.conditions.push({ field: value.field, op: "eq", value: value.values[0], label: `${value.field.replace(/_/g, " ")} ${value.values[0]}` });
    }
  }
  if (resolved.kind === "error") return { reply: { intent: "unknown", text: env.refuse(resolved.error) } };
  if (resolved.kind === "choose") {
    const options = resolved.options.map((option) => ({ resource: option.resource.name, id: option.record.id, label: option.label }));
    return clarify(resolved.text, options, resolved.resume);
  }
  if (resolved.kind === "missing") return { reply: { intent: "unknown", text: resolved.text } };
  if (resolved.notFound.length > 0)
    return {
      reply: {
        intent: "unknown",
        text: `I couldn't find "${resolved.notFound[0]}" among this workspace's ${resolved.resource.plural} or the records they refer to.`,
        // The question as understood so far, so "what about Globex?" can still follow it.
        data: { not_found: resolved.notFound, query: resolved.query },
      },
    };
  const asked = fieldAskedByForm(w.joined, resolved.query, resolved.resource);
  const reply = await runQuery(queryEnv(env), asked ?? resolved.query, env.refuse);
  return { reply: (await namedAfter(env, resolved.query, query!, reply)) ?? reply };
}

/** "email for Tim in engineering": of several so named, the one with a value another word of the message is (his department). */
async function narrowByValue(env: TurnEnv, options: Candidate[], others: NameSpan[]): Promise<Candidate | null> {
  for (const span of others) {
    if (!span.text) continue;
    for (const resource of new Set(options.map((option) => option.resource))) {
      const value = matchValue(await env.values(resource), span.text);
      if (!value?.exact) continue;
      const matching = options.filter((option) => option.resource === resource && value.values.includes(String(option.record[value.field] ?? "")));
      if (matching.length === 1) {
        span.text = "";
        return matching[0]!;
      }
    }
  }
  return null;
}

/**
 * "deals for nakatomi" when no deal refers to the customer Nakatomi but deals are named after it: those
 * deals (or their count or sum). Only for an empty answer whose one name became a reference; null otherwise.
 */
async function namedAfter(env: TurnEnv, answered: Query, asked: Query, reply: Reply): Promise<Reply | null> {
  const R = env.schema.byName.get(answered.resource)!;
  // (An empty list, or a count or sum of nothing: "total value of nakatomi deals" as much as "nakatomi deals".)
  const nothing = (answer: { kind?: string; total?: number; value?: unknown } | undefined) =>
    answer?.kind === "records"
      ? answer.total === 0
      : answer?.kind === "value" &&
        (answer.value === 0 || answer.value === null || (typeof answer.value === "object" && Object.keys(answer.value as object).length === 0));
  const answerOf = (of: Reply) => (of.data as { answer?: { kind?: string; total?: number; value?: unknown } } | undefined)?.answer;
  if (!nothing(answerOf(reply)) || !R.nameField || answered.subject) return null;
  const added = answered.conditions.filter(
    (condition) => !asked.conditions.includes(condition) && "field" in condition && condition.op === "eq" && R.fields.get(condition.field)?.target,
  );
  const name = added.length === 1 ? added[0]!.label.replace(/^(?:for|of|at|by|on|to|from|with|not) /, "") : "";
  if (!name || /[()]/.test(name)) return null;
  const conditions = answered.conditions.map((condition) =>
    condition === added[0] ? { field: R.nameField!, op: "contains" as const, value: name, label: `named after ${name}` } : condition,
  );
  const again = await runQuery(queryEnv(env), { ...answered, conditions }, env.refuse);
  return answerOf(again) && !nothing(answerOf(again)) ? again : null;
}

/** The first resource whose text-field list filter knows this value (or its singular). */
async function valueOfAnyResource(env: TurnEnv, text: string, who = false): Promise<{ resource: ResourceModel; field: string; values: string[] } | null> {
  const resources = env.schema.resources.filter((resource) => categoricalFields(resource).length > 0);
  const all = await Promise.all(resources.map((resource) => env.values(resource)));
  const matches = resources.flatMap((resource, index) => {
    const match = matchValue(all[index]!, text);
    return match ? [{ resource, field: match.field, values: match.values, exact: match.exact }] : [];
  });
  // A value as such first, then words of values; the resource in the schema's order ("who's in engineering":
  // a resource of people, named by a name rather than a title, first).
  const person = (match: (typeof matches)[number]) => !who || match.resource.nameField === "name";
  const best = matches.find((match) => match.exact && person(match)) ?? matches.find((match) => match.exact) ?? matches[0];
  return best ? { resource: best.resource, field: best.field, values: best.values } : null;
}

/** Whether a state of the resource (a value of its status or stage, or a filter's words) is said in the message. */
function statedOf(R: ResourceModel | undefined, w: Words): boolean {
  if (!R) return false;
  const text = ` ${w.joined} `;
  const states = ["status", "stage"].flatMap((name) => (R.fields.get(name)?.values ?? []).map((value) => value.replace(/_/g, " ")));
  const phrases = [...states, ...(R.skill?.filters ?? []).flatMap((filter) => filter.words)];
  return phrases.some((phrase) => phrase.length > 2 && text.includes(` ${phrase} `));
}

/** Whether a resource's date or state words occur in the message. */
function sharesWords(words: string[], R: ResourceModel): boolean {
  const phrases = [...R.dateWords.flatMap((date) => date.words), ...(R.skill?.filters ?? []).flatMap((filter) => filter.words)];
  const text = ` ${words.join(" ")} `;
  return phrases.some((phrase) => text.includes(` ${phrase} `));
}

/** The field of `member` that refers to a record of `owner` (a candidate's opening), if any. */
function linkTo(member: ResourceModel, owner: ResourceModel) {
  return [...member.fields.values()].find((field) => field.kind === "reference" && field.target === owner.name);
}

function blank(R: ResourceModel): Query {
  return {
    resource: R.name,
    conditions: [],
    period: null,
    aggregate: { fn: "list", field: null, groupBy: null, order: null, limit: null },
    subject: null,
    show: null,
  };
}

function clarify(text: string, unsorted: Choice[], resume: import("./query").Resume): Turn {
  // Alphabetical, so "the second one" means the same to everyone reading the list.
  const options = [...unsorted].sort((a, b) => a.label.localeCompare(b.label));
  const list = options.map((option, i) => `${i + 1}. ${option.label}`).join("\n");
  return {
    reply: {
      intent: "clarify",
      text: `${options.length === 2 ? "Two" : options.length} records match "${text}":\n${list}\nWhich one do you mean? (“the second one”, or its name)`,
      records: options,
      data: { choose: { options, resume } },
    },
  };
}

async function resume(env: TurnEnv, actionEnv: ActionEnv, state: ConversationState, choice: Choice): Promise<Turn> {
  const resumeWith = state.choose!.resume;
  if (resumeWith.kind === "query") {
    const query = applyRole(resumeWith.query, resumeWith.role, choice);
    return { reply: await runQuery(queryEnv(env), query, env.refuse) };
  }
  const draft = resumeWith.draft;
  const R = env.schema.byName.get(draft.resource)!;
  // (The record chosen, as it is now: confirming re-checks that it has not changed since.)
  const current = "target" in resumeWith.role ? await env.fetch(`/${R.name}?ids=${choice.id}`) : null;
  const version = current?.ok ? current.data[0]?.updated_at : undefined;
  const next: ActionDraft =
    "target" in resumeWith.role
      ? { ...draft, target: { id: choice.id, name: choice.label, ...(typeof version === "string" ? { version } : {}) } }
      : { ...draft, fields: { ...draft.fields, [resumeWith.role.field]: choice.id }, labels: { ...draft.labels, [resumeWith.role.field]: choice.label } };
  // ("assign review login to grace": which task, then which Grace — each asked in turn, nothing guessed.)
  const [after, ...later] = resumeWith.queued ?? [];
  if (after) return clarify(after.text, after.options, { kind: "action", draft: next, role: after.role, ...(later.length > 0 ? { queued: later } : {}) });
  return fromBuilt(env.schema, complete(actionEnv, R, next));
}

/** The value of the field an action was missing, read from the reply on its own ("priya@northwind.com"). */
/** "the one in sales", "the one at globex": of the options offered, the one record with that value (its department, company…). */
async function chosenByValue(env: TurnEnv, message: string, options: Choice[]): Promise<Choice | null> {
  const said =
    /^(?:(?:no,?\s+|i mean\s+)?the\s+one\s+(?:(?:who|that|which)(?:'s|\s+is)\s+(?:still\s+|currently\s+|now\s+)?)?|the\s+)(?:in|at|from|with|working at|who works at)\s+(?:the\s+)?(.+?)(?:\s+(?:one|team|department|dept|office|branch|stage))?\s*[?.!]*$/i.exec(
      message.trim(),
    )?.[1];
  if (!said) return null;
  const matching: Choice[] = [];
  for (const resource of new Set(options.map((option) => option.resource))) {
    const ids = options.filter((option) => option.resource === resource).map((option) => option.id);
    const found = await env.fetch(`/${resource}?ids=${ids.join(",")}`);
    if (!found.ok) continue;
    for (const record of found.data)
      if (hasValue(record, said)) matching.push(options.find((option) => option.resource === resource && option.id === record.id)!);
  }
  return matching.length === 1 ? matching[0]! : null;
}

async function fillSlot(env: TurnEnv, actionEnv: ActionEnv, message: string, slot: NonNullable<ConversationState["slot"]>): Promise<Turn | null> {
  const R = env.schema.byName.get(slot.draft.resource)!;
  const field = slot.missing[0]!;
  const w = wordsOf(message, env.vocabulary);
  // (Read as normalised: "90 mins" is 90 minutes.)
  const cue = { op: slot.draft.operation === "create" ? "create" : "update", verb: "set", at: 0, rest: w.text };
  const fields = { ...slot.draft.fields };
  const labels = { ...slot.draft.labels };
  // The reply is the missing value itself ("Website", "priya@northwind.example", "friday"): read for that field only.
  const built = await build(actionEnv, w, cue, R, null);
  if (built.kind === "proposal" || built.kind === "missing")
    for (const name of slot.missing) {
      if (built.draft.fields[name] === undefined || ["name", "title"].includes(name)) continue;
      fields[name] = built.draft.fields[name];
      if (built.draft.labels?.[name]) labels[name] = built.draft.labels[name];
    }
  // "3,348.79, bank transfer": a value of a choice the reply gives besides the one asked for is kept too.
  // ("2 training sessions at €736": so is the currency its prices were said in.)
  const body = (slot.draft.operation === "create" ? R.create : R.update) ?? [];
  if (built.kind === "proposal" || built.kind === "missing")
    for (const extra of body)
      if (
        (extra.values || !["text", "reference"].includes(extra.kind) || extra.name === "currency") &&
        fields[extra.name] === undefined &&
        built.draft.fields[extra.name] !== undefined
      )
        fields[extra.name] = built.draft.fields[extra.name];
  if (fields[field] === undefined) {
    const model = body.find((candidate) => candidate.name === field);
    const target = model?.kind === "reference" ? env.schema.byName.get(model.target!) : undefined;
    // ("put it against 303": a bare number is the record of that number, where records have numbers.)
    const number = /^(?:(?:put|book|apply|record|log)\s+(?:it|them|that|this)\s+)?(?:(?:it'?s|on|to|against|for)\s+)?(?:#|no\.?\s*)?(\d{1,9})\s*[.!]*$/i.exec(
      message.trim(),
    )?.[1];
    const numbered = number && target?.skill?.reference ? await referencedRecord(env.fetch, target, target.skill.reference.query(number)) : undefined;
    if (numbered && target) {
      fields[field] = numbered.id;
      labels[field] = labelOf(target, numbered);
    } else if (model?.kind === "reference") {
      const found = await findNamed(
        env.fetch,
        [env.schema.byName.get(model.target!)!],
        message
          // ("put it against 303", "it's for the website project": the record, without the words that place it.)
          .replace(/^(?:(?:put|book|apply|record|log|add|assign|move)\s+(?:it|them|that|this)\s+)?(?:(?:it'?s|in|on|for|against|to|under|the)\s+)*/i, "")
          .trim(),
      );
      if (found.kind === "one") {
        fields[field] = found.found.record.id;
        labels[field] = found.found.label;
      } else if (found.kind === "many")
        return clarify(
          message,
          found.options.map((option) => ({ resource: option.resource.name, id: option.record.id, label: option.label })),
          { kind: "action", draft: { ...slot.draft, fields }, role: { field } },
        );
    } else if (model?.kind === "text" || field === "title" || field === "name") {
      // ("name is Steiner Bau GmbH", "it's called Q1 cleanup": the value, without the words that introduce it.)
      // ("its Lumen Dental Group, billing@…": the name ends where the other details begin.)
      const said = message
        .trim()
        .replace(/^(?:(?:the\s+)?(?:name|title)(?:'s|\s+is|\s*:)|it'?s\s+called|call\s+it|called|name\s+it|title\s+it|it'?s|it\s+is)\s+/i, "");
      const details = /^(.+?)\s*,\s*((?:\S+@\S+|\+?\d[\d ()-]{6,}|based in|located in|in the|in|at|from|remote|department|dept|branch|email|phone)\b.*)$/i.exec(
        said,
      );
      fields[field] = (details?.[1] ?? said).replace(/^['"“](.+)['"”]$/, "$1");
      // (What follows the name is read as the record's other fields: "…, billing@…", "…, based in san francisco".)
      if (details) {
        const rest = details[2]!.replace(/^(?:based|located)\s+in\s+/i, R.fields.has("branch") ? "branch " : "in ");
        const more = await build(actionEnv, wordsOf(rest, env.vocabulary), { ...cue, rest }, R, null);
        if (more.kind === "proposal" || more.kind === "missing")
          for (const [name, value] of Object.entries(more.draft.fields))
            if (fields[name] === undefined && !["name", "title"].includes(name)) {
              fields[name] = value;
              if (more.draft.labels?.[name]) labels[name] = more.draft.labels[name];
            }
      }
    }
  }
  if (fields[field] === undefined) return null;
  const draft = { ...slot.draft, fields, labels };
  const missing = slot.missing.filter((name) => draft.fields[name] === undefined);
  if (missing.length > 0)
    return fromBuilt(env.schema, {
      kind: "missing",
      draft,
      missing,
      text: `Thanks. I still need the ${missing.map((name) => name.replace(/_id$/, "").replace(/_/g, " ")).join(" and ")}.`,
    });
  return fromBuilt(env.schema, proposal(actionEnv, R, draft));
}

/** An action's kind, as before the schema-driven engine: "create_task", "send_invoice", "hire_candidate". */
function kindOf(schema: SchemaModel, draft: ActionDraft): string {
  const singular = schema.byName.get(draft.resource)?.singular ?? draft.resource;
  return `${draft.operation}_${singular.replace(/[\s-]+/g, "_")}`;
}

function fromBuilt(schema: SchemaModel, built: Built): Turn {
  switch (built.kind) {
    case "proposal":
      return {
        reply: { intent: "action", text: built.summary, records: built.records, data: { draft: built.draft, request: built.request } },
        proposal: { kind: kindOf(schema, built.draft), resource: built.draft.resource, request: built.request, summary: built.summary },
      };
    case "missing":
      return { reply: { intent: "action", text: built.text, data: { missing: built.missing, slot: { draft: built.draft, missing: built.missing } } } };
    case "choose":
      return clarify(
        built.text,
        built.options.map((option) => ({ resource: option.resource.name, id: option.record.id, label: option.label })),
        built.resume,
      );
    default:
      return { reply: { intent: "action", text: built.text } };
  }
}

/** The vocabulary, built once per schema. */
export function vocabularyFor(schema: SchemaModel, catalog: import("../understand").Catalog): Set<string> {
  return vocabularyOf(schema, catalog);
}
