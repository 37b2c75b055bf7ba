import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../../src/config/hook-events.js";
import { configSchema, userConfigSchema } from "../../../src/config/schema.js";
import { validateConfig } from "../../../src/config/validate-config.js";

// The README is the user's guide and docs/ the reference: these checks keep them usable as the code moves
// (the exit-code table is held by tests/unit/events/exit-code-table.test.ts, the events by events-doc.test.ts).
const ROOT = join(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const README = read("README.md");

/** The text of a Markdown file outside its fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The rows of the first `| name | meaning |` table after `heading`, as their first cells without backquotes. */
function tableNames(text: string, heading: string): string[] {
  const section = text.slice(text.indexOf(heading), text.indexOf("\n## ", text.indexOf(heading) + 1));
  return [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
}

/** Source files under a folder (what the internal-reference check reads). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return name === "fixtures" ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|cjs|js|sh)$/.test(name) ? [path] : [];
  });
}

describe("README.md and docs/", () => {
  it("every relative link points at a file that exists, and every #anchor at one of its headings", () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split("#");
        const dest = path ? relative(ROOT, join(ROOT, dirname(file), path)) : file;
        if (!existsSync(join(ROOT, dest))) broken.push(`${file}: ${target} (no such file)`);
        else if (anchor && dest.endsWith(".md") && !anchors(read(dest)).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README stays a guide a user reads in ten minutes: reference text goes to docs/", () => {
    expect(Buffer.byteLength(README), "README.md is over 20 KB: move reference text into a docs/ page").toBeLessThan(20_000);
  });

  it("the README's yolo.config.ts example validates", () => {
    const section = README.slice(README.indexOf("## Configuration"));
    const ts = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const object = ts.slice(ts.indexOf("defineConfig(") + "defineConfig(".length, ts.lastIndexOf(");"));
    const config = validateConfig(new Function(`return (${object});`)(), "yolo.config.ts");
    expect(config.gates?.[0]?.command).toBe("npm test");
  });

  it("the README's environment table names the variables `yolo --help` lists, and every one the config reads", () => {
    const readme = tableNames(README, "| environment | meaning |");
    const main = read("src/cli/main.ts");
    const help = [...main.slice(main.indexOf("Environment:"), main.indexOf("Run 'yolo <command> --help'")).matchAll(/^ {2}([A-Z_]+) /gm)].map((m) => m[1]);
    expect(readme.sort()).toEqual(help.sort());
    const configReads = readdirSync(join(ROOT, "src/config"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [...read(`src/config/${f}`).matchAll(/env\.((?:YOLO|OPENAI)_[A-Z_]+)/g)].map((m) => m[1]));
    expect(configReads.length).toBeGreaterThan(5);
    expect(readme).toEqual(expect.arrayContaining([...new Set(configReads)]));
  });

  it("the contributor set-up's test command is the one CI runs, and comes after `npm link`", () => {
    const setup = README.slice(README.indexOf("## Install"), README.indexOf("\n## ", README.indexOf("## Install") + 1));
    expect(setup.indexOf("npm link")).toBeGreaterThan(0);
    expect(setup.indexOf("\nnpm test")).toBeGreaterThan(setup.indexOf("npm link"));
    expect(read(".ci/run")).toMatch(/^npm test$/m);
  });

  it("no page, source file or test quotes an internal issue number or a work session", () => {
    const session = new RegExp(["this", "round|this", "session|the round", "before"].join(" "), "i");
    const issue = /\bissues? #?\d+\b/i;
    const files = [...DOCS, "yolo.config.ts", ...["src", "tests", "bench", "scripts", "bin"].flatMap(sourceFiles)];
    const hits = files.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) => (session.test(line) || issue.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});

describe("docs/configuration.md's key table", () => {
  const doc = read("docs/configuration.md");
  const section = doc.slice(doc.indexOf("## Every key"));
  const rows = [...section.matchAll(/^\| `(\w+)` \| (.+?) \|/gm)].map((m) => ({ key: m[1], user: m[2].startsWith("*user*") }));

  it("lists exactly the keys of yolo.config.ts, in the schema's order", () => {
    expect(rows.map((r) => r.key)).toEqual(Object.keys(configSchema.shape));
  });

  it("marks exactly the keys the user config may hold", () => {
    expect(rows.filter((r) => r.user).map((r) => r.key)).toEqual(Object.keys(userConfigSchema.shape));
  });

  it("names every sub-key of model, context, budget and limits", () => {
    for (const key of ["model", "context", "budget", "limits"] as const) {
      const shape = (configSchema.shape[key].unwrap() as unknown as { shape: Record<string, unknown> }).shape;
      const row = section.split("\n").find((line) => line.startsWith(`| \`${key}\``)) ?? "";
      for (const sub of Object.keys(shape)) expect(row, `${key}.${sub}`).toContain(`\`${sub}\``);
    }
  });
});

describe("docs/mcp-and-hooks.md's hook payload table", () => {
  it("has a row for exactly the events a hook can run on, in their order", () => {
    const doc = read("docs/mcp-and-hooks.md");
    const section = doc.slice(doc.indexOf("**Payload**"), doc.indexOf("**Answers.**"));
    const events = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(events).toEqual([...HOOK_EVENTS]);
  });
});
