import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { contactResource } from "./contacts";
import { dealEvents, dealResource } from "./deals";
import { leadResource } from "./leads";
import { contacts, deals, leads } from "./schema";
import { salesSkills } from "./skills";
import { salesWidgets } from "./widgets";

export default definePackage({
  name: "sales",
  title: "Sales",
  tier: 1,
  description: "CRM: contacts, leads from their sources, and deals moving through the pipeline to won or lost.",
  dependsOn: [],
  // A deal may name a customer; nothing of sales needs accounting to be on.
  optionalDependsOn: ["account"],
  resources: [contactResource, leadResource, dealResource],
  pages: [resourcePages(contactResource), resourcePages(leadResource), resourcePages(dealResource)],
  nav: [resourceNav(contactResource), resourceNav(leadResource), resourceNav(dealResource)],
  tables: [contacts, leads, deals],
  events: dealEvents,
  widgets: salesWidgets,
  skills: salesSkills,
  dashboardPosition: 2,
});
