import { type Context, Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import {
  Csrf,
  FieldError,
  fieldErrors,
  NeedsAdmin,
  Notice,
  type PageStatus,
  param,
  posted,
  refusalPage,
  render,
  signedIn,
  text,
} from "../../platform/web/page";
import type { PageSession } from "../../platform/web/session";

/** Settings → Users: the workspace's people — add one, change a role, remove one (the API's owner rules apply). */
export const userPages = new Hono<AppEnv>();

type User = { id: number; name: string; email: string; role: string; created_at: string };
const ROLES = ["viewer", "member", "admin", "owner"] as const;
const DONE: Record<string, string> = {
  added: "Added. Share the first password with them; they can sign in now.",
  saved: "Saved.",
  removed: "Removed: their sessions and API tokens no longer work.",
};

type State = { errors?: Record<string, string>; values?: { name: string; email: string; role: string }; status?: PageStatus; error?: string };

async function usersPage(c: Context<AppEnv>, session: PageSession, state: State = {}) {
  const list = await dispatch<User[]>(c, session.principal, "GET", "/users?limit=100");
  if (!list.ok) return render(c, session, { status: 403, title: "Users", active: "/app/settings/users", body: <NeedsAdmin /> });
  const errors = state.errors ?? {};
  const values = state.values ?? { name: "", email: "", role: "member" };
  const done = DONE[c.req.query("done") ?? ""];
  return render(c, session, {
    status: state.status ?? 200,
    title: "Users",
    active: "/app/settings/users",
    body: (
      <>
        <h1>Settings → Users</h1>
        <p class="lead">Who can sign in to this workspace, and what their role lets them do. Only an owner can add, change or remove owners.</p>
        {done ? <Notice kind="ok">{done}</Notice> : null}
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        <div class="card flush spaced">
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">
                    <span class="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((user) => (
                  <tr>
                    <td>{user.name}</td>
                    <td>{user.email}</td>
                    <td>
                      <form method="post" action={`/app/settings/users/${user.id}`} class="actions">
                        <Csrf session={session} />
                        <label class="sr-only" for={`role-${user.id}`}>
                          Role of {user.name}
                        </label>
                        <select id={`role-${user.id}`} name="role">
                          {ROLES.map((role) => (
                            <option value={role} selected={role === user.role}>
                              {role}
                            </option>
                          ))}
                        </select>
                        <button type="submit" class="small secondary">
                          Save
                        </button>
                      </form>
                    </td>
                    <td>
                      {user.id === session.principal.user.id ? (
                        <span class="meta">you</span>
                      ) : (
                        <form
                          method="post"
                          action={`/app/settings/users/${user.id}/remove`}
                          class="inline"
                          data-confirm={`Remove ${user.name}? Their sessions and API tokens stop working.`}
                        >
                          <Csrf session={session} />
                          <button type="submit" class="small danger">
                            Remove
                          </button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <form method="post" action="/app/settings/users" class="card spaced" novalidate>
          <h2>Add a user</h2>
          <Csrf session={session} />
          {errors.form ? <Notice kind="error">{errors.form}</Notice> : null}
          <div class="grid">
            <div class="field">
              <label for="user-name">Name</label>
              <input id="user-name" type="text" name="name" value={values.name} required aria-describedby={errors.name ? "name-error" : undefined} />
              <FieldError errors={errors} field="name" />
            </div>
            <div class="field">
              <label for="user-email">E-mail</label>
              <input id="user-email" type="email" name="email" value={values.email} required aria-describedby={errors.email ? "email-error" : undefined} />
              <FieldError errors={errors} field="email" />
            </div>
            <div class="field">
              <label for="user-role">Role</label>
              <select id="user-role" name="role">
                {ROLES.map((role) => (
                  <option value={role} selected={role === values.role}>
                    {role}
                  </option>
                ))}
              </select>
              <FieldError errors={errors} field="role" />
            </div>
            <div class="field">
              <label for="user-password">First password (at least 10 characters)</label>
              <input
                id="user-password"
                type="password"
                name="password"
                autocomplete="new-password"
                required
                aria-describedby={errors.password ? "password-error" : undefined}
              />
              <FieldError errors={errors} field="password" />
            </div>
          </div>
          <div class="form-actions">
            <button type="submit">Add user</button>
          </div>
        </form>
      </>
    ),
  });
}

userPages.get(
  "/app/settings/users",
  signedIn((c, session) => usersPage(c, session)),
);

userPages.post(
  "/app/settings/users",
  posted(async (c, session, form) => {
    const values = { name: text(form, "name"), email: text(form, "email"), role: text(form, "role") };
    const result = await dispatch(c, session.principal, "POST", "/users", { body: { ...values, password: String(form.get("password") ?? "") } });
    if (result.ok) return c.redirect("/app/settings/users?done=added", 303);
    if (result.status === 403 && !Array.isArray(result.error.details)) return refusalPage(c, session, result.error, 403, "/app/settings/users");
    return usersPage(c, session, { errors: fieldErrors(result.error), values, status: result.status === 409 ? 409 : result.status === 403 ? 403 : 400 });
  }),
);

userPages.post(
  "/app/settings/users/:id{[0-9]{1,16}}",
  posted(async (c, session, form) => {
    const result = await dispatch(c, session.principal, "PUT", `/users/${param(c, "id")}`, { body: { role: text(form, "role") } });
    if (result.ok) return c.redirect("/app/settings/users?done=saved", 303);
    return usersPage(c, session, { error: `Not changed: ${result.error.message}`, status: result.status === 409 ? 409 : result.status === 403 ? 403 : 400 });
  }),
);

userPages.post(
  "/app/settings/users/:id{[0-9]{1,16}}/remove",
  posted(async (c, session) => {
    const result = await dispatch(c, session.principal, "DELETE", `/users/${param(c, "id")}`);
    if (result.ok) return c.redirect("/app/settings/users?done=removed", 303);
    return usersPage(c, session, { error: `Not removed: ${result.error.message}`, status: result.status === 409 ? 409 : result.status === 403 ? 403 : 400 });
  }),
);
