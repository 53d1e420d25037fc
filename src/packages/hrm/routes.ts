import { resourceRoutes } from "../../platform/resource/routes";
import { employeeResource } from "./employees";

export const hrmRoutes = [resourceRoutes(employeeResource)];
