import { packageDisabled } from "../platform/auth/middleware";
import { access, denial, isAllowed } from "../platform/auth/permissions";
import type { Principal } from "../platform/context";
import { ApiError } from "../platform/errors";
import type { PackageRegistry } from "../platform/packages";
import type { Statement, Tenant } from "../platform/tenancy";
import { type Period, previousPeriod, type WidgetDefinition, type WidgetKind, type WidgetUnit } from "../platform/widgets";

export type Widget = { key: string; package: string; title: string; kind: WidgetKind; unit: WidgetUnit; link: string | null; data: unknown };
export type RegisteredWidget = { pkg: string; widget: WidgetDefinition };

/** Every widget of this build, in dashboard order: packages by their dashboard position, widgets as declared. */
export function allWidgets(registry: PackageRegistry): RegisteredWidget[] {
  return registry.all
    .filter((manifest) => (manifest.widgets ?? []).length > 0)
    .sort((a, b) => (a.dashboardPosition ?? 100) - (b.dashboardPosition ?? 100))
    .flatMap((manifest) => manifest.widgets!.map((widget) => ({ pkg: manifest.name, widget })));
}

/** Why the caller may not see a widget (a disabled package, a role or scope short of its resources), or null. */
export function refusal(entry: RegisteredWidget, principal: Principal, tenant: Tenant, registry: PackageRegistry): ApiError | null {
  if (!tenant.isEnabled(entry.pkg)) return packageDisabled(entry.pkg);
  for (const resource of entry.widget.reads) {
    const need = access.read(resource);
    if (!isAllowed(principal, need, registry)) {
      const { message, details } = denial(principal, need, registry);
      return new ApiError("forbidden", `${entry.widget.key}: ${message}`, details ? { details: [{ path: "", message, ...details }] } : {});
    }
  }
  return null;
}

/**
 * Computes widgets: the statements of every business widget run as one D1 batch (one round trip), the
 * analytics widgets' as one batch on the analytics database, both at once. A comparable stat's statements
 * run a second time over the previous period in the same batch: its `previous`.
 */
export async function computeWidgets(entries: RegisteredWidget[], tenant: Tenant, period: Period, analytics: Tenant, now = Date.now()): Promise<Widget[]> {
  const before = previousPeriod(period);
  const planned = entries.flatMap((entry) => {
    const source = entry.widget.source ?? "business";
    const on = source === "analytics" ? analytics : tenant;
    const current = { entry, source, previous: false, plan: entry.widget.query({ tenant: on, period, now }) };
    const compared = entry.widget.kind === "stat" && entry.widget.comparable;
    return compared ? [current, { entry, source, previous: true, plan: entry.widget.query({ tenant: on, period: before, now }) }] : [current];
  });
  const run = async (source: "business" | "analytics", on: Tenant) => {
    const mine = planned.filter((p) => p.source === source);
    // One batch; a statement several widgets share runs once (per period).
    const statements: Statement[] = [];
    const positions = new Map<string, number>();
    const slots = mine.map((p) =>
      p.plan.statements.map((item) => {
        if (!("share" in item)) return statements.push(item) - 1;
        const share = `${item.share}${p.previous ? ":previous" : ""}`;
        if (!positions.has(share)) positions.set(share, statements.push(item.statement) - 1);
        return positions.get(share)!;
      }),
    );
    if (statements.length === 0) return new Map<number, unknown[]>();
    const results = (await on.batch(statements as [Statement, ...Statement[]])) as unknown[];
    return new Map(mine.map((p, i) => [planned.indexOf(p), slots[i]!.map((slot) => results[slot])]));
  };
  const [business, fromAnalytics] = await Promise.all([run("business", tenant), run("analytics", analytics)]);
  const built = planned.map((p, i) => p.plan.build((p.source === "business" ? business : fromAnalytics).get(i) ?? []));
  return planned.flatMap((p, i) => {
    if (p.previous) return [];
    const widget = p.entry.widget;
    let data = built[i];
    if (widget.kind === "stat") {
      const previous = widget.comparable ? (built[i + 1] as { value?: unknown }).value : null;
      data = { ...(data as object), previous: previous ?? null };
    }
    return [{ key: widget.key, package: p.entry.pkg, title: widget.title, kind: widget.kind, unit: widget.unit, link: widget.link?.(period) ?? null, data }];
  });
}
