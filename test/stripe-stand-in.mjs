// A local HTTP server standing in for Stripe's API (https://api.stripe.com), for tests only: the worker's
// Stripe SDK is pointed at it through STRIPE_API_BASE. It answers POST /v1/checkout/sessions, and checks
// the request the SDK sends — the secret key, the amount, currency and metadata — refusing anything else
// the way Stripe does (a 400 with Stripe's error shape), so a test sees a wrong request as a failure.
import { createServer } from "node:http";

const KEY = /^Bearer (sk|rk)_test_[A-Za-z0-9]+$/;

function refuse(response, status, message) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: { type: "invalid_request_error", message } }));
}

export async function startStripeStandIn() {
  let sessions = 0;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/checkout/sessions")
        return refuse(response, 404, `Unrecognized request URL (${request.method}: ${request.url})`);
      if (!KEY.test(request.headers.authorization ?? "")) return refuse(response, 401, "Invalid API Key provided");
      if (!String(request.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) return refuse(response, 400, "form encoding expected");
      const form = new URLSearchParams(body);
      const need = [
        "mode",
        "line_items[0][price_data][currency]",
        "line_items[0][price_data][unit_amount]",
        "line_items[0][quantity]",
        "metadata[workspace_id]",
        "metadata[invoice_id]",
        "client_reference_id",
        "success_url",
        "cancel_url",
      ];
      const missing = need.filter((name) => !form.get(name));
      if (missing.length > 0) return refuse(response, 400, `Missing required param: ${missing[0]}`);
      if (form.get("mode") !== "payment") return refuse(response, 400, "mode must be payment");
      if (form.get("client_reference_id") !== form.get("metadata[invoice_id]")) return refuse(response, 400, "client_reference_id is not the invoice id");
      const amount = Number(form.get("line_items[0][price_data][unit_amount]"));
      if (!Number.isInteger(amount) || amount < 1) return refuse(response, 400, "unit_amount must be a positive integer");
      sessions += 1;
      const id = `cs_test_standin${sessions}`;
      const { address, port } = server.address();
      // The session's url echoes what was asked, so the test can see the request through the redirect.
      const url = `http://${address}:${port}/pay/${id}?${new URLSearchParams({
        amount: String(amount),
        currency: form.get("line_items[0][price_data][currency]"),
        workspace: form.get("metadata[workspace_id]"),
        invoice: form.get("metadata[invoice_id]"),
        email: form.get("customer_email") ?? "",
        success: form.get("success_url"),
      })}`;
      response.writeHead(200, { "content-type": "application/json", "request-id": `req_${sessions}` });
      response.end(
        JSON.stringify({
          id,
          object: "checkout.session",
          url,
          mode: "payment",
          amount_total: amount,
          currency: form.get("line_items[0][price_data][currency]"),
          payment_status: "unpaid",
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Never what keeps the test run's process alive.
  server.unref();
  const { port } = server.address();
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
