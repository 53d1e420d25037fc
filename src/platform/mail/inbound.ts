import { eq } from "drizzle-orm";
import type { Env } from "../context";
import type { Background } from "../packages";
import { workspaces } from "../schema";
import { acrossWorkspaces, isHeld, type Tenant, tenantOn } from "../tenancy";

/** The workspace an inbound e-mail's address names, on its shard, with its packages' state (null: no such workspace). */
export type MailWorkspace = { tenant: Tenant; workspace: { id: number; name: string; shard: string }; moving: boolean };

/**
 * Inbound mail names its workspace in the address (support+42@…): the address is all there is to go on, so the
 * directory is read across workspaces here, once per message, and the rest goes through the workspace's Tenant.
 */
export async function workspaceForMail(env: Env, worker: Background, workspaceId: number, now = Date.now()): Promise<MailWorkspace | null> {
  const row = await acrossWorkspaces(env, "directory")
    .selectFrom(
      { name: workspaces.name, shard: workspaces.shard, movingSince: workspaces.movingSince, disabledPackages: workspaces.disabledPackages },
      workspaces,
    )
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) return null;
  return {
    tenant: tenantOn(env, worker.registry, { id: workspaceId, shard: row.shard, disabledPackages: row.disabledPackages }),
    workspace: { id: workspaceId, name: row.name, shard: row.shard },
    moving: isHeld(row.movingSince, now),
  };
}
