import { inArray, sql } from "drizzle-orm";
import { enqueueMail, queuedMessage } from "../../platform/mail/outbox";
import { mailMessages } from "../../platform/mail/schema";
import { onEveryShard } from "../../platform/sweeps";
import { qualified as q, residentWorkspaces, sameWorkspace } from "../../platform/tenancy";
import { today } from "../../platform/time";
import { invoices, invoicingSettings } from "./schema";

/** Days after the due date at which an unpaid sent invoice gets a reminder: each once. */
export const REMINDER_DAYS = [3, 7, 14] as const;
const BATCH = 200;

/**
 * How many reminders an invoice due on its due_date should have had by `day`: 0–3. An invoice first seen
 * late (14 days overdue when reminders were switched on) gets one reminder, the latest, not three at once.
 */
const stageOn = (day: string) =>
  sql`CASE ${sql.join(
    [...REMINDER_DAYS].reverse().map((days, i) => sql`WHEN ${q(invoices.dueDate)} <= date(${day}, ${`-${days} days`}) THEN ${REMINDER_DAYS.length - i}`),
    sql` `,
  )} ELSE 0 END`;

/** Unpaid, sent to someone, past a reminder day not yet reminded of, in a workspace that has not turned reminders off. */
const dueOn = (day: string) =>
  sql`${q(invoices.status)} IN ('sent', 'partially_paid') AND ${q(invoices.sentTo)} IS NOT NULL AND ${q(invoices.dueDate)} <= date(${day}, ${`-${REMINDER_DAYS[0]} days`})
      AND ${q(invoices.remindersSent)} < ${stageOn(day)}
      AND NOT EXISTS (SELECT 1 FROM ${invoicingSettings} WHERE ${sameWorkspace(invoicingSettings, invoices)} AND ${q(invoicingSettings.invoiceReminders)} = 0)`;

/** What the invoice's last e-mail said (who replies, whose name), for its reminder. */
const fromLastSend = (column: typeof mailMessages.replyTo | typeof mailMessages.fromName) =>
  sql`(SELECT ${q(column)} FROM ${mailMessages} WHERE ${sameWorkspace(mailMessages, invoices)} AND ${q(mailMessages.kind)} = 'invoice' AND ${q(mailMessages.subjectId)} = ${q(invoices.id)} ORDER BY ${q(mailMessages.id)} DESC LIMIT 1)`;

/**
 * Cron: overdue reminders. Per shard, the due invoices of the workspaces living there (not those being
 * moved): one batch queues each reminder and records it on the invoice, so a reminder is never queued twice.
 */
export const sweepReminders = onEveryShard("invoice reminders", async (shard, now, env, shardName) => {
  const day = today(now);
  const candidates = await shard.rows<{ id: number; workspace_id: number }>(
    sql`SELECT ${q(invoices.id)} AS id, ${q(invoices.workspaceId)} AS workspace_id FROM ${invoices} WHERE ${dueOn(day)} LIMIT ${BATCH}`,
  );
  if (candidates.length === 0) return;
  const resident = new Set(await residentWorkspaces(env, shardName, [...new Set(candidates.map((row) => row.workspace_id))]));
  const ids = candidates.filter((row) => resident.has(row.workspace_id)).map((row) => row.id);
  if (ids.length === 0) return;
  const chosen = sql`${inArray(invoices.id, ids)} AND ${dueOn(day)}`;
  const [queued] = await shard.batch([
    shard
      .insertSelect(
        mailMessages,
        sql`SELECT ${queuedMessage(
          {
            workspaceId: q(invoices.workspaceId),
            kind: "invoice_reminder",
            subjectId: q(invoices.id),
            to: q(invoices.sentTo),
            replyTo: fromLastSend(mailMessages.replyTo),
            fromName: sql`coalesce(${fromLastSend(mailMessages.fromName)}, 'Business Platform')`,
          },
          now,
        )} FROM ${invoices} WHERE ${chosen}`,
      )
      .returning({ id: mailMessages.id, workspaceId: mailMessages.workspaceId }),
    shard.update(invoices, { remindersSent: stageOn(day), updatedAt: now }).where(chosen),
  ]);
  await enqueueMail(env, shardName, queued);
});
