import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Sandbox, WritableBind } from "./sandbox.js";

/** Where the sandbox shows the caches: its private /tmp (the state folder they live in is hidden from commands). */
export const CACHE_INSIDE = "/tmp/yolo-cache";

/** What a sandboxed command needs for its toolchains' caches: folders bound writable, and the variables naming them. */
export interface ToolCaches {
  /** Folders under yolo's state folder (created here), and where the sandbox binds each, writable. */
  writable: WritableBind[];
  env: Record<string, string>;
  /** The toolchains found, in the order listed in TOOLCHAINS (for doctor and the notes). */
  tools: string[];
}

interface Toolchain {
  id: string;
  /** Marker files at the project's root, or words of the gate command, that say the project uses it. */
  markers: string[];
  words: RegExp;
  /** The variables pointing the tool at its cache folder (`dir`, as the sandbox sees it), given the home folder. */
  env(dir: string, home: string): Record<string, string>;
}

/**
 * Each toolchain's cache, redirected into a folder of yolo's state folder. The user's own caches stay read-only inside
 * the sandbox, so nothing a sandboxed command writes (the model's code runs in every gate) is picked up by the user's
 * builds outside yolo. Where a tool can read the user's downloads without writing them, it is told so.
 */
const TOOLCHAINS: Toolchain[] = [
  // The build and test cache. Modules come from the user's module cache, read-only (GOFLAGS=-mod=mod with
  // GOPROXY=off builds offline from what is there).
  { id: "go", markers: ["go.mod", "go.work"], words: /(^|[\s;&|(])go\s/, env: (dir) => ({ GOCACHE: join(dir, "go-build") }) },
  // Cargo's target folder is the project's; its home (registry, git checkouts) is the user's, read-only: cargo only
  // locks it for writing when it has something to fetch, which an offline sandbox refuses anyway.
  { id: "cargo", markers: ["Cargo.toml"], words: /(^|[\s;&|(])cargo\s/, env: () => ({}) },
  // Gradle's own read-only dependency cache: the user's downloaded modules, a fresh writable home for everything else.
  {
    id: "gradle",
    markers: ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "gradlew"],
    words: /(^|[\s;&|(/])gradlew?\s/,
    env: (dir, home) => ({ GRADLE_USER_HOME: join(dir, "gradle"), GRADLE_RO_DEP_CACHE: join(home, ".gradle", "caches") }),
  },
  // Maven resolves from the user's ~/.m2, read-only: offline, it needs its plugins there already (run `mvn -o test` once
  // outside yolo); it writes only target/ in the project.
  { id: "maven", markers: ["pom.xml", "mvnw"], words: /(^|[\s;&|(/])mvnw?\s/, env: () => ({}) },
  {
    id: "python",
    markers: ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "pytest.ini", "tox.ini", "uv.lock"],
    words: /(^|[\s;&|(])(pytest|python3?|pip3?|uv|tox)\s/,
    env: (dir) => ({ PIP_CACHE_DIR: join(dir, "pip"), UV_CACHE_DIR: join(dir, "uv"), PYTHONPYCACHEPREFIX: join(dir, "pycache") }),
  },
  {
    id: "npm",
    markers: ["package.json"],
    words: /(^|[\s;&|(])(npm|npx|pnpm|yarn)\s/,
    env: (dir) => ({ npm_config_cache: join(dir, "npm"), XDG_CACHE_HOME: join(dir, "xdg") }),
  },
];

/**
 * The toolchains a project uses (its root's marker files, and the words of its gate commands) and, for a sandboxed
 * command, their caches: `<stateDir>/cache/<tool>` on the host (created now), bound writable at
 * `/tmp/yolo-cache/<tool>` inside and named there in the command's environment. A cache is yolo's per project, never
 * the user's.
 */
export function toolCaches(root: string, stateDir: string, commands: readonly string[], home: string = homedir()): ToolCaches {
  const out: ToolCaches = { writable: [], env: {}, tools: [] };
  for (const tool of TOOLCHAINS) {
    const used = tool.markers.some((m) => existsSync(join(root, m))) || commands.some((c) => tool.words.test(` ${c} `));
    if (!used) continue;
    out.tools.push(tool.id);
    const host = join(stateDir, "cache", tool.id);
    const inside = `${CACHE_INSIDE}/${tool.id}`;
    const env = tool.env(inside, home);
    // Only the folders yolo owns are made and bound; a variable pointing at the user's files (read-only) is not.
    const own = Object.values(env).filter((v) => v.startsWith(`${inside}/`));
    for (const path of own) mkdirSync(join(host, path.slice(inside.length)), { recursive: true });
    if (own.length) out.writable.push({ host, inside });
    Object.assign(out.env, env);
  }
  return out;
}

/**
 * A command's sandbox with its toolchains' caches bound writable, and the variables naming them: what gates and the
 * model's run_command both run with, so neither writes the user's own caches. Outside bubblewrap (or without a state
 * folder) the command runs as it would have, with nothing added.
 */
export function sandboxWithCaches(
  sandbox: Sandbox | undefined,
  root: string,
  stateDir: string | undefined,
  command: string,
): { sandbox: Sandbox | undefined; env: Record<string, string> } {
  if (sandbox?.kind !== "bwrap" || !stateDir) return { sandbox, env: {} };
  const caches = toolCaches(root, stateDir, [command]);
  return { sandbox: { ...sandbox, writable: [...(sandbox.writable ?? []), ...caches.writable] }, env: caches.env };
}
