import { words } from "../../platform/format";
import type { Skill } from "../../platform/skills";

const CANDIDATE_STAGES: Record<string, string[]> = {
  applied: ["applied", "application", "new application"],
  screening: ["screening", "screen", "phone screen", "screened"],
  interview: ["interview", "interviews", "interviewing", "interview stage"],
  offer: ["offer", "offers", "offer stage", "offered"],
  rejected: ["rejected", "reject", "declined", "turned down"],
};

export const recruitmentSkills: Skill[] = [
  {
    kind: "resource",
    resource: "job-openings",
    singular: "job opening",
    plural: "job openings",
    synonyms: [
      "opening",
      "openings",
      "vacancy",
      "vacancies",
      "requisition",
      "requisitions",
      "req",
      "reqs",
      "position",
      "positions",
      "jobs",
      "job",
      "role",
      "roles",
      "job posting",
      "job postings",
      "posting",
      "postings",
      "job ad",
      "job ads",
      "req",
      "reqs",
    ],
    nameField: "title",
    label: (r) => String(r.title),
    line: (r) => `${r.title}${r.department ? ` (${r.department})` : ""} — ${r.status}, ${r.positions} position${r.positions === 1 ? "" : "s"}`,
    fields: {
      status: { words: ["status", "state", "still open"] },
      positions: { words: ["positions", "how many positions", "headcount", "seats", "spots", "roles to fill", "people to hire"], format: "count" },
      department: { words: ["department", "team"] },
      branch: { words: ["branch", "office", "location"] },
    },
    filters: [
      { words: ["open", "active", "current", "live"], query: { status: "open" }, label: "open" },
      { words: ["closed", "filled", "archived"], query: { status: "closed" }, label: "closed" },
    ],
    values: [{ words: ["in", "in the", "department", "for team", "team"], param: "department" }],
    dateFields: [{ words: ["advertised", "posted", "opened", "listed", "put up"], field: "created_at" }],
  },
  {
    kind: "resource",
    resource: "candidates",
    singular: "candidate",
    plural: "candidates",
    synonyms: ["applicant", "applicants", "recruit", "recruits", "prospective hire", "hiring pipeline", "recruiting pipeline", "recruitment pipeline"],
    nameField: "name",
    label: (r) => String(r.name),
    line: (r) => `${r.name} — ${words(r.stage)} (opening ${r.job_opening_id})`,
    fields: {
      email: { words: ["email", "e-mail", "email address"] },
      phone: { words: ["phone", "phone number", "mobile"] },
      stage: { words: ["stage", "status", "where", "how far"] },
      notes: { words: ["notes", "note", "comments"] },
    },
    filters: [
      ...Object.entries(CANDIDATE_STAGES).map(([stage, list]) => ({ words: list, query: { stage }, label: `in ${stage}` })),
      { words: ["hired"], query: { stage: "hired" }, label: "hired" },
      // (A candidate still being considered: neither hired nor rejected.)
      {
        words: ["active", "in the running", "still in the running", "in process", "in play", "still being considered"],
        query: { stage: "applied,screening,interview,offer" },
        label: "still in the running",
      },
    ],
    parents: [{ words: ["for", "for the", "applying for", "on"], resource: "job-openings", param: "job_opening_id" }],
    dateFields: [
      { words: ["applied", "came in", "added"], field: "created_at" },
      { words: ["hired"], field: "hired_at" },
    ],
    operationFields: { hire: ["designation", "department", "branch", "date_of_joining"] },
  },
  {
    kind: "metric",
    widget: "recruitment.pipeline",
    now: true,
    title: "Candidates by stage",
    phrases: ["recruitment pipeline", "hiring pipeline", "candidates by stage", "candidate pipeline", "hiring funnel", "recruiting pipeline"],
  },
  {
    kind: "action",
    name: "move_candidate",
    resource: "candidates",
    slots: [
      { name: "candidate", kind: "record", resource: "candidates", required: true },
      { name: "stage", kind: "state", states: CANDIDATE_STAGES, after: ["to", "into", "as"], required: true },
    ],
    request: (v) => ({ method: "PATCH", path: `/candidates/${v.candidate}`, body: { stage: v.stage } }),
    summary: (v, labels) => `Move the candidate ${labels.candidate} to ${v.stage}`,
  },
];
