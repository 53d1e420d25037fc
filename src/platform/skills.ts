/**
 * What a package teaches the assistant about itself (its manifest's `skills`): the words people use for
 * its resources, fields, states and metrics, and the actions it can prepare. Skills are data: the
 * assistant package owns the understanding and answers through the package's own REST routes, so
 * permissions, scopes and package switches apply exactly as over HTTP.
 */

/** How a value is shown: money as "1,534.50 USD" (with the record's currency field), minutes as "2 h 30 min". */
export type ValueFormat = "text" | "money" | "date" | "datetime" | "minutes" | "count" | "percent" | "boolean";

/** A record as the REST API returns it. */
export type ApiRecord = Record<string, unknown> & { id: number };

export type FieldSkill = {
  /** Words that ask for it: "phone", "phone number", "mobile". */
  words: string[];
  format?: ValueFormat;
  /** For money: the field holding the currency (default "currency"). */
  currencyField?: string;
  /**
   * For a free-text field with a vocabulary of its own: the words that mean each of its usual values
   * ("too expensive" → price), and the change that says it (a lost reason only when the stage becomes lost).
   */
  means?: Record<string, string[]>;
  when?: Record<string, string>;
};

/** Words that select records: "overdue" → `?overdue=true`, "in negotiation" → `?stage=negotiation&status=open`. */
export type FilterWords = { words: string[]; query: Record<string, string>; label: string };

export type ResourceSkill = {
  kind: "resource";
  /** The REST collection: GET /{resource}. */
  resource: string;
  singular: string;
  plural: string;
  /** Other nouns for it ("bill", "opportunity", "staff"). */
  synonyms?: string[];
  /** The output field holding its name (fuzzy lookups by name use `?q=`). */
  nameField?: string;
  /**
   * Its records are named "who — what" ("Initech - renewal", "Acme — website relaunch"): a dash in a new
   * one's name is part of the name. Without it a dash ends a name ("Jane Doe - Acme": a name, then a company).
   */
  pairedName?: boolean;
  /** A reference people type, and the search it becomes ("INV-000012"). */
  reference?: { pattern: RegExp; query(match: string): Record<string, string> };
  /** How a record is cited: "INV-000012 — Acme (1,534.50 USD)". */
  label(record: ApiRecord): string;
  /** One line per record in a list reply. */
  line(record: ApiRecord): string;
  fields: Record<string, FieldSkill>;
  filters?: FilterWords[];
  /** "over 10,000" → `?{min}=1000000` (minor units). */
  amount?: { min: string; max: string };
  /**
   * Date words → the date field they mean ("won" → closed_at, "logged" → date) and its range filter
   * ("due this week" → due_after/due_before). `created` is always there; `default` is the field a bare
   * period is about. `alone`: of the resources a word is said of, this one's when nothing
   * else says which ("what's due this week" asks for tasks; "… that hasn't been paid" still for invoices).
   */
  dates?: { words: string[]; field?: string; after: string; before: string; format: "date" | "datetime"; default?: boolean; alone?: boolean }[];
  /**
   * Date words for date fields the list route has no range filter for ("completed" → completed_at). `where`
   * is what records a date of that field asks about ("closing this month": the deals still open).
   */
  dateFields?: { words: string[]; field: string; where?: Record<string, string> }[];
  /** The number people compare and add up when they name none ("deals over 5k" → value). */
  measure?: string;
  /** The body fields of the API's own actions on a record (`hire`: designation, department…). */
  operationFields?: Record<string, string[]>;
  /**
   * Words that ask for a number of this resource, and which: "owe" → the sum of amount_due over unpaid
   * invoices, "hours" → the sum of minutes; `show` answers with a field of one record ("how far along").
   * `where` uses the filter syntax of `filters` (a field's value, a comma list, `!` for "not").
   */
  measures?: { words: string[]; field: string | null; fn?: "sum" | "count" | "avg"; where?: Record<string, string>; show?: string; title?: string }[];
  /** A free value after a word: "leads from website" → `?source=website`, "employees in sales" → `?department=sales`. */
  values?: { words: string[]; param: string }[];
  /** "assigned to Ana" → an employee's id as `param`. */
  person?: { words: string[]; param: string };
  /**
   * Commands on the collection that name a person and nothing else: "clock in Brian" → POST
   * /attendance/clock-in {employee_id}. `label` starts the summary the user confirms ("Clock in Brian Kim").
   */
  commands?: { name: string; words: string[]; method: "POST"; path: string; person: string; label: string }[];
  /**
   * Reports about one person a route of the package serves ("Ana's leave balance" → GET
   * /employees/{id}/leave-balances): the words that ask for it, the path (`{id}` is the employee's), and the answer.
   */
  personReports?: { words: string[]; path: string; answer(data: unknown, person: string): string }[];
  /** "tasks in Website" → a project's id as `param`. */
  parents?: { words: string[]; resource: string; param: string }[];
  /** Sort for "biggest", "latest" questions. */
  sorts?: { words: string[]; sort: string }[];
};

/**
 * A dashboard widget as an answer: "revenue this month" → account.revenue with that period. `pick` answers
 * with one item of a breakdown ("headcount in engineering" → the Engineering item).
 */
export type MetricSkill = {
  kind: "metric";
  widget: string;
  /** Phrases that ask for it. */
  phrases: string[];
  /** How to say the value: "Revenue", "Outstanding". */
  title: string;
  /** A breakdown widget answering "X in <item>", e.g. headcount by department. */
  pick?: { widget: string; words?: string[] };
  /** A value as of now (outstanding, headcount): the period does not change it. */
  now?: boolean;
  /**
   * Its phrases name this metric even where a resource's records seem to answer: "top products by revenue"
   * is the widget's ranking, not products sorted by a field (a product has no revenue of its own).
   */
  ownsPhrases?: boolean;
  /** Default period when the message names none (default 30d). */
  defaultPeriod?: "7d" | "30d" | "90d" | "12mo" | "mtd" | "ytd";
};

/** What an action needs, read from the message by the assistant's parser for its `slots`. */
export type SlotKind = "title" | "date" | "record" | "state" | "email" | "text" | "amount";

export type ActionSlot = {
  name: string;
  kind: SlotKind;
  /** For record slots: the resource whose record it names ("projects"). */
  resource?: string;
  /** A record named only by its reference ("INV-000012", "invoice 12"), never by other words. */
  byReference?: boolean;
  /** For state slots: word → value ("done", "finished" → done). */
  states?: Record<string, string[]>;
  /** Words introducing it in the message ("in", "for", "due", "to"). */
  after?: string[];
  required?: boolean;
};

export type ActionRequest = { method: "POST" | "PUT" | "PATCH"; path: string; body?: Record<string, unknown> };

export type ActionSkill = {
  kind: "action";
  /** "create_task": the action's kind, and the classifier's intent `action.create_task`. */
  name: string;
  /** The resource it writes (permission and package checks before it is proposed). */
  resource: string;
  slots: ActionSlot[];
  /** The REST call it makes once confirmed. */
  request(values: Record<string, unknown>): ActionRequest;
  /** "Create the task "Call Acme" in project Website, due Friday 2026-11-27". */
  summary(values: Record<string, unknown>, labels: Record<string, string>): string;
};

export type Skill = ResourceSkill | MetricSkill | ActionSkill;
