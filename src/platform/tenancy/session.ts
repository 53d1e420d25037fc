import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { ApiError } from "../errors";
import { shardDatabase } from "./shards";

/**
 * Read replicas (D1 sessions): every API request runs its business queries in one session —
 * "first-unconstrained" for reads (any replica may answer), "first-primary" for writes — and answers
 * with `X-D1-Bookmark`, the session's position. A client that sends a bookmark back reads at least that
 * state (read-your-writes across requests, on any replica).
 *
 * The sessions reach the queries through `sessionAware(binding)`: a stand-in for the binding, the same
 * object for the life of the isolate (so drizzle and its prepared queries are built once), whose
 * statements run in the request's session for that database (the directory, the workspace's shard).
 */
export const BOOKMARK_HEADER = "X-D1-Bookmark";
const BOOKMARK = /^[0-9a-f]{8}(-[0-9a-f]{8,32}){3}$/i;

/**
 * A request's sessions, one per database it touches. A bookmark is a position in one database's history,
 * so a bookmark sent back constrains the workspace's shard only; the others start from `constraint`.
 */
type RequestSessions = { constraint: string; bookmarked?: { binding: D1Database; bookmark: string }; sessions: Map<D1Database, D1DatabaseSession> };
const current = new AsyncLocalStorage<RequestSessions>();

function sessionOf(binding: D1Database): D1Database | D1DatabaseSession {
  const store = current.getStore();
  if (!store) return binding;
  let session = store.sessions.get(binding);
  if (!session) {
    session = binding.withSession(store.bookmarked?.binding === binding ? store.bookmarked.bookmark : store.constraint);
    store.sessions.set(binding, session);
  }
  return session;
}

export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const sent = c.req.header(BOOKMARK_HEADER);
  if (sent !== undefined && !BOOKMARK.test(sent)) {
    throw ApiError.validation([{ path: BOOKMARK_HEADER, message: "must be a bookmark from a previous response's X-D1-Bookmark" }]);
  }
  const reading = c.req.method === "GET" || c.req.method === "HEAD";
  const principal = c.get("principal");
  // A workspace being switched to another shard takes no writes for those few seconds.
  if (principal?.moving && !reading) {
    throw new ApiError("service_unavailable", "This workspace is being moved to another database; retry in a few seconds", { headers: { "Retry-After": "5" } });
  }
  const shard = principal ? shardDatabase(c.env, principal.shard) : c.env.DB;
  const store: RequestSessions = {
    constraint: reading ? "first-unconstrained" : "first-primary",
    bookmarked: sent ? { binding: shard, bookmark: sent } : undefined,
    sessions: new Map(),
  };
  await current.run(store, next);
  // The position in the workspace's own database (its shard): the one a bookmark sent back constrains.
  // A request that did not touch it leaves the client's position where it was.
  const bookmark = store.sessions.get(shard)?.getBookmark() ?? sent;
  if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
};

type Values = unknown[];

/** A statement prepared against the binding, bound and run in the session current when it executes. */
class SessionStatement {
  constructor(
    private readonly binding: D1Database,
    private readonly query: string,
    private readonly values: Values = [],
  ) {}
  bind(...values: Values) {
    return new SessionStatement(this.binding, this.query, values);
  }
  realize(): D1PreparedStatement {
    const statement = sessionOf(this.binding).prepare(this.query);
    return this.values.length > 0 ? statement.bind(...this.values) : statement;
  }
  first(column?: string) {
    return column === undefined ? this.realize().first() : this.realize().first(column);
  }
  all() {
    return this.realize().all();
  }
  run() {
    return this.realize().run();
  }
  raw(options?: { columnNames?: boolean }) {
    return this.realize().raw(options as { columnNames: true });
  }
}

const facades = new WeakMap<D1Database, D1Database>();

/** The binding, as seen from inside a request: its statements run in that request's session. */
export function sessionAware(binding: D1Database): D1Database {
  let facade = facades.get(binding);
  if (!facade) {
    facade = {
      prepare: (query: string) => new SessionStatement(binding, query),
      batch: (statements: SessionStatement[]) => sessionOf(binding).batch(statements.map((statement) => statement.realize())),
      exec: (query: string) => binding.exec(query),
      dump: () => binding.dump(),
      withSession: (constraint?: string) => binding.withSession(constraint),
    } as unknown as D1Database;
    facades.set(binding, facade);
  }
  return facade;
}
