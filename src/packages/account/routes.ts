import { resourceRoutes } from "../../platform/resource/routes";
import { customerResource } from "./customers";
import { invoiceActionRoutes, invoiceResource } from "./invoices";
import { paymentActionRoutes, paymentResource } from "./payments";

export const accountRoutes = [
  resourceRoutes(customerResource),
  resourceRoutes(invoiceResource, { batch: false }),
  invoiceActionRoutes,
  resourceRoutes(paymentResource, { create: false, update: false, delete: false, batch: false }),
  paymentActionRoutes,
];
