import { definePackage } from "../platform/packages";
import { packageRoutes } from "./package-routes";
import { subscriptionEvents, subscriptionRoutes } from "./subscription-routes";

/** The workspace's plan and its package switches: always on. */
export default definePackage({
  name: "workspace",
  title: "Workspace",
  tier: "core",
  description: "The subscription plan and the package catalogue.",
  dependsOn: [],
  resources: [],
  routers: [subscriptionRoutes, packageRoutes],
  tables: [],
  events: subscriptionEvents,
});
