/**
 * What a message is for, said before or after the request: "for the cash-flow review: number of invoices paid in
 * part", "doing month-end: all invoices issued in october", "headcount by department, need it for payroll
 * planning", "overdue tasks per assignee — for standup". The purpose is no part of what is asked: its words would
 * be read as a name ("standup"), a period ("month-end") or a refusal ("payroll"). What it does say of the request
 * is kept: whose review it is ("for guido borg's review: how many tasks did he complete" — he is Guido Borg) and
 * which period ("For the Q3 review — how many invoices did we raise that quarter").
 */

const PURPOSE =
  "review|reviews|report|reporting|audit|auditing|meeting|call|standup|stand-up|deck|forecast|forecasting|planning|filing|billing|collections|month-end|month end|close|board|payroll|budget|budgeting|reconciliation|sync|catch-up|catchup|presentation|one-on-one|1:1|retro|kickoff|kick-off|check-in|prep";

/** "for the cash-flow review:", "doing month-end:", "planning next week's collections —": a purpose, then a colon or a dash. */
const BEFORE = new RegExp(
  `^(?:for|doing|planning|auditing|prepping|preparing|ahead of|before)\\s+((?:[\\p{L}\\d'’&.-]+\\s+){0,5}?(?:${PURPOSE}))\\s*(?::|\\s[—–-])\\s*(?=\\S)`,
  "iu",
);

/** "…, need it for payroll planning", "… — for standup", "…? prepping the status call": a purpose said last. */
const AFTER = new RegExp(
  `(?:\\s*[,;]\\s*|\\s+[—–-]\\s+|(?<=[?.!])\\s+)(?:(?:i\\s+|we\\s+)?need(?:ed)?\\s+(?:it|this|them|these|that)\\s+|it's\\s+|its\\s+|just\\s+|this\\s+is\\s+)?(?:for|prepping|preparing|ahead\\s+of)\\s+(?:the\\s+|our\\s+|my\\s+|a\\s+|an\\s+)?(?:[\\p{L}'’-]+\\s+){0,3}?(?:${PURPOSE})\\s*[.!]*$`,
  "iu",
);

const PERIOD =
  /^(?:q[1-4](?:\s+\d{4})?|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:\s+\d{4})?|\d{4}|h[12])$/i;

/** "auditing timesheets — any entries over three hours?": what the asker is doing, then the request. */
const DOING =
  /^(?:auditing|reviewing|checking|cleaning\s+up|going\s+through|tidying(?:\s+up)?)\s+(?:the\s+|our\s+|my\s+)?(?:[\p{L}'’-]+\s+){0,2}?[\p{L}'’-]+\s*(?::|\s[—–-])\s*(?=\S)/iu;

export function withoutPurpose(text: string): string {
  let said = text.trim();
  const after = AFTER.exec(said);
  // (Only when something is left to ask: "prep for the board meeting" alone is what it is.)
  if (after && after.index > 8) said = said.slice(0, after.index);
  const doing = DOING.exec(said);
  if (doing) return said.slice(doing[0].length);
  const before = BEFORE.exec(said);
  if (!before) return said;
  let rest = said.slice(before[0].length);
  const purpose = before[1]!.replace(new RegExp(`\\s*\\b(?:${PURPOSE})$`, "i"), "").trim();
  // Whose it is: "guido borg's review" — the pronoun of the request, or the record it is about.
  const whose = /^(?:the\s+)?(.+?)['’]s$/iu.exec(purpose)?.[1];
  const period = purpose.replace(/^(?:the|our|my|this)\s+/i, "");
  if (whose) {
    const pronoun = /\b(?:he|she|they|him|her|them)\b/i;
    rest = pronoun.test(rest) ? rest.replace(pronoun, whose) : `${rest.replace(/[?.!]+$/, "")} for ${whose}`;
  } else if (PERIOD.test(period)) {
    const that = /\bthat\s+(?:quarter|month|year|period|half)\b/i;
    rest = that.test(rest) ? rest.replace(that, `in ${period}`) : `${rest.replace(/[?.!]+$/, "")} in ${period}`;
  } else if (/\b(?:next|last|this)\s+(?:week|month|quarter|year)(?:['’]s)?\b/i.test(period)) {
    // ("planning next week's collections — which invoices fall due then?": then is that week.)
    const when = /\b((?:next|last|this)\s+(?:week|month|quarter|year))(?:['’]s)?\b/i.exec(period)![1]!;
    rest = rest.replace(/\bthen\b|\bthat\s+(?:week|month|quarter|year)\b/i, when);
  } else {
    // ("for the hooli holdings account review — what have we billed them": "them" is who the review is of.)
    const named = period.replace(/\s+(?:account|accounts|client|customer|team|quarterly|monthly|annual|weekly)$/i, "");
    if (/\b(?:them|they|their)\b/i.test(rest) && named.split(/\s+/).length <= 3 && !/^(?:next|last|this|cash|month|q\d)/i.test(named))
      rest = rest.replace(/\b(?:them|they)\b/i, named).replace(/\btheir\b/i, `${named}'s`);
  }
  return rest;
}
