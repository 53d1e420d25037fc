import { eq } from "drizzle-orm";
import type { Env } from "./context";
import { base62, randomBytes, sha256Hex } from "./crypto";
import type { IsolateState } from "./isolate";
import { publicLinks, workspaces } from "./schema";
import { acrossWorkspaces, type ExtensionSource, isHeld, type Tenant, tenantOn } from "./tenancy";

/**
 * Links a customer opens without an account (an invoice's page, later a quote's): a token of 32 random
 * bytes in base62, shown to whoever can read the record; the directory keeps only its hash, with the
 * workspace and the record it opens.
 */
export function newPublicToken(): string {
  return base62(randomBytes(32));
}

const TOKEN = /^[0-9A-Za-z]{43}$/;

/** Writes the directory row that makes `token` open `kind` `subjectId` of the directory tenant's workspace. */
export async function createPublicLink(directory: Tenant, token: string, kind: string, subjectId: number, now: number): Promise<void> {
  await directory
    .insert(publicLinks, { tokenHash: await sha256Hex(token), kind, subjectId, createdAt: now })
    .onConflictDoNothing()
    .run();
}

export type PublicLink = {
  tenant: Tenant;
  subjectId: number;
  workspace: { id: number; name: string; shard: string };
  /** The workspace is being moved between shards: writes (a first view, a payment) must wait. */
  moving: boolean;
};

/**
 * What a public token opens (one directory read: the link, its workspace's name and shard), or null for
 * anything malformed, unknown or of another kind. The caller still checks the record carries this token.
 */
export async function findPublicLink(
  env: Env,
  worker: { registry: ExtensionSource; isolate: IsolateState },
  token: string,
  kind: string,
): Promise<PublicLink | null> {
  if (!TOKEN.test(token)) return null;
  const hash = await sha256Hex(token);
  // Kept LINK_CACHE_MS in the isolate (a customer reloading the page costs no directory read); a link never
  // changes, its workspace's shard only when moved, and a move holds writes far longer than this.
  const cache = worker.isolate.get("public-links", () => new Map<string, { row: LinkRow | null; until: number }>());
  const now = Date.now();
  let cached = cache.get(hash);
  if (!cached || cached.until < now) {
    if (cache.size >= LINK_CACHE_MAX) cache.clear();
    cached = { row: (await readLink(env, hash)) ?? null, until: now + LINK_CACHE_MS };
    cache.set(hash, cached);
  }
  const row = cached.row;
  if (!row || row.kind !== kind) return null;
  const tenant = tenantOn(env, worker.registry, { id: row.workspaceId, shard: row.shard, disabledPackages: row.disabledPackages });
  return {
    tenant,
    subjectId: row.subjectId,
    workspace: { id: row.workspaceId, name: row.name, shard: row.shard },
    moving: isHeld(row.movingSince, now),
  };
}

const LINK_CACHE_MS = 5_000;
const LINK_CACHE_MAX = 10_000;

type LinkRow = NonNullable<Awaited<ReturnType<typeof readLink>>>;

function readLink(env: Env, hash: string) {
  // The token is the credential here: the workspace is whatever its hash finds.
  return acrossWorkspaces(env, "directory")
    .selectFrom(
      {
        kind: publicLinks.kind,
        subjectId: publicLinks.subjectId,
        workspaceId: workspaces.id,
        name: workspaces.name,
        shard: workspaces.shard,
        movingSince: workspaces.movingSince,
        disabledPackages: workspaces.disabledPackages,
      },
      publicLinks,
    )
    .innerJoin(workspaces, eq(workspaces.id, publicLinks.workspaceId))
    .where(eq(publicLinks.tokenHash, hash))
    .get();
}
