import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A classic-BPF seccomp program for bubblewrap (`--seccomp FD`) that stops a sandboxed command from creating AF_UNIX
// sockets (a socket file the sandbox can see, in the project, /srv, /var/lib, could otherwise be connected to) and
// from using the kernel's keyrings: bubblewrap does not namespace them, so the session and user keyrings of whoever
// started yolo (tokens, Kerberos tickets, ecryptfs keys) would be readable from inside.

/** Per native architecture: its AUDIT_ARCH value and the numbers of socket(), io_uring_setup() and the keyring calls. */
const ARCHES: Record<string, { audit: number; socket: number; ioUringSetup: number; keyring: number[]; x32: boolean }> = {
  // add_key, request_key, keyctl
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, keyring: [248, 249, 250], x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425, keyring: [217, 218, 219], x32: false },
};

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const EACCES = 13;
const AF_UNIX = 1;
const X32_SYSCALL_BIT = 0x40000000;
// Offsets in struct seccomp_data: nr, arch, args[0] (its low 32 bits on these little-endian machines; domain is an int).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

/** The architectures (Node's `process.arch` names) the filter is built for. */
export function sandboxFilterSupported(arch: string = process.arch): boolean {
  return arch in ARCHES;
}

/**
 * The program: another architecture's calls (the i386 `socketcall` route) and x32 numbers are refused outright;
 * add_key, request_key and keyctl fail with EPERM (always: keyrings are the host's); io_uring_setup fails with EPERM
 * (io_uring can create sockets without socket()); unless `unixSockets` is "allow", socket(AF_UNIX, …) fails with
 * EACCES. Everything else is allowed: socketpair stays, node and python use it for child stdio and IPC.
 */
export function sandboxFilter(arch: string = process.arch, unixSockets: "deny" | "allow" = "deny"): Buffer {
  const a = ARCHES[arch];
  if (!a) throw new Error(`no seccomp filter for ${arch}: only ${Object.keys(ARCHES).join(", ")}`);
  // Jump targets are named and resolved to the kernel's relative offsets (from the next instruction).
  const sockets: Insn[] = [
    [BPF_JEQ_K, 0, "allow", a.socket],
    [BPF_LD_W_ABS, 0, 0, ARG0],
    [BPF_JEQ_K, "eacces", "allow", AF_UNIX],
  ];
  const program: Insn[] = [
    [BPF_LD_W_ABS, 0, 0, ARCH],
    [BPF_JEQ_K, 0, "eperm", a.audit], // another architecture's calls
    [BPF_LD_W_ABS, 0, 0, NR],
    a.x32 ? [BPF_JGE_K, "eperm", 0, X32_SYSCALL_BIT] : [BPF_JEQ_K, 0, 0, 0], // x32 numbers (a no-op on arm64)
    [BPF_JEQ_K, "eperm", 0, a.ioUringSetup],
    ...a.keyring.map((nr): Insn => [BPF_JEQ_K, "eperm", 0, nr]),
    ...(unixSockets === "deny" ? sockets : []),
    ["allow", BPF_RET_K, SECCOMP_RET_ALLOW],
    ["eacces", BPF_RET_K, SECCOMP_RET_ERRNO | EACCES],
    ["eperm", BPF_RET_K, SECCOMP_RET_ERRNO | EPERM],
  ];
  const insns = resolve(program);
  return encode(insns);
}

type Target = number | "allow" | "eacces" | "eperm";
/** An instruction with named jump targets, or a labelled return. */
type Insn = [number, Target, Target, number] | ["allow" | "eacces" | "eperm", number, number];

// Named targets become offsets relative to the instruction after the jump.
function resolve(program: readonly Insn[]): [number, number, number, number][] {
  const at = new Map<string, number>();
  program.forEach((insn, i) => {
    if (typeof insn[0] === "string") at.set(insn[0], i);
  });
  return program.map((insn, i) => {
    if (typeof insn[0] === "string") return [insn[1], 0, 0, insn[2] as number];
    const [code, jt, jf, k] = insn as [number, Target, Target, number];
    const off = (t: Target) => (typeof t === "number" ? t : (at.get(t) as number) - i - 1);
    return [code, off(jt), off(jf), k];
  });
}

// struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; } in the machine's (little-endian) byte order.
function encode(insns: readonly [number, number, number, number][]): Buffer {
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

const written = new Map<"deny" | "allow", string>();

/**
 * The filter as a file bubblewrap's fd is opened on (`3<file` by the shell that execs bwrap, so commands, gates and
 * stdio MCP servers — whose SDK transport has no extra fds — all get it the same way). Written once per process (and
 * per `unixSockets`) into a private folder under the host's temp folder (which the sandbox never sees: its /tmp is
 * its own), removed at exit.
 */
export function sandboxFilterFile(unixSockets: "deny" | "allow" = "deny"): string {
  const known = written.get(unixSockets);
  if (known && existsSync(known)) return known;
  const dir = mkdtempSync(join(tmpdir(), "yolo-seccomp-"));
  const file = join(dir, unixSockets === "deny" ? "deny-unix-sockets-and-keyrings.bpf" : "deny-keyrings.bpf");
  writeFileSync(file, sandboxFilter(process.arch, unixSockets), { mode: 0o400 });
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  written.set(unixSockets, file);
  return file;
}

/** The fd bubblewrap reads the filter from. */
export const SECCOMP_FD = 3;

/**
 * Wraps bubblewrap's argv in the host shell that starts it: it joins the command's cgroups first when there are some
 * (command-cgroups.ts; a failure to join leaves the rlimits alone), and opens `filter` (sandboxFilterFile) on
 * SECCOMP_FD for `--seccomp` when there is one. Neither: the argv as it is.
 */
export function hostWrapped(bwrap: readonly string[], options: { filter: string | null; cgroups?: readonly string[] }): string[] {
  const cgroups = options.cgroups ?? [];
  if (options.filter === null && !cgroups.length) return [...bwrap];
  const [binary, ...args] = bwrap;
  // $2 is how many cgroup folders follow; the shell writes its own pid into each one's cgroup.procs, then execs.
  const join = cgroups.length ? `n=$2; shift 2; while [ "$n" -gt 0 ]; do { echo $$ > "$1/cgroup.procs"; } 2>/dev/null; shift; n=$((n-1)); done; ` : "shift 2; ";
  const redirect = options.filter === null ? "" : ` ${SECCOMP_FD}<"$f"`;
  return [
    "/bin/sh",
    "-c",
    `f=$1; ${join}exec "$@"${redirect}`,
    "yolo-host",
    options.filter ?? "",
    cgroups.length ? String(cgroups.length) : "",
    ...cgroups,
    binary,
    ...(options.filter === null ? [] : ["--seccomp", String(SECCOMP_FD)]),
    ...args,
  ];
}
