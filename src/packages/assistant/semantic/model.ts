import type { AnyResource } from "../../../platform/resource/definition";
import type { PageAction } from "../../../platform/resource/ui";
import type { ResourceSkill } from "../../../platform/skills";
import type { Catalog } from "../understand";

/**
 * The schema the assistant reads questions against, built from the resources' own definitions: every
 * output field with its kind (enum values, references, money with its currency field, dates, numbers,
 * booleans, text), the list filters the API offers, the create and update bodies, and the API's actions
 * on a record. A package's skills add only words (synonyms, what "owe" or "logged" mean). So a package
 * added later is understood by construction: its enums, names, references and dates are read from here.
 */

export type FieldKind = "enum" | "reference" | "money" | "minutes" | "number" | "boolean" | "date" | "datetime" | "text" | "other";

export type FieldModel = {
  name: string;
  kind: FieldKind;
  /** Enum values. */
  values?: string[];
  /** The resource a reference points to. */
  target?: string;
  /** The field holding a money field's currency. */
  currencyField?: string;
  /** Words that name the field: its own name's words and the skill's. */
  words: string[];
};

export type BodyField = {
  name: string;
  required: boolean;
  kind: FieldKind;
  values?: string[];
  target?: string;
  /** The fields of an object field (a customer's billing address). */
  parts?: string[];
};

export type ResourceModel = {
  name: string;
  pkg: string;
  singular: string;
  plural: string;
  /** Every noun for it, longest first. */
  nouns: string[];
  nameField: string | null;
  fields: Map<string, FieldModel>;
  /** The list filters the API route takes (some are not fields: `overdue`, `country`). */
  filters: Set<string>;
  /** The default number people compare and add up ("over 5k" on deals means value). */
  measure: string | null;
  /** Date fields and the words (verbs) that pick them; `defaultDate` when none is said. */
  dateWords: { field: string; words: string[]; where?: Record<string, string>; alone?: boolean }[];
  defaultDate: string;
  create: BodyField[] | null;
  update: BodyField[] | null;
  deletable: boolean;
  /** The API's actions on a record (send, void, hire…). */
  operations: PageAction[];
  /** The create and update bodies' schemas: a proposed write is checked before it is offered. */
  schemas: { create: unknown; update: unknown };
  skill: ResourceSkill | null;
  /** The named records this one belongs to (a task's project and assignee): how "the mobile app's fix dashboard" is told apart. */
  parents: { field: string; resource: ResourceModel }[];
};

export type SchemaModel = { resources: ResourceModel[]; byName: Map<string, ResourceModel> };

type ZodLike = { _zod?: { def: Record<string, unknown> } };
const defOf = (schema: unknown) => (schema as ZodLike)._zod?.def ?? {};

/** The schema under optional/nullable/default/pipe wrappers. */
function unwrap(schema: unknown): { def: Record<string, unknown>; optional: boolean } {
  let current = schema;
  let optional = false;
  for (let i = 0; i < 8; i++) {
    const def = defOf(current);
    const type = def.type as string | undefined;
    if (type === "optional" || type === "default" || type === "prefault") optional = true;
    if (type === "optional" || type === "nullable" || type === "default" || type === "prefault" || type === "readonly") current = def.innerType;
    else if (type === "pipe") current = def.in;
    else return { def, optional };
  }
  return { def: defOf(current), optional };
}

function shapeOf(schema: unknown): Record<string, unknown> {
  const { def } = unwrap(schema);
  return (def.shape as Record<string, unknown> | undefined) ?? {};
}

/** A field's own name as words: "customer_id" is "customer", but "tax_id" (no reference) stays "tax id". */
const wordsOfName = (name: string, reference: boolean) => (reference ? name.replace(/_id$/, "") : name).replace(/_/g, " ");

function kindOf(
  name: string,
  schema: unknown,
  def: AnyResource,
  targets: Map<string, string>,
): Pick<FieldModel, "kind" | "values" | "target" | "currencyField"> {
  const target = targets.get(name);
  if (target) return { kind: "reference", target };
  const money = def.ui?.money?.[name];
  if (money) return { kind: "money", currencyField: money };
  const inner = unwrap(schema).def;
  const type = inner.type as string | undefined;
  if (type === "enum") return { kind: "enum", values: Object.values(inner.entries as Record<string, string>) };
  if (type === "boolean") return { kind: "boolean" };
  if (type === "number" || type === "int") return { kind: name.includes("minutes") ? "minutes" : "number" };
  if (type === "string") {
    if (name === "date" || name.endsWith("_date") || name.startsWith("date_")) return { kind: "date" };
    if (name.endsWith("_at")) return { kind: "datetime" };
    return { kind: "text" };
  }
  return { kind: "other" };
}

