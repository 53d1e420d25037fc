import { definePackage } from "../../platform/packages";
import { inboundRoutes } from "./inbound-routes";
import { chatbotTags, integrationRoutes } from "./integration-routes";
import { linkRoutes } from "./link-routes";
import { chatPages } from "./pages";
import { chatLinkCodes, chatLinks, chatReplays, integrations } from "./schema";
import { sweepChat } from "./sweeps";

/** The assistant in Slack, Teams and Telegram: signed webhooks in, answers in the response, nothing out. */
export default definePackage({
  name: "chatbot",
  title: "Chat bot",
  tier: "add-on",
  description: "The assistant in Slack, Microsoft Teams and Telegram, answering in the request's own response.",
  dependsOn: ["assistant"],
  routers: [integrationRoutes, linkRoutes, inboundRoutes],
  tags: chatbotTags,
  tables: [],
  directoryTables: [integrations, chatLinks, chatLinkCodes, chatReplays],
  sealedColumns: [{ table: integrations, column: integrations.secret, key: [integrations.workspaceId, integrations.provider] }],
  inbound: ["/chatbot/slack/", "/chatbot/teams/", "/chatbot/telegram/"],
  sweeps: [sweepChat],
  pages: [chatPages],
  nav: [{ href: "/app/settings/chat", label: "Chat", group: "Settings" }],
});
