import type { Child } from "hono/jsx";
import { words } from "../format";
import type { PageAction } from "../resource/ui";
import { type ApiRecord, type Labels, TableWrap, Value } from "./components";
import { labelOf, listFields, outputFields } from "./fields";
import { formText } from "./form-body";
import { fieldErrors, Notice, type PageStatus, refusalPage, render } from "./page";
import { api, mayRead, mayWrite, offers, type PageContext, referenceLabels, relatedLists, titleOf } from "./records";

type TimelineEntry = { id: string; type: string; created_at: string; previous_attributes: Record<string, unknown> | null };
const noEvents = { ok: false, status: 404, error: { code: "not_found", message: "no timeline" } } as const;
type Related = { title: string; resource: string; filter: string; rows: ApiRecord[]; more: boolean; labels: Labels };

const RELATED_ROWS = 10;

/** Whether the definition's delete rule lets this record go (an invoice only while a draft): else no Delete button. */
function deletable(ctx: PageContext, record: ApiRecord): boolean {
  const rule = ctx.def.deletable;
  return !rule || rule.onlyWhen.includes(String(record[rule.column.name]));
}

/** What the notice says after `?done=…`. */
function doneMessage(ctx: PageContext, done: string | undefined): string | null {
  if (!done) return null;
  if (done === "created") return `The ${ctx.def.singular} was created.`;
  if (done === "updated") return "Saved.";
  if (done === "moved") return "Moved.";
  return ctx.def.ui?.actions?.find((action) => action.name === done)?.done ?? ctx.def.ui?.notices?.[done] ?? null;
}

/**
 * GET /app/R/{id}: the record as the API shows it, its references by name, the rows of other resources that
 * name it (a customer's invoices) and its event timeline — the calls after the first made at once.
 */
