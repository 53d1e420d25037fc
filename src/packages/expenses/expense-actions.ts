import { eq, inArray, sql } from "drizzle-orm";
import { access } from "../../platform/auth/permissions";
import { ApiError } from "../../platform/errors";
import { recordEvent } from "../../platform/events";
import { newRouter } from "../../platform/http/router";
import { defineRoute, envelope, IdParam, jsonContent } from "../../platform/openapi";
import { rowJson } from "../../platform/resource/row-json";
import { readBack } from "../../platform/resource/writes";
import { type Tenant, tenantOf } from "../../platform/tenancy";
import { EXPENSE_NEXT, Expense, expenseResource, toExpense } from "./expenses";
import { type ExpenseStatus, expenses } from "./schema";

const tags = ["Expenses"];
type Action = keyof typeof EXPENSE_NEXT;

const SUMMARIES: Record<Action, string> = {
  approve: "Approve an expense (admins)",
  reject: "Reject an expense (admins)",
  reimburse: "Mark an approved expense reimbursed (admins)",
};

const route = (action: Action) =>
  defineRoute(access.admin, {
    method: "post",
    path: `/expenses/{id}/${action}`,
    operationId: `${action}Expense`,
    errors: ["invalid_transition"],
    tags,
    summary: SUMMARIES[action],
    description: `From ${EXPENSE_NEXT[action].from.join(" or ")} to ${EXPENSE_NEXT[action].to}; anything else → 409 invalid_transition (details name the states it works from). Admins and owners only (a member → 403).${action === "approve" ? " Fires expense.approved." : ""}`,
    request: { params: IdParam },
    responses: { 200: jsonContent(envelope(Expense), `The ${EXPENSE_NEXT[action].to} expense`) },
  });

/** One guarded UPDATE (and its event, only if it applied) in one batch; why it did not apply is read after. */
async function move(tenant: Tenant, id: number, action: Action) {
  const { from, to } = EXPENSE_NEXT[action];
  const now = Date.now();
  const mine = tenant.scope(expenses, eq(expenses.id, id));
  const update = tenant.update(expenses, { status: to, updatedAt: now }, eq(expenses.id, id), inArray(expenses.status, from)).returning({ id: expenses.id });
  const approved = recordEvent(
    tenant,
    { type: "expense.approved", dataSql: sql`(SELECT ${rowJson(expenseResource)} FROM ${expenses} WHERE ${mine})`, onlyIfChanged: true },
    now,
  );
  const results = await tenant.batch([update, ...(action === "approve" ? [approved] : []), readBack(expenseResource, tenant, id)]);
  const moved = results[0] as { id: number }[];
  const [row] = results.at(-1) as Record<string, unknown>[];
  if (!row) throw ApiError.notFound("expense");
  if (moved.length === 0) {
    const status = (row as { status: ExpenseStatus }).status;
    const message = `Cannot ${action} an expense that is ${status}`;
    throw new ApiError("invalid_transition", message, { details: [{ path: "status", message, from: status, to, allowed_from: from }] });
  }
  return toExpense(row as Parameters<typeof toExpense>[0]);
}

export const expenseActionRoutes = newRouter()
  .openapi(route("approve"), async (c) => c.json({ success: true as const, data: await move(tenantOf(c), c.req.valid("param").id, "approve") }, 200))
  .openapi(route("reject"), async (c) => c.json({ success: true as const, data: await move(tenantOf(c), c.req.valid("param").id, "reject") }, 200))
  .openapi(route("reimburse"), async (c) => c.json({ success: true as const, data: await move(tenantOf(c), c.req.valid("param").id, "reimburse") }, 200));
