import { definePackage } from "../platform/packages";
import { searchPages } from "./pages";
import { searchRoutes, searchTags } from "./routes";

/** The workspace search: GET /search over every resource with a `search` section, and its page. Always on. */
export default definePackage({
  name: "search",
  title: "Search",
  tier: "core",
  description: "Full-text search of the workspace's records (SQLite FTS5, kept current by triggers).",
  dependsOn: [],
  routers: [searchRoutes],
  tags: searchTags,
  tables: [],
  pages: [searchPages],
});
