import { execa } from "execa";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, cleanEnv, describeResult, fullCli, runYolo } from "../helpers/cli.js";
import { tempDir } from "../helpers/per-test.js";
import { requireTool } from "../helpers/requires.js";

// bin/yolo.js prints the help texts the build captured (dist/help.json) without loading the CLI. They must be
// exactly what the CLI itself prints, exit code and stream included, for every form the file holds.
interface Answer {
  stream: "stdout" | "stderr";
  text: string;
  exitCode: number;
}
const HELP = JSON.parse(readFileSync(new URL("../../dist/help.json", import.meta.url), "utf8")) as { width: number; answers: Record<string, Answer> };
const FORMS = Object.keys(HELP.answers).map((key) => (key === "" ? [] : key.split("\u0000")));

describe("the precomputed help is the CLI's own", () => {
  it("covers the top-level help, every command and the threads subcommands", () => {
    const keys = Object.keys(HELP.answers);
    for (const command of ["run", "agent", "chat", "resume", "threads", "show", "report", "history", "init", "hooks", "graph", "doctor", "mcp"]) {
      expect(keys).toContain(`${command}\u0000--help`);
      expect(keys).toContain(`help\u0000${command}`);
    }
    expect(keys).toEqual(expect.arrayContaining(["", "--help", "-h", "help", "threads\u0000rm\u0000--help", "threads\u0000prune\u0000-h"]));
  });

  it.each(FORMS.map((args) => [args.join(" ") || "(no arguments)", args]))("`yolo %s` prints what the CLI prints", async (_, args) => {
    const dir = tempDir(onTestFinished);
    const [shim, real] = await Promise.all([runYolo(args as string[], { cwd: dir }), fullCli(args as string[], dir)]);
    expect({ exitCode: shim.exitCode, stdout: shim.stdout, stderr: shim.stderr }, describeResult(shim)).toEqual({
      exitCode: real.exitCode,
      stdout: real.stdout,
      stderr: real.stderr,
    });
    expect(shim.stdout + shim.stderr).toContain("Usage: yolo");
  });
});

describe("help on a terminal", () => {
  // Runs the shim on a pseudo-terminal `columns` wide and returns what it printed, line endings normalised.
  async function helpAt(columns: number, args = ["run", "--help"]) {
    const command = `stty cols ${columns}; ${process.execPath} ${BIN} ${args.join(" ")}`;
    const r = await execa("script", ["-qec", command, "/dev/null"], {
      cwd: tempDir(onTestFinished),
      env: { ...cleanEnv({}), SHELL: "/bin/sh", TERM: "xterm" },
      extendEnv: false,
      reject: false,
      encoding: "utf8",
      stripFinalNewline: false,
      timeout: 30_000,
    });
    return { r, text: String(r.stdout).replace(/\r\n/g, "\n") };
  }

  it("a wide terminal gets the 80-column text; a narrow one gets commander's wrapping to its width", async (ctx) => {
    requireTool(ctx, "script", "a pseudo-terminal for yolo");
    const wide = await helpAt(120);
    expect(wide.r.exitCode, wide.text).toBe(0);
    expect(wide.text).toBe(HELP.answers["run\u0000--help"].text);
    // The CLI itself caps its help at 80 columns too, so the precomputed text is what it would print here.
    expect((await helpAt(120, ["-C", ".", "run", "--help"])).text).toBe(wide.text);
    const narrow = await helpAt(60);
    expect(narrow.r.exitCode, narrow.text).toBe(0);
    expect(narrow.text).toContain("Usage: yolo run");
    expect(narrow.text).not.toBe(wide.text);
    // `-C .` is a form the shim does not precompute: the CLI itself answers, as it does at this width.
    const real = await helpAt(60, ["-C", ".", "run", "--help"]);
    expect(narrow.text).toBe(real.text);
  });
});

describe("help into a pipe that is already full", () => {
  // The shim writes with fs.writeSync. On a non-blocking pipe with no room left that fails with EAGAIN; the rest must
  // still arrive, through the stream that waits for the reader, and nothing may be lost or printed twice.
  it("a non-blocking, full stdout pipe still gets the whole help text once, after the reader catches up", async () => {
    const filler = 1024 * 1024;
    // The child fills its own stdout (libuv makes a pipe non-blocking when process.stdout is created for it) until EAGAIN, then
    // runs the shim in the same process, so the shim's first write meets a full pipe.
    const script = [
      'const fs = require("node:fs");',
      "process.stdout;",
      "let wrote = 0; const chunk = Buffer.alloc(4096, 46);",
      `while (wrote < ${filler}) { try { wrote += fs.writeSync(1, chunk); } catch (e) { if (e.code === "EAGAIN") break; throw e; } }`,
      "fs.writeSync(2, String(wrote));",
      `process.argv = [process.execPath, ${JSON.stringify(BIN)}, "--help"];`,
      `require(${JSON.stringify(BIN)});`,
    ].join("\n");
    // A real pipe whose reader waits a second before reading anything: the child meets a full pipe (pipefail: the exit
    // code is the writer's).
    const r = await execa("bash", ["-c", 'set -o pipefail; node -e "$SCRIPT" | { sleep 1; cat; }'], {
      cwd: tempDir(onTestFinished),
      env: { ...cleanEnv({}), PATH: `${dirname(process.execPath)}:${process.env.PATH}`, SCRIPT: script },
      extendEnv: false,
      reject: false,
      encoding: "utf8",
      stripFinalNewline: false,
      timeout: 30_000,
    });
    const wrote = r.stderr;
    expect(r.exitCode, wrote).toBe(0);
    const out = r.stdout;
    const dots = Number(wrote);
    // The filler stopped at EAGAIN, before its target: the pipe really was full when the shim wrote.
    expect(dots).toBeLessThan(filler);
    expect(out.slice(0, dots)).toBe(".".repeat(dots));
    expect(out.slice(dots)).toBe(HELP.answers["--help"].text);
  });
});