export async function recordPage(ctx: PageContext, id: number, state: { error?: string; status?: PageStatus } = {}) {
  const { c, def, session } = ctx;
  const base = `/app/${def.name}`;
  const found = await api(ctx, "GET", `/${def.name}/${id}`);
  if (!found.ok) return refusalPage(c, session, found.error, found.status, base);
  const record = found.data;
  const fields = outputFields(def, ctx.registry);
  const canWrite = mayWrite(ctx);
  const [labels, related, timeline, section] = await Promise.all([
    referenceLabels(ctx, fields, [record]),
    relatedRows(ctx, id),
    // Without its events route (payments) the timeline is the record's own dates.
    def.routes?.timeline === false ? noEvents : api<TimelineEntry[]>(ctx, "GET", `/${def.name}/${id}/events`),
    def.ui?.section?.(record, {
      read: (path) => api(ctx, "GET", path) as never,
      csrf: session.csrf,
      canWrite,
      user: { id: session.principal.user.id, name: session.principal.user.name },
    }) ?? null,
  ]);
  const hiddenInDetail = new Set(def.ui?.hiddenInDetail ?? []);
  const actions = (def.ui?.actions ?? []).filter((action) => canWrite && (action.when?.(record) ?? true));
  const title = titleOf(def, record);
  const done = doneMessage(ctx, c.req.query("done"));
  return render(c, session, {
    status: state.status ?? 200,
    title,
    active: base,
    body: (
      <>
        <p class="crumbs">
          <a href={base}>{labelOf(def.name.replaceAll("-", "_"))}</a>
        </p>
        <div class="bar">
          <h1>{title}</h1>
          <div class="actions">
            {(def.ui?.links ?? [])
              .filter((link) => (link.when?.(record) ?? true) && (!link.writes || mayWrite(ctx, link.writes)))
              .map((link) => (
                <a class="button secondary" href={link.href(record)}>
                  {link.label}
                </a>
              ))}
            {actions.map((action) => (
              <ActionForm ctx={ctx} id={id} action={action} />
            ))}
            {canWrite && offers(def, "update") ? (
              <a class="button secondary" href={`${base}/${id}/edit`}>
                Edit
              </a>
            ) : null}
            {canWrite && offers(def, "delete") && deletable(ctx, record) ? (
              <form method="post" action={`${base}/${id}/delete`} class="inline" data-confirm={`${def.ui?.deleteLabel ?? "Delete"} this ${def.singular}?`}>
                <input type="hidden" name="csrf" value={session.csrf} />
                <button type="submit" class="danger">
                  {def.ui?.deleteLabel ?? "Delete"}
                </button>
              </form>
            ) : null}
          </div>
        </div>
        {done ? <Notice kind="ok">{done}</Notice> : null}
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        {(def.ui?.panel?.(record) as Child) ?? null}
        {(section as Child) ?? null}
        <div class="columns">
          <section class="card" aria-label="Details">
            <dl class="facts">
              {fields
                .filter((field) => field.name !== "id" && !hiddenInDetail.has(field.name.split(/[.[]/)[0]!))
                .map((field) => (
                  <>
                    <dt>{field.label}</dt>
                    <dd>
                      <Value field={field} record={record} labels={labels} />
                    </dd>
                  </>
                ))}
            </dl>
          </section>
          <section class="card" aria-label="Timeline">
            <h2>Timeline</h2>
            <ol class="timeline">
              {(timeline.ok ? timeline.data : []).map((entry) => (
                <li>
                  <time datetime={entry.created_at}>{`${entry.created_at.slice(0, 10)} ${entry.created_at.slice(11, 16)}`}</time>{" "}
                  {words(entry.type.replace(".", " "))}
                  {entry.previous_attributes ? (
                    <span class="meta">
                      {" "}
                      (was{" "}
                      {Object.entries(entry.previous_attributes)
                        .map(([name, value]) => `${words(name)} ${words(String(value))}`)
                        .join(", ")}
                      )
                    </span>
                  ) : null}
                </li>
              ))}
              {typeof record.updated_at === "string" && record.updated_at !== record.created_at ? (
                <li>
                  <time datetime={record.updated_at}>{`${record.updated_at.slice(0, 10)} ${record.updated_at.slice(11, 16)}`}</time> last changed
                </li>
              ) : null}
              {typeof record.created_at === "string" ? (
                <li>
                  <time datetime={record.created_at}>{`${record.created_at.slice(0, 10)} ${record.created_at.slice(11, 16)}`}</time> created
                </li>
              ) : null}
            </ol>
          </section>
        </div>
        {listFields(def, ctx.registry).map((list) => {
          const items = Array.isArray(record[list.name]) ? (record[list.name] as Record<string, unknown>[]) : [];
          return (
            <section class="card flush spaced" aria-label={list.label}>
              <h2 class="pad">{list.label}</h2>
              <TableWrap label={list.label}>
                <table>
                  <thead>
                    <tr>
                      {list.fields.map((field) => (
                        <th scope="col" class={field.kind === "money" || field.kind === "number" || field.kind === "integer" ? "num" : undefined}>
                          {field.label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((item) => (
                      <tr>
                        {list.fields.map((field) => (
                          <td class={field.kind === "money" || field.kind === "number" || field.kind === "integer" ? "num" : undefined}>
                            <Value field={field} record={{ currency: record.currency, ...item }} labels={labels} />
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            </section>
          );
        })}
        {related.map((list) => (
          <RelatedTable ctx={ctx} list={list} id={id} />
        ))}
      </>
    ),
  });
}

/** The rows of other resources that name this record: the first few of each, with a link to all of them. */
async function relatedRows(ctx: PageContext, id: number): Promise<Related[]> {
  const lists = relatedLists(ctx.registry, ctx.def).filter((list) => mayRead(ctx, list.resource.name));
  const found = await Promise.all(
    lists.map(async (list) => {
      const result = await api<ApiRecord[]>(ctx, "GET", `/${list.resource.name}?${list.filter}=${id}&limit=${RELATED_ROWS}`);
      if (!result.ok) return null;
      const columns = outputFields(list.resource, ctx.registry).filter((field) => (list.resource.ui?.columns ?? []).includes(field.name));
      const labels = await referenceLabels({ ...ctx, def: list.resource }, columns, result.data);
      const meta = result.meta as { has_more?: boolean } | undefined;
      return { title: list.title, resource: list.resource.name, filter: list.filter, rows: result.data, more: meta?.has_more === true, labels };
    }),
  );
  return found.filter((list): list is Related => list !== null);
}

function RelatedTable(props: { ctx: PageContext; list: Related; id: number }) {
  const { ctx, list, id } = props;
  const def = ctx.registry.definitions().find(({ definition }) => definition.name === list.resource)!.definition;
  const columns = outputFields(def, ctx.registry)
    .filter((field) => (def.ui?.columns ?? []).includes(field.name) && field.name !== list.filter)
    .sort((a, b) => def.ui!.columns.indexOf(a.name) - def.ui!.columns.indexOf(b.name));
  const all = `/app/${list.resource}?${list.filter}=${id}`;
  return (
    <section class="card flush spaced" aria-label={labelOf(list.title.replaceAll(" ", "_"))}>
      <div class="bar pad">
        <h2>{labelOf(list.title.replaceAll(" ", "_"))}</h2>
        <a href={all}>{list.more ? "View all" : "Open the list"}</a>
      </div>
      {list.rows.length === 0 ? (
        <p class="pad">None yet.</p>
      ) : (
        <TableWrap label={list.title}>
          <table>
            <thead>
              <tr>
                {columns.map((field) => (
                  <th scope="col">{field.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.rows.map((row) => (
                <tr>
                  {columns.map((field, i) => (
                    <td>
                      {i === 0 ? (
                        <a href={`/app/${list.resource}/${row.id}`}>{titleOf(def, row)}</a>
                      ) : (
                        <Value field={field} record={row} labels={list.labels} />
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

/** One of the API's actions on the record, as a form (with its confirm, and its fields when it has any). */
function ActionForm(props: { ctx: PageContext; id: number; action: PageAction }) {
  const { ctx, id, action } = props;
  return (
    <form method="post" action={`/app/${ctx.def.name}/${id}/${action.name}`} class="inline" data-confirm={action.confirm}>
      <input type="hidden" name="csrf" value={ctx.session.csrf} />
      {(action.fields ?? []).map((name) => (
        <span class="field inline-field">
          <label for={`action-${action.name}-${name}`}>{labelOf(name)}</label>
          <input id={`action-${action.name}-${name}`} type="text" name={name} />
        </span>
      ))}
      <button type="submit" class={action.primary ? undefined : "secondary"}>
        {action.label}
      </button>
    </form>
  );
}

/** POST /app/R/{id}/{action}: the API's action as the user; done → the record with a notice, refused → the record with why. */
export async function runAction(ctx: PageContext, id: number, action: PageAction, form: FormData) {
  const body: Record<string, unknown> = { ...(action.body ?? {}) };
  for (const name of action.fields ?? []) {
    const value = formText(form, name);
    if (value !== "") body[name] = value;
  }
  const path = action.path ? `/${ctx.def.name}/${id}/${action.path}` : `/${ctx.def.name}/${id}`;
  const result = await api(ctx, action.method, path, action.method === "DELETE" ? undefined : body);
  if (result.ok) return ctx.c.redirect(`/app/${ctx.def.name}/${id}?done=${action.name}`, 303);
  if (result.status === 403 || result.status === 404) return refusalPage(ctx.c, ctx.session, result.error, result.status, `/app/${ctx.def.name}`);
  const errors = fieldErrors(result.error);
  const message = Object.entries(errors)
    .filter(([path]) => !path.includes("."))
    .map(([path, text]) => (path === "form" ? text : `${labelOf(path)}: ${text}`))
    .join("; ");
  return recordPage(ctx, id, { error: `${action.label} did not happen: ${message || result.error.message}`, status: result.status === 409 ? 409 : 400 });
}

/** POST /app/R/{id}/delete: deleted → the list; refused (an invoice that was sent) → the record with why. */
export async function deleteRecord(ctx: PageContext, id: number) {
  const result = await api(ctx, "DELETE", `/${ctx.def.name}/${id}`);
  if (result.ok) return ctx.c.redirect(`/app/${ctx.def.name}?done=deleted`, 303);
  if (result.status === 403 || result.status === 404) return refusalPage(ctx.c, ctx.session, result.error, result.status, `/app/${ctx.def.name}`);
  return recordPage(ctx, id, { error: `Not deleted: ${result.error.message}`, status: 409 });
}

/** POST /app/R/{id}/move (a board): the card's field set to `to` through the API's update or action route. */
export async function moveCard(ctx: PageContext, id: number, form: FormData) {
  const board = ctx.def.ui?.board;
  if (!board) return ctx.c.notFound();
  const to = formText(form, "to");
  const back = formText(form, "back");
  const params = new URLSearchParams(back);
  params.set("view", "board");
  const result =
    board.move.kind === "update"
      ? await api(ctx, "PUT", `/${ctx.def.name}/${id}`, { [board.field]: to })
      : await api(ctx, board.move.method, `/${ctx.def.name}/${id}/${board.move.path}`, { [board.field]: to });
  if (result.ok) {
    params.set("done", "moved");
    return ctx.c.redirect(`/app/${ctx.def.name}?${params}`, 303);
  }
  if (result.status === 403 || result.status === 404) return refusalPage(ctx.c, ctx.session, result.error, result.status, `/app/${ctx.def.name}`);
  return recordPage(ctx, id, { error: `Not moved: ${result.error.message}`, status: result.status === 409 ? 409 : 400 });
}
