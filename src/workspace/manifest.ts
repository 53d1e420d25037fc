import { definePackage } from "../platform/packages";
import { publicLinks } from "../platform/schema";
import { packageRoutes, packageTags } from "./package-routes";
import { packagePages } from "./pages";
import { subscriptionEvents, subscriptionRoutes, subscriptionTags } from "./subscription-routes";

/** The workspace's plan and its package switches: always on. */
export default definePackage({
  name: "workspace",
  title: "Workspace",
  tier: "core",
  description: "The subscription plan and the package catalogue.",
  dependsOn: [],
  routers: [subscriptionRoutes, packageRoutes],
  tags: { ...subscriptionTags, ...packageTags },
  tables: [],
  // Public links (an invoice's page): the directory finds a token's workspace before any shard is read.
  directoryTables: [publicLinks],
  events: subscriptionEvents,
  pages: [packagePages],
  nav: [{ href: "/app/settings/packages", label: "Packages", group: "Settings" }],
});
