import type { Env } from "../context";
import type { Tenant } from "../tenancy";

/** A file attached to a message (an invoice's PDF). */
export type MailAttachment = { filename: string; contentType: string; data: Uint8Array };

/** What a package's mailer renders for a message: both an HTML and a plain-text body, always. */
export type MailContent = {
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
  /** Threading headers (Message-ID, In-Reply-To, References) of a reply in a conversation. */
  headers?: { messageId?: string; inReplyTo?: string; references?: string[] };
};

/** What a mailer is given: the message's workspace on its shard, the record it is about, and the recipient. */
export type MailContext = { env: Env; tenant: Tenant; subjectId: number; to: string; fromName: string };

/**
 * A package's renderer for one kind of message ("invoice", "invoice_reminder"), run by the mail queue's
 * consumer at send time (so a re-sent message shows the record as it is). Null: the record is gone, or no
 * longer wants this message (a reminder for an invoice paid meanwhile): the message is dropped as failed.
 */
export type Mailer = (context: MailContext) => Promise<MailContent | { skip: string }>;

/** The `mail` queue's message: which outbox row, on which shard. */
export type MailJob = { id: number; workspaceId: number; shard: string };
