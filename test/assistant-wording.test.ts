import { describe, expect, it } from "vitest";
import { ask, company, requestOf, sentInvoice } from "./assistant-fixture";
import { call, create, noOutboundCalls } from "./helpers";

noOutboundCalls();

/** The frame people put around a request — why they ask, how politely, in whose words — is no part of it. */
describe("the frame around a request", () => {
  it("leaves out a purpose said before or after ('for the cash-flow review: …', '…, need it for payroll planning'), keeping whose or which period it names", async () => {
    const { ws, acme, ana, task } = await company();
    const line = (amount: number) => [{ description: "Work", quantity: 1, unit_amount: amount }];
    const march = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", issue_date: "2026-03-10", due_date: "2026-04-10", items: line(20_000) });
    // (Before a colon: "month-end" is no period, "cash-flow" no name.)
    const monthEnd = (await ask(ws.token, "doing month-end: all invoices issued in march 2026 please")).reply;
    expect(monthEnd.data.answer, monthEnd.text).toMatchObject({ kind: "records", resource: "invoices", ids: [march.id] });
    const inPart = (await ask(ws.token, "for the cash-flow review: number of invoices that have only been paid in part")).reply;
    expect(inPart.data.answer, inPart.text).toMatchObject({ kind: "value", fn: "count", value: 1 });
    // (After it: "payroll" asks for nothing the workspace would refuse; "standup" is nobody's name.)
    const headcount = (await ask(ws.token, "headcount by department, need it for payroll planning")).reply;
    expect(headcount.data.answer, headcount.text).toMatchObject({ kind: "groups", resource: "employees", group_by: "department" });
    const standup = (await ask(ws.token, "need open tasks counted per assignee — for standup")).reply;
    expect(standup.data.answer, standup.text).toMatchObject({ kind: "groups", resource: "tasks", group_by: "assignee_id" });
    // (What the purpose says of the request stays: whose review it is, which quarter.)
    await call("PATCH", `/tasks/${task.id}`, { token: ws.token, body: { status: "done" } });
    const whose = (await ask(ws.token, "for ana garcia's review: how many tasks did she complete this year?")).reply;
    expect(whose.data.answer, whose.text).toMatchObject({ kind: "value", fn: "count", value: 1 });
    expect(whose.data.query.conditions).toContainEqual(expect.objectContaining({ field: "assignee_id", value: ana.id }));
    const quarter = (await ask(ws.token, "For the Q1 review — how many invoices did we raise that quarter?")).reply;
    expect(quarter.data.query.period, quarter.text).toMatchObject({
      field: "issue_date",
      from: expect.stringMatching(/-01-01$/),
      to: expect.stringMatching(/-03-31$/),
    });
    // ("auditing timesheets —": what the asker is doing.)
    await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ana.id, task_id: task.id, date: "2026-03-02", minutes: 200 } });
    const audit = (await ask(ws.token, "auditing timesheets — any entries over three hours long?")).reply;
    expect(audit.data.answer, audit.text).toMatchObject({ kind: "records", resource: "time-entries", total: 1 });
  });

  it("reads a polite frame as the request ('Would you mind listing …', 'I'd like a list of …', 'Kindly give the count of …', 'Please to give …')", async () => {
    const { ws, ana, linus, task, website } = await company();
    const left = await create(ws, "employees", { name: "Old Timer", email: "old@assist.co", department: "Sales", date_of_joining: "2020-01-01" });
    await call("PATCH", `/employees/${left.id}`, { token: ws.token, body: { status: "left" } });
    const everyone = (await ask(ws.token, "I'd like a list of everyone who has left the company, please.")).reply;
    expect(everyone.data.answer, everyone.text).toMatchObject({ kind: "records", resource: "employees", ids: [left.id] });
    const mind = (await ask(ws.token, "Would you mind listing Ana Garcia's tasks, earliest due date first?")).reply;
    expect(mind.data.answer, mind.text).toMatchObject({ kind: "records", resource: "tasks", ids: [task.id] });
    await create(ws, "tasks", { title: "Urgent one", project_id: website.id, assignee_id: linus.id, priority: "urgent" });
    await create(ws, "tasks", { title: "Urgent two", project_id: website.id, assignee_id: linus.id, priority: "urgent" });
    await create(ws, "tasks", { title: "Urgent three", project_id: website.id, assignee_id: ana.id, priority: "urgent" });
    const five = (await ask(ws.token, "I'd like to see the five people with the highest count of urgent tasks.")).reply;
    expect(five.data.answer, five.text).toMatchObject({ kind: "groups", group_by: "assignee_id" });
    expect(five.data.query.aggregate).toMatchObject({ limit: 5, order: "desc" });
    expect(five.data.answer.groups[0]).toMatchObject({ key: linus.id, value: 2 });
    const count = (await ask(ws.token, "Please give the count of lost deals for each reason.")).reply;
    expect(count.data.answer, count.text).toMatchObject({ kind: "groups", resource: "deals", fn: "count", group_by: "lost_reason" });
    const average = (await ask(ws.token, "Please to give average minutes of one time entry for each project.")).reply;
    expect(average.data.answer, average.text).toMatchObject({ kind: "groups", resource: "time-entries", fn: "avg", group_by: "project_id" });
    const known = (await ask(ws.token, "I'd like to know how many leads we've received through referrals this year.")).reply;
    expect(known.data.answer, known.text).toMatchObject({ kind: "value", resource: "leads", fn: "count", value: 1 });
    const deal = (await ask(ws.token, "Would you mind setting up a deal called Acme support renewal for €24,000?")).reply;
    expect(await requestOf(ws.token, deal), deal.text).toMatchObject({
      method: "POST",
      path: "/deals",
      body: { name: "Acme support renewal", value: 2_400_000, currency: "EUR" },
    });
    // (A polite frame is no way round a refusal.)
    const french = (await ask(ws.token, "Would you mind putting the sentence 'your invoice is overdue' into French?")).reply;
    expect(french.data.refused, french.text).toBe(true);
  });

  it("reads a newcomer's and a bookkeeper's words and comparisons said otherwise ('the people we might sell to', 'remittances', 'higher than', 'shorter than an hour', 'during Q1', 'the January–March quarter')", async () => {
    const { ws, ana, task, invoice } = await company();
    await create(ws, "leads", { name: "Quinn Qualified", email: "quinn@lead.example", source: "website", status: "qualified", value: 80_000, currency: "USD" });
    const sell = (await ask(ws.token, "what's the combined value of the people we might sell to that are marked qualified?")).reply;
    expect(sell.data.answer, sell.text).toMatchObject({ kind: "value", resource: "leads", fn: "sum", value: { USD: 80_000 } });
    const remittances = (await ask(ws.token, "number of remittances received this year")).reply;
    expect(remittances.data.answer, remittances.text).toMatchObject({ kind: "value", resource: "payments", fn: "count", value: 1 });
    // (A note keeps its own words.)
    const note = (await ask(ws.token, `Please add the following note to ${invoice.number}: 'Quote the PO on your remittance.'`)).reply;
    expect((await requestOf(ws.token, note))?.body, note.text).toEqual({ notes: "Quote the PO on your remittance." });
    const higher = (await ask(ws.token, "customers whose balance is higher than 1k")).reply;
    expect(higher.data.answer, higher.text).toMatchObject({ kind: "records", resource: "customers", total: 1 });
    await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ana.id, task_id: task.id, date: "2026-02-02", minutes: 45 } });
    await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ana.id, task_id: task.id, date: "2026-02-02", minutes: 90 } });
    const shorter = (await ask(ws.token, "time entries shorter than an hour")).reply;
    expect(shorter.data.answer, shorter.text).toMatchObject({ kind: "records", resource: "time-entries", total: 1 });
    for (const message of ["how many invoices did we issue during Q1 2026", "how many invoices did we issue in the January–March quarter of 2026"]) {
      const q1 = (await ask(ws.token, message)).reply;
      expect(q1.data.query.period, `${message}: ${q1.text}`).toMatchObject({ field: "issue_date", from: "2026-01-01", to: "2026-03-31" });
    }
    // ("the total tax we billed customers": what was billed — the customers are whom.)
    const tax = (await ask(ws.token, "the total tax we billed customers this year")).reply;
    expect(tax.data.answer, tax.text).toMatchObject({ kind: "value", resource: "invoices", fn: "sum", field: "tax_total" });
    // ("which deals did a competitor take from us": lost to one.)
    await create(ws, "deals", { name: "Taken", value: 10_000, currency: "USD", stage: "lost", lost_reason: "competitor" });
    const taken = (await ask(ws.token, "which deals did a competitor take from us this year?")).reply;
    expect(taken.data.answer, taken.text).toMatchObject({ kind: "records", resource: "deals", total: 1 });
  });

  it("reads questions said in other words ('in the review stage', 'not part of X', 'falls in', 'contains the highest number of', 'whose joining date is before', 'losses', '(contacts)', 'every urgent task', 'haven't been started', 'don't say where they came from')", async () => {
    const { ws, acme, ana, linus, grace, website, task } = await company();
    const review = await create(ws, "tasks", { title: "Check copy", project_id: website.id, status: "review" });
    const stage = (await ask(ws.token, "How many tasks are there in the review stage currently?")).reply;
    expect(stage.data.answer, stage.text).toMatchObject({ kind: "value", fn: "count", value: 1 });
    const notPart = (await ask(ws.token, "Please share list of all staff who are not part of Engineering department.")).reply;
    expect(notPart.data.answer, notPart.text).toMatchObject({ kind: "records", resource: "employees", ids: [grace.id] });
    const project = await create(ws, "projects", { name: "Ending soon", end_date: "2026-07-15" });
    const falls = (await ask(ws.token, "list projects whose end date falls in july 2026")).reply;
    expect(falls.data.answer.ids, falls.text).toEqual([project.id]);
    const most = (await ask(ws.token, "Which project contains the highest number of tasks?")).reply;
    expect(most.data.answer, most.text).toMatchObject({ kind: "groups", group_by: "project_id", groups: [{ key: website.id }] });
    const joined = (await ask(ws.token, "people in engineering dept whose joining date is before 2026")).reply;
    expect(joined.data.answer, joined.text).toMatchObject({ kind: "records", resource: "employees", ids: [linus.id] });
    await create(ws, "deals", { name: "Big Loss", value: 900_000, currency: "USD", stage: "lost", lost_reason: "price" });
    const losses = (await ask(ws.token, "our biggest losses this year")).reply;
    expect(losses.data.query.conditions, losses.text).toContainEqual(expect.objectContaining({ field: "stage", value: "lost" }));
    const contacts = (await ask(ws.token, "need the list of people we have on file from Analytical Engines (contacts)")).reply;
    expect(contacts.data.answer, contacts.text).toMatchObject({ kind: "records", resource: "contacts", total: 1 });
    await create(ws, "tasks", { title: "Urgent thing", project_id: website.id, assignee_id: ana.id, priority: "urgent" });
    const every = (await ask(ws.token, "list every urgent task that's still in to-do, across all projects")).reply;
    expect(every.data.answer, every.text).toMatchObject({ kind: "records", resource: "tasks", total: 1 });
    const started = (await ask(ws.token, "website tasks with high or urgent priority that havent been started")).reply;
    expect(started.data.query.conditions, started.text).toContainEqual(expect.objectContaining({ field: "status", value: "todo" }));
    const sourceless = await create(ws, "leads", { name: "No Source", email: "nosource@lead.example" });
    const where = (await ask(ws.token, "which leads dont say where they came from")).reply;
    expect(where.data.answer, where.text).toMatchObject({ kind: "records", resource: "leads", ids: [sourceless.id] });
    // (Money: "collected from customers", "money X has to give us", "has any customer paid us", "make out to".)
    const collected = (await ask(ws.token, "total collected from customers so far this year?")).reply;
    expect(collected.data.answer, collected.text).toMatchObject({ kind: "value", resource: "payments", fn: "sum" });
    const give = (await ask(ws.token, "is there still money acme has to give us?")).reply;
    expect(give.data.answer, give.text).toMatchObject({ kind: "value", resource: "invoices", fn: "sum", field: "amount_due", value: { USD: 150_000 } });
    const anyPaid = (await ask(ws.token, "has any customer paid us so far this year")).reply;
    expect(anyPaid.data.answer, anyPaid.text).toMatchObject({ kind: "records", resource: "payments", total: 1 });
    const madeOut = (await ask(ws.token, "what bills did we make out to acme in january 2026")).reply;
    expect(madeOut.data.answer, madeOut.text).toMatchObject({ kind: "records", resource: "invoices", total: 1 });
    const saved = (await ask(ws.token, "Could you tell me which email address we have saved for Acme?")).reply;
    expect(saved.data.answer, saved.text).toMatchObject({ kind: "records", resource: "customers", ids: [acme.id], field: "email" });
    expect([review.id, task.id]).toHaveLength(2);
  });

  it("reads commands said in other words ('mail out', 'made by accident, cancel it', 'title it', 'should go to', 'should take', 'value shud be', 'should be active again', 'mark him as not qualified', 'isn't dead after all') and refuses what is no business of ours", async () => {
    const { ws, invoice, website, task, sophie, linus, bigCo } = await company();
    const mailed = (await ask(ws.token, `can you mail out ${invoice.number}? the address to use is billing@acme.example`)).reply;
    expect(await requestOf(ws.token, mailed), mailed.text).toMatchObject({
      method: "POST",
      path: `/invoices/${invoice.id}/send`,
      body: { to: "billing@acme.example" },
    });
    const accident = (await ask(ws.token, `${invoice.number} was made by accident, can you cancel it`)).reply;
    expect(await requestOf(ws.token, accident), accident.text).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/void` });
    const titled = (await ask(ws.token, "Website needs a new task — title it Update pricing page.")).reply;
    expect((await requestOf(ws.token, titled))?.body, titled.text).toEqual({ title: "Update pricing page", project_id: website.id });
    const goes = (await ask(ws.token, `Task ${task.id} should go to Linus Torvalds now — could you change the assignee?`)).reply;
    expect(await requestOf(ws.token, goes), goes.text).toMatchObject({ path: `/tasks/${task.id}`, body: { assignee_id: linus.id } });
    const takes = (await ask(ws.token, "Linus Torvalds should take Write copy in the Website project, please set him as assignee.")).reply;
    expect(await requestOf(ws.token, takes), takes.text).toMatchObject({ path: `/tasks/${task.id}`, body: { assignee_id: linus.id } });
    const value = (await ask(ws.token, "big co deal value shud be 30,000 now")).reply;
    expect(await requestOf(ws.token, value), value.text).toMatchObject({ method: "PATCH", path: `/deals/${bigCo.id}`, body: { value: 3_000_000 } });
    const onHold = await create(ws, "projects", { name: "Partner API", status: "on_hold" });
    const again = (await ask(ws.token, "partner api should be actve again, pls update")).reply;
    expect(await requestOf(ws.token, again), again.text).toMatchObject({ path: `/projects/${onHold.id}`, body: { status: "active" } });
    const unqualified = (await ask(ws.token, "sophie brown isnt going anywhere, mark her as not qualified")).reply;
    expect(await requestOf(ws.token, unqualified), unqualified.text).toMatchObject({ path: `/leads/${sophie.id}`, body: { status: "unqualified" } });
    await call("PATCH", `/deals/${bigCo.id}`, { token: ws.token, body: { stage: "lost", lost_reason: "price" } });
    const revived = (await ask(ws.token, "big co isn't dead after all, put it back in negotiation stage")).reply;
    expect(await requestOf(ws.token, revived), revived.text).toMatchObject({ path: `/deals/${bigCo.id}`, body: { stage: "negotiation" } });
    const recorded = (await ask(ws.token, `need a payment recorded on ${invoice.number}`)).reply;
    expect(recorded.data.missing, recorded.text).toEqual(["amount"]);
    for (const message of ["did you catch the score yesterday evening? who won", "can you get me plane tickets to lisbon for friday"]) {
      const refused = (await ask(ws.token, message)).reply;
      expect(refused.data.refused, `${message}: ${refused.text}`).toBe(true);
    }
  });

  it("reads 'take out the ones we lost', 'not counting won or lost ones', 'at least X but no more than Y', 'open receivables', 'anything open in the pipeline', 'X is out next week, so what does she …', 'clients who pay us in euros', and commands said as wishes ('needs to be in …', 'till 31 december', 'put … in our address book', 'X sent a payment, can u record it', 'we want to …')", async () => {
    const { ws, acme, ana, website, bigCo, smallFry, invoice } = await company();
    const lost = await create(ws, "deals", { name: "Gone", value: 10_000, currency: "USD", stage: "lost", lost_reason: "price" });
    const deals = await ask(ws.token, "deals this year");
    const kept = (await ask(ws.token, "take out the ones we lost", deals.conversation_id)).reply;
    expect(kept.data.answer.ids, kept.text).not.toContain(lost.id);
    expect(kept.data.answer.ids).toEqual(expect.arrayContaining([bigCo.id, smallFry.id]));
    const stages = (await ask(ws.token, "number of deals per stage, not counting won or lost ones")).reply;
    expect(
      stages.data.answer.groups.map((group: { key: string }) => group.key),
      stages.text,
    ).not.toContain("lost");
    const between = (await ask(ws.token, "can i see the bills that come to at least 1000 but no more than 2000?")).reply;
    expect(between.data.answer, between.text).toMatchObject({ kind: "records", resource: "invoices", ids: [invoice.id] });
    const receivables = (await ask(ws.token, "open receivables broken down by currency")).reply;
    expect(receivables.data.answer, receivables.text).toMatchObject({ kind: "groups", fn: "sum", field: "amount_due", group_by: "currency" });
    const pipeline = (await ask(ws.token, "anything open in the pipeline above 1k")).reply;
    expect(pipeline.data.answer, pipeline.text).toMatchObject({ kind: "records", resource: "deals", total: 2 });
    const away = (await ask(ws.token, "ana garcia is out next week, so what does she have due this week?")).reply;
    expect(away.data.query.conditions, away.text).toContainEqual(expect.objectContaining({ field: "assignee_id", value: ana.id }));
    await create(ws, "customers", { name: "Euro GmbH", email: "ap@euro.example", currency: "EUR" });
    const euros = (await ask(ws.token, "how many of our clients pay us in euros?")).reply;
    expect(euros.data.answer, euros.text).toMatchObject({ kind: "value", resource: "customers", fn: "count", value: 1 });
    // Commands said as what should be, or what we want.
    const moved = (await ask(ws.token, "big co deal needs to be in proposal now, pls move it")).reply;
    expect(await requestOf(ws.token, moved), moved.text).toMatchObject({ path: `/deals/${bigCo.id}`, body: { stage: "proposal" } });
    const till = (await ask(ws.token, "Please to push the end date of Website project till 31 december 2027.")).reply;
    expect(await requestOf(ws.token, till), till.text).toMatchObject({ path: `/projects/${website.id}`, body: { end_date: "2027-12-31" } });
    const book = (await ask(ws.token, "put sarah lee from globex in our address book")).reply;
    expect(book.data, book.text).toMatchObject({ missing: ["email"] });
    const sent = (await ask(ws.token, "acme sent a payment, can u record it")).reply;
    expect(sent.intent, sent.text).toBe("action");
    expect(sent.text).toMatch(/payment/);
    await create(ws, "employees", { name: "Rem Ote", email: "rem@assist.co", department: "Marketing", branch: "Remote" });
    const want = (await ask(ws.token, "we want to put up a new job ad for marketing, remote")).reply;
    expect(want.data, want.text).toMatchObject({ missing: ["title"] });
    expect(acme.id).toBeGreaterThan(0);
    // "Website progress check — how many of its tasks are done?": "its" is the project named before the dash; a
    // question after "website:" is about the website.
    const its = (await ask(ws.token, "Website progress check — how many of its tasks are done?")).reply;
    expect(its.data.query.conditions, its.text).toContainEqual(expect.objectContaining({ field: "project_id", value: website.id }));
    const colon = (await ask(ws.token, "website: which tasks has nobody been assigned to yet?")).reply;
    expect(colon.data.query.conditions, colon.text).toContainEqual(expect.objectContaining({ field: "project_id", value: website.id }));
    expect(colon.data.query.conditions).toContainEqual(expect.objectContaining({ field: "assignee_id" }));
  });
});
