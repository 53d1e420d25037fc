import { describe, expect, it } from "vitest";
import { call, create, expectError, recordedEvents, setPlan, signup } from "./helpers";

describe("tasks", () => {
  it("moves on the board, stamps completed_at on entering done and fires task.completed once per entry", async () => {
    const ws = await signup();
    const project = await create(ws, "projects", { name: "P" });
    const task = await create(ws, "tasks", { title: "Write docs", project_id: project.id });
    expect(task).toMatchObject({ status: "todo", priority: "medium", completed_at: null, deleted_at: null });
    const setStatus = (status: string) => call("PUT", `/tasks/${task.id}/status`, { token: ws.token, body: { status } });
    for (const status of ["in_progress", "review", "todo", "review"]) expect((await setStatus(status)).json.data.status).toBe(status);
    const done = (await setStatus("done")).json.data;
    expect(done.completed_at).not.toBeNull();
    await setStatus("done"); // no-op
    expect((await setStatus("in_progress")).json.data.completed_at).toBeNull();
    await call("PUT", `/tasks/${task.id}`, { token: ws.token, body: { status: "done" } });
    const events = await recordedEvents(ws.workspaceId, "task.completed");
    expect(events).toHaveLength(2);
    expect(events[0]!.data).toMatchObject({ id: task.id, status: "done", completed_at: done.completed_at });
    expectError(await setStatus("blocked"), 400, "validation_error");
  });

  it("soft-deletes, hides, restores, and refuses status changes of deleted tasks", async () => {
    const ws = await signup();
    const project = await create(ws, "projects", { name: "P" });
    const task = await create(ws, "tasks", { title: "Temp", project_id: project.id });
    const deleted = await call("DELETE", `/tasks/${task.id}`, { token: ws.token });
    expect(deleted.json.data).toEqual({ id: task.id, deleted: true });
    expectError(await call("GET", `/tasks/${task.id}`, { token: ws.token }), 404, "not_found");
    expectError(await call("PUT", `/tasks/${task.id}/status`, { token: ws.token, body: { status: "done" } }), 404, "not_found");
    expect((await call("GET", "/tasks", { token: ws.token })).json.data).toEqual([]);
    const withDeleted = await call("GET", "/tasks?include_deleted=true", { token: ws.token });
    expect(withDeleted.json.data[0]).toMatchObject({ id: task.id, deleted_at: expect.any(String) });
    const restored = await call("POST", `/tasks/${task.id}/restore`, { token: ws.token });
    expect(restored.json.data).toMatchObject({ id: task.id, deleted_at: null });
    expect((await call("GET", `/tasks/${task.id}`, { token: ws.token })).status).toBe(200);
    expectError(await call("POST", "/tasks/999999/restore", { token: ws.token }), 404, "not_found");
  });

  it("counts live and completed tasks per project in the list", async () => {
    const ws = await signup();
    await setPlan(ws, "pro");
    const p1 = await create(ws, "projects", { name: "P1" });
    const p2 = await create(ws, "projects", { name: "P2" });
    await create(ws, "projects", { name: "Empty" });
    const t = await Promise.all([1, 2, 3].map((n) => create(ws, "tasks", { title: `t${n}`, project_id: p1.id })));
    await create(ws, "tasks", { title: "other", project_id: p2.id, status: "done" });
    await call("PUT", `/tasks/${t[0].id}/status`, { token: ws.token, body: { status: "done" } });
    await call("DELETE", `/tasks/${t[1].id}`, { token: ws.token });
    const list = (await call("GET", "/projects?sort=name", { token: ws.token })).json.data;
    expect(list.map((p: any) => [p.name, p.task_count, p.completed_task_count])).toEqual([
      ["Empty", 0, 0],
      ["P1", 2, 1],
      ["P2", 1, 1],
    ]);
    expect((await call("GET", `/projects/${p1.id}`, { token: ws.token })).json.data).toMatchObject({ task_count: 2, completed_task_count: 1 });
    expectError(await call("DELETE", `/projects/${p1.id}`, { token: ws.token }), 409, "conflict");
  });
});
