// Checkpoint write latency and database size per superstep, PostgreSQL next to SQLite (the baseline), both under
// yolo's pipeline with the in-process model of pipeline-overhead.mjs (durability "sync": every superstep's
// checkpoint is written before the next starts, so the time per superstep is dominated by that write).
// PostgreSQL comes from YOLO_BENCH_DATABASE_URL or YOLO_TEST_DATABASE_URL (`bash scripts/pg-test-server.sh` starts
// one); each measured run gets a fresh database, sized with pg_total_relation_size of the checkpoint tables.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { resolveConfig } from "../dist/config/resolve.js";
import { launchLoaded } from "./loaded-launch.mjs";
import { openSession } from "../dist/engine/session.js";
import { openStorage } from "../dist/store/open-storage.js";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { benchDeps } from "./pipeline-overhead.mjs";

const CHECKPOINT_TABLES = ["checkpoints", "checkpoint_blobs", "checkpoint_writes"];

function project() {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module" }));
  writeFileSync(join(root, "src", "index.js"), "export {};\n");
  return root;
}

async function admin(serverUrl, sql) {
  const u = new URL(serverUrl);
  u.pathname = "/postgres";
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

async function pgBytes(url) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(`SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c WHERE c.relname = ANY($1) AND c.relkind = 'r'`, [
      CHECKPOINT_TABLES,
    ]);
    return Number(rows[0].bytes);
  } finally {
    await c.end();
  }
}

function sqliteBytes(path) {
  let total = 0;
  for (const f of [path, `${path}-wal`]) {
    try {
      total += statSync(f).size;
    } catch {}
  }
  return total;
}

/** A fresh database on the server (null: SQLite); returns its URL and a dropper. */
async function freshDatabase(serverUrl) {
  const name = `yolo_bench_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(serverUrl, `DROP DATABASE ${name} WITH (FORCE)`) };
}

/** Checkpoint write latency alone: a trivial one-node loop, so each superstep is little more than its checkpoint write. */
async function bareWrites(supersteps, serverUrl) {
  const root = project();
  const fresh = serverUrl ? await freshDatabase(serverUrl) : null;
  const storage = await openStorage(fresh ? { kind: "postgres", url: fresh.url } : { kind: "sqlite", path: join(root, "bare.db") });
  const State = Annotation.Root({ n: Annotation({ reducer: (_a, b) => b, default: () => 0 }) });
  const graph = new StateGraph(State)
    .addNode("step", (st) => ({ n: st.n + 1 }))
    .addEdge(START, "step")
    .addConditionalEdges("step", (st) => (st.n >= supersteps ? END : "step"), ["step", END])
    .compile({ checkpointer: storage.checkpointer });
  const started = process.hrtime.bigint();
  await graph.invoke({ n: 0 }, { configurable: { thread_id: "bare" }, durability: "sync", recursionLimit: 10_000 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await storage.close();
  await fresh?.drop();
  rmSync(root, { recursive: true, force: true });
  return ms / supersteps;
}

/** One pipeline run of `supersteps` on the given saver; returns ms per superstep and checkpoint bytes. */
async function run(supersteps, serverUrl) {
  const root = project();
  let url = null;
  if (serverUrl) {
    const name = `yolo_bench_${randomBytes(4).toString("hex")}`;
    await admin(serverUrl, `CREATE DATABASE ${name}`);
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const maxFixAttempts = (supersteps - 2) / 2 - 1;
  const env = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", ...(url ? { YOLO_DATABASE_URL: url } : {}) };
  const config = resolveConfig({
    root,
    fileConfig: { maxFixAttempts, gates: [{ name: "test", command: "true" }], limits: { maxSteps: 10_000 } },
    file: null,
    env,
    flags: {},
  });
  const deps = benchDeps(config);
  const session = await openSession(config);
  const started = process.hrtime.bigint();
  const handle = launchLoaded({ deps, session, threadId: "bench", start: { requirement: "add" }, logFile: join(root, "bench.log") });
  let steps = 0;
  for await (const e of handle.events) if (e.type === "node.completed") steps++;
  const result = await handle.result;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await session.close();
  const bytes = url ? await pgBytes(url) : sqliteBytes(config.dbPath);
  if (url) await admin(serverUrl, `DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  rmSync(root, { recursive: true, force: true });
  if (steps !== supersteps || result.status !== "failed") throw new Error(`run took ${steps} steps (${result.status}), expected ${supersteps}`);
  return { perStep: ms / supersteps, bytes };
}

export async function benchCheckpointSavers(print) {
  const serverUrl = process.env.YOLO_BENCH_DATABASE_URL?.trim() || process.env.YOLO_TEST_DATABASE_URL?.trim() || null;
  print("Checkpoint savers (yolo pipeline, durability sync, in-process model)");
  if (!serverUrl) {
    print('  PostgreSQL: skipped — set YOLO_TEST_DATABASE_URL (e.g. export YOLO_TEST_DATABASE_URL="$(bash scripts/pg-test-server.sh)")');
    return;
  }
  await run(20, null); // warm up both paths
  await run(20, serverUrl);
  await bareWrites(20, null);
  await bareWrites(20, serverUrl);
  const bareSqlite = await bareWrites(200, null);
  const barePg = await bareWrites(200, serverUrl);
  print(`  checkpoint write, SQLite     : ${bareSqlite.toFixed(2)} ms / superstep (baseline; trivial node)`);
  print(`  checkpoint write, PostgreSQL : ${barePg.toFixed(2)} ms / superstep → ${(barePg / bareSqlite).toFixed(2)}× SQLite`);
  const sqlite = { 20: await run(20, null), 200: await run(200, null) };
  const postgres = { 20: await run(20, serverUrl), 200: await run(200, serverUrl) };
  const kib = (b) => `${(b / 1024).toFixed(0)} KiB`;
  print(
    `  pipeline, SQLite     : ${sqlite[200].perStep.toFixed(2)} ms / superstep (baseline); ${kib(sqlite[20].bytes)} after 20, ${kib(sqlite[200].bytes)} after 200 → ${(sqlite[200].bytes / 200 / 1024).toFixed(1)} KiB / superstep`,
  );
  print(
    `  pipeline, PostgreSQL : ${postgres[200].perStep.toFixed(2)} ms / superstep → ${(postgres[200].perStep / sqlite[200].perStep).toFixed(2)}× SQLite; ` +
      `${kib(postgres[20].bytes)} after 20, ${kib(postgres[200].bytes)} after 200 → ${(postgres[200].bytes / 200 / 1024).toFixed(1)} KiB / superstep, ${(postgres[200].bytes / sqlite[200].bytes).toFixed(2)}× SQLite`,
  );
}
