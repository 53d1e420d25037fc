import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { customerResource } from "./customers";
import { invoiceEditorPages } from "./invoice-editor";
import { invoiceActionRoutes, invoiceEvents, invoiceResource } from "./invoices";
import { paymentActionRoutes, paymentEvents, paymentResource } from "./payments";
import { customers, invoices, payments } from "./schema";
import { accountSkills } from "./skills";
import { accountWidgets } from "./widgets";

export default definePackage({
  name: "account",
  title: "Accounting",
  tier: 1,
  description: "Customers, invoices computed in integer minor units, and the payments booked against them.",
  dependsOn: [],
  resources: [customerResource, invoiceResource, paymentResource],
  pages: [invoiceEditorPages, resourcePages(customerResource), resourcePages(invoiceResource), resourcePages(paymentResource)],
  nav: [resourceNav(customerResource), resourceNav(invoiceResource), resourceNav(paymentResource)],
  routers: [invoiceActionRoutes, paymentActionRoutes],
  tables: [customers, invoices, payments],
  events: { ...invoiceEvents, ...paymentEvents },
  widgets: accountWidgets,
  skills: accountSkills,
  dashboardPosition: 1,
});
