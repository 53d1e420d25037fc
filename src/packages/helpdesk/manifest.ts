import { definePackage } from "../../platform/packages";
import { ticketCounters, ticketReplies, tickets } from "./schema";

export default definePackage({
  name: "helpdesk",
  title: "Helpdesk",
  tier: "add-on",
  description: "Support tickets from e-mail and the API, with replies, internal notes, assignment and first-response SLAs.",
  dependsOn: ["sales"],
  tables: [tickets, ticketReplies, ticketCounters],
});
