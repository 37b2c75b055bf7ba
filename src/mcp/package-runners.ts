import { basename, join } from "node:path";
import type { NpxCached } from "./npx-cache.js";

/**
 * Package runners a stdio server is often started with (`npx -y <pkg>`, `uvx <pkg>`): they look for the package in
 * the project, then in the user's cache under the home folder, then download it. In the sandbox the home folder is
 * empty and there is no network; an `npx` package npx installed before is run from its cache (npx-cache.ts), anything
 * else can only be found in the project. Without help a runner then retries the registry until the server's timeout
 * (60 s); told to stay offline it fails at once, naming the download.
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
 * Why a runner's server did not start in the sandbox, and the ways to make it start. `npx`: what its cache held
 * (npx-cache.ts), so the message names the folder it looked in.
 */
export function runnerHint(command: string, walled: boolean, npx?: NpxCached | null): string {
  const runner = packageRunner(command);
  if (!walled || !runner) return "";
  if (npx && !npx.bin && npx.runner === "pipx") {
    return ` (\`${npx.spec}\` is not in your pipx cache, ${npx.cache}, and the sandbox has no network to download it: run \`${npx.warm}\` once outside yolo and the server then starts from that cache, read-only; or install it in a virtualenv in the project, or give the entry \`"network": true\` to let pipx download it at each start)`;
  }
  if (npx && !npx.bin) {
    const folder = join(npx.cache, "_npx");
    return ` (\`${npx.spec}\` is not in your npx cache, ${folder}, and the sandbox has no network to download it: run \`${npx.warm}\` once outside yolo and the server then starts from that cache, read-only; or install it in the project (\`npm i -D ${npx.spec}\`), or give the entry \`"network": true\` to let npx download it at each start)`;
  }
  const install = runner === "uvx" || runner === "uv" || runner === "pipx" ? "a virtualenv in the project" : "the project (`npm i -D <package>`)";
  return ` (\`${runner}\` runs in the sandbox, where your home folder and its package cache are hidden and there is no network, so it can only find a package installed in the project: install it in ${install}, start the server as \`node\`/\`python\` with the path of its entry point (its package folder is shown to it read-only), or give the entry \`"network": true\` to let it download at each start)`;
}
