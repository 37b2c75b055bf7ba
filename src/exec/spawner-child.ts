// The spawner helper process: started by yolo (src/exec/spawner.ts), it spawns yolo's commands so that Node forks
// this small process for each of them rather than yolo's large one. Built to dist/exec/spawner-child.cjs.
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { isAbsolute } from "node:path";
import { SPAWNER_PROTOCOL, type FromSpawner, type ToSpawner } from "./spawner-protocol.js";

/** Commands still running (or whose pipes are still read), by request id: their groups die with yolo. */
const running = new Map<number, { child: ChildProcess; pid: number }>();
/** Messages handed to the channel and not yet written: output is paused above HIGH_WATER so a flood cannot fill memory. */
let unsent = 0;
const HIGH_WATER = 64;
const paused = new Set<NodeJS.ReadableStream>();
const SHELL = "/bin/sh";

function send(message: FromSpawner, written?: (error: Error | null) => void): void {
  if (!process.connected) {
    written?.(new Error("yolo's channel is closed"));
    return;
  }
  unsent++;
  process.send?.(message, undefined, undefined, (error) => {
    written?.(error);
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

/**
 * The command starts behind this gate: a shell that waits for one line on its stdin (written once yolo has the pid),
 * then becomes the command with stdin from /dev/null. Without it a command could kill the helper (`kill -9 $PPID`)
 * before yolo learnt its group, and run on unkilled; now a helper gone before the line leaves the command unstarted.
 */
const GATE = 'IFS= read -r _ || exit 125; exec "$@" </dev/null';

// One command: spawned in its own group; its pid first, then its output in arrival order, its exit, its pipes' end.
function run(request: Extract<ToSpawner, { t: "run" }>): void {
  let child: ChildProcess;
  try {
    // What the gate would only fail to exec is left to yolo to start directly, so it fails there in Node's words.
    if (!isAbsolute(request.file)) throw new Error(`not an absolute path: ${request.file}`);
    accessSync(request.file, constants.X_OK);
    child = spawn(SHELL, ["-c", GATE, "sh", request.file, ...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
  } catch (error) {
    send({ t: "failed", id: request.id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.once("error", (error) => send({ t: "failed", id: request.id, message: error.message }));
    return;
  }
  // Errors after the start (none expected: the helper neither signals its children nor sends to them) must not end it.
  child.on("error", () => {});
  child.stdin?.on("error", () => {});
  running.set(request.id, { child, pid });
  // The command runs once its pid is written to yolo's channel (the kernel holds it even if the helper dies next).
  send({ t: "pid", id: request.id, pid }, (error) => {
    if (error) killGroup(pid);
    else child.stdin?.end("\n");
  });
  const forward = (stream: NodeJS.ReadableStream) => (data: Buffer) => {
    send(stream === child.stderr ? { t: "out", id: request.id, data, err: true } : { t: "out", id: request.id, data });
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
