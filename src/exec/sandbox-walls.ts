import { existsSync, lstatSync } from "node:fs";
import { userInfo } from "node:os";
import { delimiter, dirname, join, relative, sep } from "node:path";

/** What one sandboxed command (and every process it starts) may use of the machine. */
export interface SandboxLimits {
  /**
   * RLIMIT_NPROC of the command's processes (`ulimit -u`). The kernel does not apply it to root (uid 0); before Linux
   * 5.14 it counts every process of the user, not only the sandbox's (hence a default a desktop session stays under).
   */
  processes: number;
  /** RLIMIT_DATA of each process, in bytes (`ulimit -d`): heap and private writable memory, per process. */
  memoryBytes: number;
  /** Size of the sandbox's RAM-backed /tmp, in bytes (bubblewrap's `--size`). */
  tmpBytes: number;
  /** "deny" (absent: the same): a seccomp filter refuses AF_UNIX sockets (src/exec/seccomp.ts); "allow": tests that need them. */
  unixSockets?: "deny" | "allow";
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { processes: 1024, memoryBytes: 8 * 1024 ** 3, tmpBytes: 1024 ** 3, unixSockets: "deny" };

/**
 * The folders a sandbox shows empty: the home folder (`home`, the account's own, `/home`, `/root`) — credentials,
 * agent sockets, tool configs — and the runtime folders where host UNIX sockets live (`/run`, `/var/run`: docker,
 * the session bus, ssh and gpg agents). Only existing real folders; a link (`/var/run -> /run`) is covered by its target.
 */
export function sandboxHiddenFolders(home: string | undefined): string[] {
  let account: string | undefined;
  try {
    account = userInfo().homedir;
  } catch {
    account = undefined;
  }
  const candidates = [home, account, "/home", "/root", "/run", "/var/run"].filter((p): p is string => !!p && p.startsWith("/") && p !== "/");
  return [...new Set(candidates)].filter(isRealFolder);
}

/**
 * Set by `yolo eval` for its task runs: the project checkout the eval runs in. A task's worktree is a repository of
 * its own inside that checkout (under `.yolo/eval/runs/`), holding only its start's history; the checkout itself
 * holds the later history (the fix, the hidden tests) and the task files, so its commands must not read it.
 */
export const EVAL_PROJECT_VAR = "YOLO_EVAL_PROJECT";

/**
 * What a task run's sandbox shows of the eval's project checkout (EVAL_PROJECT_VAR): nothing (an empty folder, the
 * task's own worktree bound inside it as always), but its installed dependencies, read-only (a task's `node_modules`
 * links to the project's). None outside an eval.
 */
export function evalProjectWalls(env: NodeJS.ProcessEnv): { hidden: string[]; readOnly: string[] } {
  const project = env[EVAL_PROJECT_VAR];
  if (!project?.startsWith("/") || !isRealFolder(project)) return { hidden: [], readOnly: [] };
  const deps = join(project, "node_modules");
  return { hidden: [project], readOnly: existsSync(deps) ? [deps] : [] };
}

/**
 * bubblewrap options that empty the hidden folders (outermost first, each once) and bind back, read-only, the
 * toolchain folders on PATH that live there (nvm's node, a rustup toolchain, ~/.local/bin), so a build still finds
 * its compiler while the rest of the home folder stays out of sight. The project is bound after these, so a project
 * inside the home folder is there as always.
 */
export function hiddenFolderArgs(hidden: readonly string[], root: string, pathVar: string | undefined): string[] {
  const outer = [...new Set(hidden)].sort().filter((dir, i, all) => !all.slice(0, i).some((o) => under(dir, o)));
  // The project itself is never hidden (it is bound after these anyway; this keeps the argv short).
  const shown = outer.filter((dir) => dir !== root);
  const args = shown.flatMap((dir) => ["--tmpfs", dir]);
  for (const dir of toolchainFolders(shown, pathVar)) args.push("--ro-bind-try", dir, dir);
  for (const dir of shown) {
    for (const cache of DEPENDENCY_CACHES) if (existsSync(join(dir, cache))) args.push("--ro-bind", join(dir, cache), join(dir, cache));
  }
  return args;
}

/**
 * Downloaded dependencies in a home folder that offline builds read (Maven's plugins, cargo's registry, Gradle's
 * modules, Go's module cache), shown read-only: never the files beside them that hold credentials (`~/.m2/settings.xml`,
 * `~/.cargo/credentials.toml`, `~/.gradle/gradle.properties`). Writes go to yolo's per-project caches (tool-caches.ts).
 */
const DEPENDENCY_CACHES = [".m2/repository", ".cargo/registry", ".cargo/git", ".gradle/caches", "go/pkg/mod"];

/** Version managers' folders in a home folder: a PATH entry inside one needs the whole of it (shims, versions, libs). */
const TOOLCHAIN_ROOTS = [
  ".pyenv",
  ".rbenv",
  ".nodenv",
  ".goenv",
  ".jenv",
  ".nvm",
  ".asdf",
  ".volta",
  ".rustup",
  ".sdkman",
  ".bun",
  ".deno",
  ".fnm",
  "go",
  ".local/share/mise",
  ".local/share/fnm",
];

// PATH entries under a hidden folder, widened to their version manager's folder when they are inside one.
function toolchainFolders(hidden: readonly string[], pathVar: string | undefined): string[] {
  const out = new Set<string>();
  for (const entry of (pathVar ?? "").split(delimiter)) {
    const home = entry.startsWith("/") ? hidden.find((dir) => under(entry, dir) && entry !== dir) : undefined;
    if (!home) continue;
    // The version manager's folder wherever it sits below the hidden one (`/home` hides `/home/u/.nvm`).
    const rel = `/${relative(home, entry).split(sep).join("/")}/`;
    const at = TOOLCHAIN_ROOTS.map((r) => ({ r, i: rel.indexOf(`/${r}/`) })).find(({ i }) => i >= 0);
    out.add(at ? join(home, rel.slice(1, at.i + at.r.length + 1)) : entry);
    // rustup's proxies in ~/.cargo/bin run the toolchains kept in ~/.rustup (the rest of ~/.cargo holds credentials).
    if (entry.endsWith(`${sep}.cargo${sep}bin`)) out.add(join(dirname(dirname(entry)), ".rustup"));
  }
  // A folder inside another bound one is covered by it.
  return [...out].sort().filter((dir, i, all) => !all.slice(0, i).some((o) => under(dir, o)));
}

/**
 * The argv that applies the limits before running `argv`: a shell sets RLIMIT_NPROC and RLIMIT_DATA (soft and hard,
 * so the command cannot raise them again; a lower limit already in force stays) and execs the program.
 */
export function limitArgv(limits: SandboxLimits | undefined, argv: readonly string[]): string[] {
  const l = limits ?? DEFAULT_SANDBOX_LIMITS;
  const script = `{ ulimit -u ${Math.floor(l.processes)} || ulimit -p ${Math.floor(l.processes)}; } 2>/dev/null; ulimit -d ${Math.floor(l.memoryBytes / 1024)} 2>/dev/null; exec "$@"`;
  return ["/bin/sh", "-c", script, "yolo-limits", ...argv];
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

function isRealFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
