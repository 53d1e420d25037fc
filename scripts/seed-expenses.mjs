// The demo company's spending (scripts/seed.mjs calls it): a dozen vendors and a year of expenses — mostly
// approved or reimbursed, some awaiting approval, a few rejected, a handful billable to projects. Pure: SQL
// strings from the arguments, nothing read or written.

const DAY = 86_400_000;
const VENDORS = [
  ["Office Depot", "orders@officedepot.example", "Office supplies"],
  ["AWS", "billing@aws.example", "Software"],
  ["Figma", "billing@figma.example", "Software"],
  ["Google Workspace", "billing@google.example", "Software"],
  ["United Airlines", "receipts@united.example", "Travel"],
  ["Amtrak", "tickets@amtrak.example", "Travel"],
  ["Marriott", "folio@marriott.example", "Travel"],
  ["Uber", "receipts@uber.example", "Travel"],
  ["Blue Bottle Coffee", null, "Meals"],
  ["WeWork", "billing@wework.example", "Rent"],
  ["Comcast Business", "billing@comcast.example", "Utilities"],
  ["LinkedIn", "ads@linkedin.example", "Marketing"],
];
const AMOUNTS = {
  "Office supplies": [20, 300],
  Software: [15, 900],
  Travel: [40, 1200],
  Meals: [8, 120],
  Rent: [2400, 2400],
  Utilities: [90, 250],
  Marketing: [200, 2500],
};

const sqlValue = (value) =>
  value === null || value === undefined
    ? "NULL"
    : typeof value === "number"
      ? String(value)
      : typeof value === "boolean"
        ? value
          ? "1"
          : "0"
        : `'${String(value).replaceAll("'", "''")}'`;
const insert = (table, columns, rows) =>
  rows.length === 0
    ? []
    : [
        `INSERT INTO ${table} (${columns.join(", ")}) VALUES\n${rows.map((row) => `(${columns.map((column) => sqlValue(row[column])).join(", ")})`).join(",\n")};`,
      ];

/**
 * INSERT statements for the demo's vendors and expenses.
 * @param {{ workspaceId: number, firstVendorId: number, firstExpenseId: number, projectIds: number[], employeeIds: number[], now: number, rand: () => number }} options
 * @returns {string[]}
 */
export function demoExpensesSql({ workspaceId, firstVendorId, firstExpenseId, projectIds, employeeIds, now, rand }) {
  const between = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`);
  const vendors = VENDORS.map(([name, email], n) => ({
    id: firstVendorId + n,
    workspace_id: workspaceId,
    name,
    email,
    currency: "USD",
    created_at: today - 380 * DAY,
    updated_at: today - 380 * DAY,
  }));
  const expenses = [];
  for (let n = 0; n < 150; n++) {
    const v = n < 12 ? n : Math.floor(rand() ** 1.4 * VENDORS.length);
    const category = VENDORS[v][2];
    const age = category === "Rent" ? (n % 12) * 30 + 1 : between(0, 360);
    const day = today - age * DAY;
    const [lo, hi] = AMOUNTS[category];
    const roll = rand();
    const status = age < 10 && roll < 0.6 ? "submitted" : roll < 0.05 ? "rejected" : age > 30 && roll < 0.6 ? "reimbursed" : "approved";
    const billable = category === "Travel" && rand() < 0.35;
    expenses.push({
      id: firstExpenseId + n,
      workspace_id: workspaceId,
      vendor_id: vendors[v].id,
      category,
      description: category === "Travel" ? ["Client visit", "Conference", "Team offsite", "Workshop"][between(0, 3)] : null,
      amount: between(lo, hi) * 100 + (category === "Rent" ? 0 : between(0, 99)),
      currency: "USD",
      date: new Date(day).toISOString().slice(0, 10),
      project_id: billable && projectIds.length > 0 ? projectIds[between(0, projectIds.length - 1)] : null,
      billable,
      employee_id: employeeIds.length > 0 && category !== "Rent" && category !== "Utilities" ? employeeIds[between(0, employeeIds.length - 1)] : null,
      status,
      created_at: day + 10 * 3_600_000,
      updated_at: day + 10 * 3_600_000,
    });
  }
  return [
    ...insert("vendors", ["id", "workspace_id", "name", "email", "currency", "created_at", "updated_at"], vendors),
    ...insert(
      "expenses",
      [
        "id",
        "workspace_id",
        "vendor_id",
        "category",
        "description",
        "amount",
        "currency",
        "date",
        "project_id",
        "billable",
        "employee_id",
        "status",
        "created_at",
        "updated_at",
      ],
      expenses,
    ),
  ];
}
