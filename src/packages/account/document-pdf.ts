import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import { currencyFormatter, formatMoney } from "../../platform/format";
import type { InvoiceView } from "./invoice-view";
import type { StoredLine } from "./schema";

// A4 in points, and the page's margins.
const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 50;
const INK = rgb(0.1, 0.12, 0.15);
const MUTED = rgb(0.4, 0.43, 0.47);
const RULE = rgb(0.82, 0.84, 0.87);

// The standard PDF fonts encode WinAnsi only (Latin-1 and a few more): anything else is drawn as "?".
// Embedding a Unicode font would cost the bundle a font file and the PDF 50 ms of subsetting.
const WIN_ANSI = "\\n\\x20-\\x7e\\xa0-\\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
const NOT_WIN_ANSI = new RegExp(`[^${WIN_ANSI}]`);
const printable = (text: string) => text.replace(new RegExp(`[^${WIN_ANSI}]`, "g"), "?");

/** Money as the customer reads it ("$1,534.50"), or "1,534.50 INR" where the symbol is not WinAnsi. */
function moneyIn(currency: string): (amount: number) => string {
  const format = currencyFormatter(currency);
  return (amount) => {
    const formatted = format(amount);
    return NOT_WIN_ANSI.test(formatted) ? formatMoney(amount, currency) : formatted;
  };
}

type Fonts = { regular: PDFFont; bold: PDFFont };

/** Lines of at most `width` points, broken between words (a word longer than a line is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printable(text).split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) line = candidate;
      else {
        if (line) lines.push(line);
        line = word;
        while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
          let cut = line.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut -= 1;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Draws pages top to bottom, starting a new page when the next block does not fit. */
class Pages {
  page: PDFPage;
  y = HEIGHT - MARGIN;
  constructor(
    private readonly pdf: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.page = pdf.addPage([WIDTH, HEIGHT]);
  }
  room(height: number, onNewPage?: () => void): void {
    if (this.y - height >= MARGIN + 20) return;
    this.page = this.pdf.addPage([WIDTH, HEIGHT]);
    this.y = HEIGHT - MARGIN;
    onNewPage?.();
  }
  text(text: string, x: number, options: { size?: number; bold?: boolean; color?: ReturnType<typeof rgb>; right?: boolean } = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    const safe = printable(text);
    const at = options.right ? x - font.widthOfTextAtSize(safe, size) : x;
    this.page.drawText(safe, { x: at, y: this.y, size, font, color: options.color ?? INK });
  }
  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: WIDTH - MARGIN, y: this.y }, thickness: 0.7, color: RULE });
  }
}

// The lines table: description, quantity, unit price, tax, amount (right edges for the numbers).
const COLUMNS = { description: MARGIN, quantity: 350, unit: 430, tax: 475, amount: WIDTH - MARGIN };
const DESCRIPTION_WIDTH = 250;

function tableHeader(pages: Pages): void {
  for (const [label, x, right] of [
    ["Description", COLUMNS.description, false],
    ["Qty", COLUMNS.quantity, true],
    ["Unit price", COLUMNS.unit, true],
    ["Tax", COLUMNS.tax, true],
    ["Amount", COLUMNS.amount, true],
  ] as const)
    pages.text(label, x, { size: 9, bold: true, color: MUTED, right });
  pages.y -= 8;
  pages.rule();
  pages.y -= 14;
}

/** What a customer's document (an invoice, a quote) shows: the PDF draws exactly this. */
export type DocumentView = {
  /** "Invoice", "Quote". */
  title: string;
  number: string;
  statusLabel: string;
  workspaceName: string;
  billTo: string[];
  /** Right of "Bill to": ["Issued", "2026-11-01"], ["Due", …] or ["Valid until", …]. */
  dates: [string, string][];
  currency: string;
  items: StoredLine[];
  /** Below the lines: label, amount, bold. */
  totals: [string, number, boolean][];
  notes: string | null;
  publicUrl: string | null;
};

