import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { demoSql, TABLES } from "./scripts/seed.mjs";
import { startStripeStandIn } from "./test/stripe-stand-in.mjs";

/**
 * The blind evaluation's "now" (EVAL_NOW of test/assistant-eval-v2/split.ts, Wednesday 2026-11-18 15:00 UTC),
 * repeated here so that loading the config does not load the set; the evaluation checks that both agree.
 */
const EVAL_NOW = Date.UTC(2026, 10, 18, 15, 0, 0);

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  const analyticsMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations-analytics"));
  const shardMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations-shard", "SHARD_1"));
  // The seeded demo company as of the blind evaluation's "now" (test/assistant-eval-v2.eval.test.ts seeds it).
  const demo: string[] = demoSql(Object.fromEntries(TABLES.map((table) => [table, 0])), EVAL_NOW);
  // A local server standing in for Stripe's API (see the file): lives as long as the test run.
  const stripe = await startStripeStandIn();
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
            TEST_DEMO_SQL: demo,
            ALLOW_INSECURE_WEBHOOK_URLS: "true",
            CURSOR_SECRET: "test-cursor-secret-0123456789abcdef0123456789",
            STRIPE_API_BASE: stripe.base,
            SIGNING_SECRETS_KEY: `test2:${Buffer.alloc(32, 2).toString("base64")},test1:${Buffer.alloc(32, 1).toString("base64")}`,
          },
          email: {
            send_email: [
              { name: "EMAIL" },
              // A real simulated binding that refuses every message (its only allowed sender is not MAIL_FROM),
              // as Email Service refuses a sender whose domain is not onboarded: how the tests see a send fail.
              { name: "EMAIL_REFUSING", allowed_sender_addresses: ["nobody@unverified.example"] },
            ],
          },
          queueConsumers: {
            mail: { maxBatchTimeout: 0.05 },
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
