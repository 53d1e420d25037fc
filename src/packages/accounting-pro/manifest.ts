import { proAppPackage } from "../../sso/pro-apps";

export default proAppPackage({
  name: "accounting-pro",
  title: "Accounting Pro",
  dependsOn: "account",
  description: "The standalone accounting app (ledgers, bills, reports), embedded through single sign-on.",
});
