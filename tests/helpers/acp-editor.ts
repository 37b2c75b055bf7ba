import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, type ClientContext, type RequestPermissionRequest, type SessionUpdate } from "@agentclientprotocol/sdk";
import type { Cleanups } from "./cleanups.js";
import { BIN, cleanEnv } from "./cli.js";

/** `yolo acp` (the built binary) driven by the SDK's own client; every update and permission request is kept. */
export function acpEditor(
  cwd: string,
  baseURL: string,
  cleanups: Cleanups,
  /**
   * The option the user picks: its id, or with the reason a rejection gives (sent as the answer's `_meta.reason`);
   * `cancelled`: the request is dismissed (the editor's cancelled outcome).
   */
  permission: (r: RequestPermissionRequest) => string | { optionId: string; reason: string } = () => "approve",
  /** `env`: added to yolo acp's environment; `files`: the editor's file system (`fs/*` requests), where it offers one. */
  more: { env?: Record<string, string>; files?: { read(path: string): string; write(path: string, content: string): void } } = {},
) {
  const child = spawn(process.execPath, [BIN, "acp"], { cwd, env: cleanEnv({ baseURL, env: more.env }), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  cleanups.push(() => void child.kill("SIGKILL"));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const updates: SessionUpdate[] = [];
  const asked: RequestPermissionRequest[] = [];
  const app = client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => void updates.push(params.update))
    .onRequest("session/request_permission", ({ params }) => {
      asked.push(params);
      const picked = permission(params);
      if (picked === "cancelled") return { outcome: { outcome: "cancelled" } };
      if (typeof picked === "string") return { outcome: { outcome: "selected", optionId: picked } };
      return { outcome: { outcome: "selected", optionId: picked.optionId }, _meta: { reason: picked.reason } };
    })
    .onRequest("fs/read_text_file", ({ params }) => {
      if (!more.files) throw new Error("this editor offers no file system");
      return { content: more.files.read(params.path) };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      if (!more.files) throw new Error("this editor offers no file system");
      more.files.write(params.path, params.content);
      return {};
    });
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const use = <T>(op: (ctx: ClientContext) => Promise<T>) => app.connectWith(stream, op);
  return { use, updates, asked, stderr: () => stderr, child, exited };
}

/** The text of the agent's message chunks so far. */
export const texts = (updates: SessionUpdate[]) =>
  updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : [])).join("");

/** Every process below `root` now (children, their children, …), by pid, with its command line. */
export function descendants(root: number): Map<number, string> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after the last ")" are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found = new Map<number, string>();
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent !== pid || found.has(child)) continue;
      found.set(child, cmdline(child));
      walk(child);
    }
  };
  walk(root);
  return found;
}

/** Whether a process of this pid still runs (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "";
  }
}