/** The invoice as its customer's document. */
export function invoiceDocument(invoice: InvoiceView): DocumentView {
  return {
    title: "Invoice",
    number: invoice.number,
    statusLabel: invoice.statusLabel,
    workspaceName: invoice.workspaceName,
    billTo: invoice.billTo,
    dates: [
      ["Issued", invoice.issueDate],
      ["Due", invoice.dueDate ?? "On receipt"],
    ],
    currency: invoice.currency,
    items: invoice.items,
    totals: [
      ["Subtotal", invoice.subtotal, false],
      ["Tax", invoice.taxTotal, false],
      ["Total", invoice.total, true],
      ["Paid", invoice.amountPaid, false],
      ["Balance due", invoice.amountDue, true],
    ],
    notes: invoice.notes,
    publicUrl: invoice.publicUrl,
  };
}

/** The invoice as an A4 PDF: the same numbers as the API, amounts in the invoice's currency. */
export function invoicePdf(invoice: InvoiceView): Promise<Uint8Array> {
  return documentPdf(invoiceDocument(invoice));
}

/** A customer's document as an A4 PDF: the same numbers as the API, amounts in its currency. */
export async function documentPdf(document: DocumentView): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${document.title} ${document.number}`);
  pdf.setAuthor(printable(document.workspaceName));
  pdf.setCreator("Business Platform");
  const fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  const pages = new Pages(pdf, fonts);
  const right = WIDTH - MARGIN;
  const money = moneyIn(document.currency);

  pages.text(document.workspaceName, MARGIN, { size: 18, bold: true });
  pages.text(`${document.title} ${document.number}`, right, { size: 14, bold: true, right: true });
  pages.y -= 18;
  pages.text(document.statusLabel, right, { size: 10, color: MUTED, right: true });
  pages.y -= 30;

  // Bill to on the left, the dates on the right.
  const top = pages.y;
  pages.text("Bill to", MARGIN, { size: 9, bold: true, color: MUTED });
  pages.y -= 14;
  for (const line of document.billTo) {
    pages.text(line, MARGIN);
    pages.y -= 13;
  }
  const afterBillTo = pages.y;
  pages.y = top;
  for (const [label, value] of document.dates) {
    pages.text(label, 400, { size: 9, color: MUTED });
    pages.text(value, right, { right: true });
    pages.y -= 14;
  }
  pages.y = Math.min(afterBillTo, pages.y) - 20;

  tableHeader(pages);
  for (const item of document.items) {
    const lines = wrap(item.description, fonts.regular, 10, DESCRIPTION_WIDTH);
    pages.room(lines.length * 13 + 6, () => tableHeader(pages));
    pages.text(lines[0]!, COLUMNS.description);
    pages.text(String(item.quantity), COLUMNS.quantity, { right: true });
    pages.text(money(item.unit_amount), COLUMNS.unit, { right: true });
    pages.text(`${item.tax_rate}%`, COLUMNS.tax, { right: true });
    pages.text(money(item.amount), COLUMNS.amount, { right: true });
    for (const more of lines.slice(1)) {
      pages.y -= 13;
      pages.text(more, COLUMNS.description);
    }
    pages.y -= 19;
  }
  pages.y += 6;
  pages.rule();
  pages.y -= 18;

  const totals = document.totals;
  pages.room(totals.length * 16 + 10);
  for (const [label, amount, bold] of totals) {
    pages.text(label, 400, { bold, color: bold ? INK : MUTED });
    pages.text(money(amount), right, { bold, right: true });
    pages.y -= 16;
  }

  if (document.notes) {
    const lines = wrap(document.notes, fonts.regular, 10, WIDTH - 2 * MARGIN);
    pages.y -= 10;
    pages.room(lines.length * 13 + 14);
    pages.text("Notes", MARGIN, { size: 9, bold: true, color: MUTED });
    pages.y -= 14;
    for (const line of lines) {
      pages.room(13);
      pages.text(line, MARGIN);
      pages.y -= 13;
    }
  }

  const all = pdf.getPages();
  all.forEach((page, index) => {
    const footer = `${document.number} · page ${index + 1} of ${all.length}${document.publicUrl ? ` · ${document.publicUrl}` : ""}`;
    page.drawText(printable(footer), { x: MARGIN, y: MARGIN - 20, size: 8, font: fonts.regular, color: MUTED });
  });
  return pdf.save({ useObjectStreams: false });
}
