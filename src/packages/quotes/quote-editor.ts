import { linesEditorPages } from "../account/lines-editor";
import { EDITABLE, quoteResource } from "./quotes";

/** The new and edit forms of a quote: the lines editor invoices use. */
export const quoteEditorPages = linesEditorPages({
  resource: quoteResource,
  editable: (quote) => EDITABLE.includes(quote.status as (typeof EDITABLE)[number]),
  lockedHint: "The lines of an answered quote cannot change; create a new quote instead.",
});
