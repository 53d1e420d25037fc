import { defineConfig } from "drizzle-kit";

// The analytics database (binding ANALYTICS_DB) has its own schema and migrations.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/packages/analytics/schema.ts"],
  out: "./migrations-analytics",
});
