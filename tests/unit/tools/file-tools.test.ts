import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getTool, TOOLS } from "../../../src/tools/registry.js";
import { TOOL_NAMES, type ToolContext, type ToolOutcome } from "../../../src/tools/types.js";
import { tempDir } from "../../helpers/per-test.js";

let root: string;
let outside: string;
let ctx: ToolContext;

beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-files-");
  outside = tempDir(onTestFinished, "yolo-outside-");
  ctx = { root, commandTimeoutS: 10, outputCapBytes: 4096, readCapBytes: 1024, env: {}, secretEnvNames: [] };
});

const put = (rel: string, content: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

// Runs a tool the way the agent runner will: arguments parsed by the tool's own zod schema first.
async function call(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
  const tool = getTool(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const outcome = await tool.run(tool.schema.parse(args), ctx);
  expect(outcome.content).not.toContain(root);
  expect(outcome.summary).not.toContain(root);
  return outcome;
}

describe("registry", () => {
  it("has every tool name, and nothing for unknown names", () => {
    expect(Object.keys(TOOLS).sort()).toEqual([...TOOL_NAMES].sort());
    for (const name of TOOL_NAMES) expect(TOOLS[name].name).toBe(name);
    expect(getTool("delete_everything")).toBeUndefined();
    expect(getTool("toString")).toBeUndefined();
  });
});

describe("installed dependencies", () => {
  it("write_file and edit_file refuse node_modules (at any depth) and a top-level virtualenv, and change nothing there", async () => {
    put("node_modules/tiny-assert/index.js", "export function equal(a, b) {}\n");
    for (const rel of ["node_modules/tiny-assert/index.js", "packages/a/node_modules/x/i.js", ".venv/lib/site.py", "venv/bin/pytest"]) {
      const out = await call("write_file", { path: rel, content: "export function equal() {}\n" });
      expect(out, rel).toMatchObject({ ok: false, summary: expect.stringMatching(/refused \(installed dependency\)/) });
    }
    const edit = await call("edit_file", { path: "node_modules/tiny-assert/index.js", old_string: "(a, b)", new_string: "()" });
    expect(edit.ok).toBe(false);
    expect(read("node_modules/tiny-assert/index.js")).toBe("export function equal(a, b) {}\n");
    expect(await call("write_file", { path: "src/venv.js", content: "x" })).toMatchObject({ ok: true });
  });
});

describe("read_file", () => {
  it("returns a text file's content", async () => {
    put("src/a.ts", "export const a = 1;\n");
    expect(await call("read_file", { path: "src/a.ts" })).toMatchObject({ ok: true, content: "export const a = 1;\n" });
  });

  it("truncates at readCapBytes with a marker saying how much is left", async () => {
    put("big.txt", "x".repeat(3000));
    const out = await call("read_file", { path: "big.txt" });
    expect(out.ok).toBe(true);
    expect(out.content).toBe(`${"x".repeat(1024)}\n[truncated: 1976 more bytes]`);
  });

  it("does not cut a multi-byte character in half", async () => {
    put("utf.txt", `${"a".repeat(1023)}é tail`);
    const out = await call("read_file", { path: "utf.txt" });
    expect(out.content.startsWith(`${"a".repeat(1023)}\n[truncated: `)).toBe(true);
  });

  it("reports a missing file, a directory and a binary file as tool errors", async () => {
    put("src/a.ts", "");
    put("bin.dat", Buffer.from([1, 2, 0, 3]));
    expect(await call("read_file", { path: "nope.ts" })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/`nope.ts` does not exist; use list_files/),
    });
    expect(await call("read_file", { path: "src" })).toMatchObject({ ok: false, content: expect.stringMatching(/is a directory/) });
    expect(await call("read_file", { path: "bin.dat" })).toMatchObject({ ok: false, content: expect.stringMatching(/binary/) });
  });

  it("refuses paths outside the project and in .git", async () => {
    fs.writeFileSync(path.join(outside, "secret.txt"), "s3cret");
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "leak.txt"));
    put(".git/config", "[core]");
    for (const p of ["../x", "leak.txt", ".git/config", "/etc/passwd"]) {
      const out = await call("read_file", { path: p });
      expect(out.ok, p).toBe(false);
      expect(out.content).not.toContain("s3cret");
    }
  });
});

