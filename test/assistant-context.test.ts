import { describe, expect, it } from "vitest";
import { ask, company, expectRequests, requestOf, sentInvoice, today } from "./assistant-fixture";
import { call, create, noOutboundCalls } from "./helpers";

noOutboundCalls();

describe("commands said with their context", () => {
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
    // A sentence's capital makes no name of a talk word ("Whatever", "Till"); a request ended by its full stop, then
    // why, is that request.
    const whatever = await ask(ws.token, "Whatever tasks of Ana Garcia are not done, please list.");
    expect(whatever.reply.data.answer, whatever.reply.text).toMatchObject({ kind: "records", resource: "tasks", ids: [task.id] });
    const till = await ask(ws.token, "Till date total hours logged by Ana Garcia?");
    expect(till.reply.data.answer, till.reply.text).toMatchObject({ kind: "value", value: 50 });
    const audit = await ask(ws.token, "Please give me list of employees in engineering. Needed for audit purpose.");
    expect(audit.reply.data.answer, audit.reply.text).toMatchObject({ kind: "records", resource: "employees", total: 2 });
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
  });

  it("asks one record's field by its form, reads words as people say them, and takes a follow-up about the last answer's records", async () => {
    const { ws, acme, ana, invoice } = await company();
    const other = await create(ws, "projects", { name: "Intranet", customer_id: acme.id });
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
    // refer to the last answer's ("… and how much of that is overdue" after what all customers owe); a choice by surname.
    expect((await ask(ws.token, "what currency does acme pay in")).reply.data.answer).toMatchObject({ ids: [acme.id], field: "currency" });
    expect((await ask(ws.token, "which customer is the Intranet for")).reply.data.answer).toMatchObject({ ids: [other.id], field: "customer_id" });
    expect((await ask(ws.token, "who in engineering joined this year")).reply.data.query.resource).toBe("employees");
    expect((await ask(ws.token, "anyone without a department?")).reply.data.query).toMatchObject({ resource: "employees" });
    const balances = await ask(ws.token, "total outstanding across all customers?");
    const overdue = await ask(ws.token, "and how much of that is actually overdue", balances.conversation_id);
    // (The outstanding invoices of every customer, then those of them that are overdue.)
    expect(overdue.reply.data.query).toMatchObject({
      resource: "invoices",
      conditions: expect.arrayContaining([expect.objectContaining({ param: "overdue" })]),
    });
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
    const bigger = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", items: [{ description: "More", quantity: 1, unit_amount: 900_000 }] });
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

  it("reads news as its command: a record's number for 'it', a move in progress, an accepted offer, a deal that fell through", async () => {
    const { ws, invoice, linus, candidate, smallFry, bigCo } = await company();
    const digits = String(Number(invoice.number.replace(/\D/g, "")));
    const cases = [
      // "it" in a clause of its own is the one record the message names by its number.
      [`acme says they never got ${invoice.number}, resend it`, "POST", `/invoices/${invoice.id}/send`, {}],
      [`${invoice.number} was issued by mistake, cancel it please`, "POST", `/invoices/${invoice.id}/void`, {}],
      ["Linus Torvalds is moving over to Sales", "PATCH", `/employees/${linus.id}`, { department: "Sales" }],
      ["Joan Clarke accepted the offer, starts dec 1", "POST", `/candidates/${candidate.id}/hire`, { date_of_joining: expect.stringMatching(/-12-01$/) }],
      // A state in the skill's own words ("fell through" is lost), with "is" or "the" before it; why, when said.
      ["the Small Fry deal fell through", "PATCH", `/deals/${smallFry.id}`, { stage: "lost" }],
      ["Big Co is lost, they went with a competitor", "PATCH", `/deals/${bigCo.id}`, { stage: "lost", lost_reason: "competitor" }],
      ["Big Co deal is now 30k", "PATCH", `/deals/${bigCo.id}`, { value: 3_000_000 }],
      // "inv 1": an invoice by its number; cash "dropped off" is a payment.
      [`acme dropped off cash for inv ${digits}, 15 bucks`, "POST", "/payments", { invoice_id: invoice.id, amount: 1_500, method: "cash" }],
    ] as const;
    await expectRequests(ws.token, cases);
    // A question in those words stays a question.
    expect((await ask(ws.token, "who's interviewing")).reply.action).toBeUndefined();
  });

  it("reads a new number said as news, a name in lower case before its clause, and 'hire her' after a question about her", async () => {
    const { ws, alan, linus, candidate } = await company();
    const cases = [
      ["alan turing got a new number +1 (415) 555-2290", "PATCH", `/contacts/${alan.id}`, { phone: "+14155552290" }],
      // A title of address is no part of the name.
      ["Mister Alan Turing has new mobile number: +1 415 555 0199, please change", "PATCH", `/contacts/${alan.id}`, { phone: "+14155550199" }],
      // People who only share a surname are no reading of the name: the clause "make him active again" is.
      ["linus torvalds is back from leave, make him active again", "PATCH", `/employees/${linus.id}`, { status: "active" }],
      // One name, then what someone did with an offer: the command after it is on them — the candidate hired, not an
      // employee of that first name given a new title.
      ["Joan accepted! hire her", "POST", `/candidates/${candidate.id}/hire`, {}],
      // A title as it is to be, said as news.
      [
        "Linus Torvalds's title is changing to Staff Engineer, please update his designation",
        "PATCH",
        `/employees/${linus.id}`,
        { designation: "Staff Engineer" },
      ],
    ] as const;
    await create(ws, "employees", { name: "Joan Smith", email: "joan.smith@assist.co" });
    await expectRequests(ws.token, cases);
    const about = await ask(ws.token, "email of joan clarke (candidate)");
    const hire = await ask(ws.token, "hire her as an Engineer in engineering, starting dec 1", about.conversation_id);
    expect(await requestOf(ws.token, hire.reply)).toMatchObject({ path: `/candidates/${candidate.id}/hire`, body: { designation: "Engineer" } });
  });

  it("repeats the last proposal's verb for another listed record, puts 'the 2nd one - …' first, and reads work said in the past", async () => {
    const { ws, acme, task, bigCo, smallFry, east, west } = await company();
    const beta = await create(ws, "customers", { name: "Beta Works", email: "ap@beta.example", currency: "USD" });
    const draftOf = async (customer: number) =>
      create(ws, "invoices", { customer_id: customer, currency: "USD", items: [{ description: "Work", quantity: 1, unit_amount: 10_000 }] });
    const [acmeDraft, betaDraft] = [await draftOf(acme.id), await draftOf(beta.id)];
    // "send the acme one" → "and the beta one too but to …": the same verb, another record of the list.
    const drafts = await ask(ws.token, "drafts pls");
    const first = await ask(ws.token, "send the acme one", drafts.conversation_id);
    expect((await requestOf(ws.token, first.reply)).path).toBe(`/invoices/${acmeDraft.id}/send`);
    const again = await ask(ws.token, "and the beta one too but to billing@beta.example", drafts.conversation_id);
    expect(await requestOf(ws.token, again.reply)).toMatchObject({ path: `/invoices/${betaDraft.id}/send`, body: { to: "billing@beta.example" } });
    // "the 2nd one - push it to proposal": the record picked, then the command on "it".
    const biggest = await ask(ws.token, "biggest 2 open deals");
    const second = await ask(ws.token, "the 2nd one - push it to proposal", biggest.conversation_id);
    expect(await requestOf(ws.token, second.reply)).toMatchObject({ path: `/deals/${west.id}`, body: { stage: "proposal" } });
    // "by how much is still due" sorts by the amount due.
    const unpaid = await ask(ws.token, "unpaid invoices");
    const sorted = await ask(ws.token, "sort those by how much is still due, biggest first", unpaid.conversation_id);
    expect(sorted.reply.data.query.aggregate).toMatchObject({ field: "amount_due", order: "desc" });
    const cases = [
      ["we closed the Small Fry deal today!! please update it", "PATCH", `/deals/${smallFry.id}`, { stage: "won" }],
      ["moved the Acme East deal to meeting after todays call", "PATCH", `/deals/${east.id}`, { stage: "meeting" }],
      ["ana garcia started on write copy for website", "PATCH", `/tasks/${task.id}`, { status: "in_progress" }],
      ["finished write copy on website", "PATCH", `/tasks/${task.id}`, { status: "done" }],
      ["Big Co deal slipped, new expected close end of january", "PATCH", `/deals/${bigCo.id}`, { expected_close_date: expect.stringMatching(/-01-31$/) }],
    ] as const;
    await expectRequests(ws.token, cases);
  });

  it("reads a value handed over, an address after 'moved offices', someone who quit, and 'assign X' in a new task", async () => {
    const { ws, acme, linus, ana, website } = await company();
    const cases = [
      ["Acme gave us their VAT number: DE811907980", "PATCH", `/customers/${acme.id}`, { tax_id: "DE811907980" }],
      [
        "acme moved offices - new billing addr is Friedrichstr. 68, 10117 Berlin",
        "PATCH",
        `/customers/${acme.id}`,
        { billing: { address_line1: "Friedrichstr. 68", postal_code: "10117", city: "Berlin" } },
      ],
      [
        "hi, bit of sad news - linus torvalds quit, his last day was friday. can you update his status in the system",
        "PATCH",
        `/employees/${linus.id}`,
        { status: "left" },
      ],
      ["add a task 'Migrate invoices' to Website, assign Ana Garcia, high priority", "POST", "/tasks", { project_id: website.id, assignee_id: ana.id }],
    ] as const;
    await expectRequests(ws.token, cases);
  });

  it("reads money said as news for the invoice in focus, and 'X is for Y, link it'", async () => {
    const { ws, invoice, website, acme } = await company();
    const balance = await ask(ws.token, `whats the open balance on ${invoice.number}?`);
    const rest = await ask(ws.token, "they just wired the rest", balance.conversation_id);
    expect(await requestOf(ws.token, rest.reply)).toMatchObject({ path: "/payments", body: { invoice_id: invoice.id, method: "bank_transfer" } });
    const link = await ask(ws.token, "the Website project is for Acme, link it pls");
    expect(await requestOf(ws.token, link.reply)).toMatchObject({ path: `/projects/${website.id}`, body: { customer_id: acme.id } });
  });

  it("reads whom news is of and what 'it' is after a question, a dash for a colon, and 'the oldest one' as one record", async () => {
    const { ws, acme, bigCo, candidate, website, ana, invoice } = await company();
    const stage = await ask(ws.token, "what stage is the big co deal at");
    // ("we just signed it!!": "it" is the deal the conversation is about, not "we just".)
    const won = await ask(ws.token, "we just signed it!! mark it won", stage.conversation_id);
    expect(await requestOf(ws.token, won.reply)).toMatchObject({ path: `/deals/${bigCo.id}`, body: { stage: "won" } });
    await expectRequests(ws.token, [
      ["joan clarke signed the offer, go ahead and hire her", "POST", `/candidates/${candidate.id}/hire`, {}],
      ["not moving fwd with joan clarke, reject pls", "PATCH", `/candidates/${candidate.id}`, { stage: "rejected" }],
      ["task for website - fix the footer, give it to ana", "POST", "/tasks", { title: "Fix the footer", project_id: website.id, assignee_id: ana.id }],
    ]);
    // "whats the oldest one" after a list is one record, and "it" then is that one.
    const later = await create(ws, "invoices", {
      customer_id: acme.id,
      currency: "USD",
      items: [{ description: "More", quantity: 1, unit_amount: 2_000_000 }],
    });
    await call("POST", `/invoices/${later.id}/send`, { token: ws.token });
    const unpaid = await ask(ws.token, "unpaid invoices for acme");
    expect(unpaid.reply.data.answer.total).toBe(2);
    const oldest = await ask(ws.token, "whats the oldest one", unpaid.conversation_id);
    expect(oldest.reply.data.answer.ids).toEqual([invoice.id]);
    const remind = await ask(ws.token, "send them a reminder for it", unpaid.conversation_id);
    expect(await requestOf(ws.token, remind.reply)).toMatchObject({ path: `/invoices/${invoice.id}/remind` });
    // "only where they still owe more than 10k" after the overdue ones keeps them overdue and compares what is owed.
    const overdue = await ask(ws.token, "whats overdue rn");
    const over = await ask(ws.token, "only where they still owe more than 1k", overdue.conversation_id);
    expect(over.reply.data.query.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ param: "overdue" }), expect.objectContaining({ field: "amount_due", op: "gt", value: 100_000 })]),
    );
    expect(over.reply.data.answer).toMatchObject({ kind: "records", ids: [invoice.id] });
  });

  it("reads who we have somewhere, who applied for a role, a new applicant, an opening's seats, 'billed in' and 'there'", async () => {
    const { ws, acme, opening, ada } = await company();
    const known = await ask(ws.token, "who do we have at analytical engines");
    expect(known.reply.data.answer).toMatchObject({ resource: "contacts", ids: [ada.id] });
    const there = await ask(ws.token, "add Kenji Sato there too, kenji@engines.example", known.conversation_id);
    expect(await requestOf(ws.token, there.reply)).toMatchObject({ path: "/contacts", body: { name: "Kenji Sato", company: "Analytical Engines" } });
    const applied = await ask(ws.token, "who applied for the backend engineer role");
    expect(applied.reply.data.answer).toMatchObject({ resource: "candidates" });
    await create(ws, "employees", { name: "Otto Berliner", email: "otto@assist.co", branch: "Berlin", date_of_joining: "2024-01-01" });
    const berlin = await ask(ws.token, "who's in the berlin office");
    expect(berlin.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "branch", value: "Berlin" })]);
    await expectRequests(ws.token, [
      ["add Tomás Ruiz (tomas.ruiz@mail.example) applying for backend engineer", "POST", "/candidates", { name: "Tomás Ruiz", job_opening_id: opening.id }],
      ["bump backend engineer openings to 3", "PATCH", `/job-openings/${opening.id}`, { positions: 3 }],
      ["Acme is now billed in EUR", "PATCH", `/customers/${acme.id}`, { currency: "EUR" }],
    ]);
  });

  it("reads everyday verbs: 'drop X to', 'fire off', 'take down', 'take … off', 'make X an offer', 'X applied to', 'we closed the …'", async () => {
    const { ws, bigCo, opening, candidate, invoice, acme } = await company();
    const paid = (await call("GET", `/payments?invoice_id=${invoice.id}`, { token: ws.token })).json.data[0];
    await expectRequests(ws.token, [
      ["drop the big co value to 20k", "PATCH", `/deals/${bigCo.id}`, { value: 2_000_000 }],
      ["let's make joan clarke an offer", "PATCH", `/candidates/${candidate.id}`, { stage: "offer" }],
      ["Noah Fischer applied to backend engineer, noah@mail.example", "POST", "/candidates", { name: "Noah Fischer", job_opening_id: opening.id }],
      [`take the payment off ${invoice.number}, they charged it back`, "DELETE", `/payments/${paid.id}`],
      ["take down the backend engineer posting", "DELETE", `/job-openings/${opening.id}`],
    ]);
    const listed = await ask(ws.token, "overdue invoices for acme");
    const fired = await ask(ws.token, "fire off a reminder for that one", listed.conversation_id);
    expect(await requestOf(ws.token, fired.reply)).toMatchObject({ path: `/invoices/${invoice.id}/remind` });
    const deal = await create(ws, "deals", { name: "Acme migration", value: 300_000, currency: "USD", customer_id: acme.id });
    const closed = await ask(ws.token, "we closed the acme migration!! mark it won");
    expect(await requestOf(ws.token, closed.reply)).toMatchObject({ path: `/deals/${deal.id}`, body: { stage: "won" } });
  });

  it("reads two fields set in one breath, a project's run, a contact's move, a kind in brackets, a note asked for, and refuses a change to all", async () => {
    const { ws, linus, ada, sophie, invoice, opening } = await company();
    const now = new Date();
    const runEnds = now.getUTCFullYear() + (now.getUTCMonth() === 0 && now.getUTCDate() <= 15 ? 0 : 1);
    await expectRequests(ws.token, [
      [
        "linus torvalds: set department to finance and title to accountant",
        "PATCH",
        `/employees/${linus.id}`,
        { department: "Finance", designation: "Accountant" },
      ],
      // (Said on any day: the next jan 15, and the dec 1 before it.)
      [
        "new project 'Year-end close', runs dec 1 to jan 15",
        "POST",
        "/projects",
        { name: "Year-end close", start_date: `${runEnds - 1}-12-01`, end_date: `${runEnds}-01-15` },
      ],
      ["ada lovelace left analytical engines, she's at umbrella now", "PATCH", `/contacts/${ada.id}`, { company: "Umbrella" }],
      ["sophie brown (lead) converted, update her", "PATCH", `/leads/${sophie.id}`, { status: "converted" }],
      [`${invoice.number} needs PO reference 88213 in the notes`, "PATCH", `/invoices/${invoice.id}`, { notes: "PO reference 88213" }],
      ["we need one more backend engineer, make it 3 positions", "PATCH", `/job-openings/${opening.id}`, { positions: 3 }],
    ]);
    const all = await ask(ws.token, "mark every single invoice as paid so the dashboard looks clean");
    expect(all.reply.data).toMatchObject({ refused: true });
    expect(all.reply.action).toBeUndefined();
  });

  it("asks what is missing rather than taking 'as a contact' for a name or 'new due date' for a new record", async () => {
    const { ws, invoice, ana, task } = await company();
    const saved = await ask(ws.token, "save procurement@stark.example as a contact under stark");
    expect(saved.reply.data).toMatchObject({ missing: ["name"] });
    const time = await ask(ws.token, `put in time for ana on write copy, yesterday`);
    expect(time.reply.data.missing).toEqual(["minutes"]);
    expect(time.reply.data.slot.draft.fields).toMatchObject({ employee_id: ana.id, task_id: task.id });
    const later = await ask(ws.token, `give acme two more weeks on ${invoice.number}, new due date dec 23`);
    expect(await requestOf(ws.token, later.reply)).toMatchObject({ path: `/invoices/${invoice.id}`, body: { due_date: expect.stringMatching(/-12-23$/) } });
  });
  it("picks a listed record by its number ('the first one' is task N, whatever its title says), reads 'set it in progress' over a title's state word, and where invoices went", async () => {
    const { ws, website, ana, acme, invoice } = await company();
    const review = await create(ws, "tasks", { title: "Review exports", project_id: website.id, assignee_id: ana.id, due_date: "2099-01-01" });
    await create(ws, "tasks", { title: "Review exports", project_id: (await create(ws, "projects", { name: "Intranet" })).id });
    const listed = await ask(ws.token, "ana garcia's tasks that aren't done, sort by due date latest first");
    expect(listed.reply.data.answer.ids[0]).toBe(review.id);
    const done = await ask(ws.token, "mark the first one done", listed.conversation_id);
    expect(await requestOf(ws.token, done.reply)).toMatchObject({ path: expect.stringMatching(new RegExp(`^/tasks/${review.id}`)), body: { status: "done" } });
    // ("when is task N due": the task's date, though invoices are due too.)
    const due = await ask(ws.token, `when is task ${review.id} due`);
    expect(due.reply.data.answer).toMatchObject({ resource: "tasks", ids: [review.id], field: "due_date" });
    const started = await ask(ws.token, "starting on review exports in website — set it in progress");
    expect(await requestOf(ws.token, started.reply)).toMatchObject({ body: { status: "in_progress" } });
    // "invoices that were sent to ap@acme.example": wherever they are now; "contacts at @example.com": the address's end.
    const sent = await ask(ws.token, "invoices that were sent to ap@acme.example");
    expect(sent.reply.data.answer).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    const domain = await ask(ws.token, "contacts with an email ending in @example.com");
    expect(domain.reply.data.answer).toMatchObject({ kind: "records", resource: "contacts", total: 2 });
    expect(acme.email).toBe("ap@acme.example");
  });
  it("reminds about 'their oldest one' of the customer just asked about, of those still owed; picks an option by its stage", async () => {
    const { ws, acme, invoice, opening, candidate } = await company();
    // A newer open invoice and an older paid one: the oldest still owed is the fixture's (January).
    await sentInvoice(ws, {
      customer_id: acme.id,
      currency: "USD",
      issue_date: "2026-03-05",
      due_date: "2026-04-05",
      items: [{ description: "More work", quantity: 1, unit_amount: 20_000 }],
    });
    const paid = await sentInvoice(ws, {
      customer_id: acme.id,
      currency: "USD",
      issue_date: "2025-12-01",
      due_date: "2025-12-31",
      items: [{ description: "Old work", quantity: 1, unit_amount: 10_000 }],
    });
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: paid.id, amount: 10_000 } });
    const owed = await ask(ws.token, "how much does acme still need to pay us?");
    expect(owed.reply.data).toMatchObject({ query: { resource: "invoices", aggregate: { field: "amount_due" } } });
    const nudge = await ask(ws.token, "can you send them a nudge about the oldest one", owed.conversation_id);
    expect(await requestOf(ws.token, nudge.reply)).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/remind` });
    // ("the one who's still in screening": of the options, the one at that stage.)
    await call("PUT", `/candidates/${candidate.id}`, { token: ws.token, body: { stage: "interview" } });
    const other = await create(ws, "candidates", { job_opening_id: opening.id, name: "Joan Baez", email: "baez@mail.example" });
    await call("PUT", `/candidates/${other.id}`, { token: ws.token, body: { stage: "screening" } });
    const which = await ask(ws.token, "what stage is joan at?");
    expect(which.reply.intent).toBe("clarify");
    const picked = await ask(ws.token, "The one who's still in screening.", which.conversation_id);
    expect(picked.reply.text).toContain("Joan Baez");
  });
  it("acts on the record the conversation is about when a command names none, and reads 'paid on it yet' of it", async () => {
    const { ws, acme, invoice } = await company();
    const address = await ask(ws.token, "whats the billing address we have for acme");
    const moved = await ask(ws.token, "change the city to Boston, zip 02110", address.conversation_id);
    expect(await requestOf(ws.token, moved.reply)).toMatchObject({
      method: "PATCH",
      path: `/customers/${acme.id}`,
      body: { billing: { city: "Boston", postal_code: "02110" } },
    });
    const due = await ask(ws.token, `when is ${invoice.number} due?`);
    const paid = await ask(ws.token, "has anything been paid on it yet", due.conversation_id);
    expect(paid.reply.data.answer).toMatchObject({ resource: "payments", total: 1 });
    // The payments' question was about the invoice: a command naming no record is about it too.
    const remind = await ask(ws.token, "ok send them a reminder", paid.conversation_id);
    expect(await requestOf(ws.token, remind.reply)).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/remind` });
    // With no record in the conversation, it is asked for.
    const fresh = await ask(ws.token, "send a reminder");
    expect(fresh.reply.action).toBeUndefined();
    expect(fresh.reply.text).toMatch(/which invoice/i);
  });
  it("keeps a question a question where news would be a change, sends only where a command points, and never deletes a record it was not told", async () => {
    const { ws, acme, task, invoice } = await company();
    for (const message of [
      `who is taking over task ${task.id}?`,
      "who is joining the sales team",
      "do we know if Acme is a new client?",
      "I think Initech is a new client",
      "deals with stage = won",
      "what needs urgent attention today?",
      "can we delete invoices?",
      "10 hours for acme last month? seems low",
    ]) {
      const { reply } = await ask(ws.token, message);
      expect(reply.action, `${message} → ${reply.text}`).toBeUndefined();
    }
    // An address said for something else is never where an invoice goes.
    const both = await ask(ws.token, `update acme's email to new@acme.example and send ${invoice.number}`);
    if (both.reply.action) expect((await requestOf(ws.token, both.reply)).body?.to).not.toBe("new@acme.example");
    // "delete the customer" after a question about one still asks which.
    const about = await ask(ws.token, "whats the billing address we have for acme");
    const gone = await ask(ws.token, "delete the customer", about.conversation_id);
    expect(gone.reply.action).toBeUndefined();
    expect(gone.reply.text).toMatch(/which customer/i);
    // A name in capitals that starts with a number word stays a name.
    const bakery = await create(ws, "customers", { name: "Forty Acres Bakery", email: "hi@forty.example" });
    const found = await ask(ws.token, "email of Forty Acres Bakery");
    expect(found.reply.data.answer).toMatchObject({ resource: "customers", ids: [bakery.id] });
    expect(acme.id).not.toBe(bakery.id);
  });

  it("changes the one line of an invoice just proposed: 'actually make it 4 sessions', 'make it 900 each', 'no, 2', '$1.2k per session'", async () => {
    const { ws, acme } = await company();
    const first = await ask(ws.token, "invoice acme for 3 training sessions @ $800");
    const line = { description: "Training session", quantity: 3, unit_amount: 80_000 };
    expect(await requestOf(ws.token, first.reply)).toMatchObject({ path: "/invoices", body: { customer_id: acme.id, items: [line] } });
    const more = await ask(ws.token, "actually make it 4 sessions", first.conversation_id);
    expect((await requestOf(ws.token, more.reply)).body).toMatchObject({ customer_id: acme.id, items: [{ ...line, quantity: 4 }] });
    const priced = await ask(ws.token, "make it 900 each", first.conversation_id);
    expect((await requestOf(ws.token, priced.reply)).body).toMatchObject({ items: [{ ...line, quantity: 4, unit_amount: 90_000 }] });
    const fewer = await ask(ws.token, "no, 2", first.conversation_id);
    expect((await requestOf(ws.token, fewer.reply)).body).toMatchObject({ items: [{ ...line, quantity: 2, unit_amount: 90_000 }] });
    expect(fewer.reply.text).toContain("2 × Training session at 900.00");
    const dearer = await ask(ws.token, "actually $1.2k per session", first.conversation_id);
    expect((await requestOf(ws.token, dearer.reply)).body).toMatchObject({ items: [{ ...line, quantity: 2, unit_amount: 120_000 }] });
  });

  it("reads 'on it' after an invoice's payments as that invoice, 'another 500' as the amount, and never the invoice's own total", async () => {
    const { ws, acme } = await company();
    const owed = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", items: [{ description: "Audit", quantity: 1, unit_amount: 379_600 }] });
    await call("POST", "/payments", { token: ws.token, body: { invoice_id: owed.id, amount: 100_000, method: "bank_transfer" } });
    const listed = await ask(ws.token, `payments logged against ${owed.number}`);
    expect(listed.reply.data.answer).toMatchObject({ resource: "payments", total: 1 });
    const more = await ask(ws.token, "add another 500 on it, they paid by card today", listed.conversation_id);
    expect((await requestOf(ws.token, more.reply)).body).toMatchObject({ invoice_id: owed.id, amount: 50_000, method: "card" });
  });

  it("finds 'the draft one' among whose the conversation is about when the list narrowed past it", async () => {
    const { ws, acme } = await company();
    await sentInvoice(ws, { customer_id: acme.id, currency: "USD", items: [{ description: "Audit", quantity: 1, unit_amount: 50_000 }] });
    const draft = await create(ws, "invoices", { customer_id: acme.id, currency: "USD", items: [{ description: "Extra", quantity: 1, unit_amount: 9_000 }] });
    const all = await ask(ws.token, "show me all the acme invoices");
    const unpaid = await ask(ws.token, "only the unpaid ones", all.conversation_id);
    expect(unpaid.reply.data.answer).toMatchObject({ resource: "invoices" });
    expect(unpaid.reply.data.answer.ids).not.toContain(draft.id);
    const voided = await ask(ws.token, "void the draft one, they cancelled that order", all.conversation_id);
    expect(await requestOf(ws.token, voided.reply)).toMatchObject({ method: "POST", path: `/invoices/${draft.id}/void` });
  });

  it("reads 'and the holdings entity?' after a question about a company as its namesake with that word (Acme Holdings)", async () => {
    const { ws, acme } = await company();
    const holdings = await create(ws, "customers", { name: "Acme Holdings", email: "ap@acmeholdings.example", currency: "USD" });
    const first = await ask(ws.token, "acme's total outstanding?");
    expect(JSON.stringify(first.reply.data.query.conditions)).toContain(`${acme.id}`);
    const kin = await ask(ws.token, "and the holdings entity?", first.conversation_id);
    expect(kin.reply.data.query).toMatchObject({ resource: "invoices", aggregate: { fn: "sum", field: "amount_due" } });
    expect(JSON.stringify(kin.reply.data.query.conditions)).toContain(`${holdings.id}`);
  });

  it("reads 'their' in a question as the one company the last answer was about or named", async () => {
    const { ws, acme } = await company();
    const owed = await ask(ws.token, "how much does acme owe us");
    const email = await ask(ws.token, "whats their email", owed.conversation_id);
    expect(email.reply.data.answer, email.reply.text).toMatchObject({ resource: "customers", ids: [acme.id] });
    expect(email.reply.text).toContain("ap@acme.example");
  });

  it("asks which of the people at the company said ('update the email for tim at massive …'), of the kind most of them are, and 'the keller one' picks", async () => {
    const { ws } = await company();
    await create(ws, "employees", { name: "Tim Sagan", email: "tim.sagan@corp.example" });
    const [, keller] = [
      await create(ws, "contacts", { name: "Tim Clarke", email: "tc@massive.example", company: "Massive" }),
      await create(ws, "contacts", { name: "Tim Keller", email: "tk@massive.example", company: "Massive" }),
    ];
    await create(ws, "leads", { name: "Tim Dijkstra", email: "td@massive.example", company: "Massive" });
    const asked = await ask(ws.token, "update the email for tim at massive to tim@massive.example");
    expect(asked.reply.intent, asked.reply.text).toBe("clarify");
    expect(asked.reply.data.choose.options.map((option: { label: string }) => option.label)).toEqual(["Tim Clarke", "Tim Keller"]);
    const picked = await ask(ws.token, "the keller one", asked.conversation_id);
    expect(await requestOf(ws.token, picked.reply)).toMatchObject({ method: "PATCH", path: `/contacts/${keller!.id}`, body: { email: "tim@massive.example" } });
  });

  it("adds to a task just proposed what 'oh and high prio, due fri, assign ana' and 'please give it high priority' say", async () => {
    const { ws, website, ana, linus, opening, candidate } = await company();
    const first = await ask(ws.token, `${website.name} needs a new task: update pricing page`);
    expect(await requestOf(ws.token, first.reply)).toMatchObject({ path: "/tasks", body: { title: "Update pricing page", project_id: website.id } });
    const more = await ask(ws.token, "oh and high prio, due fri, assign ana", first.conversation_id);
    expect((await requestOf(ws.token, more.reply)).body).toMatchObject({
      title: "Update pricing page",
      project_id: website.id,
      priority: "high",
      assignee_id: ana.id,
      due_date: expect.any(String),
    });
    const again = await ask(ws.token, `Please create a new task in the ${website.name} project: Update pricing page.`);
    const given = await ask(ws.token, "Also, please give it high priority and assign it to Linus.", again.conversation_id);
    expect((await requestOf(ws.token, given.reply)).body).toMatchObject({ title: "Update pricing page", priority: "high", assignee_id: linus.id });
    // After a change (not a new record), "and …" is another change.
    const carl = await create(ws, "candidates", { job_opening_id: opening.id, name: "Carl Wilson", email: "carl@mail.example" });
    const moved = await ask(ws.token, `move ${candidate.name} to interview`);
    expect(await requestOf(ws.token, moved.reply)).toMatchObject({ path: `/candidates/${candidate.id}`, body: { stage: "interview" } });
    const rejected = await ask(ws.token, "and reject Carl", moved.conversation_id);
    expect(await requestOf(ws.token, rejected.reply)).toMatchObject({ path: `/candidates/${carl.id}`, body: { stage: "rejected" } });
  });

  it("keeps the currency an invoice's lines are priced in when they answer what it asked ('2 training sessions at €736')", async () => {
    const { ws, acme } = await company();
    const started = await ask(ws.token, "start a draft invoice for acme, i'll give you the lines in a sec");
    expect(started.reply.data.missing).toContain("items");
    const lines = await ask(ws.token, "2 training sessions at €736", started.conversation_id);
    expect((await requestOf(ws.token, lines.reply)).body).toMatchObject({
      customer_id: acme.id,
      currency: "EUR",
      items: [{ description: "Training session", quantity: 2, unit_amount: 73_600 }],
    });
  });

  it("takes a new invoice's customer from the talk before the command ('Just got off the phone with Acme, … Can you create an invoice: …')", async () => {
    const { ws, acme } = await company();
    const message =
      "Morning! Just got off the phone with Acme, they want the three extra training sessions after all. Can you create an invoice: 3 training sessions at €736 each, 19% VAT, due in 30 days";
    const reply = (await ask(ws.token, message)).reply;
    expect((await requestOf(ws.token, reply)).body).toMatchObject({
      customer_id: acme.id,
      currency: "EUR",
      items: [{ description: "Training session", quantity: 3, unit_amount: 73_600, tax_rate: 19 }],
    });
    // Talk that names no customer still asks for one.
    const asked = (await ask(ws.token, "talked to someone at the bank. create an invoice: 3 training sessions at €736 each")).reply;
    expect(asked.data.missing).toContain("customer_id");
  });
});

