import { basename, join } from "node:path";
import type { NpxCached } from "./npx-cache.js";

/**
 * Package runners a stdio server is often started with (`npx -y <pkg>`, `uvx <pkg>`): they look for the package in
 * the project, then in the user's cache under the home folder, then download it. In the sandbox the home folder is
 * empty and there is no network; a package `npx`, `pipx run` or `bunx` installed before is run from its cache
 * (npx-cache.ts, pipx-cache.ts, bunx-cache.ts), anything else can only be found in the project. Without help a runner
 * then retries the registry until the server's timeout (60 s); told to stay offline it fails at once, naming the
 * download. bunx has no such switch and needs none: with no network it fails within seconds on its own.
 */
const OFFLINE: Record<string, Record<string, string>> = {
  npx: { npm_config_offline: "true" },
  npm: { npm_config_offline: "true" },
  pnpm: { npm_config_offline: "true" },
  pnpx: { npm_config_offline: "true" },
  uvx: { UV_OFFLINE: "1" },
  uv: { UV_OFFLINE: "1" },
  pipx: { PIP_NO_INDEX: "1" },
  bunx: {},
};

/** The runner a server's command is (its program's name), or null for any other program. */
export function packageRunner(command: string): string | null {
  const name = basename(command);
  return name in OFFLINE ? name : null;
}

/** What keeps a runner offline, for a server in the sandbox without network (nothing otherwise). */
export function offlineEnv(command: string, walled: boolean): Record<string, string> {
  const runner = packageRunner(command);
  return walled && runner ? OFFLINE[runner] : {};
}

/**
 * Why a runner's server did not start in the sandbox, and the ways to make it start. `npx`, `pipx run`, `bunx`: what
 * its cache held (npx-cache.ts, pipx-cache.ts, bunx-cache.ts), so the message names the folder it looked in.
 */
export function runnerHint(command: string, walled: boolean, npx?: NpxCached | null): string {
  if (walled && npx && !npx.bin) return missingFromCache(npx);
  const runner = packageRunner(command);
  if (!walled || !runner) return "";
  const install = runner === "uvx" || runner === "uv" || runner === "pipx" ? "a virtualenv in the project" : "the project (`npm i -D <package>`)";
  return ` (\`${runner}\` runs in the sandbox, where your home folder and its package cache are hidden and there is no network, so it can only find a package installed in the project: install it in ${install}, start the server as \`node\`/\`python\` with the path of its entry point (its package folder is shown to it read-only), or give the entry \`"network": true\` to let it download at each start)`;
}

// Where each runner's cache keeps what it ran, and how a package is installed in the project instead.
const CACHES: Record<NpxCached["runner"], { folder: (cache: string) => string; project: (spec: string) => string }> = {
  npx: { folder: (cache) => join(cache, "_npx"), project: (spec) => `install it in the project (\`npm i -D ${spec}\`)` },
  pipx: { folder: (cache) => cache, project: () => "install it in a virtualenv in the project" },
  bunx: { folder: (cache) => cache, project: (spec) => `install it in the project (\`bun add -d ${spec}\`)` },
};

// A runner's package that is not in its cache: which cache, and the three ways to make the server start.
function missingFromCache(npx: NpxCached): string {
  const { folder, project } = CACHES[npx.runner];
  return ` (\`${npx.spec}\` is not in your ${npx.runner} cache, ${folder(npx.cache)}, and the sandbox has no network to download it: run \`${npx.warm}\` once outside yolo and the server then starts from that cache, read-only; or ${project(npx.spec)}, or give the entry \`"network": true\` to let ${npx.runner} download it at each start)`;
}
