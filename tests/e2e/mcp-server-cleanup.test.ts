import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { deferred, describeResult, runYolo, spawnYolo, waitFor } from "../helpers/cli.js";
import { call } from "../helpers/director.js";
import { lastToolResults, textOf } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";

const SCRIPTED = fileURLToPath(new URL("../helpers/mcp-scripted-server.mjs", import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The server's pid as the host sees it: inside the sandbox it has its own pid namespace, so the pid it reports is not
// the host's. Found by its command line (node running the scripted server) and its working folder (the project).
const hostPidOf = (root: string): number => {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv[0] === process.execPath && argv[1] === SCRIPTED && readlinkSync(`/proc/${entry}/cwd`) === root) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return 0;
};

const pidfilesIn = (root: string) =>
  readdirSync(join(root, ".yolo", "threads"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".pid.jsonl"));

// A project whose agent calls the scripted `pid` server (which survives SIGTERM and the end of its stdin), then
// waits on a model reply that is held until the test releases it.
async function setup() {
  const root = project(onTestFinished, {
    "agents/helper.md": "---\nname: Helper\ndescription: d\ntools: [mcp__p]\n---\nYou are the helper agent.\n",
    "yolo.config.ts": `export default { mcpServers: { p: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SCRIPTED)}, "pid"] } } };\n`,
  });
  const hold = deferred();
  onTestFinished(hold.release);
  let serverPid = 0;
  const mock = await mockWith(onTestFinished, (req, i) => {
    if (i === 0) return call("mcp__p__pid", {});
    if (i === 1) {
      // The tool's answer says the server is up; its host pid is looked up (the reported one may be a namespace's).
      if (textOf(lastToolResults(req)[0].content)) serverPid = hostPidOf(root);
      return { hold: hold.promise, content: "late" };
    }
    return { content: "done" };
  });
  onTestFinished(() => {
    if (serverPid && alive(serverPid)) process.kill(-serverPid, "SIGKILL");
  });
  return { root, mock, pid: () => serverPid };
}

describe("stdio MCP servers do not outlive yolo", () => {
  it("after kill -9 of yolo mid-run, the next run stops the leftover server (its pidfile names it) and removes the pidfile", async () => {
    const { root, mock, pid } = await setup();
    // Unsandboxed: a server in the sandbox dies with yolo (bubblewrap's pid namespace ends with it); outside it, the
    // pidfile is what lets the next run stop the leftover.
    const env = { YOLO_SANDBOX: "off" };
    const child = spawnYolo(["agent", "--json", "helper", "go"], { cwd: root, baseURL: mock.url, env });
    await waitFor(() => pid() > 0, "the agent to call the pid tool");
    expect(pidfilesIn(root)).toHaveLength(1);
    expect(alive(pid())).toBe(true);
    child.kill("SIGKILL");
    await child;
    // Nothing stopped it: it ignores SIGTERM and the end of its stdin.
    expect(alive(pid())).toBe(true);

    const next = await runYolo(["chat", "anything?"], { cwd: root, baseURL: mock.url, env });
    expect(next.exitCode, describeResult(next)).toBe(0);
    await waitFor(() => !alive(pid()), "the leftover server to be gone", 5000);
    expect(pidfilesIn(root)).toEqual([]);
  });

  it("SIGTERM to yolo mid-run stops the server with the run", async () => {
    const { root, mock, pid } = await setup();
    const child = spawnYolo(["agent", "--json", "helper", "go"], { cwd: root, baseURL: mock.url });
    await waitFor(() => pid() > 0, "the agent to call the pid tool");
    child.kill("SIGTERM");
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(alive(pid())).toBe(false);
    expect(pidfilesIn(root)).toEqual([]);
  });

  it("Ctrl+C twice (SIGINT, SIGINT) mid-run stops the server with the run", async () => {
    const { root, mock, pid } = await setup();
    const child = spawnYolo(["agent", "--json", "helper", "go"], { cwd: root, baseURL: mock.url });
    await waitFor(() => pid() > 0, "the agent to call the pid tool");
    let stderr = "";
    child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.kill("SIGINT");
    // Two signals sent at once may arrive as one: the second goes once yolo has said what the first did.
    await waitFor(() => stderr.includes("Ctrl+C again"), "yolo to acknowledge the first Ctrl+C");
    child.kill("SIGINT");
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(alive(pid())).toBe(false);
    expect(pidfilesIn(root)).toEqual([]);
  });
});
