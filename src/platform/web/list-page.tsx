import { words } from "../format";
import { expandable } from "../resource/expand";
import { type ApiRecord, Input, type Labels, TableWrap, Value } from "./components";
import { type FieldSpec, filterField, labelOf, outputFields } from "./fields";
import { toMinorUnits } from "./form-body";
import { Notice, refusalPage, render } from "./page";
import { api, mayWrite, offers, type PageContext, titleOf } from "./records";

export const PAGE_SIZE = 25;
const BOARD_SIZE = 100;
/** Page parameters that are the page's own, not the API's. */
const PAGE_ONLY: ReadonlySet<string> = new Set(["view", "done"]);

/**
 * The page's query as the API's: the same names (`?status=sent&sort=-created_at&q=acme`), except that a
 * money filter is typed in major units on the page and sent in minor units.
 */
export function apiQuery(ctx: PageContext, query: Record<string, string>, limit: number): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (PAGE_ONLY.has(name) || value === "") continue;
    const filter = name in ctx.def.filters ? filterField(ctx.def, ctx.registry, name) : null;
    if (filter?.kind === "money") {
      const minor = toMinorUnits(value, "USD");
      params.set(name, minor === null ? value : String(minor));
    } else params.set(name, value);
  }
  params.set("limit", String(limit));
  return params;
}

function pageLink(base: string, query: Record<string, string>, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(Object.entries(query).filter(([name]) => name !== "done"));
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text ? `${base}?${text}` : base;
}

const DONE: Record<string, string> = { deleted: "Deleted.", moved: "Moved.", imported: "Imported." };

/** The expanded references' names, as the cells read them: resource → id → name. */
function labelsOf(references: FieldSpec[], rows: ApiRecord[]): Labels {
  const labels: Labels = new Map();
  for (const field of references) {
    const names = labels.get(field.reference!.resource) ?? new Map<number, string>();
    for (const row of rows) {
      const expanded = row[field.name.replace(/_id$/, "")] as { id: number; label: string } | null | undefined;
      if (expanded) names.set(expanded.id, expanded.label);
    }
    labels.set(field.reference!.resource, names);
  }
  return labels;
}

