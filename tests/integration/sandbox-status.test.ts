import { underCI } from "../helpers/requires.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserConfig } from "../../src/config/schema.js";
import { ConfigError } from "../../src/errors.js";
import { diagnose, probeBwrap } from "../../src/exec/sandbox.js";
import { director, handoff } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

// A run says at its start which sandbox its commands get, and without one why and how to fix it; "required" refuses.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
const devOnly = (extra: UserConfig = {}): UserConfig => ({
  workflow: {
    nodes: { dev: { kind: "agent" } },
    edges: [
      { from: "start", to: "dev" },
      { from: "dev", to: "end" },
    ],
  },
  ...extra,
});
function brokenBwrapPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-badbwrap-"));
  fs.writeFileSync(path.join(dir, "bwrap"), "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", { mode: 0o755 });
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return `${dir}${path.delimiter}${process.env.PATH}`;
}
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-status: bubblewrap is needed under CI: ${probe.reason}`);

describe("the sandbox a run gets, said in run.started", () => {
  it('without a working bwrap under "auto": kind none with bwrap\'s reason', async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ dev: [handoff({ summary: "done", files_changed: [] })] }));
    cleanups.push(project.cleanup, () => mock.close());
    const { events } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "sbx-none-1",
      requirement: "x",
      config: devOnly(),
      env: { PATH: brokenBwrapPath() },
    });
    const started = events.find((e) => e.type === "run.started");
    expect(started && started.type === "run.started" && started.sandbox).toEqual({
      kind: "none",
      reason: expect.stringContaining("setting up uid map: Permission denied"),
    });
  });

  (probe.available ? it : it.skip)("with a working bwrap: kind bwrap", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ dev: [handoff({ summary: "done", files_changed: [] })] }));
    cleanups.push(project.cleanup, () => mock.close());
    const { events } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "sbx-bwrap-1",
      requirement: "x",
      config: devOnly(),
      env: { PATH: process.env.PATH },
    });
    const started = events.find((e) => e.type === "run.started");
    expect(started && started.type === "run.started" && started.sandbox).toEqual({ kind: "bwrap" });
  });

  it('"off" (the user\'s YOLO_SANDBOX; a repository cannot turn it off) says so; "required" without a working bwrap refuses before any model call', async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ dev: [handoff({ summary: "done", files_changed: [] })] }));
    cleanups.push(project.cleanup, () => mock.close());
    const { events } = await runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "sbx-off-1",
      requirement: "x",
      config: devOnly(),
      env: { PATH: process.env.PATH, YOLO_SANDBOX: "off" },
    });
    const started = events.find((e) => e.type === "run.started");
    expect(started && started.type === "run.started" && started.sandbox).toEqual({ kind: "none", reason: 'sandbox is "off" in the config' });
    const before = mock.requests.length;
    const run = runEngine({
      root: project.root,
      baseURL: mock.url,
      threadId: "sbx-req-1",
      requirement: "x",
      config: devOnly({ sandbox: "required" }),
      env: { PATH: brokenBwrapPath() },
    });
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(/sandbox is "required" but .*cannot create its sandbox here/);
    expect(mock.requests.length).toBe(before);
  });
});

describe("why bwrap cannot sandbox, and the fix", () => {
  const proc = (values: Record<string, string>) => (p: string) => values[p] ?? null;
  it("names the platform, the missing package, AppArmor's userns restriction, Debian's switch and a zero namespace limit", () => {
    expect(diagnose({ platform: "darwin", installed: false, stderr: "", read: proc({}) })).toEqual({
      available: false,
      reason: expect.stringContaining("only on Linux, and this is macOS"),
    });
    expect(diagnose({ platform: "linux", installed: false, stderr: "", read: proc({}) })).toMatchObject({
      fix: "sudo apt install bubblewrap (or dnf install bubblewrap)",
    });
    const apparmor = diagnose({
      platform: "linux",
      installed: true,
      stderr: "bwrap: setting up uid map: Permission denied",
      read: proc({ "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1" }),
    });
    expect(apparmor).toMatchObject({
      reason: expect.stringContaining("AppArmor"),
      fix: expect.stringContaining("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"),
    });
    expect(
      diagnose({
        platform: "linux",
        installed: true,
        stderr: "x",
        read: proc({ "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "0", "/proc/sys/kernel/unprivileged_userns_clone": "0" }),
      }),
    ).toMatchObject({ fix: "sudo sysctl -w kernel.unprivileged_userns_clone=1" });
    expect(diagnose({ platform: "linux", installed: true, stderr: "x", read: proc({ "/proc/sys/user/max_user_namespaces": "0" }) })).toMatchObject({
      fix: "sudo sysctl -w user.max_user_namespaces=15000",
    });
    expect(diagnose({ platform: "linux", installed: true, stderr: "bwrap: odd", read: proc({}), binary: "/usr/bin/bwrap" })).toEqual({
      available: false,
      reason: "/usr/bin/bwrap cannot create its sandbox here: bwrap: odd",
    });
  });
});