describe("write_file", () => {
  it("creates a new file in new folders and counts every line as added", async () => {
    const out = await call("write_file", { path: "src/lib/add.js", content: "a\nb\nc\n" });
    expect(out).toMatchObject({ ok: true, summary: "src/lib/add.js (+3 −0)", filesChanged: ["src/lib/add.js"] });
    expect(read("src/lib/add.js")).toBe("a\nb\nc\n");
  });

  it("replaces a file, reports a line diffstat and leaves no temp file", async () => {
    put("src/add.js", "one\ntwo\nthree\nfour\n");
    const out = await call("write_file", { path: "src/add.js", content: "one\n2\nthree\nfour\nfive\n" });
    expect(out.summary).toBe("src/add.js (+2 −1)");
    expect(read("src/add.js")).toBe("one\n2\nthree\nfour\nfive\n");
    expect(fs.readdirSync(path.join(root, "src"))).toEqual(["add.js"]);
  });

  it("keeps an executable bit", async () => {
    put("run.sh", "#!/bin/sh\n");
    fs.chmodSync(path.join(root, "run.sh"), 0o755);
    await call("write_file", { path: "run.sh", content: "#!/bin/sh\necho hi\n" });
    expect(fs.statSync(path.join(root, "run.sh")).mode & 0o777).toBe(0o755);
  });

  it("reports unchanged content without listing the file as changed", async () => {
    put("same.txt", "x\n");
    expect(await call("write_file", { path: "same.txt", content: "x\n" })).toMatchObject({ ok: true, filesChanged: [], summary: "same.txt (+0 −0)" });
  });

  it("refuses a target that is a symlink, even one pointing inside the project", async () => {
    put("real.txt", "real\n");
    fs.symlinkSync(path.join(root, "real.txt"), path.join(root, "alias.txt"));
    const out = await call("write_file", { path: "alias.txt", content: "changed\n" });
    expect(out).toMatchObject({ ok: false, content: expect.stringMatching(/symbolic link/) });
    expect(read("real.txt")).toBe("real\n");
    expect(fs.lstatSync(path.join(root, "alias.txt")).isSymbolicLink()).toBe(true);
  });

  it("refuses to write through a symlinked folder pointing outside, and into .yolo", async () => {
    fs.symlinkSync(outside, path.join(root, "out"));
    expect((await call("write_file", { path: "out/pwned.txt", content: "x" })).ok).toBe(false);
    expect(fs.existsSync(path.join(outside, "pwned.txt"))).toBe(false);
    expect((await call("write_file", { path: ".yolo/state.json", content: "{}" })).ok).toBe(false);
    expect((await call("write_file", { path: ".", content: "x" })).ok).toBe(false);
  });

  it("refuses a directory target", async () => {
    put("src/a.ts", "");
    expect(await call("write_file", { path: "src", content: "x" })).toMatchObject({ ok: false, content: expect.stringMatching(/directory/) });
  });
});

describe("edit_file", () => {
  it("replaces a unique occurrence and reports the diffstat", async () => {
    put("src/add.js", "function add(a, b) {\n  return a - b;\n}\n");
    const out = await call("edit_file", { path: "src/add.js", old_string: "return a - b;", new_string: "return a + b;" });
    expect(out).toMatchObject({ ok: true, summary: "src/add.js (+1 −1)", filesChanged: ["src/add.js"] });
    expect(out.content).toMatch(/line 2/);
    expect(read("src/add.js")).toBe("function add(a, b) {\n  return a + b;\n}\n");
  });

  it("inserts `$` sequences literally", async () => {
    put("a.js", "const x = 1;\n");
    await call("edit_file", { path: "a.js", old_string: "1", new_string: "'$&$1'" });
    expect(read("a.js")).toBe("const x = '$&$1';\n");
  });

  it("says where the text occurs when it occurs more than once", async () => {
    put("a.js", "x = 1;\ny = 2;\nx = 1;\n");
    const out = await call("edit_file", { path: "a.js", old_string: "x = 1;", new_string: "x = 3;" });
    expect(out).toMatchObject({ ok: false, summary: "a.js: old_string found 2 times" });
    expect(out.content).toMatch(/found 2 times.*lines 1, 3.*more surrounding lines/s);
    expect(read("a.js")).toBe("x = 1;\ny = 2;\nx = 1;\n");
  });

  it("says when the text is missing, and when only whitespace differs", async () => {
    put("a.js", "function f() {\n    return 1;\n}\n");
    const missing = await call("edit_file", { path: "a.js", old_string: "return 2;", new_string: "return 3;" });
    expect(missing).toMatchObject({ ok: false, content: expect.stringMatching(/not found/) });
    const indented = await call("edit_file", { path: "a.js", old_string: "function f() {\n  return 1;", new_string: "x" });
    expect(indented.content).toMatch(/differs only in whitespace.*line 1/);
  });

  it("matches LF text against a CRLF file and keeps CRLF", async () => {
    put("win.txt", "a\r\nb\r\nc\r\n");
    const out = await call("edit_file", { path: "win.txt", old_string: "a\nb", new_string: "a\nB" });
    expect(out.ok).toBe(true);
    expect(read("win.txt")).toBe("a\r\nB\r\nc\r\n");
  });

  it("refuses a missing file, an empty old_string and a no-op edit", async () => {
    put("a.js", "x\n");
    expect(await call("edit_file", { path: "b.js", old_string: "x", new_string: "y" })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/write_file/),
    });
    expect(await call("edit_file", { path: "a.js", old_string: "", new_string: "y" })).toMatchObject({ ok: false });
    expect(await call("edit_file", { path: "a.js", old_string: "x", new_string: "x" })).toMatchObject({ ok: false });
  });
});

