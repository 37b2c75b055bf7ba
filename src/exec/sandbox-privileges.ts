import { readFileSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";

/** Per bubblewrap binary: whether it has `--disable-userns` (bubblewrap 0.8.0 and later). */
const disables = new Map<string, boolean>();

/**
 * bubblewrap options that leave a sandboxed command no privilege, whoever starts yolo. A user namespace of its own
 * (`--unshare-user`: bubblewrap run by root otherwise stays in the host's namespace and keeps root's capabilities,
 * and with them `umount`, `mount -o remount,rw`, new mounts and pivot_root), with the caller's uid and gid kept
 * inside (so `id -u` says what it says outside and the files a command writes are the caller's on the host); no
 * capabilities in it, bounding set included (`--cap-drop ALL`: root inside is root by id only); and no nested user
 * namespace in which to get new ones (`--disable-userns`, where bubblewrap has it; without it the mounts bubblewrap
 * made stay locked in a nested one all the same).
 */
export function privilegeArgs(binary: string): string[] {
  return ["--unshare-user", "--cap-drop", "ALL", ...(disablesUserns(binary) ? ["--disable-userns"] : [])];
}

/**
 * Whether `binary` can forbid nested user namespaces, once per binary: the option's name is in the program's own
 * strings (it parses it). Read, not run: asking `bwrap --help` was a process before every sandbox's start, and a
 * bubblewrap that hangs held the start for its timeout.
 */
export function disablesUserns(binary: string): boolean {
  let known = disables.get(binary);
  if (known === undefined) {
    known = programMentions(binary, "--disable-userns");
    disables.set(binary, known);
  }
  return known;
}

// Whether the program file at `binary` (the probe's absolute path) holds `text`; false when it cannot be read.
function programMentions(binary: string, text: string): boolean {
  if (!isAbsolute(binary)) return false;
  try {
    return statSync(binary).size <= 16 * 1024 * 1024 && readFileSync(binary).includes(text);
  } catch {
    return false;
  }
}

/**
 * What a sandboxed command is, in words for `yolo doctor`: its id, no capabilities, nested namespaces or not, and
 * whether the seccomp filter keeps it off the keyrings (`filtered`: false where bubblewrap cannot apply it).
 */
export function privilegeSummary(binary: string, filtered: boolean, uid: number | undefined = process.getuid?.()): string {
  const who = uid === 0 ? "as root (uid 0) by id only" : `as uid ${uid ?? "?"}`;
  const nested = disablesUserns(binary) ? "no nested user namespaces" : "nested user namespaces allowed (bubblewrap before 0.8 cannot refuse them)";
  const keyrings = filtered ? "keyrings are refused" : "keyrings are reachable (no seccomp filter here)";
  return `commands run in a user namespace of their own, ${who}, with no capabilities and ${nested}; ${keyrings}`;
}
