import { execa } from "execa";
import { withOnePackageRegistry } from "./npx-cache.js";

/**
 * A user's bunx cache holding the tiny MCP server package, made as a user makes it: `bunx <name>` run once (stdin
 * closed, so the server exits at once) against a one-package registry on 127.0.0.1 (BUN_CONFIG_REGISTRY). bun 1.x
 * installs it under `<home>/.bun/install/cache/.bunx-<uid>/<name>@latest/`, where a later `bunx <name>` finds it.
 */
export async function primeBunxCache(home: string, name: string): Promise<void> {
  await withOnePackageRegistry(home, name, async (url) => {
    const env = { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: home, BUN_CONFIG_REGISTRY: url };
    await execa("bunx", [name], { cwd: home, env, extendEnv: false, stdin: "ignore", timeout: 60_000 });
  });
}
