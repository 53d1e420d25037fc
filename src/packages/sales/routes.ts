import { resourceRoutes } from "../../platform/resource/routes";
import { contactResource } from "./contacts";

export const salesRoutes = [resourceRoutes(contactResource)];
