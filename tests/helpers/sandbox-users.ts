import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { underCI } from "./requires.js";

// The sandbox's walls are tried as root and as an ordinary user: root's bubblewrap used to stay in the host's user
// namespace with its capabilities, while an ordinary user's got a namespace of its own. The ordinary user is
// `yolo-ci` (created by .ci/run) when the tests run as root, or the tests' own user otherwise.

/** The account CI creates for the ordinary-user half of the sandbox tests. */
export const ORDINARY_USER = "yolo-ci";

/** Whom a sandboxed attack runs as. */
export interface SandboxUser {
  label: "root" | "an ordinary user";
  uid: number;
  gid: number;
  /** The tests' own user: no setpriv needed. */
  self: boolean;
}

/**
 * The users the sandbox tests run as: root and an ordinary user when the tests run as root (with `yolo-ci`), the tests'
 * own user alone otherwise. A half that cannot run is skipped with a printed reason — except under CI, where `.ci/run`
 * creates `yolo-ci` and the tests run as root, so a missing half is an error.
 */
export function sandboxUsers(): SandboxUser[] {
  const uid = process.getuid?.() ?? -1;
  const gid = process.getgid?.() ?? -1;
  if (uid !== 0) {
    skipHalf("root", "the tests do not run as root");
    return [{ label: "an ordinary user", uid, gid, self: true }];
  }
  const users: SandboxUser[] = [{ label: "root", uid: 0, gid: 0, self: true }];
  const id = (flag: string) => spawnSync("id", [flag, ORDINARY_USER], { encoding: "utf8" });
  const u = id("-u");
  const g = id("-g");
  if (u.status === 0 && g.status === 0) users.push({ label: "an ordinary user", uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()), self: false });
  else skipHalf("ordinary-user", `the user ${ORDINARY_USER} does not exist (create it: useradd -m ${ORDINARY_USER})`);
  return users;
}

function skipHalf(half: string, why: string): void {
  if (underCI()) throw new Error(`CI is set, so the ${half} half of the sandbox tests must run, but ${why}. .ci/run runs them as root with ${ORDINARY_USER}.`);
  console.warn(`[skipped] the ${half} half of the sandbox tests: ${why} (under CI this fails)`);
}

/** The argv prefix that runs a program as `user` (nothing for the tests' own user). */
export function asUser(user: SandboxUser): string[] {
  return user.self ? [] : ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--init-groups"];
}

/**
 * The PATH `user`'s processes get: the tests' own, less the folders that user cannot enter (root's `~/.cargo/bin`, say,
 * which bubblewrap would fail to bind back for an ordinary user).
 */
export function pathFor(user: SandboxUser): string {
  const entries = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  if (user.self) return entries.join(delimiter);
  return entries.filter((dir) => spawnSync("test", ["-x", dir], { env: {}, uid: user.uid, gid: user.gid }).status === 0).join(delimiter);
}

/** Gives `path` (and everything in it) to `user`. */
export function giveTo(user: SandboxUser, path: string): void {
  if (user.self) return;
  const own = (p: string) => {
    chownSync(p, user.uid, user.gid);
    for (const entry of readdirSync(p, { withFileTypes: true })) {
      const child = join(p, entry.name);
      if (entry.isDirectory() && !entry.isSymbolicLink()) own(child);
      else if (!entry.isSymbolicLink()) chownSync(child, user.uid, user.gid);
    }
  };
  own(path);
}

/**
 * A home folder for the attack, outside /tmp (which the sandbox replaces with its own) and inside the folders the
 * sandbox hides (root's `/root`, the ordinary user's `/home/<user>`), as a real home is; owned by `user`.
 */
export function attackHome(user: SandboxUser): { home: string; cleanup: () => void } {
  const parent = user.uid === 0 ? homedir() : spawnSync("sh", ["-c", `getent passwd ${user.uid} | cut -d: -f6`], { encoding: "utf8" }).stdout.trim() || "/home";
  const home = realpathSync(mkdtempSync(join(parent, ".yolo-attack-home-")));
  giveTo(user, home);
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));

