import { lt } from "drizzle-orm";
import { database } from "../../platform/db";
import { onEveryShard } from "../../platform/sweeps";
import { CONVERSATION_DAYS } from "./routes";
import { actions, conversations, messages } from "./schema";

const DAY = 86_400_000;

/** Conversations and their messages go 30 days after they were last used; actions a day after they expired. */
export const expireConversations = onEveryShard("expireConversations", async (d1, now) => {
  const db = database(d1);
  const cutoff = now - CONVERSATION_DAYS * DAY;
  await db.batch([
    db.delete(messages).where(lt(messages.createdAt, cutoff)),
    db.delete(conversations).where(lt(conversations.updatedAt, cutoff)),
    db.delete(actions).where(lt(actions.expiresAt, now - DAY)),
  ]);
});
