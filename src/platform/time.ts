/** The clock every time-dependent piece reads, so tests can drive time without sleeping. */
export interface Clock {
  now(): number;
}

/** The worker's clock. Tests replace `now` to move time without sleeping; nothing else writes it. */
export const clock: Clock = { now: () => Date.now() };

export function isoTimestamp(ms: number): string;
export function isoTimestamp(ms: number | null | undefined): string | null;
export function isoTimestamp(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

export function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}
