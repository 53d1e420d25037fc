import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { it } from "vitest";
import worker from "../../src/index";
import { BASE, create, env, setPlan, signup } from "../helpers";

it("logs sql", async () => {
  const ws = await signup("SQL");
  await setPlan(ws, "enterprise");
  const project = await create(ws, "projects", { name: "P" });
  const task = await create(ws, "tasks", { title: "T", project_id: project.id });
  const log: string[] = [];
  const wrap = (d1: any): any => ({
    prepare: (q: string) => { const st = d1.prepare(q); const w = (s: any): any => ({ bind: (...v: any[]) => w(s.bind(...v)), first: (...a: any[]) => (log.push("first " + q), s.first(...a)), all: () => (log.push("all " + q), s.all()), run: () => (log.push("run " + q), s.run()), raw: (o: any) => (log.push("raw " + q), s.raw(o)), _s: s, _q: q }); return w(st); },
    batch: (sts: any[]) => { log.push("BATCH\n  " + sts.map((s) => s._q).join("\n  ")); return d1.batch(sts.map((s) => s._s)); },
    withSession: (c: any) => { const ses = d1.withSession(c); return { ...wrap(ses), getBookmark: () => ses.getBookmark() }; },
  });
  for (const [method, path, body] of [["PUT", `/tasks/${task.id}/status`, { status: "done" }], ["GET", `/contacts/1`], ["POST", "/contacts", { name: "x", email: "x@y.com" }]] as const) {
    log.length = 0;
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(`${BASE}${path}`, { method, headers: { authorization: `Bearer ${ws.token}`, "content-type": "application/json", "cf-connecting-ip": "1.1.1.1" }, body: body ? JSON.stringify(body) : undefined }), { ...env, DB: wrap(env.DB) } as any, ctx);
    await res.text();
    await waitOnExecutionContext(ctx);
    console.log(method, path, res.status, "\n" + log.join("\n"));
  }
});
