import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { platform } from "../src/index";
import { skills } from "../src/packages/assistant/understand";
import { planWithModel } from "../src/packages/assistant/workers-ai";
import { clock } from "../src/platform/time";
import { call, create, expectError, fetchWith, recordedEvents, setPlan, signup, userWithRole } from "./helpers";

const realNow = clock.now;
let outbound: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  // The assistant never calls out: any fetch from the worker during these tests fails them.
  outbound = vi.spyOn(globalThis, "fetch");
});
afterEach(() => {
  expect(outbound).not.toHaveBeenCalled();
  vi.restoreAllMocks();
  clock.now = realNow;
});

type Reply = {
  text: string;
  intent: string;
  data?: any;
  records?: { resource: string; id: number; label: string }[];
  action?: { id: string; kind: string; summary: string; expires_at: string };
};

async function ask(token: string, message: string, conversationId?: string) {
  const res = await call("POST", "/assistant/messages", { token, body: { message, ...(conversationId ? { conversation_id: conversationId } : {}) } });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { conversation_id: string; reply: Reply };
}

/** The call a proposed action would make. */
async function requestOf(token: string, reply: Reply) {
  expect(reply.action, reply.text).toBeDefined();
  const res = await call("GET", `/assistant/actions/${reply.action!.id}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json.data.request as { method: string; path: string; body?: Record<string, unknown> };
}

/** Each message proposes exactly that call: method, path, and the body fields given. */
async function expectRequests(token: string, cases: readonly (readonly [string, string, string, Record<string, unknown>?])[]) {
  for (const [message, method, path, body] of cases) {
    const { reply } = await ask(token, message);
    expect(reply.action, `${message} → ${reply.text}`).toBeDefined();
    const request = await requestOf(token, reply);
    expect({ method: request.method, path: request.path }, message).toEqual({ method, path });
    expect(request.body ?? {}, message).toMatchObject(body ?? {});
  }
}

const today = () => new Date().toISOString().slice(0, 10);

/** A small company the answers can be checked against. */
async function company() {
  const ws = await signup("Assist Co");
  await setPlan(ws, "enterprise");
  const ada = await create(ws, "contacts", { name: "Ada Lovelace", email: "ada@example.com", phone: "+442071234567", company: "Analytical Engines" });
  const alan = await create(ws, "contacts", { name: "Alan Turing", email: "alan@example.com" });
  const acme = await create(ws, "customers", { name: "Acme", email: "ap@acme.example", currency: "USD" });
  const invoice = await create(ws, "invoices", {
    customer_id: acme.id,
    currency: "USD",
    issue_date: "2026-01-05",
    due_date: "2026-02-05",
    items: [{ description: "Work", quantity: 1, unit_amount: 153450 }],
  });
  expect((await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token })).status).toBe(200);
  await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoice.id, amount: 3450 } });
  const website = await create(ws, "projects", { name: "Website" });
  const ana = await create(ws, "employees", {
    name: "Ana Garcia",
    email: "ana@assist.co",
    department: "Engineering",
    designation: "Engineer",
    date_of_joining: "2026-01-10",
  });
  const linus = await create(ws, "employees", { name: "Linus Torvalds", email: "linus@assist.co", department: "Engineering", date_of_joining: "2025-03-01" });
  const grace = await create(ws, "employees", { name: "Grace Hopper", email: "grace@assist.co", department: "Sales", date_of_joining: "2024-05-01" });
  const task = await create(ws, "tasks", { title: "Write copy", project_id: website.id, assignee_id: ana.id, due_date: today() });
  const shipped = await create(ws, "tasks", { title: "Ship it", project_id: website.id, due_date: "2099-01-01", status: "done" });
  const bigCo = await create(ws, "deals", { name: "Big Co", value: 2_500_000, currency: "USD", stage: "negotiation" });
  const smallFry = await create(ws, "deals", { name: "Small Fry", value: 50_000, currency: "USD", stage: "negotiation" });
  const east = await create(ws, "deals", { name: "Acme East", value: 100_000, currency: "USD" });
  const west = await create(ws, "deals", { name: "Acme West", value: 120_000, currency: "USD" });
  const sophie = await create(ws, "leads", { name: "Sophie Brown", email: "sophie@lead.example", source: "website" });
  await create(ws, "leads", { name: "Bob Stone", email: "bob@lead.example", source: "referral" });
  const opening = await create(ws, "job-openings", { title: "Backend Engineer", department: "Engineering" });
  const candidate = await create(ws, "candidates", { job_opening_id: opening.id, name: "Joan Clarke", email: "joan@mail.example" });
  return { ws, ada, alan, acme, invoice, website, ana, linus, grace, task, shipped, bigCo, smallFry, east, west, sophie, opening, candidate };
}

describe("questions are read as queries over the resources' definitions", () => {
  it("keeps every filter: negation, comparisons on money and dates, states and references combined", async () => {
    const { ws, task, shipped, bigCo, smallFry, invoice, alan } = await company();
    // "not paid" is the negation of paid (drafts included), not "unpaid".
    const draft = await create(ws, "invoices", {
      customer_id: (await create(ws, "customers", { name: "Drafty", email: "d@drafty.example" })).id,
      items: [{ description: "x", quantity: 1, unit_amount: 100 }],
    });
    expect((await ask(ws.token, "invoices that aren't paid")).reply.data.answer.ids.sort()).toEqual([invoice.id, draft.id].sort());
    expect((await ask(ws.token, "unpaid invoices")).reply.data.answer.ids).toEqual([invoice.id]);
    // "not … yet" is a state before it in the field's order; "nobody has …" is a question, not a change.
    const notYet = await ask(ws.token, "tasks nobody has done yet");
    expect(notYet.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", op: "in", value: ["todo", "in_progress", "review"] })]);
    expect(notYet.reply.data.answer.ids).toEqual([task.id]);
    const notDone = await ask(ws.token, "tasks that arent done");
    expect(notDone.reply.data.answer).toMatchObject({ kind: "records", resource: "tasks", ids: [task.id] });
    expect(notDone.reply.data.answer.ids).not.toContain(shipped.id);
    const big = await ask(ws.token, "open deals in negotiation over 10k");
    expect(big.reply.data.answer.ids).toEqual([bigCo.id]);
    const small = await ask(ws.token, "deals under $1,000");
    expect(small.reply.data.answer.ids).toEqual([smallFry.id]);
    // "overdue by more than 60 days" is a date comparison, not an amount of 60.
    const late = await ask(ws.token, "invoices overdue by more than 60 days");
    expect(late.reply.data.answer.ids).toEqual([invoice.id]);
    expect(late.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "due_date", op: "lt" })]));
    const mine = await ask(ws.token, "tasks due this week assigned to Ana");
    expect(mine.reply.data.answer.ids).toEqual([task.id]);
    const leads = await ask(ws.token, "leads from the website");
    expect(leads.reply.records!.map((r) => r.label)).toEqual(["Sophie Brown"]);
    // Days in either order; periods between two months, or a half year; a negation across a list.
    for (const message of ["invoices more than 60 days overdue", "invoices issued between january and march", "invoices issued in h1"]) {
      expect((await ask(ws.token, message)).reply.data.answer.ids, message).toEqual([invoice.id]);
    }
    expect((await ask(ws.token, "invoices issued between march and may")).reply.data.answer.ids).toEqual([]);
    await create(ws, "contacts", { name: "Hal Hooli", email: "hal@hooli.example", company: "Hooli" });
    const outside = await ask(ws.token, "contacts not at analytical engines or hooli");
    expect(outside.reply.data.answer.ids).toEqual([alan.id]);
    // "product marketer candidates": the first noun is a name's word; "applied for" is applying, not a stage.
    const marketer = await create(ws, "job-openings", { title: "Product Marketer", department: "Marketing" });
    const kim = await create(ws, "candidates", { job_opening_id: marketer.id, name: "Kim Lee", email: "kim@mail.example" });
    await create(ws, "candidates", { job_opening_id: marketer.id, name: "Rejected Ray", email: "ray@mail.example", stage: "rejected" });
    expect((await ask(ws.token, "product marketer candidates that aren't rejected")).reply.data.answer.ids).toEqual([kim.id]);
    expect((await ask(ws.token, "how many applied for product marketer")).reply.data.answer).toMatchObject({ fn: "count", value: 2 });
  });

  it("compares what a party owes on its own field, keeps a follow-up's date field, and tells shared state words apart", async () => {
    const { ws, acme, ana, bigCo } = await company();
    const zero = await create(ws, "customers", { name: "Zero Owing", email: "z@zero.example", currency: "USD" });
    // "who owes us more than 1k": the customers whose balance is over it, not every customer's invoices added up.
    const owing = await ask(ws.token, "who owes us more than 1k");
    expect(owing.reply.data.answer).toMatchObject({ kind: "records", resource: "customers", ids: [acme.id] });
    expect(owing.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "balance", op: "gt", value: 100_000 })]);
    expect((await ask(ws.token, "usd customers who owe nothing")).reply.data.answer.ids).toEqual([zero.id]);
    // "and last year?" after deals won this year: still dated by when they closed.
    await call("PATCH", `/deals/${bigCo.id}`, { token: ws.token, body: { stage: "won" } });
    const won = await ask(ws.token, "avg size of deals we won this year");
    expect(won.reply.data.query.period.field).toBe("closed_at");
    const lastYear = await ask(ws.token, "and last year?", won.conversation_id);
    expect(lastYear.reply.data.query.period).toMatchObject({ field: "closed_at", from: `${new Date().getUTCFullYear() - 1}-01-01` });
    // "hasn't been paid" is an unpaid invoice, not an amount of payments.
    const unpaid = await ask(ws.token, "anything falling due this year that hasnt been paid?");
    expect(unpaid.reply.data.answer.resource).toBe("invoices");
    // "in progress" is an open deal's synonym but a task's own state: "what's Ana got in progress" is tasks.
    const busy = await ask(ws.token, "whats ana garcia got in progress");
    expect(busy.reply.data.query).toMatchObject({
      resource: "tasks",
      conditions: expect.arrayContaining([expect.objectContaining({ field: "assignee_id", value: ana.id })]),
    });
    // "with acme" in a new deal: the customer named Acme, not the contacts who work there.
    await create(ws, "contacts", { name: "Brian Acmeson", email: "b@acme.example", company: "Acme" });
    await create(ws, "contacts", { name: "Grace Acmeton", email: "g@acme.example", company: "Acme" });
    const deal = await ask(ws.token, "new deal North expansion for $40k with acme");
    expect((await requestOf(ws.token, deal.reply)).body).toMatchObject({ name: "North expansion", value: 4_000_000, customer_id: acme.id });
  });

  it("reads slips and everyday words: swapped letters, a misspelt month or value, 'people we know', 'across everyone'", async () => {
    const { ws, ada, alan, task, ana, sophie } = await company();
    // Two letters swapped in a short domain word; a misspelt month is still the month; a value a slip away.
    expect((await ask(ws.token, "taks due this week")).reply.data.answer).toMatchObject({ resource: "tasks", ids: [task.id] });
    const month = new Date().toLocaleString("en-US", { month: "long", timeZone: "UTC" }).toLowerCase();
    const slip = `${month.slice(0, 2)}${month[3]}${month[2]}${month.slice(4)}`;
    expect((await ask(ws.token, `contacts we added in ${slip}`)).reply.data.query.period.from).toMatch(/-01$/);
    expect((await ask(ws.token, "leads from webiste")).reply.data.answer.ids).toEqual([sophie.id]);
    // "people we know" and an "address book" are contacts; "works where" asks a contact's company.
    expect((await ask(ws.token, "people we know at analytical engines")).reply.data.answer).toMatchObject({ resource: "contacts", ids: [ada.id] });
    expect((await ask(ws.token, "ada lovelace works where again?")).reply.data.answer).toMatchObject({ ids: [ada.id], field: "company" });
    expect((await ask(ws.token, "who is in our address book")).reply.data.answer.ids.sort()).toEqual([ada.id, alan.id].sort());
    // Hours compared after the number; "across everyone" is one total, not a row per person.
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 240 });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 30 });
    expect((await ask(ws.token, "time entires of 4 hours or more")).reply.data.answer.total).toBe(1);
    expect((await ask(ws.token, "entries of at most 30 minutes")).reply.data.answer.total).toBe(1);
    const across = (await ask(ws.token, "total time logged across everyone this week")).reply;
    expect(across.data.answer, JSON.stringify(across)).toMatchObject({ kind: "value", value: 270 });
    // "time logged on the Write copy task": the task is what the time is on, not what is asked about.
    const onTask = (await ask(ws.token, "how much time was logged on the Write copy task")).reply.data.answer;
    expect(onTask).toMatchObject({ resource: "time-entries", fn: "sum", value: 270 });
    // "put 45 min on Write copy for Ana": time put on a task is a time entry; a task named in two projects is
    // narrowed by the one said with it.
    const put = await requestOf(ws.token, (await ask(ws.token, "put 45 min on Write copy for Ana Garcia yesterday")).reply);
    expect(put).toMatchObject({ method: "POST", path: "/time-entries", body: { minutes: 45, task_id: task.id, employee_id: ana.id } });
    const other = await create(ws, "projects", { name: "Intranet" });
    const twin = await create(ws, "tasks", { title: "Write copy", project_id: other.id });
    const narrowed = await requestOf(ws.token, (await ask(ws.token, "2 hrs for Ana Garcia yesterday, Write copy on the intranet")).reply);
    expect(narrowed.body, JSON.stringify(narrowed)).toMatchObject({ minutes: 120, task_id: twin.id });
    // A day worked is behind us: "on monday" in a time entry is the last one.
    const logged = await requestOf(ws.token, (await ask(ws.token, "log 30 mins for ana garcia on write copy (website) on monday")).reply);
    expect(new Date(`${logged.body!.date}T00:00:00Z`).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("reads who is meant: applicants by their verb, a record by its noun, a department after 'in', people for 'who'", async () => {
    const { ws, opening, candidate, grace, ana, linus } = await company();
    const applied = await ask(ws.token, "how many people applied for the backend engineer job");
    expect(applied.reply.data.answer).toMatchObject({ resource: "candidates", fn: "count", value: 1 });
    expect(applied.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "job_opening_id", value: opening.id })]);
    expect((await ask(ws.token, "people who applied this year")).reply.data.answer).toMatchObject({ resource: "candidates", ids: [candidate.id] });
    // "sales" is also revenue's word: after "in", it is the department its records use (with another, either).
    expect((await ask(ws.token, "people in sales")).reply.data.answer).toMatchObject({ resource: "employees", ids: [grace.id] });
    const either = (await ask(ws.token, "employees in engineering or sales")).reply.data.answer.ids;
    expect(either.sort()).toEqual([ana.id, linus.id, grace.id].sort());
    // "who's in engineering": people first, though an opening is in Engineering too (and is near in spelling).
    expect((await ask(ws.token, "who's in engineering")).reply.data.answer.ids.sort()).toEqual([ana.id, linus.id].sort());
    // "close the backend engineer opening": the noun after the name's words is what the command is about.
    const close = await requestOf(ws.token, (await ask(ws.token, "close the backend engineer opening, we filled it")).reply);
    expect(close).toMatchObject({ method: "PATCH", path: `/job-openings/${opening.id}`, body: { status: "closed" } });
    const rename = await requestOf(ws.token, (await ask(ws.token, "rename the Backend Engineer job to Platform Engineer")).reply);
    expect(rename).toMatchObject({ method: "PATCH", path: `/job-openings/${opening.id}`, body: { title: "Platform Engineer" } });
  });

  it("reads dates as people mean them: a weekday gone by, 'since' after a name, 'by card' is no deadline; 'how much is that'", async () => {
    const { ws } = await company();
    // A weekday in a question about the past is the last one (not the same date a year ago).
    const friday = (await ask(ws.token, "did ana garcia log anything on friday?")).reply.data.query.period;
    expect(Date.parse(friday.from)).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - Date.parse(friday.from)).toBeLessThan(8 * 86_400_000);
    // "from Acme since march": the name's "from" is no start; "since march" runs to today.
    const since = (await ask(ws.token, "payments from acme since january")).reply.data.query;
    expect(since.period).toMatchObject({ from: `${new Date().getUTCFullYear()}-01-01`, to: today() });
    // "paid by card last week": "by" is the method here, the period is last week.
    const byCard = (await ask(ws.token, "what was paid by card last week")).reply.data.query;
    expect(byCard.period?.field).toBe("paid_at");
    expect(byCard.conditions).toEqual([expect.objectContaining({ field: "method", value: "card" })]);
    // "applied before october": a comparison on the date the verb names; a preposition ending the question is grammar.
    const before = (await ask(ws.token, "candidates who applied before october")).reply.data.query;
    expect(before.conditions).toEqual([expect.objectContaining({ field: "created_at", op: "lt" })]);
    expect((await ask(ws.token, "what department is the backend engineer job under")).reply.data.answer).toMatchObject({ field: "department" });
    // The amount asked of whoever did it is a minimum or maximum; names "called" X, domains of e-mail addresses.
    const least = (await ask(ws.token, "smallest amount anyone paid us this year")).reply.data.answer;
    expect(least).toMatchObject({ kind: "value", fn: "min", field: "amount", value: { USD: 3_450 } });
    expect((await ask(ws.token, "least we've ever billed on a single invoice")).reply.data.answer).toMatchObject({ fn: "min", field: "total" });
    await create(ws, "contacts", { name: "Ada King", email: "ada@king.example" });
    expect((await ask(ws.token, "contacts called ada")).reply.data.answer.total).toBe(2);
    expect((await ask(ws.token, "contacts with a king.example email")).reply.data.answer.total).toBe(1);
    expect((await ask(ws.token, "jobs we advertised this year")).reply.data.query.period.field).toBe("created_at");
    // "overdue invoices" → "how much is that": what is still due on them, not their totals.
    const overdue = await ask(ws.token, "overdue invoices");
    const much = await ask(ws.token, "how much is that", overdue.conversation_id);
    expect(much.reply.data.answer).toMatchObject({ fn: "sum", field: "amount_due", value: { USD: 150_000 } });
  });

  it("reads the values the workspace uses in its text fields: a kind of person, a branch, a lost reason, a lead's source", async () => {
    const { ws, ana, sophie } = await company();
    const staff = await create(ws, "employees", {
      name: "Joan Staff",
      email: "joan@assist.co",
      department: "Engineering",
      designation: "Staff Engineer",
      branch: "Berlin",
      date_of_joining: "2025-02-01",
    });
    const manager = await create(ws, "employees", {
      name: "Edsger Manager",
      email: "edsger@assist.co",
      department: "Engineering",
      designation: "Engineering Manager",
      branch: "Berlin",
      date_of_joining: "2025-02-01",
    });
    await call("PATCH", `/employees/${ana.id}`, { token: ws.token, body: { branch: "Remote" } });
    // "engineers": every designation whose words include engineer (not "Engineering Manager"), in any branch asked.
    const engineers = await ask(ws.token, "engineers in berlin");
    expect(engineers.reply.data.answer).toMatchObject({ resource: "employees", ids: [staff.id] });
    expect(engineers.reply.data.answer.ids).not.toContain(manager.id);
    // "staff engineers": a noun of employees ("staff") that starts a designation is that designation, not "engineers".
    expect((await ask(ws.token, "staff engineers")).reply.data.answer.ids).toEqual([staff.id]);
    // "the berlin office" is the branch; "ppl" are employees.
    expect((await ask(ws.token, "how many ppl work out of the berlin office")).reply.data.answer).toMatchObject({ fn: "count", value: 2 });
    // "sales managers in SF": a value that starts with another resource's word ("sales"), a branch by its initials.
    const seller = await create(ws, "employees", {
      name: "Sal Seller",
      email: "sal@assist.co",
      department: "Sales",
      designation: "Sales Manager",
      branch: "San Francisco",
      date_of_joining: "2025-02-01",
    });
    expect((await ask(ws.token, "sales managers in SF")).reply.data.answer).toMatchObject({ resource: "employees", ids: [seller.id] });
    // A follow-up's value replaces the last one on that field.
    const remote = await ask(ws.token, "and remote?", engineers.conversation_id);
    expect(remote.reply.data.answer.ids).toEqual([ana.id]);
    const lost = await create(ws, "deals", { name: "Gone", value: 10_000, currency: "USD", stage: "lost", lost_reason: "competitor" });
    await create(ws, "deals", { name: "Too dear", value: 10_000, currency: "USD", stage: "lost", lost_reason: "price" });
    const competitors = await ask(ws.token, "deals we lost to competitors");
    expect(competitors.reply.data.answer.ids).toEqual([lost.id]);
    // "met him at an event": a value of a lead's source the workspace uses, not a company called Event.
    await call("PATCH", `/leads/${sophie.id}`, { token: ws.token, body: { source: "event" } });
    const lead = await ask(ws.token, "add lead - Marco Rossi, marco@rossi.example, met him at an event");
    expect((await requestOf(ws.token, lead.reply)).body).toEqual({ name: "Marco Rossi", email: "marco@rossi.example", source: "event" });
  });

  it("answers 'when' with the date the verb names, 'X's plate' with open tasks, 'other than' as a negation", async () => {
    const { ws, invoice, task, shipped, bigCo, ana, acme } = await company();
    await call("PATCH", `/deals/${bigCo.id}`, { token: ws.token, body: { expected_close_date: "2026-12-15" } });
    const due = await ask(ws.token, `when is ${invoice.number} due`);
    expect(due.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "due_date" });
    // A state word that starts a record's name ("Review launch") is the name, not the state.
    const mobile = await create(ws, "projects", { name: "Mobile" });
    const review = await create(ws, "tasks", { title: "Review launch", project_id: mobile.id, due_date: "2026-12-01" });
    await create(ws, "tasks", { title: "Review launch", project_id: (await create(ws, "projects", { name: "Intranet" })).id });
    const reviewDue = await ask(ws.token, "when is review launch on the mobile project due");
    expect(reviewDue.reply.data.answer).toMatchObject({ ids: [review.id], field: "due_date" });
    expect(reviewDue.reply.data.query.conditions).not.toEqual(expect.arrayContaining([expect.objectContaining({ field: "status" })]));
    // The record named by its number decides ("left" is also an employee's state); a field's words after an
    // amount name it, with the states it means something in; a resource noun counted is no command.
    const left = await ask(ws.token, `how much is left on ${invoice.number}`);
    expect(left.reply.data.answer).toMatchObject({ resource: "invoices", ids: [invoice.id], field: "amount_due" });
    const stillDue = await ask(ws.token, "invoices with more than 1k still due");
    expect(stillDue.reply.data.query.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "amount_due", op: "gt", value: 100_000 }), expect.objectContaining({ field: "status" })]),
    );
    expect(stillDue.reply.data.answer.ids).toEqual([invoice.id]);
    // A ranking by what the state is about; "total overdue" sums what is due.
    const second = await create(ws, "invoices", {
      customer_id: acme.id,
      currency: "USD",
      issue_date: "2026-01-06",
      due_date: "2026-02-06",
      items: [{ description: "More work", quantity: 1, unit_amount: 200_000 }],
    });
    expect((await call("POST", `/invoices/${second.id}/send`, { token: ws.token })).status).toBe(200);
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: second.id, amount: 190_000 } });
    const smallest = await ask(ws.token, "smallest outstanding invoice?");
    expect(smallest.reply.data.answer.ids).toEqual([second.id]);
    expect((await ask(ws.token, "total overdue in usd")).reply.data.answer).toMatchObject({ fn: "sum", field: "amount_due", value: { USD: 160_000 } });
    const byStatus = await ask(ws.token, "invoice count by status");
    expect(byStatus.reply.data.answer).toMatchObject({ kind: "groups", group_by: "status", groups: [{ key: "partially_paid", value: 2 }] });
    // "due" is an invoice's word and a task's: the names decide.
    const taskDue = await ask(ws.token, "when is write copy in website due");
    expect(taskDue.reply.data.answer).toMatchObject({ resource: "tasks", ids: [task.id], field: "due_date" });
    const close = await ask(ws.token, "when's the big co deal expected to close?");
    expect(close.reply.data.answer).toMatchObject({ ids: [bigCo.id], field: "expected_close_date" });
    await call("PATCH", `/tasks/${shipped.id}`, { token: ws.token, body: { assignee_id: ana.id } });
    const plate = await ask(ws.token, "whats on ana garcia's plate");
    expect(plate.reply.data.answer).toMatchObject({ resource: "tasks", ids: [task.id] });
    // "most recent" is the newest (not the most of something); a date verb standing for the record means one.
    for (const message of ["most recent hire?", "who joined most recently"]) {
      const newest = await ask(ws.token, message);
      expect(newest.reply.data.answer, message).toMatchObject({ resource: "employees", ids: [ana.id] });
    }
    const lead = await create(ws, "leads", { name: "Tom Baker", email: "tom@lead.example", company: "Initech", status: "converted" });
    const open = await create(ws, "leads", { name: "Ann Baker", email: "ann@lead.example", company: "Initech" });
    const initech = await ask(ws.token, "initech leads other than the converted ones");
    expect(initech.reply.data.answer.ids).toEqual([open.id]);
    expect(initech.reply.data.answer.ids).not.toContain(lead.id);
  });

  it("dates a period by the verb's own date field (won → closed_at, joined → date_of_joining)", async () => {
    const { ws, bigCo, linus } = await company();
    expect((await call("PATCH", `/deals/${bigCo.id}`, { token: ws.token, body: { stage: "won" } })).status).toBe(200);
    const won = await ask(ws.token, "deals we won this month");
    expect(won.reply.data.query.period.field).toBe("closed_at");
    expect(won.reply.data.answer.ids).toEqual([bigCo.id]);
    // The period is always said.
    expect(won.reply.text).toMatch(/closed in [A-Z][a-z]+ \d{4}/);
    // "the last 2 weeks" is a period, not a top 2.
    const recent = await ask(ws.token, "deals created in the last 2 weeks");
    expect(recent.reply.data.query.aggregate.limit).toBeNull();
    expect(recent.reply.data.answer.total).toBe(4);
    const joined = await ask(ws.token, "who joined in 2025");
    expect(joined.reply.data.query).toMatchObject({ resource: "employees", period: { field: "date_of_joining", from: "2025-01-01", to: "2025-12-31" } });
    expect(joined.reply.data.answer.ids).toEqual([linus.id]);
  });

  it("reads the verb's date and the thing counted: tasks closed, invoices sent out, seats we're hiring, why deals are lost", async () => {
    const { ws, acme, ada } = await company();
    const closed = await ask(ws.token, "how many tasks did we close this month");
    expect(closed.reply.data.query).toMatchObject({ resource: "tasks", period: { field: "completed_at" }, aggregate: { fn: "count" } });
    const sent = await ask(ws.token, "how many invoices did we send out in oct");
    expect(sent.reply.data.query).toMatchObject({ resource: "invoices", period: { field: "sent_at" }, aggregate: { fn: "count" } });
    const seats = await ask(ws.token, "total number of seats we're hiring for");
    expect(seats.reply.data.answer).toMatchObject({ resource: "job-openings", fn: "sum", field: "positions", value: 1 });
    const open = await ask(ws.token, "how many open positions do we have in total");
    expect(open.reply.data.answer).toMatchObject({ fn: "sum", field: "positions" });
    const who = await ask(ws.token, "who put hours on the website this week and how many");
    expect(who.reply.data.query.aggregate).toMatchObject({ fn: "sum", field: "minutes", groupBy: "employee_id" });
    const why = await ask(ws.token, "why are we losing deals");
    expect(why.reply.data.query).toMatchObject({ resource: "deals", aggregate: { fn: "count", groupBy: "lost_reason" } });
    expect(why.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "stage", value: "lost" })]);
    // "by amount due" ranks by that number; "due" alone would have grouped by the due date.
    const top = await ask(ws.token, "top 5 unpaid invoices by amount due");
    expect(top.reply.data.query.aggregate).toMatchObject({ fn: "list", field: "amount_due", order: "desc", limit: 5, groupBy: null });
    // "outside engineering and sales": both left out.
    const outside = await ask(ws.token, "employees outside engineering and sales");
    expect(outside.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "department", op: "not_in", value: ["Engineering", "Sales"] })]);
    expect(outside.reply.data.answer.total).toBe(0);
    // Politeness is no name, and "which company we have the most contacts at" is one winner.
    const busiest = await ask(ws.token, "any chance you can tell me which company we have the most contacts at");
    expect(busiest.reply.data.query.aggregate).toMatchObject({ fn: "count", groupBy: "company", order: "desc", limit: 1 });
    // Everyday words for fields and values: an address (said as one), "paid up", "us customers", "who do we know".
    await call("PUT", `/customers/${acme.id}`, { token: ws.token, body: { billing: { address_line1: "1 Main St", city: "Springfield", country: "US" } } });
    const address = await ask(ws.token, "billing address for acme?");
    expect(address.reply.text).toBe("The billing address of Acme is 1 Main St, Springfield, US.");
    const paidUp = await ask(ws.token, "which clients are all paid up");
    expect(paidUp.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "balance", value: 0 })]);
    expect((await ask(ws.token, "us customers")).reply.data.answer.ids).toEqual([acme.id]);
    expect((await ask(ws.token, "who do we know at analytical engines")).reply.data.answer).toMatchObject({ resource: "contacts", ids: [ada.id] });
  });

  it("aggregates: counts, sums per currency, averages, grouping and rankings", async () => {
    const { ws, acme, bigCo, west, task } = await company();
    expect((await ask(ws.token, "how many deals are in negotiation")).reply.data.answer).toMatchObject({ kind: "value", fn: "count", value: 2 });
    // Ranked rows that are values of a field ("which company … the most contacts", "top 3 companies by number of
    // contacts"), or days ("which day … had the most time logged").
    await create(ws, "contacts", { name: "Charles Babbage", email: "cb@engines.example", company: "Analytical Engines" });
    const most = await ask(ws.token, "which company do we have the most contacts at");
    expect(most.reply.data.answer).toMatchObject({ group_by: "company", groups: [{ key: "Analytical Engines", value: 2 }] });
    const companies = await ask(ws.token, "top 3 companies by number of contacts");
    expect(companies.reply.data.answer).toMatchObject({ group_by: "company", fn: "count" });
    const ana = (await call("GET", "/employees?q=Ana", { token: ws.token })).json.data[0];
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 120 });
    const day = await ask(ws.token, "which day this week had the most time logged");
    expect(day.reply.data.answer).toMatchObject({ group_by: "date", groups: [{ key: today(), value: 120 }] });
    const pipeline = await ask(ws.token, "total value of open deals");
    expect(pipeline.reply.data.answer).toMatchObject({ fn: "sum", field: "value", value: { USD: 2_770_000 } });
    // "who owes us money", "which customers haven't paid": what is due, by the customer it belongs to.
    for (const message of ["who owes us money", "which customers haven't paid"]) {
      const owed = await ask(ws.token, message);
      expect(owed.reply.data.answer, message).toMatchObject({
        kind: "groups",
        group_by: "customer_id",
        field: "amount_due",
        groups: [{ key: acme.id, value: { USD: 150_000 } }],
      });
    }
    const byStage = await ask(ws.token, "deals by stage");
    expect(byStage.reply.data.answer).toMatchObject({ kind: "groups", group_by: "stage" });
    expect(Object.fromEntries(byStage.reply.data.answer.groups.map((g: { key: string; value: number }) => [g.key, g.value]))).toEqual({
      negotiation: 2,
      initial_contact: 2,
    });
    const owed = await ask(ws.token, "which customers owe us the most");
    expect(owed.reply.data.answer).toMatchObject({
      kind: "groups",
      group_by: "customer_id",
      groups: [{ key: acme.id, label: "Acme", value: { USD: 150_000 } }],
    });
    const top = await ask(ws.token, "top 2 deals by value");
    expect(top.reply.data.answer.ids).toEqual([bigCo.id, west.id]);
    expect((await ask(ws.token, "biggest deal")).reply.data.answer.ids).toEqual([bigCo.id]);
    expect((await ask(ws.token, "average deal size")).reply.data.answer).toMatchObject({ fn: "avg", value: { USD: 692_500 } });
    // Over a period, "the biggest deal" is the amount itself (per currency, which one record cannot give).
    expect((await ask(ws.token, "biggest deal created this month")).reply.data.answer).toMatchObject({ kind: "value", fn: "max", value: { USD: 2_500_000 } });
    // A one-word state's plural is the state ("ignore negotiations"); "by" before a field groups, it does not look forward.
    expect((await ask(ws.token, "how many deals, ignore negotiations")).reply.data.answer).toMatchObject({ fn: "count", value: 2 });
    const grouped = await ask(ws.token, "total deal value by stage in q1");
    expect(grouped.reply.data.answer).toMatchObject({ kind: "groups", group_by: "stage" });
    expect(grouped.reply.data.query.period.from <= today(), "a bare quarter looks back").toBe(true);
    // Words no project has are a task's states: the question is about the tasks, across all projects.
    const todo = await ask(ws.token, "medium stuff still in todo, all projects");
    expect(todo.reply.data.answer).toMatchObject({ kind: "records", resource: "tasks", ids: [task.id] });
    // …or a field of it: "what priority is write copy in the website project".
    const priority = await ask(ws.token, "what priority is write copy in the website project");
    expect(priority.reply.data.answer).toMatchObject({ resource: "tasks", ids: [task.id], field: "priority" });
    // An amount field named with no noun is its resource's ("total tax": the invoices' tax).
    const tax = await ask(ws.token, "total tax this year");
    expect(tax.reply.data.answer).toMatchObject({ kind: "value", resource: "invoices", fn: "sum", field: "tax_total" });
    expect(tax.reply.text).toMatch(/^Total tax of invoices \(/);
    // "customers we bill in dollars": the business's own verb is no name to look for.
    expect((await ask(ws.token, "customers we bill in usd")).reply.data.answer.ids).toEqual([acme.id]);
  });

  it("answers metrics of one record: what a customer owes, hours a person logged, a field of a record", async () => {
    const { ws, ana, task, ada, invoice } = await company();
    const owes = await ask(ws.token, "does acme owe us anything");
    expect(owes.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", field: "amount_due", value: { USD: 150_000 } });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 150 });
    const hours = await ask(ws.token, "how many hours did ana garcia log this month");
    expect(hours.reply.data.answer).toMatchObject({ fn: "sum", field: "minutes", value: 150 });
    expect(hours.reply.text).toContain("2 h 30 min");
    // "by billable hours" says which rows (and the noun groups); "hours by billable" groups by it.
    const top = await ask(ws.token, "top 3 projects by billable hours this month");
    expect(top.reply.data.answer).toMatchObject({ kind: "groups", group_by: "project_id", groups: [{ key: task.project_id, value: 150 }] });
    const split = await ask(ws.token, "hours by billable");
    expect(split.reply.data).toMatchObject({ answer: { group_by: "billable" }, query: { conditions: [] } });
    const phone = await ask(ws.token, "phone of ada lovelce");
    expect(phone.reply).toMatchObject({
      intent: "lookup",
      records: [{ resource: "contacts", id: ada.id }],
      data: { answer: { ids: [ada.id], field: "phone" } },
    });
    expect(phone.reply.text).toBe("The phone of Ada Lovelace is +442071234567.");
    // "who did INV-… go to? which email": the address it was sent to ("go" is no name).
    const sentTo = await ask(ws.token, `who did ${invoice.number} go to? which email`);
    expect(sentTo.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "sent_to" });
    const status = await ask(ws.token, `status of ${invoice.number}`);
    expect(status.reply.text).toBe(`The status of ${invoice.number} (1,534.50 USD) is partially paid.`);
    // "who's the contact on …": one record grouped by a person is that field of it.
    const pilot = await create(ws, "deals", { name: "Lovelace pilot", value: 10_000, currency: "USD", contact_id: ada.id });
    const contact = await ask(ws.token, "who's the contact on the lovelace pilot deal");
    expect(contact.reply.data.answer).toMatchObject({ ids: [pilot.id], field: "contact_id" });
    expect(contact.reply.text).toContain("is Ada Lovelace");
    // "finish" dates a task by when it was completed.
    const finished = await ask(ws.token, "how many tasks did ana finish this month");
    expect(finished.reply.data.query.period).toMatchObject({ field: "completed_at" });
  });

  it("follows up on the last question, and asks back a name that fits several records ('the second one')", async () => {
    const { ws, invoice, east, west, opening, bigCo, ada } = await company();
    const first = await ask(ws.token, "overdue invoices");
    expect(first.reply.data.answer.ids).toEqual([invoice.id]);
    const count = await ask(ws.token, "how many is that", first.conversation_id);
    expect(count.reply.data.answer).toMatchObject({ fn: "count", value: 1 });
    const deals = await ask(ws.token, "deals in negotiation", first.conversation_id);
    const eur = await ask(ws.token, "only the EUR ones", deals.conversation_id);
    expect(eur.reply.data.query.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "stage", value: "negotiation" }), expect.objectContaining({ field: "currency", value: "EUR" })]),
    );
    expect(eur.reply.data.answer.total).toBe(0);

    const which = await ask(ws.token, "how much is the Acme deal worth");
    expect(which.reply.intent).toBe("clarify");
    expect(which.reply.records!.map((r) => r.label)).toEqual(["Acme East (1,000.00 USD)", "Acme West (1,200.00 USD)"]);
    const second = await ask(ws.token, "the second one", which.conversation_id);
    expect(second.reply.data.answer).toMatchObject({ ids: [west.id], field: "value" });
    expect(second.reply.text).toBe("The value of Acme West (1,200.00 USD) is 1,200.00 USD.");

    // A field asked in the plural after a list groups the records by it.
    const stages = await ask(ws.token, "what were the stages", deals.conversation_id);
    expect(stages.reply.data.answer).toMatchObject({ kind: "groups", group_by: "stage", fn: "count" });
    // "how many candidates for each?" after a list of openings: grouped by the opening they applied for.
    const openings = await ask(ws.token, "open job openings");
    const each = await ask(ws.token, "how many candidates for each?", openings.conversation_id);
    expect(each.reply.data.answer).toMatchObject({ kind: "groups", fn: "count", group_by: "job_opening_id", groups: [{ key: opening.id, value: 1 }] });

    // No deal refers to the customer Acme, but two are named after it: those; "leave out …" narrows them.
    const named = await ask(ws.token, "deals for acme");
    expect(named.reply.data.answer.ids.toSorted()).toEqual([east.id, west.id].toSorted());
    const narrowed = await ask(ws.token, "leave out the lost ones", named.conversation_id);
    expect(narrowed.reply.data.query.conditions).toEqual([
      expect.objectContaining({ field: "name", op: "contains", value: "Acme" }),
      expect.objectContaining({ field: "stage", op: "ne", value: "lost" }),
    ]);
    expect(narrowed.reply.data.answer.total).toBe(2);

    // A command about "that" is about the record just answered.
    const left = await ask(ws.token, `how much is left on ${invoice.number}`);
    const paid = await ask(ws.token, "they just paid $12 of that by card", left.conversation_id);
    expect((await requestOf(ws.token, paid.reply)).body).toEqual({ invoice_id: invoice.id, amount: 1200, method: "card" });

    // A follow-up reorders, ranks, narrows or lists what was just answered.
    const byStage = await ask(ws.token, "deals by stage");
    const most = await ask(ws.token, "which one had the most", byStage.conversation_id);
    expect(most.reply.data.query.aggregate).toMatchObject({ groupBy: "stage", order: "desc", limit: 1 });
    const negotiation = await ask(ws.token, "open deals");
    const sorted = await ask(ws.token, "sort by value lowest first", negotiation.conversation_id);
    expect(sorted.reply.data.query.aggregate).toMatchObject({ fn: "list", field: "value", order: "asc" });
    expect(sorted.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "status", value: "open" })]));
    const owed = await ask(ws.token, "how much does acme owe us");
    const behind = await ask(ws.token, "can you show me the invoices behind that", owed.conversation_id);
    expect(behind.reply.data.answer).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    const reminder = await ask(ws.token, "send them a reminder", owed.conversation_id);
    expect(await requestOf(ws.token, reminder.reply)).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/remind` });
    // "the second one" after a list is that record; "the contact on …" a field of the record the noun names.
    const biggest = await ask(ws.token, "top 3 deals by value");
    const secondDeal = await ask(ws.token, "what stage is the second one in", biggest.conversation_id);
    expect(secondDeal.reply.data.answer).toMatchObject({ ids: [biggest.reply.data.answer.ids[1]], field: "stage" });
    const again = await ask(ws.token, "top 3 deals by value");
    const done = await ask(ws.token, "mark the first one won", again.conversation_id);
    expect(await requestOf(ws.token, done.reply)).toMatchObject({ path: `/deals/${biggest.reply.data.answer.ids[0]}`, body: { stage: "won" } });
    await call("PUT", `/deals/${bigCo.id}`, { token: ws.token, body: { contact_id: ada.id } });
    const contact = await ask(ws.token, "who's the contact on the big co deal");
    expect(contact.reply.data.answer).toMatchObject({ resource: "deals", ids: [bigCo.id], field: "contact_id" });
    // A follow-up naming a record the last answer's records refer to narrows the same question to it.
    const byStageAgain = await ask(ws.token, "how many candidates are in each stage");
    const forJob = await ask(ws.token, "just for the backend engineer job", byStageAgain.conversation_id);
    expect(forJob.reply.data.query).toMatchObject({
      resource: "candidates",
      aggregate: { fn: "count", groupBy: "stage" },
      conditions: [expect.objectContaining({ field: "job_opening_id", value: opening.id })],
    });
    const website = await ask(ws.token, "projects");
    const withCustomer = await ask(ws.token, "which of them have a customer", website.conversation_id);
    expect(withCustomer.reply.data.query).toMatchObject({ resource: "projects", conditions: [{ field: "customer_id", op: "ne", value: null }] });
    expect(withCustomer.reply.data.answer.total).toBe(0);
  });

  it("refuses what is outside the workspace's data, and never reads another workspace's", async () => {
    const { ws } = await company();
    for (const message of [
      "whats the weather in berlin tomorrow",
      "delete everything",
      "write me a poem about invoices",
      "how much revenue did apple make last quarter",
      // What no API here does, and what this workspace does not keep or must not select people by.
      "call ada lovelace for me",
      "wire €2,000 to Acme's bank account",
      "book a meeting with alan turing thursday 3pm",
      "post the backend engineer job on linkedin for me",
      "what's the euro to dollar rate today",
      "send all the rejected candidates a nice email saying no thanks",
      "which candidates are over 50? reject them",
      "what's Ana Garcia's salary",
    ]) {
      const reply = (await ask(ws.token, message)).reply;
      expect(reply.intent, message).toBe("unknown");
      expect(reply.action, message).toBeUndefined();
      expect(reply.data?.answer, message).toBeUndefined();
    }
    // ("phone of …" is a question, not a call.)
    expect((await ask(ws.token, "phone of ada lovelace")).reply.data.answer).toMatchObject({ field: "phone" });
    const other = await signup("Zeta Co");
    await create(other, "customers", { name: "Zeta Corp" });
    // Zeta Corp is the other workspace's: here it is nobody, whatever the rest of the message names.
    const mixed = await ask(ws.token, "invoices for zeta corp and acme");
    expect(mixed.reply.data?.answer?.ids ?? []).toEqual([]);
    expect((await ask(other.token, "phone of Ada Lovelace")).reply.data?.answer).toBeUndefined();
  });

  it("reads only what the caller could: token scopes, disabled packages", async () => {
    const { ws, ada, acme } = await company();
    const contactsOnly = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "c", scopes: ["contacts:read"] } })).json.data.token;
    const refused = await ask(contactsOnly, "overdue invoices");
    expect(refused.reply.text).toMatch(/^You don't have access to that\. .*invoices:read/);
    expect(refused.reply.records).toBeUndefined();
    expect((await ask(contactsOnly, "phone of Ada Lovelace")).reply.data.answer.ids).toEqual([ada.id]);
    // Sums computed in D1 refuse as the list route would, for the caller: no scope, no number.
    const sum = await ask(contactsOnly, "how much is outstanding");
    expect(sum.reply.text).toMatch(/^You don't have access to that\. .*invoices:read/);
    expect(sum.reply.data?.answer).toBeUndefined();
    // Grouped by customer, with invoices:read only: the amounts, but no customer's name.
    const invoicesOnly = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "i", scopes: ["invoices:read"] } })).json.data.token;
    const owed = await ask(invoicesOnly, "which customers owe us the most");
    expect(owed.reply.data.answer.groups).toEqual([{ key: acme.id, label: String(acme.id), value: { USD: 150_000 } }]);
    for (const name of ["quotes", "helpdesk"]) await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } }); // both need sales
    expect((await call("PUT", "/packages/sales", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    const disabled = await ask(ws.token, "open deals");
    expect(disabled.reply.text).toBe("The Sales package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.");
    expect(disabled.reply.records).toBeUndefined();
    const total = await ask(ws.token, "total value of open deals");
    expect(total.reply.text).toBe("The Sales package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.");
    expect(total.reply.data?.answer).toBeUndefined();
  });

  it("reads who asks, what is awaited and which record a value names: 'hasn't been paid', 'the sales job', 'work on'", async () => {
    const { ws, website, ana, acme, invoice, sophie, grace } = await company();
    // Awaited payment is the workspace's "unpaid" (a draft awaits nothing); "aren't paid" stays the plain negation.
    const awaited = await ask(ws.token, "invoices due this year that haven't been paid, the accountant is asking");
    expect(awaited.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", op: "in", value: ["sent", "partially_paid"] })]);
    const plain = await ask(ws.token, "invoices that aren't paid");
    expect(plain.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", op: "ne", value: "paid" })]);
    // Another company's figures, said to be a competitor's, are refused.
    const rival = await ask(ws.token, "pull up Globex's pipeline, theyre our biggest competitor");
    expect(rival.reply).toMatchObject({ intent: "unknown", data: { refused: true } });
    // "work on last monday": the verb's "on", the hours' date.
    const worked = await ask(ws.token, "what did Ana Garcia work on yesterday");
    expect(worked.reply.data.query).toMatchObject({ resource: "time-entries", period: { field: "date" } });
    // The one opening a department's word names; many names with a word in common, each of them.
    await create(ws, "job-openings", { title: "Account Executive", department: "Sales" });
    const sales = await ask(ws.token, "applicants for the engineering job, newest first");
    expect(sales.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "job_opening_id" })]);
    await create(ws, "customers", { name: "Acme Holdings", currency: "USD" });
    await create(ws, "customers", { name: "Wonka Holdings", currency: "USD" });
    const holdings = await ask(ws.token, "the holdings customers");
    expect(holdings.reply.data.answer).toMatchObject({ kind: "records", total: 2 });
    expect((await ask(ws.token, "customers with acme in the name")).reply.data.answer.ids).toContain(acme.id);
    // A to-do with its title after a colon; a title in capitals, then where it goes; "put her straight in interview".
    const todo = await requestOf(ws.token, (await ask(ws.token, "todo on the website project: fix the footer, due dec 5")).reply);
    expect(todo).toMatchObject({
      method: "POST",
      path: "/tasks",
      body: { title: "Fix the footer", project_id: website.id, due_date: expect.stringMatching(/-12-05$/) },
    });
    const role = await requestOf(ws.token, (await ask(ws.token, "open a new role: Data Engineer in Engineering, 2 positions")).reply);
    expect(role).toMatchObject({ method: "POST", path: "/job-openings", body: { title: "Data Engineer", department: "Engineering", positions: 2 } });
    const placed = await ask(
      ws.token,
      "new candidate for backend engineer: Mia Chen, mia@mail.example - she did screening elsewhere, put her straight in interview",
    );
    expect((await requestOf(ws.token, placed.reply)).body).toMatchObject({ name: "Mia Chen", stage: "interview" });
    expect(ana.id).toBeGreaterThan(0);
    // "due" is an invoice's and a task's: the one whose state is named; "nobody is assigned to" is unassigned.
    const open = await ask(ws.token, "whats due this week that isn't done");
    expect(open.reply.data.query.resource).toBe("tasks");
    const nobody = await ask(ws.token, "urgent tasks that nobody is assigned to");
    expect(nobody.reply.data.query.conditions).toContainEqual(expect.objectContaining({ field: "assignee_id", op: "eq", value: null }));
    // "where did most … come from": grouped by that field, the top one.
    await create(ws, "leads", { name: "Web Two", email: "two@lead.example", source: "website" });
    const from = await ask(ws.token, "where did most of our leads come from");
    expect(from.reply.data.answer).toMatchObject({ kind: "groups", group_by: "source", groups: [{ key: "website", value: 2 }] });
    // A follow-up's country replaces the last question's.
    await create(ws, "customers", { name: "Berliner", currency: "EUR", billing: { country: "DE" } });
    await create(ws, "customers", { name: "Austin Co", currency: "USD", billing: { country: "US" } });
    const german = await ask(ws.token, "customers in germany");
    const american = await ask(ws.token, "and how many in the US?", german.conversation_id);
    expect(american.reply.data.query.conditions).toEqual([expect.objectContaining({ param: "country", value: "US" })]);
    // "how much is outstanding on those": those records, whatever "outstanding" would filter on its own.
    const partly = await ask(ws.token, "partially paid invoices");
    const onThose = await ask(ws.token, "how much is outstanding on those", partly.conversation_id);
    expect(onThose.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", value: "partially_paid" })]);
    // "just sales" after a question about people: a value of theirs, not revenue.
    const joined = await ask(ws.token, "who joined this year");
    const justSales = await ask(ws.token, "just sales", joined.conversation_id);
    expect(justSales.reply.data.query).toMatchObject({ resource: "employees", conditions: [expect.objectContaining({ field: "department", value: "Sales" })] });
    // A missing letter, a field named with the verb's word, a holiday, time "burned", "don't have a customer attached".
    expect((await ask(ws.token, `whats the staus of ${invoice.number}`)).reply.data.answer).toMatchObject({ ids: [invoice.id], field: "status" });
    expect((await ask(ws.token, `${invoice.number} due date?`)).reply.data.answer).toMatchObject({ ids: [invoice.id], field: "due_date" });
    const christmas = await ask(ws.token, "open deals expected to close before christmas");
    expect(christmas.reply.data.query.conditions).toContainEqual(
      expect.objectContaining({ field: "expected_close_date", op: "lt", value: expect.stringMatching(/-12-25$/) }),
    );
    expect((await ask(ws.token, "how many hours have we burned on website")).reply.data.query.resource).toBe("time-entries");
    const loose = await ask(ws.token, "which projects don't have a customer attached");
    expect(loose.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "customer_id", value: null })]);
    expect((await ask(ws.token, "what will we win next quarter?")).reply.data).toMatchObject({ refused: true });
    // "is the acme invoice paid yet?": the state of Acme's invoices is what is asked, not a filter.
    const paidYet = await ask(ws.token, "is the acme invoice paid yet?");
    expect(paidYet.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "status" });
    // A first name said after a list with one such record in it: that record.
    await create(ws, "leads", { name: "Sophie Green", email: "green@lead.example", source: "referral" });
    const leads = await ask(ws.token, "leads from the website");
    const marked = await ask(ws.token, "ok mark Sophie as contacted", leads.conversation_id);
    expect(await requestOf(ws.token, marked.reply)).toMatchObject({ path: `/leads/${sophie.id}`, body: { status: "contacted" } });
    // A noun that starts a record's name; "who's the customer on X" when X is a record that has one.
    await create(ws, "projects", { name: "Customer portal", end_date: "2026-12-31" });
    expect((await ask(ws.token, "when does the customer portal end")).reply.data.answer).toMatchObject({ resource: "projects", field: "end_date" });
    await call("PATCH", `/projects/${website.id}`, { token: ws.token, body: { customer_id: acme.id } });
    expect((await ask(ws.token, "who's the client on website?")).reply.data.answer).toMatchObject({ ids: [website.id], field: "customer_id" });
    // The longest field phrase: "where did X come from" asks the source, not the status "where" is a word of.
    expect((await ask(ws.token, "where did Sophie Brown come from")).reply.data.answer).toMatchObject({ field: "source" });
    // "our longest serving employee that's still active": the first who joined, among the active.
    const longest = await ask(ws.token, "who's our longest serving employee that's still active");
    expect(longest.reply.data.query.aggregate).toMatchObject({ field: "date_of_joining", order: "asc", limit: 1 });
    // A count compared as said (an opening's positions), a small number in words.
    const many = await ask(ws.token, "which job ads are for more than one person");
    expect(many.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "positions", op: "gt", value: 1 })]);
    // Of several so named, the one in the department said; "how many X are we looking for" is that opening's positions.
    await create(ws, "employees", { name: "Ana Lopez", email: "ana.l@assist.co", department: "Sales" });
    const anaInSales = await ask(ws.token, "email for Ana in engineering?");
    expect(anaInSales.reply.data.answer, anaInSales.reply.text).toMatchObject({ field: "email", ids: [ana.id] });
    // ("grace from sales": after a person's "from", the measure's word is their department.)
    expect((await ask(ws.token, "whats grace from sales' email")).reply.data.answer).toMatchObject({ field: "email", ids: [grace.id] });
    const opening = await ask(ws.token, "how many backend engineers are we looking for");
    expect(opening.reply.data.answer).toMatchObject({ resource: "job-openings", field: "positions" });
    // One letter from one name and further from the rest: that one.
    await create(ws, "contacts", { name: "Ada Lovecraft", email: "ada.l@example.com" });
    expect((await ask(ws.token, "which company is Ada Lovelase with")).reply.data.answer).toMatchObject({ ids: [expect.any(Number)], field: "company" });
  });
});

