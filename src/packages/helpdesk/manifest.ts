import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { assigneeRoutes } from "./assignee";
import { supportMailbox } from "./inbound";
import { helpdeskMailers } from "./mail";
import { replyRoutes, ticketReplyResource } from "./replies";
import { threadPages } from "./reply-page";
import { ticketCounters, ticketReplies, tickets } from "./schema";
import { helpdeskSkills } from "./skills";
import { ticketEvents, ticketResource } from "./tickets";
import { helpdeskWidgets } from "./widgets";

export default definePackage({
  name: "helpdesk",
  title: "Helpdesk",
  tier: "add-on",
  description: "Support tickets from e-mail and the API, with replies, internal notes, assignment and first-response SLAs.",
  // A ticket is linked to the contact with the requester's address.
  dependsOn: ["sales"],
  resources: [ticketResource, ticketReplyResource],
  // The assignee check and the reply route before the generated /tickets and /ticket-replies routes.
  routers: [assigneeRoutes, replyRoutes],
  pages: [threadPages, resourcePages(ticketResource), resourcePages(ticketReplyResource)],
  nav: [resourceNav(ticketResource)],
  tables: [tickets, ticketReplies, ticketCounters],
  mailboxes: [supportMailbox],
  mailers: helpdeskMailers,
  events: ticketEvents,
  widgets: helpdeskWidgets,
  skills: helpdeskSkills,
  dashboardPosition: 14,
});
