/**
 * Caches an isolate keeps between requests (verified tokens, rate-limit leases, what a workspace's webhooks
 * are…), owned by the platform object rather than by module scope: one set per platform, so two platforms
 * in one isolate (tests build their own) never share them, and the code that uses one says where it lives.
 */
export class IsolateState {
  private readonly values = new Map<string, unknown>();

  /** The value kept under `key`, created by `create` the first time. */
  get<T>(key: string, create: () => T): T {
    if (!this.values.has(key)) this.values.set(key, create());
    return this.values.get(key) as T;
  }
}
