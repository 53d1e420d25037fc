import { createMimeMessage, Mailbox } from "mimetext/browser";
import { base64, utf8 } from "../crypto";
import type { MailContent } from "./types";

export type Envelope = { from: string; fromName: string; to: string; replyTo: string | null };

/**
 * Base64 in lines of 76 characters (RFC 2045): mail servers refuse lines over 998, and the bodies hold
 * UTF-8 (€, names), which 7bit may not carry.
 */
function wrapped(bytes: Uint8Array): string {
  return base64(bytes).replace(/.{76}(?=.)/g, "$&\r\n");
}

/** The message as MIME (multipart: text and HTML alternatives, then the attachments), as Email Service takes it raw. */
export function mimeMessage(envelope: Envelope, content: MailContent): string {
  const message = createMimeMessage();
  message.setSender({ name: envelope.fromName, addr: envelope.from });
  message.setRecipient(envelope.to);
  message.setSubject(content.subject);
  if (envelope.replyTo) message.setHeader("Reply-To", new Mailbox(envelope.replyTo));
  // A reply in a conversation (a ticket's thread): mail clients group it under the messages it names.
  const thread = content.headers;
  if (thread?.messageId) message.setHeader("Message-ID", thread.messageId);
  if (thread?.inReplyTo) message.setHeader("In-Reply-To", thread.inReplyTo);
  if (thread?.references && thread.references.length > 0) message.setHeader("References", thread.references.join(" "));
  message.addMessage({ contentType: "text/plain", encoding: "base64", data: wrapped(utf8(content.text)) });
  message.addMessage({ contentType: "text/html", encoding: "base64", data: wrapped(utf8(content.html)) });
  for (const file of content.attachments ?? []) {
    message.addAttachment({ filename: file.filename, contentType: file.contentType, data: wrapped(file.data) });
  }
  return message.asRaw();
}
