// The demo company's support inbox (scripts/seed.mjs calls it): ~45 tickets of the last two months from its
// contacts, most by e-mail, with their conversations — the request, agents' replies, the requester's answers,
// internal notes — first responses mostly within the SLA (urgent 1 h, high 4 h, medium 8 h, low 24 h), a few
// late, and today a few open ones still waiting (one of them past its due time). Pure: SQL strings only.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SLA_HOURS = { urgent: 1, high: 4, medium: 8, low: 24 };

const quote = (value) =>
  value === null || value === undefined
    ? "NULL"
    : typeof value === "number"
      ? String(value)
      : typeof value === "boolean"
        ? String(Number(value))
        : `'${String(value).replaceAll("'", "''")}'`;
const insert = (table, columns, rows) =>
  rows.length === 0
    ? []
    : [`INSERT INTO ${table} (${columns.join(", ")}) VALUES\n${rows.map((row) => `(${columns.map((c) => quote(row[c])).join(", ")})`).join(",\n")};`];

/** What customers write about, with the agent's answer and how urgent it usually is. */
const TOPICS = [
  [
    "Can't download my invoice PDF",
    "The link in the e-mail says not found.",
    "Sorry about that — here is a fresh link; the old one expired after the invoice was updated.",
    "high",
  ],
  [
    "Espresso machine leaking",
    "Water pools under the machine after every shot.",
    "That sounds like the group gasket. We are sending a replacement and a video on fitting it.",
    "urgent",
  ],
  ["Change of billing address", "We moved offices; please update our billing address.", "Done — your next invoice will show the new address.", "low"],
  [
    "Order arrived damaged",
    "The grinder's hopper was cracked in the box.",
    "Very sorry. A replacement ships today; no need to return the damaged one.",
    "high",
  ],
  ["Question about the warranty", "Does the two-year warranty cover the steam wand?", "Yes, the steam wand is covered for two years, parts and labour.", "low"],
  [
    "Payment failed twice",
    "My card was declined at checkout but the bank says it is fine.",
    "Our processor flagged a postcode mismatch; please try again — we have cleared it.",
    "urgent",
  ],
  [
    "Training session dates",
    "Can we book the barista training for our new staff?",
    "Of course — the next sessions are on the 3rd and the 10th; which suits you?",
    "medium",
  ],
  [
    "Wrong item delivered",
    "We ordered the 1 kg beans and got 250 g bags.",
    "Apologies — the right bags are on their way and the small ones are yours to keep.",
    "medium",
  ],
  ["Grinder too loud", "Is there a way to make the grinder quieter?", "Check the burr alignment (guide attached); if it persists we will service it.", "low"],
  ["Quote for ten machines", "We are opening three cafés; could you quote ten machines?", "Happy to — a quote is on its way with volume pricing.", "medium"],
  ["Login to the portal not working", "The customer portal says my password is wrong.", "We have sent a reset link; it is valid for an hour.", "high"],
  ["Descaling schedule", "How often should we descale with our water hardness?", "With hard water, monthly; we have attached the descaling guide.", "low"],
];
const NOTES = [
  "Checked the order history: second time this month.",
  "Escalated to the warehouse lead.",
  "Customer is on the pro maintenance plan.",
  "Refund approved by finance.",
];
const FOLLOW_UPS = ["Thanks, that worked!", "Great, thank you for the quick answer.", "Still happening, unfortunately.", "Perfect — much appreciated."];

/**
 * @param {{ workspaceId: number, firstTicketId: number, firstReplyId: number, contacts: {id: number, name: string, email: string}[],
 *           agentIds: number[], supportDomain: string, now: number, rand: () => number }} options
 * @returns {string[]}
 */
