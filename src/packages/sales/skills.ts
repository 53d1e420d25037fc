import { formatMoney, words } from "../../platform/format";
import type { ApiRecord, Skill } from "../../platform/skills";

const money = (record: ApiRecord, field = "value") => formatMoney(Number(record[field]), String(record.currency));
const STAGE_WORDS: Record<string, string[]> = {
  initial_contact: ["initial contact", "first contact", "new"],
  qualification: ["qualification", "qualifying", "qualified"],
  meeting: ["meeting", "meetings", "meeting stage"],
  proposal: ["proposal", "proposals", "proposal stage", "quoted"],
  negotiation: ["negotiation", "negotiating", "in negotiation"],
  won: ["won", "win", "closed won", "success"],
  lost: ["lost", "lose", "losing", "closed lost", "dead", "fell through", "fallen through"],
};

export const salesSkills: Skill[] = [
  {
    kind: "resource",
    resource: "contacts",
    singular: "contact",
    plural: "contacts",
    synonyms: ["person", "persons", "people we know", "people do we know", "who do we know", "address book", "business contacts"],
    nameField: "name",
    label: (r) => String(r.name),
    line: (r) => `${r.name}${r.company ? ` (${r.company})` : ""} — ${r.email}${r.phone ? `, ${r.phone}` : ""}`,
    fields: {
      email: { words: ["email", "e-mail", "email address", "mail"] },
      phone: { words: ["phone", "phone number", "telephone", "mobile", "cell", "number"] },
      company: { words: ["company", "employer", "organisation", "organization", "work for", "works for", "work at", "works at", "works where", "work where"] },
    },
    values: [{ words: ["at", "from company", "working at", "who work at", "company", "under"], param: "company" }],
  },
  {
    kind: "resource",
    resource: "leads",
    singular: "lead",
    plural: "leads",
    synonyms: ["prospect", "prospects"],
    nameField: "name",
    label: (r) => String(r.name),
    line: (r) =>
      `${r.name}${r.company ? ` (${r.company})` : ""} — ${words(r.status)}${r.source ? `, from ${r.source}` : ""}${r.value !== null && r.value !== undefined ? `, ${money(r)}` : ""}`,
    fields: {
      email: { words: ["email", "e-mail", "email address"] },
      phone: { words: ["phone", "phone number", "telephone", "mobile"] },
      company: { words: ["company", "organisation", "organization"] },
      source: { words: ["source", "where from", "come from", "came from"] },
      status: { words: ["status", "state", "where"] },
      value: { words: ["value", "worth", "potential"], format: "money" },
    },
    filters: [
      { words: ["new", "fresh", "untouched"], query: { status: "new" }, label: "new" },
      { words: ["contacted", "reached out"], query: { status: "contacted" }, label: "contacted" },
      { words: ["qualified"], query: { status: "qualified" }, label: "qualified" },
      { words: ["unqualified", "disqualified"], query: { status: "unqualified" }, label: "unqualified" },
      { words: ["converted", "convert"], query: { status: "converted" }, label: "converted" },
      // (A lead still being worked: neither converted nor ruled out.)
      { words: ["open", "active", "in play", "still open"], query: { status: "new,contacted,qualified" }, label: "open" },
    ],
    values: [
      { words: ["from", "via", "source", "sourced from", "coming from", "came from"], param: "source" },
      { words: ["at", "works at", "working at", "company"], param: "company" },
    ],
    measure: "value",
  },
  {
    kind: "resource",
    resource: "deals",
    singular: "deal",
    plural: "deals",
    synonyms: ["opportunity", "opportunities", "oppty", "opp", "opps"],
    nameField: "name",
    label: (r) => `${r.name} (${money(r)})`,
    line: (r) => `${r.name} — ${money(r)}, ${words(r.stage)}${r.expected_close_date ? `, expected to close ${r.expected_close_date}` : ""}`,
    fields: {
      value: { words: ["value", "worth", "amount", "size", "how much"], format: "money" },
      stage: { words: ["stage", "status", "state", "where"] },
      expected_close_date: {
        words: ["close date", "expected close", "closing date", "when will it close", "supposed to close", "expected to close", "due to close"],
        format: "date",
      },
      lost_reason: {
        words: ["reason", "reasons", "lost reason", "why", "lost to"],
        means: {
          price: ["price", "pricing", "too expensive", "expensive", "pricey", "cost", "costs", "cheaper", "too much money"],
          competitor: ["competitor", "competition", "went with", "another vendor", "someone else", "other vendor", "chose", "picked"],
          "no budget": ["budget", "no money", "afford", "funding", "no funds"],
          timing: [
            "bad timing",
            "poor timing",
            "wrong time",
            "timing",
            "not now",
            "next year",
            "bad time",
            "on hold",
            "postpone",
            "later",
            "not the right time",
          ],
        },
        when: { stage: "lost" },
      },
    },
    filters: [
      { words: ["open", "active", "ongoing", "in progress", "going on", "in play", "still alive"], query: { status: "open" }, label: "open" },
      ...Object.entries(STAGE_WORDS).map(([stage, list]) => ({ words: list, query: { stage }, label: `in ${words(stage)}` })),
    ],
    amount: { min: "value_min", max: "value_max" },
    measure: "value",
    dateFields: [
      { words: ["closed", "won", "lost", "signed", "close", "win", "lose"], field: "closed_at" },
      // (A deal won or lost has closed: "closing this month" asks about the open ones.)
      {
        words: [
          "expected to close",
          "expected close",
          "closing",
          "close date",
          "expected",
          "supposed to close",
          "due to close",
          "should close",
          "set to close",
          "slated to close",
          "going to close",
          "scheduled to close",
        ],
        field: "expected_close_date",
        where: { status: "open" },
      },
      { words: ["created", "opened", "added", "came in"], field: "created_at" },
    ],
    measures: [{ words: ["pipeline", "pipeline value", "open pipeline"], field: "value", fn: "sum", where: { status: "open" }, title: "Open pipeline" }],
    sorts: [{ words: ["biggest", "largest", "top", "most valuable", "highest"], sort: "-value" }],
  },
  {
    kind: "metric",
    widget: "sales.won_value",
    title: "Won deals",
    phrases: ["won value", "value won", "deals won", "won deals", "closed won", "sales won", "how much did we win", "bookings"],
  },
  {
    kind: "metric",
    widget: "sales.win_rate",
    title: "Win rate",
    phrases: ["win rate", "winrate", "close rate", "win ratio", "success rate", "conversion of deals", "how often do we win"],
  },
  {
    kind: "metric",
    widget: "sales.pipeline_by_stage",
    now: true,
    title: "Open pipeline",
    phrases: ["pipeline", "pipeline value", "open pipeline", "pipeline by stage", "deals by stage", "sales pipeline"],
  },
  {
    kind: "metric",
    widget: "sales.leads_by_source",
    title: "Leads by source",
    phrases: ["leads by source", "lead sources", "where do leads come from", "where our leads come from", "lead source breakdown"],
  },
  {
    kind: "metric",
    widget: "sales.new_contacts",
    title: "New contacts",
    phrases: ["new contacts", "contacts added", "contacts created", "contact growth"],
  },
  {
    kind: "action",
    name: "move_deal",
    resource: "deals",
    slots: [
      { name: "deal", kind: "record", resource: "deals", required: true },
      { name: "stage", kind: "state", states: STAGE_WORDS, after: ["to", "into", "as", "stage"], required: true },
    ],
    request: (v) => ({ method: "PATCH", path: `/deals/${v.deal}`, body: { stage: v.stage } }),
    summary: (v, labels) => `Move the deal ${labels.deal} to ${words(v.stage)}`,
  },
  {
    kind: "action",
    name: "create_contact",
    resource: "contacts",
    slots: [
      { name: "name", kind: "title", required: true },
      { name: "email", kind: "email", required: true },
    ],
    request: (v) => ({ method: "POST", path: "/contacts", body: { name: v.name, email: v.email } }),
    summary: (v) => `Create the contact ${v.name} <${v.email}>`,
  },
];
