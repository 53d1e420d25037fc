import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { expenseActionRoutes } from "./expense-actions";
import { expenseEvents, expenseResource } from "./expenses";
import { receiptRoutes } from "./receipts";
import { expenses, vendors } from "./schema";
import { expenseSkills } from "./skills";
import { vendorResource } from "./vendors";
import { expenseWidgets } from "./widgets";

export default definePackage({
  name: "expenses",
  title: "Expenses",
  tier: "add-on",
  description: "Vendors and expenses with receipts, approved by admins and billable to projects.",
  dependsOn: ["account"],
  // An expense may name a project (billable to it) and the employee who spent it.
  optionalDependsOn: ["taskly", "hrm"],
  resources: [vendorResource, expenseResource],
  pages: [resourcePages(expenseResource), resourcePages(vendorResource)],
  nav: [resourceNav(expenseResource), resourceNav(vendorResource)],
  routers: [expenseActionRoutes, receiptRoutes],
  uploads: [{ method: "PUT", path: /^\/api\/v1\/expenses\/\d{1,16}\/receipt$/ }],
  tables: [vendors, expenses],
  events: expenseEvents,
  widgets: expenseWidgets,
  skills: expenseSkills,
  dashboardPosition: 13,
});
