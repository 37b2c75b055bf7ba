import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveGateDefinition } from "../../../src/gates/definition.js";
import { tempDir } from "../../helpers/per-test.js";

const gates = [{ name: "test", command: "npm test", required: true, timeoutS: 60 }];

describe("the gate definition walk reads synchronously in slices", () => {
  it("gives the event loop turns while it walks a large tree, and still records every test file", async ({ onTestFinished }) => {
    const root = tempDir(onTestFinished, "yolo-walk-");
    writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: { test: "node --test" } }));
    for (let d = 0; d < 60; d++) {
      mkdirSync(join(root, "test", `d${d}`), { recursive: true });
      for (let f = 0; f < 10; f++) writeFileSync(join(root, "test", `d${d}`, `f${f}.test.js`), `test("t${d}.${f}", () => {});\n`);
    }
    // Counts the event loop's turns during the walk: a walk that never lets go would leave this at 0.
    let turns = 0;
    let walking = true;
    const tick = () => {
      turns++;
      if (walking) setImmediate(tick);
    };
    setImmediate(tick);
    const definition = await resolveGateDefinition(root, gates);
    walking = false;
    expect(turns).toBeGreaterThan(1);
    expect(Object.keys(definition.testFiles)).toHaveLength(600);
    expect(definition.testFiles["test/d59/f9.test.js"]).toMatchObject({ cases: 1, markers: {} });
    expect(definition.truncated).toBe(false);
  });
});
