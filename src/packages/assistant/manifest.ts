import { definePackage } from "../../platform/packages";
import { actionRoutes } from "./action-routes";
import { assistantTags, conversationRoutes } from "./conversation-routes";
import { assistantPages } from "./pages";
import { actions, conversations, messages } from "./schema";
import { expireConversations } from "./sweeps";

/**
 * The assistant: answers from the workspace's own data and prepares actions, inside the worker, calling
 * nothing outside. Its understanding covers every package through their skills.
 */
export default definePackage({
  name: "assistant",
  title: "AI assistant",
  tier: "add-on",
  description: "Answers questions about the workspace and prepares actions, offline, from the packages' own routes.",
  dependsOn: [],
  routers: [conversationRoutes, actionRoutes],
  tags: assistantTags,
  tables: [conversations, messages, actions],
  sweeps: [expireConversations],
  pages: [assistantPages],
  nav: [{ href: "/app/assistant", label: "Assistant", group: "" }],
});
