import { statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { diffGateDefinition, resolveGateDefinition } from "../../../src/gates/definition.js";
import { tempDir } from "../../helpers/per-test.js";

const gates = [{ name: "test", command: "npm test", required: true, timeoutS: 60 }];

// Every gate check records the test files again, and a file whose stamp has not moved is not read again
// (src/fs/file-stamp.ts). A model that rewrites a test file and puts its size and times back must still be seen.
describe("test files recorded at an earlier gate check", () => {
  it("are read again when changed, even at the same size with the old modification time put back", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished, "yolo-def-cache-");
    writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }));
    const file = join(root, "add.test.js");
    const before = 'test("adds", () => {}); // ...\n';
    const after = 'test.only("adds", () => {});//\n';
    expect(after.length).toBe(before.length);
    writeFileSync(file, before);
    // A whole-second modification time, which the model below can put back exactly.
    const then = new Date("2026-01-01T00:00:00Z");
    utimesSync(file, then, then);
    // Older than the file system's timestamp tick, so its record is kept for the next check.
    await sleep(250);
    const first = await resolveGateDefinition(root, gates);
    expect(first.testFiles["add.test.js"]).toMatchObject({ cases: 1, markers: {} });
    expect(await resolveGateDefinition(root, gates)).toEqual(first);

    const stamp = statSync(file, { bigint: true });
    writeFileSync(file, after);
    utimesSync(file, then, then);
    const forged = statSync(file, { bigint: true });
    expect([forged.ino, forged.size, forged.mtimeNs]).toEqual([stamp.ino, stamp.size, stamp.mtimeNs]);
    const second = await resolveGateDefinition(root, gates);
    expect(second.testFiles["add.test.js"].markers).toEqual({ ".only": 1 });
    expect(diffGateDefinition(first, second)).toContain(".only added in test file add.test.js (0 → 1)");
  });
});
