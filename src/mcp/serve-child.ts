import { spawn } from "node:child_process";
import { lastBytes } from "../exec/capped-output.js";

/** How to start the yolo binary this server fronts. */
export interface YoloBinary {
  node: string;
  bin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** What one `yolo … --json` child ended with, read from its events (or from its exit when it printed none). */
export interface ChildOutcome {
  threadId: string | null;
  status: string;
  exitCode: number;
  reason: string;
  resumeCommand: string | null;
  question: string | null;
}

/**
 * Runs `yolo <args>` and follows its JSON Lines events: each parsed event goes to `onEvent` (for progress);
 * the outcome comes from `run.completed`. A child that crashes or is refused before any event (exit 2) is an
 * outcome too, with its stderr as the reason. Aborting the signal sends SIGTERM (yolo stops, resumable).
 */
export function runYoloChild(
  binary: YoloBinary,
  args: string[],
  onEvent: (event: Record<string, unknown>) => void,
  signal?: AbortSignal,
): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const child = spawn(binary.node, [binary.bin, ...args], { cwd: binary.cwd, env: binary.env, stdio: ["ignore", "pipe", "pipe"] });
    const outcome: ChildOutcome = { threadId: null, status: "error", exitCode: 70, reason: "", resumeCommand: null, question: null };
    let completed = false;
    let stderr = "";
    let pending = "";
    const abort = () => child.kill("SIGTERM");
    signal?.addEventListener("abort", abort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        let event: Record<string, unknown>;
        try {
          event = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (typeof event.thread === "string") outcome.threadId = event.thread;
        if (event.type === "interrupt") outcome.question = String(event.question ?? "");
        if (event.type === "run.completed") {
          completed = true;
          Object.assign(outcome, {
            status: String(event.status),
            exitCode: Number(event.exitCode),
            reason: String(event.reason ?? ""),
            resumeCommand: (event.resumeCommand as string | null) ?? null,
          });
        }
        onEvent(event);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = lastBytes(stderr + chunk.toString("utf8"), 8000);
    });
    child.on("error", (error) => {
      outcome.reason = `could not start yolo: ${error.message}`;
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", abort);
      if (!completed) {
        outcome.exitCode = code ?? 130;
        outcome.status = code === 2 ? "config_error" : code === null ? "interrupted" : "error";
        outcome.reason = stderr.trim().replace(/^yolo: /, "") || outcome.reason || `yolo exited with ${code}`;
      }
      resolve(outcome);
    });
  });
}

/** Runs `yolo <args>` (a read-only command such as `threads --json`) and returns its stdout, or its error. */
export function readYolo(binary: YoloBinary, args: string[]): Promise<{ ok: boolean; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary.node, [binary.bin, ...args], { cwd: binary.cwd, env: binary.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (err = lastBytes(err + c.toString("utf8"), 8000)));
    child.on("error", (error) => (err = error.message));
    child.on("close", (code) => resolve(code === 0 ? { ok: true, text: out } : { ok: false, text: err.trim() || `yolo exited with ${code}` }));
  });
}
