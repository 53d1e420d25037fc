import { describe, expect, it } from "vitest";
import { call, dbOf, env, expectError, setPlan, signup, type Workspace } from "./helpers";

const contact = (n: number | string, extra: Record<string, unknown> = {}) => ({ name: `Contact ${n}`, email: `c${n}@example.com`, ...extra });

async function createContacts(ws: Workspace, count: number, make: (i: number) => Record<string, unknown> = (i) => contact(i)) {
  for (let start = 0; start < count; start += 100) {
    const operations = Array.from({ length: Math.min(100, count - start) }, (_, k) => ({ op: "create", data: make(start + k) }));
    const res = await call("POST", "/contacts/batch", { token: ws.token, body: { operations } });
    expect(res.status, res.text).toBe(200);
  }
}

async function walk(ws: Workspace, query: string, between?: (page: number) => Promise<void>) {
  const seen: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const res = await call("GET", `/contacts?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token: ws.token });
    expect(res.status, res.text).toBe(200);
    seen.push(...res.json.data);
    if (!res.json.meta.has_more) {
      expect(res.json.meta.next_cursor).toBeNull();
      return seen;
    }
    cursor = res.json.meta.next_cursor;
    await between?.(page);
  }
  throw new Error("cursor chain did not end");
}

describe("contacts CRUD", () => {
  it("creates, reads, updates (PUT and PATCH) and deletes a contact in the envelope", async () => {
    const ws = await signup();
    const created = await call("POST", "/contacts", {
      token: ws.token,
      body: { name: "Ada Lovelace", email: "Ada@Example.com", phone: "+441234567890", company: "Analytical" },
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      success: true,
      data: {
        id: expect.any(Number),
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "+441234567890",
        company: "Analytical",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.any(String),
      },
    });
    const id = created.json.data.id;
    expect((await call("GET", `/contacts/${id}`, { token: ws.token })).json.data).toEqual(created.json.data);

    const put = await call("PUT", `/contacts/${id}`, { token: ws.token, body: { company: "Babbage & Co" } });
    expect(put.status).toBe(200);
    expect(put.json.data).toMatchObject({ name: "Ada Lovelace", company: "Babbage & Co" });
    const patch = await call("PATCH", `/contacts/${id}`, { token: ws.token, body: { phone: null } });
    expect(patch.json.data).toMatchObject({ phone: null, company: "Babbage & Co" });

    const deleted = await call("DELETE", `/contacts/${id}`, { token: ws.token });
    expect(deleted.json).toEqual({ success: true, data: { id, deleted: true } });
    expectError(await call("GET", `/contacts/${id}`, { token: ws.token }), 404, "not_found");
    expectError(await call("DELETE", `/contacts/${id}`, { token: ws.token }), 404, "not_found");
    expectError(await call("PUT", `/contacts/${id}`, { token: ws.token, body: { name: "x" } }), 404, "not_found");
  });

  it("names each invalid field and writes nothing", async () => {
    const ws = await signup();
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "a@b.co" }, "name"],
      [{ name: "", email: "a@b.co" }, "name"],
      [{ name: "x".repeat(201), email: "a@b.co" }, "name"],
      [{ name: "A" }, "email"],
      [{ name: "A", email: "not-an-email" }, "email"],
      [{ name: "A", email: "a@b.co", phone: "0123" }, "phone"],
      [{ name: "A", email: "a@b.co", phone: "+0123" }, "phone"],
      [{ name: "A", email: "a@b.co", id: 5 }, "id"],
      [{ name: "A", email: "a@b.co", created_at: "2020-01-01T00:00:00Z" }, "created_at"],
      [{ name: "A", email: "a@b.co", nickname: "x" }, "nickname"],
      [{ name: 42, email: "a@b.co" }, "name"],
    ];
    for (const [body, path] of cases) {
      const error = expectError(await call("POST", "/contacts", { token: ws.token, body }), 400, "validation_error");
      expect(
        error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const count = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM contacts WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("answers a taken e-mail with 409 on create and update, never 500", async () => {
    const ws = await signup();
    await call("POST", "/contacts", { token: ws.token, body: contact(1) });
    const second = await call("POST", "/contacts", { token: ws.token, body: contact(2) });
    const error = expectError(await call("POST", "/contacts", { token: ws.token, body: { name: "Dup", email: "C1@example.com" } }), 409, "conflict");
    expect(error.details).toEqual([{ path: "email", message: "already used by another contact" }]);
    expectError(await call("PUT", `/contacts/${second.json.data.id}`, { token: ws.token, body: { email: "c1@example.com" } }), 409, "conflict");
    // The same e-mail in another workspace is fine.
    const other = await signup();
    expect((await call("POST", "/contacts", { token: other.token, body: contact(1) })).status).toBe(201);
  });

  it("requires contacts scopes for API tokens and write access for writes", async () => {
    const ws = await signup();
    const mint = async (scopes: string[]) => (await call("POST", "/api-tokens", { token: ws.token, body: { name: "t", scopes } })).json.data.token;
    const readOnly = await mint(["contacts:read"]);
    const otherResource = await mint(["employees:write"]);
    const writer = await mint(["contacts:write"]);
    expect((await call("GET", "/contacts", { token: readOnly })).status).toBe(200);
    expectError(await call("POST", "/contacts", { token: readOnly, body: contact(1) }), 403, "forbidden");
    expectError(await call("GET", "/contacts", { token: otherResource }), 403, "forbidden");
    expect((await call("POST", "/contacts", { token: writer, body: contact(1) })).status).toBe(201);
    expect((await call("GET", "/contacts", { token: writer })).status).toBe(200);
  });
});

describe("contacts lists", () => {
  it("pages through 1,000 contacts with limit=7 visiting each exactly once while rows are inserted", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    await createContacts(ws, 1000);
    const ids = new Set<number>(
      (await (await dbOf(ws.workspaceId)).prepare("SELECT id FROM contacts WHERE workspace_id = ?").bind(ws.workspaceId).all<{ id: number }>()).results.map(
        (r) => r.id,
      ),
    );
    expect(ids.size).toBe(1000);
    let inserted = 0;
    const seen = await walk(ws, "limit=7", async (page) => {
      if (page % 20 === 0) {
        inserted += 1;
        await call("POST", "/contacts", { token: ws.token, body: contact(`new-${inserted}`) });
      }
    });
    const seenIds = seen.map((c) => c.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    for (const id of ids) expect(seenIds).toContain(id);
    // Default sort is newest first, so the rows inserted during the walk are ahead of the cursor.
    expect(seenIds).toEqual([...seenIds].sort((a, b) => b - a));
  });

  it("keeps every sort order consistent across pages", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    // Duplicate names and created_at values exercise the id tie-breaker.
    await createContacts(ws, 60, (i) => ({ name: `Name ${String(i % 7).padStart(2, "0")}`, email: `s${i}@example.com` }));
    for (const sort of ["id", "-id", "name", "-name", "created_at", "-created_at"]) {
      const seen = await walk(ws, `limit=9&sort=${sort}`);
      expect(seen.length, sort).toBe(60);
      expect(new Set(seen.map((c) => c.id)).size, sort).toBe(60);
      const field = sort.replace("-", "");
      const keyed = seen.map((c) => [c[field], c.id]);
      const sorted = [...keyed].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      expect(keyed, sort).toEqual(sort.startsWith("-") ? sorted.reverse() : sorted);
    }
  });

  it("filters by email, company, q and created range, and counts only on request", async () => {
    const ws = await signup();
    await call("POST", "/contacts", { token: ws.token, body: { name: "Grace Hopper", email: "grace@navy.mil", company: "Navy" } });
    await call("POST", "/contacts", { token: ws.token, body: { name: "Alan Turing", email: "alan@bletchley.uk", company: "GCHQ" } });
    await call("POST", "/contacts", { token: ws.token, body: { name: "Joan Clarke", email: "joan@bletchley.uk", company: "GCHQ" } });
    const names = async (query: string) => {
      const res = await call("GET", `/contacts?${query}`, { token: ws.token });
      expect(res.status, res.text).toBe(200);
      return res.json.data.map((c: { name: string }) => c.name).sort();
    };
    expect(await names("email=GRACE@navy.mil")).toEqual(["Grace Hopper"]);
    expect(await names("company=GCHQ")).toEqual(["Alan Turing", "Joan Clarke"]);
    expect(await names("company=Navy,GCHQ")).toHaveLength(3);
    expect(await names("q=BLETCH")).toEqual(["Alan Turing", "Joan Clarke"]);
    expect(await names("q=hopp")).toEqual(["Grace Hopper"]);
    expect(await names("created_after=2000-01-01T00:00:00Z")).toHaveLength(3);
    expect(await names("created_before=2000-01-01T00:00:00Z")).toEqual([]);

    const plain = await call("GET", "/contacts?limit=2", { token: ws.token });
    expect(plain.json.meta).toEqual({ limit: 2, has_more: true, next_cursor: expect.any(String) });
    const counted = await call("GET", "/contacts?limit=2&include_total=true&company=GCHQ", { token: ws.token });
    expect(counted.json.meta).toEqual({ limit: 2, has_more: false, next_cursor: null, total: 2 });
  });

  it("refuses bad list parameters and forged or foreign cursors", async () => {
    const a = await signup();
    const b = await signup();
    await createContacts(a, 5);
    await createContacts(b, 5);
    for (const query of ["limit=0", "limit=101", "limit=abc", "sort=email", "sort=-phone", "created_after=yesterday", "include_total=yes", "colour=red"]) {
      expectError(await call("GET", `/contacts?${query}`, { token: a.token }), 400, "validation_error");
    }
    const page = await call("GET", "/contacts?limit=2", { token: a.token });
    const cursor: string = page.json.meta.next_cursor;
    const [payload, mac] = cursor.split(".");
    const forgedPayload = btoa(JSON.stringify({ ...JSON.parse(atob(payload!.replaceAll("-", "+").replaceAll("_", "/"))), i: 999999 })).replace(/=+$/, "");
    for (const bad of ["garbage", `${payload}.AAAA`, `${forgedPayload}.${mac}`, `${cursor}x`]) {
      expectError(await call("GET", `/contacts?limit=2&cursor=${encodeURIComponent(bad)}`, { token: a.token }), 400, "invalid_cursor");
    }
    // Another workspace's cursor, or this one under another sort.
    expectError(await call("GET", `/contacts?limit=2&cursor=${encodeURIComponent(cursor)}`, { token: b.token }), 400, "invalid_cursor");
    expectError(await call("GET", `/contacts?limit=2&sort=name&cursor=${encodeURIComponent(cursor)}`, { token: a.token }), 400, "invalid_cursor");
  });

  it("reads lists and lookups through indexes that start with workspace_id", async () => {
    const plans: string[] = [];
    const explain = async (sql: string, ...args: unknown[]) =>
      plans.push(
        ...(
          await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .bind(...args)
            .all<{ detail: string }>()
        ).results.map((r) => `${sql} => ${r.detail}`),
      );
    await explain("SELECT * FROM contacts WHERE workspace_id = ? AND id = ?", 1, 1);
    await explain("SELECT * FROM contacts WHERE workspace_id = ? ORDER BY id DESC LIMIT 26", 1);
    await explain("SELECT * FROM contacts WHERE workspace_id = ? AND (name, id) > (?, ?) ORDER BY name, id LIMIT 26", 1, "a", 1);
    await explain("SELECT * FROM contacts WHERE workspace_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 26", 1, 5, 1);
    await explain("SELECT * FROM contacts WHERE workspace_id = ? AND id < ? ORDER BY id DESC LIMIT 26", 1, 5);
    await explain("SELECT * FROM contacts WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT 26", 1);
    await explain("SELECT * FROM contacts WHERE workspace_id = ? AND email = ?", 1, "a@b.co");
    await explain("SELECT * FROM contacts WHERE workspace_id = ? AND company = ? ORDER BY id DESC LIMIT 26", 1, "x");
    for (const plan of plans) {
      expect(plan).toMatch(/SEARCH contacts USING (INTEGER PRIMARY KEY|INDEX contacts_workspace_\w+ \(workspace_id=\?)/);
      expect(plan).not.toMatch(/USE TEMP B-TREE/);
    }
    // Keyset pages seek straight to the cursor position instead of skipping the rows before it.
    expect(plans.filter((plan) => /(name>\?|created_at<\?|AND id<\?)\)$/.test(plan))).toHaveLength(3);
  });
});

describe("tenant isolation", () => {
  it("keeps workspace B's contacts out of workspace A's reach", async () => {
    const a = await signup("A");
    const b = await signup("B");
    const theirs = (await call("POST", "/contacts", { token: b.token, body: contact("b") })).json.data;
    const id = theirs.id;
    expectError(await call("GET", `/contacts/${id}`, { token: a.token }), 404, "not_found");
    expectError(await call("PUT", `/contacts/${id}`, { token: a.token, body: { name: "pwned" } }), 404, "not_found");
    expectError(await call("DELETE", `/contacts/${id}`, { token: a.token }), 404, "not_found");
    const list = await call("GET", "/contacts?include_total=true", { token: a.token });
    expect(list.json.data).toEqual([]);
    expect(list.json.meta.total).toBe(0);
    const batch = await call("POST", "/contacts/batch", {
      token: a.token,
      body: {
        operations: [
          { op: "update", id, data: { name: "pwned" } },
          { op: "delete", id },
        ],
      },
    });
    const error = expectError(batch, 400, "validation_error");
    expect(error.details).toEqual([
      { index: 0, path: "operations.0.id", message: "contact not found" },
      { index: 1, path: "operations.1.id", message: "contact not found" },
    ]);
    const loose = await call("POST", "/contacts/batch", { token: a.token, body: { atomic: false, operations: [{ op: "delete", id }] } });
    expect(loose.json.data.results[0]).toMatchObject({ index: 0, status: 404, error: { code: "not_found" } });
    expect((await call("GET", `/contacts/${id}`, { token: b.token })).json.data).toEqual(theirs);
  });
});

describe("contacts batch", () => {
  it("writes nothing when one operation of an atomic batch is invalid", async () => {
    const ws = await signup();
    const existing = (await call("POST", "/contacts", { token: ws.token, body: contact(0) })).json.data;
    const res = await call("POST", "/contacts/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "create", data: contact(1) },
          { op: "update", id: existing.id, data: { name: "Renamed" } },
          { op: "create", data: { name: "Bad", email: "nope" } },
          { op: "delete", id: existing.id },
          { op: "update", data: { name: "no id" } },
        ],
      },
    });
    const error = expectError(res, 400, "validation_error");
    expect(error.details).toEqual([
      { index: 2, path: "operations.2.data.email", message: "must be a valid e-mail address" },
      { index: 4, path: "operations.4.id", message: "is required" },
    ]);
    const rows = await (await dbOf(ws.workspaceId)).prepare("SELECT name FROM contacts WHERE workspace_id = ?").bind(ws.workspaceId).all();
    expect(rows.results).toEqual([{ name: "Contact 0" }]);
  });

  it("commits a valid atomic batch and reports each result", async () => {
    const ws = await signup();
    const existing = (await call("POST", "/contacts", { token: ws.token, body: contact(0) })).json.data;
    const gone = (await call("POST", "/contacts", { token: ws.token, body: contact(9) })).json.data;
    const res = await call("POST", "/contacts/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "create", data: contact(1) },
          { op: "update", id: existing.id, data: { name: "Renamed" } },
          { op: "delete", id: gone.id },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results).toEqual([
      { index: 0, status: 201, data: expect.objectContaining({ email: "c1@example.com" }) },
      { index: 1, status: 200, data: expect.objectContaining({ id: existing.id, name: "Renamed" }) },
      { index: 2, status: 200, data: { id: gone.id, deleted: true } },
    ]);
  });

  it("rolls back an atomic batch that hits a unique e-mail, and runs non-atomic operations one by one", async () => {
    const ws = await signup();
    await call("POST", "/contacts", { token: ws.token, body: contact(0) });
    const conflict = await call("POST", "/contacts/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "create", data: contact(1) },
          { op: "create", data: contact(0) },
        ],
      },
    });
    expectError(conflict, 409, "conflict");
    const count = async () =>
      (await dbOf(ws.workspaceId)).prepare("SELECT count(*) AS n FROM contacts WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>();
    expect((await count())?.n).toBe(1);

    const loose = await call("POST", "/contacts/batch", {
      token: ws.token,
      body: {
        atomic: false,
        operations: [
          { op: "create", data: contact(1) },
          { op: "create", data: contact(0) },
          { op: "create", data: { name: "x" } },
          { op: "delete", id: 999999 },
        ],
      },
    });
    expect(loose.status).toBe(200);
    expect(loose.json.data.results.map((r: { status: number }) => r.status)).toEqual([201, 409, 400, 404]);
    expect(loose.json.data.results[2].error).toMatchObject({
      code: "validation_error",
      details: [{ index: 2, path: "operations.2.data.email", message: "is required" }],
    });
    expect((await count())?.n).toBe(2);
  });

  it("refuses empty and oversized batches", async () => {
    const ws = await signup();
    expectError(await call("POST", "/contacts/batch", { token: ws.token, body: { operations: [] } }), 400, "validation_error");
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ op: "create", data: contact(i) }));
    const error = expectError(await call("POST", "/contacts/batch", { token: ws.token, body: { operations: tooMany } }), 400, "validation_error");
    expect(error.details[0].path).toBe("operations");
    expectError(await call("POST", "/contacts/batch", { token: ws.token, body: { operations: [{ op: "upsert" }] } }), 400, "validation_error");
  });
});

describe("idempotency", () => {
  it("creates one contact for the same key twice and replays the same body", async () => {
    const ws = await signup();
    const headers = { "idempotency-key": "create-ada-1" };
    const first = await call("POST", "/contacts", { token: ws.token, body: contact("ada"), headers });
    const second = await call("POST", "/contacts", { token: ws.token, body: contact("ada"), headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const count = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM contacts WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);

    expectError(await call("POST", "/contacts", { token: ws.token, body: contact("bob"), headers }), 422, "idempotency_key_reused");
    // Keys are per workspace.
    const other = await signup();
    expect((await call("POST", "/contacts", { token: other.token, body: contact("ada"), headers })).headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers 409 while the first request is in progress and validates the key", async () => {
    const ws = await signup();
    const me = (await call("GET", "/me", { token: ws.token })).json.data;
    await (await dbOf(ws.workspaceId))
      .prepare("INSERT INTO idempotency_keys (workspace_id, credential, key, request_hash, locked_until, expires_at) VALUES (?, ?, 'busy', 'h', ?, ?)")
      .bind(ws.workspaceId, `user:${me.user.id}`, Date.now() + 60_000, Date.now() + 86_400_000)
      .run();
    expectError(await call("POST", "/contacts", { token: ws.token, body: contact(1), headers: { "idempotency-key": "busy" } }), 409, "idempotency_in_progress");
    const bad = expectError(
      await call("POST", "/contacts", { token: ws.token, body: contact(1), headers: { "idempotency-key": "x".repeat(256) } }),
      400,
      "validation_error",
    );
    expect(bad.details[0].path).toBe("Idempotency-Key");
  });

  it("replays batch results without writing twice", async () => {
    const ws = await signup();
    const body = {
      operations: [
        { op: "create", data: contact(1) },
        { op: "create", data: contact(2) },
      ],
    };
    const first = await call("POST", "/contacts/batch", { token: ws.token, body, headers: { "idempotency-key": "batch-1" } });
    const again = await call("POST", "/contacts/batch", { token: ws.token, body, headers: { "idempotency-key": "batch-1" } });
    expect(again.text).toBe(first.text);
    const count = await (await dbOf(ws.workspaceId))
      .prepare("SELECT count(*) AS n FROM contacts WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ n: number }>();
    expect(count?.n).toBe(2);
  });
});
