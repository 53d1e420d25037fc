import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import { Csrf, FieldError, fieldErrors, Notice, param, posted, render, signedIn, text } from "../../platform/web/page";
import type { PageSession } from "../../platform/web/session";

/** Settings → Chat: link a chat account with the code /link gave it; see and remove links. */
export const chatPages = new Hono<AppEnv>();

type Link = { id: number; provider: string; chat_user_id: string; chat_user_name: string | null; user: { name: string; email: string }; created_at: string };

const PROVIDER_NAMES: Record<string, string> = { slack: "Slack", teams: "Microsoft Teams", telegram: "Telegram" };

async function chatPage(c: Context<AppEnv>, session: PageSession, state: { errors?: Record<string, string>; code?: string; notice?: string }) {
  const links = await dispatch<Link[]>(c, session.principal, "GET", "/chatbot/links");
  const errors = state.errors ?? {};
  return render(c, session, {
    status: state.errors ? 400 : 200,
    title: "Chat",
    active: "/app/settings/chat",
    body: (
      <>
        <h1>Settings → Chat</h1>
        <p class="lead">
          The assistant answers in Slack, Microsoft Teams and Telegram as the person it knows you to be. Send <code>/link</code> to the bot, then enter the code
          it gives you here: from then on it answers you with your role, read-only.
        </p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {errors.form ? <Notice kind="error">{errors.form}</Notice> : null}
        <div class="card spaced">
          <h2>Link a chat account</h2>
          <form method="post" action="/app/settings/chat">
            <Csrf session={session} />
            <label for="code">Code from /link</label>
            <input id="code" name="code" type="text" required maxlength={20} autocomplete="off" value={state.code ?? ""} aria-describedby="code-error" />
            <FieldError errors={errors} field="code" />
            <p>
              <button type="submit">Link</button>
            </p>
          </form>
        </div>
        <div class="card">
          <h2>Linked accounts</h2>
          {!links.ok || links.data.length === 0 ? (
            <p class="empty">No chat account is linked yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Chat</th>
                  <th>Account</th>
                  <th>Answered as</th>
                  <th>Linked</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {links.data.map((link) => (
                  <tr>
                    <td>{PROVIDER_NAMES[link.provider] ?? link.provider}</td>
                    <td>{link.chat_user_name ?? link.chat_user_id}</td>
                    <td>{link.user.name}</td>
                    <td>{link.created_at.slice(0, 10)}</td>
                    <td>
                      <form class="inline" method="post" action={`/app/settings/chat/${link.id}/unlink`} data-confirm="Unlink this chat account?">
                        <Csrf session={session} />
                        <button type="submit" class="danger small">
                          Unlink
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </>
    ),
  });
}

chatPages.get(
  "/app/settings/chat",
  signedIn(async (c, session) => {
    const done = c.req.query("done");
    return chatPage(c, session, {
      notice: done === "linked" ? "Linked: the bot now answers that account as you." : done === "unlinked" ? "Unlinked." : undefined,
    });
  }),
);

chatPages.post(
  "/app/settings/chat",
  posted(async (c, session, form) => {
    const code = text(form, "code");
    const result = await dispatch(c, session.principal, "POST", "/chatbot/links", { body: { code } });
    if (!result.ok) return chatPage(c, session, { errors: fieldErrors(result.error), code });
    return c.redirect("/app/settings/chat?done=linked", 303);
  }),
);

chatPages.post(
  "/app/settings/chat/:id/unlink",
  posted(async (c, session) => {
    const result = await dispatch(c, session.principal, "DELETE", `/chatbot/links/${encodeURIComponent(param(c, "id"))}`);
    if (!result.ok) return chatPage(c, session, { errors: { form: result.error.message } });
    return c.redirect("/app/settings/chat?done=unlinked", 303);
  }),
);
