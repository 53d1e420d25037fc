import type { Skill } from "../../platform/skills";

export const analyticsSkills: Skill[] = [
  {
    kind: "resource",
    resource: "analytics/sites",
    singular: "site",
    plural: "sites",
    synonyms: ["website", "websites", "web site", "web sites", "tracked site", "tracked sites", "domain", "domains"],
    nameField: "domain",
    label: (r) => String(r.domain),
    line: (r) => `${r.domain} — key ${r.site_key}`,
    fields: { site_key: { words: ["site key", "key", "tracking key", "snippet key"] } },
  },
  {
    kind: "metric",
    widget: "analytics.visitors",
    title: "Website visitors",
    phrases: [
      "visitors",
      "website visitors",
      "site visitors",
      "traffic",
      "web traffic",
      "website traffic",
      "unique visitors",
      "how many people visited",
      "visits to the website",
      "site traffic",
      "visits",
    ],
  },
  {
    kind: "metric",
    widget: "analytics.checkout_conversion",
    title: "Checkout conversion",
    phrases: [
      "checkout conversion",
      "conversion rate",
      "checkout rate",
      "purchase conversion",
      "how many visitors buy",
      "ecommerce conversion",
      "cart conversion",
      "conversion",
    ],
  },
];
