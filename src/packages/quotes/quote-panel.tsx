const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** On a quote's page: to whom it went, whether the customer opened or answered it, and its public link. */
export function QuotePanel(props: { record: Record<string, unknown> }) {
  const { record } = props;
  const url = record.public_url as string | null;
  if (!url) return null;
  const viewed = record.viewed_at as string | null;
  const decided = record.decided_at as string | null;
  return (
    <section class="card panel" aria-label="The customer's page">
      <h2>The customer's page</h2>
      <p>
        {record.sent_to ? `Sent to ${record.sent_to}. ` : ""}
        {decided ? `Answered on ${when(decided)}.` : viewed ? `The customer opened it on ${when(viewed)}.` : "Not opened yet."}
      </p>
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
    </section>
  );
}
