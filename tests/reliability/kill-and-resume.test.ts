import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, runYolo, spawnYolo } from "../helpers/cli.js";
import { analystDone, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { roleOf, startMockOpenAI, type RecordedRequest, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// kill -9 at random points across several scripted runs of the built binary: every resume finishes, the final tree
// equals the uninterrupted run's, and SQLite's integrity_check is ok. The model is stateless (each reply is decided
// from the request alone), so a node re-run after a kill gets the same answers as the first time.

/** Runs are scripted until this many kills have landed (at most MAX_SCENARIOS runs, up to 3 kills each). */
const TARGET_KILLS = 9;
const MAX_SCENARIOS = 16;
const KILLS_PER_SCENARIO = 3;
const REQ = "Add an add(a, b) function to src/add.js";
// The fixture's test script given as the gate: what is proven is the tree and the database after kills, not npm's
// detection, and npm's own start costs about 0.55 s of CPU on each of the file's dozen gate runs. The thread keeps the
// command, so every resume runs the same gate (`npm test` through kill and resume: tests/e2e/resume-after-kill.test.ts).
const RUN = ["run", "--json", "--test-cmd", "node --test test/", REQ];

const cleanups = cleanupsAfterEach("lastFirst");

const FILES: [string, string][] = [
  ["src/add.js", GOOD_ADD],
  ["src/sub.js", "export const sub = (a, b) => a - b;\n"],
  ["docs/notes.md", "# notes\nadd and sub\n"],
];

// dev writes one file per turn (the n-th tool result so far decides which), then hands off.
function stateless(req: RecordedRequest): ScriptedReply {
  const role = roleOf(req);
  const base = { delayMs: 40 };
  if (role === "analyst") return { ...analystDone, ...base };
  if (role === "pm") return { ...pmDone(false), ...base };
  if (role === "tea") return { ...teaSays("PASS"), ...base };
  const done = req.messages.filter((m) => m?.role === "tool").length;
  if (done < FILES.length) {
    const [p, content] = FILES[done];
    return { toolCalls: [{ name: "write_file", args: { path: p, content } }], ...base };
  }
  return { toolCalls: [{ name: "handoff", args: { summary: "wrote the files", files_changed: FILES.map(([p]) => p) } }], ...base };
}

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === ".yolo" || e.name === ".git" || e.name === "node_modules") continue;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else out[path.relative(root, abs)] = fs.readFileSync(abs, "utf8");
    }
  };
  walk(root);
  return out;
}

function integrity(root: string): string {
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const db = new Database(path.join(root, ".yolo", "yolo.db"), { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

function threadOf(stdout: string): string | null {
  const line = stdout.split("\n").find((l) => l.includes('"run.started"'));
  if (!line) return null;
  try {
    return (JSON.parse(line) as { thread: string }).thread;
  } catch {
    return null;
  }
}

// It found one bug: a kill after a node had saved its writes but before the step's checkpoint made the thread look
// finished (LangGraph leaves such a task out of `next`), so a resume reported "passed" with nothing done.
describe("kill -9 at random points", () => {
  it(`${TARGET_KILLS}+ kills across scripted runs: every resume finishes with the uninterrupted tree and a sound database`, async () => {
    const mock = await startMockOpenAI(stateless);
    cleanups.push(() => mock.close());

    const reference = makeProject();
    cleanups.push(reference.cleanup);
    const clean = await runYolo(RUN, { cwd: reference.root, baseURL: mock.url });
    expect(clean.exitCode, describeResult(clean)).toBe(0);
    const events = clean.stdout.split("\n").filter(Boolean).length;
    const expected = tree(reference.root);
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(FILES.map(([p]) => p)));

    let seed = 20_261_122;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let kills = 0;
    let resumes = 0;
    let scenarios = 0;
    for (; scenarios < MAX_SCENARIOS && kills < TARGET_KILLS; scenarios++) {
      const project = makeProject();
      cleanups.push(project.cleanup);
      let thread: string | null = null;
      const legs: string[] = [];
      for (let k = 0; k < KILLS_PER_SCENARIO; k++) {
        const args = thread ? ["resume", "--json", thread] : RUN;
        const child = spawnYolo(args, { cwd: project.root, baseURL: mock.url });
        // The kill lands at a random event boundary after the thread's first checkpoint (a fresh run's first completed
        // node, a resume's start) plus a random 0–150 ms, so it does not depend on how loaded the machine is.
        // Kills before the first checkpoint are a known gap (see docs/reliability.md).
        const trigger = thread ? '"run.started"' : '"node.completed"';
        const after = Math.floor(random() * (thread ? 4 : 8));
        const delay = Math.floor(random() * 150);
        let timer: NodeJS.Timeout | undefined;
        let seen = "";
        child.stdout!.on("data", (chunk: Buffer) => {
          seen += String(chunk);
          const at = seen.indexOf(trigger);
          if (!timer && at >= 0 && seen.slice(at).split("\n").length - 1 >= after) timer = setTimeout(() => child.kill("SIGKILL"), delay);
        });
        const r = await child;
        clearTimeout(timer);
        if (r.signal === "SIGKILL") kills++;
        legs.push(`${args[0]}: ${r.signal ?? `exit ${r.exitCode}`} after ${after} events +${delay} ms`);
        thread ??= threadOf(String(r.stdout));
        if (r.signal !== "SIGKILL") break;
      }
      // Finish: resume the thread (or start it, when every kill landed before the thread existed).
      const last = thread
        ? await runYolo(["resume", "--json", thread], { cwd: project.root, baseURL: mock.url })
        : await runYolo(RUN, { cwd: project.root, baseURL: mock.url });
      if (thread) resumes++;
      expect(last.exitCode, describeResult(last)).toBe(0);
      expect(tree(project.root), `${legs.join("; ")}\n${describeResult(last)}`).toEqual(expected);
      expect(integrity(project.root)).toBe("ok");
    }
    console.log(
      `kill-and-resume: ${kills} kills at random points over ${scenarios} runs (uninterrupted run: ${events} events), ${resumes} resumed threads, trees equal, integrity_check ok`,
    );
    expect(kills).toBeGreaterThanOrEqual(TARGET_KILLS);
  }, 240_000);
});
