import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

/**
 * A task's run must not outlive the eval that started it: a run left alive holds its worktree's lock ("Another run of
 * yolo is live") and keeps spending. Signals the eval can catch stop the run through its abort signal; for a `kill -9`
 * of the eval alone a watcher does it: a small detached process holding a pipe from the eval, told each run's pid as it
 * starts and again when it ends, which stops the runs still going (SIGTERM, then SIGKILL) when the pipe ends. One
 * watcher serves every run of the eval process: a start and a fork of the eval a task fewer.
 */
// A shell script, not a Node program: the watcher waits for most of its life, and a shell starts for about 1 ms of
// CPU where Node takes some 70. It reads "+<pid>" and "-<pid>" lines until the eval's end of the pipe closes, then
// stops the runs still going: SIGTERM, then SIGKILL to those alive 15 s later. It ends once that is done.
const WATCHER = `
watched=" "
drop() { rest=$watched; watched=" "; for p in $rest; do [ "$p" = "$1" ] || watched="$watched$p "; done; }
while IFS= read -r line; do
  pid=\${line#?}
  case $pid in ""|*[!0-9]*) continue ;; esac
  case $line in
    +*) watched="$watched$pid " ;;
    -*) drop "$pid" ;;
  esac
done
alive() { left=""; for p in $1; do kill -0 "$p" 2>/dev/null && left="$left $p"; done; }
alive "$watched"
[ -z "$left" ] && exit 0
for p in $left; do kill -TERM "$p" 2>/dev/null; done
i=0
while [ $i -lt 150 ]; do
  sleep 0.1
  alive "$left"
  [ -z "$left" ] && exit 0
  i=$((i + 1))
done
for p in $left; do kill -KILL "$p" 2>/dev/null; done
`;

let watcher: ChildProcess | null = null;

/** Has the eval's watcher watch run `pid`; `over()` tells it the run ended on its own (call it when the run closes). */
export function watchChild(pid: number): { over(): void } {
  const tell = started();
  tell(`+${pid}\n`);
  return { over: () => tell(`-${pid}\n`) };
}

// The eval's one watcher, started with its first run (and again if it died); what writes a line to it.
function started(): (line: string) => void {
  if (!watcher || watcher.exitCode !== null || watcher.signalCode !== null) {
    // Its environment holds only where `sleep` is found: nothing of yolo's.
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const child = spawn("/bin/sh", ["-c", WATCHER], { detached: true, stdio: ["pipe", "ignore", "ignore"], env });
    child.on("error", () => {});
    child.stdin?.on("error", () => {});
    child.unref();
    // The pipe must not keep the eval alive: it ends with the eval, which is the point.
    (child.stdin as unknown as { unref?(): void } | null)?.unref?.();
    watcher = child;
  }
  const stdin = watcher.stdin;
  return (line) => {
    if (stdin && !stdin.destroyed) stdin.write(line);
  };
}

/**
 * Stops a run a previous eval left behind (its pid in `pidFile`, written while it ran), before the task runs again:
 * SIGTERM, then SIGKILL after `graceMs`, waiting until it is gone so its lock is free. A pid that is no longer a yolo
 * process (reused after a restart) is left alone.
 */
export async function stopLeftoverRun(pidFile: string, graceMs = 15_000): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 1 || !isYolo(pid)) return;
  signal(pid, "SIGTERM");
  const since = Date.now();
  while (alive(pid)) {
    if (Date.now() - since > graceMs) signal(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Records the run's pid beside its task while it runs. */
export function writePidFile(pidFile: string, pid: number | undefined): void {
  if (pid) writeFileSync(pidFile, `${pid}\n`);
}

function isYolo(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("yolo");
  } catch {
    // No /proc (macOS): alive is all that can be told.
    return alive(pid);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone meanwhile.
  }
}
