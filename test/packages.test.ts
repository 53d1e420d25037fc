import { describe, expect, it } from "vitest";
import { packages, platform } from "../src/index";
import { projectResource } from "../src/packages/taskly/projects";
import { definePackage, PackageRegistry } from "../src/platform/packages";
import { selectRows } from "../src/platform/resource/writes";
import { Tenant } from "../src/platform/tenancy";
import { database } from "../src/platform/tenancy/database";
import { call, create, dbOf, env, expectError, recordedEvents, setPlan, signup, userWithRole, type Workspace } from "./helpers";

type Package = { name: string; tier: number | string; depends_on: string[]; dependents: string[]; resources: string[]; enabled: boolean };

async function catalogue(ws: Workspace): Promise<Package[]> {
  const res = await call("GET", "/packages", { token: ws.token });
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

const enabledOf = async (ws: Workspace) => Object.fromEntries((await catalogue(ws)).map((p) => [p.name, p.enabled]));
const toggle = (ws: Workspace, name: string, enabled: boolean, query = "") => call("PUT", `/packages/${name}${query}`, { token: ws.token, body: { enabled } });

/** No enabled package may have a disabled dependency. */
function assertConsistent(list: Package[]) {
  const enabled = new Map(list.map((p) => [p.name, p.enabled]));
  for (const p of list)
    if (p.enabled) for (const dependency of p.depends_on) expect(enabled.get(dependency), `${p.name} is on but ${dependency} is off`).toBe(true);
}

describe("the package catalogue", () => {
  it("lists every package, tier 1 first, with dependencies both ways", async () => {
    const ws = await signup();
    const list = await catalogue(ws);
    expect(list.map((p) => [p.name, p.tier, p.enabled])).toEqual([
      ["hrm", 1, true],
      ["sales", 1, true],
      ["account", 1, true],
      ["taskly", 1, true],
      ["recruitment", "add-on", true],
      ["timesheets", "add-on", true],
      ["analytics", "add-on", true],
      ["assistant", "add-on", true],
      ["chatbot", "add-on", true],
      ["hrm-pro", 2, false],
      ["sales-pro", 2, false],
      ["accounting-pro", 2, false],
      ["project-management-pro", 2, false],
    ]);
    const byName = Object.fromEntries(list.map((p) => [p.name, p]));
    expect(byName.hrm).toMatchObject({ depends_on: [], dependents: ["recruitment", "timesheets", "hrm-pro"], resources: ["employees"] });
    expect(byName.timesheets).toMatchObject({ depends_on: ["taskly", "hrm"], dependents: [], resources: ["time-entries"] });
    expect(byName["project-management-pro"]).toMatchObject({ depends_on: ["taskly"], resources: [] });
    // Any authenticated caller may read it; only admins switch.
    const viewer = await userWithRole(ws, "viewer");
    expect((await call("GET", "/packages", { token: viewer })).status).toBe(200);
    expectError(await call("PUT", "/packages/recruitment", { token: viewer, body: { enabled: false } }), 403, "forbidden");
    expectError(await toggle(ws, "crm", true), 404, "not_found");
    expectError(await toggle(ws, "identity", false), 404, "not_found");
  });

  it("refuses to disable a package an enabled one needs, naming it, and to enable one whose dependency is off", async () => {
    const ws = await signup();
    const required = expectError(await toggle(ws, "hrm", false), 409, "package_required");
    expect(required.details).toEqual([{ path: "enabled", message: "required by recruitment, timesheets", required_by: ["recruitment", "timesheets"] }]);
    expect(required.message).toMatch(/recruitment, timesheets depend on hrm/);
    expect((await enabledOf(ws)).hrm).toBe(true);

    for (const name of ["timesheets", "recruitment", "hrm"]) expect((await toggle(ws, name, false)).status).toBe(200);
    expect((await toggle(ws, "taskly", false)).status).toBe(200);
    const missing = expectError(await toggle(ws, "timesheets", true), 409, "dependency_disabled");
    expect(missing.details).toEqual([{ path: "enabled", message: "needs taskly, hrm", missing: ["taskly", "hrm"] }]);
    // with_dependencies: the missing ones too, in dependency order, in one write.
    const both = await toggle(ws, "timesheets", true, "?with_dependencies=true");
    expect(both.status, both.text).toBe(200);
    expect(both.json.data).toMatchObject({ name: "timesheets", enabled: true });
    expect(await enabledOf(ws)).toMatchObject({ taskly: true, hrm: true, timesheets: true, recruitment: false });
    // Switching something to the state it already has is fine.
    expect((await toggle(ws, "recruitment", false)).status).toBe(200);
    expect((await toggle(ws, "sales", true)).status).toBe(200);
    assertConsistent(await catalogue(ws));
  });

  it("never ends up with an enabled package whose dependency is disabled, whatever the toggles race", async () => {
    const ws = await signup();
    await setPlan(ws, "enterprise");
    for (let round = 0; round < 8; round++) {
      // Start: hrm on, recruitment and timesheets off. Race: switch hrm off against switching recruitment on.
      await toggle(ws, "hrm", true);
      await toggle(ws, "timesheets", false);
      await toggle(ws, "recruitment", false);
      const [off, on] = await Promise.all([toggle(ws, "hrm", false), toggle(ws, "recruitment", true)]);
      expect([off.status, on.status].sort(), `${off.text} ${on.text}`).toEqual([200, 409]);
      assertConsistent(await catalogue(ws));
    }
  });

  it("gates a disabled package's routes (403 package_disabled) and keeps its data for when it is back", async () => {
    const ws = await signup();
    const opening = await create(ws, "job-openings", { title: "Engineer" });
    await toggle(ws, "recruitment", false);
    expectError(await call("GET", "/job-openings", { token: ws.token }), 403, "package_disabled");
    expectError(await call("POST", `/candidates/1/hire`, { token: ws.token }), 403, "package_disabled");
    expectError(await call("GET", "/job-openings"), 401, "unauthorized");
    expect((await call("GET", "/employees", { token: ws.token })).status).toBe(200);
    await toggle(ws, "recruitment", true);
    expect((await call("GET", `/job-openings/${opening.id}`, { token: ws.token })).json.data).toEqual(opening);
  });
});

describe("tier 2: the pro apps", () => {
  it("enables a pro app only while its tier-1 package is on, through /packages or /sso/apps, and writes nothing when refused", async () => {
    const ws = await signup();
    const notReady = expectError(await toggle(ws, "hrm-pro", true), 409, "conflict");
    expect(notReady.message).toMatch(/app_url/);
    for (const name of ["recruitment", "timesheets", "hrm"]) await toggle(ws, name, false);
    const refused = expectError(
      await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { app_url: "https://hrm.example/app", enabled: true } }),
      409,
      "dependency_disabled",
    );
    expect(refused.details).toMatchObject([{ path: "enabled", missing: ["hrm"] }]);
    const apps = (await call("GET", "/sso/apps", { token: ws.token })).json.data;
    expect(apps.find((a: { app: string }) => a.app === "hrm-pro")).toMatchObject({ app_url: null, enabled: false });

    await toggle(ws, "hrm", true);
    const configured = await call("PUT", "/sso/apps/hrm-pro", { token: ws.token, body: { app_url: "https://hrm.example/app", enabled: true } });
    expect(configured.json.data).toMatchObject({ app_url: "https://hrm.example/app", enabled: true });
    expect((await enabledOf(ws))["hrm-pro"]).toBe(true);
    expect(expectError(await toggle(ws, "hrm", false), 409, "package_required").details).toMatchObject([{ path: "enabled", required_by: ["hrm-pro"] }]);
    expect((await toggle(ws, "hrm-pro", false)).json.data).toMatchObject({ name: "hrm-pro", enabled: false });
    expect((await toggle(ws, "hrm", false)).status).toBe(200);
    expect(expectError(await toggle(ws, "hrm-pro", true), 409, "dependency_disabled").details).toMatchObject([{ path: "enabled", missing: ["hrm"] }]);
    expect((await toggle(ws, "hrm-pro", true, "?with_dependencies=true")).json.data.enabled).toBe(true);
  });
});

