import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { ProtectedPaths } from "./protected-paths.js";

/** How commands are contained: inside bubblewrap, or not at all. */
export type Sandbox = { kind: "bwrap"; binary: string } | { kind: "none" };

export type SandboxProbe = { available: true; binary: string } | { available: false; reason: string };

const probes = new Map<string, SandboxProbe>();

/**
 * Whether bubblewrap is installed (on `pathVar`) and can actually build the sandbox here: it needs user, mount,
 * network and PID namespaces, which containers and some kernels refuse. Probed once per process and PATH.
 */
export function probeBwrap(pathVar: string | undefined): SandboxProbe {
  const key = pathVar ?? "";
  let probe = probes.get(key);
  if (!probe) {
    probe = runProbe(pathVar);
    probes.set(key, probe);
  }
  return probe;
}

function runProbe(pathVar: string | undefined): SandboxProbe {
  const binary = findOnPath("bwrap", pathVar);
  if (!binary) return { available: false, reason: "bwrap (bubblewrap) is not installed" };
  const probe = spawnSync(binary, [...isolation(), "--", "true"], { timeout: 10_000, encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  if (probe.error) return { available: false, reason: `${binary} could not start (${probe.error.message})` };
  if (probe.status !== 0) {
    const why = (probe.stderr ?? "").trim().split("\n")[0] || `exit code ${probe.status ?? probe.signal}`;
    return { available: false, reason: `${binary} cannot create its sandbox here: ${why}` };
  }
  return { available: true, binary };
}

/** The bubblewrap options every sandbox uses: the whole filesystem read-only, fresh /dev, /proc and /tmp, no network. */
function isolation(): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    // A PID namespace of its own: the command cannot read yolo's /proc/<pid>/environ, and when the sandbox's
    // first process dies the kernel kills everything left inside, background jobs included.
    "--unshare-pid",
    "--proc", "/proc",
    "--tmpfs", "/tmp",
    "--unshare-net",
    "--unshare-ipc",
    "--die-with-parent",
  ];
}

/**
 * The argv that runs `command` with `/bin/sh -c` inside bubblewrap: `root` is the only writable folder (its
 * `.yolo` state folder stays read-only), /tmp is private and empty, and there is no network (loopback included).
 * `guard` (from findProtectedPaths) makes files that run code outside yolo read-only (`.git` and the git dirs a
 * `.git` file points at, `.gitattributes`, `.vscode`, `.github`, hook-manager configs, `node_modules/.bin`, …) and
 * shows secret files (`.env`, keys, `.npmrc`, `.netrc`, …) empty, so no transform of them reaches the model.
 */
export function bwrapArgv(binary: string, root: string, command: string, guard?: ProtectedPaths): string[] {
  const state = join(root, ".yolo");
  return [
    binary,
    ...isolation(),
    "--bind", root, root,
    ...(existsSync(state) ? ["--ro-bind", state, state] : []),
    ...(guard ? guardArgs(guard) : []),
    "--chdir", root,
    "--", "/bin/sh", "-c", command,
  ];
}

// Read-only binds for exec files and git dirs, /dev/null over secret files, an empty read-only tmpfs over secret folders.
function guardArgs(guard: ProtectedPaths): string[] {
  const args: string[] = [];
  for (const path of guard.readOnly) args.push("--ro-bind-try", path, path);
  for (const path of guard.maskedFiles) args.push("--ro-bind", "/dev/null", path);
  for (const path of guard.maskedDirs) args.push("--tmpfs", path, "--remount-ro", path);
  return args;
}

// The first executable `name` on PATH, or null.
function findOnPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
