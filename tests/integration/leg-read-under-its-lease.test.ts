import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { readLeg } from "../../src/engine/run/read-early.js";
import { openSessionDeferred } from "../../src/engine/session.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";
import { makeProject } from "../helpers/project.js";

const cleanups = cleanupsAfterEach();

async function opened() {
  const project = makeProject();
  cleanups.push(project.cleanup);
  const config = resolveConfig({ root: project.root, fileConfig: {}, file: null, env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
  const db = await openSessionDeferred(config);
  cleanups.push(() => db.close());
  const index = await db.rows!();
  let reads = 0;
  const rows = { checkpointRows: (id: string) => (reads++, index.checkpointRows(id)) };
  const read = (threadId: string) =>
    readLeg({ config, rows, threads: db.threads, session: db.session, threadId, resume: {}, repo: Promise.resolve("r"), replay: false });
  return { db, read, reads: () => reads };
}

describe("a resumed leg's thread is read under the leg's lease", () => {
  it("a thread another process runs is refused before its checkpoints are read", async () => {
    const { db, read, reads } = await opened();
    const other = await db.threads.acquireLease("t-busy");
    cleanups.push(() => other.release());
    await expect(read("t-busy")).rejects.toThrow(/being run by another yolo process/);
    expect(reads()).toBe(0);
  });

  it("a refused read gives its lease back: an unknown thread can be leased again at once", async () => {
    const { db, read } = await opened();
    await expect(read("t-none")).rejects.toThrow(/No thread t-none/);
    const lease = await db.threads.acquireLease("t-none");
    await lease.release();
  });
});
