import { type ApiRecord, Input } from "./components";
import { type FieldSpec, formFields, formName, labelOf, valueAt } from "./fields";
import { bodyFromForm, formText } from "./form-body";
import { fieldErrors, Notice, type PageStatus, refusalPage, render } from "./page";
import { api, type PageContext, referenceOptions, titleOf } from "./records";

type FormState = {
  /** The record being edited (update), as the API shows it. */
  record?: ApiRecord;
  /** What the user typed, shown again after a refusal. */
  typed?: FormData;
  errors?: Record<string, string>;
  status?: PageStatus;
  /** Values a new record starts with (`/app/payments/new?invoice_id=12`). */
  initial?: Record<string, unknown>;
};

/** The value an input shows: what was typed (after a refusal), else the record's, else nothing. */
function shownValue(field: FieldSpec, state: FormState): unknown {
  const name = formName(field.name);
  if (state.typed) return field.kind === "boolean" ? state.typed.getAll(name).map(String).includes("true") : formText(state.typed, name);
  return valueAt(state.initial ?? state.record, field.name) ?? "";
}

/** The currency money fields are typed in: the record's, else one named by the form or the link, else USD. */
function currencyOf(record: ApiRecord | undefined, named: unknown): string {
  if (typeof record?.currency === "string") return record.currency;
  return typeof named === "string" && /^[A-Za-z]{3}$/.test(named) ? named.toUpperCase() : "USD";
}

/** GET /app/R/new and /app/R/{id}/edit: the resource's body fields as inputs, named as the API's. */
export async function formPage(ctx: PageContext, mode: "create" | "update", state: FormState = {}) {
  const { c, def, session } = ctx;
  const base = `/app/${def.name}`;
  const fields = formFields(def, ctx.registry, mode);
  const options = await referenceOptions(ctx, fields);
  const errors = state.errors ?? {};
  const record = state.record;
  const title = mode === "create" ? `New ${def.singular}` : `Edit ${titleOf(def, record ?? {})}`;
  const currency = currencyOf(record, state.typed ? formText(state.typed, "currency") : state.initial?.currency);
  // A money field whose currency is not on the form (a payment's is its invoice's) is read in the one the link named.
  const hiddenCurrency = fields.some((field) => field.kind === "money" && !fields.some((other) => other.name === field.currencyField));
  // Messages that name no field of the form (a rule about the whole record) go at the top.
  const shown = new Set(fields.map((field) => field.name));
  const general = Object.entries(errors).filter(([path]) => path === "form" || !shown.has(path.split(".")[0]!));
  return render(c, session, {
    status: state.status ?? 200,
    title,
    active: base,
    body: (
      <>
        <p class="crumbs">
          <a href={base}>{labelOf(def.name.replaceAll("-", "_"))}</a>
          {record ? (
            <>
              {" › "}
              <a href={`${base}/${record.id}`}>{titleOf(def, record)}</a>
            </>
          ) : null}
        </p>
        <h1>{title}</h1>
        {general.length > 0 ? (
          <Notice kind="error">
            {general.map(([path, message]) => (
              <div>{path === "form" ? message : `${labelOf(path)}: ${message}`}</div>
            ))}
          </Notice>
        ) : null}
        <form method="post" action={mode === "create" ? base : `${base}/${record!.id}`} class="card record-form" novalidate>
          <input type="hidden" name="csrf" value={session.csrf} />
          {hiddenCurrency ? <input type="hidden" name="currency" value={currency} /> : null}
          <div class="grid">
            {fields.map((field) => {
              const choices = options.get(field.name);
              return (
                <>
                  <Input
                    field={choices?.more ? { ...field, kind: "integer" } : field}
                    value={shownValue(field, state)}
                    errors={errors}
                    options={choices?.options}
                    currency={currency}
                  />
                  {choices?.more ? <p class="hint">More than 100 to choose from: type the id (its page shows it).</p> : null}
                </>
              );
            })}
          </div>
          <div class="form-actions">
            <button type="submit">{mode === "create" ? `Create ${def.singular}` : "Save"}</button>
            <a href={record ? `${base}/${record.id}` : base}>Cancel</a>
          </div>
        </form>
      </>
    ),
  });
}

/**
 * POST /app/R and /app/R/{id}: the form → the API's body → the API. Created or saved → 303 to the record;
 * refused (400, 409) → the form again with what was typed and each message next to its field; 403 and
 * 404 → a page that says so. Nothing is written when the API refuses.
 */
export async function submitForm(ctx: PageContext, mode: "create" | "update", form: FormData, id?: number) {
  const { c, def, session } = ctx;
  let record: ApiRecord | undefined;
  if (mode === "update") {
    const found = await api(ctx, "GET", `/${def.name}/${id}`);
    if (!found.ok) return refusalPage(c, session, found.error, found.status, `/app/${def.name}`);
    record = found.data;
  }
  const fields = formFields(def, ctx.registry, mode);
  const { body, problems } = bodyFromForm(fields, form, mode, currencyOf(record, formText(form, "currency")));
  if (Object.keys(problems).length > 0) return formPage(ctx, mode, { record, typed: form, errors: problems, status: 400 });
  const result = mode === "create" ? await api(ctx, "POST", `/${def.name}`, body) : await api(ctx, "PUT", `/${def.name}/${id}`, body);
  if (result.ok) return c.redirect(`/app/${def.name}/${result.data.id}?done=${mode === "create" ? "created" : "updated"}`, 303);
  if (result.status === 403 || result.status === 404) return refusalPage(c, session, result.error, result.status, `/app/${def.name}`);
  return formPage(ctx, mode, { record, typed: form, errors: fieldErrors(result.error), status: result.status === 409 ? 409 : 400 });
}
