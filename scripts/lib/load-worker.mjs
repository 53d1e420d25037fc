// Loads the worker's TypeScript in Node (for scripts that read the app itself: the route table, the
// shard migrations' directory tables). tsx compiles it; the workerd-only `cloudflare:` modules get
// stand-ins that are enough to evaluate the modules (no request is served here).
import { registerHooks } from "node:module";
import { register } from "tsx/esm/api";

const STAND_IN = "data:text/javascript,export class DurableObject {} export class WorkerEntrypoint {} export class EmailMessage {} export const env = {};";

registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith("cloudflare:")) return { url: STAND_IN, shortCircuit: true };
    return next(specifier, context);
  },
});
register();

/** The composition root (src/index.ts): `packages` and the `platform` built from them. */
export async function loadWorker() {
  return import("../../src/index.ts");
}
