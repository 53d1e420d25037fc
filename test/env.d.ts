import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../src/platform/context";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      TEST_ANALYTICS_MIGRATIONS: D1Migration[];
      TEST_SHARD_MIGRATIONS: D1Migration[];
      /** The demo company of scripts/seed.mjs at the blind evaluation's EVAL_NOW, as SQL statements. */
      TEST_DEMO_SQL: string[];
      SHARD_1: D1Database;
      EMAIL_REFUSING: SendEmail;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
      durableNamespaces: "RateLimiter";
    }
  }
}
