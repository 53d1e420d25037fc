import { describe, expect, it } from "vitest";
import { clock } from "../src/platform/time";
import { ask, company, expectProposals, expectRequest, expectRequests, requestOf, sentInvoice, today } from "./assistant-fixture";
import { call, create, expectError, noOutboundCalls, recordedEvents, userWithRole } from "./helpers";

noOutboundCalls();

describe("actions on every writable resource", () => {
  it("creates each kind of record with every field the message gives, and a lead stays a lead", async () => {
    const { ws, website, ana, acme, opening, task, invoice } = await company();
    const cases: [string, string, Record<string, unknown>][] = [
      [
        "new lead tom baker, tom@contoso.com, from linkedin, worth $8k",
        "/leads",
        { name: "Tom Baker", email: "tom@contoso.com", source: "linkedin", value: 800_000 },
      ],
      // ("from Contoso", no source the workspace has and their address's domain: where they work.)
      ["new lead tom baker from contoso, tom@contoso.com", "/leads", { name: "Tom Baker", email: "tom@contoso.com", company: "Contoso" }],
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
      // "Bill to" before a street's number is the address; said without commas, the postal code parts it.
      [
        "Set up Kessler AG as a new customer in euros. Bill to Hauptstr. 5, 10115 Berlin, Germany; the billing email is rechnung@kessler.example.",
        "POST",
        "/customers",
        {
          name: "Kessler AG",
          billing: { address_line1: "Hauptstr. 5", postal_code: "10115", city: "Berlin", country: "DE", email: "rechnung@kessler.example" },
        },
      ],
      [
        "kessler ag new cust, EUR, addr hauptstr. 5 10115 berlin germany",
        "POST",
        "/customers",
        { currency: "EUR", billing: { address_line1: "hauptstr. 5", postal_code: "10115", city: "berlin", country: "DE" } },
      ],
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
      ["Ana Garcia is moving to the Remote branch from next month", "PATCH", `/employees/${ana.id}`, { branch: expect.stringMatching(/^remote$/i) }],
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
    // (A trade show is the usual kind of source the sales skill calls "event".)
    expect(lead.body).toMatchObject({ name: "Holly Flax", company: "Sabre", source: "event" });
    // "start working on X" starts it; a last lower-case phrase on a time entry is its note; "City ST 12345".
    const started = await requestOf(ws.token, (await ask(ws.token, "start working on write copy in website — set it in progress")).reply);
    expect(started).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "in_progress" } });
    // "start X in P" where X is already there: it is started, not made again.
    const again = await requestOf(ws.token, (await ask(ws.token, "start Write copy in Website (set in progress)")).reply);
    expect(again).toMatchObject({ method: "PATCH", path: `/tasks/${task.id}`, body: { status: "in_progress" } });
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
  });

  it("asks for a missing required field and fills it from the next message; never guesses an ambiguous target", async () => {
    const { ws, website } = await company();
    const noProject = await ask(ws.token, "create a task Call Acme");
    expect(noProject.reply.action).toBeUndefined();
    expect(noProject.reply.data.missing).toEqual(["project_id"]);
    expect(noProject.reply.text).toBe("To create the task Call Acme, I need which project. What is it?");
    const filled = await ask(ws.token, "website", noProject.conversation_id);
    expect(await requestOf(ws.token, filled.reply)).toMatchObject({ method: "POST", path: "/tasks", body: { title: "Call Acme", project_id: website.id } });
    // "put X on the task list": a new task, and why it is asked for is no part of its title.
    const listed = await ask(ws.token, "pls put 'call the movers about the keys' on the task list so it doesnt slip");
    expect(listed.reply.data.missing).toEqual(["project_id"]);
    expect(listed.reply.data.slot.draft.fields).toEqual({ title: "call the movers about the keys" });
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

  it("reads where a new customer is without the word 'address', and a known company said after 'from'", async () => {
    const { ws, acme } = await company();
    await create(ws, "leads", { name: "Cy Dyne", email: "cy@cyberdyne.example", company: "Cyberdyne", source: "event" });
    const cases = [
      // A country alone in its piece, the town just before it, a town after "they're in", a move to a town.
      [
        "New customer: Blue Harbor Ltd. Billing email accounts@bh.example, London, GB. They pay in GBP.",
        "POST",
        "/customers",
        {
          name: "Blue Harbor Ltd",
          billing: { email: "accounts@bh.example", city: "London", country: "GB" },
          currency: "GBP",
        },
      ],
      [
        "new customer Kessler GmbH - germany, pays in euro, VAT id DE811234567",
        "POST",
        "/customers",
        {
          name: "Kessler GmbH",
          billing: { country: "DE" },
          tax_id: "DE811234567",
        },
      ],
      [
        "add customer Jansen BV, they're in Rotterdam (NL), invoice them in EUR",
        "POST",
        "/customers",
        {
          name: "Jansen BV",
          billing: { city: "Rotterdam", country: "NL" },
          currency: "EUR",
        },
      ],
      ["Acme moved to Munich, update their billing city", "PATCH", `/customers/${acme.id}`, { billing: { city: "Munich" } }],
      ["set acme's zip to 90210", "PATCH", `/customers/${acme.id}`, { billing: { postal_code: "90210" } }],
      // "from Cyberdyne" is the company the leads have (no source of theirs); "event" is then the source.
      [
        "create lead Tom Becker, tom.becker@cyberdyne.example, from Cyberdyne, event",
        "POST",
        "/leads",
        {
          name: "Tom Becker",
          company: "Cyberdyne",
          source: "event",
        },
      ],
    ] as const;
    await expectRequests(ws.token, cases);
    // A company's own name is never read as a place ("Acme Berlin GmbH"), nor a currency as a town ("in EUR").
    const named = await ask(ws.token, "add customer Acme Berlin GmbH, in EUR");
    expect((await requestOf(ws.token, named.reply)).body).toEqual({ name: "Acme Berlin GmbH", currency: "EUR" });
    expect(named.reply.text).toContain("Acme Berlin GmbH");
    const moved = await ask(ws.token, "Acme moved to Munich, update their billing city");
    expect(moved.reply.text).toContain("billing city Munich");
  });
  it("reads an invoice by its bare number, a lost deal's reason in the workspace's words, and a record said before its command", async () => {
    const { ws, acme, bigCo, website, ana, task } = await company();
    // (Numbers of two figures or more: a single figure is a count more often than an invoice.)
    const filler = await create(ws, "customers", { name: "Filler Co", currency: "USD" });
    const line = { description: "Work", quantity: 1, unit_amount: 10_000 };
    for (let i = 0; i < 9; i++) await create(ws, "invoices", { customer_id: filler.id, currency: "USD", items: [line] });
    const invoice = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", items: [line] });
    const number = Number(invoice.number.replace(/\D/g, ""));
    expect(number).toBeGreaterThanOrEqual(10);
    const draft = await create(ws, "invoices", {
      customer_id: acme.id,
      currency: "USD",
      issue_date: "2026-10-14",
      items: [{ description: "Setup", quantity: 1, unit_amount: 50_000 }],
    });
    await create(ws, "deals", { name: "Globex pilot", value: 900_000, currency: "USD", stage: "proposal" });
    await create(ws, "tasks", { title: "Draft reports", project_id: website.id });
    const drafted = (await call("GET", `/tasks?q=${encodeURIComponent("Draft reports")}`, { token: ws.token })).json.data[0];
    const cases = [
      // A number beside what is done to an invoice already out is its number; an amount or a count is not.
      [`remind acme about ${number}`, "POST", `/invoices/${invoice.id}/remind`, {}],
      [`acme still hasnt paid ${number}, send them a reminder`, "POST", `/invoices/${invoice.id}/remind`, {}],
      [`acme says they never got ${number}, can you resend`, "POST", `/invoices/${invoice.id}/send`, {}],
      [`acme paid 1.5k on ${number} by card`, "POST", "/payments", { invoice_id: invoice.id, amount: 150_000, method: "card" }],
      [`acme's ${number} was a duplicate — kill it`, "POST", `/invoices/${invoice.id}/void`, {}],
      // ("send … to acme": an address field takes an address; the customer is whom it goes to already.)
      [`shoot inv ${number} over to acme`, "POST", `/invoices/${invoice.id}/send`, {}],
      ["trash the acme draft", "DELETE", `/invoices/${draft.id}`, undefined],
      [`get rid of the acme draft ${draft.number}`, "DELETE", `/invoices/${draft.id}`, undefined],
      [`scrap invoice ${number}, its a duplicate`, "POST", `/invoices/${invoice.id}/void`, {}],
      // A payment told as news, with or without a verb (and not where a lead came from).
      [`Payment came from Acme for ${invoice.number}, 100 USD, by card.`, "POST", "/payments", { invoice_id: invoice.id, amount: 10_000, method: "card" }],
      [`payment from acme for ${invoice.number}, 100 usd by card`, "POST", "/payments", { invoice_id: invoice.id, amount: 10_000, method: "card" }],
      // (What cannot be voided is deleted when killed: a task.)
      ["kill the 'write copy' task in website, it's a dup", "DELETE", `/tasks/${task.id}`, undefined],
      [`send a payment remnder for invoice ${number}`, "POST", `/invoices/${invoice.id}/remind`, {}],
      ["pls send out the acme draft", "POST", `/invoices/${draft.id}/send`, {}],
      // The reason is one of the values the workspace uses when it is said in other words; typed as one, it stays.
      ["big co is dead, they said we are too expensive", "PATCH", `/deals/${bigCo.id}`, { stage: "lost", lost_reason: "price" }],
      ["globex pilot is lost, they went with a competitor", "PATCH", "/deals/", { stage: "lost", lost_reason: "competitor" }],
      ["mark the big co deal as lost, reason: budget cut", "PATCH", `/deals/${bigCo.id}`, { stage: "lost", lost_reason: "budget cut" }],
      // A record, then what to do with it; a record said to be stuck, then "move it".
      ["Write copy on website: reassign to ana and make it due the 30th", "PATCH", "/tasks/", { assignee_id: ana.id }],
      [
        "draft reports (website) is stuck, move it back to todo and lower priority to low",
        "PATCH",
        `/tasks/${drafted.id}`,
        { status: "todo", priority: "low" },
      ],
      // Lines priced after their names, with the sign after the number, or "each" said after more words.
      [
        "new invoice for acme: implementation package €4,140 plus 2 training sessions at €736 each",
        "POST",
        "/invoices",
        {
          customer_id: acme.id,
          currency: "EUR",
          items: [
            { description: "Implementation package", quantity: 1, unit_amount: 414_000 },
            { description: "Training session", quantity: 2, unit_amount: 73_600 },
          ],
        },
      ],
      [
        "invoice acme for the 3 consulting days we did for them, $1,200 each",
        "POST",
        "/invoices",
        { items: [{ description: "Consulting day", quantity: 3, unit_amount: 120_000 }] },
      ],
      ["pls invoice acme: 20 licence seats x 45€", "POST", "/invoices", { currency: "EUR", items: [{ quantity: 20, unit_amount: 4_500 }] }],
    ] as const;
    await expectProposals(ws.token, cases);
  });

  it("reads a record picked before its number, a payment received, a move said with an arrow and time said after a name", async () => {
    const { ws, acme, invoice, ana, linus, task, candidate } = await company();
    const cases = [
      // "the acme one, INV-… - …": the invoice by its number, not the customer named before it.
      [`the acme one, ${invoice.number} - change its due date to dec 10`, "PATCH", `/invoices/${invoice.id}`, { due_date: "2026-12-10" }],
      // "X is going fully remote, update his branch": that field, set to where they go.
      ["linus torvalds is going fully remote, update his branch", "PATCH", `/employees/${linus.id}`, { branch: expect.stringMatching(/^remote$/i) }],
      // "Name - 45 min yesterday on <task>": time to log for them.
      ["ana garcia - 45 min today on write copy, website", "POST", "/time-entries", { employee_id: ana.id, task_id: task.id, minutes: 45 }],
      // "<task> in <project> -> review", "<candidate> -> interview": moved to that state.
      ["write copy in website -> review", "PATCH", `/tasks/${task.id}`, { status: "review" }],
      ["joan clarke -> interview", "PATCH", `/candidates/${candidate.id}`, { stage: "interview" }],
      // ("rename X -> Y" is a new name, not a move.)
      ["rename customer Acme -> Acme Corp", "PATCH", `/customers/${acme.id}`, { name: "Acme Corp" }],
    ] as const;
    await expectProposals(ws.token, cases);
    // "we got a transfer from acme, can you book it": a payment to record, by bank transfer; which invoice and how
    // much are asked for.
    const booked = await ask(ws.token, "we got a transfer from acme, can you book it");
    expect(booked.reply.data).toMatchObject({
      missing: ["invoice_id", "amount"],
      slot: { draft: { resource: "payments", fields: { method: "bank_transfer" } } },
    });
  });

  it("reads a payment told by whose invoice it is, invoice commands in everyday words, and a field said of someone", async () => {
    const { ws, acme, invoice, ada, bigCo, ana } = await company();
    const acmeLabs = await create(ws, "customers", { name: "Acme Labs", email: "ap@acmelabs.example", currency: "USD" });
    const line = { description: "Work", quantity: 1, unit_amount: 40_000 };
    const labs = await sentInvoice(ws, { customer_id: acmeLabs.id, currency: "USD", issue_date: "2026-09-06", items: [line] });
    const draft = await create(ws, "invoices", { customer_id: acmeLabs.id, currency: "USD", items: [line] });
    const cases = [
      // "paid what they owed": the one invoice of theirs still open, and what is due on it.
      ["acme labs paid what they owed, card", "POST", "/payments", { invoice_id: labs.id, amount: 40_000, method: "card" }],
      ["acme labs sent $200 against the september invoice", "POST", "/payments", { invoice_id: labs.id, amount: 20_000 }],
      // Invoice commands: "can go out", "ping X re their unpaid invoice" (Acme Labs, not Acme), "bin the X draft".
      [`${invoice.number} can go out now`, "POST", `/invoices/${invoice.id}/send`, {}],
      ["ping acme labs re their unpaid invoice", "POST", `/invoices/${labs.id}/remind`, {}],
      ["bin the acme labs draft", "DELETE", `/invoices/${draft.id}`, undefined],
      [`change the due date of acme ${invoice.number} to dec 10`, "PATCH", `/invoices/${invoice.id}`, { due_date: "2026-12-10" }],
      [`put 'ref PO-8812' in the notes on acme ${invoice.number}`, "PATCH", `/invoices/${invoice.id}`, { notes: "ref PO-8812" }],
      // A field said of someone ("phone no. for X is …", "X's at Y now, not Z", "X moved from A to B, update her").
      ["phone no. for acme is +1 415 555 0199", "PATCH", `/customers/${acme.id}`, { phone: "+14155550199" }],
      ["ada lovelace's at Babbage Ltd now, not analytical engines — fix the contact", "PATCH", `/contacts/${ada.id}`, { company: "Babbage Ltd" }],
      ["ada lovelace moved from analytical engines to Babbage Ltd, update her", "PATCH", `/contacts/${ada.id}`, { company: "Babbage Ltd" }],
      ["up the big co deal to $30k", "PATCH", `/deals/${bigCo.id}`, { value: 3_000_000 }],
    ] as const;
    await expectProposals(ws.token, cases);
    // Money said with no word of which invoice is asked about, never guessed.
    const unsaid = await ask(ws.token, "we got $500 cash from acme labs");
    expect(unsaid.reply.data).toMatchObject({ missing: ["invoice_id"] });
    // A name asked for is given as "name is …"; a pronoun is no name; "contact is X" names no deal.
    const customer = await ask(ws.token, "set up a new customer, they're in austria and pay in euros");
    expect(customer.reply.data).toMatchObject({ missing: ["name"] });
    const named = await ask(ws.token, "name is Steiner Bau GmbH", customer.conversation_id);
    expect((await requestOf(ws.token, named.reply)).body).toMatchObject({ name: "Steiner Bau GmbH", currency: "EUR" });
    expect((await ask(ws.token, "create a deal for €9,500, contact is ada lovelace")).reply.data).toMatchObject({ missing: ["name"] });
    // "they just paid the whole thing", of the invoice in focus: what is still due on it.
    const balance = await ask(ws.token, `whats the open balance on ${invoice.number}?`);
    const whole = await ask(ws.token, "they just paid the whole thing, bank transfer", balance.conversation_id);
    expect((await requestOf(ws.token, whole.reply)).body).toMatchObject({ invoice_id: invoice.id, amount: 150_000, method: "bank_transfer" });
    // "mark joan as left": the people a state is of (employees leave; the candidate Joan does not) are asked among,
    // and "the one in sales" picks by a value of theirs.
    const joan = await create(ws, "employees", { name: "Joan Smith", email: "js@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    await create(ws, "employees", { name: "Joan Brown", email: "jb@assist.co", department: "Engineering", date_of_joining: "2024-01-01" });
    const leaving = await ask(ws.token, "mark joan as left");
    expect(leaving.reply.intent).toBe("clarify");
    const inSales = await ask(ws.token, "the one in sales", leaving.conversation_id);
    expect(await requestOf(ws.token, inSales.reply)).toMatchObject({ method: "PATCH", path: `/employees/${joan.id}`, body: { status: "left" } });
    // News before "mark INV-… as paid" is why; the payment is of what is still due.
    const settled = await ask(ws.token, `acme settled, mark ${invoice.number} as paid`);
    expect((await requestOf(ws.token, settled.reply)).body).toMatchObject({ invoice_id: invoice.id, amount: 150_000 });
    // A project's dates said as a range after its name, or as "kicks off … wraps …"; hours "against" a task.
    // (The coming jan 4 and the mar 31 after it, whatever day the suite runs: the same year, not a past one.)
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const comingYear = (month: number, day: number) => now.getUTCFullYear() + (Date.UTC(now.getUTCFullYear(), month - 1, day) < today ? 1 : 0);
    const ranged = await ask(ws.token, "new project Q1 cleanup, jan 4 through mar 31");
    const y4 = comingYear(1, 4);
    expect((await requestOf(ws.token, ranged.reply)).body).toMatchObject({ name: "Q1 cleanup", start_date: `${y4}-01-04`, end_date: `${y4}-03-31` });
    const kicks = await ask(ws.token, "new project 'Q1 Campaign' for acme, kicks off jan 5, wraps march 31");
    const y5 = comingYear(1, 5);
    expect((await requestOf(ws.token, kicks.reply)).body).toMatchObject({ customer_id: acme.id, start_date: `${y5}-01-05`, end_date: `${y5}-03-31` });
    const against = await ask(ws.token, "put 2 hours against write copy on website for ana garcia, today");
    expect((await requestOf(ws.token, against.reply)).body).toMatchObject({ minutes: 120, employee_id: ana.id });
    // A second field named after a comma takes its value without "to".
    const two = await ask(ws.token, "set ana garcia's dept to sales, title account manager");
    expect((await requestOf(ws.token, two.reply)).body).toMatchObject({ department: "Sales", designation: "Account Manager" });
    // "half a day" of work is four hours.
    const half = await ask(ws.token, "half a day for ana garcia on write copy yesterday");
    expect((await requestOf(ws.token, half.reply)).body).toMatchObject({ minutes: 240, employee_id: ana.id });
    // A duration asked for is read as said ("90 mins").
    const logged = await ask(ws.token, "log time for ana garcia on write copy today");
    expect(logged.reply.data).toMatchObject({ missing: ["minutes"] });
    const minutes = await ask(ws.token, "90 mins", logged.conversation_id);
    expect((await requestOf(ws.token, minutes.reply)).body).toMatchObject({ minutes: 90 });
    // Drafting a contract is no work on this workspace's records.
    expect((await ask(ws.token, "draft a legally binding supplier contract for us")).reply.data).toMatchObject({ refused: true });
  });
  it("asks which person only after reading the rest, so the answer keeps every field; titles and jobs said in passing", async () => {
    const { ws, acme, invoice, candidate, opening } = await company();
    // "frances is moving over to finance": Finance is a department of employees, so the two Franceses who are
    // employees are asked between (not the candidate Frances) and the answer keeps the department and a version.
    await create(ws, "employees", { name: "Pat Finch", email: "pf@assist.co", department: "Finance", date_of_joining: "2024-01-01" });
    await create(ws, "employees", { name: "Frances Boyd", email: "fb@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    const matsumoto = await create(ws, "employees", { name: "Frances Matsumoto", email: "fm@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    const finance = await create(ws, "job-openings", { title: "Finance Analyst", department: "Finance" });
    await create(ws, "candidates", { job_opening_id: finance.id, name: "Frances Keller", email: "fk@mail.example" });
    const moving = await ask(ws.token, "frances is moving over to finance");
    expect(moving.reply.intent, moving.reply.text).toBe("clarify");
    expect(moving.reply.records?.map((record) => record.label).sort()).toEqual(["Frances Boyd", "Frances Matsumoto"]);
    const picked = await ask(ws.token, "matsumoto", moving.conversation_id);
    const request = await requestOf(ws.token, picked.reply);
    expect(request).toMatchObject({ method: "PATCH", path: `/employees/${matsumoto.id}`, body: { department: "Finance" } });
    expect((request as { unchanged_since?: string }).unchanged_since).toBeTruthy();
    // "update ken at acme, new email …": the two Kens at Acme are asked between, not a Ken elsewhere taken.
    const boyd = await create(ws, "contacts", { name: "Ken Boyd", email: "kb@acme.example", company: "Acme" });
    await create(ws, "contacts", { name: "Ken Goldwasser", email: "kg@acme.example", company: "Acme" });
    await create(ws, "candidates", { job_opening_id: opening.id, name: "Ken McCarthy", email: "ken@mail.example" });
    const ken = await ask(ws.token, "update ken at acme, new email ken.b@acme.example");
    expect(ken.reply.intent, ken.reply.text).toBe("clarify");
    const kenBoyd = await ask(ws.token, "boyd", ken.conversation_id);
    expect(await requestOf(ws.token, kenBoyd.reply)).toMatchObject({ path: `/contacts/${boyd.id}`, body: { email: "ken.b@acme.example" } });
    // A title ending in a noun ("support lead") is the title, not a lead; a job a hire is for is their title.
    const cases = [
      ["frances matsumoto got promoted to support lead", "PATCH", `/employees/${matsumoto.id}`, { designation: "Support Lead" }],
      ["promote frances matsumoto to head of finance", "PATCH", `/employees/${matsumoto.id}`, { designation: "Head of Finance" }],
      [
        "hire joan clarke for the backend engineer job, first day 1st of december",
        "POST",
        `/candidates/${candidate.id}/hire`,
        { designation: "Backend Engineer" },
      ],
      ["we're hiring joan clarke — senior engineer, start 4 jan", "POST", `/candidates/${candidate.id}/hire`, { designation: "Senior Engineer" }],
    ] as const;
    await expectProposals(ws.token, cases);
    // The invoice a payment is for, given as "put it against <number>".
    const money = await ask(ws.token, "we got $10 from acme today");
    expect(money.reply.data).toMatchObject({ missing: ["invoice_id"] });
    const against = await ask(ws.token, `put it against ${invoice.number.replace(/^INV-0*/, "")}`, money.conversation_id);
    expect((await requestOf(ws.token, against.reply)).body).toMatchObject({ invoice_id: invoice.id, amount: 1000 });
    expect(acme.id).toBeGreaterThan(0);
  });
  it("reads news then a command about it, a record then its changes after a dash, and details listed for a new record", async () => {
    const { ws, ada, alan, invoice, website, task, sophie, candidate } = await company();
    expect((await call("PATCH", `/projects/${website.id}`, { token: ws.token, body: { status: "on_hold" } })).status).toBe(200);
    const cases = [
      // News first ("… is spam", "… doesn't work there anymore", "X: we're making her an offer"), then the command.
      ["that sophie brown lead is spam, get rid of it", "DELETE", `/leads/${sophie.id}`, undefined],
      ["alan turing doesn't work at analytical engines anymore, drop him from contacts", "DELETE", `/contacts/${alan.id}`, undefined],
      ["joan clarke: we're making her an offer, update her stage", "PATCH", `/candidates/${candidate.id}`, { stage: "offer" }],
      ["ok the website project is unblocked, switch it back to active", "PATCH", `/projects/${website.id}`, { status: "active" }],
      ["ana says write copy (website) is finished", "PATCH", `/tasks/${task.id}`, { status: "done" }],
      // A record, a dash, then its changes; an invoice and what to do with it after an arrow.
      ["write copy on website - due next wednesday and make it high priority", "PATCH", `/tasks/${task.id}`, { priority: "high" }],
      [`${invoice.number} → send`, "POST", `/invoices/${invoice.id}/send`, {}],
      // An e-mail address keeps its letters ("ada.r@…" is no "ada.are@…").
      ["ada lovelace has a new email: ada.r@example.com", "PATCH", `/contacts/${ada.id}`, { email: "ada.r@example.com" }],
      ["set up an internal project called Warehouse scanners starting monday", "POST", "/projects", { name: "Warehouse scanners" }],
    ] as const;
    await expectProposals(ws.token, cases);
    const due = await ask(ws.token, `${invoice.number} – they asked for more time, move the due date to the 8th of december`);
    expect(String((await requestOf(ws.token, due.reply)).body?.due_date)).toMatch(/-12-08$/);
    // What is still to be asked is asked: an amount "paid something" does not say, a name "a german company" is not.
    expect((await ask(ws.token, `acme paid something on ${invoice.number}, log it`)).reply.data).toMatchObject({ missing: ["amount"] });
    const lead = await ask(ws.token, "got a linkedin lead – marco bianchi from bianchi srl");
    expect(lead.reply.data).toMatchObject({ missing: ["email"], slot: { draft: { fields: { name: "Marco Bianchi", source: "linkedin" } } } });
    const customer = await ask(ws.token, "new customer pls, german company, invoices in euro, email ap@kessler.example");
    expect(customer.reply.data).toMatchObject({
      missing: ["name"],
      slot: { draft: { fields: { currency: "EUR", email: "ap@kessler.example", billing: { country: "DE" } } } },
    });
  });
  it("reads a paid invoice told as news, a reminder asked after a dash, an opening taken down, and a task's parts between dashes", async () => {
    const { ws, invoice, website, opening } = await company();
    const cases = [
      [`${invoice.number} got paid yesterday, wire, whole thing`, "POST", "/payments", { invoice_id: invoice.id, amount: 150_000, method: "bank_transfer" }],
      [`acme still hasnt paid ${invoice.number} - reminder please`, "POST", `/invoices/${invoice.id}/remind`, {}],
      ["backend engineer opening - make it 3 positions", "PATCH", `/job-openings/${opening.id}`, { positions: 3 }],
      ["we're not hiring a backend engineer after all, take that opening down", "DELETE", `/job-openings/${opening.id}`, undefined],
      ["new task on the website — update favicon — low priority", "POST", "/tasks", { project_id: website.id, title: "update favicon", priority: "low" }],
    ] as const;
    await expectProposals(ws.token, cases);
    // Questions that are not about this workspace's records: investing, an invoice to fool a bank, a web server.
    for (const message of [
      "which stocks should i put the q4 profit into",
      "make up an invoice we can show the bank so the loan goes through",
      "how do i fix a 502 bad gateway on our nginx box",
    ])
      expect((await ask(ws.token, message)).reply.data, message).toMatchObject({ refused: true });
  });
  it("takes a pick said with asides ('conway obviously, …', 'the x one pls'), and people's news said in passing", async () => {
    const { ws, ada, ana, linus, website, task } = await company();
    const conway = await create(ws, "employees", { name: "Kate Conway", email: "kc@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    const sagan = await create(ws, "employees", { name: "Kate Sagan", email: "ks@assist.co", department: "Engineering", date_of_joining: "2024-01-01" });
    const promoted = await ask(ws.token, "kate got promoted to head of sales");
    expect(promoted.reply.intent, promoted.reply.text).toBe("clarify");
    const picked = await ask(ws.token, "conway obviously, sagan's an engineer", promoted.conversation_id);
    expect(await requestOf(ws.token, picked.reply)).toMatchObject({ path: `/employees/${conway.id}`, body: { designation: "Head of Sales" } });
    const reassign = await ask(ws.token, "reassign write copy on website to kate");
    expect(reassign.reply.intent, reassign.reply.text).toBe("clarify");
    const pls = await ask(ws.token, "the sagan one pls", reassign.conversation_id);
    expect(await requestOf(ws.token, pls.reply)).toMatchObject({ path: `/tasks/${task.id}`, body: { assignee_id: sagan.id } });
    expect(pls.reply.text).toContain("Kate Sagan");
    const cases = [
      ["ada lovelace moved from analytical engines to Babbage Ltd, update her company", "PATCH", `/contacts/${ada.id}`, { company: "Babbage Ltd" }],
      // (A title the workspace already has; a new one is read when said as "title …".)
      ["linus torvalds is in sales now, engineer", "PATCH", `/employees/${linus.id}`, { department: "Sales", designation: "Engineer" }],
      ["website needs a task 'audit colour tokens', give it to ana garcia", "POST", "/tasks", { project_id: website.id, assignee_id: ana.id }],
    ] as const;
    await expectProposals(ws.token, cases);
  });
  it("reads what changed said as news ('rebranded', 'wrapped up', 'should be X not Y', 'changed their AP address') and names given after asking", async () => {
    const { ws, alan, acme, ana, website, bigCo, invoice } = await company();
    const draft = await create(ws, "invoices", {
      customer_id: acme.id,
      currency: "USD",
      due_date: "2026-12-31",
      items: [{ description: "Redo", quantity: 1, unit_amount: 1000 }],
    });
    const cases = [
      ["alan turing left analytical engines, take him out of contacts", "DELETE", `/contacts/${alan.id}`, undefined],
      [`acme settled ${invoice.number} in full by card`, "POST", "/payments", { invoice_id: invoice.id, amount: 150_000, method: "card" }],
      ["website wrapped up last week - mark complete", "PATCH", `/projects/${website.id}`, { status: "completed" }],
      ["ana garcia got promoted - senior engineer", "PATCH", `/employees/${ana.id}`, { designation: "Senior Engineer" }],
      ["acme rebranded, rename them to Acme Research", "PATCH", `/customers/${acme.id}`, { name: "Acme Research" }],
      ["big co deal value should be 30000 not 25000", "PATCH", `/deals/${bigCo.id}`, { value: 3_000_000 }],
      ["acme changed their AP address, use finance@acme.example from now on", "PATCH", `/customers/${acme.id}`, { email: "finance@acme.example" }],
      ["website end date -> jan 15", "PATCH", `/projects/${website.id}`, {}],
      ["delete the draft for acme, we'll redo it", "DELETE", `/invoices/${draft.id}`, undefined],
    ] as const;
    await expectProposals(ws.token, cases);
    const project = await ask(ws.token, "spin up a project for acme starting next monday");
    expect(project.reply.data).toMatchObject({ missing: ["name"] });
    const named = await ask(ws.token, "name it Acme loyalty app", project.conversation_id);
    expect((await requestOf(ws.token, named.reply)).body).toMatchObject({ name: "Acme loyalty app", customer_id: acme.id });
    expect((await ask(ws.token, "can u set up a new customer account for me")).reply.data).toMatchObject({ missing: ["name"] });
    for (const message of [
      "great, now post that number on our twitter with a nice caption",
      "which vat rate am i legally required to charge a client in france",
    ])
      expect((await ask(ws.token, message)).reply.data, message).toMatchObject({ refused: true });
    expect((await ask(ws.token, "show me what acme still hasn't paid")).reply.data.answer).toMatchObject({ kind: "records", resource: "invoices" });
  });
  it("reads what is told before what is asked ('we're scrapping X, delete the project', 'called X … set her to …', 'lead from the trade show: …')", async () => {
    const { ws, website, opening, linus, sophie, acme } = await company();
    const cases = [
      ["we're scrapping the website entirely, delete the project", "DELETE", `/projects/${website.id}`, undefined],
      ["backend engineer opening should have 2 positions", "PATCH", `/job-openings/${opening.id}`, { positions: 2 }],
      ["website is actually for acme, not globex. fix the customer", "PATCH", `/projects/${website.id}`, { customer_id: acme.id }],
      ["linus torvalds has officially left, update his record", "PATCH", `/employees/${linus.id}`, { status: "left" }],
      ["called sophie brown, left a voicemail. set her to contacted", "PATCH", `/leads/${sophie.id}`, { status: "contacted" }],
      ["lead from the trade show yesterday: Marco Bianchi, marco@bianchi.example", "POST", "/leads", { name: "Marco Bianchi", email: "marco@bianchi.example" }],
    ] as const;
    await expectProposals(ws.token, cases);
    const team = await ask(ws.token, "pull up the engineering team");
    expect(team.reply.data.answer).toMatchObject({ kind: "records", resource: "employees", total: 2 });
    const email = await ask(ws.token, "ada lovelace's email pls, need to cc her");
    expect(email.reply.text).toContain("ada@example.com");
  });
  it("reads the news around a command ('signed off 🎉 … for them', 'won't make the deadline on X. extend …', 'is joining X as …'), and details after a name given", async () => {
    const { ws, acme, website, opening, candidate, linus } = await company();
    const kat = await create(ws, "leads", { name: "Kat Allen", email: "kat@initech.example", source: "website", company: "Initech" });
    await create(ws, "employees", { name: "Sam Okafor", email: "sam@assist.co", department: "Sales", branch: "San Francisco", date_of_joining: "2024-01-01" });
    await create(ws, "employees", { name: "Rui Costa", email: "rui@assist.co", department: "Support", branch: "Remote", date_of_joining: "2024-01-01" });
    const cases = [
      ["we're not going to make the dec 2 deadline on the website. extend the end date to jan 15", "PATCH", `/projects/${website.id}`, {}],
      [
        "priya raman is joining engineering as an engineer in berlin from dec 1, email priya.raman@assist.co — set her up",
        "POST",
        "/employees",
        { name: "Priya Raman", email: "priya.raman@assist.co", department: "Engineering", designation: "Engineer", branch: "Berlin" },
      ],
      [
        "acme wants invoices to go to finance@acme.example from now on, update their email",
        "PATCH",
        `/customers/${acme.id}`,
        { email: "finance@acme.example" },
      ],
      [
        "onboard Tomás Ruiz — support specialist, remote, starts monday, tomas@assist.co",
        "POST",
        "/employees",
        { designation: "Support Specialist", branch: "Remote" },
      ],
      [
        "acme signed off on the analytics work 🎉 can you set up a new project 'Q1 analytics' for them, jan 5 to march 31",
        "POST",
        "/projects",
        { name: "Q1 analytics", customer_id: acme.id, start_date: expect.stringMatching(/-01-05$/), end_date: expect.stringMatching(/-03-31$/) },
      ],
      ["the backend engineer role can be remote now", "PATCH", `/job-openings/${opening.id}`, { branch: "Remote" }],
      ["open a role for a customer success manager in support, remote ok", "POST", "/job-openings", { department: "Support", branch: "Remote" }],
      ["convert joan clarke into an employee — senior engineer in engineering", "POST", `/candidates/${candidate.id}/hire`, { designation: "Senior Engineer" }],
      // (Initials stand for the one branch they begin.)
      ["move linus torvalds to the SF branch", "PATCH", `/employees/${linus.id}`, { branch: "San Francisco" }],
    ] as const;
    await expectProposals(ws.token, cases);
    const extended = await ask(ws.token, cases[0][0]);
    expect(String((await requestOf(ws.token, extended.reply)).body?.end_date)).toMatch(/-01-15$/);
    // Where she already works only said who she is: nothing else changes.
    const qualified = await ask(ws.token, "kat allen at initech is a real opportunity, qualify her");
    expect(await requestOf(ws.token, qualified.reply)).toMatchObject({ path: `/leads/${kat.id}`, body: { status: "qualified" } });
    expect(Object.keys((await requestOf(ws.token, qualified.reply)).body ?? {})).toEqual(["status"]);
    const contact = await ask(ws.token, "add marta klein from cyberdyne to contacts");
    expect(contact.reply.data).toMatchObject({ missing: ["email"], slot: { draft: { resource: "contacts", fields: { name: "Marta Klein" } } } });
    // Details after the name asked for are the record's other fields.
    const customer = await ask(ws.token, "can u set up a new customer account for me");
    const named = await ask(ws.token, "its Lumen Dental Group, billing@lumendental.example", customer.conversation_id);
    expect((await requestOf(ws.token, named.reply)).body).toMatchObject({ name: "Lumen Dental Group", email: "billing@lumendental.example" });
    const role = await ask(ws.token, "new job opening in engineering");
    const titled = await ask(ws.token, "Office Manager, based in san francisco", role.conversation_id);
    expect((await requestOf(ws.token, titled.reply)).body).toMatchObject({ title: "Office Manager", branch: "San Francisco" });
    // What a question is for, said first, and a condition said after it.
    const owes = await ask(ws.token, "hey so i'm doing the cash flow forecast for december, who owes us the most right now");
    expect(owes.reply.data.answer).toMatchObject({ kind: "groups", group_by: "customer_id" });
    const billed = await ask(ws.token, "how much did we bill this year? leave out voids and drafts obviously");
    expect(billed.reply.text).toContain("not void, not draft");
  });
  it("reads lines said as months at a monthly price, a payment wired 'towards it', a listed one 'moved to' a stage, and a due date after a task's title", async () => {
    const { ws, acme, ana, website, smallFry, invoice } = await company();
    const listed = await ask(ws.token, "show me the open deals");
    const moved = await ask(ws.token, "the small fry one moved to proposal", listed.conversation_id);
    expect(await requestOf(ws.token, moved.reply)).toMatchObject({ path: `/deals/${smallFry.id}`, body: { stage: "proposal" } });
    const monthly = await ask(ws.token, "can you raise an invoice for 6 months of the support plan at 299/month");
    const forAcme = await ask(ws.token, "its for acme", monthly.conversation_id);
    expect((await requestOf(ws.token, forAcme.reply)).body).toMatchObject({ customer_id: acme.id, items: [{ quantity: 6, unit_amount: 29_900 }] });
    const cases = [
      [
        "acme: 3 training sessions at 736 each, invoice them, due in 30 days",
        "POST",
        "/invoices",
        { customer_id: acme.id, items: [{ quantity: 3, unit_amount: 73_600 }] },
      ],
    ] as const;
    await expectProposals(ws.token, cases);
    const left = await ask(ws.token, `acme called about ${invoice.number}, they think they've almost paid it off. whats actually left on it?`);
    const wired = await ask(ws.token, "they just wired 500 towards it", left.conversation_id);
    expect((await requestOf(ws.token, wired.reply)).body).toMatchObject({ invoice_id: invoice.id, amount: 50_000, method: "bank_transfer" });
    const task = await ask(ws.token, "task for ana garcia: reconcile november payments by the 30th");
    expect(task.reply.data).toMatchObject({ missing: ["project_id"] });
    const placed = await ask(ws.token, "website", task.conversation_id);
    const body = (await requestOf(ws.token, placed.reply)).body!;
    expect(body).toMatchObject({ title: "Reconcile november payments", assignee_id: ana.id, project_id: website.id });
    expect(String(body.due_date)).toMatch(/-30$/);
    const candidates = await ask(ws.token, "i've got interviews lined up all next week and lost track, who are the candidates for the backend engineer role?");
    expect(candidates.reply.data.answer).toMatchObject({ kind: "records", resource: "candidates", total: 1 });
  });
  it("reads a command after a question about its record ('still in draft?? send it'), a proposal sent as a stage, and contacts told by where they work", async () => {
    const { ws, acme, bigCo, ada } = await company();
    const draft = await create(ws, "invoices", {
      customer_id: acme.id,
      currency: "USD",
      due_date: "2026-12-31",
      items: [{ description: "Redo", quantity: 1, unit_amount: 1000 }],
    });
    await create(ws, "contacts", { name: "Ada Byron", email: "ada.byron@example.com", company: "Somewhere Else" });
    const cases = [
      ["acme's invoice is still in draft?? send it", "POST", `/invoices/${draft.id}/send`, {}],
      ["sent the proposal to big co, update the stage", "PATCH", `/deals/${bigCo.id}`, { stage: "proposal" }],
      ["delete ada from the analytical engines contacts", "DELETE", `/contacts/${ada.id}`, undefined],
    ] as const;
    await expectProposals(ws.token, cases);
    const asked = await ask(ws.token, "client asked which currency we bill acme in, what's on file?");
    expect(asked.reply.data.answer).toMatchObject({ resource: "customers", ids: [acme.id], field: "currency" });
    const listed = await ask(ws.token, "projects?");
    const dates = await ask(ws.token, "and their end dates", listed.conversation_id);
    expect(dates.reply.data.answer).toMatchObject({ resource: "projects", field: "end_date" });
  });
  it("amends a person just proposed when a correction names her ('sorry, her start date is jan 4 not dec 1')", async () => {
    const { ws } = await company();
    const proposed = await ask(ws.token, "add employee Sara Lind, sara.lind@assist.co, engineering, starts dec 1");
    expect((await requestOf(ws.token, proposed.reply)).body).toMatchObject({ name: "Sara Lind", date_of_joining: expect.stringMatching(/-12-01$/) });
    const corrected = await ask(ws.token, "sorry, her start date is jan 4 not dec 1", proposed.conversation_id);
    expect(await requestOf(ws.token, corrected.reply)).toMatchObject({
      method: "POST",
      path: "/employees",
      body: { name: "Sara Lind", email: "sara.lind@assist.co", department: "Engineering", date_of_joining: expect.stringMatching(/-01-04$/) },
    });
  });
  it("reads a task whose title starts with a state ('review dashboard'), 'ready for review now' with no date, and 'oh and he's already qualified' of a lead just proposed", async () => {
    const { ws, website } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const here = await create(ws, "tasks", { title: "Review dashboard", project_id: website.id });
    await create(ws, "tasks", { title: "Review dashboard", project_id: intranet.id });
    await create(ws, "tasks", { title: "Fix dashboard", project_id: website.id });
    const drop = await ask(ws.token, "drop review dashboard on website to low priority");
    expect(await requestOf(ws.token, drop.reply)).toMatchObject({ path: `/tasks/${here.id}`, body: { priority: "low" } });
    const ready = await ask(ws.token, "review dashboard in website is ready for review now");
    const request = await requestOf(ws.token, ready.reply);
    expect(request).toMatchObject({ path: expect.stringMatching(new RegExp(`^/tasks/${here.id}`)), body: { status: "review" } });
    expect(request.body).not.toHaveProperty("due_date");
    const lead = await ask(ws.token, "new lead Sam Ortega, sam@ortegafoods.example, Ortega Foods");
    const amended = await ask(ws.token, "oh and he's already qualified", lead.conversation_id);
    expect(await requestOf(ws.token, amended.reply)).toMatchObject({ method: "POST", path: "/leads", body: { name: "Sam Ortega", status: "qualified" } });
  });
  it("reads a lead's source as its usual kind ('met him at the Berlin expo' → event), a company by its legal form, and staff by their job and start", async () => {
    const { ws, ana } = await company();
    await create(ws, "leads", { name: "Eve Event", email: "eve@lead.example", source: "event" });
    await create(ws, "employees", { name: "Bo Berlin", email: "bo@assist.co", department: "Engineering", designation: "Engineer", branch: "Berlin" });
    const expo = await ask(ws.token, "new lead: Sam Carter, sam.carter@globex.example, kessler gmbh, met him at the Berlin expo, maybe 40k");
    expect(await requestOf(ws.token, expo.reply)).toMatchObject({
      path: "/leads",
      body: { name: "Sam Carter", source: "event", company: expect.stringMatching(/^kessler gmbh$/i) },
    });
    const asked = await ask(ws.token, "how many leads came from conferences");
    expect(asked.reply.data.query.conditions).toEqual([expect.objectContaining({ field: "source", value: "event" })]);
    // (A kind the skill has no words for stays as said.)
    const cold = await ask(ws.token, "new lead: Ola Nordmann, ola@lead.example, came in through a podcast");
    expect(await requestOf(ws.token, cold.reply)).toMatchObject({ body: { source: "podcast" } });
    const staff = await ask(ws.token, "add Sara Lindgren to engineering as a senior engineer, sara.lindgren@assist.co, berlin office, starts dec 1");
    expect(await requestOf(ws.token, staff.reply)).toMatchObject({
      path: "/employees",
      body: {
        name: "Sara Lindgren",
        department: "Engineering",
        designation: "Senior Engineer",
        branch: "Berlin",
        date_of_joining: expect.stringMatching(/-12-01$/),
      },
    });
    const told = await ask(
      ws.token,
      "New hire starting dec 1: Nina Petrova, nina@assist.co, she'll be a Frontend Engineer in Engineering at the Berlin branch. Can you add her as employee?",
    );
    expect(await requestOf(ws.token, told.reply)).toMatchObject({ body: { designation: "Frontend Engineer", department: "Engineering", branch: "Berlin" } });
    expect(ana.department).toBe("Engineering");
  });
  it("reads a reference field of another record named by its noun ('make ada lovelace the contact on the big co deal', 'set the contact on …')", async () => {
    const { ws, ada, alan, bigCo } = await company();
    const made = await ask(ws.token, "make ada lovelace the contact on the big co deal");
    expect(await requestOf(ws.token, made.reply)).toMatchObject({ path: `/deals/${bigCo.id}`, body: { contact_id: ada.id } });
    const set = await ask(ws.token, "set the contact on big co to alan turing");
    expect(await requestOf(ws.token, set.reply)).toMatchObject({ path: `/deals/${bigCo.id}`, body: { contact_id: alan.id } });
    // (The contact itself, when it is what changes.)
    const own = await ask(ws.token, "update the contact ada lovelace, phone +442071234999");
    expect(await requestOf(ws.token, own.reply)).toMatchObject({ path: `/contacts/${ada.id}` });
  });
  it("reads an address's second line and a zip said plainly, a new e-mail told with a move, and asks the name of 'the guys we met'", async () => {
    const { ws, acme, ada } = await company();
    const moved = await ask(ws.token, "acme new address is 1200 Market St, Suite 400, Philadelphia 19107");
    expect(await requestOf(ws.token, moved.reply)).toMatchObject({
      path: `/customers/${acme.id}`,
      body: { billing: { address_line1: "1200 Market St", address_line2: "Suite 400", city: "Philadelphia", postal_code: "19107" } },
    });
    const zip = await ask(ws.token, "change acme's city to Boston, zip 02110");
    expect(await requestOf(ws.token, zip.reply)).toMatchObject({ body: { billing: { city: "Boston", postal_code: "02110" } } });
    const job = await ask(ws.token, "ada lovelace moved from analytical engines to pied piper, update her company and her email is now ada@piedpiper.example");
    expect(await requestOf(ws.token, job.reply)).toMatchObject({
      path: `/contacts/${ada.id}`,
      body: { company: "Pied Piper", email: "ada@piedpiper.example" },
    });
    const guys = await ask(ws.token, "can u create a customer record for the guys we met at the trade show, theyre in germany, EUR billing");
    expect(guys.reply.action).toBeUndefined();
    expect(guys.reply.data.missing).toContain("name");
  });
  it("reads a job posting as an opening ('take down the backend engineer posting, delete it'), never another record of that name", async () => {
    const { ws } = await company();
    const posting = await create(ws, "job-openings", { title: "Data Engineer", department: "Engineering" });
    const gone = await ask(ws.token, "Take down the Data Engineer posting altogether, please delete it.");
    expect(await requestOf(ws.token, gone.reply)).toMatchObject({ method: "DELETE", path: `/job-openings/${posting.id}` });
  });
  it("reads a new worth told as news ('X is worth 40k now, update it') and a leaving told before 'mark her as left'", async () => {
    const { ws, bigCo, sophie, linus } = await company();
    const worth = await ask(ws.token, "Big Co is worth 40k now, update it");
    expect(await requestOf(ws.token, worth.reply)).toMatchObject({ path: `/deals/${bigCo.id}`, body: { value: 4_000_000 } });
    const lead = await ask(ws.token, "Sophie Brown lead is worth more like $1,800 now");
    expect(await requestOf(ws.token, lead.reply)).toMatchObject({ path: `/leads/${sophie.id}`, body: { value: 180_000 } });
    const leaving = await ask(ws.token, "Linus's last day was Friday, please mark him as left.");
    expect(await requestOf(ws.token, leaving.reply)).toMatchObject({ path: `/employees/${linus.id}`, body: { status: "left" } });
  });
  it("reads payments told as news ('they wired 2000 eur today, record it'), reminders as nouns, a note added, a value they gave and who is still unnamed", async () => {
    const { ws, acme, invoice } = await company();
    const asked = await ask(ws.token, `what's left to pay on ${invoice.number}`);
    const wired = await ask(ws.token, "they wired 200 usd today, record it", asked.conversation_id);
    expect(await requestOf(ws.token, wired.reply)).toMatchObject({
      method: "POST",
      path: "/payments",
      body: { invoice_id: invoice.id, amount: 20_000, method: "bank_transfer" },
    });
    const partial = await ask(ws.token, `partial payment of 100 on ${invoice.number} from acme, bank transfer, dated ${today()}`);
    expect(await requestOf(ws.token, partial.reply)).toMatchObject({ body: { invoice_id: invoice.id, amount: 10_000, method: "bank_transfer" } });
    const came = await ask(ws.token, `${invoice.number} came in by bank transfer, can you log the payment`);
    expect(came.reply.action).toBeUndefined();
    expect(came.reply.data.missing).toEqual(["amount"]);
    const card = await ask(ws.token, "acme paid 150 by card");
    expect(card.reply.data.missing).toContain("invoice_id");
    const reminder = await ask(ws.token, `payment reminder to acme for ${invoice.number} pls`);
    expect(await requestOf(ws.token, reminder.reply)).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/remind` });
    const status = await ask(ws.token, `is ${invoice.number} paid yet?`);
    const ping = await ask(ws.token, "no? then ping them with a reminder", status.conversation_id);
    expect(await requestOf(ws.token, ping.reply)).toMatchObject({ path: `/invoices/${invoice.id}/remind` });
    const notes = await ask(ws.token, `add to the notes on ${invoice.number}: wire only, ref GL-347`);
    expect(await requestOf(ws.token, notes.reply)).toMatchObject({ path: `/invoices/${invoice.id}`, body: { notes: "wire only, ref GL-347" } });
    const euro = await ask(ws.token, `${invoice.number} needs to be in EUR, not dollars`);
    expect(await requestOf(ws.token, euro.reply)).toMatchObject({ body: { currency: "EUR" } });
    const taxId = await ask(ws.token, "acme gave us their tax id, US-998877, pls add it");
    expect(await requestOf(ws.token, taxId.reply)).toMatchObject({ path: `/customers/${acme.id}`, body: { tax_id: "US-998877" } });
    const billing = await ask(ws.token, "acme have a new billing email: invoices@acme.example");
    expect(await requestOf(ws.token, billing.reply)).toMatchObject({ body: { billing: { email: "invoices@acme.example" } } });
    for (const unnamed of [
      "set up a customer in the uk, billed in £, email ap@kestrel.example",
      "create an employee record for the new ops hire, email k.osei@assist.co",
    ]) {
      const reply = (await ask(ws.token, unnamed)).reply;
      expect(reply.action, unnamed).toBeUndefined();
      expect(reply.data.missing, unnamed).toContain("name");
    }
  });
  it("reads invoice lines joined by '+', a unit before a line's name, a note to put in, and asks what a new invoice still needs", async () => {
    const { ws, acme } = await company();
    const plus = await ask(ws.token, "new invoice for acme - implementation package 4500 + setup fee 500, due dec 15");
    expect(await requestOf(ws.token, plus.reply)).toMatchObject({
      path: "/invoices",
      body: {
        customer_id: acme.id,
        items: [
          { description: "Implementation package", quantity: 1, unit_amount: 450_000 },
          { description: "Setup fee", quantity: 1, unit_amount: 50_000 },
        ],
      },
    });
    const months = await ask(ws.token, "create invoice for acme: 6 months of the support plan at $299 and 1 hardware kit at 899. put PO 5512 in the notes");
    expect(await requestOf(ws.token, months.reply)).toMatchObject({
      body: {
        items: [
          { description: "Support plan", quantity: 6, unit_amount: 29_900 },
          { description: "Hardware kit", quantity: 1, unit_amount: 89_900 },
        ],
        notes: "PO 5512",
      },
    });
    const together = await ask(ws.token, "put together an invoice for acme — 2 consulting days, 1200 each, plus 20 platform licences at 49");
    expect(await requestOf(ws.token, together.reply)).toMatchObject({ body: { customer_id: acme.id, items: [{ quantity: 2 }, { quantity: 20 }] } });
    const needed = await ask(ws.token, "need an invoice for acme, due next friday");
    expect(needed.reply.data.missing).toEqual(["items"]);
    const whose = await ask(ws.token, "invoice for a data migration, 2500 usd");
    expect(whose.reply.data.missing).toEqual(["customer_id"]);
  });
  it("reads an invoice called a bill, a how-to asked before what is told, a note quoted after a colon, a stage moved into, and why said after a command", async () => {
    const { ws, invoice, bigCo } = await company();
    const bare = invoice.number.replace(/^INV-0*/, "");
    const paid = await ask(ws.token, `how do I say a customer paid us? Acme paid 25 dollars on bill ${bare.padStart(2, "0")} by card`);
    expect(await requestOf(ws.token, paid.reply)).toMatchObject({ path: "/payments", body: { invoice_id: invoice.id, amount: 2_500, method: "card" } });
    const note = await ask(ws.token, `Please add the following note to ${invoice.number}: 'Please quote the purchase order number on your remittance.'`);
    expect(await requestOf(ws.token, note.reply)).toMatchObject({
      method: "PATCH",
      path: `/invoices/${invoice.id}`,
      body: { notes: "Please quote the purchase order number on your remittance." },
    });
    const moved = await ask(ws.token, "Big Co just moved into proposal");
    expect(await requestOf(ws.token, moved.reply)).toMatchObject({ path: `/deals/${bigCo.id}`, body: { stage: "proposal" } });
    const why = await ask(ws.token, `send out ${invoice.number} for acme its good to go`);
    expect(await requestOf(ws.token, why.reply)).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/send` });
    const howTo = await ask(ws.token, "how do I add a new to-do in the Website project called 'Update FAQ page'?");
    expect(await requestOf(ws.token, howTo.reply)).toMatchObject({ path: "/tasks", body: { title: "Update FAQ page" } });
    const opening = await ask(ws.token, "We need another opening in the Berlin office, two positions.");
    expect(opening.reply.data.missing).toEqual(["title"]);
  });
  it("reads a new teammate, where a customer wants invoices sent, 'invoiced in EUR' beside an address, a task's details after its title, and a state said first", async () => {
    const { ws, acme, website, sophie } = await company();
    // (A department is read as one when the workspace has it: this one has Engineering.)
    const team = await ask(ws.token, "Add Priya Nair to the team: priya.nair@assist.co, Engineering, starting Monday.");
    expect(await requestOf(ws.token, team.reply)).toMatchObject({
      path: "/employees",
      body: { name: "Priya Nair", email: "priya.nair@assist.co", department: "Engineering" },
    });
    const sent = await ask(ws.token, "acme wants invoices to go to invoices@acme.example now update billing email");
    expect(await requestOf(ws.token, sent.reply)).toMatchObject({ path: `/customers/${acme.id}`, body: { billing: { email: "invoices@acme.example" } } });
    // ("acme's invoices should go to …": the same, said of the invoices.)
    const should = await ask(ws.token, "acme's invoices should go to ap@acme.example from now on");
    expect(await requestOf(ws.token, should.reply)).toMatchObject({ path: `/customers/${acme.id}`, body: { billing: { email: "ap@acme.example" } } });
    const harbor = await ask(
      ws.token,
      "Please set up a new customer: Harbor & Finch Ltd, billing email accounts@harborfinch.example, billing address 12 Quay Street, Dublin, Ireland, invoiced in EUR.",
    );
    const harborBody = (await requestOf(ws.token, harbor.reply)).body;
    expect(harborBody).toMatchObject({
      name: "Harbor & Finch Ltd",
      currency: "EUR",
      billing: { address_line1: "12 Quay Street", city: "Dublin", country: "IE" },
    });
    expect((harborBody as { billing: Record<string, unknown> }).billing.state).toBeUndefined();
    const task = await ask(ws.token, "new task in website - migrate legacy exports, high, due fri");
    expect(await requestOf(ws.token, task.reply)).toMatchObject({ body: { title: "migrate legacy exports", project_id: website.id, priority: "high" } });
    const qualified = await ask(ws.token, "qualified Sophie Brown on the call today");
    expect(await requestOf(ws.token, qualified.reply)).toMatchObject({ path: `/leads/${sophie.id}`, body: { status: "qualified" } });
  });
  it("keeps what else was said while asking which person, finds a task by its project said after it, and tells options apart by their department", async () => {
    const { ws, website, grace, ana } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet Revamp" });
    const copy = await create(ws, "tasks", { title: "Write copy", project_id: intranet.id });
    const lamarr = await create(ws, "employees", { name: "Grace Lamarr", email: "lamarr@assist.co", department: "Marketing", date_of_joining: "2024-02-01" });
    // Which Grace is asked; the task, narrowed by its project in brackets, is kept for the answer.
    const asked = await ask(ws.token, "2h for grace on write copy (intranet revamp) today");
    expect(asked.reply.intent).toBe("clarify");
    const resumed = await ask(ws.token, "lamarr", asked.conversation_id);
    expect(await requestOf(ws.token, resumed.reply)).toMatchObject({
      path: "/time-entries",
      body: { employee_id: lamarr.id, task_id: copy.id, minutes: 120 },
    });
    // ("the one who is not hopper": the one option left.)
    const again = await ask(ws.token, "2h for grace on write copy (intranet revamp) today");
    const other = await ask(ws.token, "the one who is not hopper", again.conversation_id);
    expect(await requestOf(ws.token, other.reply)).toMatchObject({ body: { employee_id: lamarr.id, task_id: copy.id } });
    // A task's name, then its project's, with no word between.
    const plain = await ask(ws.token, "log 45 min for ana yesterday on write copy intranet revamp");
    expect(await requestOf(ws.token, plain.reply)).toMatchObject({ body: { employee_id: ana.id, task_id: copy.id, minutes: 45 } });
    // ("Grace in Marketing": told apart by her department.)
    const titled = await ask(ws.token, "Grace in Marketing is now Senior Marketer, please update her title.");
    expect(await requestOf(ws.token, titled.reply)).toMatchObject({ path: `/employees/${lamarr.id}`, body: { designation: "Senior Marketer" } });
    expect(grace.id).not.toBe(lamarr.id);
    // A state word that begins a task's name is no state; the one the message ends with is.
    const review = await create(ws, "tasks", { title: "Review login", project_id: website.id });
    const done = await ask(ws.token, "pls mark review login in website done");
    expect(await requestOf(ws.token, done.reply)).toMatchObject({ path: `/tasks/${review.id}`, body: { status: "done" } });
  });

  it("names a line as the catalogue does when it was typed a letter or two off", async () => {
    const { ws, acme } = await company();
    await create(ws, "products", { name: "Training session", sku: "TRAIN", kind: "service", unit_amount: 80_000, currency: "USD" });
    const reply = (await ask(ws.token, "invoice acme 5 training sesions @ 800, due 2026-12-20")).reply;
    expect(await requestOf(ws.token, reply)).toMatchObject({
      path: "/invoices",
      body: { customer_id: acme.id, items: [{ description: "Training session", quantity: 5, unit_amount: 80_000 }] },
    });
    // A line the catalogue does not have keeps its words.
    const other = (await ask(ws.token, "invoice acme 2 workshops @ 900")).reply;
    expect(await requestOf(ws.token, other)).toMatchObject({ body: { items: [{ description: "Workshop", quantity: 2 }] } });
  });
  it("reads 're-send', lines said after 'invoice for' or 'bill' (the customer asked), whose a task 'should be now', more time to pay and a change after an arrow", async () => {
    const { ws, invoice, task, linus } = await company();
    const resend = (await ask(ws.token, `re-send ${invoice.number} to ap@acme.example`)).reply;
    expect(await requestOf(ws.token, resend)).toMatchObject({ path: `/invoices/${invoice.id}/send`, body: { to: "ap@acme.example" } });
    for (const message of ["invoice for 4 months of support at 299/mo pls", "bill 5 consulting days at 1200"]) {
      const reply = (await ask(ws.token, message)).reply;
      expect(reply.intent, message).toBe("action");
      expect(reply.data.slot, message).toMatchObject({ draft: { resource: "invoices" }, missing: ["customer_id"] });
    }
    const owner = (await ask(ws.token, "write copy in website should be linus torvalds's now")).reply;
    expect(await requestOf(ws.token, owner)).toMatchObject({ path: `/tasks/${task.id}`, body: { assignee_id: linus.id } });
    const later = (await ask(ws.token, `give acme until jan 15 2027 on ${invoice.number}`)).reply;
    expect(await requestOf(ws.token, later)).toMatchObject({ path: `/invoices/${invoice.id}`, body: { due_date: "2027-01-15" } });
    const arrow = (await ask(ws.token, "write copy in website -> due 2027-02-01")).reply;
    expect(await requestOf(ws.token, arrow)).toMatchObject({ path: `/tasks/${task.id}`, body: { due_date: "2027-02-01" } });
  });
  it("hires a candidate named by first name as a title whose words are another resource's noun, or 'for' a title in capitals", async () => {
    const { ws, candidate } = await company();
    const title = (await ask(ws.token, "Hire Joan as Account Executive in the Berlin office, starting December 1.")).reply;
    expect(await requestOf(ws.token, title)).toMatchObject({
      path: `/candidates/${candidate.id}/hire`,
      body: { designation: "Account Executive", date_of_joining: expect.stringMatching(/-12-01$/) },
    });
    const job = (await ask(ws.token, "Hire Joan for Finance Analyst, starting January 4, Berlin.")).reply;
    expect(await requestOf(ws.token, job)).toMatchObject({ path: `/candidates/${candidate.id}/hire`, body: { designation: "Finance Analyst" } });
  });
  it("reads a potential customer as a lead, and 'promising' as qualified", async () => {
    const { ws, sophie } = await company();
    const marked = (await ask(ws.token, "mark the potential customer Sophie Brown as promising")).reply;
    expect(await requestOf(ws.token, marked)).toMatchObject({ path: `/leads/${sophie.id}`, body: { status: "qualified" } });
    const count = await ask(ws.token, "how many possible customers do we have");
    expect(count.reply.data.answer).toMatchObject({ kind: "value", resource: "leads", fn: "count", value: 2 });
  });
  it("asks about each unclear name in turn and proposes nothing guessed; reads 'isn't', and no due date in a discount", async () => {
    const { ws, task, invoice } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const other = await create(ws, "tasks", { title: "Write copy", project_id: intranet.id });
    const lamarr = await create(ws, "employees", { name: "Grace Lamarr", email: "lamarr@assist.co", department: "Marketing", date_of_joining: "2024-02-01" });
    const first = await ask(ws.token, "assign write copy to grace");
    expect(first.reply.intent).toBe("clarify");
    expect(first.reply.text).toContain("Write copy");
    const options = first.reply.data.choose.options as { id: number }[];
    const which = await ask(ws.token, `${options.findIndex((option) => option.id === other.id) + 1}`, first.conversation_id);
    // The task is chosen; which Grace is still asked, not guessed.
    expect(which.reply.intent).toBe("clarify");
    expect(which.reply.text).toContain("Grace Lamarr");
    const done = await ask(ws.token, "the one who isn't hopper", which.conversation_id);
    expect(await requestOf(ws.token, done.reply)).toMatchObject({ path: `/tasks/${other.id}`, body: { assignee_id: lamarr.id } });
    expect(other.id).not.toBe(task.id);
    const discount = await ask(ws.token, `give them 10% off until friday on ${invoice.number}`);
    expect(JSON.stringify(discount.reply.data ?? {})).not.toContain("due_date");
  });
  it("reads a name in capitals before its noun, a task told by its project as news of its state, and a sigh before whom the news is of", async () => {
    const { ws, acme, invoice, task, website } = await company();
    const role = (await ask(ws.token, "open a Customer Success Manager role in Support")).reply;
    expect(await requestOf(ws.token, role)).toMatchObject({
      method: "POST",
      path: "/job-openings",
      body: { title: "Customer Success Manager", department: "Support" },
    });
    // Two tasks of that title: the one in the project said, and a title starting with a verb ("Draft").
    const intranet = await create(ws, "projects", { name: "Intranet" });
    await create(ws, "tasks", { title: "Draft copy", project_id: intranet.id });
    const draft = await create(ws, "tasks", { title: "Draft copy", project_id: website.id });
    const ready = (await ask(ws.token, "Draft copy in Website is ready for review")).reply;
    expect(await requestOf(ws.token, ready)).toMatchObject({ method: "PATCH", path: `/tasks/${draft.id}`, body: { status: "review" } });
    const passed = (await ask(ws.token, "write copy (website) passed review")).reply;
    expect(await requestOf(ws.token, passed)).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "done" } });
    const chase = (await ask(ws.token, "ugh acme still hasnt paid, its been months. chase them on the overdue invoice pls")).reply;
    expect(await requestOf(ws.token, chase)).toMatchObject({ method: "POST", path: `/invoices/${invoice.id}/remind` });
    const gone = (await ask(ws.token, "sad news, acme closed down last month. remove them as a customer")).reply;
    expect(await requestOf(ws.token, gone)).toMatchObject({ method: "DELETE", path: `/customers/${acme.id}` });
  });
  it("reads a value told before the field to update, a command after an arrow, someone taking over or moving team, and where to send said first", async () => {
    const { ws, bigCo, smallFry, task, ana, grace, sophie, opening, invoice } = await company();
    const expectCall = (message: string, method: string, path: string, body?: Record<string, unknown>) =>
      expectRequest(ws.token, message, method, path, body, "includes");
    await expectCall("big co: proposal now, pls update stage", "PATCH", `/deals/${bigCo.id}`, { stage: "proposal" });
    await expectCall("small fry is 9k now, update the value", "PATCH", `/deals/${smallFry.id}`, { value: 900_000 });
    await expectCall("small fry -> delete, we don't need that deal", "DELETE", `/deals/${smallFry.id}`);
    await expectCall("grace hopper is taking over write copy", "PATCH", `/tasks/${task.id}`, { assignee_id: grace.id });
    await expectCall("ana garcia is transfering to sales dept", "PATCH", `/employees/${ana.id}`, { department: "Sales" });
    await expectCall("we reached out to sophie brown, set the lead to contacted", "PATCH", `/leads/${sophie.id}`, { status: "contacted" });
    await expectCall("The Backend Engineer position is no longer open, please close it.", "PATCH", `/job-openings/${opening.id}`, { status: "closed" });
    await expectCall(`ap2@acme.example should receive ${invoice.number}, could you send it there please?`, "POST", `/invoices/${invoice.id}/send`, {
      to: "ap2@acme.example",
    });
  });
  it("tells same-named tasks apart by their project said anywhere in the message, and reads 'X isn't needed anymore, please delete it'", async () => {
    const { ws, website } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const mobile = await create(ws, "projects", { name: "Mobile app" });
    const there = await create(ws, "tasks", { title: "Test emails", project_id: intranet.id });
    await create(ws, "tasks", { title: "Test emails", project_id: website.id });
    await create(ws, "tasks", { title: "Test emails", project_id: mobile.id });
    const expectCall = (message: string, method: string, path: string, body?: Record<string, unknown>) =>
      expectRequest(ws.token, message, method, path, body, "exactly");
    await expectCall("Intranet — Test emails needs to be urgent, please change its priority.", "PATCH", `/tasks/${there.id}`, { priority: "urgent" });
    await expectCall("intranet: test emails ready for review", "PATCH", `/tasks/${there.id}`, { status: "review" });
    await expectCall("In Intranet, please remove the task Test emails entirely.", "DELETE", `/tasks/${there.id}`);
    await expectCall("The Test emails task in Intranet isn't needed anymore, please delete it.", "DELETE", `/tasks/${there.id}`);
    await expectCall("intranet has a task test emails we dont need anymore, pls delete", "DELETE", `/tasks/${there.id}`);
    // With no project said, which one is still asked.
    const which = (await ask(ws.token, "make test emails urgent")).reply;
    expect(which.intent).toBe("clarify");
    // A contact and an employee of one name: the list said decides.
    const contact = await create(ws, "contacts", { name: "Brian Sagan", email: "brian@contact.example" });
    await create(ws, "employees", { name: "Brian Sagan", email: "brian@assist.co", department: "Sales", date_of_joining: "2024-01-01" });
    await expectCall("Brian Sagan doesn't need to be in our contact list anymore, please delete him.", "DELETE", `/contacts/${contact.id}`);
    // A question stays a question.
    expect((await ask(ws.token, "is the Test emails task in Intranet not needed anymore?")).reply.intent).not.toBe("action");
  });
  it("reads a project then its task's new state ('Website: write copy is finished, close it'), an address told as news, a note said in passing, and '(lead) has been X now'", async () => {
    const { ws, website, task, acme, invoice, candidate, sophie } = await company();
    await create(ws, "tasks", { title: "Write copy", project_id: (await create(ws, "projects", { name: "Intranet" })).id });
    const expectCall = (message: string, method: string, path: string, body?: Record<string, unknown>) =>
      expectRequest(ws.token, message, method, path, body, "exactly");
    expect(website.name).toBe("Website");
    await expectCall("website: write copy is finished, close it out", "PATCH", `/tasks/${task.id}`, { status: "done" });
    await expectCall("website / write copy -> review", "PATCH", `/tasks/${task.id}`, { status: "review" });
    await expectCall("acme wants bills sent to finance@acme.example from now on, update their billing email", "PATCH", `/customers/${acme.id}`, {
      billing: { email: "finance@acme.example" },
    });
    await expectCall("acme's AP moved to ap3@acme.example, update the billing email", "PATCH", `/customers/${acme.id}`, {
      billing: { email: "ap3@acme.example" },
    });
    await expectCall(`On invoice ${invoice.number}, please add a note saying: PO 4471 required`, "PATCH", `/invoices/${invoice.id}`, {
      notes: "PO 4471 required",
    });
    await expectCall(`${invoice.number} needs a note → PO 4471 required`, "PATCH", `/invoices/${invoice.id}`, { notes: "PO 4471 required" });
    await expectCall("joan clarke candidate notes: 'strong sql, wants remote'", "PATCH", `/candidates/${candidate.id}`, { notes: "strong sql, wants remote" });
    await expectCall("For the candidate Joan Clarke, could you put a note saying strong sql, wants remote", "PATCH", `/candidates/${candidate.id}`, {
      notes: "strong sql, wants remote",
    });
    await expectCall("Sophie Brown (lead) has been contacted now, update pls", "PATCH", `/leads/${sophie.id}`, { status: "contacted" });
  });
  it("reads a lost reason with its state, a company in brackets, 'task N is urgent now', 'title X' and a project's run 'from … through …'", async () => {
    const { ws, bigCo, task } = await company();
    const expectCall = (message: string, method: string, path: string, body?: Record<string, unknown>) =>
      expectRequest(ws.token, message, method, path, body, "includes");
    await expectCall("mark the big co deal as lost because of price", "PATCH", `/deals/${bigCo.id}`, { stage: "lost", lost_reason: "price" });
    await expectCall("The Big Co deal was lost to a competitor; please update its stage accordingly.", "PATCH", `/deals/${bigCo.id}`, { stage: "lost" });
    const reason = await expectCall("change the lost reason on the big co deal to price", "PATCH", `/deals/${bigCo.id}`, { lost_reason: "price" });
    expect(reason.body?.stage).toBeUndefined();
    await expectCall("Please create a contact: Rosa Diaz (Initech), rosa@initech.example.", "POST", "/contacts", { name: "Rosa Diaz", company: "Initech" });
    await expectCall(`task ${task.id} is urgent now`, "PATCH", `/tasks/${task.id}`, { priority: "urgent" });
    await expectCall("Please create a job opening: title Bookkeeper, Finance department, Berlin branch.", "POST", "/job-openings", { title: "Bookkeeper" });
    const run = await expectCall("Please set up a project named Q1 Hiring Sprint running from January 5 through March 31.", "POST", "/projects", {
      name: "Q1 Hiring Sprint",
    });
    expect(String(run.body?.start_date)).toMatch(/-01-05$/);
    expect(String(run.body?.end_date)).toMatch(/-03-31$/);
  });
  it("logs time said in words ('an hour and a half', 'three quarters of an hour'), time for someone said first, and 'the X task in the Y project'", async () => {
    const { ws, task, ana } = await company();
    const cases = [
      ["Today Ana Garcia spent an hour and a half on Write copy (Website), please log it.", 90],
      ["Could you log two hours today for Ana Garcia on the Write copy task in the Website project?", 120],
      ["90 min for ana garcia today, task write copy in website", 90],
      ["Please record three quarters of an hour for Ana Garcia yesterday on write copy", 45],
      ["record seven and a half hours for ana garcia today on write copy", 450],
    ] as const;
    for (const [message, minutes] of cases) {
      const request = await requestOf(ws.token, (await ask(ws.token, message)).reply);
      expect(request, message).toMatchObject({ method: "POST", path: "/time-entries", body: { employee_id: ana.id, task_id: task.id, minutes } });
      expect(request.body?.note, message).toBeUndefined();
    }
  });
  it("logs time on a task named bare with its project beside it ('…, Write copy, Website'), 'For X, please add …' and a note's full stop", async () => {
    const { ws, task, ana } = await company();
    // (Both hers: only the project tells them apart.)
    await create(ws, "tasks", { title: "Write copy", assignee_id: ana.id, project_id: (await create(ws, "projects", { name: "Intranet" })).id });
    const expectEntry = async (message: string, body: Record<string, unknown>) => {
      const request = await requestOf(ws.token, (await ask(ws.token, message)).reply);
      expect(request, message).toMatchObject({ method: "POST", path: "/time-entries", body: { employee_id: ana.id, task_id: task.id, ...body } });
      return request;
    };
    await expectEntry("Add a non-billable entry for Ana Garcia: 1.5 hours yesterday, Write copy, Website.", { minutes: 90, billable: false });
    await expectEntry("For Ana Garcia, please add a time entry dated yesterday: task Write copy, project Website, 1 h 30 min. Note: internal sync.", {
      minutes: 90,
      note: "internal sync",
    });
    // With no project said, which task is asked; a piece only like a name ("Ana is swamped") is never asked about.
    const asked = (await ask(ws.token, "Add an entry for Ana Garcia: 1 hour today, Write copy.")).reply;
    expect(asked.intent, asked.text).toBe("clarify");
    const quoted = await requestOf(ws.token, (await ask(ws.token, "log 1h for Ana Garcia today on write copy in website, note 'Call the client.'")).reply);
    expect(quoted.body?.note).toBe("Call the client.");
    // ("tsk": a task, typed short.)
    const typed = await requestOf(ws.token, (await ask(ws.token, `set tsk ${task.id} to done, its finished`)).reply);
    expect(typed).toMatchObject({ path: `/tasks/${task.id}`, body: { status: "done" } });
  });
  it("makes the kind said after 'as' ('set up X as a new project? … the start date is …') and reads 'please make X the assignee for task number N'", async () => {
    const { ws, task, linus } = await company();
    const kessler = await create(ws, "customers", { name: "Kessler Holdings", email: "ap@kessler.example", currency: "EUR" });
    const project = await requestOf(
      ws.token,
      (await ask(ws.token, "Could you set up Q1 audit prep as a new project? Customer is Kessler Holdings and the start date is 5 January.")).reply,
    );
    expect(project).toMatchObject({ method: "POST", path: "/projects", body: { name: "Q1 audit prep", customer_id: kessler.id } });
    expect(String(project.body?.start_date)).toMatch(/-01-05$/);
    const assignee = await requestOf(ws.token, (await ask(ws.token, `Please make ${linus.name} the assignee for task number ${task.id}.`)).reply);
    expect(assignee).toMatchObject({ method: "PATCH", path: `/tasks/${task.id}`, body: { assignee_id: linus.id } });
  });
  it("asks a new opening's title when only its department and 'remote branch' are said, and a candidate's name when only 'with the address …' is", async () => {
    const { ws, opening } = await company();
    await create(ws, "job-openings", { title: "Remote Support", department: "Support", branch: "Remote" });
    const job = (await ask(ws.token, "open a new job in the engineering department, remote branch")).reply;
    expect(job.action).toBeUndefined();
    expect(job.data?.missing).toEqual(["title"]);
    expect(job.data?.slot?.draft.fields).toMatchObject({ branch: "Remote" });
    const applicant = (await ask(ws.token, `Please add an applicant to the ${opening.title} opening with the address ravi@mail.example.`)).reply;
    expect(applicant.action).toBeUndefined();
    expect(applicant.data?.missing).toEqual(["name"]);
  });
  it("reads a new record told as news ('X is a new client, …'), 'lead to create: Name (Company)', and a request that goes on after its question mark", async () => {
    const { ws } = await company();
    const client = (await ask(ws.token, "Blue Bottle Roasters is a new client, they're invoiced in euros. Email: ap@bluebottle.example")).reply;
    expect(await requestOf(ws.token, client)).toMatchObject({
      method: "POST",
      path: "/customers",
      body: { name: "Blue Bottle Roasters", email: "ap@bluebottle.example", currency: "EUR" },
    });
    const asked = (await ask(ws.token, "Could you set up Kobe Steelworks as a customer? Their email is ap@kobe.example and we bill them in euros.")).reply;
    expect(await requestOf(ws.token, asked)).toMatchObject({
      path: "/customers",
      body: { name: "Kobe Steelworks", email: "ap@kobe.example", currency: "EUR" },
    });
    const lead = (await ask(ws.token, "Lead to create: Bjorn Lund (Acme), email bjorn.lund@acme.example, source LinkedIn, status qualified.")).reply;
    expect(await requestOf(ws.token, lead)).toMatchObject({
      path: "/leads",
      body: { name: "Bjorn Lund", company: "Acme", email: "bjorn.lund@acme.example", status: "qualified" },
    });
    // A new lead with no address: asked for, nothing proposed.
    const priya = (await ask(ws.token, "priya shah @ northwind is a new lead, roughly 8k usd")).reply;
    expect(priya.action).toBeUndefined();
    expect(priya.text).toMatch(/e-mail/);
  });
  it("reads 'task number N', a parent in brackets with its noun, 'field -> value', 'for the lead X, the value should now be …', 'bump … up to', 'go ahead with the hire' and 'she converted, update her'", async () => {
    const { ws, task, website, bigCo, sophie, candidate } = await company();
    const expectCall = async (message: string, path: string, body: Record<string, unknown>, conversation?: string) => {
      const request = await requestOf(ws.token, (await ask(ws.token, message, conversation)).reply);
      expect({ path: request.path, body: request.body }, message).toMatchObject({ path, body });
    };
    await expectCall(`Task number ${task.id} is finished, please close it out.`, `/tasks/${task.id}`, { status: "done" });
    await expectCall("the Write copy task (website project) needs urgent priority pls", `/tasks/${task.id}`, { priority: "urgent" });
    await expectCall("big co deal value -> 30k", `/deals/${bigCo.id}`, { value: 3_000_000 });
    await expectCall("For the lead Sophie Brown, the value should now be 1,500.", `/leads/${sophie.id}`, { value: 150_000 });
    await expectCall("can we bump joan clarke's candidate stage up to offer", `/candidates/${candidate.id}`, { stage: "offer" });
    await expectCall("Joan Clarke: go ahead with the hire, title Backend Engineer", `/candidates/${candidate.id}/hire`, { designation: "Backend Engineer" });
    const asked = await ask(ws.token, "what's sophie brown's status");
    await expectCall("she converted, update her", `/leads/${sophie.id}`, { status: "converted" }, asked.conversation_id);
    expect(website.id).toBeGreaterThan(0);
  });
  it("reads invoice lines said in words ('ten hours of consulting, 150 dollars each hour', 'licence x2 @ €400', '…, 12 hours at $150 an hour'), 'X invoice pls, draft: …', 'a due date of …', and money beside 'invoice N'", async () => {
    const { ws, acme, invoice } = await company();
    const expectBody = async (message: string, path: string, body: Record<string, unknown>) =>
      (await expectRequest(ws.token, message, "POST", path, body)).body as Record<string, unknown>;
    const consulting = (quantity: number) => [{ description: "Consulting", quantity, unit_amount: 15_000 }];
    await expectBody("Can you make a bill for Acme? Ten hours of consulting, 150 dollars each hour.", "/invoices", {
      customer_id: acme.id,
      currency: "USD",
      items: consulting(10),
    });
    await expectBody("new invoice for Acme - consulting, 12 hours at $150 an hour", "/invoices", { customer_id: acme.id, items: consulting(12) });
    await expectBody("Please bill Acme for twelve hours of consulting at 150 dollars per hour.", "/invoices", { customer_id: acme.id, items: consulting(12) });
    const licences = await expectBody("acme invoice pls, draft: licence x2 @ €400, vat 19%, due 15 dec", "/invoices", {
      customer_id: acme.id,
      currency: "EUR",
      items: [{ description: "Licence", quantity: 2, unit_amount: 40_000, tax_rate: 19 }],
    });
    expect(String(licences.due_date)).toMatch(/-12-15$/);
    const dated = await expectBody("new invoice for acme, 2 licences at €400 each, with a due date of December 15?", "/invoices", { customer_id: acme.id });
    expect(String(dated.due_date)).toMatch(/-12-15$/);
    // ("issue date today": "to" is no word of its own at the start of "today".)
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await expectBody("invoice acme 20 licences @ €45, issue date today, due tomorrow", "/invoices", { issue_date: today(), due_date: tomorrow });
    const whose = (await ask(ws.token, "I need to bill two days of implementation work at 900 per day.")).reply;
    expect(whose.data.missing).toEqual(["customer_id"]);
    // "invoice N" with money beside it: the number is the invoice's, the money the payment's.
    const bare = invoice.number.replace(/^INV-0*/, "").padStart(2, "0");
    await expectBody(`Acme paid invoice ${bare} yesterday — five hundred dollars, bank transfer.`, "/payments", {
      invoice_id: invoice.id,
      amount: 50_000,
      method: "bank_transfer",
    });
    await expectBody(`got 500 from acme for invoice ${bare} yesterday`, "/payments", { invoice_id: invoice.id, amount: 50_000 });
    // Where it goes, said before the command that points back to it.
    await expectBody(`the address is billing@acme.example — fire off ${invoice.number} to them thx`, `/invoices/${invoice.id}/send`, {
      to: "billing@acme.example",
    });
  });
  it("reads 'the latest payment on INV-… bounced, reverse it' as that payment, no name from the record's own noun, a title ended by its sentence, 'X needs a new task, …', 'Y's on it', 'task X' in a time entry and 'Mr X'", async () => {
    const { ws, acme, invoice, website, task, ana, linus } = await company();
    const expectBody = async (message: string, path: string, body: Record<string, unknown> = {}) => {
      const request = await requestOf(ws.token, (await ask(ws.token, message)).reply);
      expect({ path: request.path, body: request.body ?? {} }, message).toMatchObject({ path, body });
    };
    clock.now = () => Date.now() + 60_000;
    const later = await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoice.id, amount: 1_000 } });
    clock.now = () => Date.now();
    expect(later.status).toBe(201);
    await expectBody(`the latest payment on ${invoice.number} bounced, pls reverse it`, `/payments/${later.json.data.id}`);
    await expectBody(`A payment on ${invoice.number} bounced (the most recent one). Please remove it.`, `/payments/${later.json.data.id}`);
    const unnamed = (await ask(ws.token, "add a $40,000 deal for Acme")).reply;
    expect(unnamed.data.missing).toEqual(["name"]);
    await expectBody("Support expansion: new deal with Acme for €15k. Already in proposal.", "/deals", {
      name: "Support expansion",
      customer_id: acme.id,
      stage: "proposal",
    });
    await expectBody("New task in Website: Write release notes. Assign to Ana Garcia, high priority, due Friday.", "/tasks", {
      title: "Write release notes",
      project_id: website.id,
      assignee_id: ana.id,
      priority: "high",
    });
    await expectBody("Website needs a new urgent task, title Fix broken sso redirect", "/tasks", {
      title: "Fix broken sso redirect",
      project_id: website.id,
      priority: "urgent",
    });
    await expectBody("website needs a new task, Write release notes — garcia's on it, due friday", "/tasks", {
      title: "Write release notes",
      project_id: website.id,
      assignee_id: ana.id,
    });
    await expectBody("Please add a time entry: Torvalds, task Write copy (Website project), 150 minutes, today.", "/time-entries", {
      employee_id: linus.id,
      task_id: task.id,
      minutes: 150,
    });
    await expectBody("log an hour and half for Mr Torvalds on write copy today", "/time-entries", { employee_id: linus.id, minutes: 90 });
  });
  it("reads an address said first with what it is ('X@… is Wei Chen, save as a contact', 'X@… applied for …, add as a candidate') and 'where is that deal in the pipeline'", async () => {
    const { ws, opening, bigCo } = await company();
    const contact = await requestOf(ws.token, (await ask(ws.token, "wei@umbrella.example is Wei Chen, save as a contact pls")).reply);
    expect(contact).toMatchObject({ method: "POST", path: "/contacts", body: { name: "Wei Chen", email: "wei@umbrella.example" } });
    const applied = (await ask(ws.token, `ravi@mail.example applied for ${opening.title.toLowerCase()}, pls add as a candidate`)).reply;
    expect(applied.action).toBeUndefined();
    expect(applied.data.missing).toEqual(["name"]);
    expect(applied.data.slot.draft.fields).toMatchObject({ email: "ravi@mail.example", job_opening_id: opening.id });
    const stage = (await ask(ws.token, `${bigCo.name} — where is that deal in the pipeline?`)).reply;
    expect(stage.data.query).toMatchObject({ resource: "deals", show: "stage", subject: { id: bigCo.id } });
  });
  it("finds a task by its project's name said first or last ('the mobile app's test emails task', 'Intranet / Test emails', 'Test emails (Mobile app project)')", async () => {
    const { ws, website, linus } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const mobile = await create(ws, "projects", { name: "Mobile app" });
    const onIntranet = await create(ws, "tasks", { title: "Test emails", project_id: intranet.id, priority: "high" });
    await create(ws, "tasks", { title: "Test emails", project_id: website.id });
    const onMobile = await create(ws, "tasks", { title: "Test emails", project_id: mobile.id });
    const logged = await requestOf(ws.token, (await ask(ws.token, "2h today on mobile app's test emails task, for linus")).reply);
    expect(logged).toMatchObject({ method: "POST", path: "/time-entries", body: { task_id: onMobile.id, employee_id: linus.id, minutes: 120 } });
    const moved = await requestOf(ws.token, (await ask(ws.token, "mobile app test emails - move due date to nov 30")).reply);
    expect(moved).toMatchObject({ method: "PATCH", path: `/tasks/${onMobile.id}`, body: { due_date: expect.stringMatching(/-11-30$/) } });
    const status = (await ask(ws.token, "Mobile app's Test emails task — what's its status?")).reply;
    expect(status.data.query).toMatchObject({ resource: "tasks", subject: { id: onMobile.id } });
    const priority = (await ask(ws.token, "Intranet / Test emails - how high is its priority set?")).reply;
    expect(priority.data.query).toMatchObject({ resource: "tasks", subject: { id: onIntranet.id } });
    const assigned = await requestOf(ws.token, (await ask(ws.token, "assign Test emails (Mobile app project) to linus")).reply);
    expect(assigned).toMatchObject({ method: "PATCH", path: `/tasks/${onMobile.id}`, body: { assignee_id: linus.id } });
    // With no project said, which one is still asked.
    expect((await ask(ws.token, "what's the status of the test emails task?")).reply.intent).toBe("clarify");
  });
  it("reads a new lead told first and commanded last ('X should be added as a lead; …', '…, add him as a lead pls', 'Met X of Y at an event — create a lead …', 'PHONE is X's number, …'), 'a new lead' as no state, and '8 thousand euro'", async () => {
    // (A source this workspace has never used is kept as said, capitalised or not; the ones it uses are known.)
    const { ws } = await company();
    await create(ws, "leads", { name: "Earlier Lead", email: "earlier@acme.example", company: "Acme", source: "linkedin" });
    const expectLead = async (message: string, body: Record<string, unknown>) => {
      const request = await requestOf(ws.token, (await ask(ws.token, message)).reply);
      expect({ method: request.method, path: request.path }, message).toEqual({ method: "POST", path: "/leads" });
      expect(request.body, message).toEqual(body);
    };
    await expectLead("Olga Petrova should be added as a lead; we met at an event and have contacted her already. Email olga@kiwi.example, potential €8,000.", {
      name: "Olga Petrova",
      email: "olga@kiwi.example",
      source: expect.stringMatching(/^event$/i),
      status: "contacted",
      value: 800000,
      currency: "EUR",
    });
    await expectLead(
      "Please to add new lead Olga Petrova, her mail olga@kiwi.example. We know her from an event and we contacted her already, value is 8 thousand euro.",
      {
        name: "Olga Petrova",
        email: "olga@kiwi.example",
        source: expect.stringMatching(/^event$/i),
        status: "contacted",
        value: 800000,
        currency: "EUR",
      },
    );
    await expectLead("Bjorn Lund from acme, bjorn.lund@acme.example - came in thru linkedin and hes qualified already, add him as a lead pls", {
      name: "Bjorn Lund",
      email: "bjorn.lund@acme.example",
      company: "Acme",
      status: "qualified",
      source: "linkedin",
    });
    await expectLead("+393471234567 is marco rossi's number, email marco@rossi.it. we met at an event, put him in as a lead", {
      name: "Marco Rossi",
      email: "marco@rossi.it",
      phone: "+393471234567",
      source: expect.stringMatching(/^event$/i),
    });
    await expectLead("Met Jordan Blake of Northwind at an event — please create a lead worth $2,500, email jordan@northwind.example.", {
      name: "Jordan Blake",
      email: "jordan@northwind.example",
      company: "Northwind",
      source: expect.stringMatching(/^event$/i),
      value: 250000,
      currency: "USD",
    });
    await expectLead("add a new lead Olga Petrova, olga@kiwi.example", { name: "Olga Petrova", email: "olga@kiwi.example" });
    await expectLead("add a new lead Olga Petrova, olga@kiwi.example, status new", { name: "Olga Petrova", email: "olga@kiwi.example", status: "new" });
  });
  it("reads time not to be billed said as a person would ('dont bill it', 'it is not for billing to client', 'it shouldn't be charged to the customer') and 'note it as …'", async () => {
    const { ws, linus, task } = await company();
    const cases: [string, Record<string, unknown>][] = [
      [
        `yesterday linus torvalds spent an hour and a half on ${task.title}, dont bill it, note it as internal sync`,
        { minutes: 90, billable: false, note: "internal sync" },
      ],
      [`Yesterday Linus Torvalds has worked 2 hours on ${task.title}, it is not for billing to client.`, { minutes: 120, billable: false }],
      [
        `Linus Torvalds spent 1 hour on ${task.title} yesterday but it shouldn't be charged to the customer, can you add that?`,
        { minutes: 60, billable: false },
      ],
    ];
    for (const [message, body] of cases) {
      const request = await requestOf(ws.token, (await ask(ws.token, message)).reply);
      expect({ method: request.method, path: request.path }, message).toEqual({ method: "POST", path: "/time-entries" });
      expect(request.body, message).toMatchObject({ ...body, employee_id: linus.id, task_id: task.id });
    }
  });
  it("reads a state said first ('Qualification is where X belongs now, please update it', 'we're at the offer stage with X, pls update him', 'X (lead): …, so she's contacted'), 'it' as no name, and a hire's role said first or with its rank", async () => {
    const { ws, bigCo, sophie, opening, candidate, acme } = await company();
    const expectCall = (message: string, method: string, path: string, body?: Record<string, unknown>) =>
      expectRequest(ws.token, message, method, path, body, "includes");
    await expectCall("Qualification is where the Big Co deal belongs now, please update it.", "PATCH", `/deals/${bigCo.id}`, { stage: "qualification" });
    await expectCall("The Big Co opportunity is active again; move it back to the proposal stage please.", "PATCH", `/deals/${bigCo.id}`, {
      stage: "proposal",
    });
    await expectCall("we're at the interview stage with joan clarke now, pls update her", "PATCH", `/candidates/${candidate.id}`, { stage: "interview" });
    await expectCall("Sophie Brown (lead): I phoned her, so she's contacted.", "PATCH", `/leads/${sophie.id}`, { status: "contacted" });
    await expectCall("Backend Engineer opening has a new applicant, please add her: Lena Fischer, lena.fischer@mail.example", "POST", "/candidates", {
      name: "Lena Fischer",
      email: "lena.fischer@mail.example",
      job_opening_id: opening.id,
    });
    await expectCall("Backend Engineer role: hire Joan Clarke, joining 2026-12-01", "POST", `/candidates/${candidate.id}/hire`, {
      designation: "Backend Engineer",
    });
    await expectCall("ok the backend engineer job goes to joan clarke, hire her pls, she begins 2026-12-01", "POST", `/candidates/${candidate.id}/hire`, {
      designation: "Backend Engineer",
    });
    await expectCall("hire joan clarke as senior backend engineer, december 1st is day one", "POST", `/candidates/${candidate.id}/hire`, {
      designation: "Senior Backend Engineer",
    });
    // A payment said but not its amount or invoice: asked for, not read as a question.
    const paid = (await ask(ws.token, `${acme.name} paid us something, need to log that payment`)).reply;
    expect(paid.data.missing, paid.text).toEqual(expect.arrayContaining(["invoice_id", "amount"]));
    // A new opening needed, no title said: its title is asked ("remote" is where, a branch this workspace has).
    await create(ws, "employees", { name: "Rita Remote", email: "rita@assist.co", department: "Engineering", branch: "Remote", date_of_joining: "2025-01-01" });
    const needed = (await ask(ws.token, "we need a new remote opening for engineering")).reply;
    expect(needed.data.missing, needed.text).toEqual(["title"]);
  });
  it("reads 'X should take Y, please assign it to him', 'X needs more time, new end date …', 'urgent: X task - title', an exclusion of 'anyone we've rejected', 'across every project' as no grouping, and 'in to-do'", async () => {
    const { ws, website, task, linus, candidate, opening } = await company();
    const expectCall = (message: string, method: string, path: string, body?: Record<string, unknown>) =>
      expectRequest(ws.token, message, method, path, body, "includes");
    await expectCall(`Linus Torvalds should take ${task.title} (${website.name} project), please assign it to him.`, "PATCH", `/tasks/${task.id}`, {
      assignee_id: linus.id,
    });
    await expectCall(`${website.name} needs more time, new end date 2026-12-31`, "PATCH", `/projects/${website.id}`, { end_date: "2026-12-31" });
    await expectCall(`urgent: ${website.name.toLowerCase()} task - fix broken sso redirect`, "POST", "/tasks", {
      title: "Fix broken sso redirect",
      priority: "urgent",
      project_id: website.id,
    });
    // "a to-do" is still a task; "in to-do" its state.
    const todo = (await ask(ws.token, "Can you add a to-do for Linus Torvalds titled Chase payment?")).reply;
    expect(todo.data.missing, todo.text).toEqual(["project_id"]);
    const urgent = await create(ws, "tasks", { title: "Patch login", project_id: website.id, priority: "urgent", status: "todo" });
    await create(ws, "tasks", { title: "Patch logout", project_id: website.id, priority: "urgent", status: "done" });
    const sitting = (await ask(ws.token, "across every project, which urgent tasks are still sitting in to-do?")).reply;
    expect(sitting.data.answer, sitting.text).toMatchObject({ resource: "tasks", ids: [urgent.id] });
    const rejected = await create(ws, "candidates", { job_opening_id: opening.id, name: "Rex Rejected", email: "rex@mail.example", stage: "rejected" });
    const applicants = (await ask(ws.token, `${opening.title} applicants, excluding anyone we've rejected`)).reply;
    expect(applicants.data.answer.ids, applicants.text).toEqual([candidate.id]);
    expect(applicants.data.answer.ids).not.toContain(rejected.id);
  });

  it("reads a state said after its field's word ('website review exports task: set status todo again'), 'reset … to To do', and 'X - 2h30 on a task (its project)'", async () => {
    const { ws, website, task, ana } = await company();
    const intranet = await create(ws, "projects", { name: "Intranet" });
    const review = await create(ws, "tasks", { title: "Review exports", project_id: website.id, status: "review" });
    await create(ws, "tasks", { title: "Review exports", project_id: intranet.id, status: "review" });
    await create(ws, "tasks", { title: "Fix exports", project_id: website.id });
    await expectRequest(ws.token, "website review exports task: set status todo again", "PATCH", `/tasks/${review.id}`, { status: "todo" }, "exactly");
    await expectRequest(
      ws.token,
      "Please reset the Review exports task in the Website project to To do.",
      "PATCH",
      `/tasks/${review.id}`,
      { status: "todo" },
      "exactly",
    );
    const logged = await ask(ws.token, `ana garcia - 2h30 on ${task.title} (${website.name})`);
    expect(logged.reply.data.missing, logged.reply.text).toEqual(["date"]);
    const dated = await ask(ws.token, "today", logged.conversation_id);
    expect(await requestOf(ws.token, dated.reply)).toMatchObject({
      path: "/time-entries",
      body: { employee_id: ana.id, task_id: task.id, minutes: 150, date: today() },
    });
  });

  it("reads a deal's contact said as such ('X is the contact on a new deal I want to add: …', 'w/ X as contact person'), and a new colleague 'in the Finance department at the Berlin office'", async () => {
    const { ws, ada, alan } = await company();
    await create(ws, "employees", { name: "Alan Allen", email: "alan.allen@assist.co", department: "Finance", designation: "Accountant", branch: "Berlin" });
    await expectRequest(ws.token, "Ada Lovelace is the contact on a new deal I want to add: Oscorp data pipeline, 7,500.", "POST", "/deals", {
      name: "Oscorp data pipeline",
      value: 750_000,
      contact_id: ada.id,
    });
    await expectRequest(ws.token, 'new deal "Turing pilot" 7.5k w/ alan turing as contact person', "POST", "/deals", {
      name: "Turing pilot",
      value: 750_000,
      contact_id: alan.id,
    });
    await expectRequest(
      ws.token,
      "Please add Lena Fischer to the staff. She is an Accountant in the Finance department at the Berlin office; her email is lena@assist.co.",
      "POST",
      "/employees",
      { name: "Lena Fischer", email: "lena@assist.co", department: "Finance", designation: "Accountant", branch: "Berlin" },
    );
    // (Asked, the department is still the people's.)
    const asked = (await ask(ws.token, "who is in the engineering department")).reply;
    expect(asked.data.answer, asked.text).toMatchObject({ resource: "employees" });
  });

  it("reads 'reassign X from A to B' as B's, 'X is back on make it active again' as that state, and a kind said aside ('X (he's one of our contacts) has a new phone number')", async () => {
    const { ws, website, task, linus, ada } = await company();
    await create(ws, "employees", { name: "Ana Lopez", email: "ana.lopez@assist.co", department: "Sales" });
    await expectRequest(
      ws.token,
      `reassign ${task.title} (${website.name}) from ana to linus torvalds`,
      "PATCH",
      `/tasks/${task.id}`,
      { assignee_id: linus.id },
      "exactly",
    );
    const paused = await create(ws, "projects", { name: "Design system", status: "on_hold" });
    await expectRequest(ws.token, "design system is back on make it active again", "PATCH", `/projects/${paused.id}`, { status: "active" }, "exactly");
    await create(ws, "leads", { name: "Ada Lovelace", email: "ada@lead.example" });
    await expectRequest(
      ws.token,
      "Ada Lovelace (she's one of our contacts) has a new phone number, +4930123456, can you change it?",
      "PATCH",
      `/contacts/${ada.id}`,
      {
        phone: "+4930123456",
      },
    );
  });

  it("reads a record to add asked as how to ('a new person started today, X, in Support. how do I add him?', 'how do I add a new company that we will bill? It's called X')", async () => {
    const { ws } = await company();
    await create(ws, "employees", { name: "Sam Support", email: "sam@assist.co", department: "Support" });
    const started = await ask(ws.token, "a new person started today, Kofi Mensah, in Support. how do I add him?");
    expect(started.reply.data.missing, started.reply.text).toEqual(["email"]);
    const added = await ask(ws.token, "kofi@assist.co", started.conversation_id);
    expect(await requestOf(ws.token, added.reply)).toMatchObject({
      path: "/employees",
      body: { name: "Kofi Mensah", email: "kofi@assist.co", department: "Support", date_of_joining: today() },
    });
    await expectRequest(ws.token, "how do I add a new company that we will bill? It's called Greenleaf Studio", "POST", "/customers", {
      name: "Greenleaf Studio",
    });
  });

  it("throws a draft invoice away when it is scrapped ('scrap INV-000002, it's a draft', 'how do I get rid of it?') and voids it when told 'void' or 'cancel'", async () => {
    const { ws, acme } = await company();
    const draft = await create(ws, "invoices", { customer_id: acme.id, items: [{ description: "Oops", quantity: 1, unit_amount: 1000 }] });
    await expectRequest(ws.token, `scrap ${draft.number} its a draft we dont need`, "DELETE", `/invoices/${draft.id}`);
    await expectRequest(ws.token, `I made a bill by mistake, it's ${draft.number}, how do I get rid of it?`, "DELETE", `/invoices/${draft.id}`);
    await expectRequest(ws.token, `void ${draft.number}`, "POST", `/invoices/${draft.id}/void`);
    await expectRequest(ws.token, `cancel ${draft.number}, raised it by mistake`, "POST", `/invoices/${draft.id}/void`);
  });

  it("reads a new deal named only by its customer as that customer's, asking its name ('new deal acme 40k', 'put acme in the pipeline', 'deal for acme, 40000'), and a name said before 'new deal'", async () => {
    const { ws, acme } = await company();
    const asked = await ask(ws.token, "new deal acme 40k");
    expect(asked.reply.data.missing, asked.reply.text).toEqual(["name"]);
    const named = await ask(ws.token, "Acme support renewal", asked.conversation_id);
    expect(await requestOf(ws.token, named.reply)).toMatchObject({
      path: "/deals",
      body: { name: "Acme support renewal", customer_id: acme.id, value: 4_000_000 },
    });
    const pipeline = await ask(ws.token, "put acme in the pipeline for 60k");
    expect(pipeline.reply.data.missing, pipeline.reply.text).toEqual(["name"]);
    // A record's kind, whose it is, then a value: a record to make; with a comparison, still a question.
    const noted = await ask(ws.token, "deal for acme, 40000");
    expect(noted.reply.data.missing, noted.reply.text).toEqual(["name"]);
    expect((await ask(ws.token, "deal for acme, over 40k?")).reply.intent).toBe("list");
    await expectRequest(ws.token, "acme analytics add-on — new deal, 18k eur", "POST", "/deals", {
      name: "Acme analytics add-on",
      value: 1_800_000,
      currency: "EUR",
    });
  });

  it("keeps a quoted description or note whole, commas and all, and an apostrophe is no quote ('the opening's …')", async () => {
    const { ws, opening, invoice } = await company();
    const text = "Month-end close, FP&A support, strong Excel.";
    for (const message of [
      `Add a description to the Backend Engineer opening: '${text}'`,
      `set the description of the Backend Engineer opening to '${text}'`,
      `Backend Engineer opening description: '${text}'`,
    ])
      await expectRequest(ws.token, message, "PATCH", `/job-openings/${opening.id}`, { description: text }, "exactly");
    await expectRequest(
      ws.token,
      `the notes on ${invoice.number} should be 'pay by wire, ref 98'`,
      "PATCH",
      `/invoices/${invoice.id}`,
      { notes: "pay by wire, ref 98" },
      "exactly",
    );
  });

  it("reads a timesheet line without a verb ('ana garcia 90m write copy website today non billable'), '45m' in a timesheet as minutes, and 'X needs to be done by friday' as its due date", async () => {
    const { ws, ana, task, website } = await company();
    await expectRequest(ws.token, "ana garcia 90m write copy website today non billable", "POST", "/time-entries", {
      employee_id: ana.id,
      task_id: task.id,
      minutes: 90,
      date: today(),
      billable: false,
    });
    await expectRequest(ws.token, "log 45m for ana garcia today on write copy", "POST", "/time-entries", {
      employee_id: ana.id,
      task_id: task.id,
      minutes: 45,
    });
    // A total's words stay a question.
    expect((await ask(ws.token, "total 40 hours last week")).reply.intent).not.toBe("action");
    // Elsewhere an "m" is a million.
    expect((await ask(ws.token, "deals over 2m")).reply.text).toContain("over 2,000,000");
    await expectRequest(
      ws.token,
      `Write copy in ${website.name} needs to be done by 2099-03-04, set the due date`,
      "PATCH",
      `/tasks/${task.id}`,
      { due_date: "2099-03-04" },
      "exactly",
    );
  });

  it("reads a quarter inside a new task's title as part of it ('Prep Q1 roadmap'), and someone with an address and no kind as a contact — a lead when they may buy", async () => {
    const { ws, website } = await company();
    await expectRequest(
      ws.token,
      `create a task Prep Q1 roadmap in ${website.name}, priority low`,
      "POST",
      "/tasks",
      { title: "Prep Q1 roadmap", project_id: website.id, priority: "low" },
      "exactly",
    );
    await expectRequest(
      ws.token,
      "Lucia Ferreira, lucia@ferreira.example, can you save her?",
      "POST",
      "/contacts",
      { name: "Lucia Ferreira", email: "lucia@ferreira.example" },
      "exactly",
    );
    await expectRequest(
      ws.token,
      "I met Lucia Ferreira at a conference yesterday, she might want to buy from us. her email is lucia@ferreira.example, can you save her?",
      "POST",
      "/leads",
      { name: "Lucia Ferreira", email: "lucia@ferreira.example", source: "event" },
      "exactly",
    );
  });

  it("reads 'new task in P: Title - what it is about' as the title and the description", async () => {
    const { ws, website } = await company();
    await expectRequest(
      ws.token,
      `create task in ${website.name}: Update cookie banner - legal wants new wording, urgent`,
      "POST",
      "/tasks",
      {
        title: "Update cookie banner",
        description: "legal wants new wording",
        priority: "urgent",
        project_id: website.id,
      },
      "exactly",
    );
  });

  it("reads 'create deal Acme - renewal, 45k usd' as one name, as deals and projects are named, and a person's 'name - company' apart", async () => {
    const { ws } = await company();
    await expectRequest(ws.token, "new project Acme - support portal, starts 2099-01-05", "POST", "/projects", {
      name: "Acme - support portal",
      start_date: "2099-01-05",
    });
    await expectRequest(
      ws.token,
      "create deal Acme - renewal, 45k usd, closing 2099-03-31",
      "POST",
      "/deals",
      {
        name: "Acme - renewal",
        value: 4_500_000,
        currency: "USD",
        expected_close_date: "2099-03-31",
      },
      "exactly",
    );
    await expectRequest(
      ws.token,
      "add contact Jane Doe - Initrode, jane@doe.example",
      "POST",
      "/contacts",
      { name: "Jane Doe", company: "Initrode", email: "jane@doe.example" },
      "exactly",
    );
  });

  it("reads whom an invoice is for said inside its line ('raise an invoice: 6 months of support for acme @ 299/mo')", async () => {
    const { ws, acme } = await company();
    await expectRequest(ws.token, "raise an invoice: 6 months of support for acme @ 299/mo", "POST", "/invoices", {
      customer_id: acme.id,
      items: [{ description: "Support", quantity: 6, unit_amount: 29_900 }],
    });
  });

  it("reads 'X has no dept set - he's in Sales' as where the person is", async () => {
    const { ws } = await company();
    const donald = await create(ws, "employees", { name: "Donald Berners-Lee", email: "donald@assist.co" });
    await create(ws, "employees", { name: "Carl Berners-Lee", email: "carl@assist.co", department: "Sales" });
    await expectRequest(ws.token, "Donald Berners-Lee has no dept set - he's in Sales", "PATCH", `/employees/${donald.id}`, { department: "Sales" }, "exactly");
  });

  it("reads a kind's word that begins another record's name as that record ('Customer portal is running long, extend the end date …')", async () => {
    const { ws } = await company();
    const portal = await create(ws, "projects", { name: "Customer portal", end_date: "2026-12-01" });
    await expectRequest(
      ws.token,
      "Customer portal is running long, extend the end date to 31 Jan 2027",
      "PATCH",
      `/projects/${portal.id}`,
      { end_date: "2027-01-31" },
      "exactly",
    );
  });

  it("reads how we met someone said before who they are ('met someone at the conference — X, Company, email. can you save her', 'lead from the website — X at Y')", async () => {
    const { ws } = await company();
    await expectRequest(
      ws.token,
      "met someone at the conference — Aiko Tanaka, Nakatomi, aiko.tanaka@nakatomi.example, +81 3 5555 0101. can you save her",
      "POST",
      "/contacts",
      { name: "Aiko Tanaka", company: "Nakatomi", email: "aiko.tanaka@nakatomi.example", phone: "+81355550101" },
      "exactly",
    );
    const lead = await ask(ws.token, "lead from the website — nina berg at fjord media, about 2k eur");
    expect(lead.reply.data.missing, lead.reply.text).toEqual(["email"]);
    const email = await ask(ws.token, "nina@fjordmedia.example", lead.conversation_id);
    expect((await requestOf(ws.token, email.reply)).body).toEqual({
      name: "Nina Berg",
      company: "Fjord Media",
      source: "website",
      value: 200_000,
      currency: "EUR",
      email: "nina@fjordmedia.example",
    });
  });

  it("reads the record to add said as the work it is ('X wants us to kick off a new project for them next monday', 'post a job in …', 'add something to the X board'), and a branch and a department said together", async () => {
    const { ws, acme, website, ana } = await company();
    const project = await ask(ws.token, "acme wants us to kick off a new project for them next monday, can you set it up");
    expect(project.reply.data.missing, project.reply.text).toEqual(["name"]);
    const named = await requestOf(ws.token, (await ask(ws.token, "Acme rollout", project.conversation_id)).reply);
    expect(named).toMatchObject({ path: "/projects", body: { name: "Acme rollout", customer_id: acme.id } });
    expect(new Date(String(named.body!.start_date)).getUTCDay()).toBe(1);
    const job = await ask(ws.token, "we need to post a job in engineering");
    expect(job.reply.data.missing, job.reply.text).toEqual(["title"]);
    const task = await ask(ws.token, `add something to the ${website.name} board for ana garcia due friday`);
    expect(task.reply.data.missing, task.reply.text).toEqual(["title"]);
    const titled = await requestOf(ws.token, (await ask(ws.token, "Write docs", task.conversation_id)).reply);
    expect(titled).toMatchObject({ path: "/tasks", body: { title: "Write docs", project_id: website.id, assignee_id: ana.id } });
    await create(ws, "employees", { name: "Olga Ops", email: "olga@assist.co", department: "Operations", branch: "Berlin" });
    await expectRequest(ws.token, "new job opening Ops Manager in the berlin operations team", "POST", "/job-openings", {
      title: "Operations Manager",
      branch: "Berlin",
      department: "Operations",
    });
  });

  it("tells one of several apart by a word of its name said elsewhere ('the acme folks want more on the east deal, bump it to 2k'), and reads 'task ‘X’ in P, …' as a new task", async () => {
    const { ws, east, website, ana } = await company();
    await expectRequest(
      ws.token,
      "talked to the acme folks, they want more scope on the east deal so bump it to 2k",
      "PATCH",
      `/deals/${east.id}`,
      { value: 200_000 },
      "exactly",
    );
    await expectRequest(ws.token, `task 'Write onboarding checklist' in ${website.name}, assign ana garcia, low prio`, "POST", "/tasks", {
      title: "Write onboarding checklist",
      project_id: website.id,
      assignee_id: ana.id,
      priority: "low",
    });
  });

  it("deletes the payment on an invoice the word before its noun describes ('the card payment on INV-… is a duplicate of the bank one')", async () => {
    const { ws, acme } = await company();
    const owed = await sentInvoice(ws, { customer_id: acme.id, currency: "USD", items: [{ description: "Audit", quantity: 1, unit_amount: 200_000 }] });
    const pay = (method: string) => create(ws, "payments", { invoice_id: owed.id, amount: 100_000, method });
    const card = await pay("card");
    const bank = await pay("bank_transfer");
    await expectRequest(ws.token, `the card payment on ${owed.number} today is a duplicate of the bank one, delete it`, "DELETE", `/payments/${card.id}`);
    await expectRequest(ws.token, `delete the bank transfer payment on ${owed.number}`, "DELETE", `/payments/${bank.id}`);
    // Said of none of them, it still asks which.
    expect((await ask(ws.token, `delete the payment on ${owed.number}`)).reply.intent).toBe("clarify");
  });
});
