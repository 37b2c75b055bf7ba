import { execa } from "execa";
import { DRAIN_MS, type LaunchEnd, type LaunchRequest, type Launched } from "./launch.js";
import { killGroup } from "./process-groups.js";

/**
 * Starts a command from yolo's own process (execa): Node forks the whole process for it, so this is the path for a
 * command that cannot wait for the spawner helper (the first one, those while it boots, or after it failed).
 */
export function launchDirect(request: LaunchRequest): Launched {
  try {
    return started(request);
  } catch (error) {
    // execa refuses some arguments before starting anything (a NUL byte from the model).
    return { ended: Promise.resolve({ exitCode: null, startError: error instanceof Error ? error.message : String(error) }), killed: () => {} };
  }
}

function started(request: LaunchRequest): Launched {
  const subprocess = execa(request.file, request.args, {
    cwd: request.cwd,
    env: request.env,
    extendEnv: false,
    stdin: "ignore",
    // stdout and stderr are read straight into one buffer in arrival order: execa's merged `all` stream cost a third of
    // execa's own CPU on every gate and run_command (docs/performance.md, "Figures behind choices in the code").
    buffer: false,
    reject: false,
    detached: true,
    windowsHide: true,
  });
  subprocess.stdout?.on("data", request.onOutput);
  subprocess.stderr?.on("data", request.onOutput);
  const pid = subprocess.pid;
  let drainTimer: NodeJS.Timeout | undefined;
  if (pid !== undefined) {
    request.onPid(pid);
    subprocess.once("exit", () => {
      // Background jobs the shell left would hold the pipes open: the group goes with the shell.
      killGroup(pid, "SIGKILL");
      drainTimer = setTimeout(() => {
        subprocess.stdout?.destroy();
        subprocess.stderr?.destroy();
      }, DRAIN_MS);
    });
  }
  const ended = (async (): Promise<LaunchEnd> => {
    try {
      const result = await subprocess;
      const notStarted = result.exitCode === undefined && !result.signal && result.failed;
      return { exitCode: result.exitCode ?? null, ...(notStarted ? { startError: result.originalMessage || result.shortMessage } : {}) };
    } finally {
      clearTimeout(drainTimer);
    }
  })();
  return { ended, killed: () => {} };
}
