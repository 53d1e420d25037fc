import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { candidateActionRoutes, candidateResource } from "./candidates";
import { jobOpeningResource } from "./job-openings";
import { candidates, jobOpenings } from "./schema";
import { recruitmentSkills } from "./skills";
import { recruitmentWidgets } from "./widgets";

export default definePackage({
  name: "recruitment",
  title: "Recruitment",
  tier: "add-on",
  description: "Job openings and their candidates, hired straight into HRM's employees.",
  dependsOn: ["hrm"],
  resources: [jobOpeningResource, candidateResource],
  pages: [resourcePages(jobOpeningResource), resourcePages(candidateResource)],
  nav: [resourceNav(jobOpeningResource), resourceNav(candidateResource)],
  routers: [candidateActionRoutes],
  tables: [jobOpenings, candidates],
  widgets: recruitmentWidgets,
  skills: recruitmentSkills,
  dashboardPosition: 10,
});
