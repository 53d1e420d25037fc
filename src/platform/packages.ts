import type { BusinessResource } from "./auth/permissions";

/** The package catalogue: which business resources each package serves. */
export const PACKAGES = {
  hrm: { title: "HRM", resources: ["employees"] },
  sales: { title: "Sales", resources: ["contacts", "leads", "deals"] },
  account: { title: "Accounting", resources: ["customers", "invoices", "payments"] },
  taskly: { title: "Projects", resources: ["projects", "tasks"] },
} as const satisfies Record<string, { title: string; resources: readonly BusinessResource[] }>;

export type PackageName = keyof typeof PACKAGES;
export const PACKAGE_NAMES = Object.keys(PACKAGES) as PackageName[];

export function packageOf(resource: BusinessResource): PackageName {
  return PACKAGE_NAMES.find((name) => (PACKAGES[name].resources as readonly string[]).includes(resource))!;
}
