import { definePackage } from "../platform/packages";
import { appRoutes, ssoTags } from "./app-routes";
import { demoPages } from "./demo";
import { proAppPages } from "./pages";
import { ssoApps } from "./schema";
import { tokenRoutes } from "./token-routes";

/** Single sign-on for the pro apps (their packages are tier 2, built with proAppPackage). Always on. */
export default definePackage({
  name: "sso",
  title: "Single sign-on",
  tier: "core",
  description: "HS256 tokens that sign dashboard users into the embedded pro apps.",
  dependsOn: [],
  routers: [appRoutes, tokenRoutes],
  tags: ssoTags,
  tables: [],
  directoryTables: [ssoApps],
  sealedColumns: [{ table: ssoApps, column: ssoApps.secret, key: [ssoApps.workspaceId, ssoApps.app] }],
  pages: [proAppPages, demoPages],
});