describe("the graph is checked when the worker starts", () => {
  const base = { title: "T", description: "d", resources: [], routers: [], tables: [] };
  it("refuses cycles, unknown names, duplicates and extensions without a dependency", () => {
    expect(() => new PackageRegistry(packages)).not.toThrow();
    const a = definePackage({ ...base, name: "a", tier: 1, dependsOn: ["b"] });
    const b = definePackage({ ...base, name: "b", tier: "add-on", dependsOn: ["c"] });
    const c = definePackage({ ...base, name: "c", tier: "add-on", dependsOn: ["a"] });
    expect(() => new PackageRegistry([a, b, c])).toThrow(/cycle: a → b → c → a/);
    expect(() => new PackageRegistry([definePackage({ ...base, name: "x", tier: 1, dependsOn: ["nope"] })])).toThrow(/unknown package nope/);
    expect(() => new PackageRegistry([a, a])).toThrow(/listed twice/);
    const owner = definePackage({ ...base, name: "owner", tier: 1, dependsOn: [], scopes: ["things"] });
    const stranger = definePackage({ ...base, name: "stranger", tier: "add-on", dependsOn: [], extends: [{ resource: "things", computed: {}, output: {} }] });
    expect(() => new PackageRegistry([owner, stranger])).toThrow(/extends things without depending on owner/);
  });

  it("refuses a link to a package the manifest does not declare, and accepts it once declared (optionally)", () => {
    const owner = definePackage({ ...base, name: "owner", tier: 1, dependsOn: [], scopes: ["things"] });
    const widget = { id: "reader.count", title: "Things", kind: "number", unit: "count", reads: ["things"] } as never;
    const reader = definePackage({ ...base, name: "reader", tier: "add-on", dependsOn: [], widgets: [widget] });
    expect(() => new PackageRegistry([owner, reader])).toThrow(/reader has a widget reading things of package owner without declaring it/);
    expect(() => new PackageRegistry([owner, { ...reader, optionalDependsOn: ["owner"] }])).not.toThrow();
    // The real build: sales links deals to account's customers, taskly to account and hrm — all declared.
    const registry = new PackageRegistry(packages);
    expect(registry.get("sales")?.optionalDependsOn).toContain("account");
    expect(registry.get("taskly")?.optionalDependsOn).toEqual(expect.arrayContaining(["account", "hrm"]));
  });
});

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

