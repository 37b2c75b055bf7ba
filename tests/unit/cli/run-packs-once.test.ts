import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { packedRequire, type RunPack } from "../../../src/cli/run-packs.js";

// The run bundle requires LangGraph, zod, … from packs (src/cli/run-packs.ts). A pack must run once however many of
// its specifiers are asked, hand over live ES module bindings, and leave every other id to Node's require.

let dist: string;
afterEach(() => rmSync(dist, { recursive: true, force: true }));

function packs(files: Record<string, { specifiers: string[]; code: string }>): void {
  dist = mkdtempSync(join(tmpdir(), "yolo-packs-"));
  const listing = Object.entries(files).map(([file, { specifiers }]) => ({ file, specifiers }));
  const cli = join(dist, "cli");
  mkdirSync(cli);
  writeFileSync(join(cli, "run-packs.json"), JSON.stringify(listing));
  for (const [file, { code }] of Object.entries(files)) writeFileSync(join(cli, file), code);
}

const require = createRequire(import.meta.url);
const runs: string[] = [];
const runPack: RunPack = (file, req) => {
  runs.push(file.slice(dist.length));
  const mod = { exports: {} as ReturnType<RunPack> };
  new Script(`(function (exports, require, module) {${readFileSync(file, "utf8")}\n})`).runInThisContext()(mod.exports, req, mod);
  return mod.exports;
};

describe("the run bundle's packs", () => {
  it("run once, when first asked, and answer each of their specifiers with live bindings marked as an ES module", () => {
    runs.length = 0;
    packs({
      "a.cjs": {
        specifiers: ["lib-a", "lib-a/sub"],
        code: [
          "let count = 0; const ns = {}; Object.defineProperty(ns, 'count', { enumerable: true, get: () => count });",
          "Object.defineProperty(ns, 'bump', { enumerable: true, get: () => () => { count++; } });",
          "Object.defineProperty(ns, 'default', { enumerable: true, get: () => 'the default' });",
          "module.exports = { default: { 'lib-a': ns, 'lib-a/sub': { get fromB() { return require('lib-b').value; } } } };",
        ].join("\n"),
      },
      "b.cjs": { specifiers: ["lib-b"], code: "module.exports = { default: { 'lib-b': { value: 42 } } };" },
    });
    const req = packedRequire(dist, require, runPack);
    expect(runs).toEqual([]);
    const a = req("lib-a") as { __esModule: boolean; count: number; bump(): void; default: string };
    expect(runs).toEqual(["/cli/a.cjs"]);
    expect(a.__esModule).toBe(true);
    expect(a.default).toBe("the default");
    a.bump();
    expect(a.count).toBe(1);
    expect(req("lib-a")).toBe(a);
    // A pack's own request of another pack's package goes through the same require.
    expect(req("lib-a/sub")).toMatchObject({ fromB: 42 });
    expect(runs).toEqual(["/cli/a.cjs", "/cli/b.cjs"]);
    expect((req("lib-b") as { value: number }).value).toBe(42);
    expect(runs).toEqual(["/cli/a.cjs", "/cli/b.cjs"]);
  });

  it("leaves built-ins and other packages to Node's require, with its resolve", () => {
    packs({ "a.cjs": { specifiers: ["lib-a"], code: "throw new Error('must not run');" } });
    const req = packedRequire(dist, require, runPack);
    expect(req("node:path")).toBe(require("node:path"));
    expect(req.resolve("vitest")).toBe(require.resolve("vitest"));
  });
});
