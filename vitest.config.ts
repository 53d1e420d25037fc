import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const analyticsMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations-analytics"));
  const shardMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations-shard", "SHARD_1"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        remoteBindings: false,
        miniflare: {
          // Test-only secrets: production has no built-in keys (the worker refuses to serve without them).
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_ANALYTICS_MIGRATIONS: analyticsMigrations,
            TEST_SHARD_MIGRATIONS: shardMigrations,
            ALLOW_INSECURE_WEBHOOK_URLS: "true",
            CURSOR_SECRET: "test-cursor-secret-0123456789abcdef0123456789",
            SIGNING_SECRETS_KEY: `test2:${Buffer.alloc(32, 2).toString("base64")},test1:${Buffer.alloc(32, 1).toString("base64")}`,
          },
          queueConsumers: {
            webhooks: { maxBatchTimeout: 0.05 },
            analytics: { maxBatchTimeout: 0.05, maxRetries: 2 },
            "analytics-dlq": { maxBatchTimeout: 0.05 },
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
    },
  };
});
