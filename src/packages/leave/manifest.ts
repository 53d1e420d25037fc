import { definePackage } from "../../platform/packages";
import { holidays, leaveRequests, leaveTypes } from "./schema";

export default definePackage({
  name: "leave",
  title: "Leave",
  tier: "add-on",
  description: "Time off: leave types with yearly allowances, public holidays, requests approved by admins, and balances.",
  dependsOn: ["hrm"],
  tables: [leaveTypes, holidays, leaveRequests],
});
