/** What a D1 failure was, read from its message (drizzle wraps D1's error as `cause`). */
function causes(error: unknown): string[] {
  const messages: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message);
  return messages;
}

/** True when the error is a UNIQUE violation on `table.column`. */
export function isUniqueViolation(error: unknown, target: string): boolean {
  return causes(error).some((message) => message.includes("UNIQUE constraint failed") && message.includes(target));
}

/** True when a money_totals trigger refused a total above 2^53 − 1 (see migrations/0015). */
export function isMoneyTotalExceeded(error: unknown): boolean {
  return causes(error).some((message) => message.includes("money_total_exceeded"));
}

export function isForeignKeyViolation(error: unknown): boolean {
  return causes(error).some((message) => message.includes("FOREIGN KEY constraint failed"));
}

/** True when a batch was aborted by one of the write guards (see tenancy/guards.ts). */
export function isGuardFailure(error: unknown): boolean {
  return causes(error).some((message) => message.includes("CHECK constraint failed: write_guard_failed"));
}