describe("timesheets", () => {
  async function setup(ws: Workspace) {
    const project = await create(ws, "projects", { name: "Website" });
    const other = await create(ws, "projects", { name: "App" });
    const task = await create(ws, "tasks", { title: "Design", project_id: project.id });
    const appTask = await create(ws, "tasks", { title: "Build", project_id: other.id });
    const ada = await create(ws, "employees", { name: "Ada", email: "ada@x.co" });
    const alan = await create(ws, "employees", { name: "Alan", email: "alan@x.co" });
    return { project, other, task, appTask, ada, alan };
  }

  it("logs time on tasks with the project derived, filters it, and sums it into logged_minutes", async () => {
    const ws = await signup();
    const { project, other, task, appTask, ada, alan } = await setup(ws);
    const entry = await create(ws, "time-entries", { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 90, note: "mockups" });
    expect(entry).toMatchObject({ project_id: project.id, billable: true, minutes: 90 });
    await create(ws, "time-entries", { employee_id: ada.id, task_id: appTask.id, date: "2026-11-21", minutes: 30, billable: false });
    await create(ws, "time-entries", { employee_id: alan.id, task_id: task.id, date: "2026-11-22", minutes: 45 });
    expectError(
      await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 90, project_id: 1 } }),
      400,
      "validation_error",
    );

    const minutes = async (query: string) =>
      (await call("GET", `/time-entries?${query}`, { token: ws.token })).json.data.map((e: { minutes: number }) => e.minutes);
    expect(await minutes(`employee_id=${ada.id}&sort=date`)).toEqual([90, 30]);
    expect(await minutes(`project_id=${project.id}&sort=date`)).toEqual([90, 45]);
    expect(await minutes(`task_id=${appTask.id}`)).toEqual([30]);
    expect(await minutes("date_from=2026-11-21&date_to=2026-11-21")).toEqual([30]);
    expect(await minutes("billable=false")).toEqual([30]);
    expect(await minutes("q=mockups")).toEqual([90]);

    // Moving an entry to another task moves it to that task's project.
    expect((await call("PUT", `/time-entries/${entry.id}`, { token: ws.token, body: { task_id: appTask.id } })).json.data.project_id).toBe(other.id);
    const projects = (await call("GET", "/projects?sort=name", { token: ws.token })).json.data;
    expect(projects.map((p: { name: string; logged_minutes: number }) => [p.name, p.logged_minutes])).toEqual([
      ["App", 120],
      ["Website", 45],
    ]);
    expect((await call("GET", `/projects/${other.id}`, { token: ws.token })).json.data.logged_minutes).toBe(120);
    // A deleted task's minutes no longer count.
    await call("DELETE", `/tasks/${appTask.id}`, { token: ws.token });
    expect((await call("GET", `/projects/${other.id}`, { token: ws.token })).json.data.logged_minutes).toBe(0);
    // While timesheets is off, projects do not show (or read) it.
    await call("PUT", "/packages/timesheets", { token: ws.token, body: { enabled: false } });
    const off = (await call("GET", `/projects/${project.id}`, { token: ws.token })).json.data;
    expect(off).not.toHaveProperty("logged_minutes");
    expectError(await call("GET", "/time-entries", { token: ws.token }), 403, "package_disabled");
  });

  it("caps an employee's day at 1,440 minutes on create and update, with the reason", async () => {
    const ws = await signup();
    const { task, ada, alan } = await setup(ws);
    const first = await create(ws, "time-entries", { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 1000 });
    const over = expectError(
      await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 441 } }),
      400,
      "validation_error",
    );
    expect(over.details).toEqual([{ path: "minutes", message: expect.stringMatching(/1441 minutes; at most 1440 a day \(1000 already logged\)/) }]);
    expect(
      (await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 440 } })).status,
    ).toBe(201);
    expect(
      (await call("POST", "/time-entries", { token: ws.token, body: { employee_id: alan.id, task_id: task.id, date: "2026-11-20", minutes: 1440 } })).status,
    ).toBe(201);
    expect(
      (await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-21", minutes: 1440 } })).status,
    ).toBe(201);
    expectError(await call("PUT", `/time-entries/${first.id}`, { token: ws.token, body: { minutes: 1001 } }), 400, "validation_error");
    expectError(await call("PUT", `/time-entries/${first.id}`, { token: ws.token, body: { date: "2026-11-21" } }), 400, "validation_error");
    expect((await call("PUT", `/time-entries/${first.id}`, { token: ws.token, body: { minutes: 999 } })).status).toBe(200);
    expectError(
      await call("POST", "/time-entries", { token: ws.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-22", minutes: 1441 } }),
      400,
      "validation_error",
    );
  });

  it("creates exactly 4 of 10 concurrent 300-minute entries for one day", async () => {
    const ws = await signup();
    await setPlan(ws, "pro");
    const { task, ada } = await setup(ws);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("POST", "/time-entries", { token: ws.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 300 } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 400)).toHaveLength(6);
    const total = await (await dbOf(ws.workspaceId))
      .prepare("SELECT sum(minutes) AS total FROM time_entries WHERE workspace_id = ?")
      .bind(ws.workspaceId)
      .first<{ total: number }>();
    expect(total!.total).toBe(1200);
  });

  it("refuses a deleted task, a departed employee and another workspace's rows", async () => {
    const a = await signup("A");
    const b = await signup("B");
    const { task, ada } = await setup(a);
    const theirs = await setup(b);
    await call("DELETE", `/tasks/${task.id}`, { token: a.token });
    const deleted = expectError(
      await call("POST", "/time-entries", { token: a.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 10 } }),
      400,
      "validation_error",
    );
    expect(deleted.details).toEqual([{ path: "task_id", message: "no live task with this id in this workspace" }]);
    await call("POST", `/tasks/${task.id}/restore`, { token: a.token });
    await call("PUT", `/employees/${ada.id}`, { token: a.token, body: { status: "left" } });
    expectError(
      await call("POST", "/time-entries", { token: a.token, body: { employee_id: ada.id, task_id: task.id, date: "2026-11-20", minutes: 10 } }),
      400,
      "validation_error",
    );
    const foreign = await call("POST", "/time-entries", {
      token: a.token,
      body: { employee_id: theirs.ada.id, task_id: theirs.task.id, date: "2026-11-20", minutes: 10 },
    });
    expect(
      expectError(foreign, 400, "validation_error")
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(["employee_id", "task_id"]);
    const theirEntry = await create(b, "time-entries", { employee_id: theirs.ada.id, task_id: theirs.task.id, date: "2026-11-20", minutes: 10 });
    expectError(await call("GET", `/time-entries/${theirEntry.id}`, { token: a.token }), 404, "not_found");
    expectError(await call("PUT", `/time-entries/${theirEntry.id}`, { token: a.token, body: { minutes: 20 } }), 404, "not_found");
  });
});