/** GET /app/R: the API's list with its filters, sort and search, a page at a time; or its board. */
export async function listPage(ctx: PageContext) {
  const { c, def } = ctx;
  const query = c.req.query();
  const board = query.view === "board" && def.ui?.board ? def.ui.board : null;
  const base = `/app/${def.name}`;
  const fields = outputFields(def, ctx.registry);
  const columns = (def.ui?.columns ?? ["id"]).map((name) => fields.find((field) => field.name === name)).filter((field): field is FieldSpec => Boolean(field));
  // The names of the records the columns reference come with the page (expand), in the same statement.
  const references = columns.filter((field) => field.kind === "reference" && expandable(def).some((entry) => entry.field === field.name));
  const params = apiQuery(ctx, query, board ? BOARD_SIZE : PAGE_SIZE);
  if (references.length > 0) params.set("expand", references.map((field) => field.name).join(","));
  const result = await api<ApiRecord[]>(ctx, "GET", `/${def.name}?${params}`);
  const rows = result.ok ? result.data : [];
  const labels = labelsOf(references, rows);
  const meta = (result.ok ? result.meta : undefined) as { has_more?: boolean; next_cursor?: string | null } | undefined;
  const filtered = Object.keys(query).some((name) => !PAGE_ONLY.has(name) && name !== "sort" && name !== "cursor" && query[name] !== "");
  const canCreate = mayWrite(ctx) && offers(def, "create");
  const title = labelOf(def.name.replaceAll("-", "_"));
  const status = !result.ok && result.status === 400 ? 400 : 200;
  if (!result.ok && result.status !== 400) {
    return refusalPage(c, ctx.session, result.error, result.status, base);
  }
  return render(c, ctx.session, {
    status,
    title,
    active: base,
    body: (
      <>
        <div class="bar">
          <h1>{title}</h1>
          <div class="actions">
            {def.ui?.board ? (
              <nav class="views" aria-label="View">
                <a href={pageLink(base, query, { view: null, cursor: null })} aria-current={board ? undefined : "page"}>
                  List
                </a>
                <a href={pageLink(base, query, { view: "board", cursor: null })} aria-current={board ? "page" : undefined}>
                  Board
                </a>
              </nav>
            ) : null}
            <a class="button secondary" href={pageLink(`${base}.csv`, query, { view: null, cursor: null })}>
              Export CSV
            </a>
            {canCreate && def.ui?.importable ? (
              <a class="button secondary" href={`${base}/import`}>
                Import CSV
              </a>
            ) : null}
            {canCreate ? (
              <a class="button" href={`${base}/new`}>
                New {def.singular}
              </a>
            ) : null}
          </div>
        </div>
        {query.done && DONE[query.done] ? <Notice kind="ok">{DONE[query.done]}</Notice> : null}
        {!result.ok ? <Notice kind="error">{result.error.message}</Notice> : null}
        <Filters ctx={ctx} query={query} board={Boolean(board)} />
        {board ? (
          <Board ctx={ctx} rows={rows} labels={labels} columns={columns} more={meta?.has_more === true} query={query} />
        ) : rows.length === 0 ? (
          <div class="card empty">
            <p>{filtered ? `No ${def.name.replaceAll("-", " ")} match these filters.` : `No ${def.name.replaceAll("-", " ")} yet.`}</p>
            {filtered ? <a href={base}>Clear the filters</a> : null}
            {canCreate && !filtered ? (
              <a class="button" href={`${base}/new`}>
                New {def.singular}
              </a>
            ) : null}
          </div>
        ) : (
          <div class="card flush">
            <TableWrap label={title}>
              <table>
                <thead>
                  <tr>
                    {columns.map((field) => (
                      <th scope="col" class={field.kind === "money" || field.kind === "integer" || field.kind === "number" ? "num" : undefined}>
                        {field.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr>
                      {columns.map((field, i) => (
                        <td class={field.kind === "money" || field.kind === "integer" || field.kind === "number" ? "num" : undefined}>
                          {i === 0 ? <a href={`${base}/${row.id}`}>{titleOf(def, row)}</a> : <Value field={field} record={row} labels={labels} />}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          </div>
        )}
        {!board && (query.cursor || meta?.next_cursor) ? (
          <nav class="pager" aria-label="Pages">
            {query.cursor ? <a href={pageLink(base, query, { cursor: null })}>First page</a> : null}
            {meta?.next_cursor ? (
              <a href={pageLink(base, query, { cursor: meta.next_cursor })} rel="next">
                Next page
              </a>
            ) : null}
          </nav>
        ) : null}
      </>
    ),
  });
}

/** The list's filters, search and sort as a GET form: the same parameters the API takes. */
function Filters(props: { ctx: PageContext; query: Record<string, string>; board: boolean }) {
  const { ctx, query } = props;
  const { def } = ctx;
  const filters = Object.keys(def.filters).map((name) => filterField(def, ctx.registry, name));
  const sorts = Object.keys(def.sortable).flatMap((name) => [`-${name}`, name]);
  return (
    <details class="card filters" open={Object.keys(query).some((name) => name in def.filters || name === "q") ? true : undefined}>
      <summary>Search and filter</summary>
      <form method="get" action={`/app/${def.name}`}>
        {props.board ? <input type="hidden" name="view" value="board" /> : null}
        <div class="grid">
          <div class="field">
            <label for="field-q">Search</label>
            <input id="field-q" type="search" name="q" value={query.q ?? ""} maxlength={200} />
          </div>
          {filters.map((field) => (
            <Input
              field={{ ...field, kind: field.kind === "boolean" ? "enum" : field.kind, options: field.kind === "boolean" ? ["true", "false"] : field.options }}
              value={query[field.name] ?? ""}
              errors={{}}
              options={
                field.kind === "boolean"
                  ? [
                      { value: "true", label: "yes" },
                      { value: "false", label: "no" },
                    ]
                  : undefined
              }
            />
          ))}
          {props.board ? null : (
            <div class="field">
              <label for="field-sort">Sort</label>
              <select id="field-sort" name="sort">
                <option value="">newest first</option>
                {sorts.map((sort) => (
                  <option value={sort} selected={query.sort === sort}>
                    {`${words(sort.replace(/^-/, ""))} ${sort.startsWith("-") ? "↓" : "↑"}`}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
        <div class="form-actions">
          <button type="submit">Apply</button>
          <a href={`/app/${def.name}${props.board ? "?view=board" : ""}`}>Clear</a>
        </div>
      </form>
    </details>
  );
}

/**
 * The board: one column per value of the board field, a card per record. A card moves with a small form
 * (POST /app/R/{id}/move) that works without JavaScript; app.js lets a card be dragged to a column too.
 */
function Board(props: { ctx: PageContext; rows: ApiRecord[]; labels: Labels; columns: FieldSpec[]; more: boolean; query: Record<string, string> }) {
  const { ctx, rows } = props;
  const { def } = ctx;
  const board = def.ui!.board!;
  const fields = outputFields(def, ctx.registry);
  const lanes = fields.find((field) => field.name === board.field)?.options ?? [];
  const canMove = mayWrite(ctx);
  const back = new URLSearchParams(Object.entries(props.query).filter(([name]) => name !== "done")).toString();
  return (
    <>
      {props.more ? <Notice kind="ok">The board shows the first {BOARD_SIZE}; filter to see the others.</Notice> : null}
      <div class="board" data-board={def.name}>
        {lanes.map((lane) => {
          const cards = rows.filter((row) => row[board.field] === lane);
          return (
            <section class="lane" data-lane={lane} aria-label={words(lane)}>
              <h2>
                {words(lane)} <span class="count">{cards.length}</span>
              </h2>
              {cards.map((row) => (
                <article class="card-item" draggable={canMove ? "true" : undefined} data-id={String(row.id)}>
                  <a href={`/app/${def.name}/${row.id}`}>{titleOf(def, row)}</a>
                  <p class="meta">
                    {props.columns
                      .slice(1)
                      .filter((field) => field.name !== board.field && row[field.name] !== null && row[field.name] !== undefined)
                      .slice(0, 2)
                      .map((field) => (
                        <span>
                          <Value field={field} record={row} labels={props.labels} />
                        </span>
                      ))}
                  </p>
                  {canMove ? (
                    <form method="post" action={`/app/${def.name}/${row.id}/move`} class="move">
                      <input type="hidden" name="csrf" value={ctx.session.csrf} />
                      <input type="hidden" name="back" value={back} />
                      <label class="sr-only" for={`move-${row.id}`}>
                        Move {titleOf(def, row)} to
                      </label>
                      <select id={`move-${row.id}`} name="to">
                        {lanes.map((option) => (
                          <option value={option} selected={option === lane}>
                            {words(option)}
                          </option>
                        ))}
                      </select>
                      <button type="submit" class="small secondary">
                        Move
                      </button>
                    </form>
                  ) : null}
                </article>
              ))}
            </section>
          );
        })}
      </div>
    </>
  );
}
