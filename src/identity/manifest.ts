import { definePackage } from "../platform/packages";
import { tokens, users, workspaces } from "../platform/schema";
import { apiTokenRoutes, apiTokenTags } from "./api-token-routes";
import { authRoutes, authTags } from "./auth-routes";
import { apiTokenPages } from "./pages/api-tokens";
import { userPages } from "./pages/users";
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
  pages: [apiTokenPages, userPages],
  nav: [
    { href: "/app/settings/users", label: "Users", group: "Settings", admin: true },
    { href: "/app/settings/api", label: "API", group: "Settings", admin: true },
  ],
});
