import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { timeEntries } from "./schema";
import { timesheetSkills } from "./skills";
import { loggedMinutes, timeEntryResource } from "./time-entries";
import { weekPages } from "./week-page";
import { timesheetWidgets } from "./widgets";

export default definePackage({
  name: "timesheets",
  title: "Timesheets",
  tier: "add-on",
  description: "Time employees log on tasks, capped at 1,440 minutes a day, summed into each project's logged_minutes.",
  dependsOn: ["taskly", "hrm"],
  resources: [timeEntryResource],
  pages: [weekPages, resourcePages(timeEntryResource)],
  nav: [resourceNav(timeEntryResource), { href: "/app/time-entries/week", label: "Week", resource: "time-entries" }],
  tables: [timeEntries],
  // While timesheets is enabled, projects show logged_minutes, read in the same statement as the project.
  extends: [{ resource: "projects", computed: { loggedMinutes }, output: { logged_minutes: (row) => row.loggedMinutes } }],
  widgets: timesheetWidgets,
  skills: timesheetSkills,
  dashboardPosition: 11,
});
