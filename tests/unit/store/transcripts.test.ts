import { appendFileSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { appendTranscript, readTranscript, transcriptPath } from "../../../src/store/artifacts.js";
import { tempDir } from "../../helpers/per-test.js";

let dir: string;
beforeEach(({ onTestFinished }) => {
  dir = tempDir(onTestFinished, "yolo-transcripts-");
});

describe("transcripts", () => {
  it("appends JSON lines per node and reads them back in order", () => {
    appendTranscript(dir, "dev", { n: 1 });
    appendTranscript(dir, "dev", { n: 2 });
    appendTranscript(dir, "tea", { n: 3 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }, { n: 2 }]);
    expect(readTranscript(dir, "tea")).toEqual([{ n: 3 }]);
    expect(readTranscript(dir, "pm")).toEqual([]);
  });

  it("writes several entries at once as one line each, scrubbed like single ones, after a torn line too", async () => {
    const { registerSecrets } = await import("../../../src/secrets/scrub.js");
    registerSecrets(["transcript-batch-secret-42"]);
    appendTranscript(dir, "dev", { n: 1 });
    appendFileSync(transcriptPath(dir, "dev"), '{"n": 2, "text": "cut sho');
    appendTranscript(dir, "dev", [{ n: 3 }, { n: 4, text: "key transcript-batch-secret-42" }]);
    appendTranscript(dir, "dev", []);
    appendTranscript(dir, "dev", { n: 5 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }, { n: 3 }, { n: 4, text: "key [redacted]" }, { n: 5 }]);
  });

  it("skips a line torn by a crash and keeps appending after it", () => {
    appendTranscript(dir, "dev", { n: 1 });
    appendFileSync(transcriptPath(dir, "dev"), '{"n": 2, "text": "cut sho');
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }]);
    appendTranscript(dir, "dev", { n: 3 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("writes to the file the path names now: replaced or removed between two entries, it gets the next one", () => {
    appendTranscript(dir, "dev", { n: 1 });
    const file = transcriptPath(dir, "dev");
    writeFileSync(join(dir, "other.jsonl"), '{"n":"replacement"}\n');
    renameSync(join(dir, "other.jsonl"), file);
    appendTranscript(dir, "dev", { n: 2 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: "replacement" }, { n: 2 }]);
    rmSync(join(dir, "transcripts"), { recursive: true });
    appendTranscript(dir, "dev", { n: 3 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 3 }]);
  });

  it("keeps entries apart when another writer appended a torn line in between", () => {
    appendTranscript(dir, "dev", { n: 1 });
    appendFileSync(transcriptPath(dir, "dev"), '{"other": "no newline"}');
    appendTranscript(dir, "dev", { n: 2 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }, { other: "no newline" }, { n: 2 }]);
  });

  it.runIf(existsSync("/proc/self/fd"))("keeps only a few transcripts open however many nodes write", () => {
    const openFds = () => readdirSync("/proc/self/fd").length;
    appendTranscript(dir, "warm", {});
    const before = openFds();
    for (let i = 0; i < 40; i++) appendTranscript(dir, `node${i}`, { i });
    for (let i = 0; i < 40; i++) appendTranscript(dir, `node${i}`, { again: i });
    expect(openFds() - before).toBeLessThanOrEqual(8);
    for (let i = 0; i < 40; i++) expect(readTranscript(dir, `node${i}`)).toEqual([{ i }, { again: i }]);
  });

  it("refuses node names that are paths", () => {
    expect(() => appendTranscript(dir, "../x", {})).toThrow(/node id/);
  });
});
