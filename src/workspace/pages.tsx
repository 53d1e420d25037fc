import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../platform/context";
import { type ApiErrorBody, dispatch } from "../platform/dispatch";
import { Csrf, Notice, param, posted, render, signedIn, text } from "../platform/web/page";
import type { PageSession } from "../platform/web/session";

/** Settings → Packages: switching the workspace's packages on and off. */
export const packagePages = new Hono<AppEnv>();

type Package = { name: string; title: string; description: string; tier: 1 | 2 | "add-on"; depends_on: string[]; dependents: string[]; enabled: boolean };

/** A refused switch, in words: what is missing or what still needs the package. */
function switchRefusal(error: ApiErrorBody, packages: Package[], name: string): { message: string; offerDependencies: boolean } {
  const title = (n: string) => packages.find((p) => p.name === n)?.title ?? n;
  // "Recruitment, Timesheets and Leave": a list as a sentence says it.
  const inWords = (names: string[]) => new Intl.ListFormat("en", { type: "conjunction" }).format(names);
  const details = (Array.isArray(error.details) ? (error.details[0] ?? {}) : {}) as { missing?: string[]; required_by?: string[] };
  if (error.code === "dependency_disabled" && details.missing) {
    return {
      message: `${title(name)} needs ${inWords(details.missing.map(title))}, which ${details.missing.length > 1 ? "are" : "is"} off. Enable ${details.missing.length > 1 ? "them" : "it"} first, or enable them together.`,
      offerDependencies: true,
    };
  }
  if (error.code === "package_required" && details.required_by) {
    return {
      message: `${title(name)} can't be turned off while ${inWords(details.required_by.map(title))} ${details.required_by.length > 1 ? "depend" : "depends"} on it. Turn ${details.required_by.length > 1 ? "those" : "that"} off first.`,
      offerDependencies: false,
    };
  }
  return { message: error.message, offerDependencies: false };
}

async function packagesPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: { refusal?: { name: string; message: string; offerDependencies: boolean; status: 400 | 403 | 404 | 409 }; notice?: string },
) {
  const list = await dispatch<Package[]>(c, session.principal, "GET", "/packages");
  const packages = list.ok ? list.data : [];
  const admin = session.principal.role === "admin" || session.principal.role === "owner";
  const title = (n: string) => packages.find((p) => p.name === n)?.title ?? n;
  return render(c, session, {
    status: state.refusal?.status ?? 200,
    title: "Packages",
    active: "/app/settings/packages",
    body: (
      <>
        <h1>Settings → Packages</h1>
        <p class="lead">
          Switch the parts of the platform this workspace uses. A package can't be on while one it needs is off; data stays when a package is off.
          {admin ? "" : " Only an admin can change them."}
        </p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.refusal ? (
          <Notice kind="error">
            {state.refusal.message}
            {state.refusal.offerDependencies ? (
              <form method="post" action={`/app/settings/packages/${state.refusal.name}`} class="tight-top">
                <Csrf session={session} />
                <input type="hidden" name="enabled" value="true" />
                <input type="hidden" name="with_dependencies" value="true" />
                <button type="submit" class="small">
                  Enable {title(state.refusal.name)} with what it needs
                </button>
              </form>
            ) : null}
          </Notice>
        ) : null}
        <div class="card">
          <table>
            <thead>
              <tr>
                <th>Package</th>
                <th>Needs</th>
                <th>Needed by</th>
                <th>State</th>
                {admin ? <th /> : null}
              </tr>
            </thead>
            <tbody>
              {packages.map((pkg) => (
                <tr data-package={pkg.name}>
                  <td>
                    <strong>{pkg.title}</strong> <span class="pill">{pkg.tier === "add-on" ? "add-on" : `tier ${pkg.tier}`}</span>
                    <div class="hint">{pkg.description}</div>
                  </td>
                  <td>{pkg.depends_on.map(title).join(", ") || "—"}</td>
                  <td>{pkg.dependents.map(title).join(", ") || "—"}</td>
                  <td>
                    <span class={`pill ${pkg.enabled ? "on" : "off"}`}>{pkg.enabled ? "on" : "off"}</span>
                  </td>
                  {admin ? (
                    <td>
                      {pkg.tier === 2 && !pkg.enabled ? (
                        <span class="hint">set up under SSO apps</span>
                      ) : (
                        <form class="inline" method="post" action={`/app/settings/packages/${pkg.name}`}>
                          <Csrf session={session} />
                          <input type="hidden" name="enabled" value={pkg.enabled ? "false" : "true"} />
                          <button type="submit" class={`small ${pkg.enabled ? "danger" : ""}`}>
                            {pkg.enabled ? "Turn off" : "Turn on"}
                          </button>
                        </form>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </>
    ),
  });
}

packagePages.get(
  "/app/settings/packages",
  signedIn(async (c, session) => packagesPage(c, session, {})),
);

packagePages.post(
  "/app/settings/packages/:name",
  posted(async (c, session, form) => {
    const name = param(c, "name");
    const enabled = text(form, "enabled") === "true";
    const withDependencies = text(form, "with_dependencies") === "true";
    const result = await dispatch<Package>(
      c,
      session.principal,
      "PUT",
      `/packages/${encodeURIComponent(name)}${withDependencies ? "?with_dependencies=true" : ""}`,
      { body: { enabled } },
    );
    if (!result.ok) {
      const list = await dispatch<Package[]>(c, session.principal, "GET", "/packages");
      const refusal =
        result.status === 403
          ? { message: "Only an admin can switch packages.", offerDependencies: false }
          : switchRefusal(result.error, list.ok ? list.data : [], name);
      // The API's status stands: 403 for a role that may not switch, 409 for a dependency rule, 404 for no such package.
      const status = result.status === 403 || result.status === 404 || result.status === 409 ? result.status : 400;
      return packagesPage(c, session, { refusal: { name, status, ...refusal } });
    }
    return packagesPage(c, session, { notice: `${result.data.title} is ${result.data.enabled ? "on" : "off"}.` });
  }),
);
