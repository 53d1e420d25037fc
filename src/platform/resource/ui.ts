/**
 * How a resource shows in the web app, beside what its definition already says (fields, types, enums,
 * references, filters, sort keys). The generated pages (platform/web/resource-pages.tsx) read it.
 */
export type ResourceUi = {
  /** The output field that names a record (a contact's name, an invoice's number): titles, links, search. */
  title: string;
  /** The output fields a list shows, in order (the title links to the record). */
  columns: string[];
  /** Money fields, input or output, and the field holding their currency: typed and shown in major units. */
  money?: Record<string, string>;
  /** A board view (`?view=board`): one column per value of this enum field; a card moves by `move`. */
  board?: { field: string; move: BoardMove };
  /** The API's own actions on a record (beyond update and delete), offered on its page. */
  actions?: PageAction[];
  /** Form fields left out (the API sets them through an action, e.g. a deal's lost_reason stays). */
  hiddenInForms?: string[];
  /** Form fields shown as a multi-line text area. */
  multiline?: string[];
  /** Records can be imported from a CSV file (all or nothing, through the batch route). */
  importable?: boolean;
  /** What the record's Delete button says ("Reverse" for a payment). */
  deleteLabel?: string;
  /** Writes the API offers through routes of the resource's own when the generated ones are off (a payment's create and reverse). */
  writes?: { create?: boolean; update?: boolean; delete?: boolean };
  /** Generated pages a hand-written view replaces. */
  replaces?: { form?: boolean };
  /** False: the pages of the records it references show no table of it (they show it their own way: a ticket's conversation). */
  relatedTable?: false;
  /** Related rows on the record's page that the references cannot tell (a customer's payments). */
  related?: RelatedList[];
  /** Links on the record's page to another page (record a payment for this invoice). */
  links?: PageLink[];
  /** A block of the resource's own at the top of its page (an invoice's delivery and public link). */
  panel?: (record: Record<string, unknown>) => unknown;
  /**
   * A section of the resource's own below the panel (a ticket's thread and reply form), read through the API as
   * the signed-in user: `read` is the API in-process, `csrf` the form token for the section's own forms.
   */
  section?: (record: Record<string, unknown>, page: SectionContext) => Promise<unknown>;
  /** What the page says after `?done=<key>` from the resource's own page routes (a ticket's reply form). */
  notices?: Record<string, string>;
  /** Output fields the page's facts leave out, because the panel shows them better. */
  hiddenInDetail?: string[];
};

export type SectionContext = {
  read<T = Record<string, unknown>[]>(path: string): Promise<{ ok: true; data: T } | { ok: false; status: number }>;
  csrf: string;
  /** Whether the user's role may write this resource (viewers get no forms). */
  canWrite: boolean;
  /** The signed-in user ("You" in a conversation). */
  user: { id: number; name: string };
};

export type PageLink = {
  label: string;
  href: (record: Record<string, unknown>) => string;
  when?: (record: Record<string, unknown>) => boolean;
  /** Shown only to roles that may write this resource. */
  writes?: string;
};

/** How a board card moves: the update route with the field, or an action route with a body. */
export type BoardMove = { kind: "update" } | { kind: "action"; method: "PUT" | "POST"; path: string };

export type PageAction = {
  /** The page route's last segment: POST /app/R/{id}/{name}. */
  name: string;
  label: string;
  /** The API call it makes, relative to /R/{id} ("send", "status"), or "" for the record itself. */
  method: "POST" | "PUT" | "DELETE";
  path: string;
  /** A fixed body (e.g. a task's status), or fields the user fills in first. */
  body?: Record<string, unknown>;
  fields?: string[];
  /** Offered only while this holds for the record as the API shows it. */
  when?: (record: Record<string, unknown>) => boolean;
  /** Asked before it runs (a destructive or outward action). */
  confirm?: string;
  /** The page's main button. */
  primary?: boolean;
  /** What the notice says after it ran. */
  done: string;
};

/** Rows of another resource listed on a record's page: GET /{resource}?{filter}={id}. */
export type RelatedList = { resource: string; filter: string; title: string };
