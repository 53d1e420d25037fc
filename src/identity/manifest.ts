import { definePackage } from "../platform/packages";
import { tokens, users } from "../platform/schema";
import { apiTokenRoutes } from "./api-token-routes";
import { authRoutes } from "./auth-routes";
import { userRoutes } from "./users-routes";

/** Signup, login, sessions, users and API tokens: always on. */
export default definePackage({
  name: "identity",
  title: "Identity",
  tier: "core",
  description: "Sign up, sessions, users and their roles, and API tokens.",
  dependsOn: [],
  resources: [],
  routers: [authRoutes, userRoutes, apiTokenRoutes],
  tables: [users, tokens],
});
