import { proAppPackage } from "../../sso/pro-apps";

export default proAppPackage({
  name: "hrm-pro",
  title: "HRM Pro",
  dependsOn: "hrm",
  description: "The standalone HRM app (payroll, attendance, leave), embedded through single sign-on.",
});
