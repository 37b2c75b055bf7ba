import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cacheKey, signText } from "../../../src/config/cache-key.js";
import { importGraph, keepParsesIn, saveParses } from "../../../src/eval/import-graph.js";

// Parses kept on disk between processes (a build's serve a later eval's judge): what is written, what is read back,
// and what is not trusted. The file's format (its signature's line, then the parses keyed by the extension and the
// text's sha256) is what these tests read.
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A store file in a project's eval folder, and a private key folder (the user's cache) apart from it. */
function storeFile(): { file: string; keys: string } {
  const dir = mkdtempSync(join(tmpdir(), "yolo-parses-"));
  dirs.push(dir);
  mkdirSync(join(dir, "eval"));
  mkdirSync(join(dir, "cache"), { mode: 0o700 });
  return { file: join(dir, "eval", "parses.json"), keys: join(dir, "cache") };
}

function keep(at: { file: string; keys: string }): void {
  keepParsesIn(at.file, at.keys);
}

const keyOf = (ext: string, text: string) => `${ext}\0${createHash("sha256").update(text).digest("hex")}`;
type Stored = { parser: string; parses: [string, string[] | string][] };

// The file's parts: the signature's line and the parses after it.
function readStore(file: string): { mac: string; body: string; data: Stored } {
  const text = readFileSync(file, "utf8");
  const newline = text.indexOf("\n");
  const body = text.slice(newline + 1);
  return { mac: text.slice(0, newline), body, data: JSON.parse(body) as Stored };
}

// A store as yolo writes it, signed with the key in `keys` (made there when missing, as yolo makes it).
function writeSigned(at: { file: string; keys: string }, data: Stored): void {
  const key = cacheKey(at.keys);
  if (!key) throw new Error("no key");
  const body = JSON.stringify(data);
  writeFileSync(at.file, `${signText(key, body)}\n${body}`);
}

// This parser's version as a store names it (written by a first process).
function parserVersion(): string {
  const first = storeFile();
  keep(first);
  graph({ "v.js": "export const v = 1;\n" });
  saveParses();
  return readStore(first.file).data.parser;
}

function graph(files: Record<string, string>) {
  const known = new Set(Object.keys(files));
  return importGraph(Object.keys(files), (f) => files[f], known, null);
}

describe("the parses kept between processes", () => {
  it("are written with TypeScript's parse of each text, keyed by its extension and bytes, and signed", () => {
    const at = storeFile();
    keep(at);
    const g = graph({ "src/a.js": 'import { b } from "./b.js";\nexport const a = b;\n', "src/b.js": "export const b = 1;\n" });
    expect(g.ok && g.edges.get("src/a.js")).toEqual(["src/b.js"]);
    saveParses();
    const { mac, body, data } = readStore(at.file);
    const key = cacheKey(at.keys);
    expect(key && mac).toBe(key && signText(key, body));
    const parses = new Map(data.parses);
    expect(parses.get(keyOf(".js", 'import { b } from "./b.js";\nexport const a = b;\n'))).toEqual(["./b.js"]);
    expect(parses.get(keyOf(".js", "export const b = 1;\n"))).toEqual([]);
  });

  it("serve a later process's graph for the same bytes, whatever the file's path", () => {
    const parser = parserVersion();
    // A text this process never parsed, stored as importing "./stored.js": only the file can have said so.
    const text = 'export const fromStore = "not an import";\n';
    const at = storeFile();
    writeSigned(at, { parser, parses: [[keyOf(".ts", text), ["./stored.js"]]] });
    keep(at);
    const g = importGraph(["lib/any.ts"], () => text, new Set(["lib/any.ts", "lib/stored.ts"]), null);
    expect(g.ok && g.edges.get("lib/any.ts")).toEqual(["lib/stored.ts"]);
  });

  it("not signed (written by anything but yolo) are not used: the text is parsed", () => {
    const parser = parserVersion();
    const at = storeFile();
    // The format of the store before it was signed, and a line that only looks like a signature (each with a text of
    // its own: this process keeps the parse it made for the first).
    const forgeries = [(body: string) => body, (body: string) => `${"0".repeat(64)}\n${body}`];
    for (const [i, forge] of forgeries.entries()) {
      const text = `const m${i} = require("./real-unsigned.js");\n`;
      writeFileSync(at.file, forge(JSON.stringify({ parser, parses: [[keyOf(".js", text), ["./forged.js"]]] })));
      keep(at);
      const g = importGraph(["a.js"], () => text, new Set(["a.js", "real-unsigned.js", "forged.js"]), null);
      expect(g.ok && g.edges.get("a.js")).toEqual(["real-unsigned.js"]);
    }
  });

  it("edited after yolo signed them are not used: the text is parsed", () => {
    const parser = parserVersion();
    const text = 'import "./real-edited.js";\n';
    const at = storeFile();
    writeSigned(at, { parser, parses: [[keyOf(".js", text), ["./real-edited.js"]]] });
    const { mac, body } = readStore(at.file);
    writeFileSync(at.file, `${mac}\n${body.replace("./real-edited.js", "./edited.js")}`);
    keep(at);
    const g = importGraph(["e.js"], () => text, new Set(["e.js", "real-edited.js", "edited.js"]), null);
    expect(g.ok && g.edges.get("e.js")).toEqual(["real-edited.js"]);
  });

  it("signed with another key (another user's, or a key replaced) are not used: the text is parsed", () => {
    const parser = parserVersion();
    const text = 'import "./real-other.js";\n';
    const mine = storeFile();
    const theirs = storeFile();
    writeSigned({ file: mine.file, keys: theirs.keys }, { parser, parses: [[keyOf(".js", text), ["./theirs.js"]]] });
    keep(mine);
    const g = importGraph(["o.js"], () => text, new Set(["o.js", "real-other.js", "theirs.js"]), null);
    expect(g.ok && g.edges.get("o.js")).toEqual(["real-other.js"]);
  });

  it("are neither read nor written without a private key folder", () => {
    const parser = parserVersion();
    const text = 'import "./real-open.js";\n';
    const at = storeFile();
    writeSigned(at, { parser, parses: [[keyOf(".js", text), ["./open.js"]]] });
    // A folder others can write to: whoever can could replace the key.
    chmodSync(at.keys, 0o777);
    keep(at);
    const g = importGraph(["p.js"], () => text, new Set(["p.js", "real-open.js", "open.js"]), null);
    expect(g.ok && g.edges.get("p.js")).toEqual(["real-open.js"]);
    const before = readFileSync(at.file, "utf8");
    saveParses();
    expect(readFileSync(at.file, "utf8")).toBe(before);
  });

  it("from another parser version are not used: the text is parsed", () => {
    const text = 'const m = require("./real.js");\n';
    const at = storeFile();
    writeSigned(at, { parser: "0.0.0/0", parses: [[keyOf(".js", text), ["./stale.js"]]] });
    keep(at);
    const g = importGraph(["a.js"], () => text, new Set(["a.js", "real.js", "stale.js"]), null);
    expect(g.ok && g.edges.get("a.js")).toEqual(["real.js"]);
  });

  it("that are malformed are not used: the text is parsed", () => {
    const parser = parserVersion();
    const text = 'import "./other.js";\n';
    const at = storeFile();
    writeSigned(at, { parser, parses: [[keyOf(".js", text), [42]], ["lone"]] as unknown as Stored["parses"] });
    keep(at);
    const g = importGraph(["b.js"], () => text, new Set(["b.js", "other.js"]), null);
    expect(g.ok && g.edges.get("b.js")).toEqual(["other.js"]);
  });
});
