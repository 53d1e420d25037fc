import { formatMoney, words } from "../format";
import { type FieldSpec, formName, valueAt } from "./fields";
import { toMajorUnits } from "./form-body";

export type ApiRecord = Record<string, unknown> & { id: number };
/** Labels of referenced records: resource → id → label. */
export type Labels = Map<string, Map<number, string>>;
export type Option = { value: string; label: string };

const describedBy = (field: string, errors: Record<string, string>) => (errors[field] ? `${field}-error` : undefined);

/** One labelled input for a body field, its value as typed (or as the record has it), and its message. */
export function Input(props: { field: FieldSpec; value: unknown; errors: Record<string, string>; options?: Option[]; currency?: string }) {
  const { field, errors } = props;
  const id = `field-${field.name.replaceAll(".", "-")}`;
  const name = formName(field.name);
  const invalid = errors[field.name] ? "true" : undefined;
  const common = { id, name, "aria-invalid": invalid, "aria-describedby": describedBy(field.name, errors) };
  const text = props.value === null || props.value === undefined ? "" : String(props.value);
  let control: unknown;
  switch (field.kind) {
    case "enum":
    case "reference": {
      const options = props.options ?? (field.options ?? []).map((option) => ({ value: option, label: words(option) }));
      control = (
        <select {...common} required={field.required}>
          {field.required && text !== "" ? null : <option value="">{field.kind === "reference" ? `— no ${field.label.toLowerCase()} —` : "—"}</option>}
          {options.map((option) => (
            <option value={option.value} selected={option.value === text}>
              {option.label}
            </option>
          ))}
        </select>
      );
      break;
    }
    case "boolean":
      control = (
        <>
          <input type="hidden" name={name} value="false" />
          <input type="checkbox" {...common} value="true" checked={props.value === true || text === "true"} />
        </>
      );
      break;
    case "textarea":
      control = (
        <textarea {...common} rows={4} maxlength={field.maxLength} required={field.required}>
          {text}
        </textarea>
      );
      break;
    case "money":
      control = (
        <input
          {...common}
          type="text"
          inputmode="decimal"
          value={typeof props.value === "number" ? toMajorUnits(props.value, props.currency ?? "USD") : text}
          required={field.required}
        />
      );
      break;
    default: {
      const type = { email: "email", tel: "tel", date: "date", integer: "number", number: "number" }[field.kind as string] ?? "text";
      control = (
        <input
          {...common}
          type={type}
          value={text}
          maxlength={field.maxLength}
          required={field.required}
          step={field.kind === "number" ? "any" : undefined}
          autocomplete={field.kind === "email" ? "email" : field.kind === "tel" ? "tel" : undefined}
          class={field.kind === "currency" ? "short" : undefined}
        />
      );
    }
  }
  return (
    <div class={`field${field.kind === "boolean" ? " check" : ""}`}>
      <label for={id}>
        {field.label}
        {field.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {control}
      {errors[field.name] ? (
        <p class="field-error" id={`${field.name}-error`}>
          {errors[field.name]}
        </p>
      ) : null}
    </div>
  );
}

/** How a value of a record reads on a page: money with its currency, enums in words, references by name. */
export function displayValue(field: FieldSpec, record: Record<string, unknown>, labels?: Labels): string {
  const value = valueAt(record, field.name);
  if (value === null || value === undefined || value === "") return "—";
  if (field.kind === "money" && typeof value === "number") return formatMoney(value, String(record[field.currencyField ?? "currency"] ?? "USD"));
  if (field.kind === "reference" && field.reference) return labels?.get(field.reference.resource)?.get(Number(value)) ?? `#${value}`;
  if (field.kind === "boolean" || typeof value === "boolean") return value ? "Yes" : "No";
  if (field.kind === "enum") return words(String(value));
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value)) return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
  if (typeof value === "number") return value.toLocaleString("en-US");
  return String(value);
}

/** A value cell: references link to their record, enums carry a status badge. */
export function Value(props: { field: FieldSpec; record: Record<string, unknown>; labels?: Labels }) {
  const { field, record } = props;
  const shown = displayValue(field, record, props.labels);
  const value = valueAt(record, field.name);
  if (field.kind === "reference" && field.reference && value !== null && value !== undefined) {
    return <a href={`/app/${field.reference.resource}/${value}`}>{shown}</a>;
  }
  if (field.kind === "enum" && value) return <span class={`badge ${String(value)}`}>{shown}</span>;
  return <>{shown}</>;
}

/** A table that scrolls inside its card on a narrow screen, never the page. */
export function TableWrap(props: { label: string; children: unknown }) {
  return (
    <section class="table-wrap" aria-label={props.label} tabindex={0}>
      {props.children}
    </section>
  );
}
