import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { routersOf } from "../src/platform/create";
import { sha256Hex } from "../src/platform/crypto";
import { call, create, freshIp, setPlan, signup, type Workspace } from "./helpers";

/**
 * The OpenAPI document as an integrator reads it: every operation described, every request body with an
 * example, and every example accepted by the API. Examples name records by id; a record an example names
 * exists in its workspace as ids 1 and 2 of nothing, so the test maps them onto a workspace holding one
 * (id 1 → the first, id 2 → a spare) of every kind. That mapping is the only change made to an example.
 */
type Operation = {
  operationId: string;
  description?: string;
  requestBody?: { content: Record<string, { schema?: Schema; example?: unknown }> };
  parameters?: Param[];
};
type Schema = { $ref?: string; example?: unknown; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; type?: unknown };
type Param = { name: string; in: string; schema?: Schema & { $ref?: string }; example?: unknown; $ref?: string; style?: string; explode?: boolean };

type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema>; parameters?: Record<string, Param> } };

// Read once, before the tests are named (one test per operation below).
const doc: Document = await (
  await exports.default.fetch(new Request("http://127.0.0.1:8787/api/v1/openapi.json", { headers: { "cf-connecting-ip": freshIp() } }))
).json();

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));

const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()!] : schema);

function exampleOf(op: Operation): unknown {
  const media = op.requestBody?.content["application/json"];
  return media?.example ?? media?.schema?.example ?? resolve(media?.schema)?.example;
}

// Signature-authenticated chat webhooks: their bodies are the chat platform's, valid only with a signature over them.
// Stripe's webhook likewise: its body is a Stripe event, valid only signed with the workspace's secret (test/invoicing.test.ts).
const SIGNED_INBOUND = new Set(["receiveSlackMessage", "receiveTeamsMessage", "receiveTelegramMessage", "receiveStripeEvent"]);

describe("the OpenAPI document describes every operation", () => {
  it("every operation has a description", () => {
    const missing = operations()
      .filter(({ op }) => !op.description || op.description.trim().length < 20)
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing).toEqual([]);
  });

  it("every JSON request body has an example", () => {
    const missing = operations()
      .filter(({ op }) => op.requestBody?.content["application/json"] && exampleOf(op) === undefined)
      .map(({ op }) => op.operationId);
    expect(missing).toEqual([]);
  });

  it("filters with fixed values are enums (comma lists as arrays), and so are webhook event types", () => {
    const param = (path: string, name: string) => {
      const params = (doc.paths[path]!.get!.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters![p.$ref.split("/").pop()!]! : p));
      return params.find((p) => p.name === name)!;
    };
    for (const [path, name, value] of [
      ["/invoices", "status", "paid"],
      ["/deals", "stage", "negotiation"],
      ["/tasks", "priority", "urgent"],
      ["/employees", "status", "left"],
    ] as const) {
      const p = param(path, name);
      expect(p.schema?.type, `${path} ${name}`).toBe("array");
      expect(p.schema?.items?.enum, `${path} ${name}`).toContain(value);
      expect(p.explode).toBe(false);
    }
    const endpoint = resolve({ $ref: "#/components/schemas/CreateWebhookEndpoint" })!;
    expect(endpoint.properties!.events!.items!.enum).toEqual(expect.arrayContaining(["*", "invoice.created", "deal.stage_changed"]));
  });

  it("a batch names the resource's own create and update schemas", () => {
    const batch = doc.paths["/contacts/batch"]!.post!;
    const schema = JSON.stringify(resolve(batch.requestBody!.content["application/json"]!.schema));
    expect(schema).toContain("#/components/schemas/CreateContact");
    expect(schema).toContain("#/components/schemas/UpdateContact");
  });

  it("/openapi.json describes itself", () => {
    expect(doc.paths["/openapi.json"]?.get?.operationId).toBe("getOpenApiDocument");
  });
});

/** A workspace with two of everything an example can name (first: id 1 of examples, spare: id 2). */
type Fixture = { ws: Workspace; ids: Record<string, [number, number]>; siteKey: string; memberId: number; ownerId: number };

