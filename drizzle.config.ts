import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  // Everything but the analytics package, whose tables live in their own database (drizzle.analytics.config.ts).
  schema: ["./src/platform/schema.ts", "./src/!(packages)/**/schema.ts", "./src/packages/!(analytics)/schema.ts"],
  out: "./migrations",
});