describe("follow-ups about the same records or the same company", () => {
  it("reads 'they' doing the verb as the company the last question was about, and 'how much of that' or 'how many is that' of the same records", async () => {
    const { ws, acme, invoice } = await company();
    const other = await create(ws, "customers", { name: "Zenith", email: "ap@zenith.example", currency: "USD" });
    await sentInvoice(ws, { customer_id: other.id, currency: "USD", items: [{ description: "Work", quantity: 1, unit_amount: 90_000 }] });
    // Acme owes 1,500.00 on its one invoice (1,534.50 less 34.50 paid); Zenith 900.00.
    const owed = await ask(ws.token, "what does acme owe us");
    expect(owed.reply.data.answer).toMatchObject({ kind: "value", value: { USD: 150_000 } });
    const paid = await ask(ws.token, "when did they last pay us", owed.conversation_id);
    expect(paid.reply.data.query, paid.reply.text).toMatchObject({ resource: "payments", aggregate: { fn: "max", field: "paid_at" } });
    expect(paid.reply.data.query.conditions).toEqual([expect.objectContaining({ param: "customer_id", value: String(acme.id) })]);
    // (A measure of another resource asked anew, after a question about payments, is still of that company.)
    const still = await ask(ws.token, "ok and what do they still owe", paid.conversation_id);
    expect(still.reply.data.answer, still.reply.text).toMatchObject({ kind: "value", value: { USD: 150_000 } });
    // The same records' own figures: paid of them so far, still due, and how many they are.
    const billed = await ask(ws.token, "total billed this year");
    expect(billed.reply.data.answer).toMatchObject({ kind: "value", value: { USD: 243_450 } });
    const collected = await ask(ws.token, "and how much of that has been collected already?", billed.conversation_id);
    expect(collected.reply.data.answer, collected.reply.text).toMatchObject({ kind: "value", value: { USD: 3450 } });
    const left = await ask(ws.token, "and how much of it is still outstanding", collected.conversation_id);
    expect(left.reply.data.answer, left.reply.text).toMatchObject({ kind: "value", value: { USD: 240_000 } });
    const counted = await ask(ws.token, "how many invoices is that?", left.conversation_id);
    expect(counted.reply.data.answer, counted.reply.text).toMatchObject({ kind: "value", fn: "count", value: 2 });
    expect(invoice.customer_id).toBe(acme.id);
    // (A number the records keep is summed: the seats of the openings listed, 1 + 2.)
    await create(ws, "job-openings", { title: "Designer", positions: 2 });
    const roles = await ask(ws.token, "open job openings");
    const seats = await ask(ws.token, "how many positions is that in total", roles.conversation_id);
    expect(seats.reply.data.answer, seats.reply.text).toMatchObject({ kind: "value", fn: "sum", field: "positions", value: 3 });
    // The same groups, adding up the number named: deals counted by stage, then their value per stage.
    const staged = await ask(ws.token, "deals by stage");
    const valued = await ask(ws.token, "and the value per stage?", staged.conversation_id);
    expect(valued.reply.data.answer, valued.reply.text).toMatchObject({ kind: "groups", fn: "sum", field: "value", group_by: "stage" });
    const negotiation = valued.reply.data.answer.groups.find((group: { key: string }) => group.key === "negotiation");
    expect(negotiation.value).toEqual({ USD: 2_550_000 });
    // "the unqualified one" of the leads just listed: the one of them in that state.
    const cold = await create(ws, "leads", { name: "Cold Caller", email: "cold@lead.example", source: "website", status: "unqualified" });
    const listed = await ask(ws.token, "leads from the website");
    const dropped = await ask(ws.token, "delete the unqualified one", listed.conversation_id);
    expect(await requestOf(ws.token, dropped.reply)).toMatchObject({ method: "DELETE", path: `/leads/${cold.id}` });
  });

  it("reads a dictated message: 'uh', 'in voice', an address said 'at … dot …', 'her name is', 'do the needful', 'move it back to'", async () => {
    const { ws, acme, invoice, task } = await company();
    // (Speech to text splits "invoice" and spells an address out; "uh" is no part of a name.)
    const owed = (await ask(ws.token, "uh give me all the in voices for acme that aint paid")).reply;
    expect(owed.data.answer, owed.text).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    const customer = (await ask(ws.token, "make a new customer called uh baxter renovations the email is billing at baxter reno dot com")).reply;
    expect(await requestOf(ws.token, customer), customer.text).toMatchObject({
      method: "POST",
      path: "/customers",
      body: { name: "Baxter Renovations", email: "billing@baxterreno.com" },
    });
    const contact = (await ask(ws.token, "okay new contact at stark uh her name is rita moreno email rita at stark dot example")).reply;
    expect((await requestOf(ws.token, contact))?.body, contact.text).toEqual({ name: "Rita Moreno", email: "rita@stark.example", company: "Stark" });
    const email = (await ask(ws.token, "uh can you change the email for acme to payables at acme dot example")).reply;
    expect(await requestOf(ws.token, email), email.text).toMatchObject({ path: `/customers/${acme.id}`, body: { email: "payables@acme.example" } });
    // ("do the needful" asks for what follows; "back" is no name of the task.)
    const needful = (await ask(ws.token, "Please do the needful and mark the task 'Write copy' in Website as done.")).reply;
    expect(await requestOf(ws.token, needful), needful.text).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "done" } });
    const back = (await ask(ws.token, "move write copy in website back to in progress")).reply;
    expect(await requestOf(ws.token, back), back.text).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "in_progress" } });
  });

  it("reads why after a question, 'net of voids', 'by invoice', '…, by issue date', 'overdue balance by customer', 'contacted but not qualified yet', 'take the top one and …' and a run-on command on 'him'", async () => {
    const { ws, acme, invoice, sophie } = await company();
    const globex = await create(ws, "customers", { name: "Globex", email: "ap@globex.example", currency: "USD" });
    const line = (amount: number) => [{ description: "Work", quantity: 1, unit_amount: amount }];
    await sentInvoice(ws, { customer_id: globex.id, currency: "USD", issue_date: "2026-03-01", due_date: "2026-04-01", items: line(40_000) });
    const voided = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", issue_date: "2026-01-20", due_date: "2026-02-20", items: line(70_000) });
    expect((await call("POST", `/invoices/${voided.id}/void`, { token: ws.token })).status).toBe(200);
    // (A plain why names no record: "… stale …" is not a customer called Stale.)
    await create(ws, "customers", { name: "Stale Foods", email: "ap@stale.example", currency: "USD" });
    const oldest = (await ask(ws.token, "What's the oldest due date on Acme's open invoices? Want to know how stale their AR is.")).reply;
    expect(oldest.data.answer, oldest.text).toMatchObject({ kind: "value", fn: "min", value: "2026-02-05" });
    expect(oldest.data.query.conditions).toContainEqual(expect.objectContaining({ field: "customer_id", value: acme.id }));
    // "net of voids", "voids excluded": without them.
    for (const message of ["What have we billed Acme all-time, net of voids?", "total billed to acme, voids excluded"]) {
      const net = (await ask(ws.token, message)).reply;
      expect(net.data.answer, `${message}: ${net.text}`).toMatchObject({ kind: "value", fn: "sum", value: { USD: 153_450 } });
    }
    // "invoice wise", "by invoice" on what is owed: each invoice with its amount due.
    const wise = (await ask(ws.token, "How much is Acme owing us? Kindly give invoice wise.")).reply;
    expect(wise.data.answer, wise.text).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id], field: "amount_due" });
    // "…, by issue date" after a period is which date the period is of, not a row per day.
    const dated = (await ask(ws.token, "Total billed in March 2026, by issue date?")).reply;
    expect(dated.data.answer, dated.text).toMatchObject({ kind: "value", fn: "sum", value: { USD: 40_000 } });
    expect(dated.data.query.period).toMatchObject({ field: "issue_date" });
    // "overdue balance by customer": what is left on them, added up per customer.
    const balance = (await ask(ws.token, "overdue balance by customer, largest first")).reply;
    expect(balance.data.answer, balance.text).toMatchObject({ kind: "groups", fn: "sum", field: "amount_due", group_by: "customer_id" });
    expect(balance.data.answer.groups).toMatchObject([
      { key: acme.id, value: { USD: 150_000 } },
      { key: globex.id, value: { USD: 40_000 } },
    ]);
    // "contacted but haven't qualified yet" is both: the contacted ones (a lead ruled unqualified is not one waiting).
    const contacted = await create(ws, "leads", { name: "Carl Called", email: "carl@lead.example", source: "website", status: "contacted" });
    await create(ws, "leads", { name: "Rita Ruled", email: "rita@lead.example", source: "website", status: "unqualified" });
    const waiting = (await ask(ws.token, "follow up list: website leads we contacted but haven't qualified yet")).reply;
    expect(waiting.data.answer, waiting.text).toMatchObject({ kind: "records", resource: "leads", ids: [contacted.id] });
    const notYet = (await ask(ws.token, "leads that haven't qualified yet")).reply;
    expect(notYet.data.answer.ids, notYet.text).toEqual(expect.arrayContaining([contacted.id, sophie.id]));
    expect(notYet.data.answer.total).toBe(3);
    // "take the top one and mark as contacted": the command, on the first one listed.
    const listed = await ask(ws.token, "website leads, newest first");
    const top = listed.reply.data.answer.ids[0];
    const took = (await ask(ws.token, "take the top one and mark as contacted, I'm calling now", listed.conversation_id)).reply;
    expect(await requestOf(ws.token, took), took.text).toMatchObject({ method: "PATCH", path: `/leads/${top}`, body: { status: "contacted" } });
    // A run-on message: who it is about, what happened, then a command on "him".
    const runOn = (await ask(ws.token, "that lead sophie brown i talked to her this morning mark her as qualified")).reply;
    expect(await requestOf(ws.token, runOn), runOn.text).toMatchObject({ method: "PATCH", path: `/leads/${sophie.id}`, body: { status: "qualified" } });
  });

  it("keeps the records a follow-up says 'them' of though its verb names their kind ('why did we lose them'), reads 'what date was that' as when, 'how much of X is done' as how far along, and 'referrals vs website' side by side", async () => {
    const { ws } = await company();
    await create(ws, "deals", { name: "Lost One", value: 10_000, currency: "USD", stage: "lost", lost_reason: "price" });
    await create(ws, "deals", { name: "Lost Two", value: 20_000, currency: "USD", stage: "lost", lost_reason: "timing" });
    const lost = await ask(ws.token, "which deals did we lose this month?");
    expect(lost.reply.data.answer, lost.reply.text).toMatchObject({ kind: "records", total: 2 });
    const why = (await ask(ws.token, "why did we lose them", lost.conversation_id)).reply;
    expect(why.data.answer, why.text).toMatchObject({ kind: "groups", group_by: "lost_reason" });
    expect(why.data.query.period, why.text).toMatchObject({ field: "closed_at" });
    // "acme's most recent payment, what date was that?": the date itself.
    const paid = (await ask(ws.token, "Acme's most recent payment, what date was that?")).reply;
    expect(paid.data.answer, paid.text).toMatchObject({ kind: "value", resource: "payments", fn: "max", field: "paid_at" });
    const of = (await ask(ws.token, "date of acme's latest payment?")).reply;
    expect(of.data.answer, of.text).toMatchObject({ kind: "value", fn: "max", field: "paid_at" });
    // "how much of the website is done so far": how far along the project is (tasks have no amount to add up).
    const along = (await ask(ws.token, "How much of the Website is done so far?")).reply;
    expect(along.data.answer, along.text).toMatchObject({ kind: "records", resource: "projects", field: "completed_task_count" });
    expect(along.text).toMatch(/is 1\.$/);
    // "avg lead value, referrals vs website": two values told by the workspace's own words, side by side.
    await create(ws, "leads", { name: "Ref Erral", email: "ref@lead.example", source: "referral", value: 30_000, currency: "USD" });
    await create(ws, "leads", { name: "Web Site", email: "web@lead.example", source: "website", value: 10_000, currency: "USD" });
    const versus = (await ask(ws.token, "avg lead value, referrals vs website")).reply;
    expect(versus.data.answer, versus.text).toMatchObject({ kind: "groups", fn: "avg", field: "value", group_by: "source" });
    expect(versus.data.answer.groups.map((group: { key: string }) => group.key).sort()).toEqual(["referral", "website"]);
  });

  it("reads 'w/o', 'on the books', 'carry', 'have left to do', 'starting from', 'eod fri' and 'the hiring pipeline' as people mean them", async () => {
    const { ws, website, task, shipped, candidate } = await company();
    const undated = await create(ws, "tasks", { title: "Someday", project_id: website.id });
    const without = (await ask(ws.token, "tasks w/o due date on website")).reply;
    expect(without.data.answer, without.text).toMatchObject({ kind: "records", ids: [undated.id] });
    expect((await ask(ws.token, "how many customers do we have on the books")).reply.data.answer).toMatchObject({ kind: "value", fn: "count", value: 1 });
    // (A greeting first is no period: "Morning." is not this morning.)
    const morning = (await ask(ws.token, "Morning. What's our total open AR?")).reply;
    expect(morning.data.query.period, morning.text).toBeNull();
    const carry = (await ask(ws.token, "how many invoices carry a balance over 1k")).reply;
    expect(carry.data.answer, carry.text).toMatchObject({ kind: "value", fn: "count", value: 1 });
    const left = (await ask(ws.token, "what do we have left to do on website")).reply;
    expect(left.data.answer, left.text).toMatchObject({ kind: "records", resource: "tasks" });
    const counted = (await ask(ws.token, "how many tasks does website still have left")).reply;
    expect(counted.data.answer, counted.text).toMatchObject({ kind: "value", fn: "count", value: left.data.answer.total });
    expect(left.data.answer.ids).toEqual(expect.arrayContaining([task.id, undated.id]));
    expect(left.data.answer.ids).not.toContain(shipped.id);
    // (A start said "from" a day is that start, not a range; "eod fri" is friday.)
    const started = await ask(ws.token, "new project Racking for acme starting from 1 december 2027");
    expect((await requestOf(ws.token, started.reply)).body).toEqual(expect.objectContaining({ start_date: "2027-12-01" }));
    const due = await ask(ws.token, "new task in website 'cutover checklist' due eod 31 december 2027");
    expect((await requestOf(ws.token, due.reply)).body).toEqual(expect.objectContaining({ due_date: "2027-12-31" }));
    // "X wise" (as said in Indian English) is grouped by it; "the crew" is everyone; an open "req" is a job opening.
    const wise = (await ask(ws.token, "How many employees are there, department wise?")).reply;
    expect(wise.data.answer, wise.text).toMatchObject({ kind: "groups", resource: "employees", group_by: "department" });
    // (A surname is no grouping: "Ernie Wise".)
    const wiseOne = await create(ws, "employees", { name: "Ernie Wise", email: "ernie@assist.co", department: "Sales" });
    await create(ws, "employees", { name: "Ernie Banks", email: "banks@assist.co", department: "Support" });
    const ernie = (await ask(ws.token, "what department is Ernie Wise in")).reply;
    expect(ernie.data.answer, ernie.text).toMatchObject({ kind: "records", resource: "employees", ids: [wiseOne.id], field: "department" });
    const reqs = (await ask(ws.token, "How many open positions in total across all requisitions?")).reply;
    expect(reqs.data.answer, reqs.text).toMatchObject({ kind: "value", resource: "job-openings", fn: "sum", field: "positions" });
    const stage = (await ask(ws.token, "what stage is joan at in the hiring pipeline?")).reply;
    expect(stage.data.answer, stage.text).toMatchObject({ resource: "candidates", ids: [candidate.id], field: "stage" });
  });
});