async function fixture(): Promise<Fixture> {
  const ws = await signup("Examples Ltd");
  await setPlan(ws, "enterprise");
  const me = (await call("GET", "/me", { token: ws.token })).json.data;
  const ids: Record<string, [number, number]> = {};
  const two = async (resource: string, body: (i: number) => Record<string, unknown>) => {
    const first = await create(ws, resource, body(1));
    const spare = await create(ws, resource, body(2));
    ids[resource] = [first.id, spare.id];
  };
  await two("contacts", (i) => ({ name: `Fixture Contact ${i}`, email: `fixture-contact-${i}@example.net` }));
  await two("customers", (i) => ({ name: `Fixture Customer ${i}`, email: `billing-${i}@example.net` }));
  await two("employees", (i) => ({ name: `Fixture Employee ${i}`, email: `fixture-employee-${i}@example.net` }));
  await two("leads", (i) => ({ name: `Fixture Lead ${i}`, email: `fixture-lead-${i}@example.net` }));
  await two("deals", (i) => ({ name: `Fixture Deal ${i}`, value: 100000 }));
  await two("projects", (i) => ({ name: `Fixture Project ${i}` }));
  await two("tasks", (i) => ({ title: `Fixture Task ${i}`, project_id: ids.projects![0] }));
  await two("job-openings", (i) => ({ title: `Fixture Opening ${i}`, positions: 5 }));
  await two("candidates", (i) => ({ name: `Fixture Candidate ${i}`, email: `fixture-candidate-${i}@example.net`, job_opening_id: ids["job-openings"]![0] }));
  await two("time-entries", (i) => ({ employee_id: ids.employees![0], task_id: ids.tasks![0], date: "2026-11-02", minutes: 30 * i }));
  // Invoices: the first a draft (editable, sendable), the spare sent with a large balance (payments).
  const line = { description: "Consulting", quantity: 10, unit_amount: 100000 };
  const draft = await create(ws, "invoices", { customer_id: ids.customers![0], items: [line] });
  const sent = await create(ws, "invoices", { customer_id: ids.customers![0], items: [line] });
  expect((await call("POST", `/invoices/${sent.id}/send`, { token: ws.token, body: {} })).status).toBe(200);
  ids.invoices = [draft.id, sent.id];
  await two("products", (i) => ({ name: `Fixture Product ${i}`, sku: `FIX-${i}`, unit_amount: 1000 * i }));
  await two("quotes", (i) => ({ customer_id: ids.customers![0], items: [{ product_id: ids.products![0], quantity: i }] }));
  await two("vendors", (i) => ({ name: `Fixture Vendor ${i}`, currency: "USD" }));
  await two("expenses", (i) => ({ category: "Travel", amount: 1000 * i, date: "2026-11-02", vendor_id: ids.vendors![0] }));
  await two("attendance", (i) => ({ employee_id: ids.employees![0], date: `2026-11-0${i + 1}`, clock_in: "09:00", clock_out: "17:00" }));
  await two("leave-types", (i) => ({ name: `Fixture Leave ${i}`, days_per_year: 20 }));
  await two("holidays", (i) => ({ date: `2026-05-0${i}`, name: `Fixture Holiday ${i}` }));
  await two("leave-requests", (i) => ({
    employee_id: ids.employees![0],
    leave_type_id: ids["leave-types"]![0],
    start_date: `2026-11-0${i + 1}`,
    end_date: `2026-11-0${i + 1}`,
  }));
  await two("tickets", (i) => ({ subject: `Fixture Ticket ${i}`, email: `fixture-requester-${i}@example.net` }));
  const payment = await create(ws, "payments", { invoice_id: sent.id, amount: 100 });
  ids.payments = [payment.id, payment.id];
  const webhook = (await call("POST", "/webhooks", { token: ws.token, body: { url: "https://hooks.example.net/in", events: ["*"] } })).json.data;
  // Switched off: nothing is delivered to it while the examples run.
  await call("PUT", `/webhooks/${webhook.id}`, { token: ws.token, body: { enabled: false } });
  ids.webhooks = [webhook.id, webhook.id];
  const member = (
    await call("POST", "/users", {
      token: ws.token,
      body: { name: "Member", email: `member-${ws.workspaceId}@example.net`, password: "member password 1", role: "member" },
    })
  ).json.data;
  ids.users = [member.id, member.id];
  const site = (await call("POST", "/analytics/sites", { token: ws.token, body: { domain: "shop.example.com" } })).json.data;
  ids["analytics/sites"] = [site.id, site.id];
  return { ws, ids, siteKey: site.site_key, memberId: member.id, ownerId: me.user.id };
}

/** The resource whose id a `*_id` body field names. */
const REFERENCE: Record<string, string> = {
  customer_id: "customers",
  contact_id: "contacts",
  project_id: "projects",
  task_id: "tasks",
  employee_id: "employees",
  assignee_id: "employees",
  job_opening_id: "job-openings",
  invoice_id: "invoices",
  product_id: "products",
  vendor_id: "vendors",
  ticket_id: "tickets",
  leave_type_id: "leave-types",
  acts_as_user_id: "users",
};

