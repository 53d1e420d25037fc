import { z } from "@hono/zod-openapi";
import type { PackageRegistry } from "../packages";
import type { AnyResource } from "../resource/definition";

/** What kind of input a body field gets, read from the resource's own zod schemas. */
export type FieldKind = "text" | "textarea" | "email" | "tel" | "integer" | "number" | "money" | "date" | "enum" | "boolean" | "reference" | "currency";

export type FieldSpec = {
  /** The API body field: the form field's name too. */
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  options?: readonly string[];
  maxLength?: number;
  /** A reference: the resource whose rows it names. */
  reference?: { resource: string; what: string };
  /** A money field: the field holding its currency. */
  currencyField?: string;
};

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const ACRONYMS: Record<string, string> = { id: "ID", url: "URL", vat: "VAT", sla: "SLA" };

/** "date_of_joining" → "Date of joining", "customer_id" → "Customer", "tax_id" → "Tax ID". */
export function labelOf(field: string): string {
  const words = field.replace(/_id$/, field === "tax_id" ? "_id" : "").split("_");
  const text = words.map((word) => ACRONYMS[word] ?? word).join(" ");
  return text === "email" ? "E-mail" : text.charAt(0).toUpperCase() + text.slice(1);
}

// A schema's field list is a pure function of the schema: read once per schema.
const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    jsonSchemas.set(schema, json);
  }
  return json;
}

function kindOf(def: AnyResource, name: string, schema: JsonSchema, registry: PackageRegistry): Omit<FieldSpec, "name" | "label" | "required"> {
  const variants = schema.anyOf ?? [schema];
  const nullable = variants.some((variant) => variant.type === "null" || (Array.isArray(variant.type) && variant.type.includes("null")));
  const base = variants.find((variant) => variant.type !== "null") ?? schema;
  const type = Array.isArray(base.type) ? base.type.find((t) => t !== "null") : base.type;
  const reference = def.references?.find((candidate) => candidate.field === name);
  if (reference) {
    const target = registry.definitions().find(({ definition }) => definition.table === reference.table)?.definition;
    if (target) return { kind: "reference", nullable, reference: { resource: target.name, what: reference.what } };
  }
  const currencyField = def.ui?.money?.[name];
  if (currencyField) return { kind: "money", nullable, currencyField };
  if (base.enum) return { kind: "enum", nullable, options: base.enum.map(String) };
  if (type === "boolean") return { kind: "boolean", nullable };
  if (type === "integer") return { kind: "integer", nullable };
  if (type === "number") return { kind: "number", nullable };
  if (base.format === "date") return { kind: "date", nullable };
  if (name === "currency") return { kind: "currency", nullable, maxLength: 3 };
  if (name === "email" || name.endsWith("_email")) return { kind: "email", nullable, maxLength: base.maxLength };
  if (name === "phone" || base.pattern?.startsWith("^\\+")) return { kind: "tel", nullable };
  const multiline = def.ui?.multiline?.includes(name) || (base.maxLength ?? 0) > 500;
  return { kind: multiline ? "textarea" : "text", nullable, maxLength: base.maxLength };
}

/** An object field's own schema (`billing`), when the field is one. */
function objectSchema(schema: JsonSchema): JsonSchema | null {
  const found = (schema.anyOf ?? [schema]).find((variant) => variant.type === "object" && variant.properties);
  return found ?? null;
}

/**
 * A body's fields in the schema's order; an object field (a customer's billing details) becomes its own
 * fields ("billing.city", posted as `billing[city]`). Arrays are left to hand-written views.
 */
function fieldsOf(def: AnyResource, registry: PackageRegistry, json: JsonSchema, requiredHere: boolean, prefix = ""): FieldSpec[] {
  const hidden = new Set(def.ui?.hiddenInForms ?? []);
  return Object.entries(json.properties ?? {}).flatMap(([key, schema]) => {
    const name = `${prefix}${key}`;
    if (hidden.has(name) || schema.type === "array") return [];
    const nested = objectSchema(schema);
    if (nested) return fieldsOf(def, registry, nested, false, `${name}.`);
    const label = prefix ? `${labelOf(prefix.slice(0, -1))} ${labelOf(key).toLowerCase()}` : labelOf(key);
    return [{ name, label, required: requiredHere && (json.required ?? []).includes(key), ...kindOf(def, name, schema, registry) }];
  });
}

/** The fields of a create or update body, as form inputs. */
export function formFields(def: AnyResource, registry: PackageRegistry, mode: "create" | "update"): FieldSpec[] {
  return fieldsOf(def, registry, jsonSchemaOf(mode === "create" ? def.schemas.create : def.schemas.update, "input"), mode === "create");
}

/** The fields of the resource as the API shows it (detail pages, lists, CSV). */
export function outputFields(def: AnyResource, registry: PackageRegistry): FieldSpec[] {
  return fieldsOf(def, registry, jsonSchemaOf(def.schemas.output, "output"), false);
}

/** The array-of-objects fields of the output (an invoice's items) and their item fields, for a table on the record's page. */
export function listFields(def: AnyResource, registry: PackageRegistry): { name: string; label: string; fields: FieldSpec[] }[] {
  const json = jsonSchemaOf(def.schemas.output, "output");
  return Object.entries(json.properties ?? {}).flatMap(([name, schema]) => {
    const item = (schema as JsonSchema & { items?: JsonSchema }).items;
    if (schema.type !== "array" || !item?.properties) return [];
    return [{ name, label: labelOf(name), fields: fieldsOf(def, registry, item, false) }];
  });
}

/** "billing.city" → "billing[city]": how a nested field is named in a form. */
export const formName = (name: string) => name.replace(/\.(\w+)/g, "[$1]");

/** A field's value in a record, nested fields included. */
export function valueAt(record: Record<string, unknown> | undefined, name: string): unknown {
  let value: unknown = record;
  for (const part of name.split(".")) value = value && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** A list filter's input: an enum select, a date, a reference, yes/no, or text. */
export function filterField(def: AnyResource, registry: PackageRegistry, name: string): FieldSpec {
  const filter = def.filters[name]!;
  const json = jsonSchemaOf(filter.schema as z.ZodType, "input");
  const output = outputFields(def, registry);
  const same = output.find((field) => field.name === name);
  const bounded = output.find((field) => field.name === name.replace(/_(min|max)$/, ""));
  const label = labelOf(name.replace(/_(min|max)$/, (_, bound: string) => (bound === "min" ? "_from" : "_to")));
  if (same && (same.kind === "enum" || same.kind === "reference")) return { ...same, label: labelOf(name), required: false, nullable: true };
  if (bounded?.kind === "money") return { ...bounded, name, label, required: false, nullable: true };
  if (json.enum?.length === 2 && json.enum.includes("true")) return { name, label: labelOf(name), kind: "boolean", required: false, nullable: true };
  if (json.format === "date") return { name, label: labelOf(name), kind: "date", required: false, nullable: true };
  const reference = def.references?.find((candidate) => candidate.field === name);
  if (reference || name.endsWith("_id")) {
    const target = reference && registry.definitions().find(({ definition }) => definition.table === reference.table)?.definition;
    const resource = target?.name ?? `${name.replace(/_id$/, "").replaceAll("_", "-")}s`;
    if (registry.definitions().some(({ definition }) => definition.name === resource))
      return { name, label: labelOf(name), kind: "reference", required: false, nullable: true, reference: { resource, what: labelOf(name).toLowerCase() } };
  }
  return { name, label, kind: json.pattern?.startsWith("^(0|") ? "integer" : "text", required: false, nullable: true };
}
