import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cp, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import { MIGRATIONS_DIR, migrateDeploy } from "@scan/db";
import { Client } from "pg";
import { createTestDatabase, stopContainers, type TestDatabase } from "./support/services";

/**
 * The migrations build exactly the database that prisma/schema.prisma describes, and the
 * migrator behaves as `prisma migrate deploy` does.
 */

type Field = {
  name: string;
  dbName: string | null;
  kind: string;
  type: string;
  isRequired: boolean;
  isList: boolean;
  nativeType: [string, string[]] | null;
};
type Model = { name: string; dbName: string | null; fields: Field[] };
type Datamodel = {
  models: Model[];
  enums: Array<{ name: string; values: Array<{ name: string }> }>;
  indexes: Array<{ model: string; type: string; fields: Array<{ name: string }> }>;
};

const schema = readFileSync(resolve(__dirname, "../prisma/schema.prisma"), "utf8");
const datamodel = (
  JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schema]] }))) as {
    datamodel: Datamodel;
  }
).datamodel;

const expectedType = (field: Field): string => {
  // Postgres names an array type by its element type with a leading underscore
  if (field.kind === "enum") return field.isList ? `_${field.type}` : field.type;
  const native = field.nativeType?.[0];
  if (native === "Uuid") return "uuid";
  if (native === "Timestamptz") return "timestamptz";
  const defaults: Record<string, string> = {
    String: "text",
    Int: "int4",
    BigInt: "int8",
    Boolean: "bool",
    Float: "float8",
    Json: "jsonb",
    Bytes: "bytea",
    DateTime: "timestamp",
  };
  const base = defaults[field.type] ?? field.type;
  // Postgres names an array type after its element, with a leading underscore
  return field.isList ? `_${base}` : base;
};

describe("database schema", () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
    await stopContainers();
  });

  it("has every table and column of the schema, with its type and nullability, and nothing more", async () => {
    for (const model of datamodel.models) {
      const table = model.dbName ?? model.name;
      const { rows } = await client.query<{ column_name: string; udt_name: string; is_nullable: string }>(
        "SELECT column_name, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
        [table],
      );
      const columns = new Map(rows.map((row) => [row.column_name, row]));
      const scalars = model.fields.filter((field) => field.kind === "scalar" || field.kind === "enum");
      expect([...columns.keys()].sort()).toEqual(scalars.map((field) => field.dbName ?? field.name).sort());
      for (const field of scalars) {
        const column = columns.get(field.dbName ?? field.name);
        expect({ field: field.name, type: column?.udt_name, nullable: column?.is_nullable }).toEqual({
          field: field.name,
          type: expectedType(field),
          nullable: field.isRequired ? "NO" : "YES",
        });
      }
    }
  });

  it("has every enum with its values in order", async () => {
    for (const enumType of datamodel.enums) {
      const { rows } = await client.query<{ label: string }>(
        "SELECT e.enumlabel AS label FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = $1 ORDER BY e.enumsortorder",
        [enumType.name],
      );
      expect(rows.map((row) => row.label)).toEqual(enumType.values.map((value) => value.name));
    }
  });

  it("has every index of the schema", async () => {
    for (const index of datamodel.indexes.filter((i) => i.type === "normal" || i.type === "unique")) {
      const model = datamodel.models.find((m) => m.name === index.model) as Model;
      const columns = index.fields.map((f) => {
        const field = model.fields.find((candidate) => candidate.name === f.name) as Field;
        return field.dbName ?? field.name;
      });
      const { rows } = await client.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE tablename = $1",
        [model.dbName ?? model.name],
      );
      const wanted = `(${columns.map((c) => `${c}`).join(", ")})`;
      expect(rows.map((row) => row.indexdef.replaceAll('"', "").replace(/^.*USING btree /, ""))).toContain(wanted);
    }
  });

  it("records migrations in Prisma's history table with Prisma's checksum, and applies nothing twice", async () => {
    const { rows } = await client.query<{ migration_name: string; finished_at: Date | null; checksum: string }>(
      'SELECT migration_name, finished_at, checksum FROM "_prisma_migrations"',
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.finished_at !== null && /^[0-9a-f]{64}$/.test(row.checksum))).toBe(true);
    expect(await migrateDeploy(database.url)).toEqual([]);
  });
});

describe("migrateDeploy", () => {
  const copyMigrations = async (): Promise<string> => {
    const dir = mkdtempSync(join(tmpdir(), "migrations-"));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    return dir;
  };

  afterAll(() => stopContainers());

  it("refuses a migration edited after it was applied", async () => {
    const database = await createTestDatabase();
    try {
      const dir = await copyMigrations();
      const first = readFileSync(join(MIGRATIONS_DIR, "20261122000000_scans/migration.sql"), "utf8");
      writeFileSync(join(dir, "20261122000000_scans/migration.sql"), `${first}\n-- edited\n`);
      await expect(migrateDeploy(database.url, dir)).rejects.toThrow(/edited after it was applied/);
    } finally {
      await database.drop();
    }
  });

  it("rolls back a migration that fails, records nothing of it, and applies it once fixed", async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const dir = await copyMigrations();
      await mkdir(join(dir, "20990101000000_broken"));
      writeFileSync(
        join(dir, "20990101000000_broken/migration.sql"),
        'ALTER TABLE "scans" ADD COLUMN "note" TEXT;\nSELECT no_such_function();\n',
      );
      await expect(migrateDeploy(database.url, dir)).rejects.toThrow(/20990101000000_broken failed/);
      const column = await client.query(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'scans' AND column_name = 'note'",
      );
      expect(column.rowCount).toBe(0);
      const history = await client.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name LIKE '%broken'`);
      expect(history.rowCount).toBe(0);

      writeFileSync(join(dir, "20990101000000_broken/migration.sql"), 'ALTER TABLE "scans" ADD COLUMN "note" TEXT;\n');
      expect(await migrateDeploy(database.url, dir)).toEqual(["20990101000000_broken"]);
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
