import { resourceRoutes } from "../../platform/resource/routes";
import { contactResource } from "./contacts";
import { dealResource } from "./deals";
import { leadResource } from "./leads";

export const salesRoutes = [resourceRoutes(contactResource), resourceRoutes(leadResource), resourceRoutes(dealResource)];
