import { type ChildProcess, fork } from "node:child_process";
import { type FromSpawner, SPAWNER_PROTOCOL } from "./spawner-protocol.js";

/** Variables the helper (Node itself) may need to start; it holds none of yolo's others, secrets included. */
const HELPER_ENV = ["PATH", "LD_LIBRARY_PATH"];

/** A spawner helper process just forked (src/exec/spawner-child.ts), and whether it came up speaking this protocol. */
export interface ForkedSpawner {
  child: ChildProcess;
  up: Promise<boolean>;
}

/**
 * Forks the spawner helper from `script`, with only PATH and LD_LIBRARY_PATH of `env`. Idle: neither it nor its channel
 * keeps the forking process running (a Spawner refs them while a command is in flight). bin/yolo.js forks it before the
 * CLI loads (src/cli/early-probes.ts), while its process is small; the CLI adopts it (adoptSpawner).
 */
export function forkSpawner(script: string, env: NodeJS.ProcessEnv): ForkedSpawner {
  const helperEnv: NodeJS.ProcessEnv = {};
  for (const name of HELPER_ENV) if (env[name] !== undefined) helperEnv[name] = env[name];
  // Its own group: a Ctrl+C at the terminal is yolo's to handle; the helper goes when yolo's channel closes.
  const child = fork(script, [], { env: helperEnv, execArgv: [], serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"], detached: true });
  child.unref();
  child.channel?.unref();
  const up = new Promise<boolean>((resolve) => {
    const onMessage = (message: FromSpawner) => {
      if (message.t !== "ready") return;
      child.off("message", onMessage);
      const ok = message.protocol === SPAWNER_PROTOCOL;
      if (!ok) child.kill("SIGKILL");
      resolve(ok);
    };
    child.on("message", onMessage);
    child.once("exit", () => resolve(false));
    child.once("error", () => resolve(false));
  });
  return { child, up };
}