/** How one sandboxed command is run for a test. */
export interface ShellAsOptions {
  cwd: string;
  home: string;
  /** "bwrap": the run's sandbox (home and /run hidden); "bwrap-home-shown": the same with nothing hidden; "none": no sandbox. */
  sandbox: "bwrap" | "bwrap-home-shown" | "none";
  /** The sandbox's limits; absent: DEFAULT_SANDBOX_LIMITS. */
  limits?: { processes: number; memoryBytes: number; tmpBytes: number };
  /** Keys put in the session keyring (and, under `user:` names, the user keyring) of the process that runs yolo's code. */
  keys?: { session: [string, string]; user: [string, string] };
}

/**
 * Runs `command` as run_command runs it (runShell from the built dist/, in or out of bubblewrap), in a Node process of
 * `user`'s with a session keyring of its own: returns its exit code and output. The built dist/ is needed (npm run build).
 */
export function shellAs(user: SandboxUser, command: string, options: ShellAsOptions): { exitCode: number | null; output: string } {
  return shellsAs(user, [{ ...options, command }], options.keys)[0];
}

/** One command for `shellsAs`: what `shellAs` takes, less the keys (one keyring session holds them for all). */
export type ShellJob = Omit<ShellAsOptions, "keys"> & { command: string };

/**
 * Runs each job in turn as `shellAs` runs one, all in one Node process of `user`'s and one keyring session (`keys`):
 * a test that tries many commands starts Node and loads yolo's modules once, not once per command. Each job still gets
 * its own runShell (and sandbox) in its own cwd and home.
 */
export function shellsAs(user: SandboxUser, jobs: ShellJob[], keys?: ShellAsOptions["keys"]): Array<{ exitCode: number | null; output: string }> {
  if (!existsSync(join(DIST, "exec", "run-shell.js"))) throw new Error(`${DIST} is not built: run npm run build`);
  const script = `
    const { runShell } = await import(${JSON.stringify(join(DIST, "exec", "run-shell.js"))});
    const { probeBwrap } = await import(${JSON.stringify(join(DIST, "exec", "sandbox.js"))});
    const { sandboxHiddenFolders, DEFAULT_SANDBOX_LIMITS } = await import(${JSON.stringify(join(DIST, "exec", "sandbox-walls.js"))});
    const probe = probeBwrap(process.env.PATH);
    const results = [];
    for (const o of JSON.parse(process.env.YOLO_TEST_SHELL)) {
      if (o.sandbox !== "none" && !probe.available) throw new Error("bubblewrap does not work here: " + probe.reason);
      const hidden = o.sandbox === "bwrap" ? sandboxHiddenFolders(o.home) : [];
      const sandbox = o.sandbox === "none" ? { kind: "none" } : { kind: "bwrap", binary: probe.binary, hidden, limits: { ...DEFAULT_SANDBOX_LIMITS, ...o.limits } };
      const r = await runShell(o.command, { cwd: o.cwd, timeoutS: 60, env: { PATH: process.env.PATH, HOME: o.home }, capBytes: 100000, sandbox });
      results.push({ exitCode: r.exitCode, output: r.output });
    }
    process.stdout.write(JSON.stringify({ shellResults: results }));
  `;
  // keyctl session: a fresh session keyring for this process tree; a user-keyring key goes again when it ends.
  const keyring = keys
    ? `keyctl add user "$1" "$2" @s >/dev/null && keyctl add user "$3" "$4" @u >/dev/null || exit 99; shift 4; "$@"; s=$?; keyctl unlink "%user:$KU" @u >/dev/null 2>&1; exit $s`
    : `shift 4; exec "$@"`;
  const argv = [
    ...asUser(user),
    "keyctl",
    "session",
    "-",
    "sh",
    "-c",
    keys ? keyring.replace("$KU", keys.user[0]) : keyring,
    "sh",
    ...(keys ? [...keys.session, ...keys.user] : ["", "", "", ""]),
    process.execPath,
    "--input-type=module",
    "-e",
    script,
  ];
  const [first] = jobs;
  const env = { PATH: pathFor(user), HOME: first.home, TMPDIR: tmpdir(), YOLO_TEST_SHELL: JSON.stringify(jobs) };
  const out = execFileSync(argv[0], argv.slice(1), {
    cwd: first.cwd,
    env,
    encoding: "utf8",
    timeout: 120_000 * jobs.length,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out.slice(out.lastIndexOf('{"shellResults"'))).shellResults;
}
