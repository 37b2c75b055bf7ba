import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShell } from "../exec/run-shell.js";
import { probeBwrap } from "../exec/sandbox.js";
import { toolCaches } from "../exec/tool-caches.js";
import { environmentFailure } from "../gates/environment-failure.js";
import { gatesToRun } from "../gates/missing-tool.js";
import { commandEnv } from "../secrets/env.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/** What proves a toolchain works in the sandbox: it starts, and writes its cache where a gate's run will. */
const PROBES: Record<string, string> = {
  go: 'go version && go env GOCACHE && touch "$GOCACHE/.yolo-doctor"',
  cargo: "cargo --version",
  gradle: 'if [ -x ./gradlew ]; then ./gradlew --version --offline; else gradle --version --offline; fi && touch "$GRADLE_USER_HOME/.yolo-doctor"',
  maven: "if [ -x ./mvnw ]; then ./mvnw -v; else mvn -v; fi",
  python: 'python3 --version && touch "$PIP_CACHE_DIR/.yolo-doctor"',
  npm: 'npm --version && touch "$npm_config_cache/.yolo-doctor"',
};

/**
 * Each toolchain the gates use, started once inside bubblewrap with the caches a gate gets: a missing toolchain, a
 * read-only cache, no network where the tool needs it, said before a run spends fix attempts on them. The caches are
 * a throwaway folder's, not the project's. Nothing is said without a sandbox.
 */
export const toolchainCheck: DoctorCheck = {
  id: "toolchains",
  async run({ config, env }): Promise<CheckResult[]> {
    if (config.sandbox === "off") return [];
    const probe = probeBwrap(env.PATH);
    if (!probe.available) return [];
    // A detected gate whose program is missing is left out of runs (gates-check.ts says so): no toolchain to probe.
    const { gates } = gatesToRun(config.gates, config.root, env.PATH);
    if (!gates.length) return [];
    const scratch = mkdtempSync(join(tmpdir(), "yolo-doctor-caches-"));
    try {
      const caches = toolCaches(
        config.root,
        scratch,
        gates.map((g) => g.command),
      );
      const sandbox = { kind: "bwrap" as const, binary: probe.binary, writable: caches.writable };
      const results: CheckResult[] = [];
      for (const tool of caches.tools) {
        const command = PROBES[tool];
        if (!command) continue;
        const run = await runShell(command, {
          cwd: config.root,
          timeoutS: 120,
          env: { ...commandEnv(env as NodeJS.ProcessEnv, [config.model.apiKeyEnv], config.env.strict ? config.env.allow : null), ...caches.env },
          capBytes: 16 * 1024,
          sandbox,
        });
        results.push(resultOf(tool, run, config.root));
      }
      return results;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

// One toolchain's line: its version, or the environment failure (or the last line) and the fix.
function resultOf(tool: string, run: { exitCode: number | null; timedOut: boolean; output: string }, root: string): CheckResult {
  const id = `toolchain:${tool}`;
  const title = `${tool} in the sandbox`;
  const passed = run.exitCode === 0 && !run.timedOut;
  const lines = run.output.trim().split("\n").filter(Boolean);
  if (passed) return { id, title, status: "ok", detail: `${lines[0] ?? "starts"}; its cache is writable` };
  const failure = environmentFailure({ passed, exitCode: run.exitCode, timedOut: run.timedOut }, run.output, root, true);
  if (failure) return { id, title, status: "fail", detail: `${failure.kind}: ${failure.line}`, fix: failure.fix };
  const said = run.timedOut ? "timed out" : (lines.at(-1) ?? `exit code ${run.exitCode}`);
  return { id, title, status: "fail", detail: said, fix: `Check that ${tool} runs in the project (yolo runs its gates inside bubblewrap, without network).` };
}
