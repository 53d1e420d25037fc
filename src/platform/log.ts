/** The messages of an error and its causes: drizzle's "Failed query" hides D1's reason in `cause`. */
export function errorChain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && parts.length < 5; e = e instanceof Error ? e.cause : undefined) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
  return parts.join(" ← caused by: ");
}

/** One JSON line per event in the worker's log (Workers Logs / `wrangler tail` index the fields). */
export function logError(msg: string, error: unknown, fields: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ level: "error", msg, ...fields, error: errorChain(error) }));
}

export function logWarning(msg: string, fields: Record<string, unknown> = {}): void {
  console.warn(JSON.stringify({ level: "warn", msg, ...fields }));
}
