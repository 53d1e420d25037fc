import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../src/platform/context";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      TEST_ANALYTICS_MIGRATIONS: D1Migration[];
      TEST_SHARD_MIGRATIONS: D1Migration[];
      SHARD_1: D1Database;
      EMAIL_REFUSING: SendEmail;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
      durableNamespaces: "RateLimiter";
    }
  }
}
