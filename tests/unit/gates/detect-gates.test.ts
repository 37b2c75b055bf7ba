import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-detect-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const withPackage = (content: string) => fs.writeFileSync(path.join(root, "package.json"), content);

describe("defaultGates", () => {
  it("uses npm test when package.json has a real test script", () => {
    withPackage(JSON.stringify({ scripts: { test: "node --test" } }));
    expect(defaultGates(root)).toEqual([{ name: "test", command: "npm test", required: true, timeoutS: 600 }]);
  });

  it("ignores npm's placeholder test script", () => {
    withPackage(JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    expect(defaultGates(root)).toEqual([]);
  });

  it("has no gates without a test script, without package.json, or with a broken one", () => {
    expect(defaultGates(root)).toEqual([]);
    withPackage(JSON.stringify({ scripts: { build: "tsc" } }));
    expect(defaultGates(root)).toEqual([]);
    withPackage(JSON.stringify({ scripts: { test: "" } }));
    expect(defaultGates(root)).toEqual([]);
    withPackage("{ not json");
    expect(defaultGates(root)).toEqual([]);
    withPackage("null");
    expect(defaultGates(root)).toEqual([]);
  });
});
