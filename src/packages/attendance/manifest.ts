import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { attendanceResource } from "./attendance";
import { clockRoutes } from "./clock-routes";
import { reportPages } from "./report-page";
import { reportRoutes } from "./report-routes";
import { attendance, attendanceSettings } from "./schema";
import { settingsRoutes } from "./settings-routes";
import { attendanceSkills } from "./skills";
import { attendanceWidgets } from "./widgets";

export default definePackage({
  name: "attendance",
  title: "Attendance",
  tier: "add-on",
  description: "Clock-in and clock-out, late arrivals against the workday start, and a monthly attendance report.",
  dependsOn: ["hrm"],
  // The report reads approved leave and holidays while the leave package is on; attendance works without it.
  optionalDependsOn: ["leave"],
  resources: [attendanceResource],
  // Its own routes before the resource's generated /attendance/{id} routes.
  routers: [clockRoutes, settingsRoutes, reportRoutes],
  pages: [reportPages, resourcePages(attendanceResource)],
  nav: [resourceNav(attendanceResource), { href: "/app/attendance/report", label: "Attendance report", resource: "attendance" }],
  tables: [attendance, attendanceSettings],
  widgets: attendanceWidgets,
  skills: attendanceSkills,
  dashboardPosition: 12,
});
