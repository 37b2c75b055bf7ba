import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, handoff, pmDone } from "../helpers/director.js";
import { roleOf, startMockOpenAI, type RecordedRequest, type ScriptedReply } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { requireTool } from "../helpers/requires.js";

// The database on a disk that fills up mid-run, or that is read-only: a clear storage error naming the file,
// nothing lost, and a resume that finishes once the disk is usable again. A real small tmpfs (full) and a real
// read-only remount are used, which needs root and mount(2); as root, chmod would not stop a write. Without them
// the tests skip, and fail under CI (requireTool).
const NEED = "the disk faults (a real tmpfs, remounted read-only)";

const cleanups = cleanupsAfterEach("lastFirst");

function tmpfs(size: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  cleanups.push(() => {
    execFileSync("umount", ["-l", dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

// analyst → pm → dev, no gates: three agents, so a stop in the middle has completed steps before it.
const CONFIG = `export default {
  workflow: {
    nodes: { analyst: { kind: "agent" }, pm: { kind: "agent" }, dev: { kind: "agent" } },
    edges: [{ from: "start", to: "analyst" }, { from: "analyst", to: "pm" }, { from: "pm", to: "dev" }, { from: "dev", to: "end" }],
  },
};
`;

function integrity(db: string): string {
  const Database = createRequire(import.meta.url)("better-sqlite3");
  const handle = new Database(db, { readonly: true });
  try {
    return handle.pragma("integrity_check", { simple: true }) as string;
  } finally {
    handle.close();
  }
}

async function setup(onRequest: (role: string | null) => void = () => {}) {
  const project = makeProject({ "yolo.config.ts": CONFIG });
  const served: string[] = [];
  const mock = await startMockOpenAI((req: RecordedRequest): ScriptedReply => {
    const role = roleOf(req);
    served.push(role ?? "?");
    onRequest(role);
    if (role === "analyst") return analystDone;
    if (role === "pm") return pmDone(false);
    return handoff({ summary: "nothing to change", files_changed: [] });
  });
  cleanups.push(project.cleanup, () => mock.close());
  return { root: project.root, mock, served };
}

describe("storage faults", () => {
  it("a disk that fills up mid-run stops it with a storage error naming the database; after space is freed, resume finishes without redoing completed steps", async (ctx) => {
    requireTool(ctx, "mount", NEED);
    const disk = tmpfs("1m");
    const db = path.join(disk, "yolo.db");
    const filler = path.join(disk, "filler");
    let fill = true;
    const { root, mock, served } = await setup((role) => {
      // While pm thinks, something else takes the rest of the disk.
      if (role === "pm" && fill) {
        fill = false;
        try {
          fs.writeFileSync(filler, Buffer.alloc(2 << 20));
        } catch {
          // ENOSPC: the disk is now full, as intended.
        }
      }
    });
    const opts = { cwd: root, baseURL: mock.url, env: { YOLO_DB: db } };
    const first = await runYolo(["run", "--json", "--ci", "do it"], opts);
    expect(first.exitCode, describeResult(first)).toBe(70);
    const done = parseEvents(first.stdout).find((e) => e.type === "run.completed");
    expect(done).toMatchObject({ status: "error", reason: expect.stringContaining(`yolo's database ${db} cannot be written: the disk is full`) });
    expect(first.stderr).toContain(`${db} cannot be written: the disk is full`);
    expect(first.stderr).not.toMatch(/unexpected error/);
    const thread = threadIdFrom(first.stdout);

    fs.rmSync(filler);
    const resumed = await runYolo(["resume", thread, "--json", "--ci"], opts);
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    // The analyst's step was saved before the disk filled: it is not run again; pm, cut off, runs again.
    expect(served).toEqual(["analyst", "pm", "pm", "dev"]);
    expect(integrity(db)).toBe("ok");
  }, 150_000);

  it("a read-only database is refused with its path and the reason, and nothing in it is lost", async (ctx) => {
    requireTool(ctx, "mount", NEED);
    const disk = tmpfs("4m");
    const db = path.join(disk, "yolo.db");
    const { root, mock } = await setup();
    const opts = { cwd: root, baseURL: mock.url, env: { YOLO_DB: db } };
    const first = await runYolo(["run", "--json", "--ci", "do it"], opts);
    expect(first.exitCode, describeResult(first)).toBe(0);
    const thread = threadIdFrom(first.stdout);

    execFileSync("mount", ["-o", "remount,ro", disk]);
    for (const args of [["threads"], ["resume", thread, "--ci"]]) {
      const refused = await runYolo(args, opts);
      expect(refused.exitCode, describeResult(refused)).toBe(70);
      expect(refused.stderr).toContain(`yolo's database ${db} cannot be written: it is on a read-only file system`);
    }
    execFileSync("mount", ["-o", "remount,rw", disk]);
    const listed = await runYolo(["threads", "--json"], opts);
    expect(listed.exitCode, describeResult(listed)).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: thread, status: "passed" })]);
    expect(integrity(db)).toBe("ok");
  }, 150_000);
});
