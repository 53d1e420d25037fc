import { resourceRoutes } from "../../platform/resource/routes";
import { projectResource } from "./projects";
import { taskActionRoutes, taskResource } from "./tasks";

export const tasklyRoutes = [resourceRoutes(projectResource), resourceRoutes(taskResource), taskActionRoutes];
