import { describe, expect, it } from "vitest";
import { platform } from "../src/index";
import { call, expectError, signup } from "./helpers";

describe("request pipeline", () => {
  it("serves /health without auth and tags every response with X-Request-Id", async () => {
    const res = await call("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
    const echoed = await call("GET", "/health", { headers: { "x-request-id": "req-abc_123" } });
    expect(echoed.headers.get("x-request-id")).toBe("req-abc_123");
    const replaced = await call("GET", "/health", { headers: { "x-request-id": "bad id <script>" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("bad id <script>");
  });

  it("answers unknown routes and bad ids with not_found", async () => {
    expectError(await call("GET", "/nope"), 404, "not_found");
    const ws = await signup();
    for (const id of ["abc", "0", "-1", "1.5", "99999999999999999999"]) {
      expectError(await call("PUT", `/users/${id}`, { token: ws.token, body: { role: "viewer" } }), 404, "not_found");
    }
  });

  it("refuses malformed JSON, other content types, oversized bodies, unknown fields and query parameters", async () => {
    expectError(await call("POST", "/auth/token", { body: "{not json" }), 400, "invalid_json");
    expectError(
      await call("POST", "/auth/token", { body: "email=a", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
      "unsupported_media_type",
    );
    expectError(await call("POST", "/auth/token", { body: "{}", headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
    const big = JSON.stringify({ email: "a@b.co", password: "x".repeat(1024 * 1024) });
    expectError(await call("POST", "/auth/token", { body: big }), 413, "payload_too_large");

    const unknown = expectError(
      await call("POST", "/auth/token", { body: { email: "a@b.co", password: "0123456789", pasword: "typo" } }),
      400,
      "validation_error",
    );
    expect(unknown.details).toEqual([{ path: "pasword", message: "unknown field" }]);
    expect(unknown.message).toBe("pasword: unknown field");

    const ws = await signup();
    const query = expectError(await call("GET", "/me?verbose=1", { token: ws.token }), 400, "validation_error");
    expect(query.details).toEqual([{ path: "verbose", message: "unknown field" }]);

    const missing = expectError(await call("POST", "/auth/token", {}), 400, "validation_error");
    expect(missing.details).toContainEqual({ path: "email", message: "is required" });
    for (const body of ["[]", "null", "42", '"text"']) {
      expectError(await call("POST", "/auth/token", { body }), 400, "validation_error");
    }
  });

  it("never answers 500 to hostile input", async () => {
    const ws = await signup();
    const inputs: [string, string, unknown][] = [
      // biome-ignore lint/correctness/noPrecisionLoss: an out-of-range number is the hostile input under test.
      ["POST", "/users", { name: { $ne: 1 }, email: ["a"], password: 1e309, role: "god" }],
      ["POST", "/users", "\u0000\u0001"],
      ["PUT", "/users/1", { role: null }],
      ["POST", "/api-tokens", { name: "x".repeat(5000), scopes: "write" }],
      ["POST", "/auth/signup", { workspace_name: "x", name: "y", email: "a@b.co", password: "p".repeat(2000) }],
      ["GET", "/users?%ZZ=1", undefined],
    ];
    for (const [method, path, body] of inputs) {
      const res = await call(method, path, { token: ws.token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
      expect(res.json.success).toBe(false);
      expect(res.text).not.toMatch(/SQLITE|D1_ERROR|at .*\.ts|stack/i);
    }
  });
});

describe("OpenAPI", () => {
  it("publishes an OpenAPI 3.1 document covering every route, with bearer auth and errors", async () => {
    const res = await call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    // Every route the worker serves under /api/v1 is documented (the document and its page aside).
    const served = platform.app.routes
      .filter((route) => route.method !== "ALL" && route.path.startsWith("/api/v1/"))
      .map((route) => `${route.method} ${route.path.slice("/api/v1".length).replace(/:(\w+)/g, "{$1}")}`)
      .filter((route) => !["GET /openapi.json", "GET /docs"].includes(route));
    expect(served.length).toBeGreaterThan(60);
    for (const route of new Set(served)) expect(operations, route).toContain(route);
    for (const expected of [
      "POST /invoices/{id}/send",
      "PUT /tasks/{id}/status",
      "GET /health/ready",
      "DELETE /payments/{id}",
      "PUT /packages/{name}",
      "POST /contacts/batch",
    ]) {
      expect(operations).toContain(expected);
    }
    // Every $ref resolves, every operation documents a success response and its path parameters.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, , section, name] = ref.slice(8, -1).split("/");
      expect(doc.components[section!]?.[name!], ref).toBeDefined();
    }
    const operationIds = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method} ${path}`;
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(operationIds.has(operation.operationId), `${where}: ${operation.operationId} is unique`).toBe(false);
        operationIds.add(operation.operationId);
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((status) => status.startsWith("2")),
          where,
        ).toBe(true);
        for (const parameter of (path.match(/\{(\w+)\}/g) ?? []).map((p) => p.slice(1, -1))) {
          expect(
            operation.parameters?.some((p: any) => p.in === "path" && p.name === parameter),
            `${where} documents {${parameter}}`,
          ).toBe(true);
        }
        // Only the errors it can return: no 403 on public routes but a package's switch, no 404 without a
        // path parameter but for a key in the body (the collector's site), 413/415 only with a body, 422
        // only on authenticated POSTs.
        const isPublic = operation.security.length === 0;
        if (isPublic && statuses.includes("403")) expect(operation.responses["403"].description, where).toMatch(/^`package_disabled`[^;]*$/);
        if (!path.includes("{") && statuses.includes("404")) expect(operation.requestBody, where).toBeDefined();
        if (!operation.requestBody) expect(statuses, where).not.toContain("413");
        if (method !== "post" || isPublic) expect(statuses, where).not.toContain("422");
        // Probes and the document itself are served before the rate limiter.
        if (path.startsWith("/health") || path === "/openapi.json") continue;
        expect(statuses, where).toContain("429");
        expect(operation.responses["429"].headers["Retry-After"], where).toBeDefined();
        for (const status of statuses) expect(operation.responses[status].headers?.["X-Request-Id"], `${where} ${status}`).toBeDefined();
        if (method === "post" && !isPublic) {
          expect(
            operation.parameters.map((p: any) => p.$ref),
            where,
          ).toContain("#/components/parameters/IdempotencyKey");
          expect(operation.responses[statuses.find((s) => s.startsWith("2"))!].headers["Idempotent-Replayed"], where).toBeDefined();
        }
      }
    }
    expect(operationIds).toContain("listContacts");
    expect(operationIds).toContain("createInvoice");
    expect(operationIds).toContain("sendInvoice");
    expect(doc.paths["/contacts"].get.responses["409"]).toBeUndefined();
    expect(doc.paths["/auth/token"].post.responses["401"]).toBeDefined();
    expect(doc.paths["/me"].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/auth/token"].post.security).toEqual([]);
    expect(doc.paths["/me"].get.responses["401"].content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
    // Tags carry descriptions; webhook payloads are documented; no internal wording.
    for (const tag of doc.tags) expect(tag.description.length, tag.name).toBeGreaterThan(20);
    expect(Object.keys(doc.webhooks).sort()).toEqual(
      [
        "deal.stage_changed",
        "employee.onboarded",
        "expense.approved",
        "expense.created",
        "invoice.created",
        "invoice.sent",
        "invoice.viewed",
        "leave.approved",
        "payment.received",
        "quote.accepted",
        "quote.created",
        "quote.declined",
        "quote.sent",
        "subscription.updated",
        "task.completed",
        "ticket.created",
        "ticket.resolved",
        "webhook.test",
      ].sort(),
    );
    expect(doc.webhooks["invoice.created"].post.requestBody.content["application/json"].schema.$ref).toMatch(/Event_InvoiceCreated$/);
    expect(JSON.stringify(doc)).not.toMatch(/brief|API\.md|\.\.\/shared/i);
  });

  it("serves a reference page that loads only its own scripts, by nonce", async () => {
    const page = await call("GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const csp = page.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    const scripts = page.text.match(/<script[^>]*>/g)!;
    expect(scripts).toHaveLength(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(page.text).toContain('src="/vendor/scalar/standalone.js"');
    expect(page.text).toContain('"url":"/api/v1/openapi.json"');
    expect(page.text).not.toMatch(/https?:\/\//);
    expect((await call("GET", "/docs")).headers.get("content-security-policy")).not.toContain(nonce);
  });
});
