import type { Provider } from "./schema";

/**
 * What a chat platform's request says, read from its raw (already verified) body: the question, who asked
 * and where, and what makes it unique (so a replay is answered once). Anything else — a Slack event, a
 * Telegram update without text — has nothing to answer.
 */
export type Incoming =
  | {
      kind: "message";
      text: string;
      chatUserId: string | null;
      chatUserName: string | null;
      /** The ids an allow-list may name: a channel and its team, a conversation and its team, a chat. */
      chatIds: string[];
      /** Unique per request: Slack's signature, a Teams activity id, a Telegram update_id. */
      replayKey: string;
      /** When the platform says it was sent (Teams), in ms; checked against the 300 s window. */
      sentAt: number | null;
      /** Telegram answers need the chat to answer in. */
      chatId: string | null;
    }
  | { kind: "challenge"; challenge: string }
  | { kind: "nothing"; replayKey: string | null };

const json = (body: Uint8Array): Record<string, unknown> | null => {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};
const str = (value: unknown): string | null => (typeof value === "string" || typeof value === "number" ? String(value) : null);
const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});

/** Slack: a slash command (form-encoded), or the Events API (JSON: url_verification, event callbacks). */
function slack(body: Uint8Array, headers: Headers): Incoming {
  const signature = headers.get("x-slack-signature") ?? "";
  if ((headers.get("content-type") ?? "").includes("application/json")) {
    const event = json(body);
    if (event?.type === "url_verification" && typeof event.challenge === "string") return { kind: "challenge", challenge: event.challenge };
    // Answering an event needs a call to Slack's API, and the bot makes none.
    return { kind: "nothing", replayKey: signature };
  }
  const form = new URLSearchParams(new TextDecoder().decode(body));
  return {
    kind: "message",
    text: form.get("text") ?? "",
    chatUserId: form.get("user_id"),
    chatUserName: form.get("user_name"),
    chatIds: [form.get("channel_id"), form.get("team_id")].filter((id): id is string => Boolean(id)),
    replayKey: signature,
    sentAt: null,
    chatId: form.get("channel_id"),
  };
}

/** Teams: an activity; the bot's <at> mention removed, HTML flattened. */
function teams(body: Uint8Array): Incoming {
  const activity = json(body);
  const id = str(activity?.id);
  if (!activity || !id) return { kind: "nothing", replayKey: null };
  const from = record(activity.from);
  const conversation = record(activity.conversation);
  const team = record(record(activity.channelData).team);
  const sentAt = typeof activity.timestamp === "string" ? Date.parse(activity.timestamp) : Number.NaN;
  return {
    kind: "message",
    text: String(activity.text ?? "")
      .replace(/<at>.*?<\/at>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&nbsp;/g, " "),
    chatUserId: str(from.aadObjectId) ?? str(from.id),
    chatUserName: str(from.name),
    chatIds: [str(conversation.id), str(team.id)].filter((chat): chat is string => chat !== null),
    replayKey: id,
    // No timestamp is as stale as an old one.
    sentAt: Number.isFinite(sentAt) ? sentAt : 0,
    chatId: str(conversation.id),
  };
}

/** Telegram: an Update; "/ask overdue invoices" is the question "overdue invoices". */
function telegram(body: Uint8Array): Incoming {
  const update = json(body);
  const updateId = str(update?.update_id);
  const message = record(update?.message);
  if (!updateId) return { kind: "nothing", replayKey: null };
  if (typeof message.text !== "string" || record(message.chat).id === undefined) return { kind: "nothing", replayKey: updateId };
  const from = record(message.from);
  const text = message.text.startsWith("/link") ? "/link" : message.text.replace(/^\/\w+(@\w+)?\s*/, "");
  return {
    kind: "message",
    text,
    chatUserId: str(from.id),
    chatUserName: str(from.username) ?? str(from.first_name),
    chatIds: [str(record(message.chat).id)!],
    replayKey: updateId,
    sentAt: null,
    chatId: str(record(message.chat).id),
  };
}

export function readIncoming(provider: Provider, body: Uint8Array, headers: Headers): Incoming {
  return provider === "slack" ? slack(body, headers) : provider === "teams" ? teams(body) : telegram(body);
}

/** "/link", "link" or "link me" (Slack: `/ask link`): the chat user asks for a linking code. */
export const asksToLink = (text: string) => /^\/?link( me)?$/i.test(text.trim());
