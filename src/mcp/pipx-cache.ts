import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { NpxCached } from "./npx-cache.js";

/** pipx's own flags that change nothing about which package it runs; any other flag leaves the command to pipx. */
const QUIET_FLAGS = new Set(["-q", "--quiet", "-v", "--verbose"]);

/**
 * Reads where a `pipx run [--spec <spec>] <app> [args…]` server's package sits in the user's pipx cache, from the
 * files pipx left there (each cached virtualenv's pipx_metadata.json names the package it was made for and its
 * programs): nothing is run on the host. Null for other commands and forms (`--python`, `--pip-args`, …), which pipx
 * then resolves in the sandbox as before; `bin` is null when pipx has not run the package before.
 */
export function pipxCached(command: string, args: readonly string[], env: NodeJS.ProcessEnv): NpxCached | null {
  if ((command !== "pipx" && !command.endsWith("/pipx")) || args[0] !== "run") return null;
  let at = 1;
  let spec: string | null = null;
  for (; at < args.length; at++) {
    if (QUIET_FLAGS.has(args[at])) continue;
    if (args[at] === "--spec" && args[at + 1] && !args[at + 1].startsWith("-")) spec = args[++at];
    else if (args[at].startsWith("--spec=")) spec = args[at].slice("--spec=".length);
    else break;
  }
  const app = args[at];
  if (!app || app.startsWith("-")) return null;
  const caches = pipxCacheFolders(env);
  if (!caches.length) return null;
  const wanted = spec ?? app;
  const found = caches.flatMap((cache) => cachedVenvs(cache)).flatMap((venv) => programIn(venv, wanted, app));
  found.sort((a, b) => b.at - a.at);
  const warm = `pipx run ${spec === null ? "" : `--spec ${spec} `}${app}`;
  return { runner: "pipx", cache: caches[0], spec: wanted, warm, bin: found[0]?.bin ?? null, rest: args.slice(at + 1) };
}

/**
 * Where pipx keeps the virtualenvs `pipx run` made: under PIPX_HOME when it is set, else under either home pipx has
 * used (~/.local/pipx before 1.3, ~/.local/share/pipx since) and its newer cache folder (~/.cache/pipx). The first is
 * the one a failure names.
 */
export function pipxCacheFolders(env: NodeJS.ProcessEnv): string[] {
  if (env.PIPX_HOME && isAbsolute(env.PIPX_HOME)) return [join(env.PIPX_HOME, ".cache")];
  const home = env.HOME;
  if (!home || !isAbsolute(home)) return [];
  const all = [join(home, ".local/pipx/.cache"), join(home, ".local/share/pipx/.cache"), join(home, ".cache/pipx")];
  const present = all.filter((d) => existsSync(d));
  return present.length ? present : [all[0]];
}

function cachedVenvs(cache: string): string[] {
  try {
    return readdirSync(cache, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(cache, e.name));
  } catch {
    return [];
  }
}

// The program `app` of the virtualenv pipx made for `wanted`, with the time the venv was made (the newest wins).
function programIn(venv: string, wanted: string, app: string): { bin: string; at: number }[] {
  let main: { package_or_url?: unknown; apps?: unknown } | undefined;
  try {
    main = (JSON.parse(readFileSync(join(venv, "pipx_metadata.json"), "utf8")) as { main_package?: typeof main }).main_package;
  } catch {
    return [];
  }
  if (main?.package_or_url !== wanted || !Array.isArray(main.apps) || !main.apps.includes(app) || /[/\\]/.test(app)) return [];
  const bin = resolve(venv, "bin", app);
  try {
    const stat = statSync(bin);
    return stat.isFile() && existsSync(join(venv, "pyvenv.cfg")) ? [{ bin, at: stat.mtimeMs }] : [];
  } catch {
    return [];
  }
}
