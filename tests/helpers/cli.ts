import { execa } from "execa";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { yoloEventSchema, type YoloEvent } from "../../src/events/schema.js";
import { roleOf, type MockOpenAI } from "./mock-openai.js";

/** The built binary the e2e tests drive (`npm test` builds dist/ first). */
export const BIN = fileURLToPath(new URL("../../bin/yolo.js", import.meta.url));

const MAIN = new URL("../../dist/cli/main.js", import.meta.url).href;

/**
 * The full CLI's own answer: dist/cli/main.js imported and main() called on the arguments, bypassing bin/yolo.js
 * (its precomputed help and its light CLI), to compare the shortcuts with.
 */
export async function fullCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const r = await execa(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const { main } = await import(${JSON.stringify(MAIN)}); await main([process.execPath, "yolo", ...process.argv.slice(1)]);`,
      "--",
      ...args,
    ],
    { cwd, env: cleanEnv({ env }), extendEnv: false, stdin: "ignore", reject: false, encoding: "utf8", stripFinalNewline: false },
  );
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/**
 * Longest a child may live: a hang fails the test with a kill instead of blocking vitest. Generous, because it only
 * ever costs time when something hangs: a run with three gate runs took over 45 s on two cores at load 13.
 */
const CHILD_TIMEOUT_MS = 120_000;

export interface YoloOptions {
  /** The project directory the child runs in. */
  cwd: string;
  /** The mock's URL, exported as OPENAI_BASE_URL (omit to leave it unset). */
  baseURL?: string;
  /** Longest the child may live (default 45 s): a run that really runs a test suite several times needs more. */
  timeoutMs?: number;
  /** Extra variables on top of the clean environment; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Extra node flags before the script, e.g. `--import <hook>`. */
  nodeArgs?: string[];
}

// yolo's caches (jiti's transpile cache, validated configs and workflows) go to a folder of this test process, not
// the developer's ~/.cache/yolo: a test never reads what another run left there.
const CACHE_HOME = mkdtempSync(join(tmpdir(), "yolo-test-cache-"));
process.once("exit", () => rmSync(CACHE_HOME, { recursive: true, force: true }));

/** A minimal environment: no CI, no colour forcing, no key unless a test sets one. */
export function cleanEnv(opts: Pick<YoloOptions, "baseURL" | "env">): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The developer's own ~/.config/yolo/config.ts must not change what the tests see.
    YOLO_USER_CONFIG: "",
    XDG_CACHE_HOME: CACHE_HOME,
    ...(opts.baseURL ? { OPENAI_BASE_URL: opts.baseURL } : {}),
    ...opts.env,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Starts `node bin/yolo.js …` as a child with a closed stdin; await it for the result (never rejects). */
export function spawnYolo(args: string[], opts: YoloOptions) {
  return execa(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], {
    cwd: opts.cwd,
    env: cleanEnv(opts),
    extendEnv: false,
    stdin: "ignore",
    reject: false,
    encoding: "utf8",
    stripFinalNewline: false,
    timeout: opts.timeoutMs ?? CHILD_TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
}

export interface YoloResult {
  exitCode: number | undefined;
  signal: string | undefined;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the binary to its end. */
export async function runYolo(args: string[], opts: YoloOptions): Promise<YoloResult> {
  const r = await spawnYolo(args, opts);
  return { exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** Parses `--json` stdout: every line must be a JSON object that validates as a yolo event. */
export function parseEvents(stdout: string): YoloEvent[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const parsed = yoloEventSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`stdout line is not a valid yolo event: ${line}\n${parsed.error.message}`);
      return parsed.data;
    });
}

/** The thread id from the `run.started` line of `--json` stdout (which may be partial after a kill). */
export function threadIdFrom(stdout: string): string {
  const first = stdout.split("\n").find((l) => l.includes('"run.started"'));
  if (!first) throw new Error(`no run.started event on stdout:\n${stdout}`);
  return (JSON.parse(first) as { thread: string }).thread;
}

/** Describes a result for assertion messages: exit code and both streams. */
export function describeResult(r: YoloResult): string {
  return `exit ${r.exitCode}${r.signal ? ` (${r.signal})` : ""}${r.timedOut ? " TIMED OUT" : ""}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

/**
 * Polls until `check` returns true; throws naming `what` after a generous timeout. No timing is asserted: the default
 * is under the tests' own 180 s budget and far over what any wait takes on a quiet machine (at load 20-29 on two cores
 * waits of 30 s ran out), so it costs time only on a hang.
 */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The roles of the requests the mock received, in order. */
export function rolesOf(mock: MockOpenAI): string[] {
  return mock.requests.map((r) => roleOf(r) ?? "unknown");
}

/** A promise with its resolver outside, for `hold`. */
export function deferred(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}
