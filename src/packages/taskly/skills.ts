import { words } from "../../platform/format";
import type { Skill } from "../../platform/skills";

const TASK_STATES: Record<string, string[]> = {
  todo: ["todo", "to do", "to-do", "not started", "reopen", "reopened", "back to todo"],
  in_progress: ["in progress", "started", "start", "doing", "working on", "wip", "ongoing", "in-progress"],
  review: ["review", "in review", "reviewing", "under review", "ready for review", "ready to be reviewed", "waiting for review", "needs review"],
  done: ["done", "complete", "completed", "finished", "finish", "closed", "close", "resolved", "resolve", "passed review"],
};

export const tasklySkills: Skill[] = [
  {
    kind: "resource",
    resource: "projects",
    singular: "project",
    plural: "projects",
    synonyms: ["engagement", "engagements"],
    nameField: "name",
    pairedName: true,
    label: (r) => String(r.name),
    line: (r) => `${r.name} — ${words(r.status)}, ${r.completed_task_count}/${r.task_count} tasks done${r.end_date ? `, ends ${r.end_date}` : ""}`,
    fields: {
      status: { words: ["status", "state"] },
      task_count: { words: ["task count", "tasks does it have", "how many tasks does"], format: "count" },
      completed_task_count: { words: ["tasks done", "completed tasks", "finished tasks"], format: "count" },
      start_date: { words: ["start date", "when does it start", "started"], format: "date" },
      end_date: { words: ["end date", "deadline", "when does it end", "ends", "end", "finish date"], format: "date" },
      logged_minutes: { words: ["time logged", "hours logged", "logged time", "time spent", "hours spent"], format: "minutes" },
    },
    filters: [
      { words: ["active", "running", "ongoing", "current", "live"], query: { status: "active" }, label: "active" },
      { words: ["on hold", "paused", "on-hold", "parked"], query: { status: "on_hold" }, label: "on hold" },
      { words: ["completed", "complete", "finished", "done", "closed"], query: { status: "completed" }, label: "completed" },
    ],
    parents: [{ words: ["for", "of"], resource: "customers", param: "customer_id" }],
    dateFields: [
      { words: ["start", "starts", "started", "starting", "kick off", "kicked off"], field: "start_date" },
      { words: ["end", "ends", "ending", "finish", "finishes", "due", "deadline", "wrap up", "wraps up", "wrapping up", "finishing"], field: "end_date" },
    ],
    measures: [
      { words: ["how far along", "how far", "progress", "percent complete", "how close", "how much is done"], field: null, show: "completed_task_count" },
    ],
  },
  {
    kind: "resource",
    resource: "tasks",
    singular: "task",
    plural: "tasks",
    synonyms: ["todo item", "to-do", "todos", "to-dos", "issues", "work item", "work items", "assignment", "assignments", "todo list", "to-do list"],
    nameField: "title",
    reference: { pattern: /\btask\s*#?\s*(\d{1,16})\b/i, query: (match) => ({ id: match.replace(/\D/g, "") }) },
    label: (r) => `task ${r.id} "${r.title}"`,
    line: (r) => `#${r.id} ${r.title} — ${words(r.status)}, ${r.priority}${r.due_date ? `, due ${r.due_date}` : ""}`,
    fields: {
      status: { words: ["status", "state", "is it done", "progress"] },
      due_date: { words: ["due date", "when is it due", "due", "deadline"], format: "date" },
      priority: { words: ["priority", "how urgent", "urgency"] },
      assignee_id: {
        words: [
          "assigned",
          "assignee",
          "assigned to",
          "who is on",
          "owner",
          "who has it",
          "who's on it",
          "who on it",
          "whos on it",
          "working on it",
          "who is working on it",
        ],
      },
      project_id: { words: ["project", "which project"] },
      completed_at: { words: ["completed", "finished", "when was it done", "completed at"], format: "datetime" },
    },
    filters: [
      { words: ["overdue", "late", "past due", "behind"], query: { status: "todo,in_progress,review", due_before: "$yesterday" }, label: "overdue" },
      ...Object.entries(TASK_STATES).map(([status, list]) => ({ words: list, query: { status }, label: words(status) })),
      {
        words: ["open", "unfinished", "not done", "remaining", "outstanding", "pending", "plate", "workload"],
        query: { status: "todo,in_progress,review" },
        label: "open",
      },
      { words: ["urgent"], query: { priority: "urgent" }, label: "urgent" },
      { words: ["high priority", "high-priority"], query: { priority: "high" }, label: "high priority" },
      { words: ["important"], query: { priority: "high,urgent" }, label: "important" },
      { words: ["low priority", "low-priority"], query: { priority: "low" }, label: "low priority" },
    ],
    // ("what's due this week": a deadline said alone is a task's — "… that hasn't been paid" is still an invoice's.)
    dates: [{ words: ["due", "deadline"], field: "due_date", after: "due_after", before: "due_before", format: "date", alone: true }],
    dateFields: [
      {
        words: ["completed", "finished", "finish", "complete", "done", "closed", "close", "close out", "closed out", "wrapped up", "wrap up", "shipped"],
        field: "completed_at",
      },
    ],
    person: { words: ["assigned to", "for", "owned by", "of", "belonging to", "assignee"], param: "assignee_id" },
    parents: [{ words: ["in", "in project", "on", "on project", "for project", "of project", "project"], resource: "projects", param: "project_id" }],
  },
  {
    kind: "metric",
    widget: "taskly.tasks_by_status",
    now: true,
    title: "Tasks by status",
    phrases: ["tasks by status", "task status breakdown", "task breakdown", "how are tasks distributed"],
  },
  {
    kind: "metric",
    widget: "taskly.overdue_tasks",
    now: true,
    title: "Overdue tasks",
    phrases: ["overdue task count", "overdue tasks count", "late task count"],
  },
  {
    kind: "metric",
    widget: "taskly.completed_tasks",
    title: "Completed tasks",
    phrases: [
      "completed tasks",
      "tasks completed",
      "tasks done",
      "tasks finished",
      "how many tasks did we complete",
      "how many tasks did we finish",
      "throughput",
    ],
  },
  {
    kind: "metric",
    widget: "taskly.project_progress",
    now: true,
    title: "Project progress",
    phrases: [
      "project progress",
      "progress of projects",
      "projects progressing",
      "how are projects going",
      "project completion",
      "how far along are the projects",
    ],
  },
  {
    kind: "action",
    name: "create_task",
    resource: "tasks",
    slots: [
      { name: "title", kind: "title", required: true },
      {
        name: "project_id",
        kind: "record",
        resource: "projects",
        after: ["in", "in project", "on", "on project", "for project", "to project", "to", "into", "project", "under"],
        required: true,
      },
      { name: "due_date", kind: "date", after: ["due", "by", "on", "for"] },
      { name: "assignee_id", kind: "record", resource: "employees", after: ["assigned to", "assign to", "for"] },
    ],
    request: (v) => ({
      method: "POST",
      path: "/tasks",
      body: {
        title: v.title,
        project_id: v.project_id,
        ...(v.due_date ? { due_date: v.due_date } : {}),
        ...(v.assignee_id ? { assignee_id: v.assignee_id } : {}),
      },
    }),
    summary: (v, labels) =>
      `Create the task "${v.title}" in project ${labels.project_id}${v.due_date ? `, due ${labels.due_date ?? v.due_date}` : ""}${v.assignee_id ? `, assigned to ${labels.assignee_id}` : ""}`,
  },
  {
    kind: "action",
    name: "set_task_status",
    resource: "tasks",
    slots: [
      { name: "task", kind: "record", resource: "tasks", required: true },
      { name: "status", kind: "state", states: TASK_STATES, after: ["to", "as", "into"], required: true },
    ],
    request: (v) => ({ method: "PUT", path: `/tasks/${v.task}/status`, body: { status: v.status } }),
    summary: (v, labels) => `Mark ${labels.task} as ${words(v.status)}`,
  },
];
