import Papa from "papaparse";
import type { AnyResource } from "../resource/definition";
import { TableWrap } from "./components";
import { type FieldSpec, formFields, labelOf } from "./fields";
import { Notice, type PageStatus, render } from "./page";
import { api, type PageContext } from "./records";

export const IMPORT_MAX_ROWS = 5_000;
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
const BATCH = 100;
const PREVIEW_ROWS = 20;

type Problem = { row: number; message: string };
type Parsed = { header: string[]; bodies: Record<string, unknown>[]; problems: Problem[] } | { error: string };

/** A cell as the API's value: numbers and booleans read, money in minor units as the API and the export have it. */
function cellValue(field: FieldSpec, text: string): unknown {
  if (field.kind === "integer" || field.kind === "reference" || field.kind === "money" || field.kind === "number") {
    return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  if (field.kind === "boolean") return text === "true" ? true : text === "false" ? false : text;
  return text;
}

function setPath(body: Record<string, unknown>, path: string, value: unknown) {
  const parts = path.split(".");
  let target = body;
  for (const part of parts.slice(0, -1)) {
    target[part] ??= {};
    target = target[part] as Record<string, unknown>;
  }
  target[parts.at(-1)!] = value;
}

/**
 * A CSV file as create bodies: the header names the API's fields, each row one record. Rows are numbered as
 * a spreadsheet shows them (the header is row 1). Every row is checked against the resource's own create
 * schema, and a value that must be unique may not repeat within the file.
 */
export function parseImport(def: AnyResource, fields: FieldSpec[], text: string): Parsed {
  if (text.includes("\u0000"))
    return { error: "This file is not a CSV (it holds binary data). Export the sheet as CSV (comma-separated, UTF-8) and try again." };
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: "greedy", transformHeader: (h) => h.trim() });
  const header = parsed.meta.fields ?? [];
  const known = new Map(fields.map((field) => [field.name, field]));
  const unknown = header.filter((name) => !known.has(name));
  if (header.length === 0 || unknown.length === header.length)
    return { error: `The first row must name the columns with the API's field names: ${fields.map((field) => field.name).join(", ")}.` };
  if (unknown.length > 0) return { error: `Unknown columns: ${unknown.join(", ")}. The columns are the API's field names: ${[...known.keys()].join(", ")}.` };
  if (parsed.data.length === 0) return { error: "The file has a header but no rows." };
  if (parsed.data.length > IMPORT_MAX_ROWS)
    return { error: `The file has ${parsed.data.length} rows; at most ${IMPORT_MAX_ROWS} import at once. Split it and import each part.` };
  const problems: Problem[] = [];
  for (const error of parsed.errors.slice(0, 20)) problems.push({ row: (error.row ?? 0) + 2, message: error.message });
  const seen = new Map<string, Map<string, number>>();
  const bodies = parsed.data.map((record, i) => {
    const row = i + 2;
    const body: Record<string, unknown> = {};
    for (const name of header) {
      const text = (record[name] ?? "").trim();
      if (text !== "") setPath(body, name, cellValue(known.get(name)!, text));
    }
    const checked = def.schemas.create.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) problems.push({ row, message: `${issue.path.join(".") || "row"}: ${issue.message}` });
    }
    for (const unique of def.uniques) {
      const value = body[unique.field];
      if (typeof value !== "string" || value === "") continue;
      const values = seen.get(unique.field) ?? new Map<string, number>();
      const earlier = values.get(value.toLowerCase());
      if (earlier) problems.push({ row, message: `${unique.field}: the same as row ${earlier}` });
      else values.set(value.toLowerCase(), row);
      seen.set(unique.field, values);
    }
    return body;
  });
  return { header, bodies, problems };
}

type ImportState = {
  problems?: Problem[];
  error?: string;
  preview?: { header: string[]; bodies: Record<string, unknown>[]; text: string };
  status?: PageStatus;
};

