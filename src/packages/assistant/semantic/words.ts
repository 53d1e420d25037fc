import { correct, correctCalendar, NUMBER_WORDS, type Token, tokenize } from "../text";

/**
 * A message as words: shorthand and contractions spelled out ("r" → are, "arent" → are not, "2h" → 2
 * hours, "1h30" → 90 minutes), typos in domain words corrected against the schema's vocabulary, and the
 * spelling of every token kept for names and titles.
 */

const SHORTHAND: Record<string, string> = {
  rn: "currently",
  r: "are",
  u: "you",
  ur: "your",
  yr: "year",
  yrs: "years",
  mo: "month",
  mos: "months",
  wk: "week",
  wks: "weeks",
  hrs: "hours",
  hr: "hours",
  mins: "minutes",
  pls: "please",
  plz: "please",
  tmrw: "tomorrow",
  tmr: "tomorrow",
  tmw: "tomorrow",
  yday: "yesterday",
  yest: "yesterday",
  prio: "priority",
  dept: "department",
  depts: "departments",
  qtr: "quarter",
  amt: "amount",
  b4: "before",
  thru: "through",
  w: "with",
  ppl: "people",
  mgr: "manager",
  mgrs: "managers",
  mngr: "manager",
  mngrs: "managers",
  eod: "today",
  asap: "today",
  info: "details",
  nonbillable: "non billable",
  inv: "invoice",
  invs: "invoices",
  oppty: "deal",
  opps: "deals",
  opp: "deal",
  whos: "who is",
  pmt: "payment",
  pmts: "payments",
  pymt: "payment",
  pymts: "payments",
  cust: "customer",
  mv: "move",
  custs: "customers",
  yesterdays: "yesterday",
  mnth: "month",
  mth: "month",
  mths: "months",
  nxt: "next",
  emp: "employee",
  emps: "employees",
  proj: "project",
  projs: "projects",
  projct: "project",
  bc: "because",
  ops: "operations",
  wich: "which",
  invocie: "invoice",
  remnder: "reminder",
  reminer: "reminder",
  remider: "reminder",
  invoce: "invoice",
  invioce: "invoice",
  inovice: "invoice",
  invocies: "invoices",
  shud: "should",
  shld: "should",
  actve: "active",
  prioirty: "priority",
  priorty: "priority",
  piority: "priority",
  taks: "tasks",
  whens: "when's",
  wheres: "where's",
  tsks: "tasks",
  tsk: "task",
  recrod: "record",
  tasl: "task",
  invoces: "invoices",
  recieved: "received",
  recieve: "receive",
  recived: "received",
  payed: "paid",
  todays: "today",
  wat: "what",
  wut: "what",
  waht: "what",
  whta: "what",
  teh: "the",
  thier: "their",
  atm: "now",
  updte: "update",
  upate: "update",
  tomorow: "tomorrow",
  thats: "that's",
  delte: "delete",
  dlete: "delete",
  delet: "delete",
  remvoe: "remove",
  debtors: "customers",
  paymnet: "payment",
  paymnets: "payments",
  paymet: "payment",
};

/** Misspelt nouns the phrase rules below look for ("german custmers"): spelt right before those rules run. */
const MISSPELT_NOUNS: Record<string, string> = {
  custmer: "customer",
  custmers: "customers",
  cusomer: "customer",
  cusomers: "customers",
  costumer: "customer",
  costumers: "customers",
  custommers: "customers",
};

/** A country by its people's adjective ("german customers"). */
const DEMONYMS: Record<string, string> = {
  german: "Germany",
  french: "France",
  british: "the United Kingdom",
  english: "the United Kingdom",
  american: "the USA",
  dutch: "the Netherlands",
  spanish: "Spain",
  italian: "Italy",
  japanese: "Japan",
  canadian: "Canada",
  australian: "Australia",
  swiss: "Switzerland",
  irish: "Ireland",
  austrian: "Austria",
  belgian: "Belgium",
  swedish: "Sweden",
  danish: "Denmark",
  norwegian: "Norway",
  polish: "Poland",
  indian: "India",
  chinese: "China",
  brazilian: "Brazil",
  mexican: "Mexico",
};

