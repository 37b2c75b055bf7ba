import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** The LangGraph CLI's bin (`langgraphjs`), run with this Node. */
const CLI = join(REPO, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");

export interface LangGraphServer {
  url: string;
  /** Milliseconds from spawning the CLI to the first 200 on `/ok`. */
  startMs: number;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  /** Stops the whole process group (CLI, tsx, server) and removes the server folder. */
  stop(): Promise<void>;
  /** The process group id, for checking that nothing is left. */
  pgid: number;
}

/** A free TCP port on 127.0.0.1 (taken by the OS, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `langgraphjs dev` as a real child in its own process group, on 127.0.0.1, against the repository's
 * `langgraph.json` copied into a throwaway folder (the dev server keeps its threads in `<config dir>/.langgraph_api`,
 * so the checkout stays clean); graph paths are rewritten relative to that folder so they still name this checkout's
 * source. Nothing reaches beyond 127.0.0.1: no analytics, no tracing, no browser.
 */
export async function startLangGraphServer(env: Record<string, string>): Promise<LangGraphServer> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "yolo-lg-")));
  const config = JSON.parse(readFileSync(join(REPO, "langgraph.json"), "utf8")) as { graphs: Record<string, string> };
  for (const [id, spec] of Object.entries(config.graphs)) {
    const [file, symbol] = spec.split(":");
    config.graphs[id] = `${relative(dir, join(REPO, file))}:${symbol}`;
  }
  writeFileSync(join(dir, "langgraph.json"), JSON.stringify(config));
  const port = await freePort();
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [CLI, "dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser", "--no-reload", "--config", join(dir, "langgraph.json")],
    {
      cwd: dir,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        LANGGRAPH_CLI_NO_ANALYTICS: "1",
        LANGSMITH_TRACING: "false",
        LANGCHAIN_TRACING_V2: "false",
        BROWSER: "none",
        NO_COLOR: "1",
        ...env,
      },
    },
  );
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: LangGraphServer = {
    url,
    startMs: 0,
    pgid: child.pid!,
    output: () => output,
    stop: async () => {
      await stopGroup(child, exited);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitReady(url, child, () => output);
  } catch (error) {
    await server.stop();
    throw error;
  }
  server.startMs = Date.now() - started;
  return server;
}

// Polls `/ok` until the server answers; fails at once if the CLI exits first, naming what it printed.
async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the LangGraph dev server exited before it was ready:\n${output()}`);
    const ok = await fetch(`${url}/ok`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the LangGraph dev server was not ready after ${timeoutMs} ms:\n${output()}`);
}

// SIGTERM to the whole group (the CLI, tsx and the server it spawns), SIGKILL after 5 s.
async function stopGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 5_000);
  await exited;
  // The CLI may exit before its children: wait for the group to empty.
  const deadline = Date.now() + 10_000;
  while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(child.pid!)) signalGroup("SIGKILL");
  clearTimeout(timer);
}

/** True while any process of the group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One JSON call to the server's HTTP API; a non-2xx answer throws with its body. */
export async function api<T = any>(server: Pick<LangGraphServer, "url" | "output">, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}\n--- server output\n${server.output().slice(-4000)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** A run streamed as server-sent events (`POST …/runs/stream`), collected to its end as `{ event, data }`. */
export async function streamRun(server: Pick<LangGraphServer, "url">, threadId: string, body: unknown): Promise<{ event: string; data: any }[]> {
  const res = await fetch(`${server.url}/threads/${threadId}/runs/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`runs/stream → ${res.status}: ${await res.text()}`);
  const events: { event: string; data: any }[] = [];
  for (const block of (await res.text()).split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/);
    const event = lines
      .find((l) => l.startsWith("event:"))
      ?.slice(6)
      .trim();
    const data = lines
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trim())
      .join("\n");
    if (event) events.push({ event, data: data ? JSON.parse(data) : null });
  }
  return events;
}
