import type { SectionContext } from "../../platform/resource/ui";

type Reply = {
  id: number;
  body: string;
  internal: boolean;
  author: "requester" | "agent";
  author_user_id: number | null;
  from_email: string | null;
  created_at: string;
};

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const THREAD_LIMIT = 100;

/** One message of the thread: who wrote it, when, and what (as text: pre-wrap keeps its lines, JSX escapes it). */
function Message(props: { who: string; at: string; body: string; kind: "requester" | "agent" | "note" }) {
  return (
    <li class={`message ${props.kind}`}>
      <p class="meta">
        <strong>{props.who}</strong> · <time datetime={props.at}>{when(props.at)}</time>
        {props.kind === "note" ? " · internal note" : ""}
      </p>
      <p class="message-body">{props.body}</p>
    </li>
  );
}

/**
 * A ticket's page: the conversation (the request, then every reply and note in order) and a form to answer or
 * add a note. The thread is read through the API as the signed-in user; the form posts to the page route below.
 */
export async function ticketSection(record: Record<string, unknown>, page: SectionContext) {
  const id = record.id as number;
  // The agents' names from the users list (admins may read it); others see "Agent" — and "You" for their own.
  const [thread, users] = await Promise.all([
    page.read<Reply[]>(`/ticket-replies?ticket_id=${id}&sort=id&limit=${THREAD_LIMIT}`),
    page.read<{ id: number; name: string }[]>("/users?limit=100"),
  ]);
  const replies = thread.ok ? thread.data : [];
  const names = new Map((users.ok ? users.data : []).map((user) => [user.id, user.name]));
  const agent = (userId: number | null) => (userId === page.user.id ? "You" : ((userId ? names.get(userId) : undefined) ?? "Agent"));
  const requester = record.email as string;
  return (
    <section class="card spaced" aria-label="Conversation">
      <h2>Conversation</h2>
      <ol class="thread">
        <Message who={requester} at={record.created_at as string} body={(record.body as string | null) ?? "(no message)"} kind="requester" />
        {replies.map((reply) => (
          <Message
            who={reply.author === "requester" ? (reply.from_email ?? requester) : agent(reply.author_user_id)}
            at={reply.created_at}
            body={reply.body}
            kind={reply.internal ? "note" : reply.author}
          />
        ))}
      </ol>
      {page.canWrite ? (
        <form method="post" action={`/app/tickets/${id}/reply`} class="stack thread-form">
          <input type="hidden" name="csrf" value={page.csrf} />
          <div class="field">
            <label for="reply-body">Reply</label>
            <textarea id="reply-body" name="body" rows={5} required />
          </div>
          <div class="field check">
            <input id="reply-internal" type="checkbox" name="internal" value="true" />
            <label for="reply-internal">Internal note (not e-mailed to {requester})</label>
          </div>
          <button type="submit">Send</button>
        </form>
      ) : null}
    </section>
  );
}
