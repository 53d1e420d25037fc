import { lt } from "drizzle-orm";
import type { Sweep } from "../../platform/packages";
import { acrossWorkspaces } from "../../platform/tenancy";
import { chatLinkCodes, chatReplays } from "./schema";

/** How long a request's key is remembered: a repeat within it is answered with nothing. */
export const REPLAY_MEMORY_MS = 24 * 3_600_000;

/** Cron: expired linking codes, and replay keys older than a day, in every workspace. */
export const sweepChat: Sweep = {
  name: "chat codes and replay keys",
  run: async (env, now) => {
    const directory = acrossWorkspaces(env, "directory");
    await directory.batch([
      directory.delete(chatLinkCodes).where(lt(chatLinkCodes.expiresAt, now)),
      directory.delete(chatReplays).where(lt(chatReplays.seenAt, now - REPLAY_MEMORY_MS)),
    ]);
  },
};
