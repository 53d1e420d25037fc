import { lt } from "drizzle-orm";
import { onEveryShard } from "../../platform/sweeps";
import { CONVERSATION_DAYS } from "./answer";
import { actions, conversations, messages } from "./schema";

const DAY = 86_400_000;

/** Conversations and their messages go 30 days after they were last used; actions a day after they expired. */
export const expireConversations = onEveryShard("expireConversations", async (shard, now) => {
  const cutoff = now - CONVERSATION_DAYS * DAY;
  await shard.batch([
    shard.delete(messages).where(lt(messages.createdAt, cutoff)),
    shard.delete(conversations).where(lt(conversations.updatedAt, cutoff)),
    shard.delete(actions).where(lt(actions.expiresAt, now - DAY)),
  ]);
});
