/**
 * Connection settings as discrete fields. PrismaPg given a `connectionString` lets the
 * string's defaults override the database name, so the URL is taken apart here instead.
 */
export const connectionFields = (databaseUrl: string) => {
  const url = new URL(databaseUrl);
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new Error(`DATABASE_URL must be a postgres:// URL, not ${url.protocol}`);
  }
  const sslmode = url.searchParams.get("sslmode");
  return {
    host: url.searchParams.get("host") ?? (url.hostname || "localhost"),
    port: url.port ? Number(url.port) : 5432,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: decodeURIComponent(url.pathname.replace(/^\//, "")) || "postgres",
    ssl: sslmode === "require" || sslmode === "prefer" ? { rejectUnauthorized: false } : undefined,
  };
};
