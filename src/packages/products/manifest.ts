import { definePackage } from "../../platform/packages";
import { resourceNav, resourcePages } from "../../platform/web/resource-pages";
import { productLineExtensions } from "./lines";
import { productResource } from "./products";
import { products } from "./schema";
import { productSkills } from "./skills";
import { productWidgets } from "./widgets";

export default definePackage({
  name: "products",
  title: "Products & services",
  tier: "add-on",
  description: "A catalogue of products and services that invoice and quote lines name by product_id.",
  dependsOn: ["account"],
  // Quote lines may name products too, while quotes is on; products does not need it.
  optionalDependsOn: ["quotes"],
  resources: [productResource],
  pages: [resourcePages(productResource)],
  nav: [resourceNav(productResource)],
  tables: [products],
  extends: productLineExtensions,
  widgets: productWidgets,
  skills: productSkills,
  dashboardPosition: 11,
});
