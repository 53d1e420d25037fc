import { formatMinutes } from "../../platform/format";
import type { Skill } from "../../platform/skills";

export const attendanceSkills: Skill[] = [
  {
    kind: "resource",
    resource: "attendance",
    singular: "attendance record",
    plural: "attendance records",
    synonyms: ["attendance", "clock-in", "clock-ins", "clock in", "clock ins", "check-in", "check-ins", "time clock", "punch", "punches"],
    label: (r) => `attendance ${r.date} (${r.clock_in}–${r.clock_out ?? "now"})`,
    // The employee's name when the list was read with expand=employee_id, else their id.
    line: (r) =>
      `${(r.employee as { label?: string } | null | undefined)?.label ?? `Employee ${r.employee_id}`}, ${r.date} — in ${r.clock_in}${
        r.clock_out ? `, out ${r.clock_out} (${formatMinutes(Number(r.worked_minutes))})` : ", still clocked in"
      }${Number(r.late_minutes) > 0 ? `, ${formatMinutes(Number(r.late_minutes))} late` : ""}`,
    fields: {
      clock_in: { words: ["clock in", "clocked in", "arrived", "arrival", "came in", "in at"] },
      clock_out: { words: ["clock out", "clocked out", "left at", "went home", "out at"] },
      worked_minutes: { words: ["worked", "hours worked", "time worked", "worked minutes"], format: "minutes" },
      late_minutes: { words: ["late", "how late", "minutes late", "lateness"], format: "minutes" },
      date: { words: ["date", "day", "when"], format: "date" },
    },
    filters: [
      { words: ["clocked in", "still clocked in", "open", "not clocked out", "still working"], query: { open: "true" }, label: "still clocked in" },
      { words: ["late", "late arrivals", "came in late", "arrived late"], query: { late: "true" }, label: "late" },
      { words: ["on time", "punctual"], query: { late: "false" }, label: "on time" },
    ],
    dates: [{ words: ["present", "attended", "clocked in", "showed up"], field: "date", after: "date_from", before: "date_to", format: "date", default: true }],
    measures: [
      { words: ["hours worked", "time worked", "worked", "attendance hours"], field: "worked_minutes", fn: "sum", title: "Time worked" },
      { words: ["minutes late", "lateness", "late minutes"], field: "late_minutes", fn: "sum", title: "Minutes late" },
    ],
    person: { words: ["by", "for", "of"], param: "employee_id" },
    commands: [
      {
        name: "clock_in",
        words: ["clock in", "check in", "punch in", "sign in"],
        method: "POST",
        path: "/attendance/clock-in",
        person: "employee_id",
        label: "Clock in",
      },
      {
        name: "clock_out",
        words: ["clock out", "check out", "punch out", "sign out"],
        method: "POST",
        path: "/attendance/clock-out",
        person: "employee_id",
        label: "Clock out",
      },
    ],
  },
  {
    kind: "metric",
    widget: "attendance.present_today",
    now: true,
    title: "Present today",
    // Counts: "who is clocked in" lists the open records instead (the resource's `open` filter).
    phrases: [
      "how many are in today",
      "how many people are in today",
      "how many employees are in today",
      "how many present today",
      "how many are present",
      "how many clocked in today",
      "how many have clocked in",
      "number present today",
      "attendance today",
      "today's attendance",
      "present today count",
    ],
    ownsPhrases: true,
  },
];