const NEGATED = /\b(are|is|do|does|did|have|has|was|were|ca|wo|ai|should|could|would)n[’']?t\b/gi;

/** What is done to an invoice that is already out: a bare number beside it is the invoice's. */
const INVOICE_DEED =
  /\b(?:remind(?:er)?|chase|nudge|void|cancel|kill|resend|re-send|send|sent|trash|delete|paid|pay|pays|got|due|draft|billed|duplicate|wrong)\b/i;
const NOT_AN_INVOICE =
  /^(?:[.,:/-]\d|\s*(?:%|k\b|st\b|nd\b|rd\b|th\b|hours?|hrs?|h\b|days?|weeks?|months?|years?|minutes?|mins?|each|usd|eur|gbp|dollars?|euros?|bucks|pounds?|seats?|sessions?|licen[cs]es?|people|employees|units?|pcs|x\b|at\b|@|reminders?|invoices?|emails?|items?|lines?|times?|on\b|for\b|to\b|of\b|in\b)|\s+(?!(?:pls|thanks|was|is|has|does|as|its|this|yes|always|plus|status|us)\b)[a-z]{2,}s\b)/i;

/**
 * "remind stark about 116", "void 109 pls", "tyrell's 287 was a duplicate", "stark paid 1.5k on 216": a bare
 * number of two to four figures beside what is done to invoices already out is an invoice's number — unless
 * it is an amount, a date, a count of something or a year, or the message creates an invoice.
 */
function bareInvoiceNumbers(text: string): string {
  if (/\bINV-\d/.test(text)) return text;
  if (/^(?:(?:pls|please|can you|could you)\s+)?(?:new|create|make|raise|draft an?|invoice|bill)\b|\b(?:new|create|raise)\s+(?:an?\s+)?invoice\b/i.test(text))
    return text;
  // ("Gringotts paid invoice 190 yesterday — five hundred dollars": said with the word, the number is the invoice's,
  // money or not; then no other bare number is — "got 500 … for invoice 98".)
  let named = false;
  text = text.replace(/\b(?:invoice|inv)\s*(?:no\.?\s*|#\s*|number\s+)?(\d{2,4})\b/gi, (match, digits: string, at: number) => {
    if (NOT_AN_INVOICE.test(text.slice(at + match.length)) || /^(?:19|20)\d\d$/.test(digits)) return match;
    named = true;
    return `INV-${digits.padStart(6, "0")}`;
  });
  if (named || !INVOICE_DEED.test(text)) return text;
  if (
    /[$€£]|\b(?:usd|eur|gbp|dollars?|euros?|bucks)\b/i.test(
      text.replace(/\bpaid\s+[$€£]?\d[\d,.]*k?\s*(?:usd|eur|gbp|dollars?|euros?|bucks)?\s+(?:on|for|of|to)\b/gi, ""),
    )
  )
    return text;
  const months = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december";
  const lead = new RegExp(
    `(\\b(?:on|for|about|of|remind|chase|nudge|void|cancel|kill|resend|re-send|send|trash|delete|draft|paid|got|invoice|number|no\\.?|says|said)\\s+(?:the\\s+|invoice\\s+|inv\\s+|#\\s*)?|['’]s\\s+|#)(?<!\\b(?:${months})\\s+)(\\d{2,4})\\b`,
    "gi",
  );
  return text.replace(lead, (match, before: string, digits: string, at: number) => {
    const after = text.slice(at + match.length);
    if (NOT_AN_INVOICE.test(after) || (/^(?:19|20)\d\d$/.test(digits) && digits.length === 4)) return match;
    // ("gringotts paid 1500 by card": what was paid, and how; "paid 1.5k on 216 by card" names the invoice.)
    if (/^(?:paid|got)\s+$/i.test(before) && /^\s*(?:by|via|in)\s+(?:card|credit card|bank|wire|transfer|cash|check|cheque|ach|paypal|stripe)\b/i.test(after))
      return match;
    return `${before}INV-${digits.padStart(6, "0")}`;
  });
}

/**
 * ("how much did we bill that month? leave out voids and drafts obviously", "who's in berlin? current staff only"): a
 * condition said after the question is part of it, not a sentence of its own.
 */
/** The verb a polite "would you mind …ing" asks for. */
const GERUNDS: Readonly<Record<string, string>> = Object.fromEntries(
  "list show set add create send mark move change give tell pull make put log record update check find remove delete close assign reassign email void push open hire reject convert archive rename count book enter note schedule cancel resend remind"
    .split(" ")
    .map((verb) => {
      const doubled = /^(?:set|put|log|get|cancel)$/.test(verb) ? `${verb}${verb.at(-1)}ing` : verb.endsWith("e") ? `${verb.slice(0, -1)}ing` : `${verb}ing`;
      return [doubled, verb];
    }),
);

/**
 * "Would you mind listing …", "I'd like a list of …", "I'd like to know …", "Kindly give the count of …": a
 * polite frame around the request, said as the request.
 */
function politely(text: string): string {
  return text
    .replace(/^(?:(?:and|so|ok|okay)[,\s]+)?(?:would|do)\s+you\s+mind\s+([a-z]+ing)\b/i, (whole, gerund: string) => {
      const verb = GERUNDS[gerund.toLowerCase()];
      return verb ? `please ${verb}` : whole;
    })
    .replace(/^i(?:'d| would)\s+like\s+(?:a\s+)?(?:list|rundown|breakdown)\s+of\s+/i, "list ")
    .replace(/^i(?:'d| would)\s+like\s+to\s+(?:see|get|have|view)\s+/i, "show ")
    .replace(/^i(?:'d| would)\s+like\s+to\s+(?:know|find out|check|understand)\s+(?=\S)/i, "")
    .replace(/^i(?:'d| would)\s+like\s+(?:you\s+)?to\s+(?=[a-z]+\b)/i, "please ")
    .replace(/^(?:please|pls|kindly)\s+(?:give|provide|share)\s+(?:me\s+|us\s+)?(?=\S)/i, "show ")
    .replace(/\bper\s+each\b/gi, "per");
}

export function withAfterthoughts(text: string): string {
  return (
    text
      .replace(/\b(?:leave|keep|take)\s+((?:the\s+|any\s+|all\s+)?(?!out\b)[a-z]+(?:\s+(?!out\b)[a-z]+)?)\s+out\b(?!\s+of\b)/gi, "leave out $1")
      // ("…, leave out voided invoices": the state left out — the records' noun again is not what is asked.)
      .replace(
        /\b(leave out|leaving out|excluding|exclude|except|without|ignoring|ignore|not counting|minus|skip|skipping)\s+(?:the\s+|any\s+|all\s+)?(void|voided|drafts?|paid|unpaid|overdue|sent|cancell?ed|lost|won|done|closed|completed|finished|rejected|archived)\s+(invoices|deals|tasks|leads|payments|projects|candidates|bills)\b/gi,
        "$1 the $2 ones",
      )
      .replace(
        /\?\s+((?:and\s+)?(?:leave out|leaving out|excluding|exclude|not counting|ignore|ignoring|without|minus|skip)\b[^?.!]*?)(?:\s+(?:obviously|obvs|pls|please|thanks|thx))?[.!]*$/i,
        ", $1",
      )
      .replace(/\?\s+(?:current|active)\s+(?:staff|employees|people|team)\s+only[.!]*$/i, ", not left")
  );
}

const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1_000_000 };
const NUMBER_WORD = `(?:${Object.keys(NUMBER_WORDS).join("|")})`;
const NUMBER_PHRASE = new RegExp(
  `\\b((?:${NUMBER_WORD}|a)(?:[\\s-]+(?:and\\s+)?(?:${NUMBER_WORD}|hundred|thousand|million))*)\\b(?=(\\s+(?:dollars?|bucks|euros?|pounds?|usd|eur|gbp|k\\b|grand|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|sessions?|licen[cs]es?|seats?|units?|lines?))?)`,
  "gi",
);

/**
 * A question, not news or a command: a question mark, or a question word (or "I"/"we" hedging) opening it. The
 * rewrites that read news as a change ("X is taking over Y", "X is a new client") leave these alone.
 */
const ASKED =
  /\?|^(?:who|whos|who's|what|whats|what's|which|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|any|anyone|anybody|i|i'm|im|we|we're)\b/i;

/** What a number said in words cannot be followed by: an ordinal's ending ("twenty-first") or a decimal point. */
const NOT_A_NUMBER = /^(?:-?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|th)\b|\s+point\b)/i;

/** Tens then a unit ("twenty five"), units before a scale ("five hundred"): not "four thirty" nor "twenty thirty". */
function wellFormed(tokens: string[]): boolean {
  for (let i = 1; i < tokens.length; i++) {
    const [before, now] = [NUMBER_WORDS[tokens[i - 1]!], NUMBER_WORDS[tokens[i]!]];
    if (before === undefined || now === undefined) continue;
    if (before < 20 || before % 10 !== 0 || now >= 10) return false;
  }
  return true;
}

/**
 * "above five hundred dollars", "worth more than fifty thousand", "ten hours of consulting": a number said in words,
 * in figures. Only a number with a scale or a tens word in it, or one before what it counts — not "the one who".
 */
function numbersInWords(text: string): string {
  return text.replace(NUMBER_PHRASE, (phrase: string, words: string, unit: string | undefined, offset: number) => {
    const tokens = words
      .toLowerCase()
      .split(/[\s-]+/)
      .filter((token) => token !== "and");
    // ("Forty Acres Bakery" is a name; "the twenty-first", "one point five", "four thirty", "one fifty an hour" are
    // no sums of their words: a tens word only before a unit, a unit only after a tens word or a scale.)
    // ("Ten hours of consulting": one word in capitals, before what it counts, opens a sentence.)
    if (
      (/\p{Lu}/u.test(words) && !(unit && /^\p{Lu}\p{Ll}+$/u.test(words))) ||
      NOT_A_NUMBER.test(text.slice(offset + phrase.length)) ||
      /\bpoint\s*$/i.test(text.slice(0, offset))
    )
      return phrase;
    if (!wellFormed(tokens)) return phrase;
    const scaled = tokens.some((token) => token in SCALES);
    const tens = tokens.some((token) => (NUMBER_WORDS[token] ?? 0) >= 20);
    if (tokens[0] === "a" && !scaled) return phrase;
    if (!scaled && !tens && !unit) return phrase;
    let total = 0;
    let current = 0;
    for (const token of tokens) {
      if (token === "a") current = 1;
      else if (token in NUMBER_WORDS) current += NUMBER_WORDS[token]!;
      else if (token === "hundred") current = (current || 1) * 100;
      else {
        total += (current || 1) * SCALES[token]!;
        current = 0;
      }
    }
    return String(total + current);
  });
}

export function normalize(message: string): string {
  let text = correctCalendar(message.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, " ").trim());
  // ("an hour and a half", "seven and a half hours", "three quarters of an hour": in figures.)
  text = text
    .replace(/\b(?:an?|one)\s+hour\s+and\s+(?:a\s+)?half\b/gi, "1.5 hours")
    .replace(
      /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+and\s+a\s+half\s+(hours?|hrs?|days?)\b/gi,
      (_m, n: string, unit: string) => `${(NUMBER_WORDS[n.toLowerCase()] ?? Number(n)) + 0.5} ${unit}`,
    )
    .replace(/\bhalf\s+an\s+hour\b/gi, "30 minutes")
    .replace(/\b(?:three|3)\s+quarters\s+of\s+an\s+hour\b/gi, "45 minutes")
    .replace(/\ba\s+quarter\s+of\s+an\s+hour\b/gi, "15 minutes");
  text = numbersInWords(text);
  text = text
    // ("Morning. What's our total open AR?": a greeting, not this morning.)
    .replace(/^(?:good\s+)?(?:morning|afternoon|evening)\s*[,.!]+\s+(?=\S)/i, "")
    // ("hours by Shafi in October, project wise", "department-wise please": grouped by it.)
    // (Not a surname: "Ernie Wise".)
    .replace(/\b([A-Za-z]+)(?:-|\s+)wise\b/g, (whole, word: string) =>
      /^(?:other|like|clock|counterclock|street|penny|pound)$/i.test(word) ? whole : `by ${word}`,
    )
    // ("how much is pending from Umbrella till date": so far — no period, nor part of a name.)
    .replace(/\b(?:till|until|up\s*to)\s+date\b|(?<!\b(?:year|month|quarter|week)\s)\bto\s+date\b/gi, "so far")
    // (Dictated: "uh", "um" are no words of the request; "billing at baxter reno dot com" is an address.)
    .replace(/(?<![\p{L}'])(?:u+h+|u+m+|uhm+|erm+)(?![\p{L}'])[,.]?\s*/giu, "")
    .replace(
      /\b([a-z0-9][a-z0-9._-]*)\s+at\s+((?:[a-z0-9-]+\s+){0,2}?[a-z0-9-]+)\s+dot\s+(com|example|io|co|org|net|dev|app|biz|info|de|uk|fr|es|it|nl|se|no|dk|fi|at|ch|eu|us|ca|au|in|jp)\b/gi,
      (_m, local: string, domain: string, top: string) => `${local}@${domain.replace(/\s+/g, "")}.${top}`.toLowerCase(),
    )
    // ("new contact at stark her name is rita moreno": what she is called.)
    .replace(/,?\s+(?:and\s+)?(?:his|her|their)\s+name\s+is\s+(?=\p{L})/giu, ", called ")
    // ("that lead shafi hopper from acme …": the one of them named.)
    .replace(/^(?:(?:so|ok|okay)\s+)?that\s+(lead|contact|candidate|customer|client|applicant|employee|deal|project|task)\s+(?=\p{L})/iu, "the $1 ")
    // ("please do the needful and mark it done": the request is what follows.)
    .replace(/\b(?:please\s+|kindly\s+)?do\s+the\s+needful(?:\s+and)?\s*/gi, "please ")
    // ("move it back to in progress", "set it back to open": where it goes; "back" is no name.)
    .replace(/\b((?:move|moved|put|set|change|changed|switch|revert|mark|flip)\s+(?:\S+\s+){0,4}?)back\s+(?=(?:to|into)\s)/gi, "$1")
    // ("send the in voice for oscorp", "all the in voices for pied piper": dictation's split of invoice(s).)
    .replace(/\bin\s+(voice|voices)\b(?!\s+(?:chat|call|calls|message|messages|note|notes|mail|memo)\b)/gi, (_m, word: string) => `in${word}`)
    // ("Please share list of projects …", "kindly share the details of …": asked to be shown.)
    .replace(/\bshare\s+(?:me\s+)?(?:the\s+|a\s+)?(?:list|details|report)\s+of\b/gi, "list")
    // ("follow up list: referral leads we contacted …": what the list is for, said as its heading.)
    .replace(/^(?:[\p{L}-]+\s+){0,2}list\s*:\s*(?=\S)/iu, "")
    // ("AR aging — overdue balance by customer": what is owed past its due date.)
    .replace(/\b(?:a\/?r\s+)?(?:aging|ageing)(?:\s+report)?\b/gi, "overdue")
    // ("billed acme all-time, net of voids", "…, voids excluded": without those.)
    .replace(/\bnet\s+of\s+(?=\p{L})/giu, "excluding ")
    .replace(/\b(\p{L}+)\s+(?:excluded|left\s+out|not\s+included)\b/giu, "excluding $1")
    // ("how much of the website relaunch is done so far": how far along it is.)
    .replace(
      /\bhow\s+much\s+of\s+(?:the\s+)?(.+?)\s+(?:is|has\s+been|got)\s+(?:done|finished|completed|complete)(?:\s+(?:so\s+far|yet|already|now))?\b/gi,
      "how much is done on $1",
    )
    // ("invoices that have only been paid in part", "had a partial payment": partially paid.)
    .replace(/\b(?:(?:have|has)\s+(?:only\s+)?been|were|was|got|are|is)\s+(?:only\s+)?paid\s+in\s+part\b/gi, "are partially paid")
    .replace(/\b(?:have|has|had)\s+(?:had\s+)?(?:a|some)\s+partial\s+payments?\b/gi, "are partially paid")
    // ("leads that came in since october": those created then — money comes in, leads arrive.)
    .replace(
      /\b(leads|candidates|applicants|applications|contacts|customers|clients|deals|enquiries|inquiries)\s+(?:that|which|who)?\s*(?:came|come|have\s+come|has\s+come|got)\s+in(\s+(?:through|thru|via|from)\b)?/gi,
      (_m, noun: string, via?: string) => `${noun} created${via ? " from" : ""}`,
    )
    // ("new joiners in q3", "new starters": people hired then.)
    .replace(/\bnew\s+(?:joiners|starters)\b/gi, "new hires")
    .replace(/\bnew\s+(?:joiner|starter)\b/gi, "new hire")
    // ("of the leads that came in since october, how many have converted?": how many of them.)
    .replace(/^of\s+(the|our|all(?:\s+the)?|those|these)\s+([^,?]+?),\s*(how\s+many|how\s+much|which|what\s+share)\s+(.+)$/i, "$3 of $1 $2 $4")
    // ("a balance higher than 5k", "bigger then 100k", "shorter than an hour": the comparison, in its plain words.)
    .replace(/\b(more|less|longer|shorter|older|newer|higher|lower|bigger|smaller|larger|greater)\s+then\b/gi, "$1 than")
    .replace(/\b(?:higher|larger|bigger|greater)\s+than\b/gi, "more than")
    .replace(/\b(?:lower|smaller)\s+than\b/gi, "less than")
    .replace(/\bthan\s+(?:an?|one)\s+hour\b/gi, "than 60 minutes")
    // ("leads we've received through referrals": where they came from.)
    .replace(/\b(received|came|come|got|arrived|sourced|found)(?:\s+us)?\s+(?:in\s+)?(?:through|thru|via)\b/gi, "$1 from")
    // ("the total tax we billed customers in Q2": what was billed; "customers" is who it went to.)
    .replace(
      /\b(we|i|you|they)\s+((?:have\s+|'ve\s+)?(?:billed|charged|invoiced))\s+(?:our\s+|the\s+)?(?:customers|clients)\b(?!\s+(?:who|that|which|with|in|from)\b)/gi,
      "$1 $2",
    )
    // ("deals a competitor beat us on", "which deals did a competitor take from us": lost to a competitor.)
    .replace(
      /\b(?:did\s+)?(?:a|the|some)\s+competitors?\s+(?:beat\s+us\s+(?:on|to|for)|(?:take|took|steal|stole|win|won|snatch|snatched)\s+(?:away\s+)?from\s+us)\b/gi,
      "we lost to a competitor",
    )
    // ("the July–September quarter": that quarter.)
    .replace(
      /\b(?:the\s+)?(jan(?:uary)?|apr(?:il)?|jul(?:y)?|oct(?:ober)?)\s*(?:–|—|-|to|through)\s*(?:mar(?:ch)?|jun(?:e)?|sep(?:t(?:ember)?)?|dec(?:ember)?)\s+quarter\b/gi,
      (_m, first: string) => (/^jan/i.test(first) ? "q1" : /^apr/i.test(first) ? "q2" : /^jul/i.test(first) ? "q3" : "q4"),
    )
    // ("during Q2", "during october": in it.)
    .replace(/\bduring\b/gi, "in")
    // ("the five people with the highest count of urgent tasks": the top five by it.)
    .replace(
      /\bthe\s+(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+(people|employees|customers|clients|projects)\s+with\s+the\s+(?:highest|biggest|largest)\s+(?:count|number)\s+of\b/gi,
      "top $1 $2 by number of",
    )
    // ("the people we might sell to", "put up a job ad": a newcomer's words for leads and job openings.)
    .replace(/\b(?:the\s+)?(?:people|folks|companies|prospects)\s+we\s+(?:might|could|may|want to|hope to)\s+sell\s+to\b/gi, "leads")
    .replace(/\ba\s+(?:person|company|prospect)\s+we\s+(?:might|could|may)\s+sell\s+to\b/gi, "a lead")
    .replace(/\bjob\s+ads?\b/gi, (ad) => (/s$/i.test(ad) ? "job openings" : "job opening"))
    .replace(/\bput\s+up\s+(?=(?:a|an|one|the)\s+(?:new\s+)?job\s+opening)/gi, "create ")
    // ("number of remittances received in september": payments.)
    // (Not in what a note is to say: "… on your remittance.")
    .replace(/\bremittances\b(?![^'"‘“]*['"’”])/gi, "payments")
    // ("tasks in the review stage", "deals in the proposal stage": in that state.)
    // (Not "in each stage", "in the same stage": which stage is not said.)
    .replace(
      /\bin\s+the\s+(?!(?:same|next|final|last|current|first|early|late|wrong|right|other|each|every)\b)((?!(?:by|per|for|of|with|and|or)\b)[a-z][a-z-]*(?:\s+(?!(?:by|per|for|of|with|and|or)\b)[a-z][a-z-]*)?)\s+(?:stage|status|column|state|phase)\b/gi,
      "in $1",
    )
    .replace(
      /\bin\s+(?!(?:each|every|which|what|the|a|an|this|that|any|its|their|our|his|her|same|next|final|last|current|first|early|late|other)\b)((?!(?:by|per|for|of|with|and|or)\b)[a-z][a-z-]*(?:\s+(?!(?:by|per|for|of|with|and|or)\b)[a-z][a-z-]*)?)\s+(?:stage|column|phase)\b(?!\s+(?:of|is|was)\b)/gi,
      "in $1",
    )
    .replace(/\b(in|still|into|back\s+to|status)\s+to-do\b/gi, "$1 todo")
    // ("staff who are not part of the engineering department": not in it.)
    .replace(/\bnot\s+(?:a\s+)?part\s+of\s+(?:the\s+)?/gi, "not in ")
    // ("total collected from customers", "each payment a customer sends us": what came in.)
    .replace(/\b(collected|received|taken\s+in)\s+from\s+(?:our\s+|the\s+)?(?:customers|clients)\b/gi, "$1")
    .replace(/\b(?:a|the|our)\s+(?:customer|client)\s+(?:sends|pays)\s+us\b/gi, "we receive")
    // ("and the prior week?": the one before.)
    .replace(/\b(?:the\s+)?prior\s+(day|week|month|quarter|year)\b/gi, "the $1 before")
    // ("projects whose end date falls in november": is in it.)
    .replace(/\b(?:falls?|falling)\s+(?=(?:in|on|within|between|before|after)\b)/gi, "")
    // ("time booked against the customer portal": on it.)
    .replace(/\b(booked|logged|spent|put|clocked)\s+against\b/gi, "$1 on")
    // ("can you mail out INV-…", "get invoice #98 over to billing@… by email": send it.)
    .replace(/\b(?:e-?mail|mail)\s+out\b/gi, "send")
    .replace(/\bget\s+(.{1,40}?)\s+over\s+to\s+(\S+@\S+?)\s+(?:by|via)\s+e-?mail\b/gi, "send $1 to $2")
    // ("high priority tasks not given to anybody": nobody's.)
    .replace(/\b(?:which\s+are\s+|that\s+are\s+)?not\s+(?:given|assigned|allocated)\s+to\s+(?:anybody|anyone|somebody|someone)(?:\s+yet)?\b/gi, "unassigned")
    // ("which project contains the highest number of tasks": has the most.)
    .replace(/\b(?:contains?|holds?)\s+the\s+(?:highest|largest|biggest|greatest)\s+(?:number|count)\s+of\b/gi, "has the most")
    // ("engineers whose joining date is before 2025": who joined before then.)
    .replace(/\bwhose\s+(?:joining|start|starting|hire|hiring)\s+date\s+is\s+(before|after|in)\b/gi, "who joined $1")
    // ("our three biggest losses this year": the deals lost.)
    .replace(/\blosses\b/gi, "lost deals")
    // ("people we have on file from Hooli (contacts)": the kind said in brackets.)
    .replace(/^(.*?)\bpeople\b(.*?)\s*\((contacts|leads|candidates|employees|customers)\)\s*$/i, "$1$3$2")
    // ("break down why we lost them": by the reason they were lost.)
    .replace(/\bbreak(?:\s+down)?\s+why\s+we\s+lost\s+(them|those|these)\b/gi, "group $1 by lost reason")
    // ("title it Update pricing page": that is its title.)
    .replace(/\b(?:title|name|call)\s+it\s+(?=\S)/gi, "called ")
    // ("Task 88 should go to Katherine Conway now", "Alan Allen should take Plan search in ERP": who it is assigned to.)
    .replace(/^(task\s+#?\d+|the\s+.+?\s+task)\s+should\s+go\s+to\s+(\p{L}+(?:\s+\p{L}+)?)(?:\s+now)?\b/iu, "assign $1 to $2")
    .replace(
      /^(\p{L}+\s+\p{L}+)\s+should\s+(?:take|own|handle|pick\s+up)\s+(.+?)(?:,?\s+(?:please\s+|pls\s+)?(?:set|make)\s+(?:him|her|them)\s+(?:as\s+)?(?:the\s+)?(?:assignee|owner))?\s*[.!]*$/iu,
      "assign $2 to $1",
    )
    // ("is there still money massive dynamic has to give us": what they owe.)
    .replace(/\bmoney\s+(.+?)\s+(?:has|have)\s+(?:still\s+)?to\s+(?:give|pay)\s+us\b/gi, "money owed by $1")
    // ("pull up the total Soylent has paid us": show it.)
    .replace(/^(?:pls\s+|please\s+)?pull\s+up\s+/i, "show ")
    // ("what bills did we make out to initech": issue.)
    .replace(/\b(?:make|made)\s+out\s+(?=to\b)/gi, "issue ")
    // ("has any customer paid us so far this week": any payments.)
    .replace(/\b(?:has|have|did)\s+any(?:one|body|\s+customers?|\s+clients?)\s+paid\s+us\b/gi, "payments received")
    // ("mark him as not qualified": unqualified.)
    .replace(/\b((?:mark|set|flag)\s+(?:\S+\s+)?(?:as\s+|to\s+)?)not\s+qualified\b/gi, "$1unqualified")
    // ("take out the ones we lost": leave them out.)
    .replace(/^(?:and\s+)?take\s+out\s+/i, "leave out ")
    // ("tyrell renewal isn't dead after all": it is back — no state of its own.)
    .replace(/\s*(?:isn't|isnt|is\s+not|wasn't|was\s+not)\s+(?:dead|lost|over)\s+after\s+all\b/gi, "")
    // ("leads that dont say where they came from": without a source.)
    .replace(/\b(?:that\s+|which\s+)?(?:don't|dont|do\s+not)\s+say\s+where\s+they\s+came\s+from\b/gi, "without a source")
    // ("which email address we have saved for Nakatomi Labs": its email.)
    .replace(
      /\b(?:which|what)\s+(e-?mail(?:\s+address)?|phone(?:\s+number)?|address)\s+(?:do\s+)?we\s+have\s+(?:saved|on\s+file|stored|listed|down)?\s*for\b/gi,
      "the $1 of",
    )
    // ("need a payment recorded on invoice 141": record one.)
    .replace(/^(?:i\s+)?need\s+(a|an)\s+(payment|time entry|note)\s+recorded\b/i, "record $1 $2")
    // ("tasks that havent been started": not started yet.)
    .replace(/\b(?:that\s+|which\s+)?(?:have|has)(?:n't|nt|\s+not)\s+(?:been\s+)?started\b(?!\s+yet)/gi, "not started yet")
    // ("oscorp pilot deal value shud be 12,000 now", "partner api should be active again": what to set.)
    .replace(
      /^(?:the\s+)?(.+?)\s+(value|amount|price|title|priority|due date|end date|start date|close date|expected close date|email|phone|department|designation|branch)\s+(?:should|shud|shld)\s+(?:now\s+)?be\s+(.+?)(?:\s+(?:now|instead|from now on))?\s*[.!]*$/i,
      "set the $2 of $1 to $3",
    )
    .replace(
      /^(?:the\s+)?(.+?)\s+(?:should|shud|shld)\s+(?:now\s+)?be\s+(active|actve|on hold|completed|complete|archived|cancelled|canceled|open|closed|inactive)(?:\s+(?:again|now))*\s*(?:,\s*(?:pls|please)\s+(?:update|change)(?:\s+it)?)?\s*[.!]*$/i,
      (_m, record: string, state: string) => `mark ${record} as ${state.toLowerCase() === "actve" ? "active" : state}`,
    )
    // ("Customer portal progress check — how many of its tasks are completed?", "mobile app next — where do its tasks
    // stand?": "its" is what was named before the dash.)
    .replace(
      /^([\p{L}\d][\p{L}\d .&'-]{2,40}?)\s+(?:progress\s+check|status\s+check|progress|status|update|next|check)\s*[—–:]\s+(.*\bits\b.*)$/iu,
      (_m, name: string, rest: string) => rest.replace(/\bits\b/i, `${name}'s`),
    )
    // ("customer portal: which tasks has nobody been assigned to yet?": a question about what is named first.)
    .replace(/^([\p{L}\d][\p{L}\d .&'-]{2,40}?)(?:\s+project)?\s*:\s+((?:which|what|where|who|how many)\b[^:]*?)\s*([?.!]*)$/iu, "in $1, $2$3")
    // ("take out the ones we lost": the lost ones.)
    .replace(
      /\b(leave out|leaving out|excluding|exclude|without|except|minus|ignore|ignoring|not counting|skip)\s+the\s+ones\s+we\s+(lost|won|voided|closed|rejected|archived|paid)\b/gi,
      "$1 the $2 ones",
    )
    // ("not counting won or lost ones": neither.)
    .replace(
      /\b(?:not\s+counting|leaving\s+out|leave\s+out|except(?:\s+for)?|ignoring)\s+(?:the\s+)?([a-z]+)\s+(?:or|and|\/)\s+([a-z]+)(?:\s+ones)?\b/gi,
      "excluding $1 and $2",
    )
    // ("push the end date of billing v2 till 31 december": to it.)
    .replace(
      /\b((?:push|extend|move|change|set|bump|shift)\b.{1,60}?)\s+till\s+(?=\d|(?:the\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|end|next|mon|tue|wed|thu|fri))/gi,
      "$1 to ",
    )
    // ("tyrell pilot deal needs to be in qualification now, pls move it": move it there.)
    .replace(
      /^(.+?)\s+needs\s+to\s+(?:be|go|move)\s+(?:in|into|to|at)\s+(.+?)(?:\s+now)?\s*(?:,\s*(?:pls|please)\s+(?:move|change|update)\s+it)?\s*[.!]*$/i,
      "move $1 to $2",
    )
    // ("open receivables broken down by currency": what is outstanding — no command to open anything.)
    .replace(/\bopen\s+(?:receivables?|a\/?r)\b/gi, "outstanding")
    // ("bills that come to at least 1000 but no more than 2000": at most.)
    .replace(
      /\bat\s+least\s+([$€£]?\d[\d.,]*k?)\s+(?:but|and)\s+(?:at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to)\s+([$€£]?\d[\d.,]*k?)\b/gi,
      "between $1 and $2",
    )
    .replace(/\bno\s+more\s+than\b/gi, "at most")
    .replace(/\bno\s+less\s+than\b/gi, "at least")
    .replace(/\b(?:that|which)\s+come\s+to\s+(?=(?:at least|at most|over|under|more|less|between|about|around)\b)/gi, "with a total of ")
    // ("grace lamarr is out next week, so what does she have due this week?": who, for the pronoun.)
    .replace(
      /^(\p{L}+\s+\p{L}+)\s+is\s+(?:out|away|off|on\s+leave|on\s+holiday|on\s+vacation)\s+(?:next|this|all)\s+(?:week|month)\s*,?\s*(?:so\s+)?(.+)$/iu,
      (_m, name: string, rest: string) => rest.replace(/\b(?:she|he|they)\b/i, name),
    )
    // ("put sarah lee from globex in our address book": a new contact.)
    .replace(/^(?:pls\s+|please\s+)?put\s+(.+?)\s+in(?:to)?\s+(?:our|the|my)\s+(?:address\s+book|contacts|contact\s+list|crm)\b/i, "add $1 as a contact")
    // ("gringotts sent a payment, can u record it": a payment from them.)
    .replace(/^(.+?)\s+(?:sent|made)\s+(?:us\s+)?a\s+payment\s*,?\s*(?:can|could)\s+(?:you|u)\s+(?:record|log|add|enter)\s+it\b/i, "record a payment from $1")
    // ("please undo that payment": delete it.)
    .replace(/\bundo\s+(that|this|the)\s+(payment|time\s+entry|entry)\b/gi, "delete $1 $2")
    // ("Support Specialist opening — how many hires is it for?": its positions.)
    .replace(/\bhow\s+many\s+(?:hires|people|heads|seats|spots|roles)\s+is\s+(?:it|that|this)\s+for\b/gi, "how many positions")
    // ("we want to put up a new job ad …", "i need to add …": the command.)
    .replace(/^(?:we|i)\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+(?=(?:add|create|open|make|set\s+up|log|record|put\s+up)\b)/i, "")
    // ("how many of our clients pay us in euros": billed in them.)
    .replace(/\b(customers|clients)\s+(?:who\s+|that\s+)?pay\s+us\s+in\b/gi, "$1 billed in")
    // ("anything open in the pipeline above 100k": open deals.)
    .replace(/\b(?:anything|everything|what(?:'s|\s+is)?|whats)\s+(?:open\s+|still\s+open\s+)?in\s+the\s+pipeline\b/gi, "open deals")
    // ("tasks w/o due date": without.)
    .replace(/\bw\/o\b/gi, "without")
    // ("starting from dec 1": the start, not a range from it.)
    .replace(/\b(start(?:s|ing)?|begin(?:s|ning)?)\s+from\b/gi, "$1")
    // ("due eod fri", "by cob tomorrow": the end of that day is the day.)
    .replace(/\b(?:eod|cob|end of day|close of business)\s+(?=(?:on\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun|tomorrow|tmrw|tmr|today|next|this|the)\b|\d))/gi, "")
    // ("how much did we close in q3": business closed is business won — a sum of money, which tasks closed are not.)
    .replace(/\bhow\s+much\s+(?:business\s+)?(?:did|have|has)\s+(?:we|i|you|the team|sales)\s+(?:close|closed)\b/gi, "how much did we win")
    // ("how many tasks does the website relaunch have left": those left to do on it.)
    .replace(
      /\bhow\s+many\s+(tasks|things|items|todos|to-dos)\s+(?:does|do)\s+(.+?)\s+(?:still\s+)?(?:have|got)\s+left(?:\s+to\s+do)?\b/gi,
      "how many $1 are left to do on $2",
    )
    // ("what do we have left to do on X": what is left to do.)
    .replace(/\bwhat\s+(?:do|does)\s+(?:we|i|you|they|he|she)\s+(?:still\s+)?(?:have|has)\s+left\s+to\s+do\b/gi, "what's left to do");
  // ("dont bill it", "it is not for billing to client", "it shouldn't be charged to the customer": not billable.)
  text = text
    .replace(
      /\b(?:(?:please\s+)?(?:do not|don't|dont|never)\s+(?:bill|charge)(?:\s+(?:it|this|that|them|the time))?(?:\s+to\s+(?:the\s+)?(?:client|customer))?|(?:it|this|that)\s+(?:is|'s|isn't|is not)\s+not\s+(?:for\s+billing|to\s+be\s+billed|billable)(?:\s+to\s+(?:the\s+)?(?:client|customer))?|(?:it|this|that)\s+(?:shouldn't|should not|mustn't|must not)\s+be\s+(?:billed|charged)(?:\s+to\s+(?:the\s+)?(?:client|customer))?)\b/gi,
      "not billable",
    )
    // ("note it as internal sync", "add a note saying …": the note's words.)
    .replace(/\b(?:note|mark|tag)\s+it\s+as\s+(?=\S)(?!(?:not\s+)?billable\b|done\b|paid\b|sent\b|lost\b|won\b)/gi, "note: ");
  // ("8 thousand euro", "1.2 million"): figures with a scale word, as the suffix they stand for.
  text = text.replace(/\b(\d+(?:\.\d+)?)\s+(thousand|million)\b/gi, (_m, n: string, scale: string) => `${n}${scale.toLowerCase() === "thousand" ? "k" : "m"}`);
  // ("Please to add new lead …": the verb after "please", as a learner of English may write it.)
  text = text.replace(
    /^(please|pls|kindly)\s+to\s+(?=(?:add|create|make|put|set|record|log|send|mark|update|change|delete|remove|give|show|list|tell|share|push|move|provide)\b)/i,
    "$1 ",
  );
  text = politely(text);
  // ("2 hours for shafi on the Fix dashboard task in the Mobile app project": the task, then its project.)
  text = text.replace(/\bthe\s+([^,;]+?)\s+task\s+(in|on|for|of|under)\s+the\s+([^,;]+?)\s+project\b/gi, "$1 in $3");
  // ("90 min for lynn today, task fix permissions in mobile app": time for someone, said first, is time logged.)
  // (Not "10 hours for acme last month? seems low", "2 hours for review is too much".)
  if (!/\?|\b(?:is|are|was|were|seems?)\b/i.test(text))
    text = text.replace(/^(\d+(?:\.\d+)?\s*(?:h|hrs?|hours?|min|mins|minutes))\s+for\s+(?=\p{L})/iu, "log $1 for ");
  text = text.replace(/^(log\s+[^,]+),\s*task\s+/i, "$1 on ");
  // ("Please add a time entry: Gosling, task Build permissions (…), 150 minutes": time is put on the task.)
  if (/\btime\s+entry\b/i.test(text)) text = text.replace(/([,:;]\s*)task\s+(?=\p{L})/iu, "$1on ");
  // ("Mr Gosling", "Dr. Chen": a title before a name is no part of it.)
  text = text.replace(/\b(?:[Mm]rs?|[Mm]s|[Dd]r)\.?\s+(?=\p{Lu})/gu, "");
  // ("X spent an hour on Y, please log it": the closing request is no note; the news is the entry.)
  text = text.replace(
    /^((?:(?:today|yesterday|this morning)\s*,?\s+)?\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?\s+(?:spent|worked|put in|logged)\s+.+?)\s*[,;.—–-]\s*(?:(?:please|pls|can you|could you|so)\s+)*(?:log|record|add|enter|save|book|put)\s+(?:it|that|this|those)(?:\s+(?:in|down|for me|pls|please))*\s*[.!]*$/iu,
    "$1",
  );
  // ("payments received in sept": September — the four-letter form is no day.)
  text = text.replace(/\bsept\b\.?/gi, "september");
  text = text.replace(/\b[a-z]+\b/gi, (word) => MISSPELT_NOUNS[word.toLowerCase()] ?? word);
  // ("inv 287", "inv #287", "invoice no. 287": an invoice by its number, written as the number itself is.)
  text = text.replace(
    /(?<!\b(?:new|an?|one|create|draft)\s+)\binv(?:oice\s+no\.?|oice\s*#|\s*#|\s+no\.?|\.?)\s*(\d{1,9})\b(?!\s*(?:%|k\b|hours?|days?|minutes?|lines?|items?|invoices?))/gi,
    (_m, digits: string) => `INV-${digits.padStart(6, "0")}`,
  );
  text = bareInvoiceNumbers(text);
  // ("the latest payment on inv 162 bounced, pls reverse it", "A payment on INV-000162 bounced (the most recent one).
  // Please remove it.": "it" is the record the news is about — a payment or an entry, which has no name of its own.)
  text = text.replace(
    /^(?:the\s+|a\s+|an\s+|one\s+)?((?:[\w$€£.,-]+\s+){0,4}(?:payment|entry|time entry)\s+(?:on|for|against|of)\s+[^,;.()]+?)\s+(?:bounced|failed|was declined|got declined|was refunded|got refunded|was charged back|was a mistake|was entered by mistake|was wrong|is wrong|was a duplicate|is a duplicate)\b\s*(\([^)]*\))?\s*[,.;:—–-]+\s*(?:so\s+)?(?:(?:pls|please|can you|could you)\s+)?(reverse|remove|delete|undo|cancel|drop)\s+(?:it|that|this(?:\s+one)?)\b[\s.!]*$/i,
    (_m, subject: string, aside: string | undefined, verb: string) =>
      `${verb} the ${aside && /\b(?:most recent|latest|last|newest)\b/i.test(aside) && !/\b(?:most recent|latest|last|newest)\b/i.test(subject) ? "latest " : ""}${subject}`,
  );
  // ("Partner API needs a new urgent task, title …", "acme holdings is getting a new project, Q1 audit prep, …": a new
  // record for what is named first — said as a need.)
  text = text.replace(
    /^(?!(?:who|what|which|how|does|do|did|is|are|we|i|you|it|this|that|there)\b)(\p{L}[\p{L}\d'&.-]*(?:\s+[\p{L}\d][\p{L}\d'&.-]*){0,3})\s+(?:needs|could use|should get|is getting|gets|will get|wants)\s+(?:a|an|one|another)\s+(?:new\s+)?((?:urgent|high[- ]priority|low[- ]priority|quick|small|big)\s+)?(task|project|deal|invoice|contact)\b\s*(?:[,:;—–]|\s-)?\s*(?=\S)/iu,
    (_m, owner: string, adjective: string | undefined, noun: string) => `new ${adjective ?? ""}${noun} for ${owner}, `,
  );
  // ("…, Write release notes — stroustrup's on it": whose it is.)
  text = text.replace(
    /(?:[,;—–]|\s-)\s*(?!(?:who|what|that|it|he|she|there|everyone|nobody|someone)\b)(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?)'s\s+on\s+it\b/giu,
    ", assign to $1",
  );
  // ("wei@umbrella.example is Wei Chen, save as a contact pls", "ravi@mail.example applied for account exec, pls add as
  // a candidate": an address said first, what it is, then the command — the command with all of it.)
  text = text.replace(
    /^([^\s@,;]+@[^\s@,;]+\.[a-z]{2,})\s+(?:is\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3})|(applied|is applying)\s+(?:for|to)\s+(?:the\s+)?(.+?))\s*[,;.—–]\s*(?:(?:pls|please|can you|could you)\s+)?(?:add|save|create|put|enter)\s+(?:(?:him|her|them|it)\s+)?(?:in\s+)?as\s+(?:a|an)\s+(?:new\s+)?([a-z]+)\s*(?:pls|please|thanks|thx)?\s*[.!]*$/iu,
    (_m, email: string, name: string | undefined, applied: string | undefined, job: string | undefined, noun: string) =>
      `add a ${noun} ${name ? `${name}, ` : ""}${email}${applied ? ` for ${job}` : ""}`,
  );
  // ("+393471234567 is marco rossi's number, …": a number said first, then whose it is.)
  text = text.replace(
    /^(\+?\d[\d\s().-]{6,}\d)\s+is\s+(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){1,2})['’]s\s+(?:phone\s+|mobile\s+|cell\s+)?(?:number|phone|mobile|cell)\b/iu,
    "$2, phone $1",
  );
  // ("Olga Petrova should be added as a lead; we met …", "Marco Rossi should go in as a lead (…)": the new record
  // named first, what it becomes, then the rest of it.)
  text = text.replace(
    /^(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){1,3})\s+(?:should|needs\s+to|has\s+to|must|can)\s+(?:be\s+(?:added|entered|saved|set\s+up|put\s+in)|go\s+in(?:to\s+the\s+system)?)\s+as\s+(?:a|an)\s+(?:new\s+)?(lead|contact|customer|client|candidate|employee)\b\s*(?:[;,.:—–]|\s-)?\s*/u,
    "add a $2 $1, ",
  );
  // ("Met Jordan Blake of Northwind at an event — please create a lead worth $2,500, …": whom we met, where, then the
  // command for them.)
  text = text.replace(
    /^(?:(?:we|i)\s+)?(?:just\s+)?met\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2})(?:\s+(?:of|from)\s+(\p{Lu}[\p{L}\d&'’-]*(?:\s+\p{Lu}[\p{L}\d&'’-]*){0,2}))?\s+(at|through|via|on)\s+([^—–,;.]{2,40}?)\s*(?:[—–,;.]|\s-)\s*(?:(?:pls|please|can you|could you)\s+)?(create|add|save|enter)\s+(?:a|an)\s+(?:new\s+)?(lead|contact|candidate)\b\s*(?:for\s+(?:him|her|them)\b)?/iu,
    (_m, name: string, company: string | undefined, how: string, where: string, verb: string, noun: string) =>
      `${verb} a ${noun} ${name}${company ? ` from ${company}` : ""}, met ${how} ${where}, `,
  );
  // ("Bjorn Lund from acme, bjorn.lund@… - came in thru linkedin, add him as a lead pls": who, what of them, then the
  // command said last — the command with all of it.)
  text = text.replace(
    /^(?!(?:add|create|new|put|save|enter|make|set|please|pls|can|could)\b)(\p{L}[\p{L}'’-]*\s+\p{L}[\p{L}'’-]*\b.{3,200}?)\s*[,;.—–]+\s*(?:(?:so|and)\s+)?(?:(?:pls|please|can you|could you)\s+)?(?:add|save|create|put|enter)\s+(?:him|her|them)\s+(?:in\s+)?as\s+(?:a|an)\s+(?:new\s+)?(lead|contact|customer|client|candidate)\s*(?:pls|please|thanks|thx)?\s*[.!]*$/iu,
    "add a $2 $1",
  );
  // ("Lucia Ferreira, lucia@ferreira.example, can you save her?": someone with an address and no kind said goes in
  // the address book — a lead when they may buy from us. "I met Lucia … at a conference, …": how we met is no name.)
  text = text.replace(
    /^(?!(?:add|create|new|put|save|enter|make|set|please|pls|can|could|hire|onboard)\b)(?!(?:(?:i|we)\s+)?(?:just\s+)?met\s+(?:someone|somebody|a|an)\b)(?:(?:(?:i|we)\s+)?(?:just\s+)?met\s+)?(\p{L}[\p{L}'’-]*\s+\p{L}[\p{L}'’-]*\b[^?]{3,300}?(?:@|\+?\d[\d\s-]{6,}\d)[^?]{0,200}?)\s*[,;.—–]+\s*(?:(?:so|and)\s+)?(?:(?:pls|please|can you|could you)\s+)?(?:add|save|store|enter|keep)\s+(?:him|her|them)(?:\s+(?:pls|please|for me))?\s*[?.!]*$/iu,
    (_m, details: string) => {
      // (What they might do is why, not a detail; "her email is …" is the address; "at a conference yesterday", where.)
      const kept = details
        .split(/\s*[,;]\s*|(?<=\p{Ll}{2})\.\s+/u)
        .filter((clause) => !/^(?:she|he|they)\b/i.test(clause) || /@|\d{6}/.test(clause))
        .map((clause) =>
          clause
            .replace(/^(?:her|his|their)\s+(?:e-?mail|phone|number|mobile|cell)(?:\s+(?:address|number))?\s+(?:is\s+)?/i, "")
            .replace(
              /^(\p{L}[\p{L}'’-]*\s+\p{L}[\p{L}'’-]*)\s+(?:at|during)\s+(?:a|an|the)\s+([\p{L} ]{2,30}?)(?:\s+(?:yesterday|today|last\s+\w+|this\s+\w+))?$/iu,
              "$1, met at $2",
            ),
        );
      const buyer =
        /\b(?:buy|buying|purchase|interested in (?:us|our)|might want|may want|wants? to (?:buy|order|talk)|prospect|potential (?:customer|client))\b/i;
      // (A contact keeps no source: where we met them is dropped.)
      return buyer.test(details) ? `add a lead ${kept.join(", ")}` : `add a contact ${kept.map((clause) => clause.replace(/,\s*met at .*$/i, "")).join(", ")}`;
    },
  );
  // ("Qualification is where the Tyrell pilot belongs now, please update it", "we're at the offer stage with dennis
  // kernighan now, pls update him": the state said first, the record, then "update it" — a move to that state.)
  const UPDATE_IT = String.raw`\s*(?:[,.;—–]|\s-)\s*(?:so\s+)?(?:(?:pls|please|can you|could you)\s+)?(?:update|change|move|set|mark)\s+(?:it|him|her|them)(?:\s+(?:pls|please|accordingly))?\s*[.!]*$`;
  text = text
    .replace(
      new RegExp(String.raw`^(\p{L}+(?:\s+\p{L}+)?)\s+is\s+where\s+(.+?)\s+(?:belongs|should be|sits|is|stands)(?:\s+now)?${UPDATE_IT}`, "iu"),
      "move $2 to $1",
    )
    .replace(
      new RegExp(
        String.raw`^(?:we(?:'re|\s+are)|they(?:'re|\s+are))\s+(?:now\s+)?at\s+(?:the\s+)?(\p{L}+(?:\s+\p{L}+)?)\s+(?:stage|step)\s+with\s+(.+?)(?:\s+now)?${UPDATE_IT}`,
        "iu",
      ),
      "move $2 to $1",
    );
  // ("Katherine Thompson (lead): I phoned her, so she's contacted": the record, its kind, what happened, the state.)
  text = text.replace(
    /^(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,3})\s*\((lead|candidate|deal|task|contact|customer|invoice|project)\)\s*:\s*[^:]{0,80}?\b(?:so|now|and)\s+(?:she|he|they|it)(?:'s|\s+is|\s+are|'re)\s+(?:now\s+)?(\p{L}+(?:\s+\p{L}+)?)\s*[.!]*$/iu,
    "mark the $2 $1 as $3",
  );
  // ("gringotts paid us something, need to log that payment": a payment to record, from them, of an amount not said.)
  text = text.replace(
    /^(\p{L}[\p{L}\d'’&.-]*(?:\s+\p{L}[\p{L}\d'’&.-]*){0,3})\s+(?:paid|sent)\s+(?:us\s+)?(?:something|some money|money|a payment)\s*(?:[,.;—–]|\s-)\s*(?:(?:so\s+)?(?:i|we)\s+)?(?:need\s+to|have\s+to|should|pls|please|can you|could you)?\s*(?:log|record|add|enter|book)\s+(?:that|the|a|this|it)(?:\s+payment)?\s*(?:pls|please)?\s*[.!]*$/iu,
    "record a payment from $1",
  );
  // ("we need a new remote opening for marketing": a need for a new record is its creation; the words before the
  // noun describe it.)
  text = text.replace(
    /^(?:so\s+)?(?:we|i)\s+(?:need|want|would like|'d like)\s+(?:a|an)\s+new\s+((?:\p{L}+\s+){0,2}?)(opening|job opening|role|position|project|customer|contact|lead)\b\s*/iu,
    (_m, words: string, noun: string) => `create a new ${/^(?:role|position)$/i.test(noun) ? "opening" : noun}${words.trim() ? `, ${words.trim()},` : ""} `,
  );
  // ("Senior Engineer opening has a new applicant, please add her: Lena Fischer, …": a candidate for that opening.)
  text = text.replace(
    /^(?:the\s+)?(.{2,40}?)\s+(?:opening|job|role|position)\s+(?:has|got|just got)\s+(?:a|an|one)\s+(?:new\s+)?(?:applicant|candidate)\s*(?:[,.;—–]|\s-)\s*(?:(?:pls|please|can you|could you)\s+)?(?:add|create|enter|save)\s+(?:her|him|them)\s*[:,—–]?\s*/iu,
    "add a new candidate for $1: ",
  );
  // ("Senior Support Specialist role: hire Bjarne Clarke, …", "ok the support specialist job goes to grace allen, hire
  // her pls, …": the role said first is what they are hired as.)
  text = text
    .replace(
      /^(?:ok(?:ay)?[,\s]+)?(?:the\s+)?([\p{L} ]{3,40}?)\s+(?:role|job|position|opening)\s*:\s*hire\s+(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,2})\b/iu,
      "hire $2 as $1",
    )
    .replace(
      /^(?:ok(?:ay)?[,\s]+)?(?:the\s+)?([\p{L} ]{3,40}?)\s+(?:role|job|position|opening)\s+(?:goes|went)\s+to\s+(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,2})\s*(?:[,.;—–]|\s-)\s*(?:(?:pls|please|so|can you|could you)\s+)?hire\s+(?:her|him|them)(?:\s+(?:pls|please))?\b/iu,
      "hire $2 as $1",
    );
  // ("excluding anyone we've rejected", "except those who were lost": the state excluded, without who had it.)
  text = text.replace(
    /\b(excluding|except(?:\s+for)?|not counting|leaving out|minus)\s+(?:anyone|anybody|everyone|those|the ones|people|any)\s+(?:(?:who|that|which)\s+)?(?:we(?:'ve|\s+have|'d|\s+had)?|(?:has|have|had)\s+been|were|was|are|is|got|who've\s+been)\s+(?:already\s+)?/gi,
    "$1 ",
  );
  // ("still sitting in to-do", "set it to to-do": the state spelt with its hyphen — not "add a to-do", a task.)
  text = text.replace(/\b(in|into|to|as|status|still)\s+(?:the\s+)?to-do\b(?!\s+list)/gi, "$1 todo");
  // ("reassign ship search from ken to frances": who had it only says which; "make it active again": set to that
  // state; "Bjarne Torvalds (he's one of our contacts) has …": the kind said aside.)
  text = text
    .replace(/\b(reassign|move|hand over|give)\s+(.{2,60}?)\s+from\s+\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?\s+to\s+/giu, "$1 $2 to ")
    .replace(/\bmake\s+(it|him|her|them)\s+(\p{L}+)(\s+again)?\s*([.!]*)$/iu, "set $1 to $2$3$4")
    .replace(/^(.{2,60}?)\s+is\s+back\s+on\b(?!\s+(?:track|hold|the|board))[,;.]?\s+(?=(?:pls\s+|please\s+)?set\s+(?:it|him|her|them)\s+to\b)/iu, "$1 — ")
    .replace(
      /^(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,3}?)\s*\((?:he|she|they|it)(?:'s|\s+is|\s+are|'re)\s+(?:one of\s+)?(?:our|a|an)\s+(\p{L}+?)s?\)\s*/iu,
      "the $2 $1 ",
    );
  // ("met someone at the conference — Aiko Tanaka, Nakatomi, aiko@…. can you save her", "lead from the website —
  // nina berg at fjord media, about 2k eur": the record to add, with how we met them said first.)
  text = text
    .replace(
      /^(?:(?:i|we)\s+)?(?:just\s+)?met\s+(?:someone|somebody|a\s+(?:guy|woman|man|lady|person))\s+(?:at|during|on)\s+(?:the|a|an)\s+[\p{L} ]{2,30}?\s*(?:[—–:]|\s-)\s*(\p{L}.+?)[.!,;]?\s*(?:(?:can|could)\s+you\s+|pls\s+|please\s+)?(?:save|add|store|create|enter)\s+(?:her|him|them)(?:\s+(?:pls|please))?\s*[?.!]*$/iu,
      "add contact $1",
    )
    .replace(
      /^(?:(?:a|new)\s+)?lead\s+(?:from|via)\s+(?:the\s+|our\s+)?(website|referral|event|conference|trade show|linkedin)\s*(?:[—–:]|\s-)\s*(\p{L}.+)$/iu,
      "new lead $2, from $1",
    );
  // ("aperture wants us to kick off a new project for them next monday, can you set it up", "we need to post a job in
  // the berlin ops team", "add something to the partner api board": the record to add, said as the work it is.)
  text = text
    .replace(
      /^(\p{L}[\p{L}'&.-]*(?:\s+\p{L}[\p{L}'&.-]*){0,2}?)\s+(?:wants?|would like|needs?)\s+(?:us\s+)?to\s+(?:kick off|start|begin|set up|launch)\s+(?:a\s+)?new\s+(project|deal)\s+for\s+them\s*(.*?)[,.;]?\s*(?:(?:can|could)\s+you\s+|pls\s+|please\s+)?(?:set (?:it|that) up|add (?:it|that)|create (?:it|that))?(?:\s+(?:pls|please))?\s*[?.!]*$/iu,
      (_m, who: string, kind: string, when: string) => `create a new ${kind} for ${who}${when.trim() ? `, starting ${when.trim()}` : ""}`,
    )
    .replace(
      /^(?:(?:we|i)\s+(?:need|want|have)\s+to\s+|(?:pls|please|can you|could you)\s+)?(?:post|advertise)\s+(?:a\s+)?(?:new\s+)?(?:job|role|position|vacancy)\b(?!.*\bon\s+(?:linkedin|indeed|glassdoor|twitter|x|facebook|instagram)\b)/i,
      "add a new job opening",
    )
    .replace(/^(add|put)\s+(?:something|a thing|an item|a card)\s+(to|on)\s+the\s+(.{2,40}?)\s+board\b/i, "$1 a task $2 the $3 project");
  // ("task 'Write onboarding checklist' in onboarding revamp, assign hedy": a quoted title where it goes, a new one.)
  text = text.replace(/^task\s+(["'‘“][^"'’”]{2,80}["'’”])\s+(?=(?:in|on|for|under)\s)/i, "new task $1 ");
  // ("Customer portal is running long, extend the end date": late, not a state it is in — said, not asked.)
  if (!/^\s*(?:who|which|what|how|list|show|are|is|does|do)\b|\?/i.test(text))
    text = text.replace(/\b(is|are)\s+running\s+(?:long|late|behind|over(?:\s+time)?)\b/gi, "$1 taking longer");
  // ("Donald Berners-Lee has no dept set - he's in Operations, ops lead": where the person is, said as a missing value.)
  text = text.replace(
    /^(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,3}?)\s+(?:has|have)\s+no\s+(?:dept|department|team|office|branch)(?:\s+(?:set|yet|assigned))*\s*(?:[,;:—–]|\s-)\s*(?:he|she|they)(?:'s|\s+is|\s+are|'re)\s+in\s+(?!the\s+(?:office|building)\b)/iu,
    "move $1 to ",
  );
  // ("what are people busy with right now in the Customer portal?": the work in progress, of no one person.)
  text = text.replace(
    /\bwhat\s+(?:is|are|'s)\s+(?:everyone|everybody|people|the team|folks|the guys)\s+(?:working on|busy with|doing)(?:\s+(?:right now|now|currently|at the moment|these days))?/i,
    "which tasks are in progress",
  );
  // ("the sales we lost", "which big sales are we close to winning": the deals — sales done, lost or nearly won are
  // deals, while "sales" alone is revenue.)
  text = text.replace(
    /\b(the\s+)?sales\s+(?=(?:that\s+|which\s+)?(?:are\s+)?we(?:'ve|'re|\s+have|\s+are)?\s+(?:lost|won|closed|(?:close to|about to|nearly|almost)\s+(?:winning|win|closing)\b))/gi,
    "$1deals ",
  );
  // ("a new person started today, Kofi Mensah, in Support. how do I add him?", "how do I add a new company that we
  // will bill? It's called Greenleaf Studio": the record to add, asked as how to.)
  text = text
    .replace(
      /^(?:a|we have a)\s+new\s+(?:person|colleague|hire|employee|team member|starter)\s+(?:started|joined)\s+(today|yesterday|this morning)\s*[,:—–-]?\s*(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){1,2}?)\s*,?\s+(?:in|on|for)\s+(?:the\s+)?(\p{L}[\p{L} ]{1,30}?)(?:\s+(?:team|department|dept))?\s*[.!,;]\s*(?:so\s+)?(?:how do i|how can i|can you|could you|pls|please)\s+(?:add|enter|save|create|register|put in)\s+(?:him|her|them)\s*[?.!]*$/iu,
      (_m, when: string, name: string, department: string) => `add employee ${name} in ${department}, joined ${when === "this morning" ? "today" : when}`,
    )
    .replace(
      /^how (?:do|can) i (?:add|create|set up|enter) (?:a )?new (?:company|client|customer|account)(?:\s+(?:that|who|which))?\s+we(?:'ll|\s+will|\s+are going to)?\s+(?:bill|invoice|work for|sell to)\s*\?\s*(?:it'?s|its|they'?re)\s+called\s+(.+?)\s*[.!]*$/i,
      "add a new customer called $1",
    );
  // ("last weeks time entries", "this months revenue": the period's, its apostrophe left out.)
  text = text.replace(/\b(last|this|next|past|previous)\s+(week|month|year|quarter)s\s+(?=(?!of\b|in\b|and\b|or\b|to\b|ago\b)\p{L})/giu, "$1 $2's ");
  // ("she is an Accountant in the Finance department at the Berlin office": the department and the branch.)
  if (!/^\s*(?:who|which|what|how|list|show|are|is|does|do)\b|\?/i.test(text))
    text = text.replace(
      /\b(in\s+the\s+\p{L}[\p{L}&-]*(?:\s+\p{L}[\p{L}&-]*)?\s+(?:department|dept))\s+(?:at|in)\s+the\s+(\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*)?)\s+office\b/giu,
      "$1, branch $2",
    );
  // ("new deal "X" 7.5k w/ ada ritchie as contact person", "Ada Ritchie is the contact on a new deal I want to add:
  // X, 7,500": the deal's contact, said as such.)
  text = text
    .replace(
      /\b(?:w\/|with)\s+(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,3}?)\s+as\s+(?:the\s+|our\s+|their\s+)?(?:main\s+)?contact(?:\s+person)?\b/giu,
      "with contact $1",
    )
    .replace(
      /^(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,3}?)\s+is\s+(?:the|our)\s+contact\s+(?:on|for)\s+(?:a|the)\s+new\s+(deal|opportunity)\b(?:\s+(?:that\s+)?(?:i|we)\s+(?:want|need|would like|'d like)\s+to\s+(?:add|create|log|enter))?\s*:\s*(.+?)[.!]*$/iu,
      "new $2 $3, contact $1",
    )
    // ("put initech in the pipeline for 60k": a new deal.)
    .replace(/^(?:(?:pls|please|can you|could you)\s+)?(?:put|add)\s+(\p{L}.{0,60}?)\s+(?:in|into|on|to)\s+(?:the|our)\s+pipeline\b\s*/iu, "new deal $1 ")
    // ("hooli analytics add-on — new deal, 18k eur", "Acme — new deal worth forty thousand dollars": the name first.)
    .replace(
      /^(\p{L}[\p{L}\p{N}'&-]*(?:\s+\p{L}[\p{L}\p{N}'&-]*){0,5}?)\s*(?:[—–:]|\s-)\s*(?:a\s+)?new\s+(deal|opportunity|lead|project|task|customer|contact)\b(?=\s*(?:[,:;.]|$|worth\b|for\s+[$€£\d]|[$€£\d]))\s*[,:]?\s*/iu,
      "new $2 $1, ",
    )
    // ("deal for hooli, 40000", "task for ana, call acme, due 12 dec": one record's kind, whose it is, then its values —
    // a note of a record to make. A comparison or a question after the comma is a question: "deal for hooli, over 40k?")
    .replace(
      /^(deal|opportunity|invoice|task|project|lead|job opening|opening)\s+for\s+([^,?]{2,40}?)\s*,\s*(?=[^?]*\d)(?![^?]*\b(?:over|under|above|below|more than|less than|at least|at most|between)\b)(?=[^?]*$)/iu,
      "new $1 for $2, ",
    );
  // ("Berlin engineering team — who's on it?": the people of the group named first.)
  text = text.replace(
    /^(?:the\s+)?([\p{L} ]{2,40}?\s+(?:team|department|dept|office|branch))\s*(?:[—–:,]|\s-)\s*who(?:'s|\s+is|\s+are)\s+(?:on|in)\s+(?:it|there)\s*\??$/iu,
    "who is on the $1",
  );
  // ("… to To do.": the state written as two words at the end, where "to do" can be nothing else.)
  text = text.replace(/\b(to|as|into|back to)\s+to\s+do\s*([.!]*)$/i, "$1 todo$2");
  // ("across every project, which urgent tasks …": all of them, no grouping by them.)
  text = text
    .replace(/(?:^|\s*,?\s+)across\s+(?:every|all(?:\s+(?:the|our))?)\s+(?:projects?|customers?|clients?|teams?|departments?|accounts?)\b\s*,?\s*/gi, " ")
    .trim();
  // ("Alan Allen should take Plan search (…), please assign it to him": who takes it, then the command.)
  text = text.replace(
    /^(\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*)?)\s+(?:should|will|can|is going to|'ll)\s+(?:take over|take|own|handle|pick up)\s+(.+?)\s*(?:[,.;—–]|\s-)\s*(?:(?:pls|please|so|can you|could you)\s+)?assign\s+(?:it|that|this)\s+to\s+(?:him|her|them)\b/iu,
    "assign $2 to $1",
  );
  // ("Draft exports in Website relaunch needs to be done by friday, set the due date": when it is due — "done" is
  // when, not a state it is in.)
  text = text.replace(
    /^(?!(?:what|whats|what's|which|who|how|when|where|why|is|are|does|do|did|can|could)\b)(.+?)\s+(?:needs to be|has to be|must be|should be|is to be)\s+(?:done|finished|completed|ready|delivered|shipped|wrapped up)\s+(?:by|before|on)\s+([^,;.!?]+?)\s*(?:[,;.!]\s*(?:(?:so|pls|please|can you|could you)\s+)*(?:set|update|change|put|make|add)\b[^?]*)?[.!]*$/iu,
    "set the due date of $1 to $2",
  );
  // ("billing v2 needs more time, new end date dec 31": the record, then its new date.)
  text = text.replace(
    /^(.{2,40}?)\s+needs\s+(?:more|extra|a bit more)\s+time\s*(?:[,.;—–:]|\s-)\s*(?:(?:pls|please)\s+)?(?:set\s+)?(?:the\s+|a\s+)?new\s+(end date|deadline|due date)\s+(?:is\s+|of\s+|to\s+)?/iu,
    "set the $1 $2 to ",
  );
  // ("urgent: partner api task - fix broken sso redirect": a new task's priority, its project, then its title.)
  text = text.replace(
    /^(urgent|high[- ]priority|low[- ]priority)\s*:\s*(?:new\s+)?(.{2,40}?)\s+task\s*(?:[-—–:]|\s-)\s*(?=\S)/iu,
    (_m, priority: string, project: string) => `new ${priority.replace("-", " ")} task for ${project}: `,
  );
  // ("how much tax did we collect last quarter": the tax charged on invoices — no payment carries tax of its own.)
  text = text.replace(
    /\b(tax|vat|gst|sales tax)\s+(did|have|has)\s+(we|you|i)\s+(?:collect(?:ed)?|receive[d]?|take|took|bring in|brought in|get|got)\b/gi,
    "$1 $2 $3 charge",
  );
  // ("customers who haven't paid in 90 days": their invoices more than that late — the records say whose.)
  text = text.replace(
    /^(?:(?:show|list|find)\s+(?:me\s+)?)?(?:the\s+|our\s+|any\s+)?(?:customers|clients|companies|accounts|people|who)\s+(?:(?:who|that|which)\s+)?(?:haven't|havent|have not|hasn't|hasnt|has not)\s+paid\s+(?:us\s+)?(?:in|for)\s+(?:over\s+|more than\s+)?(\d+)\s+days\b/i,
    "invoices overdue by more than $1 days",
  );
  // ("Prestige expansion — where is that deal in the pipeline?", "where's the hooli pilot in the pipeline": its stage.)
  text = text
    .replace(
      /^(.+?)\s*(?:[—–,:]|\s-)\s*where\s+(?:is|'s)\s+(?:that|this|the)\s+(deal|opportunity)\s+(?:in|at)\s+(?:the|our)\s+(?:sales\s+)?(?:pipeline|funnel)\s*[?.!]*$/i,
      "what stage is the $1 $2 at",
    )
    .replace(/^where(?:'s|s| is)\s+(?:the\s+)?(.+?)\s+(?:deal\s+)?(?:in|at)\s+(?:the|our)\s+(?:sales\s+)?pipeline\s*[?.!]*$/i, "what stage is the $1 deal at");
  // ("drop the threshold to anything above 50k", "raise the cutoff to 20k": the last question again with a new amount.)
  // (A bare amount is a floor's or a cap's: "raise the cutoff to 200k" is over it, "the cap" under it.)
  text = text.replace(
    /^(?:(?:ok|okay|now|and|so)\s+)*(?:drop|lower|raise|change|move|bump|set|put|increase|reduce)\s+(?:the\s+)?(threshold|cut-?off|minimum|floor|bar|limit|cap|maximum|ceiling)\s+(?:down\s+|up\s+|back\s+)?to\s+(?:anything\s+|everything\s+|those\s+)?(?=(\S))/i,
    (_m, word: string, next: string) => `what about ${/[\d$€£]/.test(next) ? (/^(?:limit|cap|maximum|ceiling)$/i.test(word) ? "under " : "over ") : ""}`,
  );
  // ("This month's hours split into billable and non-billable": each side of a yes/no, as "billable vs non-billable".)
  text = text.replace(
    /\b(?:split|broken(?:\s+down)?|divided|separated|broken\s+up)\s+(?:up\s+)?(?:into|in|between|by)\s+([a-z]+)\s+(?:and|vs\.?|versus|or)\s+(?:non[- ]?|not\s+|un)\1\b/gi,
    "$1 vs non-$1",
  );
  // ("Open deals priced in euros?": the currency they are in — no lost reason "price".)
  text = text.replace(
    /\b(?:priced|valued|denominated|quoted|billed out)\s+in\s+(?=(?:euros?|eur|dollars?|usd|us dollars|pounds?|gbp|sterling|[$€£])\b)/gi,
    "in ",
  );
  // ("who's got a balance above 5,000": the customers — the ones a balance is kept for.)
  text = text.replace(/^who(?:'s|s| has| have)?\s+(?:got\s+)?(?:a|an)\s+((?:open\s+|outstanding\s+)?balance)\b/i, "customers with a $1");
  // ("new deals from the past two weeks": the ones created then — "new" is no name and no state of theirs.)
  text = text.replace(
    /\bnew\s+(deals|customers|clients|contacts|projects)\s+(?=(?:from|in|since|over|during|this|last|the past|past|added|created)\b)/gi,
    "$1 created ",
  );
  // ("wayne invoice pls, draft: licence x2 @ €400, …": whose invoice, then its lines after a colon — a new one.)
  text = text.replace(
    /^(?!(?:new|the|an?|which|what|whats|how|show|list|any|all|last|latest|next|unpaid|overdue|paid|draft|sent|void|this|that|my|our|raise|create|make|issue|send|prepare|need|pls|please|can|could)\b)(\p{L}[\p{L}'&.-]*(?:\s+\p{L}[\p{L}'&.-]*)?)\s+invoice\s*(?:,?\s*(?:pls|please|plz))?\s*(?:,?\s*(?:as\s+a\s+)?draft)?\s*:\s*(?=[^:]*\d)/iu,
    "new invoice for $1: ",
  );
  // ("raise an invoice: 6 months of support plan for pied piper labs @ 299/mo": whom it is for, said inside the line
  // before its price — said first. Not "3 hours of consulting for the migration @ 150": "the" begins no customer.)
  text = text.replace(
    /^((?:(?:pls|please|can you|could you)\s+)?(?:raise|create|make|new|draft|send|issue)\s+(?:an?\s+)?(?:new\s+)?invoice)\s*:\s*(\d+(?:\.\d+)?\s+[^,:@]+?)\s+for\s+(?!(?:the|a|an|our|their|this|that|each|every|per)\b)(\p{L}[\p{L}'&.-]*(?:\s+\p{L}[\p{L}'&.-]*){0,3})\s*(@|at\s)/iu,
    "$1 for $3: $2 $4",
  );
  // ("re-send INV-000207", "re-open the deal", "re-assign it": the verb, written whole.)
  text = text.replace(/\bre-(send|sent|open|opened|assign|assigned|schedule|scheduled|activate|activated|issue|issued|name|named|qualify)\b/gi, "re$1");
  // "they wired 2000 eur today, record it", "they just sent 5k of it by bank transfer, log that": money told as news,
  // then the command to keep it, is a payment on the invoice the talk is about.
  text = text.replace(
    /^(?:they|he|she|\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?)\s+(?:just\s+|finally\s+|have\s+|has\s+)*(sent|wired|transferred|paid)\s+(?:us\s+)?([$€£]?\s?\d[\d,.]*\s?(?:k\b|[$€£]|usd\b|eur\b|gbp\b|dollars?\b|euros?\b|pounds?\b)?)(?:\s+of\s+(?:it|that|this))?\s*(.*?)\s*[,;.]\s*(?:pls\s+|please\s+|can you\s+|so\s+)?(?:log|record|book|enter|note)\s+(?:that|it|this)\b.*$/iu,
    (_m, verb: string, amount: string, rest: string) =>
      `record a payment on it, ${amount.trim()}${rest ? ` ${rest}` : ""}${/^wired$/i.test(verb) ? " by wire" : ""}`,
  );
  text = withAfterthoughts(text);
  // ("joined prior to 2025", "the week prior to that": before.)
  text = text.replace(/\bprior\s+to\b/gi, "before").replace(/\b(week|month|quarter|year)\s+prior\b/gi, "$1 before");
  // ("tasks which have not any due date": none.)
  text = text.replace(/\b(have|has)\s+not\s+(?:any|a)\b/gi, "$1 no");
  // ("tasks that don't have anybody on them yet", "tasks nobody's been assigned to": nobody assigned.)
  text = text.replace(
    /\b(?:that\s+|which\s+)?(?:don't|do not|dont|doesn't|does not)\s+have\s+(?:anybody|anyone|someone|somebody|an owner|an assignee)(?:\s+(?:on|assigned to)\s+(?:them|it))?(?:\s+yet)?\b/gi,
    "unassigned",
  );
  text = text.replace(
    /\b(?:that\s+)?(?:nobody|no one|noone)(?:'s|\s+has|\s+is)?\s+(?:been\s+)?(?:assigned\s+to|working\s+on|on)(?:\s+(?:them|it))?(?:\s+yet)?(?=\s*[?.!]*$)/gi,
    "unassigned",
  );
  // ("what has Linus Gosling still got left to do?", "what does brian still have open": their open tasks.)
  text = text.replace(
    /^what\s+(?:has|does|is)\s+(.+?)\s+(?:still\s+)?(?:got|have|has)\s+(?:left\s+(?:to\s+do)?|to\s+do|open|on\s+(?:his|her|their)\s+plate)(?:\s+(?:still|right now|now|rn|atm))?\s*[?.!]*$/i,
    "open tasks assigned to $1",
  );
  // ("Blue Bottle Roasters is a new client, …", "priya shah @ northwind is a new lead": a new record of that kind.
  // Not "do we know if Acme is a new client?", "I think Initech is …": a name of four words at most, no hedge.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?!(?:who|what|which|how|there|it|this|that|he|she|they)\b)(?![^,.;:?!]*\b(?:think|know|if|whether|sure|maybe|guess)\b)((?:[^\s,.;:?!]+\s+){0,3}[^\s,.;:?!]+)\s+(?:is|are)\s+(?:a\s+|our\s+)?new\s+(lead|client|customer|contact|employee|candidate|hire|project)\b\s*[,.;:!—–-]?\s*/i,
      (_m, name: string, noun: string) => `new ${noun} ${name.replace(/\s+@\s+(?=\p{L})/u, " from ")}, `,
    );
  // ("add another 500 on it", "they paid another $2k": the amount itself.)
  text = text.replace(/\banother\s+(?=[$€£]?\s?\d)/gi, "");
  // ("kessler gmbh new cust, EUR, …": a note headed by the name, then "new" and the kind, then what it is.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?![^,.;:?!]*?\b(?:show|list|any|all|get|find|give|see|add|create|make|set|save|put|enter|record|register|open|start|need|want|please|pls|can|could|would|you|i|we|a|an|our|the|my|who|what|which|how|there)\s)((?:[^\s,.;:?!]+\s+){0,3}[^\s,.;:?!]+)\s+new\s+(lead|client|customer|cust|contact|employee|candidate|hire|project)\s*[,:;—–-]\s*/i,
      (_m, name: string, noun: string) => `new ${noun.toLowerCase() === "cust" ? "customer" : noun} ${name}, `,
    );
  // ("task 7 is urgent now": a record by its number, then its new priority.)
  text = text.replace(
    /^(?:the\s+)?(task\s+(?:#|no\.?\s*|number\s+)?\d+)\s+is\s+(?:now\s+)?(urgent|high|medium|low)(?:\s+priority)?(?:\s+now)?\s*[.!]*$/i,
    "set $1 priority to $2",
  );
  // ("pls put 'call the movers about the keys' on the task list so it doesnt slip": a new record of the list's kind;
  // why it is asked for is no part of it.)
  text = text.replace(
    /^(?:(?:pls|please|can you|could you)\s+)?(?:put|add|stick|throw|get)\s+(.{3,120}?)\s+(?:on|onto|to|in)\s+(?:the|my|our|your)\s+(task|to-?do|lead|contact)s?\s+(?:list|board)\b(?:\s*,?\s*(?:so|because|since|as)\s+[^,.;:]*)?/i,
    (_m, what: string, kind: string) => `add ${/^to-?do$/i.test(kind) ? "task" : kind.toLowerCase()} ${what}`,
  );
  // ("Lead to create: Bjorn Lund (Acme), …": the command, then the record.)
  text = text.replace(/^(lead|customer|client|contact|deal|task|project|employee|candidate|opening)\s+to\s+(?:create|add|set up)\s*:/i, "create $1:");
  // ("create lead: Bjorn Lund (Acme), …": a person's company in brackets after their name.)
  text = text.replace(
    /^((?:(?:please|pls|can you|could you)\s+)?(?:create|add|new|save)\s+(?:a\s+)?(?:new\s+)?(?:lead|contact)\s*:?\s*\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,3})\s*\(([^()]{2,40})\)/iu,
    "$1 from $2",
  );
  // ("Could you set up Blue Bottle Roasters as a customer? Their email is …": the request goes on after its question mark.)
  text = text.replace(
    /^((?:(?:could|can|would|will)\s+you\s+(?:please\s+)?|please\s+)(?:set up|add|create|make|record|put|enter|save)\b[^?]{3,120})\?\s+(?=\p{L})/iu,
    "$1, ",
  );
  // ("task number 12", "deal no. 7": the record by its number.)
  text = text.replace(/\b(task|deal|lead|project|contact|customer|employee|candidate|payment)\s+(?:number|no\.?|nr\.?|#)\s*(\d+)\b/gi, "$1 $2");
  // ("the Test emails task (customer portal project)": the parent in brackets, without its noun.)
  text = text.replace(/\(\s*(?:the\s+)?([^()]+?)\s+project\s*\)/gi, "($1)");
  // ("oscorp pilot deal value -> 12k": that field, set to that.)
  // (An arrow, not "=": "deals with stage = won" is a filter.)
  if (!ASKED.test(text) && !/\b(?:where|with|whose|which|that)\b/i.test(text))
    text = text.replace(/^(.+?)\s+(value|stage|status|priority|title|designation|department|email|phone|amount)\s*(?:->|→|=>)\s*(.+)$/i, "set $1 $2 to $3");
  // ("For the lead Carl Berners-Lee, the value should now be 1,500.": that field of that record.)
  text = text.replace(
    /^for\s+(?:the\s+)?(lead|deal|customer|client|contact|task|project|employee|candidate|opening)\s+(.+?),\s*(?:the\s+|their\s+|its\s+|his\s+|her\s+)?([a-z]+(?:\s+date)?)\s+should\s+(?:now\s+)?be\s+(.+?)\s*[.!]*$/i,
    "set $1 $2 $3 to $4",
  );
  // ("she converted, update her": the state of whom the conversation is about.)
  text = text.replace(
    /^(?:she|he|they)\s+(?:has\s+|have\s+)?(?:just\s+)?([a-z]+)\s*[,.;!]\s*(?:(?:pls|please)\s+)?(?:update|change|mark)\s+(her|him|them)(?:\s+(?:pls|please|accordingly))?\s*[.!]*$/i,
    "mark $2 as $1",
  );
  // ("can we bump dennis kernighan's candidate stage up to offer": moved to it.)
  text = text.replace(/\bbump\s+(.+?)(?:'s\s+(?:candidate\s+|deal\s+|lead\s+)?(?:stage|status))?\s+up\s+to\b/gi, "move $1 to");
  // ("can we move …": asked, but a command — unless it ends as a question: "can we delete invoices?".)
  if (!/\?\s*$/.test(text))
    text = text.replace(/^(?:(?:can|could)\s+we|let's)\s+(?=(?:move|bump|set|mark|change|update|push|assign|close|delete|remove)\b)/i, "");
  // ("the Test emails task (customer portal) needs urgent priority": its priority set — the word said, nothing after
  // it but a please; not "what needs urgent attention?".)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?:the\s+)?(.+?)(?:\s+task)?(\s+\([^()]+\))?\s+(?:needs|should have|should get|gets)\s+(?:to\s+be\s+)?(urgent|high|medium|low)\s+prio(?:rity)?\b(?:\s+(?:pls|please|now|asap))*\s*[.!]*$/i,
      (_m, name: string, parent: string | undefined, level: string) => `set ${name}${parent ?? ""} priority to ${level}`,
    );
  // ("high prio, due fri, assign lynn": the last of a list of changes, a person given it — not a record named "lynn".)
  text = text.replace(/,\s*(?:and\s+)?assign\s+(?!(?:it|this|that|them|him|her|the|to|me)\b)(\p{L}+(?:\s+\p{L}+)?)\s*[.!]*$/iu, ", assign it to $1");
  // ("please give it high priority": made so — given a priority, not handed to someone.)
  text = text.replace(/\bgive\s+(it|this|that|this one|that one|the task)\s+(?:an?\s+)?(urgent|high|medium|low)\s+prio(?:rity)?\b/gi, "make $1 $2 priority");
  // ("Grace Allen: go ahead with the hire, title Support Specialist": hire them.)
  text = text.replace(
    /^([^:,]{3,40}):\s*go\s+ahead\s+(?:with\s+(?:the\s+)?(?:hire|hiring|offer)|and\s+hire\s+(?:her|him|them))\s*[,;]?\s*(?:title\s+|as\s+)?/i,
    "hire $1 as ",
  );
  // ("count of applicants for …", "number of payments received in sept": how many.)
  text = text.replace(
    /^((?:(?:and|ok|so)\s+)?)(?:the\s+)?(?:total\s+)?(?:count|number)\s+of\b(?!\s+(?:the|this|that|a|an|his|her|their|its)\b)/i,
    "$1how many",
  );
  // ("katherine conway is taking over task 88", "ERP migration: Alan Allen takes over Plan search": assigned to them.)
  // (Not "who is taking over task 88?", nor "Sarah is taking over from John on …".)
  if (!ASKED.test(text.replace(/^[^:]{3,40}:\s+/, "")))
    text = text.replace(
      /^(?:([^:]{3,40}):\s+)?(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,2}?)\s+(?:is\s+taking|takes|will\s+take|is\s+going\s+to\s+take|should\s+take)\s+over\s+(?!from\b)(?:the\s+)?(.+?)\s*[.!]*$/iu,
      (_m, parent: string | undefined, person: string, what: string) => `assign ${what}${parent ? ` in ${parent}` : ""} to ${person}`,
    );
  // ("hedy allen is transfering to sales dept", "is joining the Sales team": their department.)
  // (Not "who is joining the sales team", "I'm joining the sales team call at 3", "the deal is moving to …": a
  // person's name, and the team ends the clause.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?!(?:the|a|an|this|that|our|my|it|they|he|she|someone|everyone)\b)(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*){0,2}?)\s+(?:is\s+|will\s+be\s+)?(?:transferring|transfering|transfers|moving|moves|switching|joining|joins)\s+(?:over\s+)?(?:to\s+)?(?:the\s+)?(\p{L}+)\s+(?:dept|department|team)\b(?=\s*(?:[,.;!—–]|$)).*$/iu,
      "set $1's department to $2",
    );
  // ("we reached out to james perlman, set the lead to contacted": the command is of whom the news was.)
  text = text.replace(
    /^(?:(?:i|we)\s+)?(?:just\s+)?(?:reached out to|called|rang|phoned|emailed|spoke to|spoke with|talked to|heard back from)\s+(\p{L}[\p{L}'-]*\s+\p{L}[\p{L}'-]*)\s*[,;—–]\s*(?:(?:pls|please|so|can you)\s+)?(set|mark|move|update)\s+(?:the\s+(?:lead|contact|candidate)|him|her|them)\s+(to|as)\s+/iu,
    "$2 $1 $3 ",
  );
  // ("the Finance Analyst position is no longer open": closed.)
  text = text.replace(/\b(is|are)\s+no\s+longer\s+open\b/gi, "$1 closed");
  // ("Tyrell pilot: qualification now, pls update stage", "wonka pilot is 110k now, update the value": the new value
  // told first, then which field to update — that field set to it.)
  if (!/\?/.test(text))
    text = text.replace(
      /^(?:the\s+)?(.+?)(?:\s*:\s*|\s+(?:is|are|'s)\s+(?:now\s+)?)(?:at\s+|in\s+)?([^,;:]+?)\s+now\s*(?:[,;.!—–]|\s-)\s*(?:(?:pls|please|so|can you|could you)\s+)*(?:update|change|fix|set)\s+(?:the\s+|its\s+|their\s+|her\s+|his\s+)?(stage|status|value|amount|title|designation|department|priority|phone|email)\b(?:\s+(?:pls|please|accordingly))?\s*[.!]*$/i,
      "set $1 $3 to $2",
    );
  // ("massive dynamic renewal -> delete, we don't need that deal": the command after the arrow, of what comes before.)
  text = text.replace(/^(.+?)\s*(?:->|→|=>)\s*(delete|remove|archive|void|send|resend|remind)\b(.*)$/i, "$2 $1$3");
  // ("please permanently delete …": how thoroughly is no part of the command.)
  text = text
    .replace(/\b(?:permanently|completely|entirely|fully|totally)\s+(?=(?:delete|remove|void|archive|erase|cancel)\b)/gi, "")
    .replace(
      /^((?:(?:pls|please|can you|could you)\s+)*(?:delete|remove|erase)\b.+?)\s+(?:permanently|completely|entirely|for good|altogether)\s*([.!]*)$/i,
      "$1$2",
    );
  // ("The Fix search task in Data warehouse isn't needed anymore, please delete it", "Brian Sagan doesn't need to be in
  // our contact list anymore, please delete him": the command is of what the news was about — of its kind, if said.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?:the\s+)?(.+?)\s+(?:is(?:n't|\s+not|\s+no\s+longer)|are(?:n't|\s+not|\s+no\s+longer)|(?:does(?:n't|\s+not)|do(?:n't|\s+not))\s+need\s+to\s+be)\s+(.{0,40}?)\s*(?:any\s*more|any\s+longer)?\s*[,;.—–]+\s*(?:so\s+)?(?:(?:pls|please|can you|could you|just)\s+)*(delete|remove|archive)\s+(?:it|him|her|them|that)\s*(?:pls|please)?\s*[.!]*$/i,
      (_m, what: string, said: string, verb: string) => {
        const kind = /\b(contact|lead|customer|candidate|employee|vendor)s?\b/i.exec(said)?.[1]?.toLowerCase();
        return `${verb} ${kind ? `the ${kind} ` : ""}${what}`;
      },
    );
  // ("website relaunch: fix checkout is finished, close it out", "website relaunch / test emails -> review": a project,
  // then its task and the task's new state — that task there.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?:the\s+)?(\p{L}[\p{L}\d .&'’]{2,40}?)\s*(?::|→|->|\/|—|–)\s*(?!(?:the|a|an|our|my|their|his|her|its|this|that)\s)(\p{L}[\p{L}\d .&'’]{2,60}?)\s+(?:(?:is|are)\s+(?:now\s+)?)?(?:(finished|done|complete|completed)|(?:ready\s+for\s+|in\s+|->\s*|→\s*)(review))(?:\s+now)?(?:\s*[,;.!—–]+\s*(?:(?:pls|please|so|can you)\s+)*(?:close|mark|set|move)\s+(?:it|that)(?:\s+(?:out|off|as done|to done|done|complete))?)?\s*(?:pls|please|thx|thanks)?\s*[.!]*$/iu,
      (_m, project: string, task: string, done: string | undefined, review: string | undefined) => `mark ${task} in ${project} as ${done ? "done" : review}`,
    );
  // ("acme wants bills sent to finance@acme.example from now on, update their billing email", "hooli's AP moved to …":
  // the address told in the news, set where the command says, on whose it is.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(?:the\s+)?(\p{L}[\p{L}\d&.-]*(?:\s+\p{L}[\p{L}\d&.-]*){0,3}?)(?:['’]s\s+\p{L}+(?:\s+\p{L}+)?)?\s+(?:wants|would like|has asked|asked|says|said|told us|uses|changed|moved)\b[^@]*?\s([^\s@<>(),;:"']+@[^\s@<>(),;:"']+\.[a-z]{2,})\b[^@]*?[,.;—–]\s*(?:(?:pls|please|so|can you|could you)\s+)*(?:update|change|set)\s+(?:their|his|her|its|the)\s+(billing\s+e-?mail|e-?mail(?:\s+address)?)\s*(?:pls|please|accordingly)?\s*[.!]*$/iu,
      "update $1's $3 to $2",
    );
  // ("On invoice INV-000335, please add a note saying: PO 4471 required", "inv 335 needs a note → PO 4471 required",
  // "hedy hopper candidate notes: 'strong sql, wants remote'": the note, all of it, added to the record named.)
  if (!ASKED.test(text))
    text = text
      .replace(
        /^(?:on|for)\s+(?:the\s+)?([^,]{2,60}?)\s*,\s*(?:(?:pls|please|can you|could you|would you)\s+)*(?:add|put|leave|write|attach)\s+(?:in\s+)?(?:a\s+|the\s+)?note\s*(?:saying|that says|reading|with)?\s*:?\s*(.+?)\s*$/i,
        "add a note to $1: $2",
      )
      .replace(/^(.{2,60}?)\s+(?:needs|gets|should get)\s+a\s+note\s*(?:→|->|=>|:|—|–|\s-|saying|that says|reading)\s*(.+?)\s*$/i, "add a note to $1: $2")
      .replace(/\b(notes?)\s*:\s*['"‘“]([^'"‘“’”]+)['"’”]\s*[.!]*$/i, "$1: $2")
      .replace(
        /^(?!(?:new|add|create|log|record|make|set|update|change|put|open|please|pls)\b)(\p{L}[\p{L}\d'’.-]*(?:\s+[\p{L}\d][\p{L}\d'’.-]*){0,4}?)\s+notes?\s*:\s*(.+)$/iu,
        "add a note to $1: $2",
      );
  // ("onboarding revamp has a task draft checkout we dont need anymore, pls delete": that task there.)
  if (!ASKED.test(text))
    text = text.replace(
      /^(.+?)\s+has\s+(?:a|the|an)\s+task\s+(?:called\s+|named\s+)?(.+?)\s+(?:that\s+|which\s+)?we\s+(?:don't|dont|do\s+not)\s+need\s+(?:any\s*more|any\s+longer)\s*[,;.—–]*\s*(?:(?:pls|please|so|just)\s+)*(delete|remove)\b(?:\s+it)?\s*(?:pls|please)?\s*[.!]*$/i,
      "$3 the $2 task in $1",
    );
  // ("a total somewhere from 1,000 to 2,000": a range of amounts — figures with separators, a sign or a "k", not years.)
  // (Not in a change: "change the deal value from 10,000 to 12,000" is its new value.)
  if (!/\b(?:change|changed|update|set|move|bump|raise|increase|lower|drop|push|adjust|correct|fix)\b/i.test(text))
    text = text.replace(
      /\b(?:somewhere\s+|anywhere\s+)?from\s+([$€£]?\d{1,3}(?:,\d{3})+(?:\.\d+)?k?|[$€£]\d[\d,.]*k?|\d+(?:\.\d+)?k)\s+(?:(?:up\s+)?to|through|thru|-|and)\s+([$€£]?\d{1,3}(?:,\d{3})+(?:\.\d+)?k?|[$€£]\d[\d,.]*k?|\d+(?:\.\d+)?k)\b/gi,
      "between $1 and $2",
    );
  // ("invoices where the total is between …", "deals whose value is over 50k": the amount compared is the record's own.)
  text = text.replace(
    /\s+(?:where|whose|with)\s+(?:the\s+|a\s+|an\s+|their\s+|its\s+)?(?:totals?|amounts?|values?)\s+(?:is\s+|are\s+|of\s+)?(?=(?:between|over|above|under|below|more than|less than|at least|at most|greater than)\b)/gi,
    " ",
  );
  // ("what are all the qualified leads worth (added together)": how much they are worth.)
  text = text.replace(/^what\s+(are|is)\s+(.+?)\s+worth\b(?:\s+(?:added\s+together|together|combined|altogether|in total))?/i, "how much $1 $2 worth");
  text = text.replace(/\badded\s+(?:up|together)\b/gi, "in total");
  // ("leads that came in through our website", "came thru referrals": where they came from.)
  text = text.replace(/\b(?:came|come|comes|coming)\s+(?:in\s+)?(?:through|thru|via)\s+(?:our\s+|the\s+)?/gi, "from ");
  // ("and the bank transfers for the same month?": the period already asked about, which a follow-up keeps — said at
  // the end of a clause, not "in the same year as Grace".)
  text = text.replace(
    /\s*,?\s*\b(?:for|in|over|during|from|across)\s+(?:the\s+)?(?:same|that)\s+(?:month|period|week|year|quarter|time(?:\s*frame)?|timeframe|dates|date range|range|stretch)\b(?=\s*(?:[?.!,;]|$))/gi,
    "",
  );
  // ("please exclude any that have been paid in full": the ones in that state, left out.)
  text = text.replace(
    /^(?:(?:please|pls|now|and|ok|okay)\s+)*(?:exclude|drop|remove|filter out|take out|skip|ignore|hide)\s+(?:any|those|the ones|all|ones|anything|everything)\s+(?:that|which|who)\s+(?:have|has|had|are|were|is|got)\s+(?:been\s+|already\s+)*([a-z ]+?)(?:\s+in full|\s+off)?\s*[.!?]*$/i,
    "leave out the $1 ones",
  );
  // ("drop any that we lost": the same, said of what we did to them.)
  text = text.replace(
    /^(?:(?:please|pls|now|and|ok|okay)\s+)*(?:exclude|drop|remove|filter out|take out|skip|ignore|hide)\s+(?:any|those|the ones|all|ones|anything|everything)\s+(?:that|which)\s+(?:we|they)(?:'ve|\s+have|\s+had)?\s+([a-z]+)\s*[.!?]*$/i,
    "leave out the $1 ones",
  );
  // ("excluding won/lost", "paid/unpaid": either word — in lower case and of three letters or more, so no name
  // such as "CI/CD" and no "w/" or "n/a").
  text = text.replace(/\band\/or\b/g, "or").replace(/(?<![\p{L}\d./@-])([a-z]{3,})\/([a-z]{3,})(?![\p{L}\d/.@-])/gu, "$1 or $2");
  // ("who are our contacts over at Globex": at Globex.)
  text = text.replace(/\bover\s+(at|in)\s+(?=\p{L})/giu, "$1 ");
  // "who do we have at nakatomi": the people we know there; "who's in the berlin office": the people working there.
  text = text
    .replace(/^who\s+(?:do|have)\s+(?:we|i)\s+(?:got|have|know)\s+(at|from|in)\s+/i, "who do we know $1 ")
    .replace(/^who(?:'s| is| are|'re)\s+(?:in|at)\s+(?:the\s+)?(.+?)\s+(office|branch)\b/i, "employees in the $1 $2")
    // ("who applied for the senior engineer role": the candidates for that opening.)
    .replace(/^who(?:'s| has)?\s+(?:applied|applying)\s+(?:for|to)\s+(?:the\s+)?(.+?)\s+(?:role|job|position|opening)\b/i, "candidates for the $1 opening")
    // ("add Tomás Ruiz (…) applying for finance analyst": a new candidate for that opening.)
    .replace(/^(?:add|new)\s+(?!candidate\b)(.+?)\s+(?:applying|who applied|applied)\s+(?:for|to)\s+(?:the\s+)?/i, "new candidate $1 for ")
    // ("bump senior engineer openings to 3": that opening's positions.)
    .replace(
      /^(?:bump|raise|increase|up|change|set)\s+(?:the\s+)?(.+?)\s+(?:openings|positions|seats|headcount)\s+to\s+(\d{1,3})\b/i,
      "set $1's positions to $2",
    );
  text = text
    // ("drop the nakatomi renewal value to 95k", "drop X to low priority": lowered, not deleted.)
    .replace(/^(?:(?:pls|please)\s+)?drop\s+(?!(?:all|every)\b)(.+?)\s+to\s+(?=\S)/i, "set $1 to ")
    // ("fire off a reminder", "take down the … posting", "take the payment off INV-…": sent, deleted.)
    .replace(/^(?:(?:pls|please|can you|could you)\s+)?(?:fire|shoot|send)\s+off\s+/i, "send ")
    .replace(/^(?:(?:pls|please|can you|could you)\s+)?take\s+down\s+/i, "delete ")
    .replace(/^(?:(?:pls|please|can you|could you)\s+)?take\s+(the\s+.+?)\s+off\s+(?:of\s+)?/i, "delete $1 on ")
    // ("let's make hedy hopper an offer": moved to offer.)
    .replace(/^(?:let'?s\s+|lets\s+|we(?:'ll| will| want to)?\s+)?(?:make|extend|send)\s+(.+?)\s+an\s+offer\b/i, "move $1 to offer")
    // ("Noah Fischer applied to senior engineer, noah@…": a new candidate for that opening.)
    .replace(/^(\p{Lu}[\p{L}'-]*\s+\p{Lu}[\p{L}'-]*)\s+(?:just\s+)?(?:applied|is applying|applies)\s+(?:to|for)\s+(?:the\s+)?/u, "new candidate $1 for ")
    // ("who billed the most hrs": time logged; "busiest first": most first.)
    .replace(/\bbilled\s+(the\s+)?(most|least|fewest)\s+(hrs|hours|time)\b/gi, "logged $1$2 $3")
    .replace(/\bbusiest\b/gi, "most")
    // ("worst offenders first": the most first.)
    .replace(/\bworst\s+(?:offenders|ones|payers|first)\s+first\b|\bworst\s+offenders\b/gi, "most first");
  text = text
    // ("new project 'Year-end close', runs dec 1 to jan 15": its start and end.)
    .replace(
      /\bruns?\s+(?:from\s+)?([a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+[a-z]{3,9})\s+(?:to|until|till|through|thru|-)\s+/gi,
      "starting $1, ending ",
    )
    // ("new project Q1 billing cleanup, jan 4 through mar 31", "kicks off jan 5, wraps march 31": the same.)
    .replace(
      /\b((?:(?:pls|please|can you|could you|can u|could u)\s+)?(?:new|create|add|set up|start|spin up|open)\s+(?:a\s+)?(?:new\s+)?project\b[^,]*,\s*)(?:from\s+)?([a-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+[a-z]{3,9})\s+(?:to|until|till|through|thru|-)\s+/i,
      "$1starting $2, ending ",
    )
    .replace(/\b(?:kicks?\s+off|kicking\s+off)\s+(?=[a-z]{3,9}\.?\s+\d|\d{1,2}(?:st|nd|rd|th)?\s+[a-z]{3,9})/gi, "starting ")
    .replace(/\b(?:wraps?(?:\s+up)?|wrapping\s+up)\s+(?=[a-z]{3,9}\.?\s+\d|\d{1,2}(?:st|nd|rd|th)?\s+[a-z]{3,9})/gi, "ending ")
    // ("set bjarne's dept to operations, title operations lead": the second field's value follows its name too.)
    .replace(
      /^((?:set|change|update|make|move)\b.*?\bto\s+[^,]+),\s*(?:and\s+)?(title|job title|designation|dept|department|branch|office|email|phone|priority|role)\s+(?!to\b|is\b|should\b|=)/i,
      "$1 and $2 to ",
    )
    // ("put 6.5 hours against fix exports": time on that task.)
    .replace(/\b(hours?|hrs?|minutes?|mins?|h|m)\s+against\s+/gi, "$1 on ")
    // ("joan ritchie left massive dynamic, she's at umbrella now": her company now.)
    .replace(
      /^(.+?)\s+(?:left|quit)\s+.+?,\s*(?:she|he|they)(?:'s|'re| is| are)\s+(?:now\s+)?(?:at|with|working at|over at)\s+(.+?)(?:\s+now)?\s*[.!]*$/i,
      "set $1's company to $2",
    )
    // ("we need one more support specialist, make it 3 positions").
    .replace(
      /^we\s+need\s+(?:one|\d+|a couple)\s+more\s+(.+?)s?\s*,\s*make\s+it\s+(\d{1,3})\s+(?:positions|seats|openings|people)\b.*$/i,
      "set $1's positions to $2",
    );
  text = text
    // ("which invoices fell overdue this month": overdue, and due then.)
    .replace(/^(which|what|any|how many)\s+(invoices|bills)\s+(?:fell|went|became|turned|have gone|have become|got)\s+overdue\b/i, "$1 overdue $2 due")
    // ("collected per currency since july": what came in.)
    .replace(/^(?:total\s+)?collected\b/i, "how much did we collect")
    // ("sent invoices with no payment at all", "invoices sent where nothing's been paid yet": sent is nothing paid yet.)
    .replace(/\b(sent\s+invoices)\s+with\s+no\s+payments?(?:\s+(?:at all|yet|received))?\s*,?/gi, "$1")
    .replace(/^(invoices)\s+sent\s+(?:where|with|that have|and)\s+nothing(?:'s| has|s)?\s+(?:been\s+)?paid(?:\s+(?:on them|yet|so far))*/i, "sent $1")
    // ("when did acme pay INV-000117", "how did wayne pay INV-000019 - card or bank?": the payments on it.)
    .replace(
      /^when\s+(?:did|was)\s+.*?\b((?:invoice|INV)-\d+)\s+(?:paid|get paid)\s*[?.!]*$|^when\s+did\s+.+?\s+pay\s+((?:invoice|INV)-\d+)\s*[?.!]*$/i,
      (_m, a?: string, b?: string) => `payments on ${a ?? b}`,
    )
    .replace(/^how\s+did\s+.+?\s+pay\s+((?:invoice|INV)-\d+)\b.*$/i, "payments on $1")
    // ("how was INV-000063 paid": the payments on it.)
    .replace(/^how\s+(?:was|were|did|has)\s+((?:invoice|INV)-\d+)\s+(?:get\s+|been\s+)?paid\b.*$/i, "payments on $1")
    // ("did stark ever pay INV-000116?": its state.)
    .replace(/^did\s+.+?\s+(?:ever\s+)?(?:pay|settle)\s+((?:invoice\s+)?INV-\d+)\b(?:\s+(?:yet|already|in full|off))*\s*\??$/i, "status of $1")
    // ("INV-000230 - has it been paid?": the question asked of that invoice.)
    .replace(/^((?:invoice\s+)?INV-\d+)\s*[-–—:,]\s*(has|is|was|did)\s+it\s+(.+)$/i, "$2 $1 $3")
    // ("lifetime payments from X": all of them, added up.)
    .replace(/\blifetime\s+(payments|revenue|value|sales|spend|billing|invoicing)\b/gi, "total $1")
    // ("drafts that have been sitting there for more than 2 weeks", "created more than a month ago": older than that.)
    .replace(
      /\b(?:(?:that|which)\s+)?(?:(?:have|has|'ve)\s+)?(?:been\s+)?(?:sitting|lying|waiting|hanging|stuck|pending)(?:\s+(?:there|around|about))?\s+(?:for\s+)?(?:more than|over|longer than|at least)\s+/gi,
      " older than ",
    )
    .replace(/\b(?:created|added|made|raised)\s+(?:more than|over)\s+(\d+|a|an|one|two|three)\s+(days?|weeks?|months?)\s+ago\b/gi, "older than $1 $2")
    // ("what's due in the next 3 days that isnt finished": not done — a state, not when it was finished.)
    .replace(/\b(isn'?t|aren'?t|not(?:\s+yet)?)\s+(?:finished|completed|complete)\b/gi, "$1 done")
    // ("half a day for fran boyd on plan checkout": four hours of work.)
    .replace(/\bhalf\s+a\s+day\b/gi, "4 hours")
    .replace(/\b(?:a\s+)?(?:full|whole)\s+day\b(?=.*\b(?:on|for)\b)/gi, "8 hours")
    // ("cyberdyne's invoice history": their invoices.)
    .replace(/\b(invoice|payment)\s+(?:history|hisotry|histroy)\b/gi, "$1s")
    // ("is INV-000230 paid", "has INV-… been sent?": its state.)
    .replace(
      /^(?:is|has|was)\s+(?:the\s+)?((?:invoice\s+)?INV-\d+)\s+(?:been\s+|already\s+)*(?:paid|sent|voided|void|overdue)(?:\s+(?:yet|already|off|in full))*\s*\??$/i,
      "status of $1",
    )
    // ("how much is that all together": altogether.)
    .replace(/\ball\s+together\b/gi, "altogether")
    // ("who's more than 90 days late paying": invoices overdue by that much.)
    .replace(
      /^(?:who(?:'s| is| are)|which\s+(?:customers|clients)\s+(?:are|is))\s+(more than|over|at least)\s+(\d+)\s+days\s+(?:late|overdue|behind)(?:\s+(?:paying|on payments?|with payments?|on their invoices))?/i,
      "invoices overdue by $1 $2 days",
    )
    // ("the average payment we get from our euro customers": payments in that currency.)
    .replace(
      /\b(payments?|invoices?|invoice value|invoice amount)\b(.*?)\s+(?:from|for|of|by|to)\s+(?:our\s+)?(euro|eur|usd|dollar|gbp|pound|sterling)\s+(?:customers|clients|accounts)\b/gi,
      "$1$2 in $3",
    );
  text = text
    // ("put in time for ada on data warehouse": time logged.)
    .replace(/^(?:(?:pls|please|can you|could you)\s+)?put\s+in\s+(?:some\s+)?(?:time|hours)\b/i, "log time")
    // ("give massive dynamic two more weeks on INV-000155, new due date dec 23": that invoice's due date moved.)
    .replace(/^.*?\b((?:invoice|INV)-\d+)\b.*?,?\s*(?:the\s+)?new\s+due\s+date\s+(?:is\s+|to\s+|of\s+|:\s*)?(.+?)\s*[.!]*$/i, "move the due date of $1 to $2");
  // ("german customers that still have a balance": a balance above nothing.)
  text = text.replace(
    /\b(?:that|who|which)?\s*(?:still\s+)?(?:have|has|with|carrying|carry)\s+(?:a|any)\s+balance\b(?!\s+(?:over|above|under|below|of|more|less|greater|bigger|smaller|higher|lower)\b)/gi,
    " with a balance over 0",
  );
  // ("which german customers still owe us money": the customers with something still owed, listed — not a ranking.)
  text = text.replace(
    /\b(customers|clients)\s+(?:(?:who|that|which)\s+)?(?:still\s+)?(?:owe|owes)\s+(?:us\s+)?(?:(?:any\s+)?money|anything|something)?(?=\s*[?.!]*$)/gi,
    "$1 with a balance over 0",
  );
  // ("a count of candidates per stage, prepping for the hiring sync": why it is asked, after a comma.)
  text = text.replace(
    /\s*[,;—–]\s*(?:(?:i'm|im|i am|we're|we are)\s+)?(?:prepping|preparing|getting ready|trying to|doing|planning|putting together|working on)\b[^,?]*?(?=\s*[?.!]*$)/i,
    "",
  );
  // ("got a linkedin lead – marco bianchi from bianchi srl": a new lead, told.)
  text = text.replace(
    /^(?:(?:we|i)(?:'ve)?\s+)?(?:just\s+)?(?:got|have|received)\s+(?:a|an)\s+(?:new\s+)?(?:([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+)??lead\s*(?:[-–—:,]|\s-)\s*(.+?)\s*[.!]*$/iu,
    (_m, source: string | undefined, rest: string) => `new lead ${rest}${source ? `, source ${source}` : ""}`,
  );
  // ("guido allen: we're making him an offer": moved to that stage.)
  text = text.replace(
    /\b(?:we(?:'re| are)\s+|let's\s+)?(?:making|giving|sending|extending|make|give|send|extend)\s+(him|her|them|[\p{L}'-]+(?:\s+[\p{L}'-]+){0,2}?)\s+an?\s+(?:job\s+)?offer\b/giu,
    "move $1 to offer",
  );
  // ("sophie says fix dashboard (security audit) is finished": what was said is the news. Not "Draft reports in
  // Mobile app is …": a title with a verb of saying in it.)
  text = text.replace(
    /^(?:[\p{L}'-]+\s+){1,2}(?:says|said|tells me|told me|just told me|reports|reported|mentioned|confirmed)\s+(?:that\s+)?(?!(?:in|on|for|of|from|to|at)\s)(?=\S+\s+.*\b(?:is|are|was|has been)\s)/iu,
    "",
  );
  // ("fix dashboard (security audit) is finished": done.)
  text = text.replace(
    /^(?!(?:is|are|has|have|what|which|who|when|how)\b)(.+?)\s+(is|are|has been|was)\s+(?:now\s+)?(?:all\s+)?(?:finished|complete|completed|done|wrapped up|sorted)(?=\s*(?:[,.;!—–]|$))/i,
    "$1 $2 done",
  );
  // ("vat collected on our invoices", "sales tax we charged": the invoices' tax.)
  text = text.replace(/\b(?:vat|gst|sales tax|tax)\s+(?:(?:that\s+)?we\s+)?(?:collected|charged|billed|invoiced)\b/gi, "tax");
  text = text.replace(/\b(?:vat|gst)\b(?!\s+(?:number|no\b|nr\b|id\b|reg))/gi, "tax");
  // ("ignore drafts + void": and.)
  text = text.replace(/\s\+\s(?=(?:voids?|voided|drafts?|cancelled|paid|unpaid|overdue)\b)/gi, " and ");
  // ("rank customers by how much they still owe us, top 5": the top ones by it.)
  text = text.replace(
    /^(?:(?:can|could) (?:you|u)\s+)?rank\s+(?:the\s+|our\s+)?([a-z]+)\s+by\s+(.+?)(?:,?\s*top\s+(\d+))?\s*[?.!]*$/i,
    (_m, noun: string, by: string, n?: string) => `top ${n ?? ""} ${noun} by ${by}`.replace(/\s+/g, " "),
  );
  text = text.replace(/\bby\s+how\s+much\s+(they|he|she)\s+(still\s+)?owes?\b/gi, "by what $1 $2owe");
  // ("which customers did we invoice the most": billed — the money, not the number of invoices.)
  text = text.replace(/\b(?:did|do|have)\s+(we|you|i)\s+(?:invoice|bill|charge)d?\s+(?=(?:the\s+)?(?:most|least)\b)/gi, "have $1 billed ");
  // ("biggest department by headcount?", "top person by hours logged, september", "the project with the highest
  // number of tasks": one group, the one with the most — said in the singular.)
  text = text
    .replace(
      /^(?:what(?:'s| is)\s+|whats\s+)?(?:the\s+|our\s+)?(?:biggest|largest)\s+([a-z]+(?<!s))\s+by\s+(?:headcount|head count|size|people)\b/i,
      "which $1 has the most employees",
    )
    .replace(/^(?:what(?:'s| is)\s+|whats\s+|who(?:'s| is)\s+)?(?:the\s+|our\s+)?(?:top|number one|#1)\s+([a-z]+(?<!s))\s+by\s+/i, "which $1 has the most ")
    .replace(
      /^(?:what(?:'s| is)\s+|whats\s+)?(?:the\s+)?([a-z]+(?<!s))\s+(?:with|w\/)\s+the\s+(?:most|highest number of|largest number of|biggest number of)\s+(?=[a-z]+s\b)/i,
      "which $1 has the most ",
    );
  // ("where are we with ship permissions on …": its status.)
  text = text.replace(/^where\s+(?:are|r)\s+we\s+(?:with|on|at)\s+/i, "status of ");
  // ("where does inv #216 stand right now": its status.)
  text = text.replace(/^where\s+(?:does|do)\s+(.+?)\s+stand\b(?:\s+(?:right\s+)?now|\s+today|\s+at the moment)?\s*[?.!]*$/i, "status of $1");
  // ("INV-000123 got paid yesterday, wire, whole thing": paid, in full.)
  text = text.replace(/^((?:invoice\s+)?INV-\d+)\s+(?:got|was|has been|just got)\s+paid\b(?!\?)(.*)$/i, "mark $1 as paid$2");
  // ("hooli still hasnt paid INV-000355 - reminder please": a reminder on it.)
  text = text.replace(
    /^.*?\b((?:invoice\s+)?INV-\d+)\b.*?(?:[-–—,.;:]|\s-)\s*(?:(?:send|send them|send a|a)\s+)?(?:reminder|nudge|chaser)\s*(?:pls|please|plz)?\s*[.!]*$/i,
    "remind $1",
  );
  // ("take that opening down", "pull the product marketer posting": closed, i.e. deleted.)
  text = text.replace(/\b(?:take|pull)\s+(?:that|the|this)\s+(.{0,40}?)(opening|posting|job ad|role|position)\s+down\b/gi, "delete the $1$2");
  // ("whats still open on mobile app", "anything due next week on the security audit": a project's tasks — not when
  // the invoices are said: "whats outstanding on acme's invoices".)
  text = text.replace(
    /^(?!.*\b(?:invoices?|bills?)\b)what(?:'s| is|s)\s+(?:still\s+)?(?:open|left|outstanding|pending|remaining|left to do)\s+(?:on|in|for)\s+(?!(?:those|these|them|it|that|this|all|each|every|invoice|INV)\b)/i,
    "open tasks on ",
  );
  text = text.replace(
    /^(?:is\s+there\s+|do we have\s+)?anything\s+(due\s+[^,?]+?)\s+(on|in)\s+(?:the\s+)?(?!(?:yet|us|it|them|that|those|invoices?|payment)\b)([^,?]+?)\s*[?.!]*$/i,
    "tasks $1 $2 $3",
  );
  // ("put a task on the office move project for anita": a new task there.)
  text = text.replace(/^(?:(?:pls|please|can you|could you)\s+)?(?:put|stick|throw|pop)\s+(?:a|an)\s+(?:new\s+)?task\s+(on|in|into|under)\b/i, "new task $1");
  // ("need to send the contract to mary gosling, whats her email again?": the question, about whom the why named.)
  text = text.replace(
    /^(?:i\s+)?(?:need|have|got|want|going|gotta|wanna)\s+(?:to\s+)?.+?\s+(?:to|for|with)\s+([\p{L}'-]+\s+[\p{L}'-]+)\s*[,;—–-]\s*((?:what|whats|what's|who|which|when|where|how)\b.+)$/iu,
    (_m, name: string, question: string) => question.replace(/\b(?:her|his|their)\b/i, `${name}'s`),
  );
  // ("for the board pack: customers we onboarded in q1", "i'd love to know which …", "would you mind showing me …",
  // "curious who …": what it is for, or how politely it is asked, is no part of the question.)
  text = text.replace(/^for (?:the|my|our|a|an) [\p{L} ]{1,30}?:\s*/iu, "");
  // ("hey so i'm doing the cash flow forecast for december, who owes us the most": what it is for, said first.)
  text = text.replace(
    /^(?:(?:hey|hi|ok|so|right)[,\s]+)*(?:i'm|im|i am|we're|we are)\s+(?:doing|prepping|preparing|putting together|working on|finishing|building)\s+[^,?—–]{3,60}?\s*(?:,|[—–]|\s-)\s*(?=(?:who|what|whats|what's|which|how|when|where|is|are|do|does|did|show|list|give)\b)/i,
    "",
  );
  text = text.replace(
    /^(?:hey[,\s]+)?(?:i'd love to know|i'd like to know|i would like to know|i want to know|i wanna know|i'm wondering|wondering|curious(?: to know)?|just curious|(?:would|do) you mind (?:showing|telling|giving) me|mind showing me)\s+/i,
    "",
  );
  // ("live leads": open ones.)
  text = text.replace(/\blive\s+(leads|deals|opportunities)\b/gi, "open $1");
  // ("between now and end of next week": from today to then.)
  text = text.replace(/\bbetween\s+(?:now|today)\s+and\s+/gi, "from today to ");
  // ("what's been paid against INV-000278": its payments.)
  text = text.replace(/^what(?:'s| has)\s+been\s+paid\s+(?:against|on|towards|for)\s+((?:invoice\s+)?INV-\d+)\b.*$/i, "payments on $1");
  // ("when did we post the finance analyst job": when it was created.)
  text = text.replace(/^when\s+did\s+we\s+(?:post|publish|advertise|open|put up|list)\s+(?:the\s+)?(.+?)\s*[?.!]*$/i, "when was the $1 created");
  // ("project with the highest number of unfinished tasks": which one has the most.)
  text = text.replace(
    /^(?:the\s+)?(customer|client|project|person|employee|deal|lead|candidate|opening)\s+with\s+the\s+(most|highest|biggest|fewest|least|lowest)\b/i,
    "which $1 has the $2",
  );
  // ("how many ppl do we have in contacts at nakatomi": contacts.)
  text = text.replace(/\b(?:people|ppl|persons|folks|names)\s+(?:do\s+we\s+have\s+)?in\s+(?:our\s+|the\s+)?contacts\b/gi, "contacts");
  // ("ken gosling's direct line is …": the phone.)
  text = text.replace(/\b(?:direct line|direct number|cell phone|cell number|mobile number|mobile no|landline|work number)\b/gi, "phone");
  // ("top 5 customers by amount still owed": by what they owe.)
  text = text.replace(/\bby\s+(?:the\s+)?amount\s+(?:still\s+)?(?:owed|outstanding|due)\b/gi, "by what they owe");
  // ("take him out of contacts": removed from them.)
  text = text.replace(/\btake\s+(.+?)\s+out\s+of\s+(?:the\s+|our\s+)?(contacts|leads|candidates|customers|the system|crm)\b/gi, "remove $1 from $2");
  // ("convert dennis into an employee": hired.)
  // ("… into an employee — senior engineer in engineering": hired as that.)
  text = text.replace(
    /^(?:convert|turn|make)\s+(.+?)\s+(?:into|to)\s+(?:an?\s+)?(?:employee|staff member|hire)\s*(?:[—–:,]|\s-)\s*(?!as\b)(?=\p{L})/iu,
    "hire $1 as ",
  );
  text = text.replace(/\b(?:convert|turn|make)\s+(.+?)\s+(?:into|to)\s+(?:an?\s+)?(?:employee|staff member|hire)\b/gi, "hire $1");
  // ("spin up a project", "kick off a new project": a new one.)
  text = text.replace(/^(?:(?:pls|please|can you|could you|can u)\s+)?(?:spin up|kick off|stand up|fire up)\s+(?:a|an)\s+(?:new\s+)?/i, "new ");
  // ("a new customer account for me": a new customer.)
  text = text.replace(/\b(customer|client)\s+account(?:\s+for\s+(?:me|us))?\b/gi, "$1").replace(/\s+for me\s*[?.!]*$/i, "");
  // ("acme settled INV-000315 in full by card": paid in full.)
  text = text.replace(/^.*?\b(?:settled|paid|cleared)\s+((?:invoice\s+)?INV-\d+)\s+in\s+full\b(.*)$/i, "mark $1 as paid$2");
  // ("openings with more than one seat": positions.)
  if (/\b(?:openings?|roles?|positions?|jobs?|hiring)\b/i.test(text) && !/\blicen[cs]e\b/i.test(text))
    text = text.replace(/\b(seats?|spots?)\b/gi, (word) => (word.toLowerCase().endsWith("s") ? "positions" : "position"));
  // ("show me what stark still hasn't paid": their unpaid invoices.)
  text = text.replace(
    /^(?:show me\s+|list\s+)what\s+(.+?)\s+(?:still\s+)?(?:hasn't|has not|hasnt|haven't|have not)\s+paid(?:\s+(?:us|yet))*\s*[?.!]*$/i,
    "unpaid invoices for $1",
  );
  // ("ERP migration end date -> jan 15": that date of that record.)
  text = text.replace(/^(.+?)\s+((?:end|due|start|close|expected close|issue)\s+date)\s*(?:->|→|=>|:)\s*(.+)$/i, "set the $2 of $1 to $3");
  // ("the draft for cyberdyne labs": their draft invoice.)
  text = text.replace(/\bthe\s+draft\s+(?:invoice\s+)?(?:for|to|of)\s+(.+?)(?=\s*(?:[,.;!—–]|\s-\s|$))/gi, "the $1 draft");
  // ("website relaunch is actually for acme holdings, not acme. fix the customer": that reference, corrected; read
  // whole, before the sentences are.)
  text = text.replace(
    /^(.+?)\s+is\s+(?:actually\s+|really\s+)?for\s+(.+?)\s*,\s*not\s+[^.;]+?[.;]?\s*(?:pls\s+)?(?:fix|update|change|correct)\s+the\s+(customer|client)\b.*$/iu,
    "change $1 project customer to $2",
  );
  // ("we're not going to make the dec 2 deadline on the mobile app. extend the end date to jan 15": the date of the
  // record the news was about.)
  text = text.replace(
    /^(?:we(?:'re| are)?|i(?:'m| am)?)\s+(?:not going to|not gonna|won't|will not|can't|cannot|aren't going to)\s+(?:make|hit|meet)\s+(?:the\s+)?[^.;]*?(?:deadline|date)\s+(?:on|for)\s+(?:the\s+)?(.+?)\s*[.;,!—–]+\s*(?:(?:so|pls|please)\s+)?(extend|push|move|change|set|bump)\s+(?:the\s+|its\s+)?(end date|due date|deadline|close date)\s+(?:out\s+|back\s+)?to\s+(.+)$/i,
    "$2 the $3 of $1 to $4",
  );
  // ("priya raman is joining engineering as an engineer in berlin from dec 1, email … — set her up": a hire.)
  text = text.replace(
    /^(?!(?:who|what|which|is|are|when)\b)([\p{L}'-]+\s+[\p{L}'-]+)\s+(?:is|will be)\s+joining\s+(?:the\s+|us\s+in\s+)?([\p{L}]+(?:\s[\p{L}]+)?)\s+(?:team\s+|department\s+)?as\s+(?:an?\s+)?([\p{L} ]+?)\s+(?:in|at)\s+(?:the\s+)?([\p{L}]+)(?:\s+(?:office|branch))?\s+(?:from|on|starting)\s+([^,—–]+?)\s*(?:,\s*(.+?))?(?:\s*(?:[—–]|\s-)\s*(?:pls\s+|please\s+)?(?:set (?:her|him|them) up|add (?:her|him|them)|onboard (?:her|him|them))\b.*)?$/iu,
    (_m, name: string, department: string, title: string, branch: string, start: string, rest?: string) =>
      `hire ${name} as ${title} in ${department}, branch ${branch}, starting ${start}${rest ? `, ${rest}` : ""}`,
  );
  // ("hooli wants invoices to go to finance@hooli.example from now on, update their email": that e-mail, said so.)
  text = text.replace(
    /^(.+?)\s+wants?\s+(?:(?:their|the|all|its)\s+)?(?:invoices|bills|mail|emails)\s+(?:to\s+)?(?:go|sent|going|to go)\s+to\s+(\S+@[\w.-]*\w)[^,]*,\s*(?:pls\s+|please\s+)?(?:update|change|set)\s+(?:their|its|the)\s+(e-?mail)\b.*$/i,
    "change $1's email to $2",
  );
  // ("onboard Tomás Ruiz — support specialist, remote, …": hired as that.)
  text = text.replace(/^onboard\s+(\p{L}+\s+\p{L}+)\s+[—–-]\s+((?:\p{L}+\s+){0,3}\p{L}+)\s*,/iu, "hire $1 as $2,");
  // ("globex signed off on the analytics work 🎉 can you set up a new project 'Q1 analytics' for them, …": a project for
  // whoever the news was about.)
  text = text.replace(
    /^([\p{L}][\p{L} .&'-]{1,40}?)\s+(?:signed off on|signed|approved|agreed to|said yes to|greenlit|green-lit)\b[^.!?\p{Extended_Pictographic}]*[.!?\p{Extended_Pictographic}\s]+(?:(?:can|could) you\s+|pls\s+|please\s+|so\s+)*(?:set up|create|add|start|open|spin up|make)\s+(?:a\s+)?(?:new\s+)?project\s+(.+?)\s+for\s+them\b/iu,
    "new project $2 for $1",
  );
  // ("katherine allen at initech is a real opportunity, qualify her": the command, on whom the news was of.)
  text = text.replace(
    /^(?!(?:who|what|which|is|are)\b)(.+?)\s+is\s+(?:a\s+|an\s+)?(?:real|genuine|solid|good|hot|serious|legit)\s+(?:opportunity|prospect|lead|one)\s*(?:[,.;—–]|\s-)\s*(?:so\s+|pls\s+|please\s+)?(qualify|convert|disqualify)\s+(?:her|him|them)\b[.!]*$/i,
    "$2 $1",
  );
  // ("the account exec role can be remote now": that opening's branch.)
  text = text.replace(
    /^(?:the\s+)?(.+?)\s+(role|opening|position|job)\s+(?:can|should|will|could)\s+be\s+(remote)(?:\s+now)?[.!]*$/i,
    "set the branch of the $1 opening to $3",
  );
  // ("open a role for a customer success manager in support, remote ok": a new opening with that title.)
  text = text.replace(
    /^(?:(?:can you|could you|pls|please)\s+)?open\s+(?:a|an|one more)\s+(?:new\s+)?(?:role|position|opening|job)\s+for\s+(?:an?\s+)?(.+?)(?:,\s*remote\s+(?:ok|okay|is fine|fine))?[.!]*$/i,
    (all: string, rest: string) => `new job opening ${rest}${/,\s*remote\s+(?:ok|okay|is fine|fine)/i.test(all) ? ", branch remote" : ""}`,
  );
  // ("without the rejected ones", a follow-up: the last answer, less those.)
  text = text.replace(/^(?:and\s+|but\s+|now\s+)?without\s+(?:the|any)\s+(.+?\s+ones?)\b/i, "leave out the $1");
  // ("we need one more person in marketing (berlin), can you open a position": a new opening there, its title to ask.)
  text = text.replace(
    /^we\s+need\s+(?:one more|another|a new|an extra|more|a)\s+(?:person|hire|people|body|head|pair of hands)\s+in\s+(?:the\s+)?(\p{L}+)(?:\s*\((\p{L}+)\)|\s+in\s+(\p{L}+))?\s*[,.;—–-]?\s*(?:(?:can|could) you\s+|pls\s+|please\s+|so\s+)?(?:open|create|add|post)\s+(?:a|an|one)\s+(?:new\s+)?(?:position|role|opening|job)\b.*$/iu,
    (_m, department: string, branch?: string, branch2?: string) =>
      `new job opening, department ${department}${branch || branch2 ? `, branch ${branch ?? branch2}` : ""}`,
  );
  // ("add marta klein from cyberdyne to contacts": a new record of that kind.)
  text = text.replace(
    /^(?:(?:pls|please|can you|could you)\s+)?(add|put|save)\s+(.+?)\s+(?:to|in|into)\s+(?:the\s+|our\s+|my\s+)?(contact|lead|customer|candidate)s?(?:\s+(?:list|book|database|db))?\s*(?=[,.;!]|$)/i,
    "add $3 $2",
  );
  // ("the renewal one moved to negotiation", after a list: that one, moved.)
  text = text.replace(
    /^(?:ok\s+|so\s+)?the\s+((?:[\p{L}\d]+(?:\s[\p{L}\d]+)?\s+one)|(?:deal|lead|candidate|task|project)\s+[^.,;]{2,60}?)\s+(?:has\s+|just\s+)?(?:moved|went|got moved|progressed|advanced)\s+(?:on\s+)?(?:to|into)\s+(\p{L}+)\s*[.!]*$/iu,
    "move the $1 to $2",
  );
  // ("globex labs: 3 training sessions at 736 each, invoice them": an invoice for them, its lines said first.)
  text = text.replace(
    /^([^:,]{2,40}):\s*(\d.+?)\s*,\s*(?:pls\s+|please\s+)?(?:invoice|bill)\s+(?:them|him|her|it)\b\s*,?\s*/i,
    (_m, whom: string, lines: string) => `invoice ${whom} for ${lines}, `,
  );
  // ("6 months of the support plan at 299/month": that many of it, at that price.)
  text = text.replace(
    /\b(\d{1,3})\s+(months?|weeks?|years?)\s+of\s+(?:the\s+|our\s+)?(.+?)\s+(?:at|@)\s+([$€£]?\d[\d,.]*\s*(?:[$€£]|eur|usd|gbp)?)\s*(?:\/|per\s+|a\s+)(?:month|mo|week|wk|year|yr)\b/gi,
    "$1 x $3 at $4",
  );
  // ("they just wired 5k towards it": a payment on the invoice the talk is about.)
  text = text.replace(
    /^(?:they|he|she|the customer)\s+(?:just\s+|have\s+just\s+|finally\s+)?(wired|sent|transferred|paid)\s+(?:us\s+)?([$€£]?\d[\d,.]*\s*k?\s*(?:[$€£]|eur|usd|gbp)?)\s+(?:towards|toward|against|on|for)\s+(?:it|that|this|that one|this one)\b\s*[.!]*$/i,
    (_m, verb: string, amount: string) => `record a payment of ${amount.trim()} on it${/wired|transferred/i.test(verb) ? " by bank transfer" : ""}`,
  );
  // ("task for john turing: reconcile november payments by the 30th": the date is when it is due.)
  text = text.replace(
    /^((?:new\s+|add\s+(?:a\s+)?)?(?:task|todo|to-do)\s+for\s+[^:]{2,40}:\s*.+?)\s+by\s+((?:the\s+)?\d{1,2}(?:st|nd|rd|th)|tomorrow|(?:next\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|end of (?:the\s+)?(?:day|week|month)|eod|eow|eom|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+\d{1,2}(?:st|nd|rd|th)?)\s*[.!]*$/i,
    "$1, due $2",
  );
  // ("i've got interviews lined up all next week and lost track, who are the candidates for …": the question.)
  text = text.replace(
    /^(?:i've|i have|ive|we've|we have)\s+(?:got\s+)?[^,?]{3,80}?\s+and\s+[^,?]{3,40}?,\s*(?=(?:who|whos|who's|what|whats|what's|which|how|when|where)\b)/i,
    "",
  );
  // ("customers not based in the us", "clients that aren't US based": the place negated.)
  text = text
    .replace(/\bnot\s+based\s+(?:in|out of)\s+/gi, "not in ")
    .replace(/\b(?:that|who|which)\s+(?:are\s+not|is\s+not|aren't|isn't)\s+(.{2,30}?)[\s-]based\b/gi, "not in $1")
    .replace(/\b(?:that|who|which)\s+(?:are|is)\s+(.{2,30}?)[\s-]based\b/gi, "in $1")
    // ("which of our customers are US-based": after anything, a one-word place.)
    .replace(/\b(?:are\s+not|is\s+not|aren't|isn't)\s+([^\s,.;:?!]{2,20})[\s-]based\b/gi, "not in $1")
    .replace(/\b(?:are|is)\s+([^\s,.;:?!]{2,20})[\s-]based\b/gi, "in $1");
  // ("client asked which currency we bill globex labs in, what's on file?": the question they asked.)
  text = text
    .replace(
      /^(?:the\s+|our\s+|a\s+)?(?:client|customer|accountant|bookkeeper|boss|auditor|bank|cfo|ceo|they|he|she)\s+(?:just\s+)?(?:asked|is asking|was asking|wants to know|wanted to know)\s+(?=(?:which|what|how|when|who|where)\b)/i,
      "",
    )
    .replace(/\s*,\s*(?:what'?s|what is)\s+(?:on file|in the system|in there)\s*\?*$/i, "");
  // ("oscorp's invoice is still in draft?? send it": the command, on what the question was about.)
  text = text.replace(
    /^(.+?)\s+(?:is|are)\s+still\s+(?:in\s+|a\s+)?(?:draft|unpaid|open|pending|unsent|not sent)\s*[?!.]+\s*(?:(?:pls|please|just|so)\s+)?(send|resend|remind|void|delete)\s+(?:it|that|them)\b.*$/i,
    (_m, what: string, verb: string) => {
      // ("oscorp's invoice is still in draft": their draft, which tells it from their other invoices.)
      const owner = /^(.+?)['’]s\s+invoice$/i.exec(what.trim());
      return owner && /draft/i.test(_m) ? `${verb} the ${owner[1]} draft` : `${verb} ${what}`;
    },
  );
  // ("sent the proposal to gringotts for the pilot, update the stage": that deal, at proposal.)
  text = text.replace(
    /^(?:we\s+|i\s+)?(?:just\s+)?sent\s+(?:the|a|our)\s+proposal\s+(?:over\s+)?to\s+(.+?)(?:\s+for\s+(?:the\s+)?(.+?))?\s*(?:[,.;—–]|\s-)\s*(?:pls\s+|please\s+|so\s+)?(?:update|change|move|set|bump)\s+(?:the\s+|its\s+)?(?:stage|deal)\b.*$/i,
    (_m, whom: string, what?: string) => `move the ${whom}${what ? ` ${what}` : ""} deal to proposal`,
  );
  // ("delete ritchie from the massive dynamic contacts": the one who works there.)
  text = text.replace(/^(delete|remove|update|edit)\s+(?!the\b)(.+?)\s+from\s+(?:the\s+)?(.{2,40}?)\s+contacts\s*$/i, "$1 the contact $2 at $3");
  // ("and their end dates", after a list: that field of each.)
  text = text.replace(/^(?:and\s+)?(?:their\s+|the\s+)?(end|start|due|close|issue|expected close|joining)\s+dates\s*\??$/i, "and their $1 date");
  // ("which currency we bill globex labs in": asked the other way round.)
  text = text.replace(/^(which|what)\s+(currency|email|e-mail|address|phone|branch|department|title|stage|status)\s+(we|they|he|she)\s+/i, "$1 $2 do $3 ");
  // ("make anita conway the contact on the globex pilot": that field of that record, set to the one named.)
  text = text.replace(
    /^(?:(?:please|pls|can you|could you|kindly)\s+)*(?:make|put)\s+(?!it\b|them\b|her\b|him\b)(.{2,40}?)\s+(?:as\s+)?the\s+(contact|assignee|owner|customer|client|project)\s+(on|of|for)\s+(.+?)\s*[.!?]*$/i,
    "set the $2 $3 $4 to $1",
  );
  // ("Gringotts pilot is worth 40k now, update it", "the Dennis Clarke lead is worth more like $1,800 now": its value.)
  text = text.replace(
    /^(?:the\s+)?(?!(?:what|which|who|how|is|are)\b)(.{2,60}?)\s+is\s+(?:now\s+)?worth\s+(?:more like\s+|about\s+|around\s+|closer to\s+)?([$€£]?\d[\d,.]*\s?(?:k|m)?(?:\s?(?:usd|eur|gbp|dollars|euros|bucks))?)(?:\s+now)?\s*(?:[,.;—–-]+\s*(?:pls\s+|please\s+)?(?:update|change|fix)\s+(?:it|that|the value)\s*)?[.!]*$/i,
    "set $1 value to $2",
  );
  // ("lynn wilson is leaving mark her as left", "Shafi's last day was Friday, please mark him as left": that change.)
  text = text.replace(
    /^(.{2,40}?)(?:\s+is\s+leaving|['’]s\s+last\s+day\s+(?:was|is)\s+[\w ]{2,20}?|\s+(?:quit|resigned|left)(?:\s+[\w ]{2,20}?)?)\s*[,.;—–-]*\s*(?:pls\s+|please\s+)?(?:mark|set)\s+(?:him|her|them)\s+(?:as\s+)?(\w+)\s*[.!]*$/i,
    "mark $1 as $2",
  );
  // ("…, she'll be a Frontend Engineer in Engineering": the job someone is taken on as.)
  text = text.replace(/,\s*(?:he|she|they)(?:['’]ll|\s+will)\s+be\s+(?:an?\s+|our\s+|the\s+)(?=\p{L})/giu, ", as a ");
  // ("oh and he's already qualified", "oh, and last month?": an afterthought — the "and" stays, the "oh" goes.)
  text = text.replace(/^(?:oh|ah|oh yeah|oh yes|ah yes)\b\s*[,!.—–-]*\s*/i, "");
  // ("and he's already qualified": news of the one just said, no follow-up question.)
  text = text
    .replace(/^and\s+(?=(?:he|she|they)(?:['’]s|['’]re|\s+is|\s+are)\s+(?:already\s+|also\s+|now\s+)?[a-z]+\s*[.!]*$)/i, "")
    .replace(/^(he|she|they)(?:['’]s|['’]re|\s+is|\s+are)\s+(?:already|also|now|actually)\s+([a-z]+)\s*[.!]*$/i, "$1 is $2 already");
  // ("sorry, her start date is jan 4 not dec 1": a correction of what was just said — the field, as it should be.)
  text = text
    .replace(/^(?:sorry|oops|my bad|correction|wait)\s*[,:!.—–-]+\s*/i, "")
    .replace(
      /^(his|her|their|its)\s+([a-z][a-z ]{1,24}?)\s+(?:is|should be|will be|needs to be)\s+(?:actually\s+)?(.+?)(?:,?\s+not\s+[^,]+)?[.!]*$/i,
      "set $1 $2 to $3",
    );
  // ("account exec pipeline": the account executive's.)
  text = text.replace(/\baccount\s+exec\b/gi, "account executive");
  // ("pull up the sales team": the people of that department.)
  // ("who's on the support team" is read below: the people there now.)
  text = text.replace(/^(?:pull up|show(?: me)?|list)\s+(?:the\s+|our\s+)?(\w+)\s+team\b/i, "employees in the $1 department");
  // ("joan ritchie's email pls, need to cc her": the field asked; why is no part of it.)
  text = text.replace(/^(.+?['’]s\s+(?:email|e-mail|phone|number|address|title)\b[^,]*?)\s*,\s*(?:i\s+)?(?:need|have|want|got|gotta)\s+to\b.*$/i, "$1");
  // ("which person has the most unfinished tasks": who.)
  text = text.replace(/^(?:so\s+)?which\s+(?:person|one of us|team member|staff member|member of (?:the )?(?:staff|team))\b/i, "who");
  // ("projects on hold i mean": a correction's aside, not an average.)
  text = text.replace(/[,\s]*\bi mean\b[,]?/gi, " ");
  // ("the biggest pile of unfinished tasks": the most of them.)
  text = text.replace(/\b(?:biggest|largest|highest|longest)\s+(?:pile|stack|heap|load|backlog|list|number|count|amount)\s+of\b/gi, "most");
  // ("did any money land today?", "has money come in this week": payments received.)
  text = text.replace(
    /\b(?:did|has|have)\s+(?:any\s+)?(?:money|cash|payments?)\s+(?:land|landed|come in|came in|arrive|arrived|hit the (?:bank|account))\b/gi,
    "payments received",
  );
  // ("open deals that have blown through their close date": past it.)
  text = text.replace(
    /\b(?:that\s+|which\s+)?(?:have|has|'ve)?\s*(?:blown|gone|slipped|run|sailed)\s+(?:through|past|over)\s+(?:their|its|the)\s+(?:expected\s+)?close(?:\s+date)?\b/gi,
    " with expected close date before today",
  );
  // ("smallest card payment we ever took", "biggest one we've received"): how it came is what a payment is.
  text = text.replace(/\s+(?:that\s+)?we(?:'ve| have)?\s+(?:ever\s+)?(?:took|taken|received|got|gotten|collected)\s*(?=[?.!]*$)/gi, "");
  // ("deal-wise", "task wise": about those.)
  text = text.replace(/\b(deal|task|invoice|project|lead|payment|candidate|customer)[\s-]?wise\b/gi, "$1s");
  // ("how does billable time compare to non-billable": the two set against each other.)
  text = text.replace(/\bhow\s+(?:does|do|did)\s+(.+?)\s+compare\s+(?:to|with|against)\s+(.+?)\s*[?.!]*$/gi, "$1 vs $2");
  // ("sales meeting in 10 min — …": when the meeting is, not a period asked about.)
  text = text.replace(
    /^[^—–:?]{0,40}?\b(?:meeting|call|standup|stand-up|sync|demo|interview|presentation)\s+in\s+(?:\d+|a few|a couple of)\s*(?:min|mins|minutes|hrs?|hours?)\b\s*(?:[—–:,]|\s-)\s*/i,
    "",
  );
  // ("prepping for the collections meeting - which …", "for the board deck on friday i need …": what it is for.)
  text = text.replace(
    /^(?:prepping|preparing|prep|getting ready|for)\s+(?:for\s+)?(?:the|a|my|our|this|tomorrow's|today's)\s+(?:[\w'-]+\s+){0,3}?(?:meeting|call|review|deck|standup|stand-up|sync|presentation|report)(?:\s+(?:on|this|next|tomorrow|today)(?:\s+\w+)?)?\s*[—–:,-]?\s*(?:(?:i|we)\s+(?:need|want)\s+(?:to\s+(?:know|see)\s+)?|need\s+|give me\s+|show me\s+)?(?=\S)/i,
    "",
  );
  // ("wayne wants invoices to go to invoices@wayne.example now": where their invoices are sent.)
  text = text.replace(
    /^(?:customer\s+)?(.+?)\s+(?:wants?|would like|asked for|asked)\s+(?:their\s+|its\s+)?invoices\s+(?:to\s+)?(?:go\s+|be\s+sent\s+|sent\s+|emailed\s+)?to\s+([^\s@,]+@[^\s@,]+\.[a-z]{2,})\b.*$/iu,
    "change $1's billing email to $2",
  );
  // ("hooli's invoices should go to billing@hooli.example from now on": the same, said of the invoices.)
  text = text.replace(
    /^(?!(?:what|which|who|where|how|do|does|should)\b)(?:customer\s+)?(.+?)(?:['’]s|\s+)\s*invoices\s+(?:should|must|need to|have to|are to|will)\s+(?:go|be sent|be emailed|be mailed)\s+to\s+([^\s@,]+@[^\s@,]+\.[a-z]{2,})\b.*$/iu,
    "change $1's billing email to $2",
  );
  // ("Add Priya Nair to the team: …": a new employee.)
  text = text.replace(/^(?:add|put)\s+(.+?)\s+(?:to|on)\s+(?:the|our)\s+team\b\s*:?\s*/iu, "add employee $1, ");
  // ("qualified Katherine Perlman on the call today": the state the named person reached.)
  text = text.replace(
    /^(qualified|disqualified|unqualified|contacted|rejected|shortlisted)\s+(\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*){0,3})(?:\s+(?:on|during|after|at|in|over|today|yesterday)\b.*)?$/u,
    (_m, state: string, who: string) => `mark ${who} as ${state.toLowerCase()}`,
  );
  // ("send out 52 for tyrell its good to go", "scrap 245 its a draft we dont need": why, after the command.)
  text = text.replace(
    /^((?:pls\s+|please\s+)?(?:send(?:\s+out)?|resend|void|scrap|cancel|delete|remove|remind|chase|trash|kill)\s+(?:inv(?:oice)?[-\s#]*)?\d{2,6}\b(?:\s+(?:for|to|from)\s+[a-z][\w .'-]{1,30}?)?)[,;]?\s+(?:its|it's|it is|thats|that's|that is|they|he|she)\s+.*$/i,
    "$1",
  );
  // ("how do I say a customer paid us? Soylent paid 250 euros on …": the how-to asked before what is told.)
  text = text.replace(/^how\s+(?:do|can|should)\s+(?:i|we)\s+(?:say|tell (?:you|the system|it)|record|log|enter|show)\b[^?]*\?\s+(?=\S)/i, "");
  // ("two positions": a count in figures.)
  text = text.replace(
    /\b(one|two|three|four|five|six|seven|eight|nine|ten)\s+(positions?|seats?|openings?|hires?|roles?|spots?|heads?)\b/gi,
    (_m, n: string, what: string) => `${NUMBER_WORDS[n.toLowerCase()]} ${what}`,
  );
  // ("Soylent paid 250 euros on bill 394", "email bill 98 to the customer": an invoice by its number.)
  text = text.replace(
    /\bbill\s+(?:no\.?\s*|#\s*)?(\d{2,6})(?=\s*(?:$|[,.?!;:]|\s(?:by|to|for|from|on|in|is|was|has|and|as|please|pls|out|again)\b))/gi,
    (_m, digits: string) => `INV-${digits.padStart(6, "0")}`,
  );
  // ("customers who use euros instead of dollars": the one said; "invoiced in US dollars": USD.)
  text = text.replace(/\s+instead\s+of\s+(?:us\s+)?(?:dollars|usd|euros|eur|pounds|gbp|sterling)\b/gi, "").replace(/\bU\.?S\.?\s+dollars?\b/gi, "USD");
  // ("who has written down the most hours this month": logged.)
  text = text.replace(
    /\b(?:written down|wrote down|put down|put in|entered|recorded|clocked|booked)\s+(?:the\s+)?(most|fewest|least)\s+(hours|time)\b/gi,
    "logged the $1 $2",
  );
  // ("whats that add up to": the sum of it.)
  text = text.replace(
    /^(?:and\s+|so\s+)?what(?:'s|s| is| does| do)?\s+(?:that|it|this|those|they|these)\s+(?:all\s+)?adds?\s+up\s+to\s*\??$/i,
    "how much is that",
  );
  // ("is stark late paying anything": overdue.)
  text = text.replace(/\b(?:late|behind)\s+(?:on\s+|with\s+|in\s+)?(?:paying|payments?)(?:\s+(?:anything|any(?:thing)? of it|us))?\b/gi, "overdue");
  // ("Please exclude any that have been paid in full", "have any of those been partly paid since?")
  text = text
    .replace(
      /\b(exclude|leave out|ignore|skip|drop)\s+(?:any|those|the ones|ones|anything)\s+(?:that|which)\s+(?:have been|has been|are|were|got|is)\s+(?:paid in full|fully paid|paid off|paid)\b/gi,
      "$1 the paid ones",
    )
    .replace(/\bpartly\s+paid\b/gi, "partially paid")
    .replace(/(\bpaid)\s+since\s*(\?*)$/i, "$1$2");
  // ("just high/urgent": either of them.)
  text = text.replace(/\b(?!and\/or\b)([a-z]{3,})\/([a-z]{3,})\b/gi, "$1 or $2");
  // ("where can I see the list of companies that buy from us?": our customers, listed.)
  text = text
    .replace(/\b(?:companies|people|businesses|clients|firms)\s+(?:that|who|which)\s+(?:buy from us|pay us|we (?:bill|invoice|sell to))\b/gi, "customers")
    .replace(
      /^(?:hi!?\s+|hey!?\s+)?(?:where|how)\s+(?:can|do)\s+(?:i|we)\s+(?:see|find|view|check)\s+(?:the\s+list\s+of\s+|a\s+list\s+of\s+)?(?=customers\b)/i,
      "list ",
    );
  // ("who are the people at Nakatomi we talk to?": whom we know there.)
  text = text.replace(
    /^who\s+(?:are|r)\s+(?:the\s+)?(?:people|folks|contacts|guys|ppl)\s+(at|from)\s+(.+?)(?:\s+(?:we|i)\s+(?:talk|speak|deal|work)\s+(?:to|with))?\s*\??$/i,
    "who do we know $1 $2?",
  );
  // ("list the people who want the engineer job": its candidates.)
  text = text.replace(
    /\b(?:the\s+)?(?:people|folks|applicants|candidates|ones|everyone)\s+(?:who|that)\s+(?:want|wants|applied for|applied to|are applying for|have applied for|are up for)\s+(?:the\s+)?(.+?)\s+(?:role|job|position|opening)\b/gi,
    "candidates for the $1 opening",
  );
  // ("already at the interview part": that stage.)
  text = text.replace(/\b(screening|interview|offer)\s+(?:part|step|phase|round)\b/gi, "$1 stage");
  // ("how do I add a new to-do in the Website relaunch called …": the command itself.)
  text = text
    .replace(
      /^(?:(?:hi|hey|hello)[!,]?\s+)?(?:how\s+(?:do|can|would|should)\s+(?:i|we)|where\s+(?:do|can)\s+(?:i|we))\s+(add|create|enter|record|make|delete|remove|get rid of|set up)\s+(?=(?:a|an|the|this|that|it|new)\b)/i,
      "$1 ",
    )
    .replace(/\b(?:a\s+)?new\s+(?:to-do|todo)\b/gi, "a new task")
    // ("I made a bill by mistake, it's INV-000233, how do I get rid of it?": the record told first, then the how-to.)
    .replace(
      /^(.{4,160}?)[,.;!]\s*(?:so\s+)?how\s+(?:do|can|should)\s+(?:i|we)\s+(get rid of|delete|remove|void|cancel|scrap|send|resend)\s+(?:it|this|that|this one|that one)\s*[?.!]*$/i,
      "$2 $1",
    )
    // ("where do I see money that came in today?": the payments received, listed.)
    .replace(
      /^(?:where|how)\s+(?:can|do)\s+(?:i|we)\s+(?:see|find|view|check)\s+(?:the\s+)?(?:money|cash|payments?)\s+(?:that\s+)?(?:came|come|has come|have come|comes)\s+in\b/i,
      "list payments received",
    );
  // ("email on file for cyberdyne holdings?": that field of that record.)
  text = text.replace(
    /^(?:what(?:'s| is)\s+the\s+|the\s+)?((?:billing\s+)?(?:e-?mail|phone|address|tax id|vat number|website))(?:\s+address)?\s+(?:on file|we have|in the system)\s+(?:for|of)\s+(.+?)\s*\??$/i,
    "what is $2's $1?",
  );
  // ("and over the whole of last week": the period itself.)
  text = text.replace(/\b(?:over|during|across|for|in)\s+the\s+(?:whole|entire|full)\s+(?:of\s+)?(?=(?:last|this|the|next|past)\b)/gi, "");
  // ("how much revenue did we make last month": the revenue.)
  text = text.replace(
    /\b(revenue|money|sales|income)\s+(?:did|have|has)\s+(?:we|i|the company)\s+(?:make|made|earn|earned|bring in|brought in|do|done|generate|generated)\b/gi,
    "$1",
  );
  // ("customers based outside the states": the United States.)
  text = text.replace(/\b(in|outside|outside of|from|based in|out of)\s+the\s+(?:states|usa|u\.s\.?a?\.?)(?=\s|[?.!,]|$)/gi, "$1 the us");
  // ("san francisco staff outside of sales": not in that department; "outside the us" stays a place.)
  text = text.replace(/\b(?:staff|employees|people|everyone|anyone|folks|team)\s+outside(?:\s+of)?\s+(?!the\b|us\b)/gi, (m) => `${m.split(/\s+/)[0]} not in `);
  text = text
    // ("the oscorp one, INV-000184 - change its due date": the record by its number, not the name before it.)
    .replace(/^the\s+[\p{L}\d&.' -]{2,30}?\s+one\s*[,:;—–-]\s*(?=(?:INV-\d+)\b)/iu, "")
    // ("we got a transfer from monarch, can you book it": a payment of theirs to record.)
    .replace(
      /^(?:we\s+)?(?:just\s+)?(?:got|received|have|had)\s+(?:a|an|the|their)?\s*(bank transfer|transfer|wire|wire transfer|check|cheque|card payment|payment)\s+(?:in\s+)?from\s+([\p{L}\d&.' -]{2,40}?)\s*[,;.—–-]+\s*(?:(?:can|could)\s+you\s+|pls\s+|please\s+)?(?:book|record|log|enter|add|put)\s+(?:it|that|this)(?:\s+in)?\b.*$/iu,
      (_m, kind: string, payer: string) =>
        `record a payment from ${payer}${/transfer|wire/i.test(kind) ? " by bank transfer" : /check|cheque/i.test(kind) ? " by check" : /card/i.test(kind) ? " by card" : ""}`,
    )
    // ("edsger torvalds is going fully remote, update his branch": that field, set to where they go.)
    .replace(
      /^(.+?)\s+is\s+(?:going|moving|switching|relocating|transferring)\s+(?:over\s+)?(?:to\s+)?(?:the\s+)?(?:fully\s+|full[- ]time\s+|permanently\s+)?([\p{L} -]{2,30}?)(?:\s+office)?(?:\s+(?:from\s+|starting\s+)?(?:next|this|in a)\s+(?:week|month|year|quarter|monday|tuesday|wednesday|thursday|friday))?\s*[,;.—–-]+\s*(?:so\s+)?(?:(?:can|could)\s+you\s+|pls\s+|please\s+)?(?:update|change|set|fix)\s+(?:his|her|their)\s+([\p{L} ]{2,20}?)\s*[.!]*$/iu,
      "set $1's $3 to $2",
    )
    // ("frances boyd - 45 min yesterday on plan checkout", "tim wilson - 2h30 on …": time someone spent, to log.)
    .replace(
      /^((?:\p{L}[\p{L}'.-]*)(?:\s+\p{L}[\p{L}'.-]*){0,2})\s*[-–—:]\s+(\d+(?:\.\d+)?\s*(?:min|mins|minutes|h|hr|hrs|hours)(?:\d{1,2})?\b.*)$/iu,
      "log $2 for $1",
    )
    // ("ship permissions in customer portal -> due dec 22": what it is to be, said after the arrow.)
    .replace(/^(?!.*\?)(.{2,80}?)\s*(?:->|→|=>)\s*((?:due|priority|assign(?:ed)?\s+to|give\s+it\s+to)\s+.+)$/iu, "update $1, $2")
    // ("plan exports in mobile app -> review": moved to that state.)
    .replace(
      /^(?!.*\?)(?!(?:rename|change|set|update|edit|move|switch|fix|correct|make)\b)(.{2,80}?)\s*(?:->|→|=>)(?!\s*(?:send|resend|void|remind|delete|cancel)\b)\s*([\p{L} ]{2,24}?)\s*[.!]*$/iu,
      "move $1 to $2",
    );
  text = text
    // ("INV-000052 → send": that done to it.)
    .replace(/^((?:invoice\s+)?INV-\d+)\s*(?:->|→|=>|:)\s*(send|resend|void|remind|delete|cancel)\s*(?:it)?\s*[.!]*$/i, "$2 $1")
    // ("oscorp paid something on INV-000204, log it": a payment whose amount is still to be asked.)
    .replace(
      /^.*?\bpaid\s+(?:us\s+)?(?:something|some|part of it|a bit|a part|a portion)\s+(?:on|of|towards|against|for)\s+((?:invoice\s+)?INV-\d+)\b.*$/i,
      "record a payment on $1",
    )
    // ("INV-000133 can go out now", "INV-… is ready to go": sent.)
    .replace(
      /^((?:invoice\s+)?INV-\d+)\s+(?:can|should|may)\s+go\s+out\b.*$|^((?:invoice\s+)?INV-\d+)\s+is\s+(?:good|ready|ok|okay)\s+to\s+(?:go|send)(?:\s+out)?\b.*$/i,
      (_m, a?: string, b?: string) => `send ${a ?? b}`,
    )
    // ("ping acme labs re their unpaid invoice", "nudge X about INV-…": a reminder.)
    .replace(
      /^(?:(?:pls|please|can you|could you)\s+)?(?:ping|nudge|chase|poke)\s+(.+?)\s+(?:re|about|regarding|on|for)\s+(?=.*\b(?:invoice|bill|INV-\d+)\b)/i,
      "remind $1 about ",
    )
    // ("bin the vandelay labs draft", "scrap the X draft": a draft is deleted.)
    .replace(/^(?:(?:pls|please|can you|could you)\s+)?(?:bin|scrap|trash|ditch|kill|toss)\s+(the\s+.+?\s+draft)\b/i, "delete $1");
  text = text
    // ("any invoice drafts lying around?": where they are is no part of what they are.)
    .replace(/\s+(?:just\s+)?(?:lying|sitting|hanging|floating)\s+(?:around|about)\b/gi, "")
    // ("the due date of aperture labs INV-000031": the invoice by its number, whose it is said in passing.)
    .replace(/\b(of|on|for)\s+(?!the\b)[\p{L}&.' -]{2,40}?\s+((?:invoice\s+)?INV-\d+)\b/giu, "$1 $2")
    // ("the notes on draft INV-000098": the invoice by its number; its state said in passing.)
    .replace(/\b(on|of|for)\s+(?:the\s+)?(?:draft|sent|overdue)\s+((?:invoice\s+)?INV-\d+)\b/gi, "$1 $2")
    // ("put 'ref PO-8812' in the notes on INV-000190": that text, the notes.)
    .replace(
      /^(?:(?:pls|please|can you|could you)\s+)?(?:put|add|write|stick)\s+(['"])(.+?)\1\s+(?:in|into|to|as)\s+(?:the\s+)?(notes?|description)\s+(?:on|of|for)\s+(.+?)\s*[.!]*$/i,
      "set the $3 on $4 to $2",
    );
  text = text
    // ("phone no. for umbrella labs is +1 415 …", "email for X is a@b": that field of theirs, set.)
    .replace(
      /^(?:the\s+)?(phone(?:\s+no\.?|\s+number)?|e-?mail(?:\s+address)?|billing\s+email|website)\s+(?:for|of)\s+(.+?)\s+(?:is|should be)\s+(?:now\s+)?(?=\S*[\d@])([^?]+?)\s*[.!]*$/i,
      (_m, field: string, who: string, value: string) => `set ${who}'s ${field.replace(/\s+no\.?$/i, "")} to ${value}`,
    )
    // ("client called — globex holdings new address is …": their new address.)
    .replace(/(^|[—–]\s*|\s-\s)([\p{L}\d&.' -]{2,40}?)\s+new\s+(address|billing address|email|phone(?: number)?)\s+(?:is|:)\s+/iu, "$1$2's new $3 is ")
    // ("anita ritchie's at gringotts labs now, not gringotts": where they are now.)
    .replace(/^(.+?)(?:'s|\s+is)\s+(?:now\s+)?(?:at|with|working at)\s+(.+?)(?:\s+now)?\s*,\s*not\s+[^—–,.]+(?:\s*[—–,.-]+.*)?$/iu, "set $1's company to $2")
    // ("donald berners-lee is in operations now, ops lead": moved there, with that title.)
    .replace(
      /^(?!(?:who|what|which|is|are|how)\b)([\p{L}'-]+\s+[\p{L}'-]+)\s+is\s+(?:now\s+)?in\s+(?:the\s+)?([\p{L}]+(?:\s[\p{L}]+)??)(?:\s+(?:department|dept|team|office))?\s+now\s*(?:,\s*(?:as\s+)?(?:an?\s+)?([\p{L} ]+?))?\s*[.!]*$/iu,
      (_m, who: string, where: string, title?: string) => `move ${who} to ${where}${title ? `, title ${title}` : ""}`,
    )
    // ("mary conway moved from pied piper to hooli, update her": her company now.)
    .replace(
      /^(.+?)\s+(?:moved|switched|went|jumped)\s+from\s+.+?\s+to\s+(.+?)\s*[,;.—–-]+\s*(?:pls\s+|please\s+)?(?:update|change|fix)\s+(?:her|him|them|that|it|the\s+\w+|(?:his|her|their)\s+(?:company|employer|record|contact))\b(.*)$/iu,
      // (A new address said in the same breath changes too: "… and her email is now mary@…".)
      (_m, who: string, to: string, tail: string) => {
        const email = /[^\s@,;]+@[^\s@,;]+\.[a-z]{2,}/i.exec(tail)?.[0];
        return `set ${who}'s company to ${to}${email ? ` and the email is now ${email}` : ""}`;
      },
    )
    // ("up the massive dynamic platform deal to $15k", "raise X lead value to $1,500": set to that amount.)
    .replace(/^(?:up|bump|raise|increase|lift|bump up)\s+(?!an?\s+invoice\b)(.+?)\s+to\s+(?=[$€£]?\d)/i, "set $1 to ");
  // "go ahead and hire her", "pls go ahead and send it": the command itself.
  text = text.replace(/\bgo ahead and\s+/gi, "");
  // "due end of the month", "by end of week": the one we are in.
  text = text.replace(/\b(end|start|beginning)\s+of\s+(?:the\s+)?(month|week|quarter|year)\b/gi, "$1 of this $2");
  // "send out the initech draft", "send the cyberdyne draft out today", "shoot INV-… over to globex": sent.
  text = text
    .replace(/\b(send|resend)\s+out\s+/gi, "$1 ")
    .replace(
      /^((?:(?:pls|please|can you|could you)\s+)?(?:send|resend)\s+(?:the\s+)?[\p{L}\d&.' -]{2,40}?)\s+out\b(?:\s+(?:today|now|asap|pls|please))*\s*[.!]*$/iu,
      "$1",
    )
    .replace(/^((?:pls|please)\s+)?(?:shoot|fire|pop)\s+(.+?)\s+over\s+(?=to\b)/i, "$1send $2 ");
  text = text.replace(NEGATED, (_m, verb: string) => `${verb.toLowerCase() === "ca" ? "can" : verb.toLowerCase() === "wo" ? "will" : verb} not`);
  text = text.replace(/\b(\d+)\s*h\s*(\d{1,2})\b(?!\s*(?:am|pm))/gi, (_m, h: string, m: string) => `${Number(h) * 60 + Number(m)} minutes`);
  // "1 hr 15", "2 hours 30 min": hours and minutes said apart ("3 hours 20 nov" is a date after them).
  text = text.replace(
    /\b(\d+)\s*(?:h|hrs?|hours?)\s+(?:and\s+)?(\d{1,2})(?:\s*(?:m|mins?|minutes?))?\b(?!\s*(?:st|nd|rd|th|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|[/.:-]\d))/gi,
    (_m, h: string, m: string) => `${Number(h) * 60 + Number(m)} minutes`,
  );
  text = text.replace(/\b(\d+(?:[.,]\d+)?)\s*(h|hrs?|hours?)\b/gi, (_m, n: string) => `${n.replace(",", ".")} hours`);
  text = text.replace(/\b(\d+)\s*(mins?|minutes?)\b/gi, (_m, n: string) => `${n} minutes`);
  // ("log 45m for lynn yesterday", "grace 90m review login fri non billable": minutes, where time is what is told — an
  // "m" is a million elsewhere: "deals over 2m".)
  if (
    /\b(?:log|logged|logging|spent|spend|worked|working|timesheet|time entry|billable|on the task)\b|^(?!.*\b(?:over|under|above|below|more|less|than|between|worth|valued?|deals?|invoices?|payments?|leads?|revenue|sales)\b)\s*\p{L}+(?:\s+\p{L}+){0,3}\s+\d+m\s+\p{L}/iu.test(
      text,
    )
  )
    text = text.replace(/(?<![$€£]\s?)\b(\d{1,3})m\b(?!\s*(?:[$€£]|usd|eur|gbp|dollars?|euros?|pounds?)\b)/gi, (_m, n: string) => `${n} minutes`);
  // ("shafi 1.5h ERP migration Review reports today", "grace van rossum 90m review login website relaunch fri": a
  // timesheet line — who, how long, on what, when. Not a question, and not a total's words: "total 40 hours last week".)
  text = text.replace(
    /^(?!.*\?)(?!(?:what|whats|how|who|whos|which|when|where|why|total|sum|all|everyone|everybody|team|the|our|my|any|is|are|did|do|does|billable|non|only|just|about)\b)(?!(?:\p{L}+\s+){0,3}(?:pls|please|can|could|i|we|log|logged|add|put|book|record|enter|invoice|bill|charge|entries|entry|time|hours|under|over|than|more|less|avg|average|show|list|for|on|in)\s)(\p{L}[\p{L}'.-]*(?:\s+\p{L}[\p{L}'.-]*){0,3})\s+(\d+(?:\.\d+)?\s*(?:minutes|hours))\s+(?:(?:on|in|for)\s+)?(?!(?:last|this|yesterday|today|on|in|for)\b)(?=\p{L}[\p{L}'.-]*\s+\p{L})(.+)$/iu,
    "log $2 for $1 on $3",
  );
  // "which clients are all paid up": owing nothing; "us customers": the country, not the pronoun.
  text = text.replace(/\b(?:are|is)\s+(?:all\s+|fully\s+)?paid up\b/gi, "owe nothing");
  // ("billed in £": in that currency.)
  text = text.replace(
    /\b(billed|invoiced|charged|paid|paying|pays|bill|invoice|charge|pay)\s+in\s+([$€£])(?!\s?\d)/gi,
    (_m, verb: string, sign: string) => `${verb} in ${{ $: "USD", "€": "EUR", "£": "GBP" }[sign]}`,
  );
  text = text.replace(/\b(?:don'?t|do not|doesn'?t|does not)\s+owe\s+(?:us\s+)?(?:anything|a thing|any money|a cent|a penny)\b/gi, "owe nothing");
  // ("top 5 customers by how much overdue they are": the customers owing the most overdue.)
  text = text.replace(
    /\b(customers|clients)\s+by\s+(?:how much\s+overdue(?:\s+they\s+are)?|(?:the\s+)?overdue amount|amount overdue|how much they have overdue)\b/gi,
    "$1 owing the most overdue",
  );
  // ("who did we bill the most last quarter": the customer, by the money billed.)
  text = text.replace(
    /^who\s+(?:did|have)\s+we\s+(?:bill|billed|invoice|invoiced|charge|charged)\s+the\s+most\b/i,
    "which customer did we invoice the most money",
  );
  // ("lowest hours logged by anyone last week": who logged the fewest.)
  text = text.replace(
    /^(?:the\s+)?(lowest|fewest|least|most|highest|biggest)\s+(?:number of\s+)?(hours|time)\s+(?:logged|booked|tracked|recorded)\s+by\s+(?:anyone|anybody|any one|one person|a person)\b/i,
    (_m, extreme: string, what: string) => `who logged the ${/^(?:lowest|fewest|least)$/i.test(extreme) ? "fewest" : "most"} ${what}`,
  );
  text = text.replace(/\bus\s+(?=(?:customers|clients|companies|accounts|contacts|leads)\b)/gi, "USA ");
  // "quick one between calls — …", "quick q:": the aside before the question.
  text = text.replace(/^(?:a\s+)?(?:quick|small|short)\s+(?:one|q|question|thing|check)\b[^,:;—–-]{0,40}[,:;—–-]+\s*/i, "");
  // "billable vs not": the yes/no field, both ways.
  text = text.replace(/\b([a-z]+)\s+(vs\.?|versus|or)\s+not\b/gi, "$1 $2 non $1");
  // "anyone without a department set": without one; "deals in the hopper": the open ones; "AR": receivables.
  text = text.replace(/\b(without (?:a|an|any) [a-z]+) (?:set|filled in|filled|entered|on file|recorded)\b/gi, "$1");
  text = text.replace(/\bin the (?:hopper|pipe)\b/gi, "open").replace(/\bA\/?R\b/g, "receivables");
  // "vat no.": the VAT number; "15 December 2026", "December 15, 2026": that day, written as a date.
  text = text.replace(/\bvat\s+(?:no|nr|num|#)\b\.?/gi, "vat number").replace(/\btax\s+(?:no|nr|num|#)\b\.?/gi, "tax id");
  const month = (name: string) =>
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(name.slice(0, 3).toLowerCase()) + 1;
  const day = (y: string, m: number, d: string) => `${y}-${String(m).padStart(2, "0")}-${d.padStart(2, "0")}`;
  text = text.replace(
    /\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(20\d{2})\b/gi,
    (_m, d: string, m: string, y: string) => day(y, month(m), d),
  );
  text = text.replace(
    /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(20\d{2})\b/gi,
    (_m, m: string, d: string, y: string) => day(y, month(m), d),
  );
  // ("invoices in euro", "bills in usd", "pays in pounds": the currency.)
  // ("names of customers invoiced in eur": the customers of that currency.)
  text = text.replace(
    /\b(customers|clients)\s+(?:we\s+)?(?:invoice|invoiced|bill|billed)\s+in\s+(euros?|eur|usd|dollars|gbp|pounds)\b(?!\s+(?:vs|versus|or|and)\b)/gi,
    "$1 with currency $2",
  );
  // (Only a piece of its own in a list of details: "new customer, german company, invoices in euro, email …".)
  text = text.replace(/(^|,\s*)(?:invoices?|bills?|billing)\s+in\s+(euros?|eur|usd|us dollars|dollars|gbp|pounds|sterling|chf)\s*(?=,|$)/gi, "$1currency $2");
  // ("new customer, german company, …": where the company is.)
  text = text.replace(
    /(^|,\s*)(?:an?\s+)?(german|french|british|english|american|dutch|spanish|italian|japanese|canadian|australian|swiss|irish|austrian|belgian|swedish|danish|norwegian|polish|indian|chinese|brazilian|mexican)\s+(?:company|firm|business|outfit)\b/gi,
    (_m, lead: string, people: string) => `${lead}based in ${DEMONYMS[people.toLowerCase()]}`,
  );
  // ("the 8th of december": the 8th december.)
  text = text.replace(/\b(\d{1,2})(st|nd|rd|th)\s+of\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/gi, "$1$2 $3");
  // "german customers": the customers in Germany (a country said by its people's adjective).
  text = text.replace(
    /\b(german|french|british|english|american|dutch|spanish|italian|japanese|canadian|australian|swiss|irish|austrian|belgian|swedish|danish|norwegian|polish|indian|chinese|brazilian|mexican)\s+(customers|clients|companies|accounts|contacts|leads|customer|client|company|firm|business)\b/gi,
    (_m, people: string, noun: string) => `${noun} in ${DEMONYMS[people.toLowerCase()]}`,
  );
  // "initech's accounts payable email", "their AP inbox": the customer's e-mail.
  text = text.replace(/\b(?:accounts payable|AP)(?:\s+(?:e-?mail|inbox|address|contact))?\b/g, "email");
  // "how many seats are open for X", "total headcount we're hiring for": the openings' positions.
  text = text.replace(/\bhow many (?:seats|spots|roles|heads)\s+(?:are\s+|r\s+)?(?:open|available|left)\s+for\b/gi, "how many positions for");
  text = text.replace(/\b(?:total\s+)?headcount\s+(?:we(?:'re| are)|are we)\s+(?:hiring|recruiting)(?:\s+for)?\b/gi, "total positions");
  // "projects with no customer attached": without one.
  text = text.replace(/\bno ([a-z]+) (?:attached|linked|assigned|set)\b/gi, "without a $1");
  // "what currency does cyberdyne pay in": the customer's currency; "who in sales joined this year": the people
  // there; "anyone without a department": the people without one.
  text = text.replace(
    /^(?:what|which)\s+currency\s+(?:is|does|do|are)\s+(.+?)\s+(?:pay(?:ing)?|paid|billed|invoiced|bill|invoice|using|use)(?:\s+(?:us\s+)?in)?\s*[?.!]*$/i,
    "what is the currency of $1",
  );
  // ("what currency do we bill prestige holdings in": the same, said of what we do.)
  text = text.replace(/^(?:what|which)\s+currency\s+do\s+we\s+(?:bill|invoice|charge)\s+(.+?)\s+in\s*[?.!]*$/i, "what is the currency of $1");
  text = text
    // ("what was on INV-000305", "what's on inv 12": its lines; "who did INV-… get emailed to": whom it was sent to.)
    .replace(/^what(?:'s|s| is| was| were)\s+on\s+((?:invoice|INV)-\d+)(?:\s*,?\s*which lines)?\s*[?.!]*$/i, "lines of $1")
    .replace(
      /^who\s+did\s+((?:invoice|INV)-\d+)\s+(?:get|go|get sent|get emailed|get mailed)\s+(?:sent\s+|emailed\s+|mailed\s+)?to\s*[?.!]*$/i,
      "who did we send $1 to",
    )
    // ("that hasnt gone out yet": not sent.)
    .replace(/\b(?:has|have|had|is|are)\s+not\s+(?:gone|been sent|been emailed)\s+out(?:\s+yet)?\b/gi, "not sent")
    // ("nobody has touched yet": not contacted.)
    .replace(/\b(?:nobody|no one|noone)\s+(?:has|have)\s+(?:touched|reached out to|called|contacted)(?:\s+yet)?\b/gi, "not contacted yet")
    .replace(/\buntouched\b/gi, "not contacted yet")
    // ("non-engineering staff": people not in engineering; "neither done nor in review": not either.)
    .replace(/\bnon-?(?!billable\b)(\p{L}+)\s+(staff|people|employees|folks|ppl|team members)\b/giu, "$2 not in $1")
    .replace(/\bneither\s+(.+?)\s+nor\s+(?:in\s+)?(.+?)(?=[,.?!]|$)/gi, "not $1 and not $2")
    // ("todo items": tasks in todo; "closed this month either way": won or lost, both — unless left out: "excluding won or lost".)
    .replace(/\b(todo|to-do|to do)\s+items\b/gi, "todo tasks")
    .replace(
      /(?<!\b(?:excluding|exclude|except|without|not|minus|ignoring|ignore|leave out|leaving out|skip|skipping|other than)\s*(?:(?:the|any)\s+)?)\s*,?\s*\b(?:either way|won or lost|win or lose)\b/gi,
      "",
    );
  text = text.replace(/^who\s+(?:in|from)\s+([a-z]+)\s+(?!is\b|are\b|was\b)(.+)$/i, "employees in $1 who $2");
  text = text.replace(/^(?:is there\s+)?(?:anyone|anybody|someone|somebody)\s+(without|with no|missing)\s+/i, "employees $1 ");
  // "open leads - i mean new, contacted or qualified": what is meant, said again (no average).
  text = text.replace(/\s*[-–—,(]?\s*\b(?:i mean|i\.e\.|ie|that is)\s+/gi, ", ");
  // "top 3 openings by number of candidates": the ones with the most of them.
  text = text.replace(
    /\b([a-z]+s)\s+by\s+(?:the\s+)?(?:number|count|amount|#|no\.?)\s+of\s+([a-z]+s)\b/gi,
    (_, owners: string, counted: string) => `${counted} per ${owners.replace(/ies$/, "y").replace(/s$/, "")}, top first`,
  );
  // "who did we send INV-000305 to", "where did we email it": whom it was sent to.
  text = text.replace(
    /^(?:who|what address|which address|where)\s+(?:did|do)\s+(?:we|you|i)\s+(?:send|e-?mail)\s+(.+?)(?:\s+to)?\s*[?.!]*$/i,
    "recipient of $1",
  );
  // "Grace Allen accepted the offer, starts dec 1": a candidate to hire, from that day.
  text = text.replace(
    /^(.+?)\s+(?:has\s+|just\s+)?accepted\s+(?:the|our|my|their)\s+(?:job\s+)?offer\b[!.]*(?:\s*[,;—–-]?\s*(?:and\s+)?(?:she|he|they)?(?:'s|’s| is| will be)?\s*(?:starts?|starting|joins?|joining|first day(?: is)?)\s+(?:on\s+)?(.+?))?[!.]*$/i,
    (_, who: string, from?: string) => `hire ${who}${from ? `, starting ${from}` : ""}`,
  );
  // "umbrella dropped off cash for inv 213": money handed over is a payment.
  text = text.replace(/\b(dropped off|handed (?:us|over)|brought (?:in|over|by))\s+(cash|a check|a cheque|a money order)\b/gi, "paid $2");
  // "the Initech platform deal is now 75k": the deal's value changed.
  text = text.replace(
    /^(?:the\s+)?(.+?\s+deal)\s+(?:is now|is|now|went up to|went down to|dropped to|increased to|grew to)\s+((?:[$€£]\s?)?\d[\d.,]*\s?k?(?:\s?(?:usd|eur|gbp|euros?|dollars?))?)\s*[.!]*$/i,
    "set $1's value to $2",
  );
  // ("Mister Carl Boyd", "Dr. Ada Lovelace": a title of address is no part of the name.)
  // (Case matters here: "we miss the deadline" keeps its verb.)
  text = text.replace(/\b(?:[Mm]ister|MISTER|[Mm]rs?|[Mm]s|Miss|[Dd]r)\.?\s+(?=\p{Lu})/gu, "");
  // News of work said in the past, as the change it asks for: "we closed the prestige expansion deal" (won),
  // "moved the globex pilot to meeting", "bjarne started on plan reports for partner api" (in progress), "finished
  // fix checkout on website" (done), "gringotts platform deal slipped, new expected close end of january".
  text = text.replace(
    /^(?:we(?:'ve| have)?\s+(?:just\s+)?|just\s+)?closed\s+((?:the\s+)?.+?\s+deal)\b(?:\s+(?:today|yesterday|this morning))?[\s!.]*(?:please|pls)?\s*(?:update it)?\s*[.!]*$/i,
    "mark $1 as won",
  );
  text = text.replace(/\s+after\s+(?:today'?s|the|our|this morning'?s|yesterday'?s)\s+(?:call|meeting|demo|chat|conversation)\b/i, "");
  text = text.replace(/^(?:i\s+|we\s+|just\s+)?(moved|pushed|bumped)\s+(the\s+.+?\s+to\s+.+)$/i, "move $2");
  text = text.replace(
    /^(?:[a-z]+(?:\s+[a-z]+)?\s+)?(?:has\s+|just\s+)?started\s+(?:on|working on)\s+(.+?)\s+(?:for|on|in)\s+(?:the\s+)?(.+?)(?:\s+project)?\s*[.!]*$/i,
    "mark $1 on $2 as in progress",
  );
  text = text.replace(
    /^(?:i\s+|we\s+|just\s+)?(?:finished|completed|wrapped up)\s+(?!(?:tasks?|projects?|deals?|this|last|today|yesterday)\b)(.+?)\s+(on|in|for)\s+(?:the\s+)?(.+?)\s*[.!]*$/i,
    "mark $1 $2 $3 as done",
  );
  text = text.replace(
    /^(?:the\s+)?(.+?\s+deal)\s+(?:slipped|slips|is slipping|got pushed|was pushed)\s*[,;—–-]?\s*(?:the\s+)?(?:new\s+)?(?:expected\s+)?close(?:\s+date)?\s+(?:is\s+)?(?:now\s+)?(.+)$/i,
    "push the $1 to $2",
  );
  // "hi, bit of sad news - …": the news's announcement is no part of it; "addr" is an address.
  // ("sad news, …", "ugh wayne still hasnt paid …": a sigh or an announcement before what is said is no name.)
  text = text.replace(
    /^(?:(?:hi|hey|hello)[,!\s]+)?(?:(?:a\s+)?(?:bit of|some|quick)\s+(?:sad|bad|good|great)?\s*|(?:sad|bad|good|great)\s+)news\s*[-–—:,!.]+\s*/i,
    "",
  );
  text = text.replace(/^(?:ugh+|argh+|sigh|phew|yay|woo+hoo+|oh no|damn|oops|meh)\b[,!.]*\s+(?=\S)/i, "");
  text = text.replace(/\baddr\b\.?/gi, "address");
  // ("tim wilson quit, …", "she resigned last friday": gone, as "left" says it.)
  text = text.replace(/\b(?:quit|resigned|has resigned|has quit)\b(?=\s*(?:[,.;!—–-]|$|\s+(?:the company|us|last|yesterday|today|on|this)\b))/gi, "left");
  // "the Data warehouse project is for Initech, link it pls": the link asked for.
  text = text.replace(
    /^(?:the\s+)?(.+?)\s+is\s+for\s+(.+?)\s*[,.;—–-]\s*(?:pls\s+|please\s+|can you\s+)?(?:link|attach|connect|tie)\s+(?:it|them|those)(?:\s+up)?\b.*$/i,
    "link the $1 to $2",
  );
  // "sort those by how much is still due": by the amount due.
  text = text.replace(/\bby how much (?:is |was |they )?(?:still )?(?:due|owed|owe|left|outstanding|unpaid|left to pay)\b/gi, "by amount due");
  // ("…as a new project? Customer is Acme and the start date is 5 January": on a new record, a date field said as
  // "the X date is …" is that field's value.)
  if (/\b(?:new|create|add|set up|setup)\b/i.test(text))
    text = text.replace(
      /\b(?:the\s+|its\s+|their\s+)?((?:start|end|due|close|expected close|issue|joining)\s+date)\s+(?:is|will be|should be)\s+(?=\S)/gi,
      "$1 ",
    );
  // ("the largest amount owing", "amount still owed": what is still due.)
  text = text.replace(/\bamounts?\s+(?:still\s+)?(?:owing|owed|remaining|left to pay)\b/gi, "amount due");
  // "Stark's current balance": the balance (current is no state of a customer's).
  text = text.replace(/\bcurrent\s+(?=(?:balance|status|stage|value|owner|address|email|phone|title|role|department|branch)\b)/gi, "");
  // "Which 5 customers have the highest balance", "which five people have the most …": the top five.
  text = text.replace(/^(?:which|what)\s+(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+(?=[a-z])/i, "top $1 ");
  // "avg invoice size", "average deal size": its amount.
  text = text.replace(/\b(invoice|invoices|deal|deals|payment|payments|order|orders)\s+sizes?\b/gi, "$1 value");
  // "q3 wins": the deals won then.
  text = text.replace(/\b(?:our\s+)?wins\b(?!\s+(?:rate|ratio))/gi, "won deals");
  // "how many tasks are left on X": the ones still open.
  text = text.replace(/\b(tasks|to-?dos|items|things)\s+(?:are\s+|is\s+)?(?:still\s+)?left\b/gi, "open $1");
  // "urgent tasks nobody has started": not started yet.
  text = text.replace(
    /\b(?:that\s+|which\s+)?(?:nobody|no one|no-one)\s+(?:has|have)\s+started(?:\s+(?:yet|on))?\b|\bnot\s+(?:been\s+)?started\s+yet\b/gi,
    "not started",
  );
  // "customers with an open balance": those who owe us.
  text = text.replace(
    /\b(customers?|clients?|accounts)\s+(?:with|that have|who have|having)\s+(?:an?\s+)?(?:unpaid|open|outstanding)\s+balances?\b/gi,
    "$1 who owe us",
  );
  // "the third quarter", "2nd quarter": q3, q2.
  const QUARTERS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4 };
  text = text.replace(/\b(?:the\s+)?(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\b/gi, (_m, n: string) => `q${QUARTERS[n.toLowerCase()]}`);
  // "north of 100k", "upwards of 5k", "in excess of": over; "south of": under; "a balance of zero": 0.
  text = text
    .replace(/\b(?:north of|upwards of|in excess of)\s+(?=[$€£]?\d)/gi, "over ")
    .replace(/\bsouth of\s+(?=[$€£]?\d)/gi, "under ")
    .replace(/\b(?:of\s+)?zero\b(?=\s*[?.!]*$)/gi, "of 0")
    // ("customers that currently have a balance of zero": who owe nothing.)
    .replace(
      /\b(?:(?:that|who|which)\s+)?(?:currently\s+)?(?:have|has|with)\s+(?:a\s+)?(?:zero|0|no)\s+balance\b|\b(?:(?:that|who|which)\s+)?(?:currently\s+)?(?:have|has|with)\s+a\s+balance\s+of\s+0\b/gi,
      "who owe nothing",
    );
  // "lifetime billings for hooli": the total invoiced.
  text = text.replace(/\bbillings\b/gi, "invoiced").replace(/\blifetime\s+(?=invoiced|billed|revenue|sales|payments|spend)/gi, "total ");
  // "payments of $2,000.00 or more", "5k or less": at least, at most.
  text = text
    .replace(/\b(?:of\s+)?([$€£]?\d[\d,.]*\s?(?:k|m)?(?:\s?(?:usd|eur|gbp|dollars|euros|bucks))?)\s+or\s+(?:more|above|greater|higher|over)\b/gi, "at least $1")
    .replace(/\b(?:of\s+)?([$€£]?\d[\d,.]*\s?(?:k|m)?(?:\s?(?:usd|eur|gbp|dollars|euros|bucks))?)\s+or\s+(?:less|below|lower|under|fewer)\b/gi, "at most $1");
  // ("what's left to collect across all partially paid invoices": how much — over several records, their sum.)
  text = text.replace(
    /^what(?:'s|s| is)\s+(left|remaining|still (?:owed|owing|due|outstanding)|outstanding)\s+(?=(?:to\s+(?:collect|pay|be paid)\s+)?(?:on|across|for|from|in)\s+(?:all\s+|every\s+|the\s+|our\s+)*[\p{L}' -]*?(?:invoices|bills)\b)/iu,
    "how much is $1 ",
  );
  // "anything due for payment tmrw": unpaid and due — an invoice's.
  text = text.replace(/\bdue\s+for\s+payment\b/gi, "unpaid due");
  // "filter to euro invoices", "narrow it down to the big ones": only those of the last answer.
  text = text.replace(
    /^(?:(?:ok|okay|now|and|pls|please)[,\s]+)*(?:filter|narrow)\s+(?:(?:it|that|them|those|this|the list)\s+)?(?:down\s+)?(?:to|by|for)\s+/i,
    "only ",
  );
  // "soonest due first": the earliest of those ahead.
  text = text.replace(/\bsoonest\b/gi, "earliest upcoming");
  // "the most valuable open leads": the biggest by their amount.
  text = text.replace(/\bmost valuable\b/gi, "biggest").replace(/\bleast valuable\b/gi, "smallest");
  // "who's on the support team", "who works in the finance department": the people there now (a team is no opening).
  text = text.replace(
    /^(?:who(?:'s|’s|s| is| are)?|who all is|who works|who all work)\s+(?:on|in)\s+(?:the\s+|our\s+)?([a-z]+(?:\s[a-z]+)?)\s+(?:team|department|dept)\s*[?.!]*$/i,
    "employees in $1 excluding former",
  );
  // "what did we bill Globex last month": how much; "who paid us last week": the payments themselves.
  // ("what did we receive in payments last week", "what have we collected so far": how much came in.)
  text = text.replace(
    /^what\s+(?:did|have|has)\s+we\s+(bill(?:ed)?|invoice(?:d)?|charge(?:d)?|receive(?:d)?|collect(?:ed)?|take in|taken in|took in|bring in|brought in)\b/i,
    "how much did we $1",
  );
  text = text.replace(/^who\s+(?:has\s+|have\s+)?paid(?:\s+us)?\b(?!.*\b(?:most|least|biggest|largest|more|less|top)\b)/i, "payments received");
  // "new hires q3", "our new hires this year": the employees who joined then ("new hire Omar …" stays a new one).
  text = text.replace(
    /^(?:(?:list|show(?: me)?|all|our|the)\s+)*new hires\b(?!\s*:)(?=\s*(?:$|[?.!]|in\b|this\b|last\b|since\b|q[1-4]\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))/i,
    "employees who joined",
  );
  // "anything more than 60 days overdue?": what is overdue, as "anything overdue" is.
  text = text.replace(
    /^(?:is there\s+)?(?:anything|any|what's|whats|what is)\s+(?=(?:more than|over|at least)\s+\d+\s+(?:days?|weeks?|months?)\s+(?:overdue|past due)\b)/i,
    "invoices ",
  );
  // "phone no. of …": its number; "projects in hold": on hold.
  text = text.replace(/\b(?:phone|mobile|tel|contact)\s+no\b\.?/gi, "phone").replace(/\bin hold\b/gi, "on hold");
  // "since the start of october": since october.
  text = text.replace(/\b(since|from)\s+the\s+(?:start|beginning)\s+of\s+/gi, "$1 ");
  // "any chance you can tell me …", "is there any chance you could …": politeness, not a name.
  text = text.replace(/^(?:is there )?(?:any|by any) chance (?:that )?(?:you )?(?:can|could|would)?\s*/i, "");
  // "…, the accountant is asking", "my boss wants to know …": who wants the answer, not part of the question.
  text = text.replace(
    /[,;-]\s*(?:the|my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|was|were|keeps|has been)\s+(?:asking|waiting|chasing|nagging)\b[^,;]*[.!?]*$/i,
    "",
  );
  text = text.replace(/^(?:the|my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:wants|needs|would like|asked|is asking)\s+(?:to know|me to find out|me to check)\s+/i, "");
  // "tasks that nobody is assigned to", "not assigned to anyone", "with no assignee": unassigned.
  text = text.replace(
    /\b(?:(?:that|which)\s+)?(?:nobody|no one|noone|no-one)\s+(?:is\s+|has been\s+|was\s+)?assigned(?:\s+to)?\b|\bnot assigned to (?:anyone|anybody)\b|\b(?:with no|without an?) (?:assignee|owner)\b/gi,
    "unassigned",
  );
  // "projects that don't have a customer attached": without one.
  text = text.replace(/\b(?:do|does|did) not have (?:a|an|any) ([a-z]+)(?: (?:attached|linked|assigned|set|on (?:it|them|file)|yet))?\b/gi, "without a $1");
  // "todo on the design system project: audit color tokens": a new to-do, its title after the colon.
  text = text.replace(/^(?:add (?:a )?|new |another )?(?:todo|to-do|to do)\b(?=[^:]*:\s*\S)/i, "new task");
  // "what is Sophie assigned to": her tasks.
  text = text.replace(/^what(?:'s| is| are)\s+(.+?)\s+(?:assigned to|assigned|responsible for|in charge of)\s*\??$/i, "tasks assigned to $1");
  // "how many people are we hiring", "seats we're hiring for": the openings' positions.
  text = text.replace(
    /\b(?:people|persons|seats|spots|roles|heads|hires)\s+(?:are\s+we|we\s+are|we're|we'll\s+be|do\s+we\s+need\s+to|to)\s+(?:hiring|recruiting|hire|recruit)\b(?:\s+for\b(?=\s*[?.!]*$))?/gi,
    "positions",
  );
  // "for more than one person", "more than two positions": a small number said in words, then what it counts.
  text = text.replace(
    /\b(more than|over|at least|fewer than|less than|under)\s+(one|two|three|four|five|six|seven|eight|nine|ten)\b/gi,
    (_m, cmp: string, n: string) => `${cmp} ${NUMBER_WORDS[n.toLowerCase()]}`,
  );
  // ("job ads for more than 1 person": the openings' positions.)
  text = text.replace(/\bfor\s+(more than|over|at least|fewer than|less than|under)\s+(\d+)\s+(?:persons?|people|hires?|seats?)\b/gi, "with $1 $2 positions");
  // "our longest serving employee", "who's been here the longest": the one who joined first.
  text = text.replace(/\b(?:longest[\s-](?:serving|tenured|standing)|most tenured|most senior by tenure)\b/gi, "earliest joined");
  text = text.replace(/(?:\b(?:has|have)\s+|['’]s\s+)been\s+(?:here|with us|around)\s+(?:the\s+)?longest\b/gi, " joined first");
  // "net 15": payment terms, due that many days out.
  text = text.replace(/\bnet[\s-]?(\d{1,3})\b(?!\s*(?:%|percent|k\b))/gi, "due in $1 days");
  // "how many senior engineers are we looking for": the positions of that opening.
  text = text.replace(
    /^how many\s+(?!people\b|persons\b|seats\b|spots\b|roles\b|heads\b|hires\b|positions\b)(.+?)s?\s+(?:are we|we're|we are|do we|are you)\s+(?:still\s+)?(?:looking for|hiring|recruiting|trying to hire|need(?:ing)?)\b(?:\s+(?:right\s+)?now)?\s*[?.!]*$/i,
    "how many positions for the $1 opening",
  );
  // "how much time did the team spend on …": time spent, not the expenses' "spend".
  text = text.replace(/\b(time|hours?|minutes)\b(.{0,40}?)\bspend\b/gi, "$1$2spent");
  // "across everyone", "for the whole team": everyone's together, which is what a total is anyway.
  text = text.replace(/\s*\b(?:across|for|by|from) (?:everyone|everybody|the (?:whole |entire )?team|all of us|the whole company)\b/gi, "");
  // "who's in the pipeline for the Senior Engineer role": the candidates for that opening.
  text = text.replace(
    /^(?:who(?:'s| is| are)?|what(?:'s| is)?)\s+(?:in|left in)\s+(?:the|our)\s+pipeline\s+for\s+(?:the\s+)?(.+?)\s+(role|opening|position|job)\b/i,
    "candidates for the $1 $2",
  );
  // "where's katherine at in the hiring pipeline": the stage of that candidate.
  text = text.replace(
    /^where(?:'s| is|s)\s+(.+?)\s+(?:at\s+)?(?:in|with)\s+(?:the|our)\s+(?:hiring|recruiting|recruitment|interview)\s+(?:pipeline|process|funnel|loop)\b\s*[?.!]*$/i,
    "stage of the candidate $1",
  );
  // "who's doing review exports on …": who it is assigned to (not a task in progress).
  text = text.replace(/^(who(?:'s| is|s)?)\s+doing\s+/i, "$1 on ");
  // "who's on the support team": the people of that department.
  text = text.replace(/\b(?:on|in) the (\w+) team\b/gi, "in the $1 department");
  // "who's hiring manager for... nvm, which openings are in berlin": what was taken back is no part of the question.
  text = text.replace(/^.*?\b(?:nvm|never\s?mind|scratch that|forget that|forget it)\b[\s,.;:!…—–-]*(?=\S)/i, "");
  // "set X to review... actually to done": the value said last is the one meant.
  text = text.replace(/\b(to|as)\s+[\w ]+?\s*(?:\.{2,}|…|,|—|–|\s-)\s*(?:actually|no|wait|sorry|i mean)[,]?\s+(?:to|as)\s+/gi, "$1 ");
  // "more than 60 days past its due date": overdue by that much.
  text = text.replace(/\b((?:more|longer) than \d+ (?:days?|weeks?|months?)) past (?:its|their|the) due dates?\b/gi, "$1 overdue");
  // "open deals that have an expected close date that has already passed": past it.
  text = text.replace(/\b(?:have|has|with) an? ([a-z ]*?date) that (?:has |have )?(?:already )?passed\b/gi, "past their $1");
  // "just the ones for customers in EUR": invoices in that currency.
  text = text.replace(/\b(?:for|from) (?:customers|clients) (?:billed |who pay |paying )?in (eur|usd|gbp|euros?|dollars?|pounds?)\b/gi, "in $1");
  // "deals lost bc of price": the reason they were lost.
  text = text.replace(/\blost (?:because of|bc of|due to|over|on) (?:the )?/gi, "lost to ");
  // "we got 500€ cash from Cyberdyne": money in from a customer, said as news, is a payment to record.
  text = text.replace(
    /^(?:we\s+|i\s+)?(?:just\s+)?(?:got|received)\s+(?=[$€£]?\s?\d[\d,.]*\s*(?:k\b|[$€£]|[a-z]{3}\b)?[^?]*\bfrom\s+\S[^?]*$)/iu,
    "record payment of ",
  );
  // "which customers are billed in euros": the customers' currency, not what was billed.
  text = text.replace(/\b(?:are|is|get|gets)\s+(?:billed|invoiced|charged)\s+in\s+(eur|usd|gbp|euros?|dollars?|pounds?)\b/gi, "in $1");
  // "task count per status": how many tasks.
  text = text.replace(/\b(task|deal|lead|invoice|contact|customer|employee|candidate|project|payment|opening)s?\s+count\b/gi, "number of $1s");
  // "how many deals did we open in september": made then, not the ones open now.
  text = text
    .replace(/\b(did|have|has)\s+(we|you|they|i)\s+open\b(?!\s+(?:the|a|an|our)\b)/gi, "$1 $2 add")
    .replace(/\bwe\s+opened\b(?!\s+(?:the|a|an|our)\b)/gi, "we added");
  // "let's make her an offer": the candidate's stage, not a quote.
  text = text.replace(/\b(?:let'?s\s+)?make\s+(her|him|them)\s+an\s+offer\b/gi, "move $1 to offer");
  // "one task inside Design system project": in it.
  text = text.replace(/\binside(?: of)?\b/gi, "in");
  // "how many deals in each of those stages": grouped by that field (of the records just talked about).
  text = text.replace(/\b(?:in|for|per) each of (those|these|the) ([a-z]+)\b(?=\s*[?.!]*$)/gi, (_m, which: string, plural: string) => {
    const one = /(?:ss|us|ch|sh|x)es$/i.test(plural) ? plural.slice(0, -2) : plural.replace(/s$/i, "");
    return `by ${one} of ${which}`;
  });
  // "everyone we know at Pied Piper", "who do we know over at Nakatomi": the contacts there.
  text = text.replace(/\b(?:everyone|everybody|anyone|anybody|people|folks|who)\s+(?:do\s+)?we\s+know\s+(?:over\s+)?(at|from|in)\b/gi, "contacts $1");
  // "invoices that fall due next week": that are due then.
  text = text.replace(/\b(?:fall|falls|falling|fell|come|comes|coming)\s+due\b/gi, "due");
  // "€2.500": a dot before three digits after a currency sign is a thousands separator, as in much of Europe.
  text = text.replace(/([$€£])\s?(\d{1,3})\.(\d{3})(?![\d.,])/g, "$1$2$3");
  // "did NOT come from", "ONLY the paid ones": a small word in capitals is emphasis, not an acronym's name.
  text = text.replace(/\b(NOT|NO|AND|OR|ALL|ANY|ONLY|JUST|NEVER|STILL|EVER|ASAP|PLS|PLEASE|NOW|EVERY|NONE)\b/g, (word) => word.toLowerCase());
  // "still in the running (not rejected)": a way of saying the candidates nobody has turned down, when the rest says
  // it anyway. (Said alone, it is the candidates' state of that name.)
  if (/\brejected\b/i.test(text)) text = text.replace(/\s*,?\s*\b(?:still\s+)?in the running\b/gi, "");
  // ("Kessler & Sons" is a name: a capital after it keeps the ampersand.)
  text = text.replace(/\s*->\s*/g, " to ").replace(/\s&\s(?![A-Z])/g, " and ");
  text = text.replace(/(^|\s)>\s?(?=[$€£\d])/g, "$1over ").replace(/(^|\s)<\s?(?=[$€£\d])/g, "$1under ");
  // "the us", "the U.S.", "US", "USA": the country (a plain "us" stays the pronoun of "who owes us").
  text = text.replace(/\bthe\s+(?:u\.?s\.?a?\.?)(?=\s|$|[?,!])/gi, "the USA").replace(/\b(?:USA?|U\.S\.(?:A\.)?)(?=\s|$|[?,!])/g, "USA");
  // ("which USA customers owe us more than 20k": a country before the noun is where they are; "customers in
  // the US owe …": the verb after it is the question's, not part of the country's name.)
  text = text
    .replace(/\b(?:the\s+)?USA\s+(customers|clients|companies|accounts|leads|contacts)\b/g, "$1 in the USA")
    .replace(/\bin the USA\s+(?=(?:owe|owes|owing|have|has|are|were|paid|pay|still|with)\b)/g, "in the USA that ");
  // (Not inside an e-mail address or a web address: "joan.r@…" keeps its "r".)
  return text.replace(/[^\s@]+@[^\s@]+|\bhttps?:\/\/\S+|\b[A-Za-z0-9/]+\b/g, (word) => {
    if (word.includes("@") || word.includes("://")) return word;
    const lower = word.toLowerCase();
    if (lower === "w/") return "with";
    return SHORTHAND[lower] ?? word;
  });
}

export type Words = {
  /** The normalised message. */
  text: string;
  tokens: Token[];
  /** Lower-case, typo-corrected words, one per token. */
  words: string[];
  /** The words joined by spaces (what phrases are matched in). */
  joined: string;
};

export function wordsOf(message: string, vocabulary: ReadonlySet<string>): Words {
  const text = normalize(message);
  const tokens = tokenize(text);
  const typed = tokens.map((token) => token.lower.replace(/[.']+$/, ""));
  const corrected = typed.map((word) => correct(word, vocabulary));
  // (A short word after a name's word — one no vocabulary has, left as typed — is its surname, not two letters
  // swapped: "carl boyd" is no "carl body". A letter left out is still a slip: "barbara mccarthy finsh".)
  const named = (i: number) =>
    i >= 0 && /^[a-z]{3,}$/.test(typed[i]!) && corrected[i] === typed[i] && !vocabulary.has(typed[i]!) && !FILLER.has(typed[i]!) && !GRAMMAR.has(typed[i]!);
  const letters = (word: string) => [...word].sort().join("");
  const swappedOnly = (i: number) => corrected[i] !== typed[i] && letters(corrected[i]!) === letters(typed[i]!);
  const words = typed.map((word, i) => (word.length < 6 && swappedOnly(i) && named(i - 1) ? word : corrected[i]!));
  return { text, tokens, words, joined: words.join(" ") };
}

/** Every occurrence of a phrase as whole words: the token indexes it covers. */
export function occurrences(words: readonly string[], phrase: string): number[][] {
  const parts = phrase
    .toLowerCase()
    .split(/[\s-]+/)
    .filter(Boolean);
  const found: number[][] = [];
  if (parts.length === 0) return found;
  for (let i = 0; i + parts.length <= words.length; i++) {
    if (parts.every((part, k) => words[i + k] === part)) found.push(parts.map((_, k) => i + k));
  }
  return found;
}

/** Token indexes a character span of the normalised text covers. */
export function indexesIn(w: Words, start: number, end: number): number[] {
  return w.tokens.flatMap((token, i) => (token.start < end && token.end > start ? [i] : []));
}

/** The raw text of some tokens, as typed. */
export function rawOf(w: Words, indexes: number[]): string {
  return indexes.map((i) => w.tokens[i]!.raw).join(" ");
}

/** Words that only glue a question together. */
export const FILLER: ReadonlySet<string> = new Set(
  (
    "a an the of for to in on at by with from and or but is are was were be been being am do does did have has had " +
    "what whats what's which who whom whose where when why how me my mine our ours we us i you your it its this that " +
    "these those there here please can could would will shall should may might must show list give get find display tell " +
    "let see view pull up bring look check any all every some each about details detail on off out into onto as just also " +
    "still currently right now so far than then them they their he she his her him hers kindly quickly need want like know " +
    "anything everything named called titled via per ok okay hey hi hello currently got gotten thing things one ones yet " +
    "whole entire lot lots again already really actually exactly much many other others anymore atm rn work works based located gone went go goes going we're were you're they're taken " +
    "i'd i'm i'll behind against same question moment side process down break supposed meant quick fill filling very month months monthly week weeks weekly quarter quarterly yearly daily " +
    "among amongst they'd we'd you'd he'd she'd"
  ).split(" "),
);

/** Words of the question's grammar (aggregates, ranking): never part of a name. */
export const GRAMMAR: ReadonlySet<string> = new Set(
  (
    "most least top biggest largest highest smallest lowest longest shortest latest newest oldest earliest recent recently average avg mean total totals sum count " +
    "number many much overall altogether combined typical fewest best worst max min maximum minimum more less rank ranking ranked sorted order " +
    "breakdown split grouped group broken across per each every rn anything stuff something someone anyone folks guys right now " +
    "currently today so far yet still ever all time far along close does did do is are was were has have had us we our owe " +
    "assigned owned belonging logged last first came added created sitting ever single only just ones those them these that got " +
    "vs versus plate file on sorted order ordered unassigned company business firm except exclude excluding we've weve i've ive " +
    "money cash funds come coming falling play leave ignore minus skip pls please outside passed already " +
    "things items ones everything board list nobody noone hiring stuck waiting sitting doing team everyone everybody again crew"
  ).split(" "),
);
