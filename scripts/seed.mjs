// The demo workspace for local development: a believable company with a year of history, so every
// dashboard widget shows something on first run. Deterministic (seeded random, dates relative to today),
// idempotent (skipped when the demo user exists, unless `recreate`), written with a few multi-row INSERTs
// through `wrangler d1 execute --local`. Never run by the tests or in production.
//   npm run seed            re-create it (deletes the demo workspace's rows first)
import { spawnSync } from "node:child_process";
import { pbkdf2Sync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { OFFLINE_ENV } from "./local-server.mjs";
import { demoAttendanceSql } from "./seed-attendance.mjs";
import { demoExpensesSql } from "./seed-expenses.mjs";
import { demoHelpdeskSql } from "./seed-helpdesk.mjs";
import { demoLeaveSql } from "./seed-leave.mjs";

export const DEMO = { workspace_name: "Demo Company", name: "Demo Owner", email: "demo@example.com", password: "demo-password-123" };
export const DEMO_VIEWER = { name: "Demo Viewer", email: "viewer@example.com", password: "demo-password-123" };

const DAY = 86_400_000;

function wrangler(args, persistTo, binding = "DB") {
  const result = spawnSync("npx", ["wrangler", "d1", "execute", binding, "--local", ...(persistTo ? ["--persist-to", persistTo] : []), ...args], {
    encoding: "utf8",
    env: { ...process.env, ...OFFLINE_ENV, CI: "true" },
  });
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

function query(sql, persistTo, binding = "DB") {
  const out = wrangler(["--command", sql, "--json"], persistTo, binding);
  return JSON.parse(out.slice(out.indexOf("[")))[0].results;
}

/** mulberry32: a small seeded PRNG, so the demo is the same company every time. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quote = (value) =>
  value === null || value === undefined
    ? "NULL"
    : typeof value === "number"
      ? String(value)
      : typeof value === "boolean"
        ? value
          ? "1"
          : "0"
        : `'${String(value).replaceAll("'", "''")}'`;

/** Multi-row INSERTs of at most 200 rows each (a statement stays far under D1's 100 KB). */
function inserts(table, columns, rows) {
  const out = [];
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows.slice(i, i + 200).map((row) => `(${columns.map((column) => quote(row[column])).join(", ")})`);
    out.push(`INSERT INTO ${table} (${columns.join(", ")}) VALUES\n${values.join(",\n")};`);
  }
  return out;
}

function passwordHash(password, saltSeed) {
  const salt = Buffer.alloc(16, saltSeed);
  const hash = pbkdf2Sync(password.normalize("NFKC"), salt, 100_000, 32, "sha256");
  return `pbkdf2-sha256$100000$${salt.toString("base64")}$${hash.toString("base64")}`;
}

const FIRST = [
  "Ada",
  "Alan",
  "Grace",
  "Linus",
  "Margaret",
  "Dennis",
  "Barbara",
  "Ken",
  "Frances",
  "Edsger",
  "Radia",
  "Tim",
  "Katherine",
  "John",
  "Hedy",
  "Guido",
  "Anita",
  "Bjarne",
  "Sophie",
  "Niklaus",
  "Mary",
  "James",
  "Joan",
  "Donald",
  "Lynn",
  "Carl",
  "Evelyn",
  "Yukihiro",
  "Shafi",
  "Brian",
];
const LAST = [
  "Lovelace",
  "Turing",
  "Hopper",
  "Torvalds",
  "Hamilton",
  "Ritchie",
  "Liskov",
  "Thompson",
  "Allen",
  "Dijkstra",
  "Perlman",
  "Berners-Lee",
  "Johnson",
  "McCarthy",
  "Lamarr",
  "van Rossum",
  "Borg",
  "Stroustrup",
  "Wilson",
  "Wirth",
  "Keller",
  "Gosling",
  "Clarke",
  "Knuth",
  "Conway",
  "Sagan",
  "Boyd",
  "Matsumoto",
  "Goldwasser",
  "Kernighan",
];
const COMPANIES = [
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Hooli",
  "Vandelay",
  "Stark",
  "Wayne",
  "Cyberdyne",
  "Soylent",
  "Wonka",
  "Tyrell",
  "Aperture",
  "Pied Piper",
  "Massive Dynamic",
  "Gringotts",
  "Oscorp",
  "Monarch",
  "Nakatomi",
  "Prestige",
];
const DEPARTMENTS = ["Engineering", "Engineering", "Engineering", "Sales", "Sales", "Marketing", "Finance", "Operations", "Support", "Support"];
const DESIGNATIONS = {
  Engineering: ["Engineer", "Senior Engineer", "Staff Engineer"],
  Sales: ["Account Executive", "Sales Manager"],
  Marketing: ["Marketer"],
  Finance: ["Accountant"],
  Operations: ["Operations Lead"],
  Support: ["Support Specialist"],
};
const SOURCES = ["website", "website", "website", "referral", "referral", "linkedin", "event", "cold call", null];
const OPEN_STAGES = ["initial_contact", "qualification", "meeting", "proposal", "negotiation"];

/** The demo company as SQL statements. */
export function demoSql(ids, now = Date.now()) {
  const rand = random(20261122);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  const date = (ms) => new Date(ms).toISOString().slice(0, 10);
  const ws = ids.workspaces + 1;
  const person = (n) => `${FIRST[n % FIRST.length]} ${LAST[(n * 7 + Math.floor(n / FIRST.length)) % LAST.length]}`;
  const email = (name, n, domain) => `${name.toLowerCase().replace(/[^a-z]+/g, ".")}.${n}@${domain}`;
  const out = [];
  const stamp = (ms) => ({ created_at: ms, updated_at: ms });

  // The demo lives on DB, shard 0: the directory and its business rows in the one local database.
  out.push(
    ...inserts(
      "workspaces",
      ["id", "name", "plan", "plan_updated_at", "disabled_packages", "shard", "created_at", "updated_at"],
      [{ id: ws, name: DEMO.workspace_name, plan: "pro", plan_updated_at: now, disabled_packages: "[]", shard: "DB", ...stamp(today - 400 * DAY) }],
    ),
  );
  out.push(
    ...inserts(
      "users",
      ["id", "workspace_id", "name", "email", "password_hash", "role", "created_at", "updated_at"],
      [
        {
          id: ids.users + 1,
          workspace_id: ws,
          name: DEMO.name,
          email: DEMO.email,
          password_hash: passwordHash(DEMO.password, 7),
          role: "owner",
          ...stamp(today - 400 * DAY),
        },
        {
          id: ids.users + 2,
          workspace_id: ws,
          name: DEMO_VIEWER.name,
          email: DEMO_VIEWER.email,
          password_hash: passwordHash(DEMO_VIEWER.password, 9),
          role: "viewer",
          ...stamp(today - 100 * DAY),
        },
      ],
    ),
  );

  // Employees: six departments, three years of joiners, a few who left.
  const employees = [];
  for (let n = 0; n < 48; n++) {
    const department = n % 24 === 23 ? null : pick(DEPARTMENTS);
    const joined = n < 5 ? today - between(0, 25) * DAY : today - between(30, 1100) * DAY;
    const status = n % 17 === 5 ? "left" : n % 13 === 7 ? "inactive" : "active";
    const name = person(n);
    employees.push({
      id: ids.employees + 1 + n,
      workspace_id: ws,
      name,
      email: email(name, n, "demo.example"),
      phone: `+1415555${String(1000 + n).slice(-4)}`,
      department,
      designation: department ? pick(DESIGNATIONS[department]) : null,
      branch: pick(["San Francisco", "Berlin", "Remote"]),
      status,
      date_of_joining: date(joined),
      ...stamp(joined),
    });
  }
  out.push(
    ...inserts(
      "employees",
      ["id", "workspace_id", "name", "email", "phone", "department", "designation", "branch", "status", "date_of_joining", "created_at", "updated_at"],
      employees,
    ),
  );
  const active = employees.filter((e) => e.status === "active");

  // Contacts: a year of them, more recently.
  const contacts = [];
  for (let n = 0; n < 320; n++) {
    const created = now - Math.floor(rand() ** 1.6 * 365 * DAY);
    const company = pick(COMPANIES);
    const name = person(n + 50);
    contacts.push({
      id: ids.contacts + 1 + n,
      workspace_id: ws,
      name,
      email: email(name, n, `${company.toLowerCase().replace(/\s+/g, "")}.example`),
      phone: null,
      company,
      ...stamp(created),
    });
  }
  out.push(...inserts("contacts", ["id", "workspace_id", "name", "email", "phone", "company", "created_at", "updated_at"], contacts));

  // Leads from several sources.
  const leads = [];
  for (let n = 0; n < 150; n++) {
    const created = now - Math.floor(rand() ** 1.4 * 200 * DAY);
    const name = person(n + 400);
    leads.push({
      id: ids.leads + 1 + n,
      workspace_id: ws,
      name,
      email: email(name, n, "lead.example"),
      company: pick(COMPANIES),
      source: pick(SOURCES),
      status: pick(["new", "new", "contacted", "qualified", "unqualified", "converted"]),
      value: between(5, 120) * 1000,
      currency: rand() < 0.75 ? "USD" : "EUR",
      ...stamp(created),
    });
  }
  out.push(...inserts("leads", ["id", "workspace_id", "name", "email", "company", "source", "status", "value", "currency", "created_at", "updated_at"], leads));

  // Customers, in two currencies.
  const customers = [];
  for (let n = 0; n < 60; n++) {
    const company = `${COMPANIES[n % COMPANIES.length]}${n >= COMPANIES.length ? ` ${["Labs", "Holdings", "GmbH"][Math.floor(n / COMPANIES.length) - 1]}` : ""}`;
    const currency = n % 10 < 7 ? "USD" : "EUR";
    customers.push({
      id: ids.customers + 1 + n,
      workspace_id: ws,
      name: company,
      email: `ap@${company.toLowerCase().replace(/[^a-z]+/g, "")}.example`,
      billing_country: currency === "USD" ? "US" : "DE",
      currency,
      ...stamp(today - between(200, 500) * DAY),
    });
  }
  out.push(...inserts("customers", ["id", "workspace_id", "name", "email", "billing_country", "currency", "created_at", "updated_at"], customers));

  // The catalogue: what the invoice lines are made of (a EUR customer pays the EUR list price).
  const CATALOGUE = [
    ["Consulting day", "CONS-DAY", "service", 120_000, "day"],
    ["Implementation package", "IMPL-PKG", "service", 450_000, null],
    ["Support plan (monthly)", "SUP-MO", "service", 29_900, "month"],
    ["Training session", "TRAIN", "service", 80_000, "session"],
    ["Platform licence", "LIC-SEAT", "product", 4_900, "seat"],
    ["Setup fee", "SETUP", "service", 50_000, null],
    ["Data migration", "MIGR", "service", 250_000, null],
    ["Hardware kit", "HW-KIT", "product", 89_900, "piece"],
  ];
  const products = CATALOGUE.map(([name, sku, kind, unit_amount, unit], n) => ({
    id: ids.products + 1 + n,
    workspace_id: ws,
    name,
    sku,
    kind,
    unit_amount,
    currency: "USD",
    tax_rate: 0,
    unit,
    active: n === CATALOGUE.length - 1 ? 0 : 1,
    ...stamp(today - 390 * DAY),
  }));
  out.push(
    ...inserts(
      "products",
      ["id", "workspace_id", "name", "sku", "kind", "unit_amount", "currency", "tax_rate", "unit", "active", "created_at", "updated_at"],
      products,
    ),
  );
  const sellable = products.filter((product) => product.active);
  const lineFrom = (customer, product, quantity) => {
    const unit = customer.currency === "EUR" ? Math.round((product.unit_amount * 0.92) / 100) * 100 : product.unit_amount;
    const rate = customer.currency === "EUR" ? 19 : 0;
    const amount = quantity * unit;
    return {
      product_id: product.id,
      description: product.name,
      quantity,
      unit_amount: unit,
      tax_rate: rate,
      amount,
      tax_amount: Math.round((amount * rate) / 100),
    };
  };
  // An invoice line draws from the demo's random stream exactly as lines did before the catalogue existed (a
  // quantity, a price, a kind of work), so every record made after the invoices — deals, tasks, people, time — is
  // the same demo the assistant's blind evaluation set was written against. The kind of work names the product.
  const WORK = { Consulting: "CONS-DAY", Implementation: "IMPL-PKG", "Support plan": "SUP-MO", Training: "TRAIN", Licence: "LIC-SEAT" };
  const invoiceLine = (customer) => {
    const quantity = between(1, 10);
    between(20, 400); // the price drawn before the catalogue; the product's price is used now
    const sku = WORK[pick(Object.keys(WORK))];
    const product = products.find((candidate) => candidate.sku === sku);
    return lineFrom(customer, product, product.kind === "product" ? quantity * 4 : quantity);
  };
  // Add-ons added later (quotes) draw from a stream of their own, for the same reason.
  const addOnRand = random(20261124);
  const addOnBetween = (lo, hi) => lo + Math.floor(addOnRand() * (hi - lo + 1));
  const quoteLine = (customer) => {
    const product = sellable[Math.floor(addOnRand() ** 1.6 * sellable.length)];
    return lineFrom(customer, product, product.kind === "product" ? addOnBetween(5, 40) : addOnBetween(1, 6));
  };

  // Invoices across the last 12 months, and their payments.
  const invoices = [];
  const payments = [];
  for (let n = 0; n < 400; n++) {
    const customer = customers[Math.floor(rand() ** 1.3 * customers.length)];
    const issued = today - Math.floor(rand() * 360) * DAY;
    const lines = Array.from({ length: between(1, 3) }, () => invoiceLine(customer));
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    const tax = lines.reduce((sum, line) => sum + line.tax_amount, 0);
    const total = subtotal + tax;
    const age = (today - issued) / DAY;
    const roll = rand();
    const status =
      age > 45
        ? roll < 0.82
          ? "paid"
          : roll < 0.9
            ? "partially_paid"
            : roll < 0.96
              ? "sent"
              : "void"
        : roll < 0.2
          ? "draft"
          : roll < 0.55
            ? "sent"
            : roll < 0.7
              ? "partially_paid"
              : "paid";
    const paid = status === "paid" ? total : status === "partially_paid" ? Math.round(total * (0.3 + rand() * 0.4)) : 0;
    const id = ids.invoices + 1 + n;
    invoices.push({
      id,
      workspace_id: ws,
      customer_id: customer.id,
      number: `INV-${String(n + 1).padStart(6, "0")}`,
      currency: customer.currency,
      issue_date: date(issued),
      due_date: date(issued + 30 * DAY),
      items: JSON.stringify(lines),
      status,
      subtotal,
      tax_total: tax,
      total,
      amount_paid: paid,
      sent_at: status === "draft" ? null : issued + 3_600_000,
      sent_to: status === "draft" ? null : customer.email,
      ...stamp(issued),
    });
    if (paid > 0) {
      const parts = status === "paid" && rand() < 0.3 ? 2 : 1;
      for (let part = 0; part < parts; part++) {
        const amount = parts === 2 ? (part === 0 ? Math.floor(paid / 2) : paid - Math.floor(paid / 2)) : paid;
        const at = Math.min(now - 60_000, issued + between(2, 40) * DAY + part * 5 * DAY);
        payments.push({
          id: ids.payments + 1 + payments.length,
          workspace_id: ws,
          invoice_id: id,
          amount,
          currency: customer.currency,
          method: pick(["card", "bank_transfer", "bank_transfer", "cash"]),
          paid_at: at,
          ...stamp(at),
        });
      }
    }
  }
  out.push(
    ...inserts(
      "invoices",
      [
        "id",
        "workspace_id",
        "customer_id",
        "number",
        "currency",
        "issue_date",
        "due_date",
        "items",
        "status",
        "subtotal",
        "tax_total",
        "total",
        "amount_paid",
        "sent_at",
        "sent_to",
        "created_at",
        "updated_at",
      ],
      invoices,
    ),
  );
  out.push(...inserts("payments", ["id", "workspace_id", "invoice_id", "amount", "currency", "method", "paid_at", "created_at", "updated_at"], payments));
  out.push(`INSERT INTO invoice_counters (workspace_id, last) VALUES (${ws}, ${invoices.length});`);

  // Quotes over the year: most answered, some still open, the accepted ones mostly invoiced.
  const quotes = [];
  for (let n = 0; n < 60; n++) {
    const customer = customers[Math.floor(addOnRand() * customers.length)];
    const issued = today - Math.floor(addOnRand() ** 0.8 * 350) * DAY;
    const validUntil = issued + 30 * DAY;
    const lines = Array.from({ length: addOnBetween(1, 3) }, () => quoteLine(customer));
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    const tax = lines.reduce((sum, line) => sum + line.tax_amount, 0);
    const roll = addOnRand();
    const open = validUntil >= today;
    const status = open
      ? roll < 0.25
        ? "draft"
        : roll < 0.7
          ? "sent"
          : roll < 0.9
            ? "accepted"
            : "declined"
      : roll < 0.45
        ? "invoiced"
        : roll < 0.6
          ? "accepted"
          : roll < 0.8
            ? "declined"
            : "expired";
    const sent = status !== "draft";
    const decided = ["accepted", "invoiced", "declined"].includes(status) ? Math.min(now - 60_000, issued + addOnBetween(1, 20) * DAY) : null;
    // An invoiced quote points at a later invoice of the same customer (else it stays accepted).
    const invoice = status === "invoiced" ? invoices.find((candidate) => candidate.customer_id === customer.id && candidate.issue_date >= date(issued)) : null;
    quotes.push({
      id: ids.quotes + 1 + n,
      workspace_id: ws,
      customer_id: customer.id,
      number: `QUO-${String(n + 1).padStart(6, "0")}`,
      currency: customer.currency,
      issue_date: date(issued),
      valid_until: date(validUntil),
      items: JSON.stringify(lines),
      notes: "Prices valid for 30 days.",
      status: status === "invoiced" && !invoice ? "accepted" : status,
      invoice_id: invoice?.id ?? null,
      subtotal,
      tax_total: tax,
      total: subtotal + tax,
      sent_at: sent ? issued + 3_600_000 : null,
      sent_to: sent ? customer.email : null,
      decided_at: decided,
      ...stamp(issued),
    });
  }
  quotes
    .sort((a, b) => a.issue_date.localeCompare(b.issue_date))
    .forEach((quote, n) => {
      quote.number = `QUO-${String(n + 1).padStart(6, "0")}`;
    });
  const QUOTE_COLUMNS = ["id", "workspace_id", "customer_id", "number", "currency", "issue_date", "valid_until", "items", "notes", "status"];
  out.push(
    ...inserts(
      "quotes",
      [...QUOTE_COLUMNS, "invoice_id", "subtotal", "tax_total", "total", "sent_at", "sent_to", "decided_at", "created_at", "updated_at"],
      quotes,
    ),
  );
  out.push(`INSERT INTO quote_counters (workspace_id, last) VALUES (${ws}, ${quotes.length});`);

  // Deals across the pipeline, won and lost over the year.
  const deals = [];
  for (let n = 0; n < 120; n++) {
    const created = today - between(5, 330) * DAY;
    const roll = rand();
    const stage = roll < 0.3 ? "won" : roll < 0.48 ? "lost" : pick(OPEN_STAGES);
    const closed = stage === "won" || stage === "lost" ? Math.min(now - 60_000, created + between(5, 60) * DAY) : null;
    const contact = contacts[n % contacts.length];
    deals.push({
      id: ids.deals + 1 + n,
      workspace_id: ws,
      name: `${contact.company} — ${pick(["platform", "renewal", "expansion", "pilot", "migration"])}`,
      value: between(2, 150) * 1000 * 100,
      currency: rand() < 0.7 ? "USD" : "EUR",
      stage,
      status: stage === "won" || stage === "lost" ? stage : "open",
      contact_id: contact.id,
      lost_reason: stage === "lost" ? pick(["price", "timing", "competitor", "no budget"]) : null,
      closed_at: closed,
      expected_close_date: date(created + 45 * DAY),
      ...stamp(created),
    });
  }
  out.push(
    ...inserts(
      "deals",
      [
        "id",
        "workspace_id",
        "name",
        "value",
        "currency",
        "stage",
        "status",
        "contact_id",
        "lost_reason",
        "closed_at",
        "expected_close_date",
        "created_at",
        "updated_at",
      ],
      deals,
    ),
  );

  // Projects and their tasks: some overdue, some done.
  const projects = [];
  const PROJECTS = [
    "Website relaunch",
    "Mobile app",
    "Data warehouse",
    "Customer portal",
    "ERP migration",
    "Security audit",
    "Onboarding revamp",
    "Billing v2",
    "Partner API",
    "Design system",
    "Support tooling",
    "Office move",
  ];
  PROJECTS.forEach((name, n) => {
    const started = today - between(30, 300) * DAY;
    projects.push({
      id: ids.projects + 1 + n,
      workspace_id: ws,
      name,
      description: null,
      status: n < 8 ? "active" : n < 10 ? "on_hold" : "completed",
      customer_id: n % 3 === 0 ? customers[n].id : null,
      start_date: date(started),
      end_date: date(started + between(60, 240) * DAY),
      ...stamp(started),
    });
  });
  out.push(
    ...inserts(
      "projects",
      ["id", "workspace_id", "name", "description", "status", "customer_id", "start_date", "end_date", "created_at", "updated_at"],
      projects,
    ),
  );
  const tasks = [];
  for (let n = 0; n < 300; n++) {
    const project = projects[Math.floor(rand() ** 0.8 * projects.length)];
    const created = Math.max(Date.parse(`${project.start_date}T00:00:00Z`), today - between(1, 120) * DAY);
    const roll = rand();
    const status = project.status === "completed" ? "done" : roll < 0.42 ? "done" : roll < 0.62 ? "in_progress" : roll < 0.72 ? "review" : "todo";
    const completed = status === "done" ? Math.min(now - 60_000, created + between(1, 40) * DAY) : null;
    const due = rand() < 0.8 ? date(created + between(3, 45) * DAY) : null;
    tasks.push({
      id: ids.tasks + 1 + n,
      workspace_id: ws,
      project_id: project.id,
      title: `${pick(["Draft", "Review", "Build", "Test", "Ship", "Plan", "Fix"])} ${pick(["checkout", "login", "reports", "search", "exports", "emails", "dashboard", "permissions"])}`,
      status,
      priority: pick(["low", "medium", "medium", "high", "urgent"]),
      assignee_id: pick(active).id,
      due_date: due,
      completed_at: completed,
      ...stamp(created),
    });
  }
  out.push(
    ...inserts(
      "tasks",
      ["id", "workspace_id", "project_id", "title", "status", "priority", "assignee_id", "due_date", "completed_at", "created_at", "updated_at"],
      tasks,
    ),
  );

  // Recruitment: openings and their candidates.
  const openings = [
    ["Senior Engineer", "Engineering", 2],
    ["Account Executive", "Sales", 1],
    ["Support Specialist", "Support", 2],
    ["Product Marketer", "Marketing", 1],
    ["Finance Analyst", "Finance", 1],
  ].map(([title, department, positions], n) => ({
    id: ids.job_openings + 1 + n,
    workspace_id: ws,
    title,
    department,
    branch: "Berlin",
    positions,
    status: "open",
    ...stamp(today - between(10, 90) * DAY),
  }));
  out.push(...inserts("job_openings", ["id", "workspace_id", "title", "department", "branch", "positions", "status", "created_at", "updated_at"], openings));
  const candidates = [];
  for (let n = 0; n < 40; n++) {
    const opening = openings[n % openings.length];
    const name = person(n + 700);
    const stage = pick(["applied", "applied", "applied", "screening", "screening", "interview", "offer", "rejected"]);
    candidates.push({
      id: ids.candidates + 1 + n,
      workspace_id: ws,
      job_opening_id: opening.id,
      name,
      email: email(name, n, "mail.example"),
      stage,
      ...stamp(today - between(0, 60) * DAY),
    });
  }
  out.push(...inserts("candidates", ["id", "workspace_id", "job_opening_id", "name", "email", "stage", "created_at", "updated_at"], candidates));

  // Timesheets: engineers log time on tasks of active projects, never more than 8 h a day.
  const entries = [];
  const engineers = active.filter((e) => e.department === "Engineering").slice(0, 8);
  const workable = tasks.filter((t) => projects.find((p) => p.id === t.project_id).status === "active");
  for (let d = 1; d <= 60; d++) {
    const day = today - d * DAY;
    if ([0, 6].includes(new Date(day).getUTCDay())) continue;
    for (const engineer of engineers) {
      if (rand() < 0.2) continue;
      for (let k = 0; k < between(1, 3); k++) {
        const task = workable[Math.floor(rand() * workable.length)];
        entries.push({
          id: ids.time_entries + 1 + entries.length,
          workspace_id: ws,
          employee_id: engineer.id,
          task_id: task.id,
          project_id: task.project_id,
          date: date(day),
          minutes: between(3, 16) * 15,
          billable: rand() < 0.8,
          ...stamp(day + 17 * 3_600_000),
        });
      }
    }
  }
  out.push(
    ...inserts(
      "time_entries",
      ["id", "workspace_id", "employee_id", "task_id", "project_id", "date", "minutes", "billable", "created_at", "updated_at"],
      entries,
    ),
  );

  // The add-ons: spending, and attendance of the active staff.
  const staff = employees.filter((employee) => employee.status === "active");
  out.push(
    ...demoExpensesSql({
      workspaceId: ws,
      firstVendorId: ids.vendors + 1,
      firstExpenseId: ids.expenses + 1,
      projectIds: projects.map((project) => project.id),
      employeeIds: staff.map((employee) => employee.id),
      now,
      rand,
    }),
  );
  out.push(
    ...demoAttendanceSql({
      workspaceId: ws,
      firstId: ids.attendance + 1,
      employeeIds: staff.map((employee) => employee.id),
      now,
      rand,
      joinedOn: Object.fromEntries(staff.map((employee) => [employee.id, employee.date_of_joining])),
    }),
  );
  // Time off: leave types, the year's holidays and the staff's requests.
  out.push(
    ...demoLeaveSql({
      workspaceId: ws,
      firstTypeId: ids.leave_types + 1,
      firstHolidayId: ids.holidays + 1,
      firstRequestId: ids.leave_requests + 1,
      employeeIds: staff.map((employee) => employee.id),
      now,
      rand,
    }),
  );
  // The support inbox: the contacts' tickets, answered by the owner.
  out.push(
    ...demoHelpdeskSql({
      workspaceId: ws,
      firstTicketId: ids.tickets + 1,
      firstReplyId: ids.ticket_replies + 1,
      contacts: contacts.slice(0, 60),
      agentIds: [ids.users + 1],
      supportDomain: "support.business-platform.example",
      now,
      rand,
    }),
  );
  return out;
}

export const DEMO_SITE = { domain: "shop.demo.example", site_key: "site_DemoCompanyShop2026" };
const PAGES = ["/", "/", "/", "/pricing", "/pricing", "/products", "/products/espresso-machine", "/products/grinder", "/blog/brewing-guide", "/about"];
/** Where visits come from: referring host, source, channel and UTM tags, as the collector would attribute them. */
const ORIGINS = [
  ...Array(4).fill({ referrer: "", source: "", channel: "Direct" }),
  ...Array(3).fill({ referrer: "google.com", source: "Google", channel: "Organic Search" }),
  { referrer: "duckduckgo.com", source: "DuckDuckGo", channel: "Organic Search" },
  { referrer: "bing.com", source: "Bing", channel: "Organic Search" },
  { referrer: "news.ycombinator.com", source: "Hacker News", channel: "Organic Social" },
  { referrer: "t.co", source: "Twitter", channel: "Organic Social" },
  { referrer: "linkedin.com", source: "LinkedIn", channel: "Organic Social" },
  { referrer: "coffeegeek.example", source: "coffeegeek.example", channel: "Referral" },
  { referrer: "", source: "newsletter", channel: "Email", utm: ["newsletter", "email", "autumn-sale"] },
  { referrer: "google.com", source: "google", channel: "Paid", utm: ["google", "cpc", "espresso-machines"] },
];
/** Country, region and city as Cloudflare's edge names them ("" where it gives none). */
const PLACES = [
  ["DE", "Berlin", "Berlin"],
  ["DE", "Bavaria", "Munich"],
  ["US", "California", "San Francisco"],
  ["US", "New York", "New York"],
  ["US", "Texas", "Austin"],
  ["GB", "England", "London"],
  ["FR", "Île-de-France", "Paris"],
  ["NL", "North Holland", "Amsterdam"],
  ["IN", "Karnataka", "Bengaluru"],
  ["BR", "São Paulo", "São Paulo"],
  ["JP", "Tokyo", "Tokyo"],
  ["", "", ""],
];
/** Device, browser and OS with versions, as ua-parser-js reads common agents. */
const AGENTS = [
  ["desktop", "Chrome", "131", "Windows", "10"],
  ["desktop", "Chrome", "131", "Mac OS", "10.15.7"],
  ["desktop", "Safari", "18", "Mac OS", "10.15.7"],
  ["desktop", "Firefox", "133", "Linux", ""],
  ["desktop", "Edge", "131", "Windows", "10"],
  ["mobile", "Mobile Safari", "18", "iOS", "18.1"],
  ["mobile", "Chrome", "131", "Android", "14"],
  ["tablet", "Mobile Safari", "18", "iOS", "18.1"],
];
const CHECKOUT = [
  ["view_item", 0.35],
  ["add_to_cart", 0.45],
  ["begin_checkout", 0.6],
  ["add_payment_info", 0.75],
  ["purchase", 0.85],
];

/**
 * The demo shop's last 30 days of analytics, as the consumer would have written them: raw events in
 * visits, then the visitor-days and daily rollups computed from those rows in SQL (the same definitions).
 */
export function demoAnalyticsSql(workspaceId, siteId, now = Date.now()) {
  const rand = random(20261123);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  const hex = () => Array.from({ length: 16 }, () => "0123456789abcdef"[Math.floor(rand() * 16)]).join("");
  const out = [
    `INSERT INTO analytics_sites (id, workspace_id, domain, site_key, created_at, updated_at) VALUES (${siteId}, ${workspaceId}, '${DEMO_SITE.domain}', '${DEMO_SITE.site_key}', ${today - 31 * DAY}, ${today - 31 * DAY});`,
  ];
  const events = [];
  const visits = [];
  for (let d = 29; d >= 0; d--) {
    const day = today - d * DAY;
    const weekend = [0, 6].includes(new Date(day).getUTCDay());
    const visitors = between(weekend ? 25 : 45, weekend ? 40 : 80) + (29 - d);
    for (let v = 0; v < visitors; v++) {
      const visitor = hex();
      const origin = pick(ORIGINS);
      const referrer = origin.referrer;
      const [country, region, city] = pick(PLACES);
      const [device, browser, browserVersion, os, osVersion] = pick(AGENTS);
      const [utmSource, utmMedium, utmCampaign] = origin.utm ?? ["", "", ""];
      const attribution = { source: origin.source, channel: origin.channel, utm_source: utmSource, utm_medium: utmMedium, utm_campaign: utmCampaign };
      // Today only up to now; other days over the whole day.
      let ts = day + Math.floor(rand() * Math.min(DAY - 3_600_000, d === 0 ? Math.max(60_000, now - day - 3_600_000) : DAY - 3_600_000));
      const visit = {
        id: `${siteId}.${visitor}.${ts}`,
        workspace_id: workspaceId,
        site_id: siteId,
        visitor,
        day: new Date(ts).toISOString().slice(0, 10),
        referrer,
        started_at: ts,
        last_at: ts,
        pageviews: 0,
        events: 0,
        entry_page: "",
        exit_page: "",
        entry_ord: 0,
        exit_ord: 0,
        ...attribution,
      };
      const add = (name, path, extra = {}) => {
        events.push({
          event_key: `demo-${events.length}`,
          workspace_id: workspaceId,
          site_id: siteId,
          visitor,
          visit_id: visit.id,
          name,
          path,
          referrer,
          country,
          device,
          props: null,
          revenue_amount: null,
          revenue_currency: null,
          ts,
          ord: ts * 1024,
          browser,
          browser_version: browserVersion,
          os,
          os_version: osVersion,
          region,
          city,
          ...attribution,
          ...extra,
        });
        visit.last_at = ts;
        visit.events += 1;
        if (name === "pageview") {
          visit.pageviews += 1;
          if (!visit.entry_page) Object.assign(visit, { entry_page: path, entry_ord: ts * 1024 });
          Object.assign(visit, { exit_page: path, exit_ord: ts * 1024 });
        }
        ts += between(15, 240) * 1000;
      };
      for (let p = 0, pages = rand() < 0.45 ? 1 : between(2, 5); p < pages; p++) add("pageview", p === 0 ? pick(PAGES) : pick(PAGES.slice(3)));
      for (const [name, chance] of CHECKOUT) {
        if (rand() >= chance) break;
        const revenue = name === "purchase" ? { revenue_amount: between(12, 60) * 500 - 1, revenue_currency: "EUR" } : {};
        add(name, name === "view_item" ? "/products/espresso-machine" : "/checkout", {
          props: name === "view_item" ? JSON.stringify({ sku: "ESP-1" }) : null,
          ...revenue,
        });
      }
      visits.push(visit);
    }
  }
  out.push(...inserts("analytics_events", Object.keys(events[0]), events));
  out.push(...inserts("analytics_visits", Object.keys(visits[0]), visits));
  const mine = `workspace_id = ${workspaceId} AND site_id = ${siteId}`;
  out.push(
    `INSERT INTO analytics_visitor_days (workspace_id, site_id, day, visitor, source) SELECT DISTINCT workspace_id, site_id, date(ts / 1000, 'unixepoch'), visitor, 'browser' FROM analytics_events WHERE ${mine};`,
    `INSERT INTO analytics_daily (workspace_id, site_id, day, browser_visitors, visitors, visits, pageviews, events, bounces, duration_ms)
       SELECT ${workspaceId}, ${siteId}, d.day,
         (SELECT count(*) FROM analytics_visitor_days WHERE ${mine} AND day = d.day),
         (SELECT count(*) FROM analytics_visitor_days WHERE ${mine} AND day = d.day),
         (SELECT count(*) FROM analytics_visits WHERE ${mine} AND day = d.day),
         (SELECT count(*) FROM analytics_events WHERE ${mine} AND date(ts / 1000, 'unixepoch') = d.day AND name = 'pageview'),
         (SELECT count(*) FROM analytics_events WHERE ${mine} AND date(ts / 1000, 'unixepoch') = d.day),
         (SELECT count(*) FROM analytics_visits WHERE ${mine} AND day = d.day AND pageviews = 1 AND events = 1),
         (SELECT coalesce(sum(last_at - started_at), 0) FROM analytics_visits WHERE ${mine} AND day = d.day)
       FROM (SELECT DISTINCT day FROM analytics_visitor_days WHERE ${mine}) d;`,
    `INSERT INTO analytics_daily_revenue (workspace_id, site_id, day, currency, amount)
       SELECT workspace_id, site_id, date(ts / 1000, 'unixepoch'), revenue_currency, sum(revenue_amount) FROM analytics_events
       WHERE ${mine} AND revenue_amount IS NOT NULL AND name = 'purchase' GROUP BY 1, 2, 3, 4;`,
    ...propertyRollupSql(mine),
    `INSERT INTO analytics_goals (workspace_id, site_id, type, value, revenue, created_at) VALUES
       (${workspaceId}, ${siteId}, 'event', 'purchase', 0, ${today - 31 * DAY}), (${workspaceId}, ${siteId}, 'page', '/pricing', 0, ${today - 31 * DAY});`,
  );
  return out;
}

const VISIT_PROPERTIES = ["source", "channel", "referrer", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"];
const VISITOR_PROPERTIES = ["browser", "os", "device", "country", "region", "city"];

/**
 * The per-property daily rollup of rows written straight to the tables (the demo, the benchmark), as the
 * consumer keeps it: events and visitors by the event's day, visits by their first day; a visit property is the
 * visit's, a visitor property is read once per visit. `mine` scopes the rows (`workspace_id = … AND site_id = …`).
 */
export function propertyRollupSql(mine) {
  return [...VISIT_PROPERTIES, ...VISITOR_PROPERTIES].flatMap((property) => {
    const visitProperty = VISIT_PROPERTIES.includes(property);
    const join = visitProperty
      ? ""
      : `JOIN (SELECT visit_id, min(${property}) AS value FROM analytics_events WHERE ${mine} GROUP BY visit_id) x ON x.visit_id = v.id`;
    return [
      `INSERT INTO analytics_daily_properties (workspace_id, site_id, day, property, value, visitors, pageviews, events)
         SELECT workspace_id, site_id, date(ts / 1000, 'unixepoch'), '${property}', ${property}, count(DISTINCT visitor), sum(name = 'pageview'), count(*)
         FROM analytics_events WHERE ${mine} GROUP BY 3, 5;`,
      `INSERT INTO analytics_daily_properties (workspace_id, site_id, day, property, value, visits, bounces, duration_ms)
         SELECT v.workspace_id, v.site_id, v.day, '${property}', coalesce(${visitProperty ? `v.${property}` : "x.value"}, ''), count(*), sum(v.pageviews = 1 AND v.events = 1), sum(v.last_at - v.started_at)
         FROM analytics_visits v ${join} WHERE v.${mine.replaceAll(" AND ", " AND v.")} GROUP BY 3, 5 HAVING true
         ON CONFLICT (workspace_id, site_id, property, day, value) DO UPDATE SET visits = excluded.visits, bounces = excluded.bounces, duration_ms = excluded.duration_ms;`,
    ];
  });
}
const ANALYTICS_TABLES = [
  "analytics_daily_properties",
  "analytics_events",
  "analytics_goals",
  "analytics_shared_links",
  "analytics_visits",
  "analytics_visitor_days",
  "analytics_daily",
  "analytics_daily_revenue",
  "analytics_funnels",
  "analytics_sites",
];

/** The tables whose ids the demo continues after (`demoSql(ids)` takes each one's max id). */
export const TABLES = [
  "workspaces",
  "users",
  "employees",
  "contacts",
  "leads",
  "customers",
  "invoices",
  "payments",
  "products",
  "quotes",
  "vendors",
  "expenses",
  "deals",
  "projects",
  "tasks",
  "job_openings",
  "candidates",
  "time_entries",
  "attendance",
  "tickets",
  "ticket_replies",
  "leave_types",
  "holidays",
  "leave_requests",
];
/** Child tables first, for deleting a workspace's rows. */
const DELETE_ORDER = [
  "leave_requests",
  "leave_types",
  "holidays",
  "ticket_replies",
  "tickets",
  "ticket_counters",
  "attendance",
  "attendance_settings",
  "time_entries",
  "candidates",
  "job_openings",
  "tasks",
  "projects",
  "deals",
  "expenses",
  "vendors",
  "quotes",
  "payments",
  "invoices",
  "products",
  "customers",
  "leads",
  "contacts",
  "employees",
  "tokens",
  "idempotency_keys",
  "webhook_deliveries",
  "webhook_endpoints",
  "events",
  "sso_apps",
  "assistant_messages",
  "assistant_actions",
  "assistant_conversations",
  "chatbot_integrations",
  "users",
  "invoice_counters",
  "quote_counters",
  "task_counts",
  "payment_days",
  "invoice_balances",
];

/** Seeds the demo workspace unless it exists (or re-creates it). Returns what it did. */
export function seedDemo({ persistTo, recreate = false } = {}) {
  const started = Date.now();
  // One look: is the demo there, and where do new ids start.
  const [ids] = query(
    `SELECT (SELECT workspace_id FROM users WHERE email = '${DEMO.email}') AS existing, ${TABLES.map((table) => `(SELECT coalesce(max(id), 0) FROM ${table}) AS ${table}`).join(", ")}`,
    persistTo,
  );
  const existing = ids.existing;
  if (existing && !recreate) return "kept";
  const statements = [];
  if (existing) {
    statements.push(...DELETE_ORDER.map((table) => `DELETE FROM ${table} WHERE workspace_id = ${existing};`), `DELETE FROM workspaces WHERE id = ${existing};`);
  }
  statements.push(...demoSql(ids));
  // The demo shop's analytics live in the analytics database: its old rows go, its new ones come.
  const [{ site }] = query(`SELECT coalesce(max(id), 0) + 1 AS site FROM analytics_sites`, persistTo, "ANALYTICS_DB");
  const analytics = [
    ...(existing ? ANALYTICS_TABLES.map((table) => `DELETE FROM ${table} WHERE workspace_id = ${existing};`) : []),
    ...demoAnalyticsSql(ids.workspaces + 1, site),
  ];
  const dir = mkdtempSync(join(tmpdir(), "bp-seed-"));
  try {
    writeFileSync(join(dir, "seed.sql"), statements.join("\n"));
    wrangler(["--file", join(dir, "seed.sql"), "--yes"], persistTo);
    writeFileSync(join(dir, "analytics.sql"), analytics.join("\n"));
    wrangler(["--file", join(dir, "analytics.sql"), "--yes"], persistTo, "ANALYTICS_DB");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return `${existing ? "re-created" : "created"} in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { migrateLocal } = await import("./local-server.mjs");
  migrateLocal();
  console.log(`demo workspace ${seedDemo({ recreate: true })}: ${DEMO.email} / ${DEMO.password} (viewer: ${DEMO_VIEWER.email})`);
}
