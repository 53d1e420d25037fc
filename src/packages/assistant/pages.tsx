import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { dispatch } from "../../platform/dispatch";
import { Csrf, fieldErrors, Notice, param, posted, render, signedIn, text } from "../../platform/web/page";
import type { PageSession } from "../../platform/web/session";

/** The assistant: a conversation with the workspace's data, and actions to confirm. */
export const assistantPages = new Hono<AppEnv>();

type Reply = {
  text: string;
  intent: string;
  records?: { resource: string; id: number; label: string }[];
  action?: { id: string; kind: string; summary: string; expires_at: string };
  data?: { suggestions?: string[] };
};
type Conversation = { id: string; messages: { role: "user" | "assistant"; text: string; reply?: Reply }[] };

const SUGGESTIONS = ["revenue this month", "overdue invoices", "open deals in negotiation", "tasks due this week", "headcount in engineering"];

/** A proposed action as the API describes it, and the label of the record it would change. */
type PendingAction = {
  id: string;
  summary: string;
  status: string;
  expires_at: string;
  request: { method: string; path: string; body?: Record<string, unknown> };
  record: { resource: string; id: number } | null;
  recordLabel?: string;
};

/** The fields a pending action would write, as "name: value" lines. */
const changeLines = (body: Record<string, unknown> | undefined) =>
  Object.entries(body ?? {}).map(([field, value]) => `${field}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

async function assistantPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: { conversation?: Conversation; error?: string; notice?: string; pendingAction?: PendingAction },
) {
  const messages = state.conversation?.messages ?? [];
  return render(c, session, {
    title: "Assistant",
    active: "/app/assistant",
    body: (
      <>
        <h1>Assistant</h1>
        <p class="lead">
          Ask about your workspace — numbers, lists, records — or prepare a change to confirm. It answers from this workspace's data only and sends nothing
          anywhere.
        </p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        {state.pendingAction ? (
          <div class="card spaced" id="pending-action">
            <h2>An action is waiting for you</h2>
            <p>It was prepared from a chat integration. Check it, then confirm it to run it as you.</p>
            <p>
              <strong>{state.pendingAction.summary}</strong>
            </p>
            <dl class="facts">
              <dt>Record</dt>
              <dd>
                {state.pendingAction.record
                  ? `${state.pendingAction.recordLabel ?? `${state.pendingAction.record.resource} #${state.pendingAction.record.id}`} (${state.pendingAction.record.resource} #${state.pendingAction.record.id})`
                  : "a new record"}
              </dd>
              <dt>Call</dt>
              <dd>
                <code>
                  {state.pendingAction.request.method} /api/v1{state.pendingAction.request.path}
                </code>
              </dd>
              {changeLines(state.pendingAction.request.body).length > 0 ? (
                <>
                  <dt>Changes</dt>
                  <dd>
                    <ul>
                      {changeLines(state.pendingAction.request.body).map((line) => (
                        <li>{line}</li>
                      ))}
                    </ul>
                  </dd>
                </>
              ) : null}
              <dt>Expires</dt>
              <dd>{state.pendingAction.expires_at}</dd>
            </dl>
            {state.pendingAction.status === "pending" ? (
              <form method="post" action={`/app/assistant/actions/${state.pendingAction.id}/confirm`}>
                <Csrf session={session} />
                <button type="submit">Confirm action</button>
              </form>
            ) : (
              <p>This action is {state.pendingAction.status}; there is nothing to confirm.</p>
            )}
          </div>
        ) : null}
        <div class="chat" aria-live="polite">
          {messages.length === 0 ? (
            <div class="suggestions">
              {SUGGESTIONS.map((suggestion) => (
                <form class="inline" method="post" action="/app/assistant">
                  <Csrf session={session} />
                  <input type="hidden" name="message" value={suggestion} />
                  <button type="submit">{suggestion}</button>
                </form>
              ))}
            </div>
          ) : null}
          {messages.map((message) => (
            <div class={`msg ${message.role}`} data-role={message.role}>
              {message.text}
              {message.reply?.records && message.reply.records.length > 0 && message.reply.intent !== "list" ? (
                <div class="records">{message.reply.records.map((record) => record.label).join(" · ")}</div>
              ) : null}
              {message.reply?.action ? (
                <form method="post" action={`/app/assistant/actions/${message.reply.action.id}/confirm`} class="tight-top">
                  <Csrf session={session} />
                  <input type="hidden" name="conversation_id" value={state.conversation?.id ?? ""} />
                  <button type="submit" class="small">
                    Confirm
                  </button>
                </form>
              ) : null}
            </div>
          ))}
          <form method="post" action="/app/assistant" id="ask">
            <Csrf session={session} />
            {state.conversation ? <input type="hidden" name="conversation_id" value={state.conversation.id} /> : null}
            <input
              type="text"
              name="message"
              aria-label="Your question"
              placeholder="Ask a question or describe a change…"
              maxlength={2000}
              required
              autofocus
            />
            <button type="submit">Ask</button>
          </form>
        </div>
      </>
    ),
  });
}

