import { minorDigits } from "../../platform/format";

/**
 * Amount conditions in a message: "over 10,000", "more than $5k", "at least 2.5k EUR", "under 10 000",
 * "between 1,000 and 5,000". Numbers may use thousands separators (1,000 / 1 000 / 1.000), decimals
 * and k/m suffixes. Returned in minor units of the named currency (2 digits when none is named).
 */
export type AmountCondition = { min?: number; max?: number; currency?: string; start: number; end: number };

const SYMBOLS: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR" };
const CODE = "(?:usd|eur|gbp|jpy|chf|cad|aud|inr|sek|nok|dkk|pln|dollars?|euros?|pounds?|bucks)";
const NUMBER = `([$€£¥₹])?\\s?(\\d{1,3}(?:[ ,.]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d+)?)\\s?(k|m|thousand|million|grand)?\\b\\s?(${CODE})?`;
const ABOVE =
  "(?:over|above|more than|greater than|bigger than|larger than|at least|exceeding|minimum(?: of)?|min|>=|>|upwards of|starting at|worth more than|worth over|of more than)";
const BELOW = "(?:under|below|less than|smaller than|at most|up to|maximum(?: of)?|max|<=|<|not more than|worth less than|cheaper than)";

function toNumber(digits: string, suffix: string | undefined): number {
  let text = digits;
  // 1,000 / 1 000 / 1.000 are thousands; a last group of 1–2 digits after , or . is decimals.
  const decimal = /[.,](\d{1,2})$/.exec(text);
  let fraction = 0;
  if (decimal && !/^\d{1,3}[.,]\d{3}$/.test(text)) {
    fraction = Number(`0.${decimal[1]}`);
    text = text.slice(0, decimal.index);
  }
  let value = Number(text.replace(/[ ,.]/g, "")) + fraction;
  if (suffix === "k" || suffix === "thousand" || suffix === "grand") value *= 1_000;
  if (suffix === "m" || suffix === "million") value *= 1_000_000;
  return value;
}

function currencyOf(symbol: string | undefined, code: string | undefined): string | undefined {
  if (symbol) return SYMBOLS[symbol];
  if (!code) return undefined;
  if (/^dollars?|bucks$/.test(code)) return "USD";
  if (/^euros?$/.test(code)) return "EUR";
  if (/^pounds?$/.test(code)) return "GBP";
  return code.toUpperCase();
}

const minor = (value: number, currency: string | undefined) => Math.round(value * 10 ** minorDigits(currency ?? "USD"));

export function findAmount(text: string): AmountCondition | null {
  const lower = text.toLowerCase();
  const between = new RegExp(`\\bbetween ${NUMBER} and ${NUMBER}`).exec(lower);
  if (between) {
    const currency = currencyOf(between[1], between[4]) ?? currencyOf(between[5], between[8]);
    return {
      min: minor(toNumber(between[2]!, between[3]), currency),
      max: minor(toNumber(between[6]!, between[7]), currency),
      ...(currency ? { currency } : {}),
      start: between.index,
      end: between.index + between[0].length,
    };
  }
  for (const [words, bound] of [
    [ABOVE, "min"],
    [BELOW, "max"],
  ] as const) {
    const match = new RegExp(`(?:^|\\s)${words}\\s?${NUMBER}`).exec(lower);
    if (match) {
      const currency = currencyOf(match[1], match[4]);
      return {
        [bound]: minor(toNumber(match[2]!, match[3]), currency),
        ...(currency ? { currency } : {}),
        start: match.index,
        end: match.index + match[0].length,
      };
    }
  }
  return null;
}
