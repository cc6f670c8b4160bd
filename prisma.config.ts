import { defineConfig } from "prisma/config";

// DATABASE_URL is only needed by commands that talk to the database (migrate, studio);
// `prisma generate` works without it.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/aeo_scan" },
});
