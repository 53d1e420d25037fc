import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { customerResource } from "./customers";
import { invoiceMailers } from "./invoice-mail";
import { invoicePublicPages } from "./invoice-public";
import { invoiceSendingRoutes } from "./invoice-sending";
import { invoiceActionRoutes, invoiceEvents, invoiceResource } from "./invoices";
import { invoiceEditorPages } from "./lines-editor";
import { paymentActionRoutes, paymentEvents, paymentResource } from "./payments";
import { paymentProcessorRoutes } from "./processor-routes";
import { sweepReminders } from "./reminders";
import { customers, invoices, invoicingSettings, paymentProcessors, payments } from "./schema";
import { settingsRoutes, settingsTags } from "./settings-routes";
import { accountSkills } from "./skills";
import { stripeWebhookRoutes } from "./stripe";
import { accountWidgets } from "./widgets";

export default definePackage({
  name: "account",
  title: "Accounting",
  tier: 1,
  description: "Customers, invoices computed in integer minor units, and the payments booked against them.",
  dependsOn: [],
  resources: [customerResource, invoiceResource, paymentResource],
  pages: [invoiceEditorPages, resourcePages(customerResource), resourcePages(invoiceResource), resourcePages(paymentResource), invoicePublicPages],
  nav: [resourceNav(customerResource), resourceNav(invoiceResource), resourceNav(paymentResource)],
  routers: [invoiceActionRoutes, invoiceSendingRoutes, paymentActionRoutes, paymentProcessorRoutes, stripeWebhookRoutes, settingsRoutes],
  tags: settingsTags,
  tables: [customers, invoices, payments, paymentProcessors, invoicingSettings],
  sealedColumns: [
    { table: paymentProcessors, column: paymentProcessors.secretKey, key: [paymentProcessors.workspaceId] },
    { table: paymentProcessors, column: paymentProcessors.webhookSecret, key: [paymentProcessors.workspaceId] },
  ],
  // Stripe's webhook: its body is read raw (the signature covers the exact bytes) and it is not counted.
  inbound: ["/payments/stripe/"],
  mailers: invoiceMailers,
  sweeps: [sweepReminders],
  events: { ...invoiceEvents, ...paymentEvents },
  widgets: accountWidgets,
  skills: accountSkills,
  dashboardPosition: 1,
});
