import { readFileSync } from "node:fs";
import { afterEach, expect, it, vi } from "vitest";
import { runShell } from "../../../src/exec/run-shell.js";
import { setSpawnerMode, spawnerPid } from "../../../src/exec/spawner.js";
import { isSecretName } from "../../../src/secrets/env.js";
import { tempDir } from "../../helpers/per-test.js";

afterEach(() => vi.unstubAllEnvs());

// Node's own IPC plumbing for a forked child; everything else of yolo's environment stays out of the helper.
const NODE_IPC = ["NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE"];

// The helper lives as long as yolo and a command can read its /proc entry: it must hold none of yolo's secrets.
it("the spawner helper starts with no secret and no NODE_* setting from yolo's environment or the command's", async ({ onTestFinished }) => {
  const root = tempDir(onTestFinished);
  vi.stubEnv("OPENAI_API_KEY", "sk-from-yolo");
  vi.stubEnv("NODE_EXTRA_CA_CERTS", "/nowhere/ca.pem");
  setSpawnerMode("helper");
  const env = {
    PATH: process.env.PATH,
    ANTHROPIC_API_KEY: "sk-command",
    GITHUB_TOKEN: "gh-command",
    DB_PASSWORD: "pw",
    NODE_OPTIONS: "--max-old-space-size=64",
    HOME: "/nowhere",
  };
  expect((await runShell("true", { cwd: root, timeoutS: 20, env, capBytes: 100 })).exitCode).toBe(0);
  const pid = spawnerPid();
  expect(pid).toBeDefined();
  const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
  const names = environ
    .split("\0")
    .filter(Boolean)
    .map((pair) => pair.slice(0, pair.indexOf("=")));
  expect(names.filter((name) => isSecretName(name))).toEqual([]);
  expect(names.filter((name) => name.startsWith("NODE_") && !NODE_IPC.includes(name))).toEqual([]);
  expect(names.filter((name) => !["PATH", "LD_LIBRARY_PATH", ...NODE_IPC].includes(name))).toEqual([]);
  expect(environ).not.toMatch(/sk-from-yolo|sk-command|gh-command/);
});
