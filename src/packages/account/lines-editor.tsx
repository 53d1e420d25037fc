import { type Context, Hono } from "hono";
import type { AppEnv } from "../../platform/context";
import { formatMoney, minorDigits } from "../../platform/format";
import type { AnyResource } from "../../platform/resource/definition";
import { type ApiRecord, Input } from "../../platform/web/components";
import { formFields, labelOf } from "../../platform/web/fields";
import { bodyFromForm, formText, toMajorUnits, toMinorUnits } from "../../platform/web/form-body";
import { fieldErrors, Notice, type PageStatus, param, posted, refusalPage, render, signedIn } from "../../platform/web/page";
import { api, type PageContext, pageContext, referenceOptions, titleOf } from "../../platform/web/records";
import { invoiceResource } from "./invoices";

/**
 * A line as the editor shows it: what was typed (major units), or the invoice's line. `product_id` rides along
 * in a hidden field, so a line made from a catalogue product keeps naming it when it is edited.
 */
type Line = { description: string; quantity: string; unit_amount: string; tax_rate: string; product_id?: string };
const LINE_FIELDS = ["description", "quantity", "unit_amount", "tax_rate"] as const;
/** Blank rows offered after the lines, so lines can be added without JavaScript (blank rows are ignored). */
const SPARE_ROWS = 2;

/** How a document with lines (an invoice, a quote) is edited: its resource, and while its lines may change. */
export type LinesEditor = {
  resource: AnyResource;
  /** Whether the record's lines may still change (an invoice's while a draft). */
  editable: (record: ApiRecord) => boolean;
  /** Said above locked lines. */
  lockedHint: string;
};

/**
 * The editor of a document with lines (invoices; quotes reuse it): the header fields, line rows
 * (description, quantity, unit price in major units, tax rate) with their amounts and totals, and notes.
 * Lines post as `items[0][description]`, …; app.js adds and removes rows and keeps the totals current, and
 * without it spare rows are there to fill in. The API computes the amounts; the page's totals are a preview.
 */
export function linesEditorPages(editor: LinesEditor): Hono<AppEnv> {
  const base = `/app/${editor.resource.name}`;
  const ctxOf = (c: Context<AppEnv>, session: Parameters<Parameters<typeof signedIn>[0]>[1]) => pageContext(c, session, editor.resource);
  return new Hono<AppEnv>()
    .get(
      `${base}/new`,
      signedIn((c, session) => editorPage(editor, ctxOf(c, session), { initial: c.req.query() })),
    )
    .post(
      base,
      posted((c, session, form) => save(editor, ctxOf(c, session), form)),
    )
    .get(
      `${base}/:id{[0-9]{1,16}}/edit`,
      signedIn(async (c, session) => {
        const ctx = ctxOf(c, session);
        const found = await api(ctx, "GET", `/${editor.resource.name}/${param(c, "id")}`);
        if (!found.ok) return refusalPage(c, session, found.error, found.status, base);
        return editorPage(editor, ctx, { record: found.data });
      }),
    )
    .post(
      `${base}/:id{[0-9]{1,16}}`,
      posted((c, session, form) => save(editor, ctxOf(c, session), form, Number(param(c, "id")))),
    );
}

export const invoiceEditorPages = linesEditorPages({
  resource: invoiceResource,
  editable: (invoice) => invoice.status === "draft",
  lockedHint: "The lines of a sent invoice cannot change; void it and issue a new one instead.",
});

/** The lines a form posted, in row order, blank rows left out. */
export function linesOf(form: FormData): Line[] {
  const rows = new Map<number, Partial<Line>>();
  for (const [key, value] of form.entries()) {
    const match = /^items\[(\d{1,3})\]\[(description|quantity|unit_amount|tax_rate|product_id)\]$/.exec(key);
    if (!match || typeof value !== "string") continue;
    const row = rows.get(Number(match[1])) ?? {};
    row[match[2] as keyof Line] = value.trim();
    rows.set(Number(match[1]), row);
  }
  return [...rows]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => ({
      description: row.description ?? "",
      quantity: row.quantity ?? "",
      unit_amount: row.unit_amount ?? "",
      tax_rate: row.tax_rate ?? "",
      ...(row.product_id ? { product_id: row.product_id } : {}),
    }))
    .filter((line) => LINE_FIELDS.some((field) => line[field] !== ""));
}

/**
 * The lines as the API's `items`: quantities and rates as numbers, unit prices in minor units. A value that
 * cannot be read is a problem at the line's own path (`items.1.unit_amount`), and nothing is sent.
 */
