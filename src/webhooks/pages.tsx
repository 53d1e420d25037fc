import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../platform/context";
import { dispatch } from "../platform/dispatch";
import { platformOf } from "../platform/services";
import { Csrf, FieldError, fieldErrors, NeedsAdmin, Notice, param, posted, refusalPage, render, signedIn, text } from "../platform/web/page";
import type { PageSession } from "../platform/web/session";

/** Settings → Webhooks: endpoints, their deliveries, tests and secret rotation. */
export const webhookPages = new Hono<AppEnv>();

type Endpoint = { id: number; url: string; events: string[]; enabled: boolean; description: string | null; created_at: string; secret?: string };
type Delivery = {
  id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempt: number;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
  created_at: string;
};

async function webhooksPage(
  c: Context<AppEnv>,
  session: PageSession,
  state: {
    errors?: Record<string, string>;
    values?: { url: string; events: string[]; description: string };
    secret?: { id: number; secret: string };
    notice?: string;
  },
) {
  const list = await dispatch<Endpoint[]>(c, session.principal, "GET", "/webhooks?limit=100");
  if (!list.ok) return render(c, session, { status: 403, title: "Webhooks", active: "/app/settings/webhooks", body: <NeedsAdmin /> });
  const deliveries = await Promise.all(
    list.data.map((endpoint) => dispatch<Delivery[]>(c, session.principal, "GET", `/webhooks/${endpoint.id}/deliveries?limit=10`)),
  );
  const errors = state.errors ?? {};
  const values = state.values ?? { url: "", events: ["*"], description: "" };
  const eventTypes = Object.keys(platformOf(c).registry.events()).sort();
  return render(c, session, {
    status: state.errors ? 400 : 200,
    title: "Webhooks",
    active: "/app/settings/webhooks",
    body: (
      <>
        <h1>Settings → Webhooks</h1>
        <p class="lead">Signed HTTP deliveries of this workspace's events (Standard Webhooks signatures), retried for three days.</p>
        {state.notice ? <Notice kind="ok">{state.notice}</Notice> : null}
        {state.secret ? (
          <Notice kind="secret">
            <strong>The signing secret of endpoint {state.secret.id}: copy it now, it is shown only this once.</strong>
            <div class="secret-value">
              <code>{state.secret.secret}</code>
            </div>
          </Notice>
        ) : null}
        {errors.form ? <Notice kind="error">{errors.form}</Notice> : null}
        <div class="card spaced">
          <h2>Add an endpoint</h2>
          <form method="post" action="/app/settings/webhooks">
            <Csrf session={session} />
            <label for="url">URL</label>
            <input id="url" name="url" type="url" required value={values.url} placeholder="https://example.com/hooks" />
            <FieldError errors={errors} field="url" />
            <fieldset class="checks">
              <legend>Events</legend>
              <label>
                <input type="checkbox" name="events" value="*" checked={values.events.includes("*")} /> all events
              </label>
              {eventTypes.map((type) => (
                <label>
                  <input type="checkbox" name="events" value={type} checked={values.events.includes(type)} /> {type}
                </label>
              ))}
            </fieldset>
            <FieldError errors={errors} field="events" />
            <label for="description">Description (optional)</label>
            <input id="description" name="description" type="text" maxlength={500} value={values.description} />
            <FieldError errors={errors} field="description" />
            <p>
              <button type="submit">Add endpoint</button>
            </p>
          </form>
        </div>
        {list.data.length === 0 ? <p class="empty">No endpoints yet.</p> : null}
        {list.data.map((endpoint, i) => {
          const log = deliveries[i];
          return (
            <div class="card spaced" data-endpoint={endpoint.id}>
              <div class="bar compact">
                <div>
                  <h2 class="mono endpoint-url">{endpoint.url}</h2>
                  <span class={`pill ${endpoint.enabled ? "on" : "off"}`}>{endpoint.enabled ? "enabled" : "disabled"}</span>{" "}
                  <span class="hint">{endpoint.events.join(", ")}</span>
                </div>
                <div>
                  <form class="inline" method="post" action={`/app/settings/webhooks/${endpoint.id}/test`}>
                    <Csrf session={session} />
                    <button type="submit" class="secondary small">
                      Send test event
                    </button>
                  </form>{" "}
                  <form class="inline" method="post" action={`/app/settings/webhooks/${endpoint.id}/rotate`}>
                    <Csrf session={session} />
                    <button type="submit" class="secondary small">
                      Rotate secret
                    </button>
                  </form>{" "}
                  <form
                    class="inline"
                    method="post"
                    action={`/app/settings/webhooks/${endpoint.id}/delete`}
                    data-confirm="Delete this endpoint? Its deliveries stop."
                  >
                    <Csrf session={session} />
                    <button type="submit" class="danger small">
                      Delete
                    </button>
                  </form>
                </div>
              </div>
              <table aria-label={`Deliveries to ${endpoint.url}`}>
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Status</th>
                    <th class="num">Attempt</th>
                    <th class="num">Response</th>
                    <th>Sent</th>
                  </tr>
                </thead>
                <tbody>
                  {log?.ok && log.data.length > 0 ? (
                    log.data.map((delivery) => (
                      <tr data-delivery={delivery.id}>
                        <td>
                          <a href={`/app/settings/webhooks/${endpoint.id}/deliveries/${delivery.id}`}>{delivery.event_type}</a>{" "}
                          <span class="hint mono">{delivery.event_id}</span>
                        </td>
                        <td>
                          <span class={`pill ${delivery.status}`}>{delivery.status}</span>
                        </td>
                        <td class="num">{delivery.attempt}</td>
                        <td class="num" title={delivery.error ?? undefined}>
                          {delivery.response_status ?? (delivery.error ? "error" : "—")}
                        </td>
                        <td>
                          {delivery.created_at.slice(0, 19).replace("T", " ")}
                          {delivery.next_attempt_at && delivery.status === "pending" ? (
                            <span class="hint"> · next try {delivery.next_attempt_at.slice(11, 19)}</span>
                          ) : null}
                        </td>
                      </tr>
                    ))
                  ) : (
                    <tr>
                      <td colspan={5} class="empty">
                        No deliveries yet.
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          );
        })}
      </>
    ),
  });
}

webhookPages.get(
  "/app/settings/webhooks",
  signedIn(async (c, session) => {
    const done = c.req.query("done");
    const notice =
      done === "test"
        ? "A webhook.test event was sent; its delivery appears below."
        : done === "deleted"
          ? "The endpoint was deleted."
          : done === "created"
            ? "The endpoint was added."
            : undefined;
    return webhooksPage(c, session, { notice });
  }),
);

webhookPages.post(
  "/app/settings/webhooks",
  posted(async (c, session, form) => {
    const values = { url: text(form, "url"), events: form.getAll("events").map(String), description: text(form, "description") };
    const body = {
      url: values.url,
      events: values.events.includes("*") ? ["*"] : values.events,
      ...(values.description ? { description: values.description } : {}),
    };
    const result = await dispatch<Endpoint>(c, session.principal, "POST", "/webhooks", { body });
    if (!result.ok) return webhooksPage(c, session, { errors: fieldErrors(result.error), values });
    return webhooksPage(c, session, { secret: { id: result.data.id, secret: result.data.secret ?? "" }, notice: "The endpoint was added." });
  }),
);

webhookPages.post(
  "/app/settings/webhooks/:id/:action{test|rotate|delete}",
  posted(async (c, session) => {
    const id = encodeURIComponent(param(c, "id"));
    const action = param(c, "action");
    const result =
      action === "delete"
        ? await dispatch(c, session.principal, "DELETE", `/webhooks/${id}`)
        : await dispatch<{ secret?: string }>(c, session.principal, "POST", `/webhooks/${id}/${action === "test" ? "test" : "rotate-secret"}`);
    if (!result.ok) return webhooksPage(c, session, { errors: { form: result.error.message } });
    if (action === "rotate")
      return webhooksPage(c, session, {
        secret: { id: Number(param(c, "id")), secret: (result.data as { secret?: string }).secret ?? "" },
        notice: "The secret was rotated; the old one keeps signing for 24 hours.",
      });
    return c.redirect(`/app/settings/webhooks?done=${action === "test" ? "test" : "deleted"}`, 303);
  }),
);

type DeliveryDetail = Delivery & { request: { body: Record<string, unknown> }; response: { status: number | null; body: string | null } };

/** One delivery: the event as sent, what the endpoint answered (status and the first 2 KiB), and "Retry now". */
async function deliveryPage(c: Context<AppEnv>, session: PageSession, endpointId: string, deliveryId: string, notice?: { kind: "ok" | "error"; text: string }) {
  const found = await dispatch<DeliveryDetail>(c, session.principal, "GET", `/webhooks/${endpointId}/deliveries/${deliveryId}`);
  if (!found.ok) {
    if (found.status === 403) return render(c, session, { status: 403, title: "Webhooks", active: "/app/settings/webhooks", body: <NeedsAdmin /> });
    return refusalPage(c, session, found.error, found.status, "/app/settings/webhooks");
  }
  const delivery = found.data;
  return render(c, session, {
    status: notice?.kind === "error" ? 409 : 200,
    title: `Delivery ${delivery.id}`,
    active: "/app/settings/webhooks",
    body: (
      <>
        <p class="crumbs">
          <a href="/app/settings/webhooks">Webhooks</a>
        </p>
        <div class="bar">
          <h1>
            {delivery.event_type} <span class={`pill ${delivery.status}`}>{delivery.status}</span>
          </h1>
          <form method="post" action={`/app/settings/webhooks/${endpointId}/deliveries/${delivery.id}/retry`} class="inline">
            <Csrf session={session} />
            <button type="submit">Retry now</button>
          </form>
        </div>
        {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
        <div class="card spaced">
          <dl class="facts">
            <dt>Event</dt>
            <dd class="mono">{delivery.event_id}</dd>
            <dt>Attempts</dt>
            <dd>{delivery.attempt}</dd>
            <dt>Response status</dt>
            <dd>{delivery.response.status ?? "—"}</dd>
            <dt>Took</dt>
            <dd>{delivery.duration_ms === null ? "—" : `${delivery.duration_ms} ms`}</dd>
            <dt>Error</dt>
            <dd>{delivery.error ?? "—"}</dd>
            <dt>Next attempt</dt>
            <dd>{delivery.status === "pending" && delivery.next_attempt_at ? delivery.next_attempt_at.replace("T", " ").slice(0, 19) : "—"}</dd>
          </dl>
        </div>
        <section class="card spaced" aria-label="Request body">
          <h2>Request body</h2>
          <pre class="code">{JSON.stringify(delivery.request.body, null, 2)}</pre>
        </section>
        <section class="card spaced" aria-label="Response body">
          <h2>Response body (first 2 KiB)</h2>
          <pre class="code">{delivery.response.body || "(empty)"}</pre>
        </section>
      </>
    ),
  });
}

webhookPages.get(
  "/app/settings/webhooks/:id{[0-9]{1,16}}/deliveries/:delivery{[0-9]{1,16}}",
  signedIn((c, session) =>
    deliveryPage(
      c,
      session,
      param(c, "id"),
      param(c, "delivery"),
      c.req.query("done") === "retried" ? { kind: "ok", text: "Queued: it is being sent again now." } : undefined,
    ),
  ),
);

webhookPages.post(
  "/app/settings/webhooks/:id{[0-9]{1,16}}/deliveries/:delivery{[0-9]{1,16}}/retry",
  posted(async (c, session) => {
    const [id, delivery] = [param(c, "id"), param(c, "delivery")];
    const result = await dispatch(c, session.principal, "POST", `/webhooks/${id}/deliveries/${delivery}/retry`);
    if (result.ok) return c.redirect(`/app/settings/webhooks/${id}/deliveries/${delivery}?done=retried`, 303);
    return deliveryPage(c, session, id, delivery, { kind: "error", text: `Not retried: ${result.error.message}` });
  }),
);