describe("query plans of the new lists", () => {
  it("reads a page of projects with task counts (from their rollup) and logged minutes in one statement, index lookups per row", async () => {
    const tenant = new Tenant(database(env.DB), 1, { disabled: [], extensionsOf: (resource) => platform.registry.extensionsOf(resource) });
    const query = selectRows(projectResource, tenant).limit(26).toSQL();
    expect(query.sql).toMatch(/logged|time_entries/);
    const plan = (
      await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .bind(...query.params)
        .all<{ detail: string }>()
    ).results.map((r) => r.detail);
    expect(plan.filter((line) => line.startsWith("SEARCH"))).toEqual([
      expect.stringMatching(/^SEARCH projects USING INDEX projects_workspace_\w+ \(workspace_id=\?\)/),
      expect.stringContaining("SEARCH task_counts USING INDEX sqlite_autoindex_task_counts_1 (workspace_id=? AND project_id=?)"),
      expect.stringContaining("SEARCH task_counts USING INDEX sqlite_autoindex_task_counts_1 (workspace_id=? AND project_id=? AND status=?)"),
      expect.stringContaining("SEARCH te USING COVERING INDEX time_entries_workspace_project_idx"),
      "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)",
    ]);
  });

  it("reads through indexes that start with workspace_id", async () => {
    const queries = [
      "SELECT * FROM job_openings WHERE workspace_id = 1 AND status = 'open' ORDER BY id DESC LIMIT 26",
      "SELECT * FROM job_openings WHERE workspace_id = 1 ORDER BY title, id LIMIT 26",
      "SELECT * FROM candidates WHERE workspace_id = 1 AND job_opening_id = 2 ORDER BY id DESC LIMIT 26",
      "SELECT * FROM candidates WHERE workspace_id = 1 AND stage = 'offer' ORDER BY id DESC LIMIT 26",
      "SELECT * FROM time_entries WHERE workspace_id = 1 ORDER BY date, id LIMIT 26",
      "SELECT * FROM time_entries WHERE workspace_id = 1 AND employee_id = 3 ORDER BY id DESC LIMIT 26",
      "SELECT coalesce(sum(minutes), 0) FROM time_entries WHERE workspace_id = 1 AND employee_id = 3 AND date = '2026-11-20'",
      "SELECT coalesce(sum(te.minutes), 0) FROM time_entries te JOIN tasks t ON t.id = te.task_id WHERE te.workspace_id = 1 AND te.project_id = 4 AND t.deleted_at IS NULL",
    ];
    for (const query of queries) {
      const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${query}`).all<{ detail: string }>()).results.map((r) => r.detail).join(" | ");
      expect(plan, query).toMatch(/USING (COVERING )?INDEX \w+_workspace_\w+ \(workspace_id=\?/);
      expect(plan, query).not.toMatch(/SCAN (time_entries|candidates|job_openings|te)\b|TEMP B-TREE FOR ORDER BY/);
    }
  });
});