export function itemsOf(lines: Line[], currency: string): { items: Record<string, unknown>[]; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const items = lines.map((line, i) => {
    const item: Record<string, unknown> = { description: line.description };
    if (line.product_id && /^\d{1,16}$/.test(line.product_id)) item.product_id = Number(line.product_id);
    const number = (field: "quantity" | "tax_rate", text: string) => {
      if (text === "") return;
      if (Number.isFinite(Number(text))) item[field] = Number(text);
      else problems[`items.${i}.${field}`] = "must be a number";
    };
    number("quantity", line.quantity);
    number("tax_rate", line.tax_rate);
    if (line.unit_amount !== "") {
      const minor = toMinorUnits(line.unit_amount, currency);
      if (minor === null) problems[`items.${i}.unit_amount`] = "must be an amount such as 125.50";
      else item.unit_amount = minor;
    }
    return item;
  });
  return { items, problems };
}

async function save(editor: LinesEditor, ctx: PageContext, form: FormData, id?: number) {
  const { resource } = editor;
  const base = `/app/${resource.name}`;
  const mode = id === undefined ? "create" : "update";
  let record: ApiRecord | undefined;
  if (id !== undefined) {
    const found = await api(ctx, "GET", `/${resource.name}/${id}`);
    if (!found.ok) return refusalPage(ctx.c, ctx.session, found.error, found.status, base);
    record = found.data;
  }
  const typedCurrency = formText(form, "currency").toUpperCase();
  const currency = /^[A-Z]{3}$/.test(typedCurrency) ? typedCurrency : String(record?.currency ?? "USD");
  const header = bodyFromForm(formFields(resource, ctx.registry, mode), form, mode, currency);
  const lines = linesOf(form);
  const { items, problems } = itemsOf(lines, currency);
  const typed = { form, lines };
  if (Object.keys(header.problems).length > 0 || Object.keys(problems).length > 0) {
    return editorPage(editor, ctx, { record, typed, errors: { ...header.problems, ...problems }, status: 400 });
  }
  // An update sends the lines only while they may change; a create always does.
  const body = { ...header.body, ...(mode === "create" || (record && editor.editable(record)) ? { items } : {}) };
  const result = mode === "create" ? await api(ctx, "POST", `/${resource.name}`, body) : await api(ctx, "PUT", `/${resource.name}/${id}`, body);
  if (result.ok) return ctx.c.redirect(`${base}/${result.data.id}?done=${mode === "create" ? "created" : "updated"}`, 303);
  if (result.status === 403 || result.status === 404) return refusalPage(ctx.c, ctx.session, result.error, result.status, base);
  return editorPage(editor, ctx, { record, typed, errors: fieldErrors(result.error), status: result.status === 409 ? 409 : 400 });
}

type EditorState = {
  record?: ApiRecord;
  initial?: Record<string, string>;
  typed?: { form: FormData; lines: Line[] };
  errors?: Record<string, string>;
  status?: PageStatus;
};

async function editorPage(editor: LinesEditor, ctx: PageContext, state: EditorState) {
  const { resource } = editor;
  const base = `/app/${resource.name}`;
  const mode = state.record ? "update" : "create";
  const header = formFields(resource, ctx.registry, mode);
  const options = await referenceOptions(ctx, header);
  const errors = state.errors ?? {};
  const record = state.record;
  const currency = (state.typed && formText(state.typed.form, "currency").toUpperCase()) || String(record?.currency ?? state.initial?.currency ?? "USD");
  const linesLocked = record !== undefined && !editor.editable(record);
  const productsOn = !ctx.session.principal.disabledPackages.includes("products");
  const lines: Line[] =
    state.typed?.lines ??
    ((record?.items as { description: string; quantity: number; unit_amount: number; tax_rate: number; product_id?: number }[] | undefined) ?? []).map(
      (item) => ({
        description: item.description,
        quantity: String(item.quantity),
        unit_amount: toMajorUnits(item.unit_amount, String(record?.currency ?? "USD")),
        tax_rate: String(item.tax_rate),
        // Kept only while the catalogue is on: a line naming a product is refused while it is off (403).
        ...(item.product_id && productsOn ? { product_id: String(item.product_id) } : {}),
      }),
    );
  const rows = [
    ...lines,
    ...Array.from({ length: linesLocked ? 0 : lines.length === 0 ? 1 + SPARE_ROWS : SPARE_ROWS }, () => ({
      description: "",
      quantity: "",
      unit_amount: "",
      tax_rate: "",
    })),
  ];
  const totals = previewTotals(lines, currency);
  const title = record ? `Edit ${titleOf(resource, record)}` : `New ${resource.singular}`;
  const fieldValue = (name: string) => (state.typed ? formText(state.typed.form, name) : (record?.[name] ?? state.initial?.[name] ?? ""));
  const general = Object.entries(errors).filter(([path]) => path === "form" || path === "items");
  return render(ctx.c, ctx.session, {
    status: state.status ?? 200,
    title,
    active: base,
    body: (
      <>
        <p class="crumbs">
          <a href={base}>{resource.tags[0]}</a>
          {record ? (
            <>
              {" › "}
              <a href={`${base}/${record.id}`}>{titleOf(resource, record)}</a>
            </>
          ) : null}
        </p>
        <h1>{title}</h1>
        {general.length > 0 ? (
          <Notice kind="error">
            {general.map(([, message]) => (
              <div>{message}</div>
            ))}
          </Notice>
        ) : null}
        <form
          method="post"
          action={record ? `${base}/${record.id}` : base}
          class="card record-form"
          novalidate
          data-invoice-editor
          data-digits={String(minorDigits(currency))}
          data-currency={currency}
        >
          <input type="hidden" name="csrf" value={ctx.session.csrf} />
          <div class="grid">
            {header
              .filter((field) => field.name !== "notes")
              .map((field) => (
                <Input field={field} value={fieldValue(field.name)} errors={errors} options={options.get(field.name)?.options} />
              ))}
          </div>
          <h2 class="tight-top">Lines</h2>
          {linesLocked ? <p class="hint">{editor.lockedHint}</p> : null}
          <div class="table-wrap">
            <table class="lines">
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col" class="num">
                    Quantity
                  </th>
                  <th scope="col" class="num">
                    Unit price ({currency})
                  </th>
                  <th scope="col" class="num">
                    Tax %
                  </th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                  <th scope="col">
                    <span class="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((line, i) => (
                  <LineRow index={i} line={line} errors={errors} locked={linesLocked} currency={currency} />
                ))}
              </tbody>
            </table>
          </div>
          <template>
            <LineRow
              index={rows.length}
              line={{ description: "", quantity: "", unit_amount: "", tax_rate: "" }}
              errors={{}}
              locked={false}
              currency={currency}
            />
          </template>
          {linesLocked ? null : (
            <button type="button" class="secondary small tight-top" data-add-line hidden>
              Add a line
            </button>
          )}
          <dl class="facts totals">
            <dt>Subtotal</dt>
            <dd data-total="subtotal">{totals.subtotal}</dd>
            <dt>Tax</dt>
            <dd data-total="tax">{totals.tax}</dd>
            <dt>Total</dt>
            <dd data-total="total">
              <strong>{totals.total}</strong>
            </dd>
          </dl>
          <Input field={header.find((field) => field.name === "notes")!} value={fieldValue("notes")} errors={errors} />
          <div class="form-actions">
            <button type="submit">{record ? "Save" : `Create ${resource.singular}`}</button>
            <a href={record ? `${base}/${record.id}` : base}>Cancel</a>
          </div>
        </form>
      </>
    ),
  });
}