/** The example with the ids it names mapped onto the fixture's rows; nothing else changes. */
function mapIds(value: unknown, f: Fixture, resource: string | undefined, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapIds(item, f, resource, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapIds(v, f, resource, k)]));
  if (typeof value === "number" && key) {
    if (key === "invoice_id") return f.ids.invoices![1]; // payments go to the sent invoice
    if (key === "acts_as_user_id") return f.ownerId;
    const target = key === "id" ? resource : REFERENCE[key];
    if (target && f.ids[target] && (value === 1 || value === 2)) return f.ids[target]![value - 1];
  }
  if (typeof value === "string" && key === "site") return f.siteKey;
  return value;
}

/** Path parameters: {id} is the first row of the path's resource; other parameters take their documented example. */
function fillPath(path: string, op: Operation, f: Fixture): string {
  const resource = path.split("/{")[0]!.slice(1);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "id") return String(f.ids[resource]?.[0] ?? f.ids[resource.split("/")[0]!]?.[0]);
    const param = (op.parameters ?? []).find((p) => p.name === name);
    return String(param?.example ?? param?.schema?.example);
  });
}

/** What an example needs first, besides the fixture (the state its operation acts on). */
const SETUP: Record<string, (f: Fixture, example: Record<string, unknown>) => Promise<unknown>> = {
  // Someone clocked in, to clock out.
  clockOut: (f) => call("POST", "/attendance/clock-in", { token: f.ws.token, body: { employee_id: f.ids.employees![0] } }),
  createSessionToken: (f, example) =>
    call("POST", "/users", { token: f.ws.token, body: { name: "Demo", email: example.email, password: example.password, role: "admin" } }),
  // The code /link would have given this workspace's chat account (stored by its hash, as the bot stores it).
  linkChatAccount: async (f, example) => {
    const code = String(example.code)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "");
    const hash = await sha256Hex(code);
    await env.DB.prepare(
      "INSERT OR REPLACE INTO chat_link_codes (code_hash, workspace_id, provider, chat_user_id, chat_user_name, expires_at) VALUES (?, ?, 'telegram', '42', 'ada', ?)",
    )
      .bind(hash, f.ws.workspaceId, Date.now() + 600_000)
      .run();
  },
  createSsoToken: async (f, example) => {
    await call("PUT", `/sso/apps/${example.app}`, { token: f.ws.token, body: { app_url: "https://pro.example.net/", enabled: true } });
    await call("POST", `/sso/apps/${example.app}/secret`, { token: f.ws.token });
  },
};

describe("every request example is accepted by the API", () => {
  const withBodies = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => op.requestBody?.content["application/json"] && !SIGNED_INBOUND.has(op.operationId))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

  it.each(withBodies.map((entry) => [entry.op.operationId, entry] as const))("%s", async (_, { path, method, op }) => {
    const f = await fixture();
    const example = exampleOf(op) as Record<string, unknown>;
    expect(example, "no example").toBeDefined();
    const resource = path
      .split("/{")[0]!
      .slice(1)
      .replace(/\/batch$/, "");
    const body = mapIds(example, f, resource);
    await SETUP[op.operationId]?.(f, body as Record<string, unknown>);
    const anonymous = path.startsWith("/auth/") || path === "/analytics/collect";
    const res = await call(method, fillPath(path, op, f), { token: anonymous ? undefined : f.ws.token, body });
    expect(res.status, `${method} ${path} with ${JSON.stringify(body)} → ${res.text}`).toBeLessThan(300);
    if (res.json?.data?.results) for (const result of res.json.data.results) expect(result.status ?? 200, JSON.stringify(result)).toBeLessThan(300);
  });
});

describe("nullable fields are documented as nullable", () => {
  it("every body field that accepts null says so (customers.email among them)", async () => {
    const { platform } = await import("../src/index");
    const problems: string[] = [];
    for (const manifest of platform.registry.all) {
      for (const router of routersOf(manifest)) {
        for (const definition of router.openAPIRegistry.definitions) {
          if (definition.type !== "route") continue;
          const schema = (
            definition.route.request?.body?.content as
              | Record<string, { schema?: { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> } }>
              | undefined
          )?.["application/json"]?.schema;
          const documented =
            exampleOf(doc.paths[definition.route.path]?.[definition.route.method] ?? ({} as Operation)) !== undefined
              ? doc.paths[definition.route.path]![definition.route.method]!
              : undefined;
          if (!schema?.shape || !documented) continue;
          const media = documented.requestBody!.content["application/json"]!;
          const properties = resolve(media.schema)?.properties ?? {};
          for (const [field, zod] of Object.entries(schema.shape)) {
            if (!zod.safeParse(null).success) continue;
            const type = properties[field]?.type;
            if (!(Array.isArray(type) && type.includes("null"))) problems.push(`${definition.route.method} ${definition.route.path} ${field}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    const customer = resolve({ $ref: "#/components/schemas/CreateCustomer" })!;
    expect(customer.properties!.email!.type).toEqual(["string", "null"]);
  });
});
