import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getTool } from "../../../src/tools/registry.js";
import { SEARCH_LIMITS } from "../../../src/tools/search-files.js";
import type { ToolContext, ToolOutcome } from "../../../src/tools/types.js";

let root: string;
let ctx: ToolContext;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-bounds-")));
  ctx = { root, commandTimeoutS: 10, outputCapBytes: 4096, readCapBytes: 1024, env: {}, secretEnvNames: [] };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const put = (rel: string, content: string | Buffer = "x\n") => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
async function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const tool = getTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.run(tool.schema.parse(args), ctx);
}

describe("search_files on untrusted trees", () => {
  it("skips binary files (a NUL byte, or a binary extension) and ignored ones", async () => {
    put("src/a.ts", "const needle = 1;\n");
    put("blob.dat", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2])]));
    put("logo.png", "needle in a picture's name only\n");
    put(".gitignore", "generated/\n");
    put("generated/out.ts", "needle\n");
    const out = await call("search_files", { pattern: "needle" });
    expect(out.content).toBe("src/a.ts:1: const needle = 1;");
  });

  it("skips a FIFO named like a source file instead of waiting on it (files are opened without blocking)", async () => {
    put("src/a.ts", "const needle = 1;\n");
    execFileSync("mkfifo", [path.join(root, "src/b.ts")]);
    const out = await call("search_files", { pattern: "needle" });
    expect(out.content).toBe("src/a.ts:1: const needle = 1;");
  });

  it("lets the event loop run between files while it reads them", async () => {
    for (let i = 0; i < 50; i++) put(`src/f${i}.ts`, "const x = 1;\n");
    const slice = SEARCH_LIMITS.sliceMs;
    SEARCH_LIMITS.sliceMs = 0;
    let ticks = 0;
    let done = false;
    const spin = () => {
      ticks++;
      if (!done) setImmediate(spin);
    };
    try {
      setImmediate(spin);
      const out = await call("search_files", { pattern: "needle" });
      done = true;
      expect(out.content).toMatch(/^No matches/);
      // The walk alone yields a few times (one folder); reading yields after every file.
      expect(ticks).toBeGreaterThanOrEqual(40);
    } finally {
      SEARCH_LIMITS.sliceMs = slice;
    }
  });

  it("clips a huge single-line file's match instead of returning the line", async () => {
    put("min.js", `${"x".repeat(500_000)}needle${"y".repeat(400_000)}`);
    const out = await call("search_files", { pattern: "needle" });
    expect(out.content.length).toBeLessThan(400);
    expect(out.content).toMatch(/^min\.js:1: x{200}…$/);
  });

  describe("caps (lowered here, so a small tree reaches them)", () => {
    const saved = { ...SEARCH_LIMITS };
    afterEach(() => Object.assign(SEARCH_LIMITS, saved));
    const manyFiles = () => {
      for (let d = 0; d < 3; d++) for (let f = 0; f < 40; f++) put(`d${d}/f${String(f).padStart(2, "0")}.txt`, "hay\n".repeat(100));
      put("zz/last.txt", "needle\n");
    };

    it("stops at the file cap and says where it stopped", async () => {
      manyFiles();
      SEARCH_LIMITS.maxFiles = 50;
      const out = await call("search_files", { pattern: "needle" });
      expect(out.content).toBe(
        "No matches for /needle/ under `.`.\n(search capped at 50 files after 50 files: files after that were not searched; narrow the path)",
      );
      expect(out.summary).toContain("capped");
      expect((await call("search_files", { pattern: "needle", path: "zz" })).content).toBe("zz/last.txt:1: needle");
    });

    it("stops at the byte cap, and at the time limit", async () => {
      manyFiles();
      SEARCH_LIMITS.maxBytes = 10 * 400;
      expect((await call("search_files", { pattern: "needle" })).content).toContain("(search capped at 4 KB read after 10 files");
      Object.assign(SEARCH_LIMITS, saved, { timeMs: 0 });
      expect((await call("search_files", { pattern: "hay" })).content).toMatch(/\(search capped at 0 s after 0 files/);
    });
  });
});

describe("list_files on untrusted trees", () => {
  it("honours .gitignore and lists through a symlink loop without following it", async () => {
    put(".gitignore", "*.tmp\n");
    put("src/a.ts");
    put("src/b.tmp");
    fs.symlinkSync("..", path.join(root, "src/up"));
    const out = await call("list_files", {});
    expect(out.content.split("\n")).toEqual([".gitignore", "src/a.ts", "src/up"]);
  });
});
