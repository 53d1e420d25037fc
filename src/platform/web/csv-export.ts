import Papa from "papaparse";
import type { ApiRecord } from "./components";
import { outputFields, valueAt } from "./fields";
import { apiQuery } from "./list-page";
import { refusalPage } from "./page";
import { api, type PageContext } from "./records";

const EXPORT_PAGE = 100;

/**
 * GET /app/R.csv?<the list's filters>: every matching record as CSV, streamed a page of 100 at a time as the
 * client reads it. The header is the API's field names and the values are the API's (money in minor units),
 * so a file exported here imports back. Cells that a spreadsheet would run as a formula are quoted off.
 */
export async function csvExport(ctx: PageContext) {
  const { c, def } = ctx;
  const query = { ...c.req.query() };
  delete query.cursor;
  const params = apiQuery(ctx, query, EXPORT_PAGE);
  const columns = outputFields(def, ctx.registry).map((field) => field.name);
  const first = await api<ApiRecord[]>(ctx, "GET", `/${def.name}?${params}`);
  if (!first.ok) return refusalPage(c, ctx.session, first.error, first.status, `/app/${def.name}`);
  const encoder = new TextEncoder();
  const csv = (rows: ApiRecord[], header: boolean) =>
    `${Papa.unparse({ fields: columns, data: rows.map((row) => columns.map((name) => cell(valueAt(row, name)))) }, { header, escapeFormulae: true, newline: "\r\n" })}\r\n`;
  let page: { rows: ApiRecord[]; cursor: string | null } | null = {
    rows: first.data,
    cursor: (first.meta as { next_cursor?: string | null }).next_cursor ?? null,
  };
  let header = true;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!page) return controller.close();
      controller.enqueue(encoder.encode(csv(page.rows, header)));
      header = false;
      if (!page.cursor) {
        page = null;
        return;
      }
      params.set("cursor", page.cursor);
      const next = await api<ApiRecord[]>(ctx, "GET", `/${def.name}?${params}`);
      page = next.ok ? { rows: next.data, cursor: (next.meta as { next_cursor?: string | null }).next_cursor ?? null } : null;
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${def.name}-${day}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

const cell = (value: unknown) => (value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : value);
