import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { npmCacheFolder, npxCached } from "../../../src/mcp/npx-cache.js";
import { tempDir } from "../../helpers/per-test.js";

// A package as npx leaves it installed for one request: `<cache>/_npx/<hash of the request>/node_modules/<name>`.
function installed(cache: string, request: string, name: string, bin: unknown): string {
  const dir = join(cache, "_npx", createHash("sha512").update(request).digest("hex").slice(0, 16), "node_modules", name);
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", bin }));
  writeFileSync(join(dir, "dist/cli.js"), "#!/usr/bin/env node\n");
  writeFileSync(join(dir, "dist/other.js"), "#!/usr/bin/env node\n");
  return dir;
}

describe("npxCached: the program of an npx server's package in the user's npx cache", () => {
  it("finds the package npx installed for the same request, with the arguments after it", () => {
    const home = tempDir(onTestFinished);
    const pkg = installed(join(home, ".npm"), "@acme/files", "@acme/files", { files: "dist/cli.js" });
    const root = tempDir(onTestFinished);
    expect(npxCached("npx", ["-y", "@acme/files", "."], { HOME: home }, root)).toEqual({
      runner: "npx",
      warm: "npx -y @acme/files",
      cache: join(home, ".npm"),
      spec: "@acme/files",
      bin: join(pkg, "dist/cli.js"),
      rest: ["."],
    });
    expect(npxCached("/usr/bin/npx", ["--yes", "@acme/files"], { HOME: home }, root)?.bin).toBe(join(pkg, "dist/cli.js"));
  });

  it("a versioned request is its own folder: another version's install is not used", () => {
    const home = tempDir(onTestFinished);
    installed(join(home, ".npm"), "tool", "tool", "dist/cli.js");
    const root = tempDir(onTestFinished);
    expect(npxCached("npx", ["-y", "tool@2.0.0"], { HOME: home }, root)).toMatchObject({ spec: "tool@2.0.0", bin: null });
    const two = installed(join(home, ".npm"), "tool@2.0.0", "tool", "dist/other.js");
    expect(npxCached("npx", ["-y", "tool@2.0.0"], { HOME: home }, root)?.bin).toBe(join(two, "dist/other.js"));
  });

  it("of several programs, the one named after the package; none of that name: not resolved", () => {
    const home = tempDir(onTestFinished);
    const pkg = installed(join(home, ".npm"), "@acme/srv", "@acme/srv", { helper: "dist/other.js", srv: "dist/cli.js" });
    installed(join(home, ".npm"), "multi", "multi", { a: "dist/cli.js", b: "dist/other.js" });
    const root = tempDir(onTestFinished);
    expect(npxCached("npx", ["-y", "@acme/srv"], { HOME: home }, root)?.bin).toBe(join(pkg, "dist/cli.js"));
    expect(npxCached("npx", ["-y", "multi"], { HOME: home }, root)?.bin).toBeNull();
  });

  it("leaves to npx what it would not run from its cache: the project's own copy, other flags, paths, other programs", () => {
    const home = tempDir(onTestFinished);
    installed(join(home, ".npm"), "tool", "tool", "dist/cli.js");
    const root = tempDir(onTestFinished);
    mkdirSync(join(root, "node_modules/tool"), { recursive: true });
    writeFileSync(join(root, "node_modules/tool/package.json"), "{}");
    expect(npxCached("npx", ["-y", "tool"], { HOME: home }, root)).toBeNull();
    const bare = tempDir(onTestFinished);
    expect(npxCached("npx", ["-p", "tool", "tool"], { HOME: home }, bare)).toBeNull();
    expect(npxCached("npx", ["-y", "./local-dir"], { HOME: home }, bare)).toBeNull();
    expect(npxCached("uvx", ["tool"], { HOME: home }, bare)).toBeNull();
  });

  it("the cache folder: npm_config_cache, else cache= in ~/.npmrc, else ~/.npm", () => {
    const home = tempDir(onTestFinished);
    expect(npmCacheFolder({ HOME: home })).toBe(join(home, ".npm"));
    writeFileSync(join(home, ".npmrc"), "registry=https://r.example/\ncache = ~/caches/npm\n");
    expect(npmCacheFolder({ HOME: home })).toBe(join(home, "caches/npm"));
    expect(npmCacheFolder({ HOME: home, npm_config_cache: "/srv/npm-cache" })).toBe("/srv/npm-cache");
    expect(npmCacheFolder({})).toBeNull();
  });
});
