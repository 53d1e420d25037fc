import { describe, expect, it } from "vitest";
import { packages } from "../src/index";
import { ticketResource } from "../src/packages/helpdesk/tickets";
import { definePackage, PackageRegistry } from "../src/platform/packages";
import { resourceRoutes } from "../src/platform/resource/routes";
import { call, create, expectError, setPlan, signup, userWithRole, type Workspace } from "./helpers";

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
      ["products", "add-on", true],
      ["quotes", "add-on", true],
      ["expenses", "add-on", true],
      ["leave", "add-on", true],
      ["attendance", "add-on", true],
      ["helpdesk", "add-on", true],
      ["analytics", "add-on", true],
      ["assistant", "add-on", true],
      ["chatbot", "add-on", true],
      ["hrm-pro", 2, false],
      ["sales-pro", 2, false],
      ["accounting-pro", 2, false],
      ["project-management-pro", 2, false],
    ]);
    const byName = Object.fromEntries(list.map((p) => [p.name, p]));
    expect(byName.hrm).toMatchObject({ depends_on: [], dependents: ["recruitment", "timesheets", "leave", "attendance", "hrm-pro"], resources: ["employees"] });
    expect(byName.helpdesk).toMatchObject({ depends_on: ["sales"], dependents: [], resources: ["tickets", "ticket-replies"] });
    expect(byName.timesheets).toMatchObject({ depends_on: ["taskly", "hrm"], dependents: [], resources: ["time-entries"] });
    expect(byName["project-management-pro"]).toMatchObject({ depends_on: ["taskly"], resources: [] });
    expect(byName.account).toMatchObject({ dependents: expect.arrayContaining(["products", "quotes", "expenses"]) });
    expect(byName.quotes).toMatchObject({ depends_on: ["sales", "account"], resources: ["quotes"] });
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
    expect(required.details).toEqual([
      { path: "enabled", message: "required by recruitment, timesheets, leave, attendance", required_by: ["recruitment", "timesheets", "leave", "attendance"] },
    ]);
    expect(required.message).toMatch(/recruitment, timesheets, leave, attendance depend on hrm/);
    expect((await enabledOf(ws)).hrm).toBe(true);

    for (const name of ["timesheets", "recruitment", "leave", "attendance", "hrm"]) expect((await toggle(ws, name, false)).status).toBe(200);
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
    for (const name of ["recruitment", "timesheets", "leave", "attendance", "hrm"]) await toggle(ws, name, false);
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
    expect(() => new PackageRegistry([owner, stranger])).toThrow(/extends things without declaring owner/);
    // A link (optionalDependsOn) lets a package add to the resource while both are on, as products does to quotes.
    const linked = definePackage({ ...stranger, optionalDependsOn: ["owner"] });
    expect(() => new PackageRegistry([owner, linked])).not.toThrow();
    // Input fields are resolved for single writes only: a resource with batch routes cannot have them.
    const reader = definePackage({ ...base, name: "reader", tier: "add-on", dependsOn: ["sales"], extends: [{ resource: "contacts", uses: () => false }] });
    expect(() => new PackageRegistry([...packages, reader])).toThrow(/reads the input of contacts, which has batch routes/);
  });

  it("refuses a resource whose create could record two events (one create records one)", () => {
    expect(() => resourceRoutes(ticketResource)).not.toThrow();
    const both = {
      ...ticketResource,
      events: [
        ...(ticketResource.events ?? []).filter((rule) => rule.on === "create"),
        { ...ticketResource.events!.find((rule) => rule.on === "change")!, onCreate: true },
      ],
    } as typeof ticketResource;
    expect(() => resourceRoutes(both)).toThrow(/ticket.created and ticket.resolved could both fire on one create/);
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
