import { definePackage } from "../platform/packages";
import { dashboardRoutes, dashboardTags } from "./routes";

/** The dashboard's API: it shows the widgets the packages declare. Always on. */
export default definePackage({
  name: "dashboard",
  title: "Dashboard",
  tier: "core",
  description: "The widgets of the enabled packages, for a period.",
  dependsOn: [],
  routers: [dashboardRoutes],
  tags: dashboardTags,
  tables: [],
});
