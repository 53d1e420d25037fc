import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/platform/schema.ts", "./src/**/schema.ts"],
  out: "./migrations",
});
