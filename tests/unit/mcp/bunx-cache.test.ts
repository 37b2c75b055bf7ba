import { chmodSync, chownSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { bunCacheFolder, bunxCached } from "../../../src/mcp/bunx-cache.js";
import { tempDir } from "../../helpers/per-test.js";

const UID = process.getuid?.() ?? 0;

// A package as bunx leaves it installed for one request: `<cache>/.bunx-<uid>/<name>@<label>/node_modules/<name>`.
function installed(cache: string, label: string, name: string, bin: unknown): string {
  const dir = join(cache, `.bunx-${UID}`, `${name}@${label}`, "node_modules", name);
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", bin }));
  writeFileSync(join(dir, "dist/cli.js"), "#!/usr/bin/env node\n");
  writeFileSync(join(dir, "dist/other.js"), "#!/usr/bin/env node\n");
  return dir;
}

// A folder of executables (stand-ins for `node` and `bun`) to use as PATH.
function programs(names: string[]): string {
  const dir = tempDir(onTestFinished);
  for (const name of names) {
    writeFileSync(join(dir, name), "#!/bin/sh\n");
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe("bunxCached: the program of a bunx server's package in the user's bunx cache", () => {
  it("finds the install of the same request, run by its shebang, with the arguments after it", () => {
    const home = tempDir(onTestFinished);
    const pkg = installed(join(home, ".bun/install/cache"), "latest", "@acme/files", { files: "dist/cli.js" });
    const env = { HOME: home, PATH: programs(["node", "bun"]) };
    const root = tempDir(onTestFinished);
    expect(bunxCached("bunx", ["@acme/files", "--flag", "."], env, root)).toEqual({
      runner: "bunx",
      cache: join(home, ".bun/install/cache", `.bunx-${UID}`),
      spec: "@acme/files",
      warm: "bunx @acme/files",
      bin: join(pkg, "dist/cli.js"),
      runtime: undefined,
      rest: ["--flag", "."],
    });
    expect(bunxCached("/opt/bin/bunx", ["--silent", "@acme/files"], env, root)?.bin).toBe(join(pkg, "dist/cli.js"));
  });

  it("--bun, -b and `bun x --bun` run the program in bun; so does a PATH without node, as bunx stands bun in for it", () => {
    const home = tempDir(onTestFinished);
    const pkg = installed(join(home, ".bun/install/cache"), "latest", "srv", "dist/cli.js");
    const both = programs(["node", "bun"]);
    const root = tempDir(onTestFinished);
    const env = { HOME: home, PATH: both };
    expect(bunxCached("bunx", ["--bun", "srv", "x"], env, root)).toMatchObject({
      runtime: join(both, "bun"),
      bin: join(pkg, "dist/cli.js"),
      rest: ["x"],
      warm: "bunx --bun srv",
    });
    expect(bunxCached("bunx", ["-b", "srv"], env, root)?.runtime).toBe(join(both, "bun"));
    expect(bunxCached("bun", ["x", "--bun", "srv"], env, root)?.runtime).toBe(join(both, "bun"));
    expect(bunxCached("bun", ["x", "srv"], env, root)?.runtime).toBeUndefined();
    const bunOnly = programs(["bun"]);
    expect(bunxCached("bunx", ["srv"], { HOME: home, PATH: bunOnly }, root)?.runtime).toBe(join(bunOnly, "bun"));
  });

  it("a versioned request is its own folder; another version's install is not used", () => {
    const home = tempDir(onTestFinished);
    const cache = join(home, ".bun/install/cache");
    installed(cache, "latest", "tool", "dist/cli.js");
    const env = { HOME: home, PATH: programs(["node", "bun"]) };
    const root = tempDir(onTestFinished);
    expect(bunxCached("bunx", ["tool@2.0.0"], env, root)).toMatchObject({ spec: "tool@2.0.0", bin: null, warm: "bunx tool@2.0.0" });
    const two = installed(cache, "2.0.0", "tool", { other: "dist/other.js" });
    expect(bunxCached("bunx", ["tool@2.0.0"], env, root)?.bin).toBe(join(two, "dist/other.js"));
  });

  it("bun 1.2's installs in /tmp/bunx-<uid>-<request> are read when the install cache has none, if the user owns them", () => {
    const home = tempDir(onTestFinished);
    const name = `yolo-unit-${process.pid}-${Date.now()}`;
    const old = `/tmp/bunx-${UID}-${name}@latest`;
    onTestFinished(() => rmSync(old, { recursive: true, force: true }));
    const pkg = join(old, "node_modules", name);
    mkdirSync(join(pkg, "dist"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, bin: "dist/cli.js" }));
    writeFileSync(join(pkg, "dist/cli.js"), "#!/usr/bin/env node\n");
    const env = { HOME: home, PATH: programs(["node", "bun"]) };
    const root = tempDir(onTestFinished);
    expect(bunxCached("bunx", [name], env, root)?.bin).toBe(join(pkg, "dist/cli.js"));
    const current = installed(join(home, ".bun/install/cache"), "latest", name, "dist/other.js");
    expect(bunxCached("bunx", [name], env, root)?.bin).toBe(join(current, "dist/other.js"));
    rmSync(join(home, ".bun"), { recursive: true });
    // Someone else's folder in /tmp (root can make one here) is not run.
    if (UID !== 0) return;
    chownSync(old, 4242, 4242);
    expect(bunxCached("bunx", [name], env, root)?.bin).toBeNull();
  });

  it("of several programs, the one named after the package, else the first", () => {
    const home = tempDir(onTestFinished);
    const cache = join(home, ".bun/install/cache");
    const named = installed(cache, "latest", "@acme/srv", { helper: "dist/other.js", srv: "dist/cli.js" });
    const first = installed(cache, "latest", "multi", { a: "dist/cli.js", b: "dist/other.js" });
    const env = { HOME: home, PATH: programs(["node", "bun"]) };
    const root = tempDir(onTestFinished);
    expect(bunxCached("bunx", ["@acme/srv"], env, root)?.bin).toBe(join(named, "dist/cli.js"));
    expect(bunxCached("bunx", ["multi"], env, root)?.bin).toBe(join(first, "dist/cli.js"));
  });

  it("leaves to bunx what it would not run from its cache: the project's copy, a program on PATH, other flags and specs", () => {
    const home = tempDir(onTestFinished);
    installed(join(home, ".bun/install/cache"), "latest", "tool", "dist/cli.js");
    const env = { HOME: home, PATH: programs(["node", "bun"]) };
    const root = tempDir(onTestFinished);
    mkdirSync(join(root, "node_modules/tool"), { recursive: true });
    writeFileSync(join(root, "node_modules/tool/package.json"), "{}");
    expect(bunxCached("bunx", ["tool"], env, root)).toBeNull();
    const bare = tempDir(onTestFinished);
    expect(bunxCached("bunx", ["tool"], { ...env, PATH: `${programs(["tool"])}:${env.PATH}` }, bare)).toBeNull();
    expect(bunxCached("bunx", ["--bun"], env, bare)).toBeNull();
    expect(bunxCached("bunx", ["-p", "tool"], env, bare)).toBeNull();
    expect(bunxCached("bunx", ["github:acme/tool"], env, bare)).toBeNull();
    expect(bunxCached("bunx", ["./tool"], env, bare)).toBeNull();
    expect(bunxCached("bun", ["run", "tool"], env, bare)).toBeNull();
    expect(bunxCached("npx", ["tool"], env, bare)).toBeNull();
    expect(bunxCached("bunx", ["tool"], { HOME: home, PATH: programs(["node"]) }, bare)).toBeNull();
  });
});

describe("bunCacheFolder: where bun 1.x keeps its install cache", () => {
  it("BUN_INSTALL_CACHE_DIR, then the user's bunfig, then BUN_INSTALL, then XDG_CACHE_HOME, then ~/.bun", () => {
    const home = tempDir(onTestFinished);
    const config = tempDir(onTestFinished);
    expect(bunCacheFolder({ HOME: home })).toBe(join(home, ".bun/install/cache"));
    expect(bunCacheFolder({ HOME: home, XDG_CACHE_HOME: "/xdg" })).toBe("/xdg/.bun/install/cache");
    expect(bunCacheFolder({ HOME: home, XDG_CACHE_HOME: "/xdg", BUN_INSTALL: "/bun" })).toBe("/bun/install/cache");
    writeFileSync(join(home, ".bunfig.toml"), '[install]\nregistry = "x"\n\n[install.cache]\ndir = "~/bun-cache"\n');
    expect(bunCacheFolder({ HOME: home, BUN_INSTALL: "/bun" })).toBe(join(home, "bun-cache"));
    writeFileSync(join(config, ".bunfig.toml"), "[install.cache]\ndir = '/from-xdg-config'\n");
    expect(bunCacheFolder({ HOME: home, XDG_CONFIG_HOME: config })).toBe("/from-xdg-config");
    expect(bunCacheFolder({ HOME: home, XDG_CONFIG_HOME: config, BUN_INSTALL_CACHE_DIR: "/named" })).toBe("/named");
    expect(bunCacheFolder({ BUN_INSTALL_CACHE_DIR: "relative" })).toBeNull();
  });

  it("a `dir` outside the [install.cache] table is not the cache", () => {
    const home = tempDir(onTestFinished);
    writeFileSync(join(home, ".bunfig.toml"), '[run]\ndir = "/not-the-cache"\n');
    expect(bunCacheFolder({ HOME: home })).toBe(join(home, ".bun/install/cache"));
  });
});
