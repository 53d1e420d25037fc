import { proAppPackage } from "../../sso/pro-apps";

export default proAppPackage({
  name: "sales-pro",
  title: "Sales Pro",
  dependsOn: "sales",
  description: "The standalone CRM app, embedded through single sign-on.",
});
