// The spawner helper process: started by yolo (src/exec/spawner.ts), it spawns yolo's commands so that Node forks
// this small process for each of them rather than yolo's large one. Built to dist/exec/spawner-child.cjs.
import { type ChildProcess, spawn } from "node:child_process";
import { SPAWNER_PROTOCOL, type FromSpawner, type ToSpawner } from "./spawner-protocol.js";

/** Commands still running (or whose pipes are still read), by request id: their groups die with yolo. */
const running = new Map<number, { child: ChildProcess; pid: number }>();
/** Messages handed to the channel and not yet written: output is paused above HIGH_WATER so a flood cannot fill memory. */
let unsent = 0;
const HIGH_WATER = 64;
const paused = new Set<NodeJS.ReadableStream>();

function send(message: FromSpawner): void {
  if (!process.connected) return;
  unsent++;
  process.send?.(message, undefined, undefined, () => {
    unsent--;
    if (unsent > HIGH_WATER / 2 || paused.size === 0) return;
    for (const stream of paused) stream.resume();
    paused.clear();
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is gone already.
  }
}

// One command: spawned in its own group; its pid first, then its output in arrival order, its exit, its pipes' end.
function run(request: Extract<ToSpawner, { t: "run" }>): void {
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  } catch (error) {
    send({ t: "failed", id: request.id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.once("error", (error) => send({ t: "failed", id: request.id, message: error.message }));
    return;
  }
  running.set(request.id, { child, pid });
  send({ t: "pid", id: request.id, pid });
  const forward = (stream: NodeJS.ReadableStream) => (data: Buffer) => {
    send({ t: "out", id: request.id, data });
    if (unsent <= HIGH_WATER) return;
    stream.pause();
    paused.add(stream);
  };
  child.stdout?.on("data", forward(child.stdout));
  child.stderr?.on("data", forward(child.stderr));
  child.once("exit", (code) => send({ t: "exit", id: request.id, code }));
  child.once("close", () => {
    if (running.delete(request.id)) send({ t: "closed", id: request.id });
  });
}

// yolo has stopped waiting for the pipes (a process that escaped the group holds them): they are let go.
function release(id: number): void {
  const entry = running.get(id);
  if (!entry) return;
  running.delete(id);
  for (const stream of [entry.child.stdout, entry.child.stderr]) {
    if (!stream) continue;
    paused.delete(stream);
    stream.destroy();
  }
}

// yolo has gone (an exit, a crash, SIGKILL): nothing it started may outlive it. With nothing left to wait for, the
// helper then ends as any Node program does.
function shutDown(): void {
  for (const { child, pid } of running.values()) {
    killGroup(pid);
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
  }
  running.clear();
  if (process.connected) process.disconnect();
}

process.on("message", (message: ToSpawner) => {
  if (message.t === "run") run(message);
  else if (message.t === "release") release(message.id);
});
process.on("disconnect", shutDown);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, shutDown);
send({ t: "ready", protocol: SPAWNER_PROTOCOL });
