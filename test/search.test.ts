import { describe, expect, it } from "vitest";
import { call, create, env, expectError, setPlan, shardOf, signup, type Workspace } from "./helpers";

const find = async (ws: { token: string }, q: string) => {
  const res = await call("GET", `/search?q=${encodeURIComponent(q)}`, { token: ws.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { resource: string; id: number; label: string; snippet: string }[];
};

/** Two workspaces, one on each shard: the index lives on every shard. */
async function onBothShards(): Promise<Workspace[]> {
  const found = new Map<string, Workspace>();
  while (found.size < 2) {
    const ws = await signup();
    const { name } = await shardOf(ws.workspaceId);
    if (!found.has(name)) found.set(name, ws);
  }
  return [...found.values()];
}

describe("the search index (FTS5, kept by triggers)", () => {
  it("finds a record as soon as it is written, follows its updates, and forgets it when it is deleted", async () => {
    const ws = await signup();
    const contact = await create(ws, "contacts", { name: "Zénobie Quartermaine", email: "zq@umbrella.example", company: "Umbrella" });
    // Prefixes, any case, accents ignored; the e-mail and company are searched too.
    expect(await find(ws, "zeno quarter")).toEqual([{ resource: "contacts", id: contact.id, label: "Zénobie Quartermaine", snippet: "" }]);
    expect((await find(ws, "umbrel"))[0]).toMatchObject({ id: contact.id, snippet: "zq@umbrella.example Umbrella" });
    await call("PUT", `/contacts/${contact.id}`, { token: ws.token, body: { name: "Zora Quill" } });
    expect(await find(ws, "zenobie")).toEqual([]);
    expect((await find(ws, "zora"))[0]?.id).toBe(contact.id);
    await call("DELETE", `/contacts/${contact.id}`, { token: ws.token });
    expect(await find(ws, "zora")).toEqual([]);

    // A soft-deleted task leaves the index and is back when restored.
    const project = await create(ws, "projects", { name: "Xylophone launch" });
    const task = await create(ws, "tasks", { title: "Tune the xylophone", project_id: project.id });
    expect((await find(ws, "xylophone")).map((hit) => hit.resource).sort()).toEqual(["projects", "tasks"]);
    await call("DELETE", `/tasks/${task.id}`, { token: ws.token });
    expect((await find(ws, "xylophone")).map((hit) => hit.resource)).toEqual(["projects"]);
    await call("POST", `/tasks/${task.id}/restore`, { token: ws.token });
    expect((await find(ws, "tune xylo"))[0]?.id).toBe(task.id);

    // An invoice by its number, written by the create statement itself.
    const customer = await create(ws, "customers", { name: "Initrode" });
    const invoice = await create(ws, "invoices", { customer_id: customer.id, items: [{ description: "x", quantity: 1, unit_amount: 1 }] });
    expect((await find(ws, invoice.number)).map((hit) => [hit.resource, hit.id])).toContainEqual(["invoices", invoice.id]);
  });

  it("keeps each workspace's records to itself, on either shard", async () => {
    const [first, second] = await onBothShards();
    for (const ws of [first!, second!]) await create(ws, "contacts", { name: `Quetzal ${ws.workspaceId}`, email: `quetzal-${ws.workspaceId}@example.com` });
    for (const ws of [first!, second!]) {
      const hits = await find(ws, "quetzal");
      expect(hits.map((hit) => hit.label)).toEqual([`Quetzal ${ws.workspaceId}`]);
    }
    // Each shard's index holds only its own workspaces' rows.
    for (const ws of [first!, second!]) {
      const { db } = await shardOf(ws.workspaceId);
      const rows = await db.prepare("SELECT ws FROM search_index WHERE search_index MATCH 'label : quetzal'").all<{ ws: string }>();
      expect(rows.results.map((row) => row.ws)).toEqual([`w${ws.workspaceId}`]);
    }
  });

  it("searches only what the caller may read, whose package is on; words are never query syntax", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    await create(ws, "contacts", { name: "Wolfram Contact", email: "wolfram@example.com" });
    await create(ws, "employees", { name: "Wolfram Employee", email: "wolfram.e@example.com" });
    expect((await find(ws, "wolfram")).map((hit) => hit.resource).sort()).toEqual(["contacts", "employees"]);
    const token = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "contacts only", scopes: ["contacts:read"] } })).json.data.token;
    expect((await find({ token }, "wolfram")).map((hit) => hit.resource)).toEqual(["contacts"]);
    for (const name of ["quotes", "helpdesk"]) await call("PUT", `/packages/${name}`, { token: ws.token, body: { enabled: false } }); // both need sales
    await call("PUT", "/packages/sales", { token: ws.token, body: { enabled: false } });
    expect((await find(ws, "wolfram")).map((hit) => hit.resource)).toEqual(["employees"]);
    expect(await find(ws, 'wolfram" OR ws : * NOT "')).toEqual([]);
    expect(await find(ws, "AND OR NOT")).toEqual([]);
    expectError(await call("GET", "/search?q=", { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", `/search?q=${"x".repeat(201)}`, { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", "/search?q=a&limit=51", { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", "/search?q=a"), 401, "unauthorized");
  });

  it("answers a search on 2,000 contacts from the index: the MATCH plan, not a scan of contacts", async () => {
    const ws = await signup();
    const { db } = await shardOf(ws.workspaceId);
    const plan = await db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT resource, record_id FROM search_index WHERE search_index MATCH ? AND resource IN ('contacts') ORDER BY bm25(search_index) LIMIT 20",
      )
      .bind(`ws : "w${ws.workspaceId}" AND {label body} : ("ada"*)`)
      .all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join(" ")).toMatch(/VIRTUAL TABLE INDEX/);
    expect(env).toBeTruthy();
  });
});

