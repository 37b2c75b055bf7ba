import { z } from "zod";
import { checkCommand, defaultPolicy } from "./command-policy.js";
import { commandEnv } from "../secrets/env.js";
import { runShell } from "../exec/run-shell.js";
import { sandboxWithCaches } from "../exec/tool-caches.js";
import type { ToolContext, ToolDef } from "./types.js";

const schema = z.object({
  command: z.string().describe("Shell command run in the project root, e.g. `npm test` or `node src/cli.js --help`."),
  timeout_s: z
    .number()
    .positive()
    .optional()
    .describe("Seconds before the command is killed. Defaults to the configured command timeout; at most 4 times that."),
});

/**
 * The model may shorten the timeout freely, or lengthen it up to this multiple of the configured one:
 * a slow install or full test run should not need a config change, but a single call must stay bounded.
 */
const MAX_TIMEOUT_FACTOR = 4;

const MAX_SUMMARY_COMMAND = 60;

/** run_command: runs a shell command in the project root with a scrubbed environment and a hard timeout. */
export const runCommandTool: ToolDef<typeof schema> = {
  name: "run_command",
  description:
    "Run a shell command in the project root (non-interactive: no stdin; the same environment as the quality gate, secrets removed). Returns the exit code and the output (stdout and stderr interleaved; long output keeps its start and end). Secrets are removed from the environment.",
  schema,
  async run(args, ctx) {
    const shown = shortCommand(args.command);
    if (args.command.trim() === "") {
      return { ok: false, content: "The command is empty; give a shell command such as `npm test`.", summary: "(empty command)" };
    }
    const decision = checkCommand(args.command, ctx.commands?.policy ?? defaultPolicy(), { root: ctx.root });
    if (!decision.ok) {
      ctx.log?.({ command: args.command, reason: decision.reason }, "command refused by the command policy");
      return { ok: false, content: `${decision.reason} Nothing was run.`, summary: `${shown} → refused by the command policy` };
    }
    const timeoutS = effectiveTimeout(args.timeout_s, ctx.commandTimeoutS);
    // In the sandbox the toolchains' caches are the project's own under yolo's state folder, as for gates.
    const { sandbox, env: cacheEnv } = sandboxWithCaches(ctx.commands?.sandbox, ctx.root, ctx.stateDir, args.command);
    const result = await runShell(args.command, {
      cwd: ctx.root,
      timeoutS,
      env: { ...commandEnv(ctx.env, ctx.secretEnvNames, ctx.commands?.envAllow ?? null), ...cacheEnv },
      sandbox,
      config: ctx.commands?.config,
      capBytes: ctx.outputCapBytes,
      signal: ctx.signal,
    });
    const output = result.output === "" ? "(no output)" : result.output;
    if (result.aborted) {
      return { ok: false, content: `cancelled: the run was interrupted\n${output}`, summary: `${shown} → cancelled` };
    }
    if (result.timedOut) {
      return {
        ok: false,
        content: `timed out after ${timeoutS}s; the command and all its child processes were killed. Run something quicker, or pass a larger timeout_s (at most ${ctx.commandTimeoutS * MAX_TIMEOUT_FACTOR}).\n${output}`,
        summary: `${shown} → timed out after ${timeoutS}s`,
      };
    }
    const status = result.exitCode === null ? "killed by a signal" : `exit code ${result.exitCode}`;
    return {
      ok: result.exitCode === 0,
      content: `${status}\n${output}`,
      summary: `${shown} → ${result.exitCode === null ? "killed" : `exit ${result.exitCode}`}${testCounts(result.output, ctx.readTestCounts)}`,
    };
  },
};

/** The timeout a call gets: the model's request clamped to (0, 4 × configured], else the configured one. */
export function effectiveTimeout(requested: number | undefined, configured: number): number {
  if (requested === undefined || !Number.isFinite(requested) || requested <= 0) return configured;
  return Math.min(requested, configured * MAX_TIMEOUT_FACTOR);
}

/** " (2 failed)" or " (5 passed)" when the output reads as a test run's summary; "" otherwise. */
function testCounts(output: string, read: ToolContext["readTestCounts"]): string {
  if (!read) return "";
  const { passedCount, failedCount } = read(output);
  if (failedCount) return ` (${failedCount} failed)`;
  return passedCount !== null ? ` (${passedCount} passed)` : "";
}

function shortCommand(command: string): string {
  const firstLine = command.trim().split("\n")[0];
  const multiline = command.trim().includes("\n");
  return firstLine.length > MAX_SUMMARY_COMMAND || multiline ? `${firstLine.slice(0, MAX_SUMMARY_COMMAND)}…` : firstLine;
}
