import { createMimeMessage, Mailbox } from "mimetext/browser";
import { base64 } from "../crypto";
import type { MailContent } from "./types";

export type Envelope = { from: string; fromName: string; to: string; replyTo: string | null };

/** The message as MIME (multipart: text and HTML alternatives, then the attachments), as Email Service takes it raw. */
export function mimeMessage(envelope: Envelope, content: MailContent): string {
  const message = createMimeMessage();
  message.setSender({ name: envelope.fromName, addr: envelope.from });
  message.setRecipient(envelope.to);
  message.setSubject(content.subject);
  if (envelope.replyTo) message.setHeader("Reply-To", new Mailbox(envelope.replyTo));
  message.addMessage({ contentType: "text/plain", data: content.text });
  message.addMessage({ contentType: "text/html", data: content.html });
  for (const file of content.attachments ?? []) {
    message.addAttachment({ filename: file.filename, contentType: file.contentType, data: base64(file.data) });
  }
  return message.asRaw();
}
