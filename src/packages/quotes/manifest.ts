import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { sweepExpiredQuotes } from "./expiry";
import { quoteActionRoutes } from "./quote-actions";
import { quoteEditorPages } from "./quote-editor";
import { quoteMailers } from "./quote-mail";
import { quotePublicPages } from "./quote-public";
import { quoteEvents, quoteResource } from "./quotes";
import { quoteCounters, quotes } from "./schema";
import { quoteSkills } from "./skills";
import { quoteWidgets } from "./widgets";

export default definePackage({
  name: "quotes",
  title: "Quotes",
  tier: "add-on",
  description: "Quotes a customer accepts or declines on their own page, turned into a draft invoice once accepted.",
  dependsOn: ["sales", "account"],
  resources: [quoteResource],
  // The lines editor (shared with invoices) serves the new and edit forms; the generated pages the rest.
  pages: [quoteEditorPages, resourcePages(quoteResource), quotePublicPages],
  nav: [resourceNav(quoteResource)],
  routers: [quoteActionRoutes],
  tables: [quotes, quoteCounters],
  mailers: quoteMailers,
  sweeps: [sweepExpiredQuotes],
  events: quoteEvents,
  widgets: quoteWidgets,
  skills: quoteSkills,
  dashboardPosition: 12,
});
