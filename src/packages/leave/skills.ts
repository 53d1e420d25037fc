import type { ApiRecord, Skill } from "../../platform/skills";

const who = (r: ApiRecord) => (r.employee as { label?: string } | null | undefined)?.label ?? `Employee ${r.employee_id}`;
const span = (r: ApiRecord) => (r.start_date === r.end_date ? String(r.start_date) : `${r.start_date} to ${r.end_date}`);
const days = (r: ApiRecord) => `${r.days} day${Number(r.days) === 1 ? "" : "s"}`;

export const leaveSkills: Skill[] = [
  {
    kind: "resource",
    resource: "leave-requests",
    singular: "leave request",
    plural: "leave requests",
    synonyms: [
      "leave",
      "time off",
      "vacation",
      "vacations",
      "holiday request",
      "holiday requests",
      "pto",
      "sick leave",
      "absence request",
      "absence requests",
      "days off",
    ],
    label: (r) => `leave ${span(r)} (${r.status})`,
    // The employee's name when the list was read with expand=employee_id, else their id.
    line: (r) => `${who(r)}, ${span(r)} — ${days(r)}${r.half_day ? " (half day)" : ""}, ${r.status}${r.reason ? ` (${r.reason})` : ""}`,
    fields: {
      days: { words: ["days", "how many days", "working days"], format: "count" },
      status: { words: ["status", "state"] },
      start_date: { words: ["start", "starts", "from when", "first day"], format: "date" },
      end_date: { words: ["end", "ends", "until", "last day", "back"], format: "date" },
      reason: { words: ["reason", "why"] },
    },
    filters: [
      { words: ["pending", "to approve", "awaiting approval", "waiting for approval", "requested"], query: { status: "pending" }, label: "pending" },
      { words: ["approved", "booked"], query: { status: "approved" }, label: "approved" },
      { words: ["rejected", "declined", "refused"], query: { status: "rejected" }, label: "rejected" },
      { words: ["cancelled", "canceled", "withdrawn"], query: { status: "cancelled" }, label: "cancelled" },
    ],
    // "off next week": requests overlapping the range (date_from bounds end_date, date_to start_date).
    dates: [{ words: ["off", "out of office", "away", "absent"], field: "start_date", after: "date_from", before: "date_to", format: "date", default: true }],
    measures: [{ words: ["days of leave", "leave days", "days off taken", "days taken"], field: "days", fn: "sum", title: "Days of leave" }],
    person: { words: ["by", "for", "of"], param: "employee_id" },
    personReports: [
      {
        words: [
          "leave balance",
          "leave balances",
          "leave left",
          "days off left",
          "holiday balance",
          "holidays left",
          "vacation left",
          "vacation days left",
          "pto balance",
          "pto left",
          "time off left",
        ],
        path: "/employees/{id}/leave-balances",
        answer: (data, person) => {
          const rows = (data as { name: string; allowance: number; taken: number; pending: number; left: number }[]) ?? [];
          if (rows.length === 0) return `${person} has no leave types to take leave from yet.`;
          const n = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
          return `${person}'s leave this year: ${rows
            .map(
              (row) => `${row.name} ${n(row.left)} of ${n(row.allowance)} days left (${n(row.taken)} taken${row.pending ? `, ${n(row.pending)} pending` : ""})`,
            )
            .join("; ")}.`;
        },
      },
    ],
  },
  {
    kind: "metric",
    widget: "leave.out_today",
    now: true,
    title: "Out today",
    phrases: [
      "who is out today",
      "who's out today",
      "whos out today",
      "who is off today",
      "who's off today",
      "whos off today",
      "who is on leave today",
      "who's on leave today",
      "who is away today",
      "who is absent today",
      "out of office today",
      "on leave today",
      "off today",
      "out today",
    ],
    ownsPhrases: true,
  },
];
