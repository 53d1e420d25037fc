import { definePackage } from "../platform/packages";
import { webPages } from "./pages";

/** The dashboard for people (sign-in, widgets, settings, pro apps, the assistant) at the site root. Always on. */
export default definePackage({
  name: "web",
  title: "Web dashboard",
  tier: "core",
  description: "The server-rendered dashboard: widgets, settings, pro apps and the assistant.",
  dependsOn: [],
  tables: [],
  pages: [webPages],
});
