import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeBwrap } from "../../src/exec/sandbox.js";

/** What a test may need from the machine: a program, or (`mount`) root with a working mount(2). */
export type Tool = "bwrap" | "tmux" | "script" | "setsid" | "runuser" | "mount" | "go" | "cargo" | "pipx" | "bun";

const INSTALL: Record<Tool, string> = {
  bwrap: "apt-get install bubblewrap (and allow unprivileged user namespaces)",
  tmux: "apt-get install tmux",
  script: "apt-get install bsdutils (util-linux's script)",
  setsid: "apt-get install util-linux",
  runuser: "apt-get install util-linux",
  mount: "run the tests as root where mount(2) is allowed (CI runs as root)",
  go: "apt-get install golang-go",
  cargo: "apt-get install cargo (or rustup)",
  pipx: "apt-get install pipx",
  bun: "npm install -g bun@1 (the npm package ships bun's binary)",
};

// `cmd args` run to the end with exit code 0 on this PATH, or why not.
function runs(cmd: string, args: string[], pathVar: string | undefined): string | null {
  const r = spawnSync(cmd, args, { env: { ...process.env, PATH: pathVar ?? "" }, stdio: ["ignore", "ignore", "pipe"], timeout: 10_000, encoding: "utf8" });
  if (r.error) return (r.error as NodeJS.ErrnoException).code === "ENOENT" ? `${cmd} is not installed` : `${cmd} could not start (${r.error.message})`;
  if (r.status !== 0) return `\`${cmd} ${args.join(" ")}\` failed (${(r.stderr ?? "").trim().split("\n")[0] || `exit code ${r.status ?? r.signal}`})`;
  return null;
}

// A real tmpfs mounted and unmounted: what the storage-fault tests do, so "can" here means they can.
function canMount(): string | null {
  if (process.getuid?.() !== 0) return "not root (mounting a tmpfs needs root)";
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "pipe" });
    execFileSync("umount", [probe], { stdio: "pipe" });
    return null;
  } catch (error) {
    return `mount -t tmpfs failed (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const PROBES: Record<Tool, (pathVar: string | undefined) => string | null> = {
  bwrap: (p) => {
    const probe = probeBwrap(p);
    return probe.available ? null : probe.reason;
  },
  tmux: (p) => runs("tmux", ["-V"], p),
  // script needs a pseudo-terminal as well as the program: run a command under it.
  script: (p) => runs("script", ["-qec", "true", "/dev/null"], p),
  setsid: (p) => runs("setsid", ["true"], p),
  runuser: (p) => runs("runuser", ["--help"], p),
  mount: () => canMount(),
  go: (p) => runs("go", ["version"], p),
  cargo: (p) => runs("cargo", ["--version"], p),
  pipx: (p) => runs("pipx", ["--version"], p),
  bun: (p) => runs("bun", ["--version"], p),
};

const seen = new Map<string, string | null>();

/** Why `tool` cannot be used by a test here (on the current PATH), or null when it can. Probed once per tool and PATH. */
export function whyUnusable(tool: Tool): string | null {
  const key = `${tool}\0${process.env.PATH ?? ""}`;
  if (!seen.has(key)) seen.set(key, PROBES[tool](process.env.PATH));
  return seen.get(key) ?? null;
}

/** Whether the tests run under CI; the setup file moves CI aside (for Ink) into YOLO_TEST_UNDER_CI. */
export function underCI(): boolean {
  return Boolean(process.env.YOLO_TEST_UNDER_CI || process.env.CI);
}

/**
 * Call first in a test (or a beforeEach) that needs `tool`. When the tool is missing or unusable the test fails
 * under CI, where a skip would hide that it never ran, and is skipped with a printed reason elsewhere.
 */
export function requireTool(ctx: { skip(note: string): void }, tool: Tool, reason: string): void {
  const why = whyUnusable(tool);
  if (!why) return;
  const message = `${reason} needs ${tool}: ${why}`;
  if (underCI()) throw new Error(`CI is set, so this test must run, but ${message}. To fix: ${INSTALL[tool]}.`);
  console.warn(`[skipped] ${message} (${INSTALL[tool]}; under CI this fails)`);
  ctx.skip(message);
}
