/**
 * How long a move may hold a workspace's writes: a hold older than this has lapsed (the operator's script
 * died), so the workspace takes writes again on its shard and the move's switch is refused.
 */
export const HOLD_LIMIT_MS = 5 * 60_000;

/** Whether a workspace is held by a move right now. */
export const isHeld = (movingSince: number | null, now: number) => movingSince !== null && now - movingSince < HOLD_LIMIT_MS;
