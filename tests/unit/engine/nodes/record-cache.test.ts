import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { writeRecord } from "../../../../src/gates/baseline-record.js";
import { readRecordOnce } from "../../../../src/engine/nodes/record-cache.js";
import { tempDir } from "../../../helpers/per-test.js";

describe("readRecordOnce", () => {
  it("parses a record once while the file is unchanged, and again after it is rewritten", async () => {
    const file = join(tempDir(onTestFinished, "yolo-record-"), "gate-baseline.json");
    await writeRecord(file, { gates: ["a"] });
    const first = await readRecordOnce<{ gates: string[] }>(file);
    expect(first).toEqual({ gates: ["a"] });
    expect(await readRecordOnce(file)).toBe(first);
    // writeRecord renames a new file into place: another inode, so the cache cannot return the old content.
    await writeRecord(file, { gates: ["b"] });
    expect(await readRecordOnce(file)).toEqual({ gates: ["b"] });
  });

  it("sees a same-size rewrite in place (a hand edit) and a removed file", async () => {
    const file = join(tempDir(onTestFinished, "yolo-record-"), "gate-approved-1.json");
    writeFileSync(file, '{"v":"a"}');
    expect(await readRecordOnce(file)).toEqual({ v: "a" });
    writeFileSync(file, '{"v":"b"}');
    expect(await readRecordOnce(file)).toEqual({ v: "b" });
    rmSync(file);
    expect(await readRecordOnce(file)).toBeNull();
  });

  it("is null for a file that does not parse, and does not keep it", async () => {
    const file = join(tempDir(onTestFinished, "yolo-record-"), "broken.json");
    writeFileSync(file, "{not json");
    expect(await readRecordOnce(file)).toBeNull();
    writeFileSync(file, '{"fixed":true}');
    expect(await readRecordOnce(file)).toEqual({ fixed: true });
  });
});
