import { spawnSync } from "node:child_process";

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

/** Whether `binary` can forbid nested user namespaces (asked of its `--help` once per binary). */
export function disablesUserns(binary: string): boolean {
  let known = disables.get(binary);
  if (known === undefined) {
    const help = spawnSync(binary, ["--help"], { encoding: "utf8", timeout: 5000 });
    known = `${help.stdout ?? ""}${help.stderr ?? ""}`.includes("--disable-userns");
    disables.set(binary, known);
  }
  return known;
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
