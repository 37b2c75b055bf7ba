import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { ConfigError } from "../../../src/errors.js";

const root = "/proj";
const PG = "postgres://yolo@db:5432/yolo";
const resolve = (fileConfig: object, env: Record<string, string> = {}, flags: object = {}) => resolveConfig({ root, fileConfig, file: null, env, flags });

describe("which database and artifacts folder a project uses", () => {
  it("defaults to the SQLite file and .yolo/", () => {
    const c = resolve({});
    expect(c.database).toEqual({ kind: "sqlite", path: join(root, ".yolo", "yolo.db") });
    expect(c.stateDir).toBe(join(root, ".yolo"));
  });

  it("takes PostgreSQL from the config file, YOLO_DATABASE_URL over it, and --db back to a SQLite file", () => {
    expect(resolve({ checkpointer: { postgres: PG } }).database).toEqual({ kind: "postgres", url: PG });
    expect(resolve({ checkpointer: { postgres: PG } }, { YOLO_DATABASE_URL: "postgresql://other/db" }).database).toEqual({
      kind: "postgres",
      url: "postgresql://other/db",
    });
    expect(resolve({ dbPath: "x.db" }, { YOLO_DATABASE_URL: PG }).database).toEqual({ kind: "postgres", url: PG });
    expect(resolve({ checkpointer: { postgres: PG } }, { YOLO_DB: "env.db" }).database).toEqual({ kind: "sqlite", path: join(root, "env.db") });
    expect(resolve({}, { YOLO_DATABASE_URL: PG }, { db: "flag.db" }).database).toEqual({ kind: "sqlite", path: join(root, "flag.db") });
  });

  it("refuses both kinds in one layer, and a URL that is not PostgreSQL's", () => {
    expect(() => resolve({ dbPath: "x.db", checkpointer: { postgres: PG } })).toThrow(/both dbPath and checkpointer.postgres/);
    expect(() => resolve({}, { YOLO_DB: "x.db", YOLO_DATABASE_URL: PG })).toThrow(/YOLO_DB and YOLO_DATABASE_URL are both set/);
    expect(() => resolve({}, { YOLO_DATABASE_URL: "mysql://x/y" })).toThrow(ConfigError);
  });

  it("puts artifacts where storage.artifacts or YOLO_ARTIFACTS_DIR says, relative to the root", () => {
    expect(resolve({ storage: { artifacts: "/mnt/shared/yolo" } }).stateDir).toBe("/mnt/shared/yolo");
    expect(resolve({ storage: { artifacts: "/mnt/a" } }, { YOLO_ARTIFACTS_DIR: "out" }).stateDir).toBe(join(root, "out"));
  });
});
