import { formatMoney } from "../../platform/format";
import type { ApiRecord, Skill } from "../../platform/skills";

const money = (record: ApiRecord, field: string) => formatMoney(Number(record[field]), String(record.currency));

export const quoteSkills: Skill[] = [
  {
    kind: "resource",
    resource: "quotes",
    singular: "quote",
    plural: "quotes",
    synonyms: ["quotation", "quotations", "proposal", "proposals", "estimate", "estimates", "offer", "offers"],
    nameField: "number",
    label: (r) => `${r.number} (${money(r, "total")})`,
    line: (r) => `${r.number} — ${money(r, "total")}, ${r.status}${r.valid_until ? `, valid until ${r.valid_until}` : ""}`,
    fields: {
      total: { words: ["total", "amount", "value", "worth", "how much"], format: "money" },
      valid_until: { words: ["valid until", "expiry", "expires", "validity"], format: "date" },
      status: { words: ["status", "state"] },
    },
    filters: [
      { words: ["open", "pending", "awaiting", "sent"], query: { status: "sent" }, label: "awaiting an answer" },
      { words: ["accepted", "won", "approved"], query: { status: "accepted,invoiced" }, label: "accepted" },
      { words: ["declined", "rejected", "lost"], query: { status: "declined" }, label: "declined" },
      { words: ["expired", "lapsed"], query: { status: "expired" }, label: "expired" },
      { words: ["draft", "drafts", "unsent"], query: { status: "draft" }, label: "draft" },
    ],
    parents: [{ words: ["for", "to", "of"], resource: "customers", param: "customer_id" }],
  },
  {
    kind: "metric",
    widget: "quotes.open_value",
    now: true,
    title: "Open quotes",
    phrases: ["open quotes value", "value of open quotes", "quotes awaiting answer", "pending quotes value", "quoted pipeline"],
  },
];
