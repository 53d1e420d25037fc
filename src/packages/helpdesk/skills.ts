import type { Skill } from "../../platform/skills";

export const helpdeskSkills: Skill[] = [
  {
    kind: "resource",
    resource: "tickets",
    singular: "ticket",
    plural: "tickets",
    synonyms: ["support ticket", "support tickets", "support request", "support requests", "helpdesk ticket", "helpdesk tickets", "complaint", "complaints"],
    // Found by number (TKT-000123); subjects are sentences, not names, and would answer for misspelt words.
    nameField: "number",
    reference: { pattern: /\bTKT-\d{6,}\b/i, query: (match) => ({ q: match.toUpperCase() }) },
    label: (r) => `${r.number} — ${r.subject}`,
    line: (r) =>
      `${r.number} — ${r.subject} (${r.email}), ${r.priority}, ${r.status}${r.sla_breached ? ", SLA breached" : ""}${r.assignee_user_id ? "" : ", unassigned"}`,
    fields: {
      subject: { words: ["subject", "about", "title"] },
      email: { words: ["email", "e-mail", "requester", "from"] },
      priority: { words: ["priority", "urgency"] },
      status: { words: ["status", "state"] },
      first_response_due_at: { words: ["due", "sla", "first response due", "deadline"], format: "date" },
    },
    filters: [
      { words: ["open"], query: { status: "open" }, label: "open" },
      { words: ["pending", "waiting on customer", "awaiting reply"], query: { status: "pending" }, label: "pending" },
      { words: ["resolved", "solved"], query: { status: "resolved" }, label: "resolved" },
      { words: ["closed"], query: { status: "closed" }, label: "closed" },
      { words: ["unresolved", "not resolved", "still open", "active"], query: { status: "open,pending" }, label: "open or pending" },
      { words: ["urgent"], query: { priority: "urgent" }, label: "urgent" },
      { words: ["high priority", "high-priority"], query: { priority: "high" }, label: "high priority" },
      { words: ["low priority", "low-priority"], query: { priority: "low" }, label: "low priority" },
      { words: ["breached", "sla breached", "breaching", "late", "overdue", "past sla"], query: { sla_breached: "true" }, label: "past their SLA" },
      { words: ["unassigned", "nobody assigned", "not assigned"], query: { unassigned: "true" }, label: "unassigned" },
    ],
    dates: [{ words: ["opened", "received", "came in", "submitted"], after: "created_after", before: "created_before", format: "datetime", default: true }],
  },
  {
    kind: "metric",
    widget: "helpdesk.open_tickets",
    now: true,
    title: "Open tickets",
    phrases: ["how many open tickets", "how many tickets are open", "open ticket count", "number of open tickets", "support backlog", "ticket backlog"],
    ownsPhrases: true,
  },
  {
    kind: "metric",
    widget: "helpdesk.sla_breaches",
    now: true,
    title: "SLA breaches",
    phrases: ["how many sla breaches", "sla breaches", "how many tickets breached", "breached tickets count"],
    ownsPhrases: true,
  },
];
