import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { importGraph, keepParsesIn, saveParses } from "../../../src/eval/import-graph.js";

// Parses kept on disk between processes (a build's serve a later eval's judge): what is written, what is read back,
// and what is not trusted. The file's format (the key: the extension and the text's sha256) is what these tests read.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function storeFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "yolo-parses-"));
  dirs.push(dir);
  mkdirSync(join(dir, "eval"));
  return join(dir, "eval", "parses.json");
}

const keyOf = (ext: string, text: string) => `${ext}\0${createHash("sha256").update(text).digest("hex")}`;
type Stored = { parser: string; parses: [string, string[] | string][] };

function graph(files: Record<string, string>) {
  const known = new Set(Object.keys(files));
  return importGraph(Object.keys(files), (f) => files[f], known, null);
}

describe("the parses kept between processes", () => {
  it("are written with TypeScript's parse of each text, keyed by its extension and bytes", () => {
    const file = storeFile();
    keepParsesIn(file);
    const g = graph({ "src/a.js": 'import { b } from "./b.js";\nexport const a = b;\n', "src/b.js": "export const b = 1;\n" });
    expect(g.ok && g.edges.get("src/a.js")).toEqual(["src/b.js"]);
    saveParses();
    const stored = JSON.parse(readFileSync(file, "utf8")) as Stored;
    const parses = new Map(stored.parses);
    expect(parses.get(keyOf(".js", 'import { b } from "./b.js";\nexport const a = b;\n'))).toEqual(["./b.js"]);
    expect(parses.get(keyOf(".js", "export const b = 1;\n"))).toEqual([]);
  });

  it("serve a later process's graph for the same bytes, whatever the file's path", () => {
    const first = storeFile();
    keepParsesIn(first);
    graph({ "x.js": "export const x = 1;\n" });
    saveParses();
    const { parser } = JSON.parse(readFileSync(first, "utf8")) as Stored;
    // A text this process never parsed, stored as importing "./stored.js": only the file can have said so.
    const text = 'export const fromStore = "not an import";\n';
    const file = storeFile();
    writeFileSync(file, JSON.stringify({ parser, parses: [[keyOf(".ts", text), ["./stored.js"]]] }));
    keepParsesIn(file);
    const g = importGraph(["lib/any.ts"], () => text, new Set(["lib/any.ts", "lib/stored.ts"]), null);
    expect(g.ok && g.edges.get("lib/any.ts")).toEqual(["lib/stored.ts"]);
  });

  it("from another parser version are not used: the text is parsed", () => {
    const text = 'const m = require("./real.js");\n';
    const file = storeFile();
    writeFileSync(file, JSON.stringify({ parser: "0.0.0/0", parses: [[keyOf(".js", text), ["./stale.js"]]] }));
    keepParsesIn(file);
    const g = importGraph(["a.js"], () => text, new Set(["a.js", "real.js", "stale.js"]), null);
    expect(g.ok && g.edges.get("a.js")).toEqual(["real.js"]);
  });

  it("that are malformed are not used: the text is parsed", () => {
    const first = storeFile();
    keepParsesIn(first);
    graph({ "y.js": "export const y = 1;\n" });
    saveParses();
    const { parser } = JSON.parse(readFileSync(first, "utf8")) as Stored;
    const text = 'import "./other.js";\n';
    const file = storeFile();
    writeFileSync(file, JSON.stringify({ parser, parses: [[keyOf(".js", text), [42]], ["lone"]] }));
    keepParsesIn(file);
    const g = importGraph(["b.js"], () => text, new Set(["b.js", "other.js"]), null);
    expect(g.ok && g.edges.get("b.js")).toEqual(["other.js"]);
  });
});
