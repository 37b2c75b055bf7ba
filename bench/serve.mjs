// `yolo serve` at team scale: the threads list of 10,000 threads (median of a few GETs of `/`), and how long a
// thread's change takes to reach an open page (a row update made as a run makes it, to the page's `changed` event).
// Targets (docs/performance.md): the list in ≤ 0.3 s, an event to the page in ≤ 1 s.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openThreadIndex } from "../dist/store/thread-index.js";

const THREADS = 10_000;
const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchServe(print) {
  print(`yolo serve: the list of ${THREADS.toLocaleString("en-US")} threads, and an event reaching an open page`);
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-serve-"));
  spawnSync("git", ["init", "-q", root]);
  mkdirSync(join(root, ".yolo"), { recursive: true });
  const index = await openThreadIndex({ kind: "sqlite", path: join(root, ".yolo", "yolo.db") });
  let child;
  try {
    for (let i = 0; i < THREADS; i++) {
      await index.threads.create({ id: `t${i}`, requirement: `Requirement number ${i}: add a feature`, model: "m", root, status: i % 3 ? "passed" : "failed" });
    }
    child = spawn(process.execPath, [BIN, "serve", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise((resolve) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
        const m = /yolo serve: (http\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
    });
    const times = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const res = await fetch(url);
      await res.text();
      if (i >= 2) times.push(performance.now() - t);
    }
    print(`  GET / (${THREADS} threads, 200 shown): median ${median(times).toFixed(0)} ms (target ≤ 300 ms)`);
    print(`  a row update to the page's "changed" event: ${(await eventDelay(url, index)).toFixed(0)} ms (target ≤ 1000 ms)`);
  } finally {
    child?.kill("SIGTERM");
    await index.close();
    rmSync(root, { recursive: true, force: true });
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
