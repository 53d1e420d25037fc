import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { employeeEvents, employeeResource } from "./employees";
import { employees } from "./schema";
import { hrmSkills } from "./skills";
import { hrmWidgets } from "./widgets";

export default definePackage({
  name: "hrm",
  title: "HRM",
  tier: 1,
  description: "The workforce: employees with their departments, designations, branches and status.",
  dependsOn: [],
  resources: [employeeResource],
  pages: [resourcePages(employeeResource)],
  nav: [resourceNav(employeeResource)],
  tables: [employees],
  events: employeeEvents,
  widgets: hrmWidgets,
  skills: hrmSkills,
  dashboardPosition: 3,
});
