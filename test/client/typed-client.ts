// A client an integrator would write: types generated from /openapi.json by openapi-typescript, calls
// made with openapi-fetch. scripts/openapi-check.mjs type-checks this file and runs it against the worker.
import createClient from "openapi-fetch";
import type { paths } from "../../dist/openapi/schema";

declare const process: { argv: string[] };
const baseUrl = process.argv[2] ?? "http://127.0.0.1:8787/api/v1";
const api = createClient<paths>({ baseUrl });

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`typed client: ${message}`);
}

const signup = await api.POST("/auth/signup", {
  body: { workspace_name: "Typed Inc", name: "Typed Owner", email: `typed-${Date.now()}@example.com`, password: "typed-password-123" },
});
check(signup.data, `signup failed: ${JSON.stringify(signup.error)}`);
const headers = { authorization: `Bearer ${signup.data.data.token}` };

const created = await api.POST("/contacts", { headers, body: { name: "Ada Lovelace", email: "ada@example.com", company: "Analytical" } });
check(created.data, `create contact failed: ${JSON.stringify(created.error)}`);
const contactId: number = created.data.data.id;

const page = await api.GET("/contacts", { headers, params: { query: { limit: 10, sort: "-created_at", q: "ada" } } });
check(page.data?.data.length === 1 && page.data.data[0]?.id === contactId, "the list finds the contact");
check(page.response.headers.get("x-ratelimit-limit") !== null, "rate-limit headers are present");

const missing = await api.GET("/contacts/{id}", { headers, params: { path: { id: 999_999 } } });
check(missing.error?.error.code === "not_found", "a missing contact is a typed 404 error");

// An action with an optional body, sent with none (openapi-fetch sends no body at all).
const customer = await api.POST("/customers", { headers, body: { name: "Initech", email: "ap@initech.example" } });
check(customer.data, "create customer");
const invoice = await api.POST("/invoices", {
  headers,
  body: { customer_id: customer.data.data.id, items: [{ description: "Consulting", quantity: 2, unit_amount: 12_550, tax_rate: 20 }] },
});
check(invoice.data?.data.total === 30_120, `invoice total: ${JSON.stringify(invoice.data ?? invoice.error)}`);
const sent = await api.POST("/invoices/{id}/send", { headers, params: { path: { id: invoice.data.data.id } } });
check(sent.data?.data.status === "sent" && sent.data.data.sent_to === "ap@initech.example", `send without a body: ${JSON.stringify(sent.error)}`);

console.log(`typed client: signup, contacts, a typed 404, an invoice of ${invoice.data.data.total} minor units sent to ${sent.data.data.sent_to}`);