assistantPages.get(
  "/app/assistant",
  signedIn(async (c, session) => {
    const id = c.req.query("c");
    const conversation = id ? await dispatch<Conversation>(c, session.principal, "GET", `/assistant/conversations/${encodeURIComponent(id)}`) : null;
    const actionId = c.req.query("action");
    const action = actionId && /^act_\w+$/.test(actionId) ? await dispatch<PendingAction>(c, session.principal, "GET", `/assistant/actions/${actionId}`) : null;
    const pendingAction = action?.ok ? action.data : undefined;
    if (pendingAction?.record) {
      // The record's current name, read as the user: a record they may not read shows by its id only.
      const record = await dispatch<Record<string, unknown>>(c, session.principal, "GET", `/${pendingAction.record.resource}/${pendingAction.record.id}`);
      if (record.ok)
        pendingAction.recordLabel = String(record.data.name ?? record.data.title ?? record.data.number ?? record.data.subject ?? `#${pendingAction.record.id}`);
    }
    return assistantPage(c, session, {
      ...(conversation?.ok ? { conversation: conversation.data } : {}),
      ...(conversation && !conversation.ok ? { error: "That conversation is not available (they are kept for 30 days)." } : {}),
      ...(pendingAction ? { pendingAction } : {}),
      ...(action && !action.ok ? { error: "That action is not available: it expired (they last 10 minutes) or is not yours." } : {}),
      ...(c.req.query("done") === "confirmed" ? { notice: "Done: the action ran." } : {}),
    });
  }),
);

assistantPages.post(
  "/app/assistant",
  posted(async (c, session, form) => {
    const conversationId = text(form, "conversation_id");
    const result = await dispatch<{ conversation_id: string }>(c, session.principal, "POST", "/assistant/messages", {
      body: { message: text(form, "message"), ...(conversationId ? { conversation_id: conversationId } : {}) },
    });
    if (!result.ok) return assistantPage(c, session, { error: Object.values(fieldErrors(result.error))[0] });
    return c.redirect(`/app/assistant?c=${encodeURIComponent(result.data.conversation_id)}`, 303);
  }),
);

assistantPages.post(
  "/app/assistant/actions/:id/confirm",
  posted(async (c, session, form) => {
    const result = await dispatch(c, session.principal, "POST", `/assistant/actions/${encodeURIComponent(param(c, "id"))}/confirm`);
    const conversationId = text(form, "conversation_id");
    if (!result.ok) return assistantPage(c, session, { error: `The action did not run: ${result.error.message}.` });
    return c.redirect(`/app/assistant?done=confirmed${conversationId ? `&c=${encodeURIComponent(conversationId)}` : ""}`, 303);
  }),
);
