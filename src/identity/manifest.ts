import { definePackage } from "../platform/packages";
import { tokens, users, workspaces } from "../platform/schema";
import { apiTokenRoutes, apiTokenTags } from "./api-token-routes";
import { authRoutes, authTags } from "./auth-routes";
import { apiTokenPages } from "./pages/api-tokens";
import { userRoutes, userTags } from "./users-routes";

/** Signup, login, sessions, users and API tokens: always on. */
export default definePackage({
  name: "identity",
  title: "Identity",
  tier: "core",
  description: "Sign up, sessions, users and their roles, and API tokens.",
  dependsOn: [],
  routers: [authRoutes, userRoutes, apiTokenRoutes],
  tags: { ...authTags, ...userTags, ...apiTokenTags },
  tables: [],
  directoryTables: [workspaces, users, tokens],
  pages: [apiTokenPages],
  nav: [{ href: "/app/settings/api", label: "API", group: "Settings", admin: true }],
});
