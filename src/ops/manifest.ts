import { definePackage } from "../platform/packages";
import { moveRoutes } from "./move-routes";

/** The operator's tools (moving a workspace between shards): routes outside the API, off without OPERATOR_TOKEN. Always on. */
export default definePackage({
  name: "ops",
  title: "Operations",
  tier: "core",
  description: "Operator routes: moving a workspace to another shard.",
  dependsOn: [],
  tables: [],
  operatorRoutes: [moveRoutes],
});
