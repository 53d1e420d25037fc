import { definePackage } from "../platform/packages";
import { apiTokenPages } from "./pages/api-tokens";
import { assistantPages } from "./pages/assistant";
import { homePages } from "./pages/home";
import { packagePages } from "./pages/packages";
import { proAppPages } from "./pages/pro-apps";
import { signInPages } from "./pages/sign-in";
import { webhookPages } from "./pages/webhooks";

/** The dashboard for people (sign-in, widgets, settings, pro apps, the assistant) at the site root. Always on. */
export default definePackage({
  name: "web",
  title: "Web dashboard",
  tier: "core",
  description: "The server-rendered dashboard: widgets, settings, pro apps and the assistant.",
  dependsOn: [],
  tables: [],
  pages: [signInPages, homePages, apiTokenPages, webhookPages, packagePages, proAppPages, assistantPages],
});
