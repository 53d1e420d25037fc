import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { balanceRoutes } from "./balance-routes";
import { CALENDAR_PATH, calendarPages } from "./calendar-page";
import { holidayResource } from "./holidays";
import { leaveActionRoutes } from "./leave-actions";
import { leaveEvents, leaveRequestResource } from "./leave-requests";
import { leaveTypeResource } from "./leave-types";
import { holidays, leaveRequests, leaveTypes } from "./schema";
import { leaveSkills } from "./skills";
import { leaveWidgets } from "./widgets";

export default definePackage({
  name: "leave",
  title: "Leave",
  tier: "add-on",
  description: "Time off: leave types with yearly allowances, public holidays, requests approved by admins, and balances.",
  dependsOn: ["hrm"],
  resources: [leaveTypeResource, holidayResource, leaveRequestResource],
  // Allowances and holidays decide what approvals allow: admins set them; members ask for leave.
  roles: { "leave-types": { write: "admin" }, holidays: { write: "admin" } },
  // Its own routes before the generated /leave-requests/{id} routes.
  routers: [leaveActionRoutes, balanceRoutes],
  pages: [calendarPages, resourcePages(leaveRequestResource), resourcePages(leaveTypeResource), resourcePages(holidayResource)],
  nav: [
    resourceNav(leaveRequestResource),
    { href: CALENDAR_PATH, label: "Leave calendar", resource: "leave-requests" },
    resourceNav(leaveTypeResource),
    resourceNav(holidayResource),
  ],
  tables: [leaveTypes, holidays, leaveRequests],
  events: leaveEvents,
  widgets: leaveWidgets,
  skills: leaveSkills,
  dashboardPosition: 11,
});
