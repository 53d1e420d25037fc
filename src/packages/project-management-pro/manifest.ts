import { proAppPackage } from "../../sso/pro-apps";

export default proAppPackage({
  name: "project-management-pro",
  title: "Project Management Pro",
  dependsOn: "taskly",
  description: "The standalone project-management app (Gantt, milestones, bugs), embedded through single sign-on.",
});
