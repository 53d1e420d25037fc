import { describe, expect, it } from "vitest";
import { ask, company, type Reply, requestOf, sentInvoice, today } from "./assistant-fixture";
import { call, create, noOutboundCalls, signup } from "./helpers";

noOutboundCalls();

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
    expect((await ask(ws.token, "sales mgrs in SF?")).reply.data.answer).toMatchObject({ resource: "employees", ids: [seller.id] });
    // A short word after a first name is a surname, not a slip for a word of the schema ("boyd" is no "body").
    await create(ws, "employees", { name: "Carl Sagan", email: "carl@assist.co", department: "Marketing", date_of_joining: "2025-01-01" });
    const boyd = await create(ws, "contacts", { name: "Carl Boyd", email: "carl@boyd.example" });
    const emailOf = await ask(ws.token, "whats the email for carl boyd");
    expect(emailOf.reply.data.answer, emailOf.reply.text).toMatchObject({ resource: "contacts", ids: [boyd.id] });
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
    const second = await sentInvoice(ws, {
      customer_id: acme.id,
      currency: "USD",
      issue_date: "2026-01-06",
      due_date: "2026-02-06",
      items: [{ description: "More work", quantity: 1, unit_amount: 200_000 }],
    });
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
    // "who has the most overdue invoices": the party with the most of them, one winner; "which source gives us the
    // most …" is one winner too.
    const mostOverdue = await ask(ws.token, "who has the most overdue invoices");
    expect(mostOverdue.reply.data.query.aggregate).toMatchObject({ fn: "count", groupBy: "customer_id", order: "desc", limit: 1 });
    await create(ws, "leads", { name: "Cal Vee", email: "cal@lead.example", source: "website", status: "converted" });
    const source = await ask(ws.token, "which source gives us the most converted leads");
    expect(source.reply.data.answer).toMatchObject({ group_by: "source", groups: [{ key: "website", value: 1 }] });
    expect(source.reply.data.answer.groups).toHaveLength(1);
    // "supposed to close this month" is the expected date of open deals; "going on" is open.
    const closing = await ask(ws.token, "which deals are supposed to close this month");
    expect(closing.reply.data.query.period.field).toBe("expected_close_date");
    const going = await ask(ws.token, "any deals with acme going on?");
    expect(going.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ label: "open" })]));
  });

  it("reads an invoice's lines, whom it went to, what has not gone out, and 'neither … nor', 'non-X staff', 'nobody has touched'", async () => {
    const { ws, invoice, acme, task, website } = await company();
    const lines = await ask(ws.token, `what was on ${invoice.number}`);
    expect(lines.reply.data.answer).toMatchObject({ ids: [invoice.id], field: "items" });
    expect(lines.reply.text).toContain("1 × Work at 1,534.50");
    const sent = await ask(ws.token, `who did ${invoice.number} get emailed to?`);
    expect(sent.reply.text).toContain("was sent to ap@acme.example");
    const draft = await create(ws, "invoices", { customer_id: acme.id, currency: "USD", items: [{ description: "Big", quantity: 1, unit_amount: 2_000_000 }] });
    const notOut = await ask(ws.token, "any invoice above $10k that hasnt gone out yet?");
    expect(notOut.reply.data.answer.ids).toEqual([draft.id]);
    expect((await ask(ws.token, "what currency do we bill acme in")).reply.text).toContain("USD");
    const review = await create(ws, "tasks", { title: "Check copy", project_id: website.id, status: "review" });
    const neither = await ask(ws.token, "website tasks that are neither done nor in review");
    expect(neither.reply.data.answer.ids).toEqual([task.id]);
    expect(neither.reply.data.answer.ids).not.toContain(review.id);
    const staff = await ask(ws.token, "non-engineering staff");
    expect(staff.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "department", op: "ne" })]);
    const untouched = await ask(ws.token, "leads nobody has touched yet");
    expect(untouched.reply.data.query.conditions).toEqual([expect.objectContaining({ label: "not contacted yet" })]);
    // "fell overdue this month" is overdue and due this month; "collected" is money received; "supposed to close"
    // is the expected date, "close" alone the closing one.
    const fell = await ask(ws.token, "which invoices fell overdue this month");
    expect(fell.reply.data.query.conditions).toEqual([expect.objectContaining({ param: "overdue" })]);
    expect(fell.reply.data.query.period).toMatchObject({ field: "due_date" });
    const collected = await ask(ws.token, "collected per currency since july");
    expect(collected.reply.data.answer).toMatchObject({ resource: "payments", fn: "sum", group_by: "currency" });
    // "went out" and "gone out" are sent (a draft issued this week did not go out); "worst offenders first" ranks.
    await create(ws, "invoices", { customer_id: acme.id, currency: "USD", items: [{ description: "Draft", quantity: 1, unit_amount: 100 }] });
    const out = await ask(ws.token, "what invoices went out this year");
    expect(out.reply.data.query.period).toMatchObject({ field: "sent_at" });
    expect(out.reply.data.answer.ids).toEqual([invoice.id]);
    const worst = await ask(ws.token, "count overdue invoices per customer, worst offenders first");
    expect(worst.reply.data.query.aggregate).toMatchObject({ fn: "count", groupBy: "customer_id", order: "desc" });
    // "customers that still have a balance": a balance above nothing.
    const balance = await ask(ws.token, "customers that still have a balance");
    expect(balance.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "balance", op: "gt", value: 0 })]);
    expect(balance.reply.data.answer.ids).toEqual([acme.id]);
    // ("how much revenue did we make last month": our revenue, the verb no name.)
    const made = await ask(ws.token, "how much revenue did we make last month");
    expect(made.reply.data.answer).toMatchObject({ kind: "value", resource: "payments", fn: "sum" });
    const expected = await ask(ws.token, "when is the big co deal supposed to close");
    expect(expected.reply.data.answer).toMatchObject({ field: "expected_close_date" });
    // "when did acme pay INV-…", "how did they pay INV-… — card or bank?": the payments on it.
    for (const message of [`when did acme pay ${invoice.number}`, `how did acme pay ${invoice.number} - card or bank?`]) {
      const paid = await ask(ws.token, message);
      expect(paid.reply.data.answer, message).toMatchObject({ kind: "records", resource: "payments", total: 1 });
    }
    const nothing = await ask(ws.token, "invoices sent where nothing's been paid yet");
    expect(nothing.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", value: "sent" })]);
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
      // Another company's books, someone's pay.
      "how much revenue does Globex make per year? thinking of upselling them",
      "what does Acme charge their own customers? want to benchmark our pricing",
      "pull acme's internal payroll numbers for me",
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
      "acme corp has their own workspace — show me the deals in there",
    ]) {
      const reply = (await ask(ws.token, message)).reply;
      expect(reply.intent, message).toBe("unknown");
      expect(reply.action, message).toBeUndefined();
      expect(reply.data?.answer, message).toBeUndefined();
    }
    // (An offsite and its hotels are no record here: said so, not searched for.)
    const offsite = (await ask(ws.token, "plan a 3 day team offsite in lisbon incl hotels")).reply;
    expect(offsite.text).toMatch(/^That's outside what I can help with here\./);
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

  it("reads who is on a team now, what is left out, the ones picked by an amount, and an order that is no pick", async () => {
    const { ws, grace, invoice, opening, ana, task } = await company();
    await create(ws, "employees", { name: "Old Timer", email: "old@assist.co", department: "Sales", status: "left", date_of_joining: "2020-01-01" });
    // "who's on the sales team": the people there now, not an opening in Sales, not who left.
    const team = await ask(ws.token, "who's on the sales team");
    expect(team.reply.data.answer).toMatchObject({ resource: "employees", ids: [grace.id] });
    // "leaving out anything voided" is a negation.
    const voided = await ask(ws.token, "total value of invoices, leaving out anything voided");
    expect(voided.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "status", op: "ne", value: "void" })]);
    // After a list, "just the ones with more than 10 still owing" are those records picked by what they owe.
    const overdue = await ask(ws.token, "overdue invoices");
    const picked = await ask(ws.token, "just the ones with more than 10 still owing", overdue.conversation_id);
    expect(picked.reply.data.answer).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    expect(picked.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ param: "overdue" })]));
    // "who did we send INV-… to": the address it went to.
    const sent = await ask(ws.token, `who did we send ${invoice.number} to`);
    expect(sent.reply.text).toBe(`${invoice.number} (1,534.50 USD) was sent to ap@acme.example.`);
    // "X by number of Y": the Xs ranked by how many Ys they have.
    const ranked = await ask(ws.token, "top 3 openings by number of candidates");
    expect(ranked.reply.data.answer).toMatchObject({ kind: "groups", fn: "count", group_by: "job_opening_id" });
    expect(ranked.reply.data.query.aggregate).toMatchObject({ order: "desc", limit: 3 });
    expect(ranked.reply.data.answer.groups).toEqual([expect.objectContaining({ key: opening.id, value: 1 })]);
    // "most valuable", and "i mean …" is what is meant again, not an average.
    const valuable = await ask(ws.token, "most valuable open leads - i mean new, contacted or qualified");
    expect(valuable.reply.data.query).toMatchObject({ resource: "leads", aggregate: { fn: "list", field: "value", order: "desc" } });
    // What someone still has open is their tasks; "soonest due first" orders them all, the undated last.
    const undated = await create(ws, "tasks", { title: "Someday", project_id: task.project_id, assignee_id: ana.id });
    const open = await ask(ws.token, "what does Ana Garcia still have open, soonest due first");
    expect(open.reply.data.answer).toMatchObject({ kind: "records", resource: "tasks", ids: [task.id, undated.id] });
    expect(open.reply.data.query.aggregate).toMatchObject({ field: "due_date", order: "asc", limit: null });
    expect(open.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "assignee_id", value: ana.id })]));
  });

  it("lets 'the first one' pick a group's record, and asks a field of the record named with its noun", async () => {
    const { ws, acme } = await company();
    // Groups by a reference are records: "the first one" is the first group's customer ("unpaid balance" is what is owed).
    const top = await ask(ws.token, "top 5 custmers by unpaid balance pls");
    expect(top.reply.data.answer).toMatchObject({ kind: "groups", fn: "sum", field: "amount_due", group_by: "customer_id" });
    expect(top.reply.records).toEqual([{ resource: "customers", id: acme.id, label: "Acme" }]);
    const email = await ask(ws.token, "whats the billing email of the first one", top.conversation_id);
    expect(email.reply.text).toBe("The email of Acme is ap@acme.example.");
    // After a list of invoices, a field invoices lack, asked of "the customer X", is the customer's.
    const open = await ask(ws.token, "unpaid invoices");
    const field = await ask(ws.token, "whats the email for the customer Acme", open.conversation_id);
    expect(field.reply.data.answer).toMatchObject({ kind: "records", resource: "customers", ids: [acme.id], field: "email" });
    // "customers with an open balance" are those who owe us.
    expect((await ask(ws.token, "customers with an open balance")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "customer_id" });
  });

  it("follows 'her'/'his' to the person the last answer named, 'right now' to no period, and reads everyday shorthand", async () => {
    const { ws, acme, ana, bigCo } = await company();
    // "her email" after an answer that named Ana as the assignee: Ana's; "the contact on it": the deal's contact.
    const who = await ask(ws.token, "who is on the write copy task in website");
    expect(who.reply.text).toContain("Ana Garcia");
    const email = await ask(ws.token, "whats her email", who.conversation_id);
    expect(email.reply.data.answer).toMatchObject({ resource: "employees", ids: [ana.id], field: "email" });
    const stage = await ask(ws.token, "what stage is the big co deal in");
    const contact = await ask(ws.token, "and who's the contact on it", stage.conversation_id);
    expect(contact.reply.data.answer).toMatchObject({ resource: "deals", ids: [bigCo.id], field: "contact_id" });
    // "right now" drops the last question's period.
    const done = await ask(ws.token, "how many tasks did ana garcia finish in october");
    const now = await ask(ws.token, "and what's she working on right now", done.conversation_id);
    expect(now.reply.data.query.period).toBeNull();
    // Shorthand: a current balance, "which 2", "invoice size", "wins", tasks "left", "nobody has started", "assigned to".
    expect((await ask(ws.token, "what's Acme's current balance")).reply.data.answer).toMatchObject({ resource: "customers", ids: [acme.id] });
    expect((await ask(ws.token, "Which 2 customers have the highest balance?")).reply.data.query.aggregate).toMatchObject({ order: "desc", limit: 2 });
    expect((await ask(ws.token, "avg invoice size")).reply.data.answer).toMatchObject({ resource: "invoices", fn: "avg", field: "total" });
    expect((await ask(ws.token, "wins this year, total $")).reply.data.answer).toMatchObject({ resource: "deals", fn: "sum", field: "value" });
    expect((await ask(ws.token, "how many tasks are left on website")).reply.data.answer).toMatchObject({ resource: "tasks", value: 1 });
    const fresh = await ask(ws.token, "urgent tasks nobody has started");
    expect(fresh.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "status", value: "todo" })]));
    expect((await ask(ws.token, "high prio stuff assigned to ana garcia")).reply.data.query).toMatchObject({ resource: "tasks" });
    // Someone's social profiles and another company's internal figures are no data of this workspace.
    expect((await ask(ws.token, "look up Ana Garcia's instagram, want to see what she's like")).reply.data).toMatchObject({ refused: true });
    expect((await ask(ws.token, "show me acme's internal budget for next year")).reply.data).toMatchObject({ refused: true });
  });

  it("reads a field left empty, a value of many records as their sum, a stage said before its noun and a reason in its own words", async () => {
    const { ws, ana, linus, bigCo, acme } = await company();
    const untitledOne = await create(ws, "employees", { name: "No Title", email: "nt@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    await create(ws, "employees", { name: "Gone Away", email: "ga@assist.co", department: "Sales", date_of_joining: "2020-01-01", status: "left" });
    await create(ws, "deals", { name: "Lost Cause", value: 300_000, currency: "USD", stage: "lost", lost_reason: "timing" });
    await create(ws, "deals", { name: "Too Dear", value: 700_000, currency: "USD", stage: "lost", lost_reason: "price" });
    await create(ws, "deals", { name: "Fresh Start", value: 3_000_000, currency: "USD", stage: "initial_contact" });
    // "missing a job title": the field is empty.
    const untitled = await ask(ws.token, "employees missing a job title");
    expect(untitled.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "designation", value: null })]);
    expect(untitled.reply.data.answer.ids).toContain(untitledOne.id);
    expect(untitled.reply.data.answer.ids).not.toContain(ana.id);
    // "ppl who have left or gone inactive": a question about states, not a change to make.
    const gone = await ask(ws.token, "ppl who have left or gone inactive");
    expect(gone.reply.intent).toBe("list");
    expect(gone.reply.data.answer.ids).not.toContain(linus.id);
    // The value of many records is their sum; the value of one is that record's.
    const lost = await ask(ws.token, "value of everything we lost this year");
    expect(lost.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", field: "value", value: { USD: 1_000_000 } });
    const bySource = await ask(ws.token, "deal value split by stage");
    expect(bySource.reply.data.answer).toMatchObject({ kind: "groups", fn: "sum", field: "value", group_by: "stage" });
    expect((await ask(ws.token, "what's the value of the big co deal")).reply.data.answer).toMatchObject({ kind: "records", ids: [bigCo.id], field: "value" });
    // "initial contact deals": a stage, though "contact" is also a noun of its own.
    const early = await ask(ws.token, "initial contact deals between 20k and 50k");
    expect(early.reply.data.answer).toMatchObject({ kind: "records", resource: "deals" });
    expect(early.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "stage", value: "initial_contact" })]));
    // A lost reason said in the workspace's own vocabulary ("bad timing", "too expensive").
    const timing = await ask(ws.token, "total value lost to bad timing");
    expect(timing.reply.data.answer).toMatchObject({ kind: "value", value: { USD: 300_000 } });
    const dear = await ask(ws.token, "deals we lost because they were too expensive");
    expect(dear.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "lost_reason", value: "price" })]));
    // "outside the states" is outside the US; a field's word in the plural; "wat" is "what".
    await create(ws, "customers", { name: "Yankee Co", currency: "USD", billing: { country: "US" } });
    const abroad = await ask(ws.token, "dollar customers based outside the states");
    expect(abroad.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ param: "country", value: "US", negate: true })]));
    expect((await ask(ws.token, "sum of customer balances, usd only")).reply.data.answer).toMatchObject({ kind: "value", fn: "sum", field: "balance" });
    expect((await ask(ws.token, "wat is acme's email")).reply.data.answer).toMatchObject({ ids: [acme.id], field: "email" });
  });

  it("reads how an invoice was paid, whether it is, sums said as 'lifetime', both sides of 'vs' and an owner nobody is", async () => {
    const { ws, invoice } = await company();
    // (The company's invoice is sent, with 34.50 paid on it already.)
    for (const [amount, method] of [
      [10_000, "card"],
      [5_000, "cash"],
      [2_000, "bank_transfer"],
    ] as const)
      expect((await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoice.id, amount, method } })).status).toBe(201);
    // "how was INV-… paid": the payments on it; "is INV-… paid": its state.
    const how = await ask(ws.token, `how was ${invoice.number} paid`);
    expect(how.reply.data.answer).toMatchObject({ kind: "records", resource: "payments", total: 4 });
    const state = await ask(ws.token, `is ${invoice.number} paid`);
    expect(state.reply.data.answer).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id], field: "status" });
    // "lifetime payments from X" adds them up; "card vs cash … how many of each" counts those two only.
    const lifetime = await ask(ws.token, "lifetime payments from acme");
    expect(lifetime.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", value: { USD: 20_450 } });
    const versus = await ask(ws.token, "card vs cash payments, how many of each");
    expect(versus.reply.data.answer.groups.map((group: { key: string }) => group.key).sort()).toEqual(["card", "cash"]);
    // "the average payment from our dollar customers": payments in that currency.
    const average = await ask(ws.token, "whats the average payment we get from our dollar customers");
    expect(average.reply.data.answer).toMatchObject({ kind: "value", fn: "avg", resource: "payments" });
    // "tasks nobody owns atm": unassigned, now; "acme's invoice history": their invoices.
    const unowned = await ask(ws.token, "tasks nobody owns atm");
    expect(unowned.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "assignee_id", value: null })]);
    const history = await ask(ws.token, "acme's invoice hisotry");
    expect(history.reply.data.answer).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    // "email for tim at massive": of the Tims, those at Massive are offered; a surname then picks one.
    const [, keller] = [
      await create(ws, "contacts", { name: "Tim Clarke", email: "tc@massive.example", company: "Massive" }),
      await create(ws, "contacts", { name: "Tim Keller", email: "tk@massive.example", company: "Massive" }),
      await create(ws, "contacts", { name: "Tim Other", email: "to@other.example", company: "Other" }),
    ];
    const tims = await ask(ws.token, "email for tim at massive");
    expect(tims.reply.intent).toBe("clarify");
    expect(tims.reply.data.choose.options.map((option: { label: string }) => option.label)).toEqual(["Tim Clarke", "Tim Keller"]);
    const picked = await ask(ws.token, "keller", tims.conversation_id);
    expect(picked.reply.data.answer).toMatchObject({ resource: "contacts", ids: [keller!.id], field: "email" });
    // A list of names is any of them; "USD vs EUR" and "won vs lost" are both sides, side by side; "did X ever pay
    // INV-…" asks its state.
    const globex = await create(ws, "customers", { name: "Globex", email: "ap@globex.example", currency: "EUR" });
    const euro = await create(ws, "invoices", { customer_id: globex.id, currency: "EUR", items: [{ description: "Work", quantity: 1, unit_amount: 9_000 }] });
    const listed = await ask(ws.token, "invoices for acme, globex");
    expect(listed.reply.data.answer.ids.sort()).toEqual([invoice.id, euro.id].sort());
    const currencies = await ask(ws.token, "how much did we bill in USD vs EUR");
    expect(currencies.reply.data.answer).toMatchObject({ kind: "groups", group_by: "currency" });
    expect(currencies.reply.data.answer.groups).toHaveLength(2);
    const stages = await ask(ws.token, "won vs lost, count each");
    expect(stages.reply.data.query).toMatchObject({ resource: "deals", aggregate: { fn: "count", groupBy: "stage" } });
    const ever = await ask(ws.token, `did acme ever pay ${invoice.number}?`);
    expect(ever.reply.data.answer).toMatchObject({ resource: "invoices", ids: [invoice.id], field: "status" });
    // "how much has X paid on INV-… so far": the invoice's own paid figure; "how much of it is still due" is not that.
    const soFar = await ask(ws.token, `how much has acme paid on ${invoice.number} so far`);
    expect(soFar.reply.data.answer).toMatchObject({ resource: "invoices", ids: [invoice.id], field: "amount_paid" });
    const due = await ask(ws.token, `how much of ${invoice.number} is still due`);
    expect(due.reply.data.answer).toMatchObject({ resource: "invoices", ids: [invoice.id], field: "amount_due" });
    // A first name said the short way ("kathy" for Katherine).
    const kathy = await create(ws, "employees", { name: "Katherine Conway", email: "kc@assist.co", department: "Sales", date_of_joining: "2026-06-02" });
    expect((await ask(ws.token, "when did kathy conway start")).reply.data.answer).toMatchObject({ ids: [kathy.id], field: "date_of_joining" });
    // "drafts sitting there for more than 2 weeks" are older than that; code and health are no work of this workspace.
    const stale = await ask(ws.token, "drafts that have been sitting there for more than 2 weeks");
    expect(stale.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "created_at", op: "lt" })]));
    // A task named with its project in brackets; "that isnt finished" is a task's state.
    const other = await create(ws, "projects", { name: "Intranet" });
    const twin = await create(ws, "tasks", { title: "Write copy", project_id: other.id, due_date: "2026-12-01" });
    const bracketed = await ask(ws.token, "due date for write copy (intranet)?");
    expect(bracketed.reply.data.answer).toMatchObject({ resource: "tasks", ids: [twin.id], field: "due_date" });
    const unfinished = await ask(ws.token, "what's due in the next 3 days that isnt finished");
    expect(unfinished.reply.data.query).toMatchObject({ resource: "tasks" });
    expect((await ask(ws.token, "help me fix this python error: KeyError: 'id'")).reply.data).toMatchObject({ refused: true });
    expect((await ask(ws.token, "my back hurts from sitting all day, what should i take for it")).reply.data).toMatchObject({ refused: true });
  });
  it("lists customers who still owe, reads an invoice number said in lower case, and a candidate by the hiring pipeline", async () => {
    const { ws, acme, invoice, opening } = await company();
    const berlin = await create(ws, "customers", { name: "Kessler GmbH", email: "ap@kessler.example", currency: "EUR", billing: { country: "DE" } });
    await create(ws, "customers", { name: "Paid Up GmbH", currency: "EUR", billing: { country: "DE" } });
    await sentInvoice(ws, {
      customer_id: berlin.id,
      currency: "EUR",
      issue_date: "2026-01-05",
      due_date: "2026-02-05",
      items: [{ description: "Work", quantity: 1, unit_amount: 50_000 }],
    });
    // "which german customers still owe us money": the customers, listed (a ranking is asked with "the most").
    const german = await ask(ws.token, "which german custmers still owe us money");
    expect(german.reply.data.query).toMatchObject({ resource: "customers" });
    expect(german.reply.data.answer.ids).toEqual([berlin.id]);
    expect((await ask(ws.token, "which customers owe us the most")).reply.data.answer).toMatchObject({ kind: "groups", group_by: "customer_id" });
    // "inv 1 - has it been paid?": the invoice's state, however its number is typed.
    const state = await ask(
      ws.token,
      `${invoice.number
        .toLowerCase()
        .replace("-0", " ")
        .replace(/^inv 0*/, "inv ")} - has it been paid?`,
    );
    expect(state.reply.data.answer).toMatchObject({ resource: "invoices", ids: [invoice.id], field: "status" });
    // "where's joan at in the hiring pipeline": a candidate's stage, asked among candidates only.
    await create(ws, "employees", { name: "Joan Smith", email: "js@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    await create(ws, "candidates", { job_opening_id: opening.id, name: "Joan Wilson", email: "jw@mail.example" });
    const pipeline = await ask(ws.token, "where's joan at in the hiring pipeline");
    expect(pipeline.reply.intent, pipeline.reply.text).toBe("clarify");
    expect(pipeline.reply.records?.every((record) => record.resource === "candidates")).toBe(true);
    expect(acme.id).toBeGreaterThan(0);
  });
  it("reads asides and everyday words around a question: a meeting's time, why it is asked, 'i mean', 'compare to'", async () => {
    const { ws } = await company();
    const late = await ask(ws.token, "which open deals have blown through their close date");
    expect(late.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "expected_close_date", op: "lt" })]));
    const perStage = await ask(ws.token, "could you give me a quick count of candidates per stage, prepping for the hiring sync");
    expect(perStage.reply.data.answer).toMatchObject({ kind: "groups", resource: "candidates", group_by: "stage" });
    expect((await ask(ws.token, "did any money land today?")).reply.data.query).toMatchObject({ resource: "payments", period: { field: "paid_at" } });
    const pile = await ask(ws.token, "which person has the biggest pile of unfinished tasks");
    expect(pile.reply.data.answer).toMatchObject({ kind: "groups", resource: "tasks", group_by: "assignee_id" });
    expect((await ask(ws.token, "anything paused? projects on hold i mean")).reply.data.answer).toMatchObject({ kind: "records", resource: "projects" });
    const billable = await ask(ws.token, "this month, how does billable time compare to non-billable");
    expect(billable.reply.data.answer).toMatchObject({ kind: "groups", group_by: "billable" });
    const leads = await ask(ws.token, "sales meeting in 10 min — what are the top 5 open leads by value?");
    expect(leads.reply.data.query).toMatchObject({ resource: "leads", period: null, aggregate: { order: "desc", limit: 5 } });
  });
  it("reads tax as the invoices' tax, '+' between states, a ranking asked as 'rank', 'where are we with' and 'that month'", async () => {
    const { ws } = await company();
    const tax = await ask(ws.token, "q3 vat collected on our invoices?");
    expect(tax.reply.data.answer).toMatchObject({ kind: "value", resource: "invoices", fn: "sum", field: "tax_total" });
    const both = await ask(ws.token, "average invoice for our usd clients? ignore drafts + void");
    expect(both.reply.data.query.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "status", op: "ne", value: "draft" }),
        expect.objectContaining({ field: "status", op: "ne", value: "void" }),
      ]),
    );
    const ranked = await ask(ws.token, "can u rank customers by how much they still owe us, top 5");
    expect(ranked.reply.data.answer).toMatchObject({ kind: "groups", group_by: "customer_id" });
    expect(ranked.reply.data.query.aggregate).toMatchObject({ limit: 5 });
    expect((await ask(ws.token, "where are we with the website project")).reply.data.answer).toMatchObject({ resource: "projects", field: "status" });
    const month = await ask(ws.token, "accountant wants october numbers - how much did we bill that month?");
    expect(month.reply.data.query.period).toMatchObject({ field: "issue_date" });
    expect(month.reply.data.query.period.from).toMatch(/-10-01$/);
  });
  it("reads what is open or due on a project as its tasks, and a question after why it is asked", async () => {
    const { ws, ada, website } = await company();
    const open = await ask(ws.token, "whats still open on the website project");
    expect(open.reply.data.query).toMatchObject({ resource: "tasks" });
    expect(open.reply.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "project_id", value: website.id })]));
    const due = await ask(ws.token, "anything due next week on the website project?");
    expect(due.reply.data.query).toMatchObject({ resource: "tasks", period: { field: "due_date" } });
    const phone = await ask(ws.token, "need to send the contract to ada lovelace, whats her phone again?");
    expect(phone.reply.data.answer).toMatchObject({ resource: "contacts", ids: [ada.id], field: "phone" });
    // (Money still owed on invoices stays about invoices: "anything due this week we havent been paid for yet?".)
    expect((await ask(ws.token, "anything due this week we havent been paid for yet?")).reply.data.query).toMatchObject({ resource: "invoices" });
  });
  it("narrows the last answer with 'exclude anything in X', 'drop any that we lost', leaves 'won/lost' out of a breakdown, and reads 'over at X'", async () => {
    const { ws, website, ada, east, west } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet" });
    await create(ws, "tasks", { title: "Fix menu", project_id: intranet.id, priority: "urgent" });
    await create(ws, "tasks", { title: "Fix footer", project_id: website.id, priority: "urgent" });
    const urgent = await ask(ws.token, "unfinished urgent tasks");
    const narrowed = await ask(ws.token, "exclude anything in the Intranet project", urgent.conversation_id);
    expect(narrowed.reply.data.query.conditions).toContainEqual(expect.objectContaining({ field: "project_id", op: "ne", value: intranet.id }));
    expect(narrowed.reply.data.query.conditions).toContainEqual(expect.objectContaining({ field: "priority", value: "urgent" }));
    await call("PATCH", `/deals/${east.id}`, { token: ws.token, body: { stage: "lost", lost_reason: "price" } });
    const acme = await ask(ws.token, "show me the Acme deals");
    const kept = await ask(ws.token, "drop any that we lost", acme.conversation_id);
    expect(kept.reply.data.answer.ids).toEqual([west.id]);
    const total = await ask(ws.token, "how much are they worth together", kept.conversation_id);
    expect(total.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", value: { USD: 120_000 } });
    const open = await ask(ws.token, "how many deals in each stage, excluding won/lost");
    expect(open.reply.data.query.aggregate.groupBy).toBe("stage");
    expect(open.reply.data.answer.groups.map((group: { key: string }) => group.key)).not.toContain("lost");
    // ("closed this month, won or lost": both, no filter at all.)
    expect((await ask(ws.token, "deals closed this month, won or lost")).reply.data.query.conditions).toEqual([]);
    const there = await ask(ws.token, "who are our contacts over at Analytical Engines?");
    expect(there.reply.data.answer).toMatchObject({ kind: "records", resource: "contacts", ids: [ada.id] });
  });
  it("reads 'which are still outstanding' as the records, and 'which past due inv has the largest amount owing' as the one ranked by what is due", async () => {
    const { ws } = await company();
    const which = await ask(ws.token, "Of the invoices we raised this year, which are still outstanding?");
    expect(which.reply.data.query.aggregate.fn).toBe("list");
    expect(which.reply.data.answer.kind).toBe("records");
    const largest = await ask(ws.token, "which past due inv has the largest amount owing");
    expect(largest.reply.data.query.aggregate).toMatchObject({ fn: "list", field: "amount_due", order: "desc", limit: 1 });
    // ("how much is still outstanding" is still the sum.)
    expect((await ask(ws.token, "how much is still outstanding")).reply.data.query.aggregate.fn).toBe("sum");
  });
  it("reads 'what did we receive in payments last week' and 'how much did we receive from X' as the money that came in", async () => {
    const { ws, acme } = await company();
    const week = await ask(ws.token, "What did we receive in payments last week?");
    expect(week.reply.data.query).toMatchObject({ resource: "payments", aggregate: { fn: "sum", field: "amount" }, period: { field: "paid_at" } });
    const from = await ask(ws.token, "how much did we receive from Acme last month");
    expect(from.reply.data.query).toMatchObject({ resource: "payments", aggregate: { fn: "sum" }, period: { field: "paid_at" } });
    expect(JSON.stringify(from.reply.data.query.conditions)).toContain(`${acme.id}`);
    // Records described, then what happened to them: which ones, not what they add up to.
    const which = await ask(ws.token, "bank transfers that came in last week");
    expect(which.reply.data.query).toMatchObject({ resource: "payments", aggregate: { fn: "list" }, period: { field: "paid_at" } });
    expect(which.reply.data.answer).toMatchObject({ kind: "records", resource: "payments" });
    const money = await ask(ws.token, "money that came in last week");
    expect(money.reply.data.query).toMatchObject({ resource: "payments", aggregate: { fn: "sum", field: "amount" } });
  });
  it("follows up on an invoice by its own number, never its id ('who is that one for again')", async () => {
    // (Other workspaces' invoices first, until one in the same shard: this one's id is then no longer its number's
    // digits — ids carry their shard in the bits above 2^40.)
    let made = await company();
    for (let i = 0; i < 4 && made.invoice.id % 2 ** 40 === 1; i++) made = await company();
    const { ws, acme, invoice } = made;
    expect(invoice.number).toBe("INV-000001");
    expect(invoice.id % 2 ** 40).not.toBe(1);
    const left = await ask(ws.token, `what's left to pay on ${invoice.number}`);
    const whom = await ask(ws.token, "who is that one for again", left.conversation_id);
    expect(whom.reply.data?.answer, whom.reply.text).toMatchObject({ ids: [invoice.id], field: "customer_id" });
    expect(whom.reply.text).toContain("Acme");
    expect(acme.id).toBeGreaterThan(0);
  });
  it("reads past what a question is for and how politely it is asked, and everyday words for debtors, live leads and ranges", async () => {
    const { ws, ada, alan, invoice } = await company();
    const board = await ask(ws.token, "for the board pack: customers we onboarded this year");
    expect(board.reply.data.query).toMatchObject({ resource: "customers", period: { field: "created_at" } });
    expect((await ask(ws.token, "i'd love to know which candidates currently have an offer out")).reply.data.query).toMatchObject({ resource: "candidates" });
    const curious = await ask(ws.token, "curious who logged the most time this month");
    expect(curious.reply.data.answer).toMatchObject({ kind: "groups", group_by: "employee_id" });
    const debtors = await ask(ws.token, "top 5 debtors by amount still owed");
    expect(debtors.reply.data.answer).toMatchObject({ kind: "groups", group_by: "customer_id", field: "amount_due" });
    const range = await ask(ws.token, "unpaid invoices due between now and end of next week");
    expect(range.reply.data.query.period).toMatchObject({ field: "due_date", from: today() });
    const paid = await ask(ws.token, `what's been paid against ${invoice.number}`);
    expect(paid.reply.data.answer).toMatchObject({ kind: "records", resource: "payments" });
    expect((await ask(ws.token, "top 5 live leads by value")).reply.data.query).toMatchObject({ resource: "leads", aggregate: { limit: 5 } });
    // A ranking's size said in words, and "same question for X" after a question about one record.
    const three = await ask(ws.token, "Which three people have the most urgent tasks assigned to them?");
    expect(three.reply.data.query).toMatchObject({ resource: "tasks", aggregate: { groupBy: "assignee_id", order: "desc", limit: 3 } });
    const first = await ask(ws.token, "how many tasks are done on the website project");
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const again = await ask(ws.token, "Same question for the intranet.", first.conversation_id);
    expect(again.reply.data.query).toMatchObject({ resource: first.reply.data.query.resource });
    expect(JSON.stringify(again.reply.data.query)).toContain(`${intranet.id}`);
    expect((await ask(ws.token, "when did we post the backend engineer job")).reply.data.answer).toMatchObject({ resource: "job-openings" });
    const people = await ask(ws.token, "how many ppl do we have in contacts at analytical engines");
    expect(people.reply.data.answer).toMatchObject({ resource: "contacts", fn: "count", value: 1 });
    const line = await ask(ws.token, "ada lovelace's direct line is +44 20 7946 0000, pls add it");
    expect(await requestOf(ws.token, line.reply)).toMatchObject({ path: `/contacts/${ada.id}`, body: { phone: "+442079460000" } });
    const typo = await ask(ws.token, "delte the contact alan turing");
    expect(await requestOf(ws.token, typo.reply)).toMatchObject({ method: "DELETE", path: `/contacts/${alan.id}` });
  });
  it("reads a place negated ('not based in the us', 'that aren't US based') and a condition said after the question", async () => {
    const { ws, acme } = await company();
    const kessler = await create(ws, "customers", { name: "Kessler", email: "ap@kessler.example", currency: "EUR", billing: { country: "DE" } });
    await call("PATCH", `/customers/${acme.id}`, { token: ws.token, body: { billing: { country: "US" } } });
    const abroad = await ask(ws.token, "list customers not based in the us");
    expect(abroad.reply.data.answer).toMatchObject({ kind: "records", resource: "customers", ids: [kessler.id] });
    const dollars = await ask(ws.token, "any clients we bill in dollars that aren't US based");
    expect(dollars.reply.data.answer).toMatchObject({ kind: "records", resource: "customers", total: 0 });
    const home = await ask(ws.token, "customers that are US based");
    expect(home.reply.data.answer).toMatchObject({ ids: [acme.id] });
    const ours = await ask(ws.token, "which of our customers are US-based");
    expect(ours.reply.data.answer).toMatchObject({ kind: "records", resource: "customers", ids: [acme.id] });
  });
  it("reads a stage passed ('made it past screening'), what is due next, and a list narrowed or sorted again ('filter to', 'pls')", async () => {
    const { ws, opening, candidate, task, shipped, acme } = await company();
    const later = await create(ws, "candidates", { job_opening_id: opening.id, name: "Tom Kilburn", email: "tom@mail.example", stage: "interview" });
    await create(ws, "candidates", { job_opening_id: opening.id, name: "Rita Reject", email: "rita@mail.example", stage: "rejected" });
    const listed = await ask(ws.token, "candidates for the backend engineer role");
    expect(listed.reply.data.answer).toMatchObject({ total: 3 });
    const past = await ask(ws.token, "which of them made it past screening", listed.conversation_id);
    expect(past.reply.data.answer).toMatchObject({ kind: "records", resource: "candidates", ids: [later.id] });
    expect(past.reply.data.answer.ids).not.toContain(candidate.id);
    // "the next task due": from today on, soonest first — the one due today, not the done one far ahead nor an overdue one.
    await create(ws, "tasks", { title: "Old thing", project_id: task.project_id, due_date: "2020-01-01" });
    const next = await ask(ws.token, "what's the next task due?");
    expect(next.reply.data.answer).toMatchObject({ kind: "records", resource: "tasks", ids: [task.id] });
    expect(next.reply.data.query.period).toMatchObject({ field: "due_date", from: today() });
    expect(next.reply.data.answer.ids).not.toContain(shipped.id);
    // ("due for payment": due.)
    expect((await ask(ws.token, "anything due for payment tmrw?")).reply.data.query).toMatchObject({ resource: "invoices", period: { field: "due_date" } });
    const euros = await create(ws, "customers", { name: "Kessler", email: "ap@kessler.example", currency: "EUR" });
    const eur = await create(ws, "invoices", { customer_id: euros.id, currency: "EUR", items: [{ description: "Work", quantity: 1, unit_amount: 5000 }] });
    const all = await ask(ws.token, "all invoices");
    expect(all.reply.data.answer).toMatchObject({ total: 2 });
    const sorted = await ask(ws.token, "sort by amount pls, biggest first", all.conversation_id);
    expect(sorted.reply.data.query.aggregate).toMatchObject({ order: "desc" });
    const narrowed = await ask(ws.token, "filter to euro invoices", all.conversation_id);
    expect(narrowed.reply.data.answer).toMatchObject({ kind: "records", ids: [eur.id] });
    expect(narrowed.reply.data.query.aggregate).toMatchObject({ order: "desc" });
    expect(acme.id).not.toBe(euros.id);
  });
  it("reads who logged time on a record as its entries, 'on it' as the record just asked about, and an opening's pipeline as its candidates", async () => {
    const { ws, task, ana, linus, website, opening } = await company();
    const other = await create(ws, "projects", { name: "Intranet" });
    const elsewhere = await create(ws, "tasks", { title: "Wiki", project_id: other.id });
    const mine = await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 90 });
    const theirs = await create(ws, "time-entries", { employee_id: linus.id, task_id: task.id, date: today(), minutes: 30 });
    await create(ws, "time-entries", { employee_id: linus.id, task_id: elsewhere.id, date: today(), minutes: 600 });
    const who = await ask(ws.token, "who's logged time on website");
    expect(who.reply.data.answer).toMatchObject({ kind: "records", resource: "time-entries" });
    expect(who.reply.data.answer.ids.sort()).toEqual([mine.id, theirs.id].sort());
    // "hours on website" → "who logged the most on it": the same project, not everyone's hours.
    const hours = await ask(ws.token, "hours on website");
    const most = await ask(ws.token, "who logged the most on it", hours.conversation_id);
    expect(most.reply.data.answer).toMatchObject({ kind: "groups", group_by: "employee_id" });
    expect(most.reply.data.answer.groups[0]).toMatchObject({ key: ana.id, value: 90 });
    // "the website project" (one record) → "how many hours were logged on it".
    const project = await ask(ws.token, "the project website");
    expect(project.reply.data.answer).toMatchObject({ ids: [website.id] });
    const onIt = await ask(ws.token, "how many hours were logged on it", project.conversation_id);
    expect(onIt.reply.data.answer).toMatchObject({ fn: "sum", value: 120 });
    // "backend engineer pipeline by stage": no deal of that name — the opening's candidates by stage.
    await create(ws, "candidates", { job_opening_id: opening.id, name: "Tom Kilburn", email: "tom@mail.example", stage: "interview" });
    const pipeline = await ask(ws.token, "backend engineer pipeline by stage");
    expect(pipeline.reply.data.answer).toMatchObject({ kind: "groups", resource: "candidates", group_by: "stage" });
    expect(pipeline.reply.data.answer.groups).toHaveLength(2);
  });
  it("reads 'the second quarter', 'north of', 'X or more', 'a balance of zero', 'since feb' and 'lifetime billings'", async () => {
    const { ws, acme, bigCo, smallFry } = await company();
    const quarter = await ask(ws.token, "How many invoices did we issue during the second quarter?");
    expect(quarter.reply.data.query.period).toMatchObject({
      field: "issue_date",
      from: expect.stringMatching(/-04-01$/),
      to: expect.stringMatching(/-06-30$/),
    });
    const north = await ask(ws.token, "negotiation stage deals north of 10k");
    expect(north.reply.data.answer).toMatchObject({ kind: "records", ids: [bigCo.id] });
    const more = await ask(ws.token, "deals worth $500 or more in negotiation");
    expect(more.reply.data.answer.ids.sort()).toEqual([bigCo.id, smallFry.id].sort());
    const less = await ask(ws.token, "deals in negotiation worth 1k or less");
    expect(less.reply.data.answer).toMatchObject({ ids: [smallFry.id] });
    const kessler = await create(ws, "customers", { name: "Kessler", email: "ap@kessler.example" });
    const zero = await ask(ws.token, "Which customers currently have a balance of zero?");
    expect(zero.reply.data.answer).toMatchObject({ kind: "records", ids: [kessler.id] });
    const since = await ask(ws.token, "deals won since feb");
    expect(since.reply.data.query.period).toMatchObject({ field: "closed_at", from: expect.stringMatching(/-02-01$/), to: today() });
    const lifetime = await ask(ws.token, "lifetime billings for acme");
    expect(lifetime.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", resource: "invoices" });
    expect(acme.id).toBeGreaterThan(0);
  });
  it("refuses lectures, posts to other tools and what people earn, and reads 'send 184' as an invoice, not money sent", async () => {
    const { ws, invoice, ana } = await company();
    for (const message of [
      "Can you explain the difference between accrual and cash-basis accounting?",
      "draft the retro notes & post them in slack",
      `Can you tell me what ${ana.name.split(" ")[0]} earns?`,
      "send $500 to my brother",
    ]) {
      const reply = (await ask(ws.token, message)).reply;
      expect(["unknown", "refusal"], message).toContain(reply.intent);
      expect(reply.action, message).toBeUndefined();
      expect(reply.data?.answer, message).toBeUndefined();
    }
    // (A bare number is an invoice's from two figures on: the tenth invoice.)
    let tenth = invoice;
    for (let n = 2; n <= 10; n++)
      tenth = await create(ws, "invoices", { customer_id: invoice.customer_id, items: [{ description: "Work", quantity: 1, unit_amount: 100 * n }] });
    expect(tenth.number).toBe("INV-000010");
    const send = await ask(ws.token, "send 10");
    expect(await requestOf(ws.token, send.reply)).toMatchObject({ method: "POST", path: `/invoices/${tenth.id}/send` });
  });
  it("reads a currency left out, staff 'outside of' a department, rankings said in everyday words, and a month ahead for a date that looks forward", async () => {
    const { ws, acme, bigCo, east, west, grace, linus } = await company();
    const euro = await create(ws, "customers", { name: "Kessler", email: "ap@kessler.example", currency: "EUR" });
    const other = await ask(ws.token, "how many custmers are billed in something other than usd");
    expect(other.reply.data.answer).toMatchObject({ kind: "value", fn: "count", value: 1 });
    const outside = await ask(ws.token, "staff outside of sales");
    expect(outside.reply.data.answer.ids).toContain(linus.id);
    expect(outside.reply.data.answer.ids).not.toContain(grace.id);
    const three = await ask(ws.token, "our three largest deals still in play");
    expect(three.reply.data.answer.ids).toEqual([bigCo.id, west.id, east.id]);
    const billed = await ask(ws.token, "who did we bill the most this year");
    expect(billed.reply.data.answer).toMatchObject({ kind: "groups", fn: "sum", group_by: "customer_id" });
    expect(billed.reply.data.answer.groups[0].key).toBe(acme.id);
    const owing = await ask(ws.token, "which customers dont owe us anything at the moment");
    expect(owing.reply.data.answer).toMatchObject({ kind: "records", ids: [euro.id] });
    const lowest = await ask(ws.token, "lowest hours logged by anyone this month");
    expect(lowest.reply.data.query.aggregate).toMatchObject({ fn: "sum", field: "minutes", groupBy: "employee_id", order: "asc", limit: 1 });
    const closing = await ask(ws.token, "which open deals are supposed to close this month");
    const month = new Date(`${today()}T00:00:00Z`).getUTCMonth();
    const ahead = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"][(month + 11) % 12]!;
    const later = await ask(ws.token, `what about ${ahead}`, closing.conversation_id);
    // (Eleven months on: a month said alone, for a date that looks forward, is the coming one.)
    expect(later.reply.data.query.period.from > today()).toBe(true);
  });
  it("follows up on one record's field ('who is that one for again', 'change it to …'), lists what was counted, and picks a listed one by whom it is for", async () => {
    const { ws, acme, invoice } = await company();
    const left = await ask(ws.token, `what's left to pay on ${invoice.number}`);
    const whom = await ask(ws.token, "who is that one for again", left.conversation_id);
    expect(whom.reply.data.answer).toMatchObject({ kind: "records", ids: [invoice.id], field: "customer_id" });
    const email = await ask(ws.token, "email on file for acme?");
    expect(email.reply.data.answer).toMatchObject({ ids: [acme.id], field: "email" });
    const change = await ask(ws.token, "change it to payables@acme.example", email.conversation_id);
    expect(await requestOf(ws.token, change.reply)).toMatchObject({ path: `/customers/${acme.id}`, body: { email: "payables@acme.example" } });
    const globex = await create(ws, "customers", { name: "Globex", email: "ap@globex.example" });
    const draft = await create(ws, "invoices", { customer_id: globex.id, items: [{ description: "Audit", quantity: 1, unit_amount: 90_000 }] });
    await create(ws, "invoices", { customer_id: acme.id, items: [{ description: "Retainer", quantity: 1, unit_amount: 50_000 }] });
    const drafts = await ask(ws.token, "how many drafts havent gone out yet");
    const listed = await ask(ws.token, "list them w/ the customer", drafts.conversation_id);
    expect(listed.reply.data.answer).toMatchObject({ kind: "records" });
    const send = await ask(ws.token, "send the one for globex, not acme", listed.conversation_id);
    expect(await requestOf(ws.token, send.reply)).toMatchObject({ method: "POST", path: `/invoices/${draft.id}/send` });
    const week = await ask(ws.token, "hours logged this week");
    const whole = await ask(ws.token, "and over the whole of last week", week.conversation_id);
    expect(whole.reply.data.query.period).toMatchObject({ field: "date" });
    expect(whole.reply.data.query.period.to < today()).toBe(true);
  });
  it("reads everyday words for customers, candidates, late payers and sums ('companies that buy from us', 'people who want the X job', 'late paying', 'add up to')", async () => {
    const { ws, acme, candidate, bigCo, smallFry, ada } = await company();
    const buyers = await ask(ws.token, "hi! where can I see the list of companies that buy from us?");
    expect(buyers.reply.data.answer).toMatchObject({ kind: "records", resource: "customers", ids: [acme.id] });
    const wanting = await ask(ws.token, "can you list the people who want the backend engineer job?");
    expect(wanting.reply.data.answer).toMatchObject({ kind: "records", resource: "candidates", ids: [candidate.id] });
    const interview = await ask(ws.token, "which of them are already at the interview part?", wanting.conversation_id);
    expect(interview.reply.data.query.conditions).toContainEqual(expect.objectContaining({ field: "stage", value: "interview" }));
    const late = await ask(ws.token, "is acme late paying anything");
    expect(late.reply.data.query).toMatchObject({ resource: "invoices", conditions: expect.arrayContaining([expect.objectContaining({ param: "overdue" })]) });
    const deals = await ask(ws.token, "deals in negotiation");
    const sum = await ask(ws.token, "whats that add up to", deals.conversation_id);
    expect(sum.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", value: { USD: bigCo.value + smallFry.value } });
    const people = await ask(ws.token, "who are the people at Analytical Engines we talk to?");
    expect(people.reply.data.answer).toMatchObject({ resource: "contacts", ids: [ada.id] });
    const written = await ask(ws.token, "who has written down the most hours this month?");
    expect(written.reply.data.query.aggregate).toMatchObject({ fn: "sum", field: "minutes", groupBy: "employee_id", order: "desc" });
    const slash = await ask(ws.token, "tasks that are high/urgent");
    expect(slash.reply.data.query.conditions).toContainEqual(expect.objectContaining({ field: "priority", value: ["high", "urgent"] }));
  });
  it("reads a department said before the noun, one winner said in the singular, a list of two projects, 'the same month' and 'exclude any that have been paid in full'", async () => {
    const { ws, website, grace, linus, invoice, acme } = await company();
    const sales = await ask(ws.token, "Which Sales employees joined before 2025?");
    expect(sales.reply.data.answer.ids).toEqual([grace.id]);
    expect(sales.reply.data.answer.ids).not.toContain(linus.id);
    // (Left out, not kept: "non-sales employees".)
    const others = await ask(ws.token, "how many non-sales employees");
    expect(others.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "department", op: "ne", value: "Sales" })]);
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const late = "2020-01-06";
    const one = await create(ws, "tasks", { title: "Old one", project_id: website.id, due_date: late });
    const two = await create(ws, "tasks", { title: "Old two", project_id: intranet.id, due_date: late });
    const three = await create(ws, "tasks", { title: "Old three", project_id: intranet.id, due_date: late });
    const winner = await ask(ws.token, "proj w/ the most late tasks?");
    expect(winner.reply.data.query.aggregate).toMatchObject({ fn: "count", groupBy: "project_id", order: "desc", limit: 1 });
    expect(winner.reply.data.answer.groups.map((group: { key: number }) => group.key)).toEqual([intranet.id]);
    const both = await ask(ws.token, "overdue tasks - website + intranet");
    expect([...both.reply.data.answer.ids].sort()).toEqual([one.id, two.id, three.id].sort());
    // ("the same month": the period asked about before — no name of a record.)
    const card = await ask(ws.token, "total of card payments received in january 2026?");
    const transfers = await ask(ws.token, "And the bank transfers for the same month?", card.conversation_id);
    expect(transfers.reply.data.query.period).toMatchObject({ from: "2026-01-01", to: "2026-01-31" });
    expect(transfers.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "method", value: "bank_transfer" })]);
    // ("exclude any that have been paid in full": the paid ones left out of the last list.)
    const paid = await create(ws, "invoices", {
      customer_id: acme.id,
      currency: "USD",
      issue_date: "2026-01-07",
      items: [{ description: "Paid work", quantity: 1, unit_amount: 20_000 }],
    });
    await call("POST", `/invoices/${paid.id}/send`, { token: ws.token });
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: paid.id, amount: 20_000 } });
    const all = await ask(ws.token, "acme invoices");
    expect([...all.reply.data.answer.ids].sort()).toEqual([invoice.id, paid.id].sort());
    const open = await ask(ws.token, "Please exclude any that have been paid in full.", all.conversation_id);
    expect(open.reply.data.answer.ids).toEqual([invoice.id]);
  });
  it("reads numbers in words, a range 'from' one amount 'to' another, 'came in through', 'prior to' and the words said around them", async () => {
    const { ws, bigCo, smallFry, east, west, sophie, grace, ana, task } = await company();
    const ids = async (message: string) => ((await ask(ws.token, message)).reply.data?.answer?.ids as number[] | undefined)?.sort();
    expect(await ids("deals worth more than five hundred dollars")).toEqual([bigCo.id, east.id, west.id].sort());
    expect(await ids("list deals where the value is somewhere from 1,000 to 1,500")).toEqual([east.id, west.id].sort());
    expect(await ids("Which leads came in through our website?")).toEqual([sophie.id]);
    expect(await ids("who joined prior to 2025")).toEqual([grace.id]);
    expect(await ids("deals whose value is under 1,000")).toEqual([smallFry.id]);
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 90 });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 30, billable: false });
    const billable = await ask(ws.token, "How many billable hours did we log this month?");
    expect(billable.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", field: "minutes", value: 90 });
    const worth = await ask(ws.token, "What are all the open deals worth added together?");
    expect(worth.reply.data.answer).toMatchObject({ kind: "value", fn: "sum", resource: "deals" });
  });
  it("reads today's date as still to come, 'have not any', nobody on them, what someone still has to do, and 'as completed'", async () => {
    const { ws, website, task, shipped, ana } = await company();
    const ids = async (message: string) => ((await ask(ws.token, message)).reply.data?.answer?.ids as number[] | undefined)?.sort();
    const day = new Date();
    const said = `${day.toLocaleString("en-US", { month: "short", timeZone: "UTC" }).toLowerCase()} ${day.getUTCDate()}`;
    expect(await ids(`which tasks r due ${said}`)).toEqual([task.id]);
    const loose = await create(ws, "tasks", { title: "Tidy up", project_id: website.id });
    expect(await ids("Please show me the tasks which have not any due date.")).toEqual([loose.id]);
    expect(await ids("Which tasks don't have anybody on them yet?")).toEqual([shipped.id, loose.id].sort());
    expect(await ids("what does ana garcia still have open")).toEqual([task.id]);
    expect(ana.id).toBeGreaterThan(0);
    const done = await ask(ws.token, `mark task ${task.id} as completed`);
    expect(await requestOf(ws.token, done.reply)).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "done" } });
    const plane = await ask(ws.token, "Can you get me on a plane to Lisbon this Friday?");
    expect(plane.reply.action).toBeUndefined();
    expect(plane.reply.text).toMatch(/not something I can do/);
  });
  it("reads one group said in the singular ('biggest department by headcount', 'top person by hours logged', 'the project with the highest number of tasks'), 'invoice the most' as money, 'leave X out', 'from … up to …' and 'where does X stand'", async () => {
    const { ws, website, task, ana, linus, acme, invoice } = await company();
    const groupKeys = (reply: Reply) => (reply.data.answer.groups as { key: unknown }[]).map((group) => group.key);
    const department = (await ask(ws.token, "biggest department by headcount?")).reply;
    expect(department.data.query.aggregate).toMatchObject({ fn: "count", groupBy: "department", order: "desc", limit: 1 });
    expect(groupKeys(department)).toEqual(["Engineering"]);
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 90 });
    await create(ws, "time-entries", { employee_id: linus.id, task_id: task.id, date: today(), minutes: 30 });
    const person = (await ask(ws.token, "top person by hours logged, this month")).reply;
    expect(person.data.query.aggregate).toMatchObject({ fn: "sum", field: "minutes", groupBy: "employee_id", limit: 1 });
    expect(groupKeys(person)).toEqual([ana.id]);
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const project = (await ask(ws.token, "What's the project with the highest number of tasks?")).reply;
    expect(project.data.query.aggregate).toMatchObject({ fn: "count", groupBy: "project_id", limit: 1 });
    expect(groupKeys(project)).toEqual([website.id]);
    expect(intranet.id).toBeGreaterThan(0);
    // "invoice the most" is money billed; "leave voided invoices out" leaves the void ones out, the noun said again.
    const other = await create(ws, "customers", { name: "Other Co", email: "ap@other.example", currency: "USD" });
    await sentInvoice(ws, { customer_id: other.id, currency: "USD", items: [{ description: "a", quantity: 1, unit_amount: 1_000 }] });
    await sentInvoice(ws, { customer_id: other.id, currency: "USD", items: [{ description: "b", quantity: 1, unit_amount: 1_000 }] });
    const billed = (await ask(ws.token, "Which 10 customers did we invoice the most? Leave voided invoices out.")).reply;
    expect(billed.data.query.aggregate).toMatchObject({ fn: "sum", field: "total", groupBy: "customer_id", order: "desc", limit: 10 });
    expect(billed.data.query.conditions).toEqual([expect.objectContaining({ field: "status", op: "ne", value: "void" })]);
    expect(groupKeys(billed)[0]).toBe(acme.id);
    const range = (await ask(ws.token, "show invoices with totals from 1,000 up to 2,000")).reply;
    expect(range.data.answer.ids).toEqual([invoice.id]);
    const stand = (await ask(ws.token, `where does inv #${invoice.number.replace(/^INV-0*/, "").padStart(2, "0")} stand right now`)).reply;
    expect(stand.data.query).toMatchObject({ show: "status", subject: { id: invoice.id } });
  });
  it("reads 'priced in euros' as the currency, 'who's got a balance above …' as customers, 'anything paid to us …?' as the payments, and 'new deals from …' as created then", async () => {
    const { ws, acme, invoice, bigCo } = await company();
    const euro = await create(ws, "deals", { name: "Euro deal", value: 90_000, currency: "EUR" });
    const priced = (await ask(ws.token, "Open deals priced in euros?")).reply;
    expect(priced.data.query.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ field: "currency", value: "EUR" })]));
    expect(priced.data.query.conditions).not.toEqual(expect.arrayContaining([expect.objectContaining({ field: "lost_reason" })]));
    expect(priced.data.answer.ids).toEqual([euro.id]);
    const balance = (await ask(ws.token, "who's got a balance above 1,000")).reply;
    expect(balance.data.query.resource).toBe("customers");
    expect(balance.data.answer.ids).toEqual([acme.id]);
    const paid = (await ask(ws.token, "anything paid to us so far this week?")).reply;
    expect(paid.data.answer).toMatchObject({ kind: "records", resource: "payments" });
    expect(invoice.id).toBeGreaterThan(0);
    const created = (await ask(ws.token, "new deals from the past two weeks")).reply;
    expect(created.data.query.period).toMatchObject({ field: "created_at" });
    expect(created.data.answer.ids).toContain(bigCo.id);
  });
  it("reads 'X lead count — how many came in?' and 'which of their invoices' (counted or picked, no preposition's object), hours 'split into billable and non-billable', and 'drop the threshold to …' as the last question with a new amount", async () => {
    const { ws, acme, invoice, task, ana, bigCo, east, west } = await company();
    const month = new Date().toLocaleString("en-US", { month: "long", timeZone: "UTC" });
    const leads = (await ask(ws.token, `${month} lead count — how many came in?`)).reply;
    expect(leads.data.query).toMatchObject({ resource: "leads", aggregate: { fn: "count" }, period: { field: "created_at" } });
    expect(leads.data.answer).toMatchObject({ kind: "value", value: 2 });
    const theirs = (await ask(ws.token, `${acme.name} - which of their invoices are out but not paid`)).reply;
    expect(theirs.data.answer).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 90 });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 30, billable: false });
    const split = (await ask(ws.token, "This month's hours split into billable and non-billable, please")).reply;
    expect(split.data.query.aggregate).toMatchObject({ fn: "sum", field: "minutes", groupBy: "billable" });
    const over = await ask(ws.token, "deals over 2,000");
    expect(over.reply.data.answer.ids).toEqual([bigCo.id]);
    const lower = await ask(ws.token, "drop the threshold to anything above 500", over.conversation_id);
    expect([...lower.reply.data.answer.ids].sort()).toEqual([bigCo.id, east.id, west.id].sort());
    const raised = await ask(ws.token, "raise the cutoff to 1,100", lower.conversation_id);
    expect([...raised.reply.data.answer.ids].sort()).toEqual([bigCo.id, west.id].sort());
  });
  it("reads 'what % of deals are we winning' as the win rate, 'tax did we collect' as the tax charged, and 'customers who haven't paid in N days' as invoices that late", async () => {
    const { ws, invoice, bigCo, smallFry } = await company();
    await call("PATCH", `/deals/${bigCo.id}`, { token: ws.token, body: { stage: "won" } });
    await call("PATCH", `/deals/${smallFry.id}`, { token: ws.token, body: { stage: "lost", lost_reason: "price" } });
    const share = (await ask(ws.token, "what % of deals are we winning this qtr")).reply;
    expect(share.text).toMatch(/^Win rate .*50% — 1 won, 1 lost/);
    expect(share.data.answer).toMatchObject({ kind: "groups", fn: "count", group_by: "status" });
    const tax = (await ask(ws.token, "how much tax did we collect this year")).reply;
    expect(tax.data.query).toMatchObject({ resource: "invoices", aggregate: { fn: "sum", field: "tax_total" } });
    const late = (await ask(ws.token, "customers who haven't paid in 90 days")).reply;
    expect(late.data.query.resource).toBe("invoices");
    expect(late.data.query.period).toBeNull();
    expect(late.data.answer.ids).toEqual([invoice.id]);
  });
  it("reads time logged 'on/against the X project' as the sum of its time entries, even when the project's name holds another noun ('customer portal')", async () => {
    const { ws, ana, task, website } = await company();
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 90 });
    const portal = await create(ws, "projects", { name: "Customer portal" });
    const portalTask = await create(ws, "tasks", { title: "Design login", project_id: portal.id });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: portalTask.id, date: today(), minutes: 45 });
    const against = (await ask(ws.token, `total time logged against the ${website.name} project so far`)).reply;
    expect(against.data.answer, against.text).toMatchObject({ resource: "time-entries", fn: "sum", value: 90 });
    const named = (await ask(ws.token, "How much time has been logged on the customer portal project overall?")).reply;
    expect(named.data.answer, named.text).toMatchObject({ resource: "time-entries", fn: "sum", value: 45 });
    // A noun before the name is still what is asked about.
    const contact = (await ask(ws.token, `who's the contact on the ${website.name} project`)).reply;
    expect(contact.data.query?.resource).not.toBe("time-entries");
  });

  it("reads two values said together ('the Berlin engineering team — who's on it?'), 'what about the remote ones' as that field's other value, and 'the three biggest deals we lost' as those deals ranked", async () => {
    const { ws } = await company();
    const person = (name: string, department: string, branch: string) =>
      create(ws, "employees", { name, email: `${name.split(" ")[0]!.toLowerCase()}@assist.co`, department, branch, date_of_joining: "2025-01-01" });
    const berta = await person("Berta Brandt", "Engineering", "Berlin");
    await person("Bernd Baum", "Sales", "Berlin");
    const rita = await person("Rita Ramos", "Engineering", "Remote");
    await person("Ron Reyes", "Sales", "Remote");
    const team = await ask(ws.token, "Berlin engineering team — who's on it?");
    expect(team.reply.data.answer, team.reply.text).toMatchObject({ resource: "employees", ids: [berta.id] });
    const remote = await ask(ws.token, "what about the remote ones", team.conversation_id);
    expect(remote.reply.data.answer, remote.reply.text).toMatchObject({ resource: "employees", ids: [rita.id] });
    const lost = [];
    for (const value of [100_000, 500_000, 300_000, 200_000])
      lost.push(await create(ws, "deals", { name: `Lost ${value}`, value, currency: "USD", stage: "lost", lost_reason: "price" }));
    const year = today().slice(0, 4);
    const three = (await ask(ws.token, `The three biggest deals we lost in ${year}?`)).reply;
    expect(three.data.answer, three.text).toMatchObject({ resource: "deals", ids: [lost[1]!.id, lost[2]!.id, lost[3]!.id] });
    // (One of them is still the amount itself.)
    const one = (await ask(ws.token, `the biggest deal we lost in ${year}`)).reply;
    expect(one.data.answer, one.text).toMatchObject({ resource: "deals", fn: "max" });
  });

  it("reads 'each engineer' as each of the people of that designation, 'hours logged by engineers' as theirs, and 'break that down by method, with a total for each' as sums", async () => {
    const { ws, ana, linus, grace, task, acme } = await company();
    for (const [employee, minutes] of [
      [ana, 60],
      [linus, 45],
      [grace, 30],
    ] as const)
      await create(ws, "time-entries", { employee_id: employee.id, task_id: task.id, date: today(), minutes });
    const each = (await ask(ws.token, "How many hours did each engineer log today?")).reply;
    expect(each.data.answer, each.text).toMatchObject({ kind: "groups", group_by: "employee_id", groups: [{ key: ana.id, value: 60 }] });
    expect(each.data.answer.groups).toHaveLength(1);
    const theirs = (await ask(ws.token, "hours logged by engineers today")).reply;
    expect(theirs.data.answer, theirs.text).toMatchObject({ resource: "time-entries", fn: "sum", value: 60 });
    // ("each person": every one of them.)
    expect((await ask(ws.token, "how many hours did each person log today")).reply.data.answer.groups).toHaveLength(3);
    const billed = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", items: [{ description: "Work", quantity: 1, unit_amount: 90_000 }] });
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: billed.id, amount: 20_000, method: "card" } });
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: billed.id, amount: 30_000, method: "card" } });
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: billed.id, amount: 5_000, method: "cash" } });
    const listed = await ask(ws.token, "show me all the payments received today");
    const broken = (await ask(ws.token, "break that down by method, with a total for each", listed.conversation_id)).reply;
    expect(broken.data.answer, broken.text).toMatchObject({ kind: "groups", group_by: "method" });
    expect(broken.data.answer.groups).toEqual(expect.arrayContaining([expect.objectContaining({ key: "card", value: { USD: 50_000 } })]));
  });

  it("reads 'last weeks time entries' (the apostrophe left out) as last week's", async () => {
    const { ws, ana, task } = await company();
    // A day of last week that is not the same weekday as today (which "a week ago" would also find).
    const day = 86_400_000;
    const lastMonday = Date.now() - (((new Date().getUTCDay() + 6) % 7) + 7) * day;
    const weekAgo = new Date(Date.now() - 7 * day).toISOString().slice(0, 10);
    const monday = new Date(lastMonday).toISOString().slice(0, 10);
    const date = monday === weekAgo ? new Date(lastMonday + day).toISOString().slice(0, 10) : monday;
    const before = await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date, minutes: 30 });
    await create(ws, "time-entries", { employee_id: ana.id, task_id: task.id, date: today(), minutes: 45 });
    const reply = (await ask(ws.token, "can i see last weeks time entries for ana")).reply;
    expect(reply.data.answer, reply.text).toMatchObject({ resource: "time-entries", ids: [before.id] });
  });

  it("reads 'active candidates for X' as those still in the running: neither hired nor rejected", async () => {
    const { ws, opening, candidate } = await company();
    await create(ws, "candidates", { job_opening_id: opening.id, name: "Rex Rejected", email: "rex@mail.example", stage: "rejected" });
    const offered = await create(ws, "candidates", { job_opening_id: opening.id, name: "Olga Offer", email: "olga@mail.example", stage: "offer" });
    const reply = (await ask(ws.token, `active candidates for ${opening.title}`)).reply;
    expect(reply.data.answer, reply.text).toMatchObject({ resource: "candidates" });
    expect([...reply.data.answer.ids].sort()).toEqual([candidate.id, offered.id].sort());
    // With no noun but "everyone", the state says whose: only candidates are in the running.
    const everyone = (await ask(ws.token, `Show me everyone still in the running for ${opening.title}.`)).reply;
    expect(everyone.data.answer, everyone.text).toMatchObject({ resource: "candidates" });
    expect([...everyone.data.answer.ids].sort()).toEqual([candidate.id, offered.id].sort());
  });

  it("reads 'what are people busy with right now in X' as its work in progress, and 'the sales we lost' as the lost deals", async () => {
    const { ws, website } = await company();
    const busy = await create(ws, "tasks", { title: "Build nav", project_id: website.id, status: "in_progress" });
    const elsewhere = await create(ws, "projects", { name: "Intranet" });
    await create(ws, "tasks", { title: "Build feed", project_id: elsewhere.id, status: "in_progress" });
    const reply = (await ask(ws.token, `what are people busy with right now in the ${website.name}?`)).reply;
    expect(reply.data.answer, reply.text).toMatchObject({ resource: "tasks", ids: [busy.id] });
    const lost = await create(ws, "deals", { name: "Gone Co", value: 10_000, currency: "USD", stage: "lost", lost_reason: "price" });
    const sales = (await ask(ws.token, "can I see the sales we lost and the reason for each?")).reply;
    expect(sales.data.answer, sales.text).toMatchObject({ resource: "deals", ids: [lost.id] });
  });

  it("reads 'which sales are we close to winning' as the deals in negotiation, 'which companies still owe us money, and how much each' by customer, and 'where do I see money that came in today' as today's payments", async () => {
    const { ws, acme, bigCo, smallFry } = await company();
    const close = (await ask(ws.token, "which sales are we close to winning?")).reply;
    expect(close.data.answer, close.text).toMatchObject({ resource: "deals" });
    expect([...close.data.answer.ids].sort()).toEqual([bigCo.id, smallFry.id].sort());
    const owed = (await ask(ws.token, "which companies still owe us money, and how much each?")).reply;
    expect(owed.data.answer, owed.text).toMatchObject({ kind: "groups", group_by: "customer_id", groups: [{ key: acme.id, value: { USD: 150_000 } }] });
    const came = (await ask(ws.token, "where do I see money that came in today?")).reply;
    expect(came.data.answer, came.text).toMatchObject({ resource: "payments" });
    expect(came.data.answer.ids, came.text).toHaveLength(1);
  });

  it("reads 'invoices with vat' as those whose tax is more than nothing, a deadline said alone as a task's, and 'due for payment' as an invoice's", async () => {
    const { ws, acme, task } = await company();
    const taxed = await create(ws, "invoices", { customer_id: acme.id, items: [{ description: "Audit", quantity: 1, unit_amount: 10_000, tax_rate: 19 }] });
    for (const message of ["invoices with vat", "which invoices had tax on them"]) {
      const reply = (await ask(ws.token, message)).reply;
      expect(reply.data.answer, `${message}: ${reply.text}`).toMatchObject({ resource: "invoices", ids: [taxed.id] });
    }
    const due = (await ask(ws.token, "anything due today?")).reply;
    expect(due.data.answer, due.text).toMatchObject({ resource: "tasks", ids: [task.id] });
    const payable = (await ask(ws.token, "anything due for payment this week?")).reply;
    expect(payable.data.answer, payable.text).toMatchObject({ resource: "invoices" });
  });

  it("reads 'what's left to collect across all sent invoices' and 'whats outstanding on acme's invoices' as how much", async () => {
    const { ws } = await company();
    for (const message of ["what's left to collect across all sent invoices", "whats outstanding on acme's invoices"]) {
      const reply = (await ask(ws.token, message)).reply;
      expect(reply.data.answer, `${message}: ${reply.text}`).toMatchObject({ kind: "value", resource: "invoices", fn: "sum", field: "amount_due" });
    }
  });

  it("reads a name that goes on past a word read as a field ('status of Ship emails in Partner API': the task, not a field of 'Ship')", async () => {
    const { ws, website } = await company();
    for (const title of ["Ship exports", "Ship login"]) await create(ws, "tasks", { title, project_id: website.id });
    const emails = await create(ws, "tasks", { title: "Ship emails", project_id: website.id, status: "in_progress" });
    const reply = (await ask(ws.token, `what's the status of Ship emails in ${website.name}`)).reply;
    expect(reply.text).toContain("is in progress");
    expect(reply.records?.map((record) => record.id)).toEqual([emails.id]);
    // The name alone still asks which of them.
    expect((await ask(ws.token, "what's the status of ship")).reply.intent).toBe("clarify");
  });

  it("reads a misspelt name with a field only a customer has ('whats gringots balance') as that customer, not the people at a company so named", async () => {
    const { ws } = await company();
    const gringotts = await create(ws, "customers", { name: "Gringotts", currency: "USD", email: "ap@gringotts.example" });
    for (const name of ["Griphook Goblin", "Bogrod Goblin"])
      await create(ws, "contacts", { name, company: "Gringotts", email: `${name.split(" ")[0]!.toLowerCase()}@gringotts.example` });
    const reply = (await ask(ws.token, "whats gringots balance rn")).reply;
    expect(reply.data.answer, reply.text).toMatchObject({ resource: "customers", ids: [gringotts.id], field: "balance" });
    // A kind of person said in the plural is still a value ("accountants" are employees so designated).
    await create(ws, "employees", { name: "Alma Counter", email: "alma@corp.example", designation: "Accountant" });
    expect((await ask(ws.token, "list our accountants")).reply.data.answer).toMatchObject({ resource: "employees", total: 1 });
  });

  it("reads 'sales managers not in berlin' as those of the title elsewhere ('not' ends the words of a value before it)", async () => {
    const { ws } = await company();
    await create(ws, "employees", { name: "Sam Seller", email: "sam@assist.co", designation: "Sales Manager", branch: "Berlin" });
    const sue = await create(ws, "employees", { name: "Sue Seller", email: "sue@assist.co", designation: "Sales Manager", branch: "Remote" });
    const reply = (await ask(ws.token, "sales managers not in berlin")).reply;
    expect(reply.data.answer, reply.text).toMatchObject({ resource: "employees", ids: [sue.id] });
  });

  it("reads 'how many ppl have we hired this year' as the people who joined (a verb said of employees too is theirs), 'people who applied' as candidates", async () => {
    const { ws, candidate } = await company();
    const hired = (await ask(ws.token, "how many ppl have we hired this year")).reply;
    expect(hired.data.answer, hired.text).toMatchObject({ kind: "value", fn: "count", resource: "employees", value: 1 });
    const applied = (await ask(ws.token, "people who applied this year")).reply;
    expect(applied.data.answer, applied.text).toMatchObject({ resource: "candidates", ids: [candidate.id] });
  });

  it("follows a count with 'and what's she working on right now' as the tasks themselves, not their number", async () => {
    const { ws, website, ana, linus, task } = await company();
    // ("hours per engineer": per a word no field groups by — a title — is per person, of those people.)
    await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ana.id, task_id: task.id, date: today(), minutes: 30 } });
    await call("POST", "/time-entries", { token: ws.token, body: { employee_id: linus.id, task_id: task.id, date: today(), minutes: 45 } });
    const perEngineer = (await ask(ws.token, "total hours today per engineer")).reply;
    expect(perEngineer.data.answer, perEngineer.text).toMatchObject({ kind: "groups", group_by: "employee_id" });
    expect(perEngineer.data.answer.groups).toEqual([expect.objectContaining({ key: ana.id, value: 30 })]);
    const busy = await create(ws, "tasks", { title: "Fix login", project_id: website.id, assignee_id: ana.id, status: "in_progress" });
    const counted = await ask(ws.token, "how many tasks did ana garcia finish this year");
    expect(counted.reply.data.answer).toMatchObject({ kind: "value", fn: "count" });
    const working = (await ask(ws.token, "and what's she working on right now", counted.conversation_id)).reply;
    expect(working.data.answer, working.text).toMatchObject({ kind: "records", resource: "tasks", ids: [busy.id] });
  });

  it("reads 'the oldest due date on …' as that date (not the invoices by it), and a sum of records named after a company no record refers to", async () => {
    const { ws, acme, invoice } = await company();
    await sentInvoice(ws, {
      customer_id: acme.id,
      currency: "USD",
      due_date: "2099-06-30",
      items: [{ description: "Later", quantity: 1, unit_amount: 10_000 }],
    });
    const oldest = (await ask(ws.token, "oldest due date on acme's open invoices")).reply;
    expect(oldest.data.answer, oldest.text).toMatchObject({ kind: "value", fn: "min", field: "due_date", value: invoice.due_date });
    const latest = (await ask(ws.token, "latest due date among open invoices")).reply;
    expect(latest.data.answer, latest.text).toMatchObject({ kind: "value", fn: "max", field: "due_date", value: "2099-06-30" });
    // ("oldest due date first" is still an order for the invoices.)
    const ordered = (await ask(ws.token, "open invoices, oldest due date first")).reply;
    expect(ordered.data.answer, ordered.text).toMatchObject({ kind: "records", ids: [invoice.id, expect.any(Number)] });
    // ("pending from X till date": what X still owes, so far — not a period, nor part of the name.)
    const pending = (await ask(ws.token, "Kindly tell me how much is pending from Acme till date.")).reply;
    expect(pending.data.answer, pending.text).toMatchObject({ kind: "value", fn: "sum", field: "amount_due", value: { USD: 160_000 } });
    expect(pending.data.query.period).toBeNull();
    // Deals named "Hooli — …" that refer to no customer: "total value of hooli deals" adds them up, as "hooli deals" lists them.
    await create(ws, "customers", { name: "Hooli", email: "ap@hooli.example" });
    await create(ws, "deals", { name: "Hooli — pilot", value: 400_000, currency: "USD" });
    await create(ws, "deals", { name: "Hooli — renewal", value: 100_000, currency: "USD", stage: "won" });
    const total = (await ask(ws.token, "total value of hooli deals")).reply;
    expect(total.data.answer, total.text).toMatchObject({ kind: "value", fn: "sum", value: { USD: 500_000 } });
    const open = (await ask(ws.token, "sum of open deal value for hooli")).reply;
    expect(open.data.answer, open.text).toMatchObject({ kind: "value", fn: "sum", value: { USD: 400_000 } });
  });

  it("reads a field's or a measure's name that opens with a state word as a question ('lost reasons this year', 'open pipeline by stage'), grouped by it", async () => {
    const { ws } = await company();
    await create(ws, "deals", { name: "Gone One", value: 10_000, currency: "USD", stage: "lost", lost_reason: "price" });
    await create(ws, "deals", { name: "Gone Two", value: 20_000, currency: "USD", stage: "lost", lost_reason: "price" });
    await create(ws, "deals", { name: "Gone Three", value: 30_000, currency: "USD", stage: "lost", lost_reason: "timing" });
    for (const message of ["lost reasons this year", "lost reasons breakdown", "breakdown of lost reasons"]) {
      const reasons = (await ask(ws.token, message)).reply;
      expect(reasons.intent, `${message}: ${reasons.text}`).toBe("metric");
      expect(reasons.data.answer, message).toMatchObject({ kind: "groups", resource: "deals", fn: "count", group_by: "lost_reason" });
      const counts = Object.fromEntries(reasons.data.answer.groups.map((group: { key: string; value: number }) => [group.key, group.value]));
      expect(counts, message).toEqual({ price: 2, timing: 1 });
    }
    // ("lost deals and the reasons" is still the deals, each with its reason.)
    expect((await ask(ws.token, "lost deals and the reasons")).reply.data.answer).toMatchObject({ kind: "records", resource: "deals" });
    // ("how much did we close" is business won: the value of the deals won, not of tasks closed.)
    const closed = (await ask(ws.token, "how much did we close this year")).reply;
    expect(closed.data.answer, closed.text).toMatchObject({ kind: "value", resource: "deals", fn: "sum", field: "value" });
    expect(closed.data.query.conditions).toEqual([expect.objectContaining({ field: "stage", value: "won" })]);
    // ("top lead sources": the values of a few-valued field, ranked by how many records have each.)
    const sources = (await ask(ws.token, "top lead sources")).reply;
    expect(sources.data.answer, sources.text).toMatchObject({ kind: "groups", resource: "leads", fn: "count", group_by: "source" });
    expect(sources.data.answer.groups.map((group: { key: string }) => group.key)).toEqual(expect.arrayContaining(["website", "referral"]));
    const pipeline = (await ask(ws.token, "open pipeline by stage")).reply;
    expect(pipeline.action, pipeline.text).toBeUndefined();
    expect(pipeline.data.answer).toMatchObject({ kind: "groups", resource: "deals", fn: "sum", field: "value", group_by: "stage" });
  });
});