/** GET /app/R/import and its answers: the upload form, a preview (or the problems by row), the result. */
export function importPage(ctx: PageContext, state: ImportState = {}) {
  const { def } = ctx;
  const fields = formFields(def, ctx.registry, "create");
  const base = `/app/${def.name}`;
  const title = `Import ${def.name.replaceAll("-", " ")}`;
  return render(ctx.c, ctx.session, {
    status: state.status ?? 200,
    title,
    active: base,
    body: (
      <>
        <p class="crumbs">
          <a href={base}>{labelOf(def.name.replaceAll("-", "_"))}</a>
        </p>
        <h1>{title}</h1>
        <p class="lead">
          A CSV file (UTF-8, at most {IMPORT_MAX_ROWS.toLocaleString("en-US")} rows and 2 MiB) whose first row names the columns with the API's field names:{" "}
          <code>{fields.map((field) => field.name).join(",")}</code>. All rows are imported, or none.
        </p>
        {state.error ? <Notice kind="error">{state.error}</Notice> : null}
        {state.problems && state.problems.length > 0 ? (
          <section class="notice error" role="alert" aria-label="Problems">
            <strong>Nothing was imported: {state.problems.length === 1 ? "one row has a problem" : `${state.problems.length} problems`}.</strong>
            <ul>
              {state.problems.slice(0, 100).map((problem) => (
                <li>
                  Row {problem.row}: {problem.message}
                </li>
              ))}
            </ul>
            {state.problems.length > 100 ? <p>…and {state.problems.length - 100} more.</p> : null}
          </section>
        ) : null}
        {state.preview ? (
          <section class="card spaced" aria-label="Preview">
            <h2>
              {state.preview.bodies.length} {state.preview.bodies.length === 1 ? "row" : "rows"} ready to import
            </h2>
            <TableWrap label="Preview">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Row</th>
                    {state.preview.header.map((name) => (
                      <th scope="col">{name}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {state.preview.bodies.slice(0, PREVIEW_ROWS).map((body, i) => (
                    <tr>
                      <td>{i + 2}</td>
                      {state.preview!.header.map((name) => (
                        <td>{String(name.split(".").reduce<unknown>((value, part) => (value as Record<string, unknown> | undefined)?.[part], body) ?? "")}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            {state.preview.bodies.length > PREVIEW_ROWS ? <p class="hint">The first {PREVIEW_ROWS} rows are shown.</p> : null}
            <form method="post" action={`${base}/import`} class="form-actions">
              <input type="hidden" name="csrf" value={ctx.session.csrf} />
              <input type="hidden" name="confirm" value="1" />
              <textarea name="csv" hidden>
                {state.preview.text}
              </textarea>
              <button type="submit">Import {state.preview.bodies.length} rows</button>
              <a href={`${base}/import`}>Choose another file</a>
            </form>
          </section>
        ) : (
          <form method="post" action={`${base}/import`} enctype="multipart/form-data" class="card spaced">
            <input type="hidden" name="csrf" value={ctx.session.csrf} />
            <label for="import-file">CSV file</label>
            <input id="import-file" type="file" name="file" accept=".csv,text/csv" required />
            <div class="form-actions">
              <button type="submit">Check the file</button>
            </div>
          </form>
        )}
      </>
    ),
  });
}

/**
 * POST /app/R/import: a file → its preview, or its problems by row (nothing written); a confirmed
 * preview → the API's batch route, atomic, 100 rows at a time. Should a later batch be refused (a row
 * taken meanwhile), the batches already written are deleted again in one atomic batch each, so the
 * import stays all or nothing.
 */
export async function submitImport(ctx: PageContext, form: FormData) {
  const fields = formFields(ctx.def, ctx.registry, "create");
  const confirmed = form.get("confirm") === "1";
  let text: string;
  if (confirmed) text = String(form.get("csv") ?? "");
  else {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return importPage(ctx, { error: "Choose a CSV file to import.", status: 400 });
    if (file.size > IMPORT_MAX_BYTES)
      return importPage(ctx, { error: `The file is ${(file.size / 1048576).toFixed(1)} MiB; at most 2 MiB import at once.`, status: 413 });
    if (!/\.csv$/i.test(file.name) && !/csv|text\/plain|excel/i.test(file.type))
      return importPage(ctx, { error: `${file.name} is not a CSV file. Export the sheet as CSV (comma-separated, UTF-8).`, status: 400 });
    text = await file.text();
  }
  if (text.length > IMPORT_MAX_BYTES) return importPage(ctx, { error: "The file is larger than 2 MiB.", status: 413 });
  const parsed = parseImport(ctx.def, fields, text);
  if ("error" in parsed) return importPage(ctx, { error: parsed.error, status: 400 });
  if (parsed.problems.length > 0) return importPage(ctx, { problems: parsed.problems, status: 400 });
  if (!confirmed) return importPage(ctx, { preview: { header: parsed.header, bodies: parsed.bodies, text } });

  const created: number[] = [];
  for (let start = 0; start < parsed.bodies.length; start += BATCH) {
    const chunk = parsed.bodies.slice(start, start + BATCH);
    const result = await api<{ results: { status: number; data?: { id: number } }[] }>(ctx, "POST", `/${ctx.def.name}/batch`, {
      atomic: true,
      operations: chunk.map((data) => ({ op: "create", data })),
    });
    if (!result.ok) {
      await undo(ctx, created);
      const details = (Array.isArray(result.error.details) ? result.error.details : []) as { path?: string; message?: string }[];
      const problems = details.map((detail) => {
        const index = /^operations\.(\d+)/.exec(detail.path ?? "")?.[1];
        const field = (detail.path ?? "").replace(/^operations\.\d+\.(data\.)?/, "");
        return { row: index === undefined ? 0 : start + Number(index) + 2, message: `${field ? `${field}: ` : ""}${detail.message ?? result.error.message}` };
      });
      return importPage(ctx, {
        problems: problems.length > 0 ? problems : [{ row: start + 2, message: result.error.message }],
        status: result.status === 409 ? 409 : 400,
      });
    }
    for (const outcome of result.data.results) if (outcome.data?.id) created.push(outcome.data.id);
  }
  return ctx.c.redirect(`/app/${ctx.def.name}?done=imported`, 303);
}

/** Deletes what earlier batches of a refused import created (atomic batches of 100). */
async function undo(ctx: PageContext, ids: number[]) {
  for (let start = 0; start < ids.length; start += BATCH) {
    await api(ctx, "POST", `/${ctx.def.name}/batch`, { atomic: true, operations: ids.slice(start, start + BATCH).map((id) => ({ op: "delete", id })) });
  }
}
