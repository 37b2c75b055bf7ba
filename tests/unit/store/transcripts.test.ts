import { appendFileSync } from "node:fs";
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

  it("skips a line torn by a crash and keeps appending after it", () => {
    appendTranscript(dir, "dev", { n: 1 });
    appendFileSync(transcriptPath(dir, "dev"), '{"n": 2, "text": "cut sho');
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }]);
    appendTranscript(dir, "dev", { n: 3 });
    expect(readTranscript(dir, "dev")).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("refuses node names that are paths", () => {
    expect(() => appendTranscript(dir, "../x", {})).toThrow(/node id/);
  });
});
