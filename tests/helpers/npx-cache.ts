import { execa } from "execa";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { rawMcpServerSource } from "./raw-mcp-server.js";

/**
 * A user's npx cache holding a tiny MCP server package, made as a user makes it: the package is packed with `npm pack`,
 * served by a one-package registry on 127.0.0.1, and run once with `npx -y <name>` (stdin closed, so the server exits at
 * once). npx leaves it installed under `<home>/.npm/_npx/<hash>/`, where a later `npx -y <name>` finds it offline.
 */
export async function primeNpxCache(home: string, name: string): Promise<void> {
  await withOnePackageRegistry(home, name, async (url) => {
    await execa("npx", ["-y", name], { cwd: home, env: npmEnv(home, url), extendEnv: false, stdin: "ignore", timeout: 60_000 });
  });
}

/**
 * Serves the tiny MCP server package `name` (packed with `npm pack`) from a one-package registry on 127.0.0.1 while
 * `use` runs with the registry's URL: what a package runner downloads from when a test primes its cache.
 */
export async function withOnePackageRegistry(home: string, name: string, use: (url: string) => Promise<void>): Promise<void> {
  const tarball = await packServer(home, name);
  const bytes = readFileSync(tarball);
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const registry = createServer((req, res) => {
    const base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
    if (req.url?.endsWith(".tgz")) return void res.end(bytes);
    if (decodeURIComponent(req.url ?? "") !== `/${name}`) return void res.writeHead(404).end("{}");
    const version = { name, version: "1.0.0", bin: { [plain(name)]: "index.js" }, dist: { tarball: `${base}/server.tgz`, integrity } };
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ name, "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": version } }));
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  try {
    await use(`http://127.0.0.1:${(registry.address() as AddressInfo).port}/`);
  } finally {
    await new Promise((resolve) => registry.close(resolve));
  }
}

// Started with `--runtime=bun` the server must run in bun, without it in Node: a server run by the wrong runtime
// exits before it answers (bunx runs a package's program with Node unless told `--bun`).
const RUNTIME_CHECK = `if (process.argv.includes("--runtime=bun") !== (typeof Bun !== "undefined")) { console.error("wrong runtime"); process.exit(3); }`;

// The package's folder (index.js: the plain-Node MCP server, as its bin) packed with npm into a tarball.
async function packServer(home: string, name: string): Promise<string> {
  const dir = join(home, "src-package");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module", bin: { [plain(name)]: "index.js" } }));
  writeFileSync(join(dir, "index.js"), rawMcpServerSource(`#!/usr/bin/env node\n${RUNTIME_CHECK}`));
  chmodSync(join(dir, "index.js"), 0o755);
  const { stdout } = await execa("npm", ["pack", "--silent", "--pack-destination", home], { cwd: dir, env: npmEnv(home), extendEnv: false });
  return join(home, stdout.trim().split("\n").at(-1)!);
}

// npm with only this home folder's cache and config, and none of its calls home.
function npmEnv(home: string, registry?: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    npm_config_cache: join(home, ".npm"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...(registry ? { npm_config_registry: registry } : {}),
  };
}

const plain = (name: string) => name.replace(/^@[^/]+\//, "");
