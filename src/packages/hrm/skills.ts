import { words } from "../../platform/format";
import type { Skill } from "../../platform/skills";

export const hrmSkills: Skill[] = [
  {
    kind: "resource",
    resource: "employees",
    singular: "employee",
    plural: "employees",
    synonyms: [
      "staff",
      "staff member",
      "colleague",
      "colleagues",
      "team member",
      "team members",
      "people",
      "worker",
      "workers",
      "personnel",
      "everyone",
      "everybody",
      "employed",
    ],
    nameField: "name",
    label: (r) => String(r.name),
    line: (r) =>
      `${r.name} — ${[r.designation, r.department].filter(Boolean).join(", ") || "no department"}${r.status === "active" ? "" : ` (${words(r.status)})`}`,
    fields: {
      email: { words: ["email", "e-mail", "email address", "work email"] },
      phone: { words: ["phone", "phone number", "telephone", "mobile", "extension"] },
      department: { words: ["department", "team", "which team", "dept", "which department"] },
      designation: { words: ["designation", "title", "job title", "role", "position"] },
      branch: { words: ["branch", "office", "location", "where does"] },
      date_of_joining: {
        words: ["joining date", "date of joining", "start date", "when did", "joined", "join", "started", "start", "hired", "hire date", "when was"],
        format: "date",
      },
      status: { words: ["status"] },
    },
    filters: [
      { words: ["active", "current"], query: { status: "active" }, label: "active" },
      { words: ["inactive"], query: { status: "inactive" }, label: "inactive" },
      { words: ["left", "former", "ex", "departed"], query: { status: "left" }, label: "who left" },
    ],
    dates: [
      {
        words: ["joined", "started", "hired", "onboarded", "join", "start", "joining", "came on board", "hire", "hires"],
        field: "date_of_joining",
        after: "joined_after",
        before: "joined_before",
        format: "date",
      },
    ],
    measures: [{ words: ["headcount", "head count", "team size"], field: null, fn: "count", where: { status: "active" } }],
    values: [
      { words: ["in", "in the", "department", "team", "from"], param: "department" },
      { words: ["at branch", "in office", "branch", "office"], param: "branch" },
    ],
  },
  {
    kind: "metric",
    widget: "hrm.headcount",
    now: true,
    title: "Headcount",
    phrases: [
      "headcount",
      "head count",
      "how many employees",
      "number of employees",
      "employee count",
      "staff count",
      "team size",
      "how many people",
      "how many people work",
      "size of the team",
      "how big is the team",
    ],
    pick: { widget: "hrm.headcount_by_department" },
  },
  {
    kind: "metric",
    widget: "hrm.headcount_by_department",
    now: true,
    title: "Headcount by department",
    phrases: ["headcount by department", "employees per department", "department sizes", "people per team", "staff by department"],
  },
  {
    kind: "metric",
    widget: "hrm.new_joiners",
    title: "New joiners",
    phrases: ["new joiners", "new hires", "who joined", "recent hires", "newest employees", "onboarded recently", "new starters"],
  },
];
