import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../../src/exec/sandbox.js";
import { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

// Commands and gates inside bubblewrap: the project is the only writable folder, /tmp is private, no network.
// Where bwrap cannot build its sandbox (no user namespaces), the "unavailable" path is tested and the rest skipped,
// or fail under CI (requireTool).
const probe = probeBwrap(process.env.PATH);
const NEED = "running commands inside bubblewrap";

let root: string;
let outside: string;
beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-bwrap-");
  outside = tempDir(onTestFinished, "yolo-outside-");
});

const run = (command: string, sandbox: Sandbox) =>
  runShell(command, { cwd: root, timeoutS: 20, env: { PATH: process.env.PATH, HOME: process.env.HOME }, capBytes: 8192, sandbox });
const bwrap = (): Sandbox => (probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" });

describe("bubblewrap sandbox", () => {
  it("lets a command write in the project only: not outside it, not in yolo's .yolo folder, not in the real /tmp", async (ctx) => {
    requireTool(ctx, "bwrap", NEED);
    fs.mkdirSync(path.join(root, ".yolo"));
    const result = await run(
      [
        "echo in > inside.txt && echo wrote-inside",
        `echo out > ${outside}/escaped.txt || echo refused-outside`,
        "echo x > .yolo/yolo.db || echo refused-state",
        `echo x > ${os.homedir()}/.yolo-bwrap-test || echo refused-home`,
        "echo t > /tmp/private.txt && cat /tmp/private.txt",
      ].join("; "),
      bwrap(),
    );
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("wrote-inside");
    expect(result.output).toContain("refused-outside");
    expect(result.output).toContain("refused-state");
    expect(result.output).toContain("refused-home");
    expect(fs.readFileSync(path.join(root, "inside.txt"), "utf8")).toBe("in\n");
    expect(fs.existsSync(path.join(outside, "escaped.txt"))).toBe(false);
    expect(fs.existsSync(path.join(os.homedir(), ".yolo-bwrap-test"))).toBe(false);
    expect(fs.existsSync("/tmp/private.txt")).toBe(false);
  });

  it("has no network: a listener on 127.0.0.1 outside cannot be reached from inside, and is reachable without the sandbox", async (ctx) => {
    requireTool(ctx, "bwrap", NEED);
    const server = net.createServer((socket) => socket.on("error", () => {}).end("hello\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const connect = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('FAILED', e.code); process.exit(1) })"`;
    try {
      const inside = await run(connect, bwrap());
      expect(inside.output).toContain("FAILED ECONNREFUSED");
      expect(inside.exitCode).toBe(1);
      const direct = await run(connect, { kind: "none" });
      expect(direct.output).toContain("CONNECTED");
    } finally {
      server.close();
    }
  });

  it("cannot read yolo's own environment through /proc, and background jobs die with the command", async (ctx) => {
    requireTool(ctx, "bwrap", NEED);
    const result = await run(`cat /proc/${process.pid}/environ > /dev/null 2>&1 || echo no-parent-proc; (sleep 30 &) ; echo started`, bwrap());
    expect(result.output).toContain("no-parent-proc");
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it("a timeout kills the sandboxed command and everything it started", async (ctx) => {
    requireTool(ctx, "bwrap", NEED);
    const marker = `3${String(process.pid).padStart(7, "0")}`;
    const result = await runShell(`sleep ${marker} & sleep ${marker}`, {
      cwd: root,
      timeoutS: 0.5,
      env: { PATH: process.env.PATH },
      capBytes: 1024,
      sandbox: bwrap(),
      killGraceMs: 200,
    });
    expect(result.timedOut).toBe(true);
    expect(result.durationMs).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 300));
    const left = fs.readdirSync("/proc").filter((pid) => {
      try {
        return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });
    expect(left).toEqual([]);
  });

  it("reports bwrap missing, or present but unable to build its sandbox, with the reason", ({ onTestFinished }) => {
    const empty = tempDir(onTestFinished, "yolo-nobwrap-");
    const broken = tempDir(onTestFinished, "yolo-badbwrap-");
    fs.writeFileSync(path.join(broken, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", { mode: 0o755 });
    expect(probeBwrap(empty)).toEqual({
      available: false,
      reason: "bwrap (bubblewrap) is not installed",
      fix: "sudo apt install bubblewrap (or dnf install bubblewrap)",
    });
    expect(probeBwrap(broken)).toEqual({
      available: false,
      reason: `${path.join(broken, "bwrap")} cannot create its sandbox here: bwrap: No permissions to create new namespace`,
    });
  });
});
