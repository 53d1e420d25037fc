import { describe, expect, it } from "vitest";
import { call, create, setPlan, signup, userWithRole } from "./helpers";

/** error.details is always a list of {path, message, …facts}, whatever the code. */
describe("error details", () => {
  it("is an array of {path, message} for every kind of refusal", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    const viewer = await userWithRole(ws, "viewer");
    const reader = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "reader", scopes: ["contacts:read"] } })).json.data.token;
    const customer = await create(ws, "customers", { name: "Shape Co", email: "ap@shape.example" });
    const invoice = await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "A", quantity: 1, unit_amount: 100 }] });
    await call("POST", `/invoices/${invoice.id}/void`, { token: ws.token });
    const deal = await create(ws, "deals", { name: "D", stage: "won" });
    expect((await call("PUT", "/packages/recruitment", { token: ws.token, body: { enabled: false } })).status).toBe(200);
    const refusals = [
      await call("POST", "/contacts", { token: ws.token, body: { name: "" } }),
      await call("POST", "/contacts", { token: viewer, body: { name: "A", email: "a@example.com" } }),
      await call("POST", "/contacts", { token: reader, body: { name: "A", email: "a@example.com" } }),
      await call("POST", `/invoices/${invoice.id}/send`, { token: ws.token }),
      await call("POST", "/payments", { token: ws.token, body: { invoice_id: invoice.id, amount: 1 } }),
      await call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { stage: "lost" } }),
      await call("GET", "/job-openings", { token: ws.token }),
      await call("PUT", "/packages/timesheets", { token: ws.token, body: { enabled: true } }).then(async () =>
        call("PUT", "/packages/taskly", { token: ws.token, body: { enabled: false } }),
      ),
      await call("PUT", "/packages/hrm", { token: ws.token, body: { enabled: false } }),
    ];
    for (const res of refusals) {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      const details = res.json.error.details;
      expect(Array.isArray(details), res.text).toBe(true);
      for (const detail of details) {
        expect(typeof detail.path, res.text).toBe("string");
        expect(typeof detail.message, res.text).toBe("string");
      }
    }
  });
});
