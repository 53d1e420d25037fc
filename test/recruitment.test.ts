import { describe, expect, it } from "vitest";
import { call, create, expectError, recordedEvents, setPlan, signup, userWithRole, type Workspace } from "./helpers";

describe("recruitment", () => {
  async function opening(ws: Workspace, body: Record<string, unknown> = {}) {
    return create(ws, "job-openings", { title: "Backend engineer", department: "Engineering", branch: "Berlin", ...body });
  }

  it("creates, lists, filters, updates and deletes job openings and candidates", async () => {
    const ws = await signup();
    const eng = await opening(ws);
    const ops = await opening(ws, { title: "Ops lead", department: "Operations", positions: 2 });
    expect(eng).toMatchObject({ positions: 1, status: "open", department: "Engineering" });
    const ada = await create(ws, "candidates", { job_opening_id: eng.id, name: "Ada", email: "Ada@x.co", phone: "+441234567890" });
    expect(ada).toMatchObject({ stage: "applied", email: "ada@x.co", hired_at: null, employee_id: null });
    await create(ws, "candidates", { job_opening_id: eng.id, name: "Alan", email: "alan@x.co", stage: "interview" });
    await create(ws, "candidates", { job_opening_id: ops.id, name: "Grace", email: "grace@x.co" });
    // The same e-mail may apply to another opening, not twice to one.
    expect((await call("POST", "/candidates", { token: ws.token, body: { job_opening_id: ops.id, name: "Ada", email: "ada@x.co" } })).status).toBe(201);
    const dup = expectError(
      await call("POST", "/candidates", { token: ws.token, body: { job_opening_id: eng.id, name: "Ada 2", email: "ada@x.co" } }),
      409,
      "conflict",
    );
    expect(dup.details).toEqual([{ path: "email", message: "already used by another candidate" }]);

    const ids = async (path: string) =>
      (await call("GET", path, { token: ws.token })).json.data.map((r: { name?: string; title?: string }) => r.name ?? r.title);
    expect(await ids(`/candidates?job_opening_id=${eng.id}&sort=name`)).toEqual(["Ada", "Alan"]);
    expect(await ids("/candidates?stage=interview")).toEqual(["Alan"]);
    expect(await ids("/job-openings?department=Operations")).toEqual(["Ops lead"]);
    expect(await ids("/job-openings?status=open&sort=title")).toEqual(["Backend engineer", "Ops lead"]);
    expect(await ids("/candidates?q=grace")).toEqual(["Grace"]);

    expect((await call("PUT", `/candidates/${ada.id}`, { token: ws.token, body: { stage: "offer", notes: "strong" } })).json.data).toMatchObject({
      stage: "offer",
    });
    const hiredByHand = expectError(await call("PUT", `/candidates/${ada.id}`, { token: ws.token, body: { stage: "hired" } }), 400, "validation_error");
    expect(hiredByHand.details[0].path).toBe("stage");
    // Batch, and the usual 400s and 404s.
    const batch = await call("POST", "/candidates/batch", {
      token: ws.token,
      body: {
        operations: [
          { op: "create", data: { job_opening_id: ops.id, name: "Linus", email: "linus@x.co" } },
          { op: "update", id: ada.id, data: { stage: "interview" } },
        ],
      },
    });
    expect(batch.status, batch.text).toBe(200);
    expectError(await call("POST", "/candidates", { token: ws.token, body: { job_opening_id: 999999, name: "X", email: "x@x.co" } }), 400, "validation_error");
    expectError(await call("POST", "/job-openings", { token: ws.token, body: { title: "X", positions: 0 } }), 400, "validation_error");
    // An opening with candidates cannot be deleted out from under them; an empty one can.
    expectError(await call("DELETE", `/job-openings/${eng.id}`, { token: ws.token }), 409, "conflict");
    const empty = await opening(ws, { title: "Nobody" });
    expect((await call("DELETE", `/job-openings/${empty.id}`, { token: ws.token })).status).toBe(200);
  });

  it("hires a candidate into an employee in one batch, once, and closes a filled opening", async () => {
    const ws = await signup();
    const eng = await opening(ws, { positions: 2 });
    const ada = await create(ws, "candidates", { job_opening_id: eng.id, name: "Ada Lovelace", email: "ada@x.co", phone: "+441234567890" });
    const hired = await call("POST", `/candidates/${ada.id}/hire`, { token: ws.token, body: { designation: "Engineer", date_of_joining: "2026-12-01" } });
    expect(hired.status, hired.text).toBe(201);
    const { candidate, employee } = hired.json.data;
    expect(employee).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@x.co",
      phone: "+441234567890",
      department: "Engineering",
      branch: "Berlin",
      designation: "Engineer",
      date_of_joining: "2026-12-01",
      status: "active",
    });
    expect(candidate).toMatchObject({ id: ada.id, stage: "hired", hired_at: expect.any(String), employee_id: employee.id });
    expect((await call("GET", `/employees/${employee.id}`, { token: ws.token })).json.data).toEqual(employee);
    const onboarded = await recordedEvents(ws.workspaceId, "employee.onboarded");
    expect(onboarded.map((e) => e.data)).toEqual([employee]);
    expect((await call("GET", `/job-openings/${eng.id}`, { token: ws.token })).json.data.status).toBe("open");

    expect(expectError(await call("POST", `/candidates/${ada.id}/hire`, { token: ws.token }), 409, "invalid_transition").details).toMatchObject([
      { path: "stage", from: "hired", to: "hired", allowed: [] },
    ]);
    expectError(await call("PUT", `/candidates/${ada.id}`, { token: ws.token, body: { stage: "offer" } }), 409, "invalid_transition");

    const rejected = await create(ws, "candidates", { job_opening_id: eng.id, name: "R", email: "r@x.co", stage: "rejected" });
    expectError(await call("POST", `/candidates/${rejected.id}/hire`, { token: ws.token }), 409, "invalid_transition");
    // An e-mail an employee already has: 409, and nothing written.
    await create(ws, "employees", { name: "Taken", email: "taken@x.co" });
    const clash = await create(ws, "candidates", { job_opening_id: eng.id, name: "Clash", email: "taken@x.co" });
    expect(expectError(await call("POST", `/candidates/${clash.id}/hire`, { token: ws.token }), 409, "conflict").message).toMatch(/employee already uses/);
    expect((await call("GET", `/candidates/${clash.id}`, { token: ws.token })).json.data.stage).toBe("applied");

    const grace = await create(ws, "candidates", { job_opening_id: eng.id, name: "Grace", email: "grace@x.co" });
    expect((await call("POST", `/candidates/${grace.id}/hire`, { token: ws.token })).status).toBe(201);
    expect((await call("GET", `/job-openings/${eng.id}`, { token: ws.token })).json.data.status).toBe("closed");
    expect(await recordedEvents(ws.workspaceId, "employee.onboarded")).toHaveLength(3); // two hires and the "Taken" employee
    expectError(await call("POST", "/candidates/999999/hire", { token: ws.token }), 404, "not_found");
    const viewer = await userWithRole(ws, "viewer");
    expectError(await call("POST", `/candidates/${grace.id}/hire`, { token: viewer }), 403, "forbidden");
  });

  it("lets exactly one of ten concurrent hires of a candidate succeed", async () => {
    const ws = await signup();
    await setPlan(ws, "pro");
    const eng = await opening(ws);
    const ada = await create(ws, "candidates", { job_opening_id: eng.id, name: "Ada", email: "ada@x.co" });
    const results = await Promise.all(Array.from({ length: 10 }, () => call("POST", `/candidates/${ada.id}/hire`, { token: ws.token })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await call("GET", "/employees?q=ada", { token: ws.token })).json.data).toHaveLength(1);
    expect(await recordedEvents(ws.workspaceId, "employee.onboarded")).toHaveLength(1);
  });

  it("keeps another workspace's openings and candidates out of reach", async () => {
    const a = await signup("A");
    const b = await signup("B");
    const theirs = await opening(b);
    const candidate = await create(b, "candidates", { job_opening_id: theirs.id, name: "B", email: "b@x.co" });
    for (const path of [`/job-openings/${theirs.id}`, `/candidates/${candidate.id}`]) {
      expectError(await call("GET", path, { token: a.token }), 404, "not_found");
      expectError(await call("DELETE", path, { token: a.token }), 404, "not_found");
    }
    expectError(await call("POST", `/candidates/${candidate.id}/hire`, { token: a.token }), 404, "not_found");
    const foreign = expectError(
      await call("POST", "/candidates", { token: a.token, body: { job_opening_id: theirs.id, name: "X", email: "x@x.co" } }),
      400,
      "validation_error",
    );
    expect(foreign.details).toEqual([{ path: "job_opening_id", message: "no job opening with this id in this workspace" }]);
    expect((await call("GET", `/candidates/${candidate.id}`, { token: b.token })).json.data.stage).toBe("applied");
  });
});
