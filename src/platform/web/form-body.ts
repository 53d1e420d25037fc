import { minorDigits } from "../format";
import { type FieldSpec, formName } from "./fields";

/**
 * A form, as the API's JSON body: fields named as the body's, money typed in major units ("125.50") and
 * sent in the currency's minor units (12550), ids and numbers as numbers, checkboxes as booleans. An empty
 * input is left out of a create (the API applies its default or says the field is required) and is null
 * on an update of a nullable field. What cannot be read (a malformed amount) is a problem by field, and
 * nothing is sent.
 */
export function bodyFromForm(
  fields: FieldSpec[],
  form: FormData,
  mode: "create" | "update",
  fallbackCurrency = "USD",
): { body: Record<string, unknown>; problems: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  const currencyOf = (field: FieldSpec) => {
    const typed = field.currencyField ? formText(form, field.currencyField).toUpperCase() : "";
    return /^[A-Z]{3}$/.test(typed) ? typed : fallbackCurrency;
  };
  const set = (name: string, value: unknown) => {
    const parts = name.split(".");
    let target = body;
    for (const part of parts.slice(0, -1)) {
      target[part] ??= {};
      target = target[part] as Record<string, unknown>;
    }
    target[parts.at(-1)!] = value;
  };
  for (const field of fields) {
    const name = formName(field.name);
    if (field.kind === "boolean") {
      // A checkbox posts nothing when unticked: its hidden twin says the field was on the form.
      const values = form.getAll(name).map(String);
      if (values.length > 0) set(field.name, values.includes("true"));
      continue;
    }
    if (!form.has(name)) continue;
    const raw = formText(form, name);
    if (raw === "") {
      if (mode === "update") set(field.name, field.nullable || field.name.includes(".") ? null : "");
      continue;
    }
    const value = readValue(field, raw, currencyOf(field));
    if (value.problem) problems[field.name] = value.problem;
    else set(field.name, value.value);
  }
  return { body, problems };
}

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

function readValue(field: FieldSpec, raw: string, currency: string): { value?: unknown; problem?: string } {
  switch (field.kind) {
    case "integer":
    case "reference":
      return /^-?\d{1,16}$/.test(raw) ? { value: Number(raw) } : { problem: "must be a whole number" };
    case "number":
      return Number.isFinite(Number(raw)) ? { value: Number(raw) } : { problem: "must be a number" };
    case "money": {
      const minor = toMinorUnits(raw, currency);
      return minor === null ? { problem: `must be an amount such as 125.50 (at most ${minorDigits(currency)} decimals)` } : { value: minor };
    }
    case "currency":
      return { value: raw.toUpperCase() };
    default:
      return { value: raw };
  }
}

/** "1,234.5" in USD → 123450; null when it is not an amount with at most the currency's decimals. */
export function toMinorUnits(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(-?)(\d{1,16})(?:\.(\d+))?$/.exec(text.replaceAll(",", "").replaceAll(" ", ""));
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > digits) return null;
  const minor = Number(`${whole}${fraction.padEnd(digits, "0")}`);
  if (!Number.isSafeInteger(minor)) return null;
  return sign ? -minor : minor;
}

/** 12550 in USD → "125.50": what a money input shows. */
export function toMajorUnits(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
