import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, type TestContext } from "vitest";

/** The server the PostgreSQL tests use (`bash scripts/pg-test-server.sh` prints one); unset: they are skipped, or fail under CI. */
export const TEST_DATABASE_URL = process.env.YOLO_TEST_DATABASE_URL?.trim() || null;

// tests/setup/ink-outside-ci.ts unsets CI for Ink and keeps its value here.
const ciValue = process.env.YOLO_TEST_UNDER_CI ?? process.env.CI ?? "";
const UNDER_CI = ciValue !== "" && ciValue !== "false";

export const MISSING_SERVER =
  "YOLO_TEST_DATABASE_URL is not set, so the PostgreSQL half of this suite is skipped. " +
  'Start a throwaway server with: export YOLO_TEST_DATABASE_URL="$(bash scripts/pg-test-server.sh)"';

/** The savers the shared suite runs against. */
export type Backend = "sqlite" | "postgres";
export const BACKENDS: Backend[] = ["sqlite", "postgres"];

let warned = false;

/**
 * A database for one describe block: for "postgres" a fresh database on the test server (created before the block,
 * emptied before each test, dropped after), for "sqlite" nothing (each test uses its project's own file).
 * Without a server the block's tests are skipped with a printed message — and fail under CI, where `.ci/run` starts one.
 */
export function useTestDatabase(kind: Backend): { url(): string; env(): Record<string, string> } {
  let url: string | null = null;
  if (kind === "postgres") {
    beforeAll(async () => {
      const server = testServerUrl();
      if (server) url = await createDatabase(server);
    });
    beforeEach(async (ctx: TestContext) => {
      if (!url) return ctx.skip();
      await emptyDatabase(url);
    });
    afterAll(async () => {
      if (url && TEST_DATABASE_URL) await dropDatabase(TEST_DATABASE_URL, url);
    });
  }
  return {
    url: () => {
      if (!url) throw new Error("no PostgreSQL test database");
      return url;
    },
    env: (): Record<string, string> => (kind === "postgres" && url ? { YOLO_DATABASE_URL: url } : {}),
  };
}

/**
 * The test server's URL, or null with a printed message where there is none (the caller skips its PostgreSQL part);
 * under CI, where `.ci/run` starts one, its absence is an error. For a file whose blocks share one database.
 */
export function testServerUrl(): string | null {
  if (TEST_DATABASE_URL) return TEST_DATABASE_URL;
  if (UNDER_CI)
    throw new Error(
      "CI is set but YOLO_TEST_DATABASE_URL is not: the PostgreSQL tests must run in CI (.ci/run starts a server with scripts/pg-test-server.sh).",
    );
  if (!warned) console.warn(`[skipped] ${MISSING_SERVER}`);
  warned = true;
  return null;
}

/** A new empty database on the server of `serverUrl`; returns its URL. */
export async function createDatabase(serverUrl: string): Promise<string> {
  const name = `yolo_t_${randomBytes(5).toString("hex")}`;
  await withClient(adminUrl(serverUrl), (c) => c.query(`CREATE DATABASE ${name} STRATEGY file_copy`));
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function dropDatabase(serverUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await withClient(adminUrl(serverUrl), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Empties yolo's and LangGraph's tables (if set up) so each test starts from nothing, without a new database. */
export async function emptyDatabase(url: string): Promise<void> {
  await withClient(url, async (c) => {
    const { rows } = await c.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename IN ('yolo_threads', 'yolo_leases', 'yolo_eval_shards', 'checkpoints', 'checkpoint_blobs', 'checkpoint_writes')",
    );
    if (rows.length) await c.query(`TRUNCATE ${rows.map((r) => r.tablename).join(", ")}`);
  });
}

/** Runs `fn` with one connection to `url`. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function adminUrl(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.pathname = "/postgres";
  return u.toString();
}
