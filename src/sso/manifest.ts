import { definePackage } from "../platform/packages";
import { demoPages } from "./demo";
import { ssoRoutes, ssoTags } from "./routes";
import { ssoApps } from "./schema";

/** Single sign-on for the pro apps (their packages are tier 2, built with proAppPackage). Always on. */
export default definePackage({
  name: "sso",
  title: "Single sign-on",
  tier: "core",
  description: "HS256 tokens that sign dashboard users into the embedded pro apps.",
  dependsOn: [],
  routers: [ssoRoutes],
  tags: ssoTags,
  tables: [],
  directoryTables: [ssoApps],
  sealedColumns: [{ table: ssoApps, column: ssoApps.secret, key: [ssoApps.workspaceId, ssoApps.app] }],
  pages: [demoPages],
});