export function demoHelpdeskSql({ workspaceId, firstTicketId, firstReplyId, contacts, agentIds, supportDomain, now, rand }) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const tickets = [];
  const replies = [];
  let replyId = firstReplyId;
  const COUNT = 45;
  for (let n = 0; n < COUNT; n++) {
    const id = firstTicketId + n;
    const contact = pick(contacts);
    const [subject, body, answer, usual] = pick(TOPICS);
    const priority = rand() < 0.7 ? usual : pick(["low", "medium", "high", "urgent"]);
    // Oldest first; the last few arrived today.
    const createdAt = n >= COUNT - 4 ? now - Math.floor((COUNT - n) * 0.6 * HOUR) : now - Math.floor((60 - (n * 58) / COUNT) * DAY + rand() * 6 * HOUR);
    const due = createdAt + SLA_HOURS[priority] * HOUR;
    const waiting = n >= COUNT - 4; // today's: open, unanswered (the oldest of them is past due if urgent)
    const late = !waiting && rand() < 0.12;
    const respondedAt = waiting
      ? null
      : late
        ? due + Math.floor((0.5 + rand()) * HOUR)
        : createdAt + Math.floor(rand() * SLA_HOURS[priority] * 0.8 * HOUR) + 5 * 60_000;
    const age = now - createdAt;
    const status = waiting
      ? "open"
      : age > 14 * DAY
        ? pick(["closed", "closed", "resolved"])
        : age > 3 * DAY
          ? pick(["resolved", "resolved", "pending"])
          : pick(["open", "pending"]);
    const fromEmail = rand() < 0.85;
    const messageId = fromEmail ? `<demo-${id}.${Math.floor(rand() * 1e9)}@${contact.email.split("@")[1]}>` : null;
    tickets.push({
      id,
      workspace_id: workspaceId,
      number: `TKT-${String(n + 1).padStart(6, "0")}`,
      subject,
      body,
      contact_id: contact.id,
      email: contact.email,
      priority,
      status,
      assignee_user_id: waiting && n % 2 === 0 ? null : pick(agentIds),
      source: fromEmail ? "email" : "api",
      first_response_due_at: waiting && n === COUNT - 4 && priority !== "urgent" ? now - HOUR : due,
      first_responded_at: respondedAt,
      resolved_at: status === "resolved" || status === "closed" ? (respondedAt ?? createdAt) + Math.floor((1 + rand() * 30) * HOUR) : null,
      message_id: messageId,
      created_at: createdAt,
      updated_at: respondedAt ?? createdAt,
    });
    if (waiting) continue;
    const reply = (at, fields) => replies.push({ id: replyId++, workspace_id: workspaceId, ticket_id: id, created_at: at, updated_at: at, ...fields });
    if (rand() < 0.3)
      reply(respondedAt - 2 * 60_000, {
        body: pick(NOTES),
        internal: true,
        author: "agent",
        author_user_id: pick(agentIds),
        from_email: null,
        message_id: null,
      });
    reply(respondedAt, {
      body: answer,
      internal: false,
      author: "agent",
      author_user_id: pick(agentIds),
      from_email: null,
      message_id: `<demo-reply-${replyId}@${supportDomain}>`,
    });
    if (status !== "pending" && rand() < 0.6)
      reply(respondedAt + Math.floor((1 + rand() * 20) * HOUR), {
        body: pick(FOLLOW_UPS),
        internal: false,
        author: "requester",
        author_user_id: null,
        from_email: contact.email,
        message_id: `<demo-answer-${replyId}@${contact.email.split("@")[1]}>`,
      });
  }
  // The demo's "now" is fixed when it is seeded; the 4 waiting tickets' due times are relative to it.
  const columns = Object.keys(tickets[0]);
  return [
    ...insert("tickets", columns, tickets),
    ...insert(
      "ticket_replies",
      ["id", "workspace_id", "ticket_id", "body", "internal", "author", "author_user_id", "from_email", "message_id", "created_at", "updated_at"],
      replies,
    ),
    `INSERT INTO ticket_counters (workspace_id, last) VALUES (${workspaceId}, ${COUNT});`,
  ];
}
