/**
 * What a message means, as data: a query over one resource (conditions, the period and the date field it
 * is about, an aggregate with grouping and ranking, the one record it is about) or an action on one. The
 * conversation keeps the last of these, so a follow-up can change one part of it.
 */

export type Op = "eq" | "ne" | "in" | "not_in" | "gt" | "gte" | "lt" | "lte" | "contains";

/** A condition on an output field, or (`param`) a filter the API's list route offers that is no field (`overdue`). */
export type Condition = { field: string; op: Op; value: unknown; label: string } | { param: string; value: string; label: string; negate?: boolean };

export type Fn = "list" | "count" | "sum" | "avg" | "min" | "max";

export type Aggregate = {
  fn: Fn;
  /** The field summed, averaged, ranked or shown. */
  field: string | null;
  groupBy: string | null;
  order: "asc" | "desc" | null;
  limit: number | null;
};

export type Period = { field: string; from: string; to: string; label: string };
/** The end of a period that has none ("the next invoice due": due from today on). */
export const OPEN_END = "9999-12-31";

/** A record the question is about, resolved: itself, or what it restricts (a customer's invoices). */
export type Subject = { resource: string; id: number; label: string };

export type Query = {
  resource: string;
  conditions: Condition[];
  period: Period | null;
  aggregate: Aggregate;
  subject: Subject | null;
  /** A field of one record that was asked for ("phone of …"). */
  show: string | null;
  /** What the number is called when a measure word asked for it ("Revenue", "Outstanding"). */
  title?: string;
};

export type ActionOperation = "create" | "update" | "delete" | string;

/** A write, with its fields as typed (names still names) until it is resolved. */
export type ActionDraft = {
  resource: string;
  operation: ActionOperation;
  /** The record it changes: an id, a name to find, or the record the conversation is about. */
  target: { id?: number; name?: string; version?: string } | null;
  fields: Record<string, unknown>;
  /** Names of the records its reference fields hold, for the summary. */
  labels?: Record<string, string>;
};

export type Choice = { resource: string; id: number; label: string };

/** What the conversation remembers between messages (stored in the assistant's reply). */
export type ConversationState = {
  query?: Query;
  /** A name that matched several records: the options, and what to do once one is chosen. */
  choose?: { options: Choice[]; resume: Resume };
  /** An action waiting for a required field. */
  slot?: { draft: ActionDraft; missing: string[] };
  /** The action last proposed, not yet confirmed ("make it high priority" adds to it). */
  pending?: ActionDraft;
  /** The record the last answer was about ("mark it done"). */
  focus?: { resource: string; id: number; label: string };
  /** The records the last answer listed, in its order ("the email for the second one"). */
  listed?: Choice[];
  /** The record a reference the last answer showed names ("who's on task 210" → Katherine: "her phone"). */
  named?: Choice;
};

/** Where a chosen record goes: the query's subject, a reference field's condition, or a list filter. */
export type Role = { subject: true } | { field: string } | { param: string };

/** A clarification's continuation: a query whose subject or condition is the chosen record, or an action's target or field. */
/** Which record an action's unclear name means: asked once the one before it is answered. */
export type QueuedChoice = { text: string; options: Choice[]; role: { target: true } | { field: string } };
export type Resume =
  | { kind: "query"; query: Query; role: Role }
  | { kind: "action"; draft: ActionDraft; role: { target: true } | { field: string }; queued?: QueuedChoice[] };
