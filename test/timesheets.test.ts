import { describe, expect, it } from "vitest";
import { platform } from "../src/index";
import { projectResource } from "../src/packages/taskly/projects";
import { selectRows } from "../src/platform/resource/writes";
import { Tenant } from "../src/platform/tenancy";
import { database } from "../src/platform/tenancy/database";
import { call, create, dbOf, env, expectError, setPlan, signup, type Workspace } from "./helpers";

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
