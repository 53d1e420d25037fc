import type { Skill } from "../../platform/skills";

export const productSkills: Skill[] = [
  {
    kind: "resource",
    resource: "products",
    singular: "product",
    plural: "products",
    synonyms: ["service", "services", "catalogue", "catalog", "item", "items", "sku", "skus", "price list"],
    nameField: "name",
    label: (r) => String(r.name),
    line: (r) => `${r.name}${r.sku ? ` (${r.sku})` : ""} — ${r.kind}${r.active ? "" : ", inactive"}`,
    fields: {
      sku: { words: ["sku", "code", "article number"] },
      unit_amount: { words: ["price", "unit price", "cost", "how much is"], format: "money" },
      tax_rate: { words: ["tax rate", "vat rate", "tax"] },
      unit: { words: ["unit"] },
    },
    filters: [
      { words: ["active", "on sale", "current"], query: { active: "true" }, label: "active" },
      { words: ["inactive", "retired", "discontinued"], query: { active: "false" }, label: "inactive" },
      { words: ["services"], query: { kind: "service" }, label: "services" },
      { words: ["physical products", "goods"], query: { kind: "product" }, label: "physical products" },
    ],
  },
  {
    kind: "metric",
    widget: "products.top_by_revenue",
    title: "Top products by revenue",
    ownsPhrases: true,
    phrases: [
      "top products",
      "top products by revenue",
      "best selling products",
      "best-selling products",
      "best sellers",
      "top selling products",
      "which products sell best",
      "products by revenue",
      "top services",
      "most sold products",
    ],
    defaultPeriod: "30d",
  },
];
