/** Human renderings shared by replies: money from minor units, minutes, dates. */

/** The number of minor-unit digits of an ISO 4217 currency (2 for USD, 0 for JPY, 3 for KWD). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** 153450 USD → "1,534.50 USD". */
export function formatMoney(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const value = amount / 10 ** digits;
  return `${value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${currency}`;
}

/** {USD: 153450, EUR: 900} → "1,534.50 USD and 9.00 EUR"; {} → "nothing". */
export function formatMoneys(values: Record<string, number>): string {
  const parts = Object.entries(values)
    .sort(([, a], [, b]) => b - a)
    .map(([currency, amount]) => formatMoney(amount, currency));
  if (parts.length === 0) return "nothing";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** 150 → "2 h 30 min". */
export function formatMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours === 0 ? `${rest} min` : rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** "in_progress" → "in progress". */
export const words = (value: unknown) => String(value ?? "").replaceAll("_", " ");

/** "invoice" → "an invoice", "task" → "a task" (by the first letter: the nouns here have no silent h or long u). */
export const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;

/**
 * A formatter for one currency's amounts: 153450 USD → "$1,534.50", 1500 JPY → "¥1,500" (its own symbol and
 * decimals, for customer-facing documents). Built once per document: an Intl.NumberFormat costs far more to
 * make than to use.
 */
export function currencyFormatter(currency: string): (amount: number) => string {
  const digits = minorDigits(currency);
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch {
    return (amount) => formatMoney(amount, currency);
  }
  return (amount) => format.format(amount / 10 ** digits);
}

/** One amount in its currency's own notation ("$1,534.50"); for many, make a currencyFormatter. */
export function formatCurrency(amount: number, currency: string): string {
  return currencyFormatter(currency)(amount);
}
