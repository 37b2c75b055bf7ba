import { type ChildProcess, fork } from "node:child_process";
import { DRAIN_MS, type LaunchEnd, type LaunchRequest, type Launched } from "./launch.js";
import { killGroup } from "./process-groups.js";
import { SPAWNER_PROTOCOL, type FromSpawner, type ToSpawner } from "./spawner-protocol.js";

/** Once the shell is SIGKILLed, its end must come through the helper within this long, or the helper is given up on. */
const UNRESPONSIVE_MS = 5000;

interface Pending {
  request: LaunchRequest;
  pid?: number;
  exitCode: number | null;
  resolve: (end: LaunchEnd | null) => void;
  drainTimer?: NodeJS.Timeout;
  deadline?: NodeJS.Timeout;
}

/**
 * A long-lived Node helper process that spawns yolo's commands. Node on Linux forks the whole calling process for every
 * child (page tables, then copy-on-write faults as the heap is touched again), in
 * yolo's 130+ MB process several times the CPU of a message to this small one (docs/performance.md).
 */
export class Spawner {
  readonly child: ChildProcess;
  ready = false;
  dead = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  readonly up: Promise<boolean>;

  constructor(script: string, env: NodeJS.ProcessEnv) {
    // Its own group: a Ctrl+C at the terminal is yolo's to handle; the helper goes when yolo's channel closes.
    this.child = fork(script, [], { env, execArgv: [], serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"], detached: true });
    this.idle();
    this.up = new Promise((resolve) => {
      this.child.on("message", (message: FromSpawner) => {
        if (message.t !== "ready") return this.receive(message);
        this.ready = message.protocol === SPAWNER_PROTOCOL;
        if (!this.ready) this.child.kill("SIGKILL");
        resolve(this.ready);
      });
      this.child.once("exit", () => resolve(false));
    });
    this.child.on("error", () => this.fail());
    this.child.once("exit", () => this.fail());
    this.child.once("disconnect", () => this.fail());
  }

  /** Starts a command through the helper; its `ended` is null when the helper could not start it (start it directly). */
  launch(request: LaunchRequest): Launched {
    const id = this.nextId++;
    const ended = new Promise<LaunchEnd | null>((resolve) => {
      this.pending.set(id, { request, exitCode: null, resolve });
    });
    this.busy();
    this.send({ t: "run", id, file: request.file, args: request.args, cwd: request.cwd, env: request.env });
    const killed = () => {
      const entry = this.pending.get(id);
      if (entry && !entry.deadline) entry.deadline = setTimeout(() => this.fail("stopped answering"), UNRESPONSIVE_MS);
    };
    return { ended, killed };
  }

  private send(message: ToSpawner): void {
    if (this.dead) return;
    try {
      this.child.send(message, (error) => {
        if (error) this.fail();
      });
    } catch {
      this.fail();
    }
  }

  private receive(message: Exclude<FromSpawner, { t: "ready" }>): void {
    const entry = this.pending.get(message.id);
    if (!entry) return;
    switch (message.t) {
      case "pid":
        entry.pid = message.pid;
        entry.request.onPid(message.pid);
        return;
      case "out":
        if (message.err && entry.request.onStderr) entry.request.onStderr(message.data);
        else entry.request.onOutput(message.data);
        return;
      case "exit":
        entry.exitCode = message.code;
        if (entry.pid !== undefined) killGroup(entry.pid, "SIGKILL");
        entry.drainTimer = setTimeout(() => {
          this.send({ t: "release", id: message.id });
          this.settle(message.id, { exitCode: entry.exitCode });
        }, DRAIN_MS);
        return;
      case "closed":
        this.settle(message.id, { exitCode: entry.exitCode });
        return;
      case "failed":
        this.settle(message.id, null);
        return;
    }
  }

  private settle(id: number, end: LaunchEnd | null): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.drainTimer);
    clearTimeout(entry.deadline);
    if (this.pending.size === 0) this.idle();
    entry.resolve(end);
  }

  // The helper died (a crash, a command that killed it) or stopped answering: what it was running ends now, said so.
  private fail(how = "ended unexpectedly"): void {
    if (this.dead) return;
    this.dead = true;
    this.child.kill("SIGKILL");
    for (const [id, entry] of [...this.pending]) {
      if (entry.pid !== undefined) killGroup(entry.pid, "SIGKILL");
      entry.request.onOutput(`\n[yolo: the helper process that started this command (pid ${this.child.pid}) ${how}; the command was stopped]\n`);
      this.settle(id, { exitCode: null });
    }
  }

  // Idle, neither the helper nor its channel keeps yolo running; while a command is in flight, they do.
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }
}
