import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { threadSource } from "../../../src/cli/serve-source.js";
import { resolveConfig } from "../../../src/config/resolve.js";
import { startServer } from "../../../src/serve/server.js";
import { openThreadIndex } from "../../../src/store/thread-index.js";
import { cleanupsAfterEach } from "../../helpers/cleanups.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../../helpers/director.js";
import { runEngine } from "../../helpers/engine.js";
import { startMockOpenAI } from "../../helpers/mock-openai.js";
import { makeProject } from "../../helpers/project.js";

const cleanups = cleanupsAfterEach("lastFirst");

// One thread's row of the list page as its cells' text: thread, status, requirement, gate, tokens, cost, …
async function listedCells(url: string, thread: string): Promise<string[]> {
  const page = await (await fetch(url)).text();
  const row = new RegExp(`<tr data-thread="${thread}">([\\s\\S]*?)</tr>`).exec(page)?.[1] ?? "";
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, "").trim());
}

describe("the list keeps what it read and never shows it stale", { timeout: 120_000 }, () => {
  it("reads a state once while nothing changes, and shows a saved reply, new checkpoints and a killed run on the next request", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [call("handoff", { escalate_to_human: true, question: "Floats too?" }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    expect((await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-web", requirement: "Add add()" })).result.status).toBe("waiting");

    const config = resolveConfig({ root: project.root, fileConfig: {}, file: null, env: {} });
    const index = await openThreadIndex(config.database);
    cleanups.push(() => index.close());
    const source = threadSource(config, index, false);
    const stateReads: string[] = [];
    const counted = { ...source, state: (id: string) => (stateReads.push(id), source.state(id)) };
    const server = await startServer(counted, { host: "127.0.0.1", port: 0, token: null });
    cleanups.push(() => server.close());
    // Read once before the address was given: the first page opened is a kept one.
    expect(stateReads).toEqual(["t-web"]);

    const waiting = await listedCells(server.url, "t-web");
    expect(waiting[1]).toBe("waiting");
    expect(await listedCells(server.url, "t-web")).toEqual(waiting);
    expect(stateReads).toEqual(["t-web"]);

    // A reply saved from the page: no new checkpoint, one more saved write.
    await source.reply("t-web", { answer: "Floats too" });
    expect((await listedCells(server.url, "t-web"))[1]).toBe("answered");

    // The resumed run's checkpoints, written by another connection: status, gate and tokens move.
    expect((await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-web" })).result.status).toBe("passed");
    const passed = await listedCells(server.url, "t-web");
    expect(passed[1]).toBe("passed");
    expect(passed[3]).not.toBe(waiting[3]);
    expect(passed[4]).not.toBe(waiting[4]);
    expect(stateReads).toEqual(["t-web", "t-web", "t-web"]);

    // A run whose process holds the lease, then is killed: its death writes nothing, the list still says so.
    const holder = spawn("sleep", ["60"], { stdio: "ignore" });
    cleanups.push(() => void holder.kill("SIGKILL"));
    const writer = await openThreadIndex(config.database);
    cleanups.push(() => writer.close());
    // Taken and dropped: the lease table exists; then the row says running and the lease names the live process.
    await (await writer.threads.acquireLease("t-web")).release();
    await writer.threads.update("t-web", { status: "running" });
    const { openDatabase, closeDatabase } = await import("../../../src/store/db.js");
    const db = openDatabase(config.dbPath);
    db.prepare("INSERT OR REPLACE INTO yolo_leases (thread_id, holder, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)").run(
      "t-web",
      "killed-run",
      hostname(),
      holder.pid,
      Date.now() + 60_000,
    );
    closeDatabase(db);
    expect((await listedCells(server.url, "t-web"))[1]).toBe("running");
    await new Promise((resolve) => holder.once("exit", resolve).kill("SIGKILL"));
    expect((await listedCells(server.url, "t-web"))[1]).toBe("interrupted");
  });
});
