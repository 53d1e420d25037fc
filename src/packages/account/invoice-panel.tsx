import { isoTimestamp } from "../../platform/time";

type Delivery = { status: "queued" | "sent" | "failed"; to: string; attempts: number; last_error: string | null; sent_at: string | null };

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** On an invoice's page: where its e-mail stands, whether the customer opened it, and its public link. */
export function InvoicePanel(props: { record: Record<string, unknown> }) {
  const delivery = props.record.delivery as Delivery | null;
  const url = props.record.public_url as string | null;
  const viewed = props.record.viewed_at as string | null;
  if (!delivery && !url) return null;
  return (
    <section class="card panel" aria-label="Delivery">
      <h2>Delivery</h2>
      {delivery ? (
        <p>
          {delivery.status === "sent"
            ? `E-mailed to ${delivery.to} on ${when(delivery.sent_at ?? isoTimestamp(Date.now()))}.`
            : delivery.status === "queued"
              ? `E-mail to ${delivery.to} is on its way${delivery.attempts > 0 ? ` (attempt ${delivery.attempts + 1})` : ""}.`
              : `E-mail to ${delivery.to} failed after ${delivery.attempts} attempts: ${delivery.last_error ?? "unknown error"}.`}{" "}
          {viewed ? `The customer opened it on ${when(viewed)}.` : "Not opened yet."}
        </p>
      ) : null}
      {url ? (
        <div class="actions">
          <code id="public-link">{url}</code>
          <button type="button" class="secondary" data-copy="public-link">
            Copy link
          </button>
          <a class="button secondary" href={url}>
            Open public page
          </a>
          <a class="button secondary" href={`${url}.pdf`}>
            Download PDF
          </a>
        </div>
      ) : null}
    </section>
  );
}
