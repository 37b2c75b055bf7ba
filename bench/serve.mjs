// `yolo serve` at team scale: the threads list of 10,000 threads (median of a few GETs of `/`), a thread's page, and
// how long a thread's change takes to reach an open page (a row update made as a run makes it, to the page's
// `changed` event). Every thread has the checkpoints of a real run (analyst, pm, then dev and tea with a gate, to a
// failed end): one thread is run with yolo's engine and its rows copied to the 10,000, so the list's state reads
// (gate outcome, tokens of the 200 rows shown) decode real checkpoints.
// Targets (docs/performance.md): the list in ≤ 0.3 s, an event to the page in ≤ 1 s.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { resolveConfig } from "../dist/config/resolve.js";
import { openSession } from "../dist/engine/session.js";
import { openThreadIndex } from "../dist/store/thread-index.js";
import { launchLoaded } from "./loaded-launch.mjs";
import { benchDeps } from "./pipeline-overhead.mjs";

const THREADS = 10_000;
const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchServe(print) {
  print(`yolo serve: the list of ${THREADS.toLocaleString("en-US")} threads with real checkpoints, a thread's page, an event reaching an open page`);
  const root = project();
  let child;
  try {
    const dbPath = await fillThreads(root);
    print(`  database: ${(statSync(dbPath).size / 1e6).toFixed(0)} MB`);
    const index = await openThreadIndex({ kind: "sqlite", path: dbPath });
    const spawned = performance.now();
    child = spawn(process.execPath, [BIN, "serve", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise((resolve) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /yolo serve: (http\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
    });
    // The server reads the list once before it prints its address (the first page a user opens is then a kept one).
    print(`  yolo serve to its address: ${(performance.now() - spawned).toFixed(0)} ms, the server's CPU ${cpuMs(child.pid).toFixed(0)} ms`);
    const list = await medianGet(url, child.pid);
    print(`  GET / (${THREADS} threads, 200 shown), first: ${list.first.wall.toFixed(0)} ms, the server's CPU ${list.first.cpu.toFixed(0)} ms`);
    print(`  GET / again (kept readings): median ${list.wall.toFixed(0)} ms, the server's CPU ${list.cpu.toFixed(0)} ms a request (target ≤ 300 ms)`);
    await index.threads.update("t9999", { currentNode: "dev" });
    const changed = await medianGet(url, child.pid, () => index.threads.update("t9999", { currentNode: "dev" }));
    print(
      `  GET / after a row changed each time (rows read again): median ${changed.wall.toFixed(0)} ms, the server's CPU ${changed.cpu.toFixed(0)} ms a request`,
    );
    const page = await medianGet(new URL("/threads/t5", url), child.pid);
    print(`  GET /threads/t5 (timeline, gate runs, diff): median ${page.wall.toFixed(0)} ms, the server's CPU ${page.cpu.toFixed(0)} ms a request`);
    print(`  load average while measured: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} (on ${availableParallelism()} cores)`);
    print(`  a row update to the page's "changed" event: ${(await eventDelay(url, index)).toFixed(0)} ms (target ≤ 1000 ms)`);
    await index.close();
  } finally {
    child?.kill("SIGTERM");
    rmSync(root, { recursive: true, force: true });
  }
}

// A git repository with one commit (a thread's page reads its diff since the start commit).
export function project() {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-serve-"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module" }));
  const git = (args) => spawnSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], { cwd: root, stdio: "ignore" });
  git(["init", "-q"]);
  git(["add", "-A"]);
  git(["commit", "-qm", "init"]);
  return root;
}

// One real run (the in-process handoff model, a `true` gate, two fix attempts), then its thread row, checkpoints and
// writes copied to THREADS threads, each with its own id, requirement, time and a mix of statuses.
export async function fillThreads(root) {
  const config = resolveConfig({
    root,
    fileConfig: { maxFixAttempts: 1, gates: [{ name: "test", command: "true" }] },
    file: null,
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    flags: {},
  });
  const session = await openSession(config);
  const handle = launchLoaded({ deps: benchDeps(config), session, threadId: "template", start: { requirement: "add" }, logFile: join(root, "bench.log") });
  for await (const _ of handle.events);
  await handle.result;
  await session.close();
  const db = new (createRequire(import.meta.url)("better-sqlite3"))(config.dbPath);
  try {
    const columns = db
      .prepare("PRAGMA table_info(yolo_threads)")
      .all()
      .map((c) => c.name);
    const set = {
      id: "'t' || i",
      requirement: "'Requirement number ' || i || ': add a feature'",
      status: "CASE WHEN i % 3 = 0 THEN 'failed' ELSE 'passed' END",
      created_at: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (2 * (10000 - i)) || ' seconds')",
      updated_at: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (2 * (10000 - i) - 1) || ' seconds')",
    };
    const numbers = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${THREADS - 1})`;
    db.transaction(() => {
      db.exec(
        `${numbers} INSERT INTO yolo_threads (${columns.join(", ")}) SELECT ${columns.map((c) => set[c] ?? c).join(", ")} FROM n, yolo_threads WHERE id = 'template'`,
      );
      db.exec(
        `${numbers} INSERT INTO checkpoints SELECT 't' || i, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata FROM n, checkpoints WHERE thread_id = 'template'`,
      );
      db.exec(
        `${numbers} INSERT INTO writes SELECT 't' || i, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value FROM n, writes WHERE thread_id = 'template'`,
      );
      for (const table of ["yolo_threads WHERE id", "checkpoints WHERE thread_id", "writes WHERE thread_id"]) db.exec(`DELETE FROM ${table} = 'template'`);
    })();
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  return config.dbPath;
}

// The median of five GETs after two to warm up (the first one's own figures kept), and the server's CPU time a
// request (user + system, from /proc): on a machine whose cores are shared, the wall time is mostly waiting for a
// core; the CPU time is the work. `prepare` runs ahead of each GET, outside its measure.
async function medianGet(url, pid, prepare = async () => {}) {
  const times = [];
  let cpu = 0;
  let first;
  for (let i = 0; i < 7; i++) {
    await prepare();
    const t = performance.now();
    const before = cpuMs(pid);
    const res = await fetch(url);
    await res.text();
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    if (i === 0) first = { wall: performance.now() - t, cpu: cpuMs(pid) - before };
    if (i >= 2) {
      times.push(performance.now() - t);
      cpu += cpuMs(pid) - before;
    }
  }
  return { wall: median(times), cpu: cpu / 5, first };
}

// A process's CPU time so far (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms); 0 off Linux.
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

// An open list page's event stream, then a thread's row moving to another node: the time until `changed` arrives.
async function eventDelay(url, index) {
  const controller = new AbortController();
  const res = await fetch(new URL("/events?topic=list", url), { signal: controller.signal });
  const reader = res.body.getReader();
  await reader.read();
  await new Promise((r) => setTimeout(r, 300));
  const t = performance.now();
  await index.threads.update("t5", { currentNode: "dev" });
  let text = "";
  while (!text.includes("event: changed")) text += new TextDecoder().decode((await reader.read()).value);
  const delay = performance.now() - t;
  controller.abort();
  return delay;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchServe((line) => console.log(line));