describe("a record's timeline and lists by id", () => {
  it("GET /{resource}/{id}/events lists the record's events newest first; another workspace's record is 404", async () => {
    const ws = await signup();
    const deal = await create(ws, "deals", { name: "Timeline", value: 10 });
    await call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { stage: "proposal" } });
    await call("PUT", `/deals/${deal.id}`, { token: ws.token, body: { stage: "won" } });
    const events = await call("GET", `/deals/${deal.id}/events`, { token: ws.token });
    expect(events.status, events.text).toBe(200);
    expect(events.json.data.map((event: { type: string; previous_attributes: unknown }) => [event.type, event.previous_attributes])).toEqual([
      ["deal.stage_changed", { stage: "proposal" }],
      ["deal.stage_changed", { stage: "initial_contact" }],
    ]);
    const contact = await create(ws, "contacts", { name: "No events", email: "none@example.com" });
    expect((await call("GET", `/contacts/${contact.id}/events`, { token: ws.token })).json.data).toEqual([]);
    const other = await signup();
    expectError(await call("GET", `/deals/${deal.id}/events`, { token: other.token }), 404, "not_found");
    expectError(await call("GET", "/deals/999999999/events", { token: ws.token }), 404, "not_found");
  });

  it("?ids= returns just those records (up to 100), and refuses a malformed list", async () => {
    const ws = await signup();
    const made = await Promise.all([1, 2, 3].map((n) => create(ws, "contacts", { name: `Id ${n}`, email: `id${n}-${ws.workspaceId}@example.com` })));
    const picked = await call("GET", `/contacts?ids=${made[0].id},${made[2].id}`, { token: ws.token });
    expect(picked.json.data.map((row: { id: number }) => row.id).sort()).toEqual([made[0].id, made[2].id].sort());
    const other = await signup();
    expect((await call("GET", `/contacts?ids=${made[0].id}`, { token: other.token })).json.data).toEqual([]);
    expectError(await call("GET", "/contacts?ids=1,x", { token: ws.token }), 400, "validation_error");
    expectError(await call("GET", `/contacts?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`, { token: ws.token }), 400, "validation_error");
    // A full 100 ids with other filters stays within D1's 100 bound variables (the list is one JSON value).
    const hundred = Array.from({ length: 100 }, (_, i) => made[0].id + i).join(",");
    const full = await call("GET", `/contacts?ids=${hundred}&q=a&created_after=2020-01-01T00:00:00Z&limit=100`, { token: ws.token });
    expect(full.status, full.text).toBe(200);
  });

  it("?expand= adds the referenced records by name, read in the same statement, and needs the caller's read of them", async () => {
    const ws = await signup();
    const customer = await create(ws, "customers", { name: "Expand Co" });
    const linked = await create(ws, "deals", { name: "Linked", customer_id: customer.id });
    const bare = await create(ws, "deals", { name: "Bare" });
    const list = await call("GET", "/deals?expand=customer_id,contact_id&sort=id", { token: ws.token });
    expect(list.status, list.text).toBe(200);
    const byId = Object.fromEntries(list.json.data.map((deal: { id: number }) => [deal.id, deal]));
    expect(byId[linked.id]).toMatchObject({ customer_id: customer.id, customer: { id: customer.id, label: "Expand Co" }, contact: null });
    expect(byId[bare.id]).toMatchObject({ customer: null, contact: null });
    expect((await call("GET", "/deals", { token: ws.token })).json.data[0]).not.toHaveProperty("customer");
    expectError(await call("GET", "/deals?expand=stage", { token: ws.token }), 400, "validation_error");
    const dealsOnly = (await call("POST", "/api-tokens", { token: ws.token, body: { name: "deals", scopes: ["deals:read"] } })).json.data.token;
    const refused = expectError(await call("GET", "/deals?expand=customer_id", { token: dealsOnly }), 403, "forbidden");
    expect(refused.details[0]).toMatchObject({ path: "expand", missing_scope: "customers:read" });
  });

  it("an atomic batch refused for a taken value names the operations that hold it", async () => {
    const ws = await signup();
    await create(ws, "contacts", { name: "Taken", email: "taken-batch@example.com" });
    const res = await call("POST", "/contacts/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "create", data: { name: "A", email: "a-batch@example.com" } },
          { op: "create", data: { name: "B", email: "taken-batch@example.com" } },
          { op: "create", data: { name: "C", email: "c-batch@example.com" } },
        ],
      },
    });
    const error = expectError(res, 409, "conflict");
    expect(error.details).toEqual([{ index: 1, path: "operations.1.data.email", message: "already used by another contact" }]);
    expect((await call("GET", "/contacts", { token: ws.token })).json.data).toHaveLength(1);
  });
});
