import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.ANALYTICS_DB, env.TEST_ANALYTICS_MIGRATIONS);
await applyD1Migrations(env.SHARD_1, env.TEST_SHARD_MIGRATIONS);
