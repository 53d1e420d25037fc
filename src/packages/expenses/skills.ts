import { formatMoney } from "../../platform/format";
import type { ApiRecord, Skill } from "../../platform/skills";

const money = (record: ApiRecord) => formatMoney(Number(record.amount), String(record.currency));

export const expenseSkills: Skill[] = [
  {
    kind: "resource",
    resource: "vendors",
    singular: "vendor",
    plural: "vendors",
    synonyms: ["supplier", "suppliers", "seller", "sellers"],
    nameField: "name",
    label: (r) => String(r.name),
    line: (r) => `${r.name}${r.email ? ` <${r.email}>` : ""}`,
    fields: {
      email: { words: ["email", "e-mail", "email address"] },
      phone: { words: ["phone", "phone number"] },
      tax_id: { words: ["tax id", "vat number", "vat id"] },
    },
  },
  {
    kind: "resource",
    resource: "expenses",
    singular: "expense",
    plural: "expenses",
    synonyms: ["spend", "spending", "cost", "costs", "purchase", "purchases", "expense claim", "expense claims", "receipt", "receipts"],
    label: (r) => `${r.category} ${money(r)} on ${r.date}`,
    line: (r) => `${r.date} — ${r.category}${r.description ? ` (${r.description})` : ""}: ${money(r)}, ${r.status}`,
    fields: {
      amount: { words: ["amount", "how much", "cost", "total", "sum"], format: "money" },
      category: { words: ["category", "kind", "type"] },
      status: { words: ["status", "state", "approved"] },
      date: { words: ["date", "when"], format: "date" },
    },
    filters: [
      { words: ["submitted", "awaiting approval", "to approve", "pending"], query: { status: "submitted" }, label: "awaiting approval" },
      { words: ["approved"], query: { status: "approved" }, label: "approved" },
      { words: ["rejected", "declined"], query: { status: "rejected" }, label: "rejected" },
      { words: ["reimbursed", "paid back"], query: { status: "reimbursed" }, label: "reimbursed" },
    ],
    values: [{ words: ["on", "for", "in category"], param: "category" }],
  },
  {
    kind: "metric",
    widget: "expenses.by_category",
    title: "Expenses by category",
    ownsPhrases: true,
    phrases: [
      "expenses by category",
      "spending by category",
      "spend by category",
      "costs by category",
      "expense breakdown",
      "what did we spend on",
      "where did the money go",
      "expenses per category",
    ],
    defaultPeriod: "30d",
  },
  {
    kind: "metric",
    widget: "account.profit",
    title: "Profit",
    phrases: ["profit", "profits", "net income", "margin", "revenue minus expenses", "how much did we keep"],
    defaultPeriod: "30d",
  },
];
