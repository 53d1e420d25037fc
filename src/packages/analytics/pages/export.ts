import { ApiError } from "../../../platform/errors";
import type { Tenant } from "../../../platform/tenancy";
import { exportZip } from "../export-routes";
import { filtersFor, siteAndGoals } from "../reports";
import { rangeOfView, viewOf } from "./view";

/**
 * The dashboard's CSV export for a page (the app's session, or a shared link): the same ZIP as
 * GET /api/v1/analytics/sites/{id}/export, which takes a bearer token only. The period and filters are
 * the page's; a bad one is refused (400) rather than silently exporting something else.
 */
export async function exportResponse(
  tenant: Tenant,
  siteId: number,
  query: Record<string, string | undefined>,
  now: number,
): Promise<Response | { status: 400 | 404; message: string }> {
  const { view, problems } = viewOf(query);
  const { range, problem } = rangeOfView(view, now);
  if (problems.length > 0 || problem) return { status: 400, message: problems[0] ?? problem ?? "bad period" };
  try {
    const { site, goals } = await siteAndGoals(tenant, siteId);
    const zip = await exportZip(tenant, site.id, range, filtersFor(view.filters || undefined, goals), goals);
    const name = `${site.domain}-${range.from}-${range.to}.zip`.replace(/[^A-Za-z0-9._-]/g, "_");
    return new Response(zip as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return { status: error.status, message: error.message };
    throw error;
  }
}
