import { existsSync } from "node:fs";
import { join } from "node:path";
import { YoloError } from "../errors.js";
import { packageRoot } from "../package-root.js";
import type { LaunchRequest, Launched } from "./launch.js";
import { Spawner } from "./spawner-process.js";

/**
 * Which path commands take: "auto" through the helper once it is up (directly before); "helper" waits for the helper
 * (tests that must exercise it); "direct" never starts one (tests of the direct path).
 */
export type SpawnerMode = "auto" | "helper" | "direct";

/** Variables the helper (Node itself) may need to start; it holds none of yolo's others, secrets included. */
const HELPER_ENV = ["PATH", "LD_LIBRARY_PATH"];

let mode: SpawnerMode = "auto";
let spawner: Spawner | null = null;
/** Set once the helper cannot be used in this process (no built script, a failed start, a death): commands go direct. */
let unavailable = false;

/** Tests choose the path commands take (not a user setting: both paths behave alike). */
export function setSpawnerMode(next: SpawnerMode): void {
  mode = next;
}

/** The helper script, built by scripts/build.mjs; absent when only src/ exists (then every command is spawned directly). */
export function spawnerScript(): string {
  return join(packageRoot(), "dist", "exec", "spawner-child.cjs");
}

// Starts the helper in the background, once per process (and never again after it failed).
function started(env: NodeJS.ProcessEnv): Spawner | null {
  if (mode === "direct") return null;
  if (spawner && !spawner.dead) return spawner;
  if (unavailable && mode !== "helper") return null;
  if (spawner?.dead && mode !== "helper") {
    unavailable = true;
    return null;
  }
  const helperEnv: NodeJS.ProcessEnv = {};
  for (const name of HELPER_ENV) if (env[name] !== undefined) helperEnv[name] = env[name];
  try {
    const script = spawnerScript();
    if (!existsSync(script)) throw new Error(`${script} is not built`);
    spawner = new Spawner(script, helperEnv);
  } catch {
    // Commands are spawned directly, as before the helper existed: slower, never wrong.
    unavailable = true;
    return null;
  }
  spawner.up.then((ok) => {
    if (!ok) unavailable = true;
  });
  return spawner;
}

/**
 * Starts a command through the helper when it is up; null when the command should be started directly (the helper is
 * still booting — the first call starts it, nobody waits for it — or cannot be used). `env` is the command's own,
 * already scrubbed environment: the helper takes only PATH and LD_LIBRARY_PATH from it.
 */
export async function launchThroughSpawner(request: LaunchRequest): Promise<Launched | null> {
  const helper = started(request.env);
  if (mode === "helper") {
    if (!helper || !(await helper.up)) throw new YoloError("spawner", `the spawner helper could not start from ${spawnerScript()}; run \`npm run build\``);
  }
  if (!helper?.ready || helper.dead) return null;
  return helper.launch(request);
}

/**
 * Starts the helper in the background now, so the git commands that come before this process's first shell command
 * already go through it (`yolo eval`: each task's repository and judged tree; Node forks a large process for each
 * direct one). For a command that is going to start one anyway; nothing waits for it.
 */
export function warmSpawner(env: NodeJS.ProcessEnv): void {
  started(env);
}

/**
 * Starts a command through the helper only if it is up already (a run's commands started it): never starts one, so
 * a command that runs only git (`yolo threads`, `yolo show`) does not fork a helper for it. Null: start it directly.
 */
export function launchIfSpawnerUp(request: LaunchRequest): Launched | null {
  if (mode === "direct" || !spawner?.ready || spawner.dead) return null;
  return spawner.launch(request);
}

/** The helper's pid while it runs (tests check that commands really are its children). */
export function spawnerPid(): number | undefined {
  return spawner && !spawner.dead ? spawner.child.pid : undefined;
}
