import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { projectResource } from "./projects";
import { projects, tasks } from "./schema";
import { tasklySkills } from "./skills";
import { taskActionRoutes, taskEvents, taskResource } from "./tasks";
import { tasklyWidgets } from "./widgets";

export default definePackage({
  name: "taskly",
  title: "Projects",
  tier: 1,
  description: "Projects and the tasks on their boards, with live task counts.",
  dependsOn: [],
  // A project may name a customer and a task its assignee; projects work with accounting and HRM off.
  optionalDependsOn: ["account", "hrm"],
  resources: [projectResource, taskResource],
  pages: [resourcePages(projectResource), resourcePages(taskResource)],
  nav: [resourceNav(projectResource), resourceNav(taskResource)],
  routers: [taskActionRoutes],
  tables: [projects, tasks],
  events: taskEvents,
  widgets: tasklyWidgets,
  skills: tasklySkills,
  dashboardPosition: 4,
});