describe("list_files", () => {
  it("lists files recursively, skipping .git, .yolo and node_modules", async () => {
    put("a.txt", "");
    put("src/b.ts", "");
    put("src/deep/c.ts", "");
    put(".git/HEAD", "");
    put(".yolo/threads/t.json", "");
    put("node_modules/x/index.js", "");
    put("src/node_modules/y.js", "");
    const out = await call("list_files", {});
    expect(out.content.split("\n")).toEqual(["a.txt", "src/b.ts", "src/deep/c.ts"]);
    expect((await call("list_files", { path: "src" })).content.split("\n")).toEqual(["src/b.ts", "src/deep/c.ts"]);
  });

  it("caps the listing with a note on how many more there are", async () => {
    for (let i = 0; i < 520; i++) put(`many/f${String(i).padStart(3, "0")}.txt`, "");
    const out = await call("list_files", { path: "many" });
    const lines = out.content.split("\n");
    expect(lines).toHaveLength(501);
    expect(lines[500]).toMatch(/… 20 more files/);
  });

  it("does not follow a symlinked folder out of the project", async () => {
    fs.writeFileSync(path.join(outside, "secret.txt"), "");
    fs.symlinkSync(outside, path.join(root, "out"));
    put("a.txt", "");
    const out = await call("list_files", {});
    expect(out.content).not.toContain("secret.txt");
    expect((await call("list_files", { path: "out" })).ok).toBe(false);
  });

  it("reports a missing folder", async () => {
    expect(await call("list_files", { path: "nope" })).toMatchObject({ ok: false, content: expect.stringMatching(/does not exist/) });
  });
});

describe("search_files", () => {
  it("returns file:line: text for matching lines, skipping binary files and ignored folders", async () => {
    put("src/add.js", "export function add(a, b) {\n  return a + b;\n}\n");
    put("src/sub.js", "export function sub(a, b) {\n  return a - b;\n}\n");
    put("node_modules/lib/add.js", "function add() {}\n");
    put("bin.dat", Buffer.concat([Buffer.from("function add"), Buffer.from([0])]));
    const out = await call("search_files", { pattern: "function\\s+(add|sub)" });
    expect(out.content.split("\n")).toEqual(["src/add.js:1: export function add(a, b) {", "src/sub.js:1: export function sub(a, b) {"]);
    expect((await call("search_files", { pattern: "return", path: "src/sub.js" })).content).toBe("src/sub.js:2:   return a - b;");
  });

  it("reports an invalid regex as a tool error", async () => {
    expect(await call("search_files", { pattern: "add(" })).toMatchObject({ ok: false, content: expect.stringMatching(/Invalid regular expression/) });
  });

  it("caps the number of results", async () => {
    put("many.txt", "hit\n".repeat(150));
    const out = await call("search_files", { pattern: "hit" });
    expect(out.content.split("\n")).toHaveLength(101);
    expect(out.content).toMatch(/… 50 more matches/);
  });

  it("says so when nothing matches", async () => {
    put("a.txt", "nothing\n");
    expect(await call("search_files", { pattern: "zzz" })).toMatchObject({ ok: true, content: expect.stringMatching(/No matches/) });
  });
});
