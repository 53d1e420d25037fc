import { definePackage } from "../platform/packages";
import { Shell } from "./layout";
import { homePages } from "./pages/home";
import { signInPages } from "./pages/sign-in";

/** The web app's shell (layout, navigation, sign-in) and its dashboard at the site root. Always on. */
export default definePackage({
  name: "web",
  title: "Web app",
  tier: "core",
  description: "The server-rendered web app: sign-in, the layout every package's pages share, the dashboard.",
  dependsOn: [],
  tables: [],
  shell: Shell,
  pages: [signInPages, homePages],
  nav: [{ href: "/app", label: "Dashboard", group: "" }],
});