function LineRow(props: { index: number; line: Line; errors: Record<string, string>; locked: boolean; currency: string }) {
  const { index, line, errors } = props;
  const cell = (field: (typeof LINE_FIELDS)[number], attributes: Record<string, unknown>) => {
    const path = `items.${index}.${field}`;
    return (
      <td class={field === "description" ? undefined : "num"}>
        <label class="sr-only" for={`items-${index}-${field}`} data-for={field}>
          {`Line ${index + 1} ${labelOf(field).toLowerCase()}`}
        </label>
        <input
          id={`items-${index}-${field}`}
          name={`items[${index}][${field}]`}
          data-name={field}
          value={line[field]}
          readonly={props.locked}
          aria-invalid={errors[path] ? "true" : undefined}
          aria-describedby={errors[path] ? `${path}-error` : undefined}
          {...attributes}
        />
        {errors[path] ? (
          <p class="field-error" id={`${path}-error`}>
            {errors[path]}
          </p>
        ) : null}
        {field === "description" && line.product_id ? (
          <input type="hidden" name={`items[${index}][product_id]`} data-name="product_id" value={line.product_id} />
        ) : null}
      </td>
    );
  };
  const amount = Number(line.quantity) * Number(line.unit_amount);
  return (
    <tr>
      {cell("description", { type: "text", maxlength: 500 })}
      {cell("quantity", { type: "text", inputmode: "decimal", class: "short" })}
      {cell("unit_amount", { type: "text", inputmode: "decimal", class: "short" })}
      {cell("tax_rate", { type: "text", inputmode: "decimal", class: "short" })}
      <td class="num" data-amount>
        {line.quantity && line.unit_amount && Number.isFinite(amount) ? amount.toFixed(2) : ""}
      </td>
      <td>
        {props.locked ? null : (
          <button type="button" class="small secondary" data-remove-line aria-label={`Remove line ${index + 1}`}>
            ×
          </button>
        )}
      </td>
    </tr>
  );
}

/** The totals of the typed lines, for the page (the API's own arithmetic decides the invoice's). */
function previewTotals(lines: Line[], currency: string) {
  let subtotal = 0;
  let tax = 0;
  for (const line of lines) {
    const amount = Math.round(Number(line.quantity || 0) * (toMinorUnits(line.unit_amount || "0", currency) ?? 0));
    subtotal += amount;
    tax += Math.round((amount * Number(line.tax_rate || 0)) / 100);
  }
  const show = (minor: number) => (Number.isFinite(minor) ? formatMoney(minor, currency) : "—");
  return { subtotal: show(subtotal), tax: show(tax), total: show(subtotal + tax) };
}
