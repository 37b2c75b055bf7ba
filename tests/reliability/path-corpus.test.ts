import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTool } from "../../src/tools/registry.js";
import type { ToolContext, ToolOutcome } from "../../src/tools/types.js";

// The path corpus: every hostile path is tried with every file tool and must be refused without touching anything
// outside the project (or a sensitive file inside it); every control must succeed. Figures go to docs/reliability.md.

let root: string;
let outside: string;
let ctx: ToolContext;
const SENTINEL = "OUTSIDE-SENTINEL\n";

const put = (rel: string, content: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-corpus-")));
  outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-corpus-out-")));
  fs.writeFileSync(path.join(outside, "secret.txt"), SENTINEL);
  ctx = { root, commandTimeoutS: 10, outputCapBytes: 4096, readCapBytes: 4096, env: {}, secretEnvNames: [] };
  put("src/a.ts", "export const a = 1;\n");
  put("README.md", "# readme\n");
  put(".env", "SECRET=1\n");
  put(".env.example", "SECRET=\n");
  put(".git/config", "[core]\n");
  put(".git/hooks/pre-commit", "#!/bin/sh\n");
  put(".yolo/threads.db", "x");
  put(".github/workflows/ci.yml", "on: push\n");
  put("id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  put(".npmrc", "//registry.npmjs.org/:_authToken=x\n");
  fs.symlinkSync(outside, path.join(root, "out-dir"));
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "out-file"));
  fs.symlinkSync(path.join(outside, "missing.txt"), path.join(root, "dangling"));
  fs.symlinkSync("../..", path.join(root, "src", "up"));
  fs.symlinkSync(path.join(root, ".git"), path.join(root, "gitlink"));
  fs.symlinkSync(path.join(root, ".env"), path.join(root, "envlink"));
  fs.symlinkSync(path.join(root, "src"), path.join(root, "src-alias"));
  fs.linkSync(path.join(outside, "secret.txt"), path.join(root, "hardlink.txt"));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

const hostile: string[] = [
  // traversal
  "..",
  "../",
  "../..",
  "../secret.txt",
  "../../etc/passwd",
  "src/../../x",
  "./../x",
  "src/./../../x",
  "a/b/c/../../../../x",
  "..\\..\\x",
  "src/..//../x",
  " ../x",
  "src/.. /../x",
  `../${"x"}`,
  "src/../../../../../../../../etc/shadow",
  // absolute and home
  "/etc/passwd",
  "/tmp/x",
  "//etc/passwd",
  "/",
  "~",
  "~/",
  "~/.ssh/id_rsa",
  "~/.bashrc",
  // kernel filesystems
  "/proc/self/environ",
  "/proc/1/cmdline",
  "/sys/kernel",
  "/dev/null",
  "/dev/tcp/127.0.0.1/80",
  "//proc/self/environ",
  // URLs and encodings (never decoded)
  "file:///etc/passwd",
  "file://localhost/etc/passwd",
  "FILE:///etc/passwd",
  "file:/etc/passwd",
  "http://x/y",
  "%2e%2e/x",
  "%2E%2E%2Fx",
  "..%2fx",
  "src%2f..%2f..%2fx",
  "%252e%252e/x",
  "%00",
  "a%00.ts",
  "%2e%2e%5cx",
  "..%c0%afx",
  "%u002e%u002e/x".replace("%u", "%2e"),
  // control and invisible characters
  "a\u0000b",
  "src/a.ts\u0000.png",
  "a\nb",
  "a\rb",
  "a\tb",
  "\u001b[31m",
  "a\u007fb",
  "a\u0085b",
  "a\u200bb",
  "a\u202eb.ts",
  "a\ufeffb",
  "\u2066x",
  "src/\u200d.env",
  // over-long
  "a".repeat(256),
  `${"d/".repeat(2100)}x`,
  `src/${"n".repeat(300)}.ts`,
  // symlinks out
  "out-dir",
  "out-dir/secret.txt",
  "out-dir/new.txt",
  "out-dir/new/deep.txt",
  "out-file",
  "dangling",
  "src/up/etc/passwd",
  "src/up",
  "src/up/tmp/x",
  "src-alias/up/x",
  "hardlink.txt",
  // sensitive inside the project, any case, trailing dots and spaces, look-alikes
  ".git",
  ".git/",
  ".git/config",
  ".git/hooks/pre-commit",
  ".GIT/config",
  ".Git/HEAD",
  ".git./config",
  ".git /config",
  ".git. . /x",
  "sub/.git/config",
  "src/../.git/config",
  "./.git/HEAD",
  "gitlink/config",
  "gitlink",
  ".yolo",
  ".yolo/threads.db",
  ".YOLO/x",
  ".yolo./x",
  ".env",
  ".ENV",
  ".env.",
  ".env ",
  ".env. ",
  ".env.local",
  ".env.production",
  ".Env.Local",
  "config/.env",
  "prod.env",
  "envlink",
  ".ｅｎｖ",
  "．env",
  ".github/workflows/ci.yml",
  ".GITHUB/Workflows/x.yml",
  ".github/workflows",
  ".github./workflows./x",
  "id_rsa",
  "ID_RSA",
  "keys/id_ed25519",
  "server.pem",
  "tls/server.KEY",
  "cert.p12",
  "store.pfx",
  "x.jks",
  ".npmrc",
  ".NPMRC",
  "pkg/.npmrc",
  ".netrc",
  "_netrc",
  ".pypirc",
  ".git-credentials",
  ".bashrc",
  ".zshrc",
  ".profile",
  ".bash_profile",
  ".zshenv",
  ".ssh/config",
  ".ssh/authorized_keys",
  ".aws/credentials",
  ".gnupg/x",
  "...",
  ". .",
  " ",
];