/** A body's fields; one whose schema is custom (a refined date, a bounded name) takes its output field's kind. */
function bodyOf(schema: unknown, def: AnyResource, targets: Map<string, string>, output: Map<string, FieldModel>): BodyField[] {
  return Object.entries(shapeOf(schema)).map(([name, field]) => {
    const kind = kindOf(name, field, def, targets);
    const known = output.get(name);
    const resolved = kind.kind === "other" && known ? { kind: known.kind, values: known.values, target: known.target } : kind;
    const parts = unwrap(field).def.type === "object" ? Object.keys(shapeOf(field)) : undefined;
    return { name, required: !unwrap(field).optional, ...resolved, ...(parts ? { parts } : {}) };
  });
}

/** Built once per catalogue (a pure function of the packages in the build). */
export function buildSchema(catalog: Catalog, definitions: { pkg: string; definition: AnyResource }[]): SchemaModel {
  const byTable = new Map(definitions.map(({ definition }) => [definition.table, definition.name]));
  const resources: ResourceModel[] = definitions.map(({ pkg, definition }) => {
    const skill = catalog.resources.find((entry) => entry.skill.resource === definition.name)?.skill ?? null;
    const targets = new Map<string, string>();
    for (const reference of definition.references ?? []) {
      const target = byTable.get(reference.table);
      if (target) targets.set(reference.field, target);
    }
    // An id the definition checks elsewhere ("invoice_id" of a payment) still names a record of that resource.
    for (const name of Object.keys(shapeOf(definition.schemas.output))) {
      const stem = /^(.+)_id$/.exec(name)?.[1];
      const target = stem && definitions.find(({ definition: other }) => other.singular.replace(/ /g, "_") === stem || other.name === `${stem}s`);
      if (target && !targets.has(name)) targets.set(name, target.definition.name);
    }
    const fields = new Map<string, FieldModel>();
    for (const [name, schema] of Object.entries(shapeOf(definition.schemas.output))) {
      if (name === "id" || name === "updated_at" || name === "deleted_at") continue;
      const kind = kindOf(name, schema, definition, targets);
      const money = skill?.fields[name]?.format === "money" && kind.kind !== "money" ? { kind: "money" as const, currencyField: "currency" } : {};
      const own = wordsOfName(name, kind.kind === "reference");
      // (A count said of one: "more than one position".)
      const singular = kind.kind === "number" && /[^s]s$/.test(own) ? [own.slice(0, -1)] : [];
      fields.set(name, { name, ...kind, ...money, words: [own, ...singular, ...(skill?.fields[name]?.words ?? [])] });
    }
    const routes = definition.routes ?? {};
    const dateWords = [
      ...(skill?.dates ?? []).flatMap((date) => (date.field ? [{ field: date.field, words: date.words, alone: date.alone }] : [])),
      ...(skill?.dateFields ?? []),
    ];
    const nouns = [skill?.plural ?? definition.name, skill?.singular ?? definition.singular, ...(skill?.synonyms ?? [])].sort((a, b) => b.length - a.length);
    return {
      name: definition.name,
      pkg,
      singular: skill?.singular ?? definition.singular,
      plural: skill?.plural ?? definition.name.replace(/-/g, " "),
      nouns,
      nameField: skill?.nameField ?? definition.ui?.title ?? null,
      fields,
      filters: new Set(Object.keys(definition.filters)),
      measure: skill?.measure ?? [...fields.values()].find((field) => field.kind === "money" || field.kind === "minutes")?.name ?? null,
      dateWords,
      defaultDate: skill?.dates?.find((date) => date.default)?.field ?? "created_at",
      create: routes.create === false && !definition.ui?.writes?.create ? null : bodyOf(definition.schemas.create, definition, targets, fields),
      update: routes.update === false ? null : bodyOf(definition.schemas.update, definition, targets, fields),
      deletable: routes.delete !== false || Boolean(definition.ui?.writes?.delete),
      operations: definition.ui?.actions ?? [],
      schemas: { create: definition.schemas.create, update: definition.schemas.update },
      skill,
      parents: [],
    };
  });
  const byName = new Map(resources.map((resource) => [resource.name, resource]));
  for (const resource of resources)
    for (const field of resource.fields.values()) {
      const parent = field.target && field.target !== resource.name ? byName.get(field.target) : undefined;
      if (parent?.nameField) resource.parents.push({ field: field.name, resource: parent });
    }
  return { resources, byName };
}