describe("actions on every writable resource", () => {
  it("creates each kind of record with every field the message gives, and a lead stays a lead", async () => {
    const { ws, website, ana, acme, opening, task, invoice } = await company();
    const cases: [string, string, Record<string, unknown>][] = [
      [
        "new lead tom baker, tom@contoso.com, from linkedin, worth $8k",
        "/leads",
        { name: "Tom Baker", email: "tom@contoso.com", source: "linkedin", value: 800_000 },
      ],
      ["add contact Wei Chen wei@umbrella.example at Umbrella", "/contacts", { name: "Wei Chen", email: "wei@umbrella.example", company: "Umbrella" }],
      ["new customer Blue Bottle Roasters, bills in EUR, ap@bluebottle.example", "/customers", { name: "Blue Bottle Roasters", currency: "EUR" }],
      [
        "new deal for acme called Support renewal, €15k, already at proposal",
        "/deals",
        { name: "Support renewal", customer_id: acme.id, value: 1_500_000, currency: "EUR", stage: "proposal" },
      ],
      ["create project Q1 Audit starting jan 5", "/projects", { name: "Q1 Audit" }],
      [
        "create a task Call Acme in Website due friday, high priority, assign to ana",
        "/tasks",
        { title: "Call Acme", project_id: website.id, priority: "high", assignee_id: ana.id },
      ],
      ["add employee Lena Fischer lena@assist.co in engineering", "/employees", { name: "Lena Fischer", email: "lena@assist.co", department: "Engineering" }],
      ["open a new job: Bookkeeper, 2 positions", "/job-openings", { title: "Bookkeeper", positions: 2 }],
      [
        "new candidate Raj Mehta raj@mail.example for the backend engineer opening",
        "/candidates",
        { name: "Raj Mehta", email: "raj@mail.example", job_opening_id: opening.id },
      ],
      ["log 90 mins for ana on write copy yesterday", "/time-entries", { employee_id: ana.id, task_id: task.id, minutes: 90 }],
      [`record a payment of $500 on ${invoice.number} by bank transfer`, "/payments", { invoice_id: invoice.id, amount: 50_000, method: "bank_transfer" }],
      [
        "invoice acme for 10 hours consulting at $150/hr, 19% vat",
        "/invoices",
        { customer_id: acme.id, items: [{ description: "Consulting", quantity: 10, unit_amount: 15_000, tax_rate: 19 }] },
      ],
    ];
    for (const [message, path, body] of cases) {
      const reply = (await ask(ws.token, message)).reply;
      const request = await requestOf(ws.token, reply);
      expect(request, message).toMatchObject({ method: "POST", path, body });
    }
    // Nothing was written before a confirmation.
    expect((await call("GET", "/leads?q=Tom", { token: ws.token })).json.data).toEqual([]);
  });

  it("changes fields and states, assigns, reschedules, sends, voids, hires and deletes", async () => {
    const { ws, ada, task, bigCo, sophie, candidate, website, grace, invoice, alan, linus, acme, opening } = await company();
    const cases: [string, string, string, Record<string, unknown> | undefined][] = [
      ["change ada lovelace's phone to +441234567890", "PATCH", `/contacts/${ada.id}`, { phone: "+441234567890" }],
      [`mark task ${task.id} done`, "PATCH", `/tasks/${task.id}`, { status: "done" }],
      [`reassign task ${task.id} to linus torvalds`, "PATCH", `/tasks/${task.id}`, { assignee_id: linus.id }],
      ["move deal Big Co to won", "PATCH", `/deals/${bigCo.id}`, { stage: "won" }],
      ["bump the big co deal to 30k", "PATCH", `/deals/${bigCo.id}`, { value: 3_000_000 }],
      ["mark lead sophie brown as contacted", "PATCH", `/leads/${sophie.id}`, { status: "contacted" }],
      ["move joan clarke to interview", "PATCH", `/candidates/${candidate.id}`, { stage: "interview" }],
      ["put the website project on hold", "PATCH", `/projects/${website.id}`, { status: "on_hold" }],
      ["grace hopper has left the company", "PATCH", `/employees/${grace.id}`, { status: "left" }],
      [`void ${invoice.number}`, "POST", `/invoices/${invoice.id}/void`, undefined],
      [`remind ${invoice.number}`, "POST", `/invoices/${invoice.id}/remind`, undefined],
      ["hire joan clarke as backend engineer", "POST", `/candidates/${candidate.id}/hire`, { designation: "Backend Engineer" }],
      ["delete contact alan turing", "DELETE", `/contacts/${alan.id}`, undefined],
      ["change acme's email to billing@acme.example", "PATCH", `/customers/${acme.id}`, { email: "billing@acme.example" }],
      ["close the backend engineer opening", "PATCH", `/job-openings/${opening.id}`, { status: "closed" }],
      // A move stated is one to record.
      ["ada lovelace moved to hooli, update her company", "PATCH", `/contacts/${ada.id}`, { company: "Hooli" }],
    ];
    await expectRequests(ws.token, cases);
    const due = await requestOf(ws.token, (await ask(ws.token, `reschedule task ${task.id} to 2026-12-24`)).reply);
    expect(due).toMatchObject({ method: "PATCH", path: `/tasks/${task.id}`, body: { due_date: "2026-12-24" } });
  });

  it("reads commands as people type them: names that look like typos, the state after 'to', payments on an invoice", async () => {
    const { ws, invoice, candidate, acme, ada } = await company();
    // A contact at Acme makes "acme" ambiguous among contacts, not among customers.
    await create(ws, "contacts", { name: "Bob Acme-Buyer", email: "bob@acme.example", company: "Acme" });
    // "keller" is a name, not a typo of "seller" (a vendors word).
    const keller = await create(ws, "leads", { name: "Dennis Keller", email: "dennis@lead.example" });
    const cases: [string, string, string, Record<string, unknown>][] = [
      ["convert dennis keller", "PATCH", `/leads/${keller.id}`, { status: "converted" }],
      ["dennis keller is a dead end, unqualify him", "PATCH", `/leads/${keller.id}`, { status: "unqualified" }],
      // The stage it is sent to, not the one it is described by.
      ["joan clarke nailed the interview, send her to offer stage", "PATCH", `/candidates/${candidate.id}`, { stage: "offer" }],
      [`record a $15 bank transfer on ${invoice.number}`, "POST", "/payments", { invoice_id: invoice.id, amount: 1500, method: "bank_transfer" }],
      [`log a cash payment of 10.31 against ${invoice.number}`, "POST", "/payments", { invoice_id: invoice.id, amount: 1031, method: "cash" }],
      // A moment is a date-time; "wire" is a bank transfer; "in full" is what is still due.
      [`acme paid ${invoice.number} in full yesterday, wire`, "POST", "/payments", { invoice_id: invoice.id, amount: 150_000, method: "bank_transfer" }],
    ];
    await expectRequests(ws.token, cases);
    const other = await create(ws, "projects", { name: "Mobile app" });
    const twin = await create(ws, "tasks", { title: "Write copy", project_id: other.id });
    const more: [string, string, string, Record<string, unknown>][] = [
      // A task named in several projects, narrowed by the one in brackets or after "on"; the verb says which resource.
      ["put write copy (mobile app) back to todo", "PATCH", `/tasks/${twin.id}`, { status: "todo" }],
      ["reassign write copy on mobile app to linus torvalds", "PATCH", `/tasks/${twin.id}`, { assignee_id: expect.any(Number) }],
      ["reschedule write copy in mobile app to the end of january", "PATCH", `/tasks/${twin.id}`, { due_date: expect.stringMatching(/-01-31$/) }],
      [`change the due date on ${invoice.number} to 2027-03-01`, "PATCH", `/invoices/${invoice.id}`, { due_date: "2027-03-01" }],
      [`send a payment reminder for ${invoice.number}`, "POST", `/invoices/${invoice.id}/remind`, {}],
      // A state only the resource's own action reaches is that action.
      [`mark ${invoice.number} as void`, "POST", `/invoices/${invoice.id}/void`, {}],
      ["post a job for a customer success manager in sales, 2 spots", "POST", "/job-openings", { title: "Customer success manager", positions: 2 }],
      // A possessive names the record among every resource at once; "X's new number is …" is a change.
      ["update acme's email to ar@acme.example", "PATCH", `/customers/${acme.id}`, { email: "ar@acme.example" }],
      ["set acme's tax id to US-12-3456789", "PATCH", `/customers/${acme.id}`, { tax_id: "US-12-3456789" }],
      ["ada lovelace's new number is +14155550123", "PATCH", `/contacts/${ada.id}`, { phone: "+14155550123" }],
      ["fix Ada Lovelace's email, should be ada@engines.example", "PATCH", `/contacts/${ada.id}`, { email: "ada@engines.example" }],
      // An address goes into the body's address object, part by part; "invoices to" is its e-mail.
      [
        "new customer Kessler GmbH, billing address Hauptstr. 5, 10115 Berlin, Germany, invoices to rechnung@kessler.example, EUR",
        "POST",
        "/customers",
        {
          name: "Kessler GmbH",
          currency: "EUR",
          billing: { address_line1: "Hauptstr. 5", postal_code: "10115", city: "Berlin", country: "DE", email: "rechnung@kessler.example" },
        },
      ],
      ["change acme's billing email to finance@acme.example", "PATCH", `/customers/${acme.id}`, { billing: { email: "finance@acme.example" } }],
      ["new customer Kestrel Foods, tax id DE811907980, based in germany", "POST", "/customers", { tax_id: "DE811907980", billing: { country: "DE" } }],
    ];
    await expectRequests(ws.token, more);
    // "we're hiring X" is the hire; "from contacts" says which of two people so named is removed.
    const hire = await requestOf(ws.token, (await ask(ws.token, "we're hiring Joan Clarke!")).reply);
    expect(hire).toMatchObject({ method: "POST", path: `/candidates/${candidate.id}/hire` });
    const namesake = await create(ws, "contacts", { name: "Dennis Keller", email: "dk@contact.example" });
    const removed = await requestOf(ws.token, (await ask(ws.token, "remove Dennis Keller from contacts")).reply);
    expect(removed).toMatchObject({ method: "DELETE", path: `/contacts/${namesake.id}` });
    // Handing a task over changes no state, though its name starts with one.
    const reviewTask = await create(ws, "tasks", { title: "Review pricing", project_id: (await create(ws, "projects", { name: "Pricing" })).id });
    const handed = await requestOf(ws.token, (await ask(ws.token, "give Review pricing to Ana Garcia")).reply);
    expect(handed).toMatchObject({ method: "PATCH", path: `/tasks/${reviewTask.id}` });
    expect(handed.body).not.toHaveProperty("status");
    // A pronoun after a question: the record in focus, its deadline or its state.
    const asked = await ask(ws.token, `when is ${invoice.number} due`);
    const pushed = await requestOf(ws.token, (await ask(ws.token, "push it to december 15", asked.conversation_id)).reply);
    expect(pushed).toMatchObject({ path: `/invoices/${invoice.id}`, body: { due_date: expect.stringMatching(/-12-15$/) } });
    const stage = await ask(ws.token, "joan clarke's stage");
    const moved = await requestOf(ws.token, (await ask(ws.token, "ok move her to offer", stage.conversation_id)).reply);
    expect(moved).toMatchObject({ path: `/candidates/${candidate.id}`, body: { stage: "offer" } });
    // A record and the state it may take; a move stated with "update her"; an opening's branch as employees spell it.
    const may = await requestOf(ws.token, (await ask(ws.token, "backend engineer job can be closed now")).reply);
    expect(may).toMatchObject({ method: "PATCH", body: { status: "closed" } });
    const movedAda = await requestOf(ws.token, (await ask(ws.token, "Ada Lovelace moved to Acme, update her")).reply);
    expect(movedAda).toMatchObject({ path: `/contacts/${ada.id}`, body: { company: "Acme" } });
    await call("PATCH", `/employees/${(await call("GET", "/employees?q=Ana", { token: ws.token })).json.data[0].id}`, {
      token: ws.token,
      body: { branch: "Lisbon" },
    });
    const role = await requestOf(ws.token, (await ask(ws.token, "post a job: Data Engineer, engineering dept, lisbon, 2 spots")).reply);
    expect(role.body).toMatchObject({ title: "Data Engineer", branch: "Lisbon", positions: 2 });
    const counted = await requestOf(ws.token, (await ask(ws.token, "create a job opening for 2 Account Managers in Lisbon")).reply);
    expect(counted.body).toMatchObject({ title: "Account Manager", branch: "Lisbon", positions: 2 });
    // "job title" is an employee's designation, not a job opening.
    expect((await ask(ws.token, "what's Ana Garcia's job title")).reply.data.answer).toMatchObject({ resource: "employees", field: "designation" });
    // A payment has no name: it is named by its invoice ("the last one" when there are several); "of 500" is money.
    const single = await requestOf(ws.token, (await ask(ws.token, `undo the payment on ${invoice.number}, it bounced`)).reply);
    expect(single).toMatchObject({ method: "DELETE", path: expect.stringMatching(/^\/payments\/\d+$/) });
    const small = await requestOf(ws.token, (await ask(ws.token, `record a payment of 500 on ${invoice.number}`)).reply);
    expect(small.body).toMatchObject({ invoice_id: invoice.id, amount: 50_000 });
    const paid = await requestOf(ws.token, (await ask(ws.token, `acme paid $20 on ${invoice.number} yesterday`)).reply);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(paid.body).toMatchObject({ paid_at: `${yesterday}T00:00:00Z`, amount: 2000 });
  });

  it("reads news as the change it means: money received, a timesheet line, a field given, 'make X urgent', 'X converted!!'", async () => {
    const { ws, invoice, acme, alan, task, sophie, ana, website, candidate, opening } = await company();
    const cases: [string, string, string, Record<string, unknown>][] = [
      // Money received against an invoice, said as news, is a payment to record ("wired" is a bank transfer).
      [`got $500 from Acme on ${invoice.number}`, "POST", "/payments", { invoice_id: invoice.id, amount: 50_000 }],
      [`Acme wired us 1k yesterday for ${invoice.number}`, "POST", "/payments", { invoice_id: invoice.id, amount: 100_000, method: "bank_transfer" }],
      // A person and a time, as a timesheet line ("1 hr 15" is 75 minutes).
      ["Ana Garcia - 1 hr 15 - Write copy (Website) - today", "POST", "/time-entries", { employee_id: ana.id, task_id: task.id, minutes: 75, date: today() }],
      // "20 nov" is a day, not November.
      ["log 3 hours 3 nov for Ana Garcia on Write copy in Website", "POST", "/time-entries", { minutes: 180, date: expect.stringMatching(/-11-03$/) }],
      // A field of someone already there, given a value, is a change to that record.
      ["add phone +49 30 1234567 to alan turing", "PATCH", `/contacts/${alan.id}`, { phone: "+49301234567" }],
      ["new phone for Alan Turing: +1 415 555 0199", "PATCH", `/contacts/${alan.id}`, { phone: "+14155550199" }],
      ["set tax id for Acme to DE123456789", "PATCH", `/customers/${acme.id}`, { tax_id: "DE123456789" }],
      ["make Write copy in Website urgent", "PATCH", `/tasks/${task.id}`, { priority: "urgent" }],
      ["Sophie Brown converted!!", "PATCH", `/leads/${sophie.id}`, { status: "converted" }],
      ["Write copy in Website is ready for review", "PATCH", `/tasks/${task.id}`, { status: "review" }],
      // A new title that ends in one the workspace has is the whole title.
      ["promote ana garcia to Senior Engineer", "PATCH", `/employees/${ana.id}`, { designation: "Senior Engineer" }],
      // Who was spoken to (not where, nor when), then what to set; "paid" in full by cheque; two changes at once.
      ["spoke to Sophie Brown at Brightside today, set her to contacted", "PATCH", `/leads/${sophie.id}`, { status: "contacted" }],
      [`mark ${invoice.number} as paid, got a cheque`, "POST", "/payments", { invoice_id: invoice.id, amount: 150_000, method: "other" }],
      [
        "reassign Write copy in Website to Linus Torvalds and set it to high",
        "PATCH",
        `/tasks/${task.id}`,
        { priority: "high", assignee_id: expect.any(Number) },
      ],
      ["add 45 min to Ana Garcia's timesheet on Write copy, website, today", "POST", "/time-entries", { employee_id: ana.id, task_id: task.id, minutes: 45 }],
      ["Ana Garcia is moving to the Remote branch from next month", "PATCH", `/employees/${ana.id}`, { branch: "Remote" }],
      ["link the Website project to the customer Acme", "PATCH", `/projects/${website.id}`, { customer_id: acme.id }],
    ];
    await expectRequests(ws.token, cases);
    // A note said with a colon; how many an opening is for ("we need 2 … now, not 1").
    const notes = await requestOf(ws.token, (await ask(ws.token, "note on Joan Clarke: strong system design, weak on testing")).reply);
    expect(notes).toMatchObject({ method: "PATCH", path: `/candidates/${candidate.id}`, body: { notes: "strong system design, weak on testing" } });
    const needed = await requestOf(ws.token, (await ask(ws.token, "we need 2 backend engineers now, not 1")).reply);
    expect(needed).toMatchObject({ method: "PATCH", path: `/job-openings/${opening.id}`, body: { positions: 2 } });
    // A field asked about narrows whose name it is: only candidates (and deals) have a stage.
    await create(ws, "contacts", { name: "Joan Clarkson", email: "joan.c@example.com" });
    await create(ws, "candidates", { job_opening_id: opening.id, name: "Joan Smith", email: "joan.s@mail.example" });
    const stage = await ask(ws.token, "what stage is Joan at");
    expect(stage.reply.intent).toBe("clarify");
    expect(stage.reply.records!.map((record) => record.resource)).toEqual(["candidates", "candidates"]);
    // An address asked about is whoever has it; "everything we invoiced X" lists the invoices.
    expect((await ask(ws.token, "whose email is alan@example.com")).reply.data.answer).toMatchObject({ resource: "contacts", ids: [alan.id] });
    expect((await ask(ws.token, "who has nobody@nowhere.example")).reply.text).toBe("No one in this workspace has the address nobody@nowhere.example.");
    expect((await ask(ws.token, "pull up everything we invoiced acme this year")).reply.data.answer).toMatchObject({ kind: "records", resource: "invoices" });
    // "onboard X" when no candidate is so named is a new employee (who needs an address).
    expect((await ask(ws.token, "onboard Kelly Kapoor in marketing, she starts monday")).reply.data.missing).toEqual(["email"]);
    // A state word ("draft" is an invoice's) that starts a record's name: that record, then "it".
    const drafted = await create(ws, "tasks", { title: "Draft exports", project_id: website.id });
    const status = await ask(ws.token, "status of Draft exports on website?");
    expect(status.reply.data.answer).toMatchObject({ resource: "tasks", ids: [drafted.id], field: "status" });
    const assigned = await ask(ws.token, "assign it to Linus Torvalds", status.conversation_id);
    expect(await requestOf(ws.token, assigned.reply)).toMatchObject({ path: `/tasks/${drafted.id}`, body: { assignee_id: expect.any(Number) } });
    // "what is X assigned to" are X's tasks; "where are we with X (the lead)" is its state.
    expect((await ask(ws.token, "what is Ana Garcia assigned to")).reply.data.answer).toMatchObject({ resource: "tasks", ids: [task.id] });
    expect((await ask(ws.token, "where are we with Sophie Brown (the lead)")).reply.data.answer).toMatchObject({ ids: [sophie.id], field: "status" });
    // "for him" after a question about someone is that person; "into engineering" a department; "met at" a source.
    const about = await ask(ws.token, "what's Ana Garcia's email");
    const forHim = await ask(ws.token, "add 1h for her today on Write copy in Website", about.conversation_id);
    expect((await requestOf(ws.token, forHim.reply)).body).toMatchObject({ employee_id: ana.id, task_id: task.id, minutes: 60 });
    const hire = await requestOf(ws.token, (await ask(ws.token, "hire Joan Clarke into engineering as an Engineer")).reply);
    expect(hire).toMatchObject({ path: `/candidates/${candidate.id}/hire`, body: { department: "Engineering", designation: "Engineer" } });
    const lead = await requestOf(ws.token, (await ask(ws.token, "add a lead: Holly Flax, holly@sabre.example, Sabre, met at a trade show")).reply);
    expect(lead.body).toMatchObject({ name: "Holly Flax", company: "Sabre", source: "trade show" });
    // "start working on X" starts it; a last lower-case phrase on a time entry is its note; "City ST 12345".
    const started = await requestOf(ws.token, (await ask(ws.token, "start working on write copy in website — set it in progress")).reply);
    expect(started).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "in_progress" } });
    const noted = await requestOf(
      ws.token,
      (await ask(ws.token, "put 30 mins on Write copy (website) for Ana Garcia today, non billable, internal sync")).reply,
    );
    expect(noted.body).toMatchObject({ minutes: 30, billable: false, note: "internal sync" });
    const moved = await requestOf(ws.token, (await ask(ws.token, "update acme's billing address: 10880 Malibu Point, Malibu CA 90265, US")).reply);
    expect(moved.body).toMatchObject({ billing: { address_line1: "10880 Malibu Point", city: "Malibu", state: "CA", postal_code: "90265", country: "US" } });
    // A person with an address and no kind said goes in the address book.
    const person = await requestOf(ws.token, (await ask(ws.token, "add Ravi Patel, ravi@patel.example, +14155550199")).reply);
    expect(person).toMatchObject({ method: "POST", path: "/contacts", body: { name: "Ravi Patel", email: "ravi@patel.example", phone: "+14155550199" } });
    // A timesheet line without its task asks for it.
    expect((await ask(ws.token, "Linus Torvalds 6 hrs yesterday")).reply.data.missing).toEqual(["task_id"]);
    // A mass mailing is refused, not read as a record named "all our".
    for (const message of ["email all our customers a happy holidays message", "ok email all of them our new price list"]) {
      const refused = await ask(ws.token, message);
      expect(refused.reply.action, message).toBeUndefined();
      expect(refused.reply.data?.refused, message).toBe(true);
    }
    // Questions: "did X pay us anything" lists the payments; "whos"; a customer's own "tax id"; time "spent";
    // a misspelt name as long as the record's beats the longer names that contain it ("Acme East").
    expect((await ask(ws.token, "did acme pay us anything this year")).reply.data.answer).toMatchObject({ kind: "records", resource: "payments" });
    expect((await ask(ws.token, "whos in engineering")).reply.data.answer.ids.sort()).toEqual(expect.arrayContaining([ana.id]));
    expect((await ask(ws.token, "acme tax id?")).reply.data.answer).toMatchObject({ resource: "customers", ids: [acme.id], field: "tax_id" });
    expect((await ask(ws.token, "how much time did the team spend on website")).reply.data.answer).toMatchObject({ resource: "time-entries", fn: "sum" });
    expect((await ask(ws.token, "whats the currency of acmee")).reply.data.answer).toMatchObject({ resource: "customers", ids: [acme.id] });
    expect(website.id).toBeGreaterThan(0);
  });

  it("leaves out the words of talk around a name, sorts the last answer again, and reads a record then its new state", async () => {
    const { ws, acme, website, task, sophie, candidate, ana, invoice, opening } = await company();
    const other = await create(ws, "projects", { name: "Intranet", customer_id: acme.id });
    // "belong", "wondering", "whether": words of how people talk, never part of a name.
    const belong = await ask(ws.token, "which projects belong to Acme");
    expect(belong.reply.data.answer).toMatchObject({ kind: "records", ids: [other.id] });
    await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ana.id, task_id: task.id, date: today(), minutes: 50 } });
    const wondering = await ask(ws.token, "I was wondering how many hours Ana Garcia logged today");
    expect(wondering.reply.data.answer).toMatchObject({ kind: "value", value: 50 });
    // (A name not found stays not found.)
    expect((await ask(ws.token, "which projects belong to Zyxxon")).reply.text).toMatch(/couldn't find "Zyxxon"/);
    // "sort them by due date": the last question's records, in that order (the field is theirs, not an invoice's).
    const open = await ask(ws.token, "tasks in the Website project");
    const sorted = await ask(ws.token, "sort them by due date, latest first", open.conversation_id);
    expect(sorted.reply.data.query).toMatchObject({ resource: "tasks", aggregate: { field: "due_date", order: "desc" } });
    expect(sorted.reply.data.answer.ids).toEqual([expect.any(Number), task.id]);
    // "invoices from january" is that month; "from january on" is since it.
    const january = await ask(ws.token, "invoices from january");
    expect(january.reply.data.query.period).toMatchObject({ from: expect.stringMatching(/-01-01$/), to: expect.stringMatching(/-01-31$/) });
    expect((await ask(ws.token, "invoices from january on")).reply.data.query.period.to).toBe(today());
    const cases = [
      // A record, then the state it is in now: that state change.
      ["Joan Clarke → interview", "PATCH", `/candidates/${candidate.id}`, { stage: "interview" }],
      ["Sophie Brown - unqualified, no budget till 2028", "PATCH", `/leads/${sophie.id}`, { status: "unqualified" }],
      ["Website: on hold", "PATCH", `/projects/${website.id}`, { status: "on_hold" }],
      // A payment said by its amount first; "recieved" is received.
      [`pymt 1200 usd on ${invoice.number} bank transfer`, "POST", "/payments", { invoice_id: invoice.id, amount: 120_000, method: "bank_transfer" }],
      [`recieved 500 for ${invoice.number}`, "POST", "/payments", { invoice_id: invoice.id, amount: 50_000 }],
      // A new address said as news; people's news (a promotion, a new title, leaving, a department, a branch).
      [
        "Acme's billing address: 1 Science Way, Cleveland OH 44101, US",
        "PATCH",
        `/customers/${acme.id}`,
        { billing: { city: "Cleveland", postal_code: "44101" } },
      ],
      ["Acme moved — new billing address is 12 Hafenstrasse, 20457 Hamburg", "PATCH", `/customers/${acme.id}`, { billing: { city: "Hamburg" } }],
      ["Ana Garcia got promoted to Staff Engineer!", "PATCH", `/employees/${ana.id}`, { designation: "Staff Engineer" }],
      ["Ana Garcia is now Head of Platform, pls update her title", "PATCH", `/employees/${ana.id}`, { designation: "Head of Platform" }],
      ["Ana Garcia left last friday, please update her status", "PATCH", `/employees/${ana.id}`, { status: "left" }],
      ["Ana Garcia should be in Sales — her department is wrong", "PATCH", `/employees/${ana.id}`, { department: "Sales" }],
      ["transfer Ana Garcia to the Remote branch", "PATCH", `/employees/${ana.id}`, { branch: "Remote" }],
      ["Ana Garcia is back — reactivate her", "PATCH", `/employees/${ana.id}`, { status: "active" }],
      // A field given as "X: make it 2 positions", "field = value for X", "the kind, whose, field: value", a possessive
      // in s', a date with its year, the action a record awaits, a state said by its verb.
      ["Backend Engineer: make it 2 positions", "PATCH", `/job-openings/${opening.id}`, { positions: 2 }],
      ["add Acmes' tax id US-12-3456789", "PATCH", `/customers/${acme.id}`, { tax_id: "US-12-3456789" }],
      ["set acme's vat no. to DE812345678", "PATCH", `/customers/${acme.id}`, { tax_id: "DE812345678" }],
      ["lead Sophie Brown phone: +44 20 7946 0958", "PATCH", `/leads/${sophie.id}`, { phone: "+442079460958" }],
      ["set source = event for Sophie Brown", "PATCH", `/leads/${sophie.id}`, { source: "event" }],
      [`move the due date on ${invoice.number} to 15 December 2026`, "PATCH", `/invoices/${invoice.id}`, { due_date: "2026-12-15" }],
      ["projct Website: change end date to 31 January 2027", "PATCH", `/projects/${website.id}`, { end_date: "2027-01-31" }],
      ["pause the Website project, client froze budget", "PATCH", `/projects/${website.id}`, { status: "on_hold" }],
      ["start screening Joan Clarke", "PATCH", `/candidates/${candidate.id}`, { stage: "screening" }],
      ["Ana's starting on Write copy in Website, set it in progress", "PATCH", `/tasks/${task.id}`, { status: "in_progress" }],
      ["Backend Engineer opening is filled, close it", "PATCH", `/job-openings/${opening.id}`, { status: "closed" }],
      [`${invoice.number} needs voiding, they cancelled`, "POST", `/invoices/${invoice.id}/void`, {}],
      ["acme wants to be billed in eur from now on", "PATCH", `/customers/${acme.id}`, { currency: "EUR" }],
      ["update lead value for Sophie Brown to 150k", "PATCH", `/leads/${sophie.id}`, { value: 15_000_000 }],
      [`and send ${invoice.number} a reminder`, "POST", `/invoices/${invoice.id}/remind`, {}],
    ] as const;
    await expectRequests(ws.token, cases);
    // (A question stays a question.)
    expect((await ask(ws.token, "which tasks should be in review")).reply.action).toBeUndefined();
    // (Many records and their state is a question, not a change.)
    expect((await ask(ws.token, "Acme invoices paid")).reply.action).toBeUndefined();
    // A question about one record asks its field by its form: "who … for" its person, "is it still …" its state.
    const whom = await ask(ws.token, `who is ${invoice.number} for`);
    expect(whom.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "customer_id" });
    expect(whom.reply.text).toContain("Acme");
    const still = await ask(ws.token, `did ${invoice.number} go out or is it still a draft?`);
    expect(still.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "status" });
    // Words as people say them: "phone no.", "how much projects", "in every status", "billable vs not",
    // "which lead sources", "more than one position", "total positions".
    expect((await ask(ws.token, "phone no. of emp Ana Garcia")).reply.data.answer).toMatchObject({ ids: [ana.id], field: "phone" });
    expect((await ask(ws.token, "how much projects we have")).reply.data.answer).toMatchObject({ kind: "value", fn: "count", value: 2 });
    expect((await ask(ws.token, "how many task there are in every status")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "status" });
    expect((await ask(ws.token, "hours logged this month, billable vs not")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "billable" });
    expect((await ask(ws.token, "which lead sources bring the most leads")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "source" });
    await create(ws, "job-openings", { title: "Designer", department: "Design", positions: 3 });
    expect((await ask(ws.token, "openings with more than one position")).reply.data.answer).toMatchObject({ kind: "records", total: 1 });
    expect((await ask(ws.token, "total positions across the open openings")).reply.data.answer).toMatchObject({ kind: "value", field: "positions", value: 4 });
    // "deals closing this month": the open ones (a won deal has closed), unless a state is said.
    const closing = await ask(ws.token, "deals closing this month");
    expect(closing.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", value: "open" })]);
    expect((await ask(ws.token, "won deals closing this month")).reply.data.query.conditions).toEqual([expect.objectContaining({ value: "won" })]);
    // "open EUR deals" are deals that are open, not a new one; "which of them" lists what a sum was over.
    expect((await ask(ws.token, "open USD deals, smallest first")).reply.data.answer).toMatchObject({ kind: "records", total: 4 });
    const pipeline = await ask(ws.token, "how much is in the pipeline");
    const over = await ask(ws.token, "which of them are over 1,100", pipeline.conversation_id);
    expect(over.reply.data.answer).toMatchObject({ kind: "records", total: 2 });
    // A date or a field of one record asked with "when" or by the words of a date verb; the commonest value.
    expect((await ask(ws.token, "when did we open the Backend Engineer role?")).reply.data.answer).toMatchObject({ field: "created_at" });
    expect((await ask(ws.token, "what's the expected close on Big Co")).reply.data.answer).toMatchObject({ field: "expected_close_date" });
    expect((await ask(ws.token, "which opening is Joan Clarke applying for")).reply.data.answer).toMatchObject({ field: "job_opening_id" });
    expect((await ask(ws.token, "most common source of our leads")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "source" });
    expect((await ask(ws.token, "AR total?")).reply.data.answer).toMatchObject({ kind: "value", field: "amount_due" });
    expect((await ask(ws.token, "deals in the hopper")).reply.data.query.conditions).toEqual([expect.objectContaining({ value: "open" })]);
    // A state (or "new") before many records is what they are: a question, not a change or a new record.
    expect((await ask(ws.token, "void invoices this year?")).reply.action).toBeUndefined();
    expect((await ask(ws.token, "new custmers since july?")).reply.data.query).toMatchObject({ resource: "customers", period: { field: "created_at" } });
    // A country said by its people's adjective; "accounts payable" is the customer's e-mail; "no customer attached".
    await create(ws, "customers", { name: "Berlin GmbH", currency: "EUR", billing: { country: "DE" } });
    expect((await ask(ws.token, "how many german customers")).reply.data.answer).toMatchObject({ kind: "value", value: 1 });
    expect((await ask(ws.token, "email for acme's accounts payable?")).reply.data.answer).toMatchObject({ ids: [acme.id], field: "email" });
    expect((await ask(ws.token, "internal projects (no customer attached)")).reply.data.query.conditions).toEqual([
      expect.objectContaining({ field: "customer_id", value: null }),
    ]);
    // A field of one record asked by its form; the people of a department; a follow-up about the records that
    // refer to the last answer's ("… and how much of that is overdue" after customers' balances); a choice by surname.
    expect((await ask(ws.token, "what currency does acme pay in")).reply.data.answer).toMatchObject({ ids: [acme.id], field: "currency" });
    expect((await ask(ws.token, "which customer is the Intranet for")).reply.data.answer).toMatchObject({ ids: [other.id], field: "customer_id" });
    expect((await ask(ws.token, "who in engineering joined this year")).reply.data.query.resource).toBe("employees");
    expect((await ask(ws.token, "anyone without a department?")).reply.data.query).toMatchObject({ resource: "employees" });
    const balances = await ask(ws.token, "total outstanding across all customers?");
    const overdue = await ask(ws.token, "and how much of that is actually overdue", balances.conversation_id);
    expect(overdue.reply.data.query).toMatchObject({ resource: "invoices", conditions: [expect.objectContaining({ param: "overdue" })] });
    await create(ws, "employees", { name: "Ana Lopez", email: "ana.l@assist.co", department: "Sales" });
    const which = await ask(ws.token, "whats ana's email");
    expect(which.reply.intent).toBe("clarify");
    expect((await ask(ws.token, "the lopez one", which.conversation_id)).reply.text).toContain("ana.l@assist.co");
    // "invocie 1", "anything more than 60 days overdue": a misspelt kind with its number; what is overdue.
    const misspelt = await ask(ws.token, `whats the remaining balance on invocie ${Number(invoice.number.replace(/\D/g, ""))}`);
    expect(misspelt.reply.data?.answer, misspelt.reply.text).toMatchObject({ ids: [invoice.id] });
    expect((await ask(ws.token, "anything more than 60 days overdue?")).reply.data.query.resource).toBe("invoices");
    // "what did we bill X" is how much; "who paid us" the payments; "overdue amounts by customer" what is due, per customer.
    expect((await ask(ws.token, "what did we bill acme this year")).reply.data.answer).toMatchObject({ kind: "value", fn: "sum" });
    expect((await ask(ws.token, "who paid us this year?")).reply.data.answer).toMatchObject({ kind: "records", resource: "payments" });
    expect((await ask(ws.token, "unpaid amounts by customer")).reply.data.answer).toMatchObject({ kind: "groups", fn: "sum", field: "amount_due" });
    // Of several records a command could mean, the one the last answer listed.
    const zenith = await create(ws, "customers", { name: "Zenith", email: "ap@zenith.example", currency: "USD" });
    const line = { customer_id: zenith.id, currency: "USD", items: [{ description: "Extra", quantity: 1, unit_amount: 1000 }] };
    const drafts = await create(ws, "invoices", line);
    const sent = await create(ws, "invoices", line);
    expect((await call("POST", `/invoices/${sent.id}/send`, { token: ws.token })).status).toBe(200);
    const listed = await ask(ws.token, "show me the drafts");
    const sendIt = await ask(ws.token, "send the zenith invoice", listed.conversation_id);
    expect((await requestOf(ws.token, sendIt.reply)).path).toBe(`/invoices/${drafts.id}/send`);
    // "new hires this year": the people who joined then ("new hire Omar …" stays a new one).
    expect((await ask(ws.token, "new hires this year")).reply.data.query).toMatchObject({ resource: "employees", period: { field: "date_of_joining" } });
    // A first name alone, said of no kind of record, is the one colleague of that name (a contact may share it).
    await create(ws, "contacts", { name: "Linus Pauling", email: "linus@pauling.example" });
    expect((await ask(ws.token, "whats linus's email")).reply.text).toContain("linus@assist.co");
    // False records, tax advice and answers mailed on are refused.
    for (const message of [
      "make me a fake supplier invoice so i can claim it as an expense",
      "what VAT rate should i charge a client in france, do i need to register there?",
      "email that breakdown to our accountant",
      "pull up Globex's internal revenue numbers",
      "scrape linkedin and get me emails of every CTO in berlin",
    ])
      expect((await ask(ws.token, message)).reply, message).toMatchObject({ intent: "unknown", data: { refused: true } });
    // "the largest single payment this year": the amount itself, per currency.
    const single = await ask(ws.token, "what was the largest single payment this year");
    expect(single.reply.data.answer).toMatchObject({ kind: "value", fn: "max", field: "amount" });
  });

  it("picks from what was listed by rank, reads a question before its why, keeps a company's own name", async () => {
    const { ws, acme, invoice, ana, ada, alan, task, website, sophie, candidate } = await company();
    const bigger = await create(ws, "invoices", { customer_id: acme.id, currency: "USD", items: [{ description: "More", quantity: 1, unit_amount: 900_000 }] });
    expect((await call("POST", `/invoices/${bigger.id}/send`, { token: ws.token })).status).toBe(200);
    // "the biggest one", "the oldest one": of the records the last answer listed, by their measure or date; a
    // proposal about one of them keeps the list for the next message ("and resend the last one").
    const open = await ask(ws.token, "acme's open invoices");
    expect(open.reply.data.answer.ids.sort()).toEqual([invoice.id, bigger.id].sort());
    const biggest = await ask(ws.token, "send a reminder on the biggest one", open.conversation_id);
    expect((await requestOf(ws.token, biggest.reply)).path).toBe(`/invoices/${bigger.id}/remind`);
    const oldest = await ask(ws.token, "and resend the oldest one, they say it never arrived", open.conversation_id);
    expect((await requestOf(ws.token, oldest.reply)).path).toBe(`/invoices/${invoice.id}/send`);
    // A question, then why it is asked: the question alone ("have a call …" is no question of its own).
    const why = await ask(ws.token, "who do we know over at Analytical Engines? have a call with them thursday");
    expect(why.reply.data.answer).toMatchObject({ kind: "records", resource: "contacts", ids: [ada.id] });
    const chase = await ask(ws.token, "overdue tasks?? need to chase ppl before standup");
    expect(chase.reply.data.answer).toMatchObject({ kind: "records", resource: "tasks" });
    // "did NOT", "between jan and june 2024", "fall due", "€2.500" (a European thousands separator).
    expect((await ask(ws.token, "how many leads did NOT come from referrals")).reply.data.answer).toMatchObject({ kind: "value", value: 1 });
    const joined = await ask(ws.token, "people who joined between jan and june 2024");
    expect(joined.reply.data.query.period).toMatchObject({ from: "2024-01-01", to: "2024-06-30" });
    expect((await ask(ws.token, "how many invoices fall due next week")).reply.data.query.period).toMatchObject({ field: "due_date" });
    const cases = [
      ["invoice acme €2.500 for the data migration", "POST", "/invoices", { items: [{ unit_amount: 250_000 }] }],
      // A company the workspace knows, with more name after it, is another company; "&" in a name stays.
      ["Sophie Brown moved over to analytical engines labs, update her lead", "PATCH", `/leads/${sophie.id}`, { company: "Analytical Engines Labs" }],
      ["add a customer called Kessler & Sons", "POST", "/customers", { name: "Kessler & Sons" }],
      // A possessive before one of the field's own words ("title"), a record then "it", a record then its changes.
      ["change ana garcia's title to Head of Engineering", "PATCH", `/employees/${ana.id}`, { designation: "Head of Engineering" }],
      ["Website is wrapped. mark it completed", "PATCH", `/projects/${website.id}`, { status: "completed" }],
      ["Write copy on Website: due friday, and make it urgent", "PATCH", `/tasks/${task.id}`, { priority: "urgent" }],
      ["make 'Write copy' on Website low priority, it can wait", "PATCH", `/tasks/${task.id}`, { priority: "low" }],
      ["Acme's AP email changed to payables@acme.example", "PATCH", `/customers/${acme.id}`, { email: "payables@acme.example" }],
      [
        "Ada Lovelace moved to Stark — update her company and email to ada@stark.example",
        "PATCH",
        `/contacts/${ada.id}`,
        { company: "Stark", email: "ada@stark.example" },
      ],
      [
        "Hi! Could you add a contact Sophia Lindqvist at Monarch? Her email is s.l@monarch.example. Thanks!",
        "POST",
        "/contacts",
        { name: "Sophia Lindqvist", email: "s.l@monarch.example" },
      ],
    ] as const;
    await expectRequests(ws.token, cases);
    // A payment said as news about the invoice just talked about, with its method given in the slot's answer too.
    const left = await ask(ws.token, `how much is left to pay on ${invoice.number}`);
    const paid = await ask(ws.token, "Acme just paid that, $1,500.00 by bank transfer", left.conversation_id);
    expect((await requestOf(ws.token, paid.reply)).body).toMatchObject({ invoice_id: invoice.id, amount: 150_000, method: "bank_transfer" });
    const asked = await ask(ws.token, `log a payment on ${invoice.number}`);
    const slot = await ask(ws.token, "1,500.00, bank transfer", asked.conversation_id);
    expect((await requestOf(ws.token, slot.reply)).body).toMatchObject({ amount: 150_000, method: "bank_transfer" });
    // The words that introduced a value are no name: the name is still asked for.
    expect((await ask(ws.token, "can you add a customer for me, the email is hello@brightside.example")).reply.data.missing).toEqual(["name"]);
    // A "forecast call" is the sales team's, not the weather's; a newsletter to every contact is refused.
    const forecast = await ask(ws.token, "which open deals are past their expected close date? need to clean up before the forecast call");
    expect(forecast.reply.data.query).toMatchObject({ resource: "deals" });
    expect((await ask(ws.token, "send our holiday newsletter to every contact and every lead")).reply.data).toMatchObject({ refused: true });
    // A money field said first, of many records, is their total; "in each of those stages" groups by it.
    expect((await ask(ws.token, "value of deals in negotiation")).reply.data.answer).toMatchObject({ kind: "value", fn: "sum", field: "value" });
    const pipeline = await ask(ws.token, "open deals");
    const each = await ask(ws.token, "how many deals in each of those stages", pipeline.conversation_id);
    expect(each.reply.data.answer).toMatchObject({ kind: "groups", fn: "count", group_by: "stage" });
    // "who's in the pipeline for the X role": its candidates.
    const role = await ask(ws.token, "who's in the pipeline for the Backend Engineer role");
    expect(role.reply.data.answer).toMatchObject({ kind: "records", resource: "candidates" });
    // "split that by customer, biggest first" keeps the sum it splits; "how much of it was …" is a part of the whole.
    const owed = await ask(ws.token, "how much are we owed right now");
    const split = await ask(ws.token, "split that by customer pls, biggest first", owed.conversation_id);
    expect(split.reply.data.answer).toMatchObject({ kind: "groups", fn: "sum", field: "amount_due", group_by: "customer_id" });
    const hours = await ask(ws.token, "total hours logged this month");
    const perProject = await ask(ws.token, "per project?", hours.conversation_id);
    expect(perProject.reply.data.answer).toMatchObject({ kind: "groups", group_by: "project_id" });
    const part = await ask(ws.token, "and how much of it was non-billable", hours.conversation_id);
    expect(part.reply.data.answer).toMatchObject({ kind: "value", fn: "sum" });
    expect(part.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "billable", value: false })]);
    // What was taken back is no part of the question ("… nvm, …", "to review... actually to done").
    expect((await ask(ws.token, "who's hiring manager for... nvm, which openings are in engineering")).reply.data.query.resource).toBe("job-openings");
    await expectRequests(ws.token, [
      ["set Write copy (Website) to review... actually to done", "PATCH", `/tasks/${task.id}`, { status: "done" }],
      ["Big Co: bump value to 30k", "PATCH", `/deals/${(await ask(ws.token, "deal Big Co")).reply.data.answer.ids[0]}`, { value: 3_000_000 }],
      ["create deal Acme renewal 2027", "POST", "/deals", { name: "Acme renewal 2027" }],
    ]);
    expect((await ask(ws.token, "we got 500€ cash from Acme")).reply.data.missing).toEqual(["invoice_id"]);
    // "more than 60 days past its due date", "that has already passed", "who's been here the longest", "avg amt still due".
    const late = await ask(ws.token, "every invoice that is more than 20 days past its due date");
    expect(late.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ param: "overdue" })]));
    const passed = await ask(ws.token, "which open deals have an expected close date that has already passed?");
    expect(passed.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "expected_close_date", op: "lt" })]));
    expect((await ask(ws.token, "who's been here the longest")).reply.data.query).toMatchObject({
      resource: "employees",
      aggregate: { order: "asc", limit: 1 },
    });
    expect((await ask(ws.token, "whats the avg amt still due on partially paid invoices")).reply.data.answer).toMatchObject({ fn: "avg", field: "amount_due" });
    // Tables booked, database commands, tax returns filed, home addresses, mass WhatsApps and warnings to staff: refused.
    for (const message of [
      "can u book me a table for 2 at an italian place tonight",
      "drop table invoices;",
      "can u set up our company's VAT return and file it with the tax office",
      "can you give me the home addresses of all our employees so I can send xmas cards?",
      "send everyone on the leads list a whatsapp message about our new pricing",
      "who's late on timesheets? I want to give them a formal warning, draft it",
    ])
      expect((await ask(ws.token, message)).reply.data, message).toMatchObject({ refused: true });
    // Follow-ups: "on it" is the record just told; "to her" the person just asked about; "only the partially paid
    // ones" a state of the last records (though "paid" is a payment's verb); "the ones we added this year" their
    // date; "and who logged the most" each person's part.
    const status = await ask(ws.token, `${invoice.number} status?`);
    const leftOn = await ask(ws.token, "how much is left to pay on it", status.conversation_id);
    expect(leftOn.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "amount_due" });
    const logged = await ask(ws.token, "how much has Ana Garcia logged this month");
    const hers = await ask(ws.token, "which tasks are assigned to her", logged.conversation_id);
    expect(hers.reply.data.answer).toMatchObject({ resource: "tasks", ids: [task.id] });
    const unpaid = await ask(ws.token, "unpaid invoices of Acme");
    const partly = await ask(ws.token, "only the partially paid ones", unpaid.conversation_id);
    expect(partly.reply.data.answer).toMatchObject({ resource: "invoices", ids: [invoice.id] });
    const customers = await ask(ws.token, "list customers sorted by name");
    const added = await ask(ws.token, "only the ones we added this year", customers.conversation_id);
    expect(added.reply.data.query).toMatchObject({ resource: "customers", period: { field: "created_at" } });
    const month = await ask(ws.token, "hours logged this month");
    const most = await ask(ws.token, "and who logged the most", month.conversation_id);
    expect(most.reply.data.answer).toMatchObject({ kind: "groups", group_by: "employee_id" });
    // "a list of …" lists; "due before the end of this month" is up to its last day; "please to create … inside".
    expect((await ask(ws.token, "please give me list of invoices which are not paid yet")).reply.data.answer).toMatchObject({ kind: "records" });
    const byEnd = await ask(ws.token, "invoices due before the end of this month");
    expect(byEnd.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "due_date", op: "lte" })]);
    await expectRequests(ws.token, [
      ["please to create one task 'Plan launch' inside Website project", "POST", "/tasks", { title: "Plan launch", project_id: website.id }],
    ]);
    // "which customers are billed in X" is their currency; "task count per status"; "did we open" is made then.
    expect((await ask(ws.token, "which customers are billed in dollars")).reply.data.answer).toMatchObject({ kind: "records", resource: "customers" });
    expect((await ask(ws.token, "task count per status on Website")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "status" });
    expect((await ask(ws.token, "how many deals did we open this year")).reply.data.query).toMatchObject({ period: { field: "created_at" } });
    await expectRequests(ws.token, [
      // A name's new spelling; a field "was actually" another value; "X description: '…'"; "let's make her an offer".
      [
        "small thing — the contact Alan Turing is actually spelled Alan Turning, can you fix the name",
        "PATCH",
        `/contacts/${alan.id}`,
        { name: "Alan Turning" },
      ],
      ["Ana Garcia's start date was actually 12 January 2026, not Jan 10", "PATCH", `/employees/${ana.id}`, { date_of_joining: "2026-01-12" }],
      ["Website description: 'New site + blog'", "PATCH", `/projects/${website.id}`, { description: "New site + blog" }],
      ["Joan Clarke nailed the interview, let's make her an offer", "PATCH", `/candidates/${candidate.id}`, { stage: "offer" }],
    ]);
    for (const message of ["how old is she?", "find her on linkedin for me"])
      expect((await ask(ws.token, message)).reply.data, message).toMatchObject({ refused: true });
    // "bill X 5,000 for …" is one line at that price; "Acme changed their AP inbox": the name the words begin with.
    await expectRequests(ws.token, [
      ["bill Acme 5,000 for implementation", "POST", "/invoices", { customer_id: acme.id, items: [{ quantity: 1, unit_amount: 500_000 }] }],
      ["Acme changed their AP inbox, set their email to payables@acme.example", "PATCH", `/customers/${acme.id}`, { email: "payables@acme.example" }],
    ]);
    // Of the drafts just listed, "the zed one" is the one of customer Zed — never the customer itself; "the older one".
    const zed = await create(ws, "customers", { name: "Zed", email: "ap@zed.example", currency: "USD" });
    const zedDraft = await create(ws, "invoices", { customer_id: zed.id, currency: "USD", items: [{ description: "Z", quantity: 1, unit_amount: 500 }] });
    const drafts = await ask(ws.token, "list drafts");
    const gone = await ask(ws.token, "delete the zed one, i'll redo it from scratch", drafts.conversation_id);
    expect(await requestOf(ws.token, gone.reply)).toMatchObject({ method: "DELETE", path: `/invoices/${zedDraft.id}` });
    const acmes = await ask(ws.token, "acme's open invoices");
    const older = await ask(ws.token, "send them a reminder for the older one", acmes.conversation_id);
    expect((await requestOf(ws.token, older.reply)).path).toBe(`/invoices/${invoice.id}/remind`);
    // "how many in engineering" → "and sales?": that department instead ("engineering and sales" in one message is both).
    const engineering = await ask(ws.token, "how many ppl in engineering");
    const sales = await ask(ws.token, "and sales?", engineering.conversation_id);
    expect(sales.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "department", op: "eq", value: "Sales" })]);
    expect((await ask(ws.token, "employees in engineering and sales")).reply.data.query.conditions).toEqual([
      expect.objectContaining({ field: "department", op: "in" }),
    ]);
    // "overdue invoices" → "and the paid ones?": the new state replaces overdue; "who's doing X" is X's assignee.
    const overdueFirst = await ask(ws.token, "overdue invoices");
    const paidOnes = await ask(ws.token, "and the paid ones?", overdueFirst.conversation_id);
    expect(paidOnes.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", value: "paid" })]);
    const doing = await ask(ws.token, "who's doing write copy?");
    expect(doing.reply.data.answer).toMatchObject({ ids: [task.id], field: "assignee_id" });
    // The details first, then the command in a sentence of its own: the command is made with them.
    await expectRequests(ws.token, [
      [
        "Aiko Tanaka, Nakatomi, aiko.tanaka@nakatomi.example, +81 3 5555 0101. can you save her as a contact",
        "POST",
        "/contacts",
        { name: "Aiko Tanaka", email: "aiko.tanaka@nakatomi.example", company: "Nakatomi" },
      ],
    ]);
  });

  it("finds the request in a message said with its context: a clause that commands, a pronoun for the name it opened with", async () => {
    const { ws, task, alan, grace, linus, candidate, acme, bigCo, website, invoice, sophie } = await company();
    await create(ws, "employees", { name: "Sam Coast", email: "sam@assist.co", branch: "San Francisco" });
    const cases: [string, string, string, Record<string, unknown>][] = [
      ["client found a bug in the copy — move Write copy in Website back to in progress", "PATCH", `/tasks/${task.id}`, { status: "in_progress" }],
      ["Joan Clarke passed the phone screen, move her to interview", "PATCH", `/candidates/${candidate.id}`, { stage: "interview" }],
      ["Joan Clarke didn't make it past screening, reject her", "PATCH", `/candidates/${candidate.id}`, { stage: "rejected" }],
      ["Ana Garcia is off sick so give her Write copy task in Website to Linus Torvalds", "PATCH", `/tasks/${task.id}`, { assignee_id: linus.id }],
      // An address no field of the call takes names the record; "the employee record for" names nothing.
      ["remove the contact alan@example.com, bounced twice", "DELETE", `/contacts/${alan.id}`, {}],
      ["delete the employee record for Grace Hopper, it was a test entry", "DELETE", `/employees/${grace.id}`, {}],
      // Whose, a field, then its value; a field's words, whose, then "to"; "link" through the reference that takes the name.
      ["acme's new VAT number is DE123456789", "PATCH", `/customers/${acme.id}`, { tax_id: "DE123456789" }],
      ["alan turing has a new email: alan@turing.example", "PATCH", `/contacts/${alan.id}`, { email: "alan@turing.example" }],
      ["change expected close on the Big Co deal to jan 15", "PATCH", `/deals/${bigCo.id}`, { expected_close_date: expect.stringMatching(/-01-15$/) }],
      ["attach the Big Co deal to the Acme customer record", "PATCH", `/deals/${bigCo.id}`, { customer_id: acme.id }],
      ["switch Acme to euro billing going forward", "PATCH", `/customers/${acme.id}`, { currency: "EUR" }],
      ["mark the Website project complete", "PATCH", `/projects/${website.id}`, { status: "completed" }],
      // ("to offer": a candidate's stage, not the quotes' noun.)
      ["move Joan Clarke to offer", "PATCH", `/candidates/${candidate.id}`, { stage: "offer" }],
      // Money said as news: a share of what is due, "sent … towards", "the rest".
      [`Acme paid half of ${invoice.number} today`, "POST", "/payments", { invoice_id: invoice.id, amount: 75_000 }],
      [`Acme sent 500 by card towards ${invoice.number}`, "POST", "/payments", { invoice_id: invoice.id, amount: 50_000, method: "card" }],
      [`${invoice.number} - acme wired the rest`, "POST", "/payments", { invoice_id: invoice.id, amount: 150_000, method: "bank_transfer" }],
      // Work started, finished, pushed on; where someone is now; a description given with a colon.
      ["starting on Write copy in Website, set it to in progress", "PATCH", `/tasks/${task.id}`, { status: "in_progress" }],
      ["ana garcia finished Write copy in Website", "PATCH", `/tasks/${task.id}`, { status: "done" }],
      ["push the Big Co deal to proposal and bump the value to 30k", "PATCH", `/deals/${bigCo.id}`, { stage: "proposal", value: 3_000_000 }],
      ["Sophie Brown is at Globex now, not Brightside", "PATCH", `/leads/${sophie.id}`, { company: "Globex" }],
      ["add a description to Website: the spring relaunch", "PATCH", `/projects/${website.id}`, { description: "the spring relaunch" }],
      ["unassign Write copy in Website, Ana is overloaded", "PATCH", `/tasks/${task.id}`, { assignee_id: null }],
      ["new contact at initech — Joanna Kim, joanna.kim@initech.example", "POST", "/contacts", { name: "Joanna Kim", company: "Initech" }],
      // Initials stand for the one value they begin: "in SF" is the branch San Francisco.
      ["add a job opening for a part-time bookkeeper in SF", "POST", "/job-openings", { branch: "San Francisco" }],
      ["Bob Stone came from the website, pls set the source", "PATCH", expect.stringMatching(/^\/leads\/\d+$/), { source: "website" }],
      // "it" is what the message opened with news of.
      ["Big Co signed!!! mark it won 🎉", "PATCH", `/deals/${bigCo.id}`, { stage: "won" }],
      // A line said as what it is for then its price; "net 15"; a country said "US based"; a proper name after "from".
      [
        "draft an invoice to Acme for the setup fee, 500 dollars, net 15",
        "POST",
        "/invoices",
        { customer_id: acme.id, items: [{ description: "Setup fee", quantity: 1, unit_amount: 50_000 }], currency: "USD", due_date: expect.any(String) },
      ],
      ["add customer Kestrel Aviation, accounts@kestrel.aero, US based", "POST", "/customers", { name: "Kestrel Aviation", billing: { country: "US" } }],
      [
        "add a lead: Priya Natarajan from Halcyon Foods, priya@halcyon.example, came in via linkedin",
        "POST",
        "/leads",
        { name: "Priya Natarajan", company: "Halcyon Foods", source: "linkedin" },
      ],
    ];
    await expectRequests(ws.token, cases);
    // An invoice told by its customer and its amount (a reminder only for what is owed); several left are offered.
    const second = await create(ws, "invoices", { customer_id: acme.id, currency: "USD", items: [{ description: "More", quantity: 1, unit_amount: 120000 }] });
    await call("POST", `/invoices/${second.id}/send`, { token: ws.token });
    const nudge = await requestOf(ws.token, (await ask(ws.token, "nudge Acme about the $1,200 invoice")).reply);
    expect(nudge).toMatchObject({ method: "POST", path: `/invoices/${second.id}/remind` });
    const which = await ask(ws.token, "remind acme about their invoice");
    expect(which.reply.intent).toBe("clarify");
    // Context, then the question in a sentence of its own: that sentence; "as lost, reason …" keeps the state.
    const collections = await ask(ws.token, "doing collections today and want to start with the worst ones first — which invoices are overdue?");
    expect(collections.reply.data.query.conditions).toEqual([expect.objectContaining({ param: "overdue" })]);
    const lostWithReason = await requestOf(ws.token, (await ask(ws.token, "please mark the Small Fry deal as lost, reason budget")).reply);
    expect(lostWithReason.body).toMatchObject({ stage: "lost", lost_reason: "budget" });
    // "the lost reason" is the field's words, no state.
    const reason = await requestOf(ws.token, (await ask(ws.token, "update the lost reason on Big Co to 'budget freeze'")).reply);
    expect(reason.body).toEqual({ lost_reason: "budget freeze" });
    // "the ship one" after a list with one such; "assign her the …" after a question about one person.
    const open = await ask(ws.token, "tasks in website");
    const shipIt = await requestOf(ws.token, (await ask(ws.token, "move the ship one to review", open.conversation_id)).reply);
    expect(shipIt).toMatchObject({ path: expect.stringMatching(/^\/tasks\/\d+/), body: { status: "review" } });
    const who = await ask(ws.token, "what is grace hopper's email");
    const given = await requestOf(ws.token, (await ask(ws.token, "assign her the Write copy task in website", who.conversation_id)).reply);
    expect(given).toMatchObject({ path: `/tasks/${task.id}`, body: { assignee_id: grace.id } });
    // Reminders to oneself, other sites, letters to write, other companies' figures: refused.
    for (const message of [
      "remind me to call my mom at 6",
      "can you log into acme's supplier portal and check our PO",
      "draft a termination letter for Ana Garcia",
      "what's the total market size for ERP consulting in Europe",
      "what's Acme's annual revenue? thinking of upselling them",
      "what do acme's competitors charge? want to make sure we're not too cheap",
    ])
      expect((await ask(ws.token, message)).reply.data, message).toMatchObject({ refused: true });
    // A clause that is neither a command nor a question is no request of its own.
    expect((await ask(ws.token, "order pizza for the team, 12 people")).reply.data?.answer).toBeUndefined();
  });

  it("keeps the words around a value with it: labels, brackets, 'worth about', a state's own noun, a bare company", async () => {
    const { ws, acme, website, ana } = await company();
    const cases: [string, string, Record<string, unknown>][] = [
      [
        "create a deal for Initech support renewal worth 12.5k in proposal stage",
        "/deals",
        { name: "Initech support renewal", value: 1_250_000, stage: "proposal" },
      ],
      [
        "add a lead: Omar Haddad, omar@northwind.example, Northwind, from linkedin, worth about $8k",
        "/leads",
        { name: "Omar Haddad", email: "omar@northwind.example", company: "Northwind", value: 800_000 },
      ],
      ["new contact: mei lin <mei@oscorp.example>", "/contacts", { name: "Mei Lin", email: "mei@oscorp.example" }],
      ["start a new project 'Q1 rebrand' for acme, kicks off 2026-12-07, ends 2027-03-31", "/projects", { customer_id: acme.id, start_date: "2026-12-07" }],
      [
        "onboard Nora Feld as a backend engineer in engineering, nora.feld@demo.example, starts 2026-12-01",
        "/employees",
        { name: "Nora Feld", designation: "Backend Engineer", department: "Engineering", date_of_joining: "2026-12-01" },
      ],
    ];
    // A noun, what it belongs to, a colon, then the title; a quoted note is that text alone.
    cases.push(
      [
        "task for Ana Garcia in Website: reconcile october payments, due 2026-12-30",
        "/tasks",
        { title: "Reconcile october payments", project_id: website.id, assignee_id: ana.id, due_date: "2026-12-30" },
      ],
      ["new candidate for the backend engineer job: Mia Chen, mia.chen@mail.example", "/candidates", { name: "Mia Chen", email: "mia.chen@mail.example" }],
      [
        "bill acme for 2 training sessions at 736 each, note 'thanks for your business'",
        "/invoices",
        { customer_id: acme.id, notes: "thanks for your business" },
      ],
    );
    for (const [message, path, body] of cases) {
      const request = await requestOf(ws.token, (await ask(ws.token, message)).reply);
      expect({ method: request.method, path: request.path }, message).toEqual({ method: "POST", path });
      expect(request.body, message).toMatchObject(body);
    }
    // The confirmation reads an invoice's lines as people write them.
    const billed = await ask(ws.token, "invoice acme for 2 training sessions at 736 each, 19% vat");
    expect(billed.reply.text).toContain("2 × Training session at 736.00 (19 % tax)");
    // The label is no name: the name is still missing.
    for (const message of ["create customer with phone +14155550188", "create lead lena@brightside.example, company Brightside, €12k potential"]) {
      expect((await ask(ws.token, message)).reply.data.missing, message).toEqual(["name"]);
    }
    for (const message of ["email a 20% discount promo to all our contacts", "book the big meeting room for 3pm"]) {
      const refused = await ask(ws.token, message);
      expect(refused.reply.action, message).toBeUndefined();
      expect(refused.reply.data?.refused, message).toBe(true);
    }
  });

  it("asks for a missing required field and fills it from the next message; never guesses an ambiguous target", async () => {
    const { ws, website } = await company();
    const noProject = await ask(ws.token, "create a task Call Acme");
    expect(noProject.reply.action).toBeUndefined();
    expect(noProject.reply.data.missing).toEqual(["project_id"]);
    expect(noProject.reply.text).toBe("To create the task Call Acme, I need which project. What is it?");
    const filled = await ask(ws.token, "website", noProject.conversation_id);
    expect(await requestOf(ws.token, filled.reply)).toMatchObject({ method: "POST", path: "/tasks", body: { title: "Call Acme", project_id: website.id } });
    const noEmail = await ask(ws.token, "new lead priya shah at northwind");
    expect(noEmail.reply.data.missing).toEqual(["email"]);
    const withEmail = await ask(ws.token, "priya@northwind.example", noEmail.conversation_id);
    expect(await requestOf(ws.token, withEmail.reply)).toMatchObject({ body: { name: "Priya Shah", company: "Northwind", email: "priya@northwind.example" } });
    const ambiguous = await ask(ws.token, "move deal Acme to won");
    expect(ambiguous.reply.action).toBeUndefined();
    expect(ambiguous.reply.intent).toBe("clarify");
  });

  it("are confirmed once through the REST write path (events included), re-checked, and expire", async () => {
    const { ws, website, task, bigCo } = await company();
    const proposed = await ask(ws.token, "create a task Call Acme in Website due Friday");
    const action = proposed.reply.action!;
    expect(action).toMatchObject({ kind: "create_task", id: expect.stringMatching(/^act_/) });
    expect(proposed.reply.text).toMatch(/^Create the task "Call Acme" \(due date \d{4}-\d{2}-\d{2}, project Website\)\. Confirm/);
    expect(Date.parse(action.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect((await call("GET", `/tasks?project_id=${website.id}&q=Call%20Acme`, { token: ws.token })).json.data).toEqual([]);
    const confirmed = await call("POST", `/assistant/actions/${action.id}/confirm`, { token: ws.token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data.result).toMatchObject({ title: "Call Acme", project_id: website.id, status: "todo" });
    expectError(await call("POST", `/assistant/actions/${action.id}/confirm`, { token: ws.token }), 409, "conflict");
    const done = await ask(ws.token, `mark task ${confirmed.json.data.result.id} done`);
    expect((await call("POST", `/assistant/actions/${done.reply.action!.id}/confirm`, { token: ws.token })).status).toBe(200);
    expect((await recordedEvents(ws.workspaceId, "task.completed")).map((e) => e.data.title)).toContain("Call Acme");

    // The record changed after the proposal: confirming refuses with the reason and writes nothing.
    const stale = await ask(ws.token, `mark task ${task.id} done`);
    expect((await call("PATCH", `/tasks/${task.id}`, { token: ws.token, body: { title: "Write better copy" } })).status).toBe(200);
    const refused = await call("POST", `/assistant/actions/${stale.reply.action!.id}/confirm`, { token: ws.token });
    expectError(refused, 409, "conflict");
    expect(refused.json.error.message).toMatch(/changed after this action was proposed/);
    expect((await call("GET", `/tasks/${task.id}`, { token: ws.token })).json.data.status).toBe("todo");

    const later = await ask(ws.token, `move deal ${bigCo.name} to won`);
    const now = Date.now();
    clock.now = () => now + 11 * 60_000;
    expectError(await call("POST", `/assistant/actions/${later.reply.action!.id}/confirm`, { token: ws.token }), 404, "not_found");
  });

  it("belong to the user who asked; a viewer is told and refused; a disabled package refuses", async () => {
    const { ws, task } = await company();
    const proposed = await ask(ws.token, `mark task ${task.id} done`);
    const member = await userWithRole(ws, "member");
    expectError(await call("POST", `/assistant/actions/${proposed.reply.action!.id}/confirm`, { token: member }), 404, "not_found");
    expectError(await call("POST", "/assistant/actions/act_doesnotexist/confirm", { token: ws.token }), 404, "not_found");
    const viewer = await userWithRole(ws, "viewer");
    const asViewer = await ask(viewer, `mark task ${task.id} done`);
    expect(asViewer.reply.text).toMatch(/you can't do this \(Your role \(viewer\) cannot write tasks/);
    expectError(await call("POST", `/assistant/actions/${asViewer.reply.action!.id}/confirm`, { token: viewer }), 403, "forbidden");
    expect((await call("GET", `/tasks/${task.id}`, { token: ws.token })).json.data.status).toBe("todo");
    const queued = await ask(ws.token, `mark task ${task.id} done`);
    await call("PUT", "/packages/timesheets", { token: ws.token, body: { enabled: false } });
    expect((await call("PUT", "/packages/taskly", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    expectError(await call("POST", `/assistant/actions/${queued.reply.action!.id}/confirm`, { token: ws.token }), 403, "package_disabled");
    expect((await ask(ws.token, `mark task ${task.id} done`)).reply.text).toBe(
      "The Projects package is disabled for this workspace, so I can't use its data. An admin can enable it under Packages.",
    );
  });
});

describe("conversations", () => {
  it("keep the asking user's messages; others get 404; bad messages get 400", async () => {
    const { ws } = await company();
    const first = await ask(ws.token, "overdue invoices");
    await ask(ws.token, "revenue this month", first.conversation_id);
    const read = await call("GET", `/assistant/conversations/${first.conversation_id}`, { token: ws.token });
    expect(read.status).toBe(200);
    expect(read.json.data.messages.map((message: { role: string; text: string }) => [message.role, message.text.split("\n")[0]])).toEqual([
      ["user", "overdue invoices"],
      ["assistant", "1 invoice (overdue, all time):"],
      ["user", "revenue this month"],
      ["assistant", expect.stringMatching(/^Revenue \(paid in [A-Z][a-z]+ \d{4}\): 34\.50 USD\.$/)],
    ]);
    expect(read.json.data.messages[1].reply.records).toHaveLength(1);
    const member = await userWithRole(ws, "member");
    expectError(await call("GET", `/assistant/conversations/${first.conversation_id}`, { token: member }), 404, "not_found");
    expectError(
      await call("POST", "/assistant/messages", { token: member, body: { message: "hello", conversation_id: first.conversation_id } }),
      404,
      "not_found",
    );
    expectError(
      await call("POST", "/assistant/messages", { token: ws.token, body: { message: "and last month?", conversation_id: "conv_nope" } }),
      404,
      "not_found",
    );
    expectError(await call("GET", "/assistant/conversations/conv_nope", { token: ws.token }), 404, "not_found");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: { message: "   " } }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: { message: "x".repeat(2001) } }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { token: ws.token, body: {} }), 400, "validation_error");
    expectError(await call("POST", "/assistant/messages", { body: { message: "hi" } }), 401, "unauthorized");
  });

  it("help, greetings and dashboard metrics stay answered", async () => {
    const { ws } = await company();
    expect((await ask(ws.token, "what can you do?")).reply.intent).toBe("help");
    const visitors = await ask(ws.token, "visitors this week");
    expect(visitors.reply).toMatchObject({ intent: "metric", data: { widget: "analytics.visitors" } });
    // The win rate is the deals closed in the period, won against lost: the counts behind it, and the rate said.
    const sales = await company();
    await call("PATCH", `/deals/${sales.bigCo.id}`, { token: sales.ws.token, body: { stage: "won" } });
    await call("PATCH", `/deals/${sales.smallFry.id}`, { token: sales.ws.token, body: { stage: "lost" } });
    const winRate = await ask(sales.ws.token, "win rate this quarter");
    expect(winRate.reply).toMatchObject({ intent: "metric", data: { answer: { kind: "groups", group_by: "status" } } });
    expect(winRate.reply.text).toMatch(/^Win rate \(from .+\): 50% — 1 won, 1 lost\.$/);
  });

  it("answers a list question in few D1 round trips", async () => {
    const { ws } = await company();
    const { countingDatabases } = await import("./helpers");
    const counting = countingDatabases();
    await fetchWith(counting.bindings, "GET", "/me", { token: ws.token });
    counting.reset();
    expect((await fetchWith(counting.bindings, "POST", "/assistant/messages", { token: ws.token, body: { message: "overdue invoices" } })).status).toBe(200);
    // The list page and the conversation's writes: two round trips.
    expect(counting.calls()).toBe(2);
  });
});

describe("the optional Workers AI planner", () => {
  it("maps a model's tool call onto the same tools, validated (a stand-in binding: Workers AI cannot run offline)", async () => {
    const { ws } = await company();
    const standIn = (toolCall: unknown) => ({ run: vi.fn(async () => ({ tool_calls: [toolCall] })) });
    const ai = standIn({ name: "list_records", arguments: JSON.stringify({ resource: "invoices", filters: { overdue: "true" } }) });
    expect(await planWithModel(ai, "@hf/test-model", skills(platform.registry), "what is late?", "2026-11-22")).toEqual({
      intent: "list",
      resource: "invoices",
      query: { overdue: "true" },
      refs: {},
      conditions: [],
    });
    expect(
      await planWithModel(standIn({ name: "list_records", arguments: { resource: "secrets" } }), "m", skills(platform.registry), "x", "2026-11-22"),
    ).toBeNull();
    expect(await planWithModel(standIn({ name: "drop_tables", arguments: {} }), "m", skills(platform.registry), "x", "2026-11-22")).toBeNull();
    // Wired into the route: what the built-in engine does not read, the model's plan answers through the same tools.
    const res = await fetchWith(
      { AI: standIn({ name: "get_metric", arguments: { widget: "account.outstanding" } }), ASSISTANT_MODEL: "@hf/test-model" },
      "POST",
      "/assistant/messages",
      { token: ws.token, body: { message: "anything" } },
    );
    expect(res.json.data.reply.text).toBe("Outstanding: 1,500.00 USD.");
  });
});