const controls: string[] = [
  "src/a.ts",
  "README.md",
  "./README.md",
  "src/./a.ts",
  "src/../README.md",
  ".env.example",
  ".ENV.EXAMPLE",
  ".gitignore",
  ".github/ISSUE_TEMPLATE/bug.md",
  ".github/dependabot.yml",
  "..foo",
  "foo..",
  "src-alias/a.ts",
  "docs/100%.md",
  "a b.txt",
  "ünïcödé.txt",
  "日本語.md",
  "environment.ts",
  "env/config.ts",
  "keyboard.ts",
  "src/monkey.ts",
  "pem.md",
  "a.pem.md",
];

const fileTools = ["read_file", "write_file", "edit_file", "list_files", "search_files"] as const;

async function run(tool: (typeof fileTools)[number], userPath: string): Promise<ToolOutcome> {
  const def = getTool(tool)!;
  const args: Record<string, unknown> =
    tool === "write_file"
      ? { path: userPath, content: "PWNED\n" }
      : tool === "edit_file"
        ? { path: userPath, old_string: "a", new_string: "PWNED" }
        : tool === "search_files"
          ? { path: userPath, pattern: "." }
          : { path: userPath };
  return def.run(def.schema.parse(args), ctx);
}

function snapshotOutside(): string {
  return fs
    .readdirSync(outside)
    .sort()
    .map((f) => `${f}:${fs.readFileSync(path.join(outside, f), "utf8")}`)
    .join("|");
}

describe("path corpus", () => {
  it(`has 150+ cases (hostile ${hostile.length}, controls ${controls.length})`, () => {
    expect(new Set(hostile).size + new Set(controls).size).toBeGreaterThanOrEqual(150);
  });

  it("refuses every hostile path with every file tool: zero escapes", async () => {
    const before = snapshotOutside();
    const escapes: string[] = [];
    for (const p of new Set(hostile)) {
      for (const tool of fileTools) {
        const outcome = await run(tool, p);
        const leaked = outcome.content.includes("OUTSIDE-SENTINEL") || outcome.content.includes("SECRET=1") || outcome.content.includes("_authToken");
        // Listing a hard link's name, or searching it (it is skipped), is harmless; its content never shows (`leaked`).
        const harmless = (tool === "list_files" || tool === "search_files") && p === "hardlink.txt";
        if ((outcome.ok && !harmless) || leaked) escapes.push(`${tool} ${JSON.stringify(p)}: ${outcome.content.slice(0, 80)}`);
        expect(outcome.content).not.toContain(root);
      }
    }
    expect(escapes).toEqual([]);
    expect(snapshotOutside()).toBe(before);
    expect(fs.readFileSync(path.join(root, ".env"), "utf8")).toBe("SECRET=1\n");
    expect(fs.readFileSync(path.join(root, ".git/config"), "utf8")).toBe("[core]\n");
  });

  it("lets every control through (write, then read back)", async () => {
    for (const p of controls) {
      const write = await run("write_file", p);
      expect(write.ok, `${p}: ${write.content}`).toBe(true);
      const read = await run("read_file", p);
      expect(read.ok, `${p}: ${read.content}`).toBe(true);
      expect(read.content).toBe("PWNED\n");
    }
  });

  it("never lists or searches sensitive files", async () => {
    const list = await run("list_files", ".");
    for (const name of [".env\n", "id_rsa", ".npmrc", ".github/workflows", ".git/", ".yolo/"]) expect(list.content).not.toContain(name);
    const search = await getTool("search_files")!.run({ pattern: "SECRET=1|_authToken|PRIVATE KEY" } as never, ctx);
    expect(search.content).toMatch(/No matches/);
  });

  it("a folder swapped for a symlink during a write does not carry the file out", async () => {
    const escapes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const dir = path.join(root, `race${i}`);
      fs.mkdirSync(dir, { recursive: true });
      const pending = run("write_file", `race${i}/f.txt`);
      // Swap the folder for a link to the outside while the write is in flight.
      fs.rmSync(dir, { recursive: true, force: true });
      fs.symlinkSync(outside, dir);
      await pending;
      if (fs.existsSync(path.join(outside, "f.txt"))) escapes.push(`race${i}`);
      fs.rmSync(path.join(outside, "f.txt"), { force: true });
    }
    expect(escapes).toEqual([]);
  });
});
