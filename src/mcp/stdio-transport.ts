import { spawn, type ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { lastBytes } from "../exec/capped-output.js";

/** Bytes of a server's stderr kept for the message when it fails. */
const STDERR_TAIL = 4000;
/** A server that ignores SIGTERM this long is killed. */
const KILL_GRACE_MS = 2000;

/**
 * The SDK's stdio client transport, with what yolo needs that it does not offer: the server in its own process
 * group (detached, so the whole tree is stopped together and a Ctrl+C to yolo's terminal group is yolo's to
 * handle), the tail of its stderr kept for the error message, and a group kill on close.
 */
export class DetachedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | null = null;
  private readonly buffer = new ReadBuffer();
  private stderr = "";
  private exited = false;

  constructor(private readonly spec: { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string }) {}

  /** The server's process id (its group id too), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last few KB the server wrote to stderr. */
  stderrTail(): string {
    return lastBytes(this.stderr, STDERR_TAIL).trim();
  }

  // Resolves once the process is spawned; a missing command rejects with the spawn error.
  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(this.spec.command, this.spec.args, { cwd: this.spec.cwd, env: this.spec.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
      this.child = child;
      child.once("spawn", resolve);
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("exit", () => {
        this.exited = true;
        this.onclose?.();
      });
      child.stdout!.on("data", (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
        } catch (error) {
          // A line that is not JSON-RPC (or one over the SDK's 10 MB buffer) ends the connection, not the run.
          this.onerror?.(error as Error);
          this.kill("SIGKILL");
        }
      });
      child.stderr!.on("data", (chunk: Buffer) => {
        this.stderr = lastBytes(this.stderr + chunk.toString("utf8"), STDERR_TAIL * 2);
      });
      child.stdin!.on("error", (error) => this.onerror?.(error));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.exited) throw new Error("the server has exited");
    await new Promise<void>((resolve) => (stdin.write(serializeMessage(message)) ? resolve() : stdin.once("drain", resolve)));
  }

  /** Stops the server's whole process group: SIGTERM, then SIGKILL after a grace period. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    // Children the server left behind are in its group: they go too, even when the server itself has exited.
    if (this.exited) return this.kill("SIGKILL");
    child.stdin?.end();
    this.kill("SIGTERM");
    const gone = new Promise<"gone">((resolve) => child.once("exit", () => resolve("gone")));
    const after = (ms: number) => new Promise<"late">((resolve) => setTimeout(() => resolve("late"), ms).unref());
    if ((await Promise.race([gone, after(KILL_GRACE_MS)])) === "late") {
      this.kill("SIGKILL");
      // Resolve once it is really gone (reaped), so "stopped" means no process is left.
      await Promise.race([gone, after(KILL_GRACE_MS)]);
    }
    this.buffer.clear();
  }

  /** Signals the process group at once (synchronous: usable from an exit handler). */
  kill(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  }
}
