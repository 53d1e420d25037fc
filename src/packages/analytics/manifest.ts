import { definePackage } from "../../platform/packages";
import { analyticsTags, collectRoutes, trackerRoutes } from "./collect";
import { consumeAnalytics, consumeDeadLetters } from "./consumer";
import { exportRoutes } from "./export-routes";
import { funnelRoutes } from "./funnel-routes";
import { goalRoutes } from "./goal-routes";
import { analyticsAppPages, analyticsSharePages } from "./pages";
import { reportRoutes } from "./report-routes";
import { shareRoutes } from "./share-routes";
import { siteRoutes } from "./site-routes";
import { analyticsSkills } from "./skills";
import { expireRawEvents, purgeDeletedSites, rotateSalts } from "./sweeps";
import { analyticsWidgets } from "./widgets";

/**
 * Cookie-less web analytics for the workspace's own sites. Its tables live in their own database
 * (ANALYTICS_DB, migrations-analytics/): collecting never contends with business writes.
 */
export default definePackage({
  name: "analytics",
  title: "Analytics",
  tier: "add-on",
  description: "Cookie-less web analytics and checkout funnels for the workspace's own sites, collected through a queue.",
  dependsOn: [],
  scopes: ["analytics"],
  // Stats and funnels are for members and above (viewers see the business data only).
  roles: { analytics: { read: "member", write: "member" } },
  // The loose per-IP ceiling; the collector also counts each site's events (10,000 a minute).
  collectors: [{ path: "/analytics/collect", perMinute: 3000 }],
  staticRouters: [trackerRoutes],
  routers: [collectRoutes, siteRoutes, reportRoutes, funnelRoutes, goalRoutes, shareRoutes, exportRoutes],
  pages: [analyticsAppPages, analyticsSharePages],
  nav: [{ href: "/app/analytics", label: "Sites and stats", resource: "analytics" }],
  tags: analyticsTags,
  tables: [],
  widgets: analyticsWidgets,
  skills: analyticsSkills,
  dashboardPosition: 5,
  sweeps: [rotateSalts, expireRawEvents, purgeDeletedSites],
  consumers: { analytics: consumeAnalytics, "analytics-dlq": consumeDeadLetters },
});
