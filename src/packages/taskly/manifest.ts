import { definePackage } from "../../platform/packages";
import { resourceRoutes } from "../../platform/resource/routes";
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
  resources: ["projects", "tasks"],
  routers: [resourceRoutes(projectResource), resourceRoutes(taskResource), taskActionRoutes],
  tables: [projects, tasks],
  events: taskEvents,
  widgets: tasklyWidgets,
  skills: tasklySkills,
  dashboardPosition: 4,
});
