import { z } from "@hono/zod-openapi";
import { eq, isNotNull } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { access } from "../../platform/auth/permissions";
import { rawBody } from "../../platform/body";
import { ApiError } from "../../platform/errors";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import { readBack } from "../../platform/resource/writes";
import { type Tenant, tenantOf } from "../../platform/tenancy";
import { Expense, expenseResource, receiptKey, toExpense } from "./expenses";
import { expenses } from "./schema";

/** A receipt is at most 10 MiB. */
export const MAX_RECEIPT_BYTES = 10 * 1024 * 1024;
/** What a receipt may be, by its bytes: a photo or scan, or a PDF. */
const RECEIPT_TYPES: ReadonlySet<string> = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/heic",
  "image/heif",
  "image/avif",
  "image/tiff",
  "application/pdf",
]);

const tags = ["Expenses"];
const keyOf = (tenant: Tenant, id: number) => receiptKey(tenant.workspaceId, id);

const Upload = z.object({
  filename: z.string().max(200).optional().openapi({ description: "The file's name, as the person saved it (shown when it is downloaded)" }),
});

const put = defineRoute(access.write("expenses"), {
  method: "put",
  path: "/expenses/{id}/receipt",
  operationId: "putExpenseReceipt",
  tags,
  summary: "Attach a receipt (an image or a PDF, at most 10 MiB)",
  description:
    "The body is the file itself. What it is comes from its bytes (the request's Content-Type is not trusted): an image (JPEG, PNG, GIF, WebP, HEIC, AVIF, TIFF) or a PDF, else 400; empty → 400; over 10 MiB → 413 — and nothing is stored. It replaces the expense's receipt, kept in R2.",
  request: {
    params: IdParam,
    query: Upload,
    body: { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
  },
  responses: { 200: jsonContent(envelope(Expense), "The expense with its receipt") },
});

const get = defineRoute(access.read("expenses"), {
  method: "get",
  path: "/expenses/{id}/receipt",
  operationId: "getExpenseReceipt",
  tags,
  summary: "Download an expense's receipt",
  description:
    "The file as it was uploaded, with the content type its bytes showed. Members of the workspace only; no receipt, or another workspace's expense → 404.",
  request: { params: IdParam },
  responses: { 200: { description: "The receipt", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } } },
});

const remove = defineRoute(access.write("expenses"), {
  method: "delete",
  path: "/expenses/{id}/receipt",
  operationId: "deleteExpenseReceipt",
  tags,
  summary: "Remove an expense's receipt",
  description: "Deletes the file from R2 and clears `receipt`. No receipt, or another workspace's expense → 404.",
  request: { params: IdParam },
  responses: { 200: jsonContent(envelope(Expense), "The expense without a receipt") },
});

/** The expense (of this workspace) or 404: read before anything is stored in R2. */
async function expenseOf(tenant: Tenant, id: number) {
  const [row] = await tenant.selectFrom(
    { id: expenses.id, receiptKey: expenses.receiptKey, receiptContentType: expenses.receiptContentType, receiptName: expenses.receiptName },
    expenses,
    eq(expenses.id, id),
  );
  if (!row) throw ApiError.notFound("expense");
  return row;
}

export const receiptRoutes = newRouter()
  .openapi(put, async (c) => {
    const { id } = c.req.valid("param");
    const { filename } = c.req.valid("query");
    const tenant = tenantOf(c);
    await expenseOf(tenant, id);
    const bytes = await rawBody(c, MAX_RECEIPT_BYTES);
    if (bytes.byteLength === 0) throw ApiError.validation([{ path: "body", message: "is empty: send the receipt's bytes" }]);
    const type = await fileTypeFromBuffer(bytes);
    if (!type || !RECEIPT_TYPES.has(type.mime))
      throw ApiError.validation([
        { path: "body", message: `is ${type ? type.mime : "not a file type we recognise"} by its bytes: a receipt must be an image or a PDF` },
      ]);
    const key = keyOf(tenant, id);
    await c.env.FILES.put(key, bytes, {
      httpMetadata: { contentType: type.mime },
      customMetadata: { workspace_id: String(tenant.workspaceId), expense_id: String(id) },
    });
    const now = Date.now();
    const [updated, [row]] = await tenant.batch([
      tenant
        .update(
          expenses,
          {
            receiptKey: key,
            receiptContentType: type.mime,
            receiptSize: bytes.byteLength,
            receiptName: filename ?? null,
            receiptUploadedAt: now,
            updatedAt: now,
          },
          eq(expenses.id, id),
        )
        .returning({ id: expenses.id }),
      readBack(expenseResource, tenant, id),
    ]);
    // Deleted meanwhile: the file goes too, nothing is left behind.
    if (updated.length === 0 || !row) {
      await c.env.FILES.delete(key);
      throw ApiError.notFound("expense");
    }
    return c.json({ success: true as const, data: toExpense(row as Parameters<typeof toExpense>[0]) }, 200);
  })
  .openapi(get, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const expense = await expenseOf(tenant, id);
    // The key comes from this workspace's own row: never from the request.
    const object = expense.receiptKey ? await c.env.FILES.get(expense.receiptKey) : null;
    if (!object) throw ApiError.notFound("receipt");
    const name = (expense.receiptName ?? `receipt-${id}`).replace(/["\\\r\n]/g, "_");
    return new Response(object.body, {
      status: 200,
      headers: {
        "Content-Type": expense.receiptContentType ?? "application/octet-stream",
        "Content-Length": String(object.size),
        "Content-Disposition": `inline; filename="${name}"`,
        "Cache-Control": "private, no-cache",
        "X-Content-Type-Options": "nosniff",
        // A PDF or an image shown inline can run nothing.
        "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
        ETag: object.httpEtag,
      },
    });
  })
  .openapi(remove, async (c) => {
    const { id } = c.req.valid("param");
    const tenant = tenantOf(c);
    const now = Date.now();
    const [cleared, [row]] = await tenant.batch([
      tenant
        .update(
          expenses,
          { receiptKey: null, receiptContentType: null, receiptSize: null, receiptName: null, receiptUploadedAt: null, updatedAt: now },
          eq(expenses.id, id),
          isNotNull(expenses.receiptKey),
        )
        .returning({ id: expenses.id }),
      readBack(expenseResource, tenant, id),
    ]);
    if (!row) throw ApiError.notFound("expense");
    if (cleared.length === 0) throw ApiError.notFound("receipt");
    await c.env.FILES.delete(keyOf(tenant, id));
    return c.json({ success: true as const, data: toExpense(row as Parameters<typeof toExpense>[0]) }, 200);
  });
