import { formatMinutes } from "../../platform/format";
import type { Skill } from "../../platform/skills";

export const timesheetSkills: Skill[] = [
  {
    kind: "resource",
    resource: "time-entries",
    singular: "time entry",
    plural: "time entries",
    synonyms: ["timesheet", "timesheets", "time log", "time logs", "worklog", "worklogs", "timesheet entries", "entries", "entry"],
    label: (r) => `time entry ${r.id} (${formatMinutes(Number(r.minutes))} on ${r.date})`,
    line: (r) => `${r.date} — ${formatMinutes(Number(r.minutes))} on task ${r.task_id}${r.billable ? "" : " (not billable)"}${r.note ? `: ${r.note}` : ""}`,
    fields: {
      minutes: { words: ["how long", "minutes", "hours", "duration", "time", "length", "entry length"], format: "minutes" },
      date: { words: ["date", "when", "day"], format: "date" },
      billable: { words: ["billable"], format: "boolean" },
    },
    filters: [
      { words: ["billable", "billed", "chargeable"], query: { billable: "true" }, label: "billable" },
      { words: ["non-billable", "not billable", "unbillable", "non billable"], query: { billable: "false" }, label: "not billable" },
    ],
    dates: [
      {
        words: ["logged", "worked", "log", "spent", "booked", "tracked", "work on", "worked on", "burned", "burnt", "sunk", "put in"],
        field: "date",
        after: "date_from",
        before: "date_to",
        format: "date",
        default: true,
      },
    ],
    measures: [
      {
        words: [
          "hours",
          "hour",
          "time",
          "minutes",
          "time spent",
          "time logged",
          "logged",
          "spent",
          "worked",
          "put in",
          "put into",
          "went into",
          "log",
          "tracked",
          "booked",
        ],
        field: "minutes",
        fn: "sum",
        title: "Time logged",
      },
    ],
    person: { words: ["by", "for", "of", "logged by"], param: "employee_id" },
    parents: [{ words: ["on project", "in project", "for project", "project"], resource: "projects", param: "project_id" }],
  },
  {
    kind: "metric",
    widget: "timesheets.logged_by_project",
    title: "Time logged by project",
    phrases: [
      "time logged",
      "hours logged",
      "logged hours",
      "time by project",
      "hours by project",
      "time spent",
      "hours worked",
      "how much time did we log",
      "how many hours",
    ],
  },
];
