import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../../src/config/resolve.js";
import { chooseSandbox } from "../../../src/engine/run/facts.js";
import { bwrapArgv, probeBwrap, probeBwrapAsync } from "../../../src/exec/sandbox.js";
import { SECCOMP_FD, sandboxFilter, sandboxFilterFile, sandboxFilterSupported } from "../../../src/exec/seccomp.js";
import { tempDir } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

// The seccomp program that keeps sandboxed commands off host UNIX sockets and the kernel's keyrings, read back as the
// kernel reads it.
type Insn = { code: number; jt: number; jf: number; k: number };
const decode = (b: Buffer): Insn[] =>
  Array.from({ length: b.length / 8 }, (_, i) => ({ code: b.readUInt16LE(i * 8), jt: b[i * 8 + 2], jf: b[i * 8 + 3], k: b.readUInt32LE(i * 8 + 4) }));

// A tiny classic-BPF interpreter (the subset the filter uses) over a struct seccomp_data.
function verdict(prog: Insn[], data: { nr: number; arch: number; arg0: number }): number {
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const { code, jt, jf, k } = prog[pc];
    if (code === 0x20) acc = k === 0 ? data.nr : k === 4 ? data.arch : k === 16 ? data.arg0 : Number.NaN;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code}`);
  }
  throw new Error("fell off the end");
}

const ALLOW = 0x7fff0000;
const EACCES = 0x00050000 | 13;
const EPERM = 0x00050000 | 1;

describe("the sandbox's seccomp filter", () => {
  afterEach(() => {
    Object.defineProperty(process, "arch", { value: REAL_ARCH });
  });
  const REAL_ARCH = process.arch;

  it("x86_64: socket(AF_UNIX) is refused, other families and socketpair pass, other arches and x32 are refused", () => {
    const p = decode(sandboxFilter("x64"));
    const x = 0xc000003e;
    expect(verdict(p, { arch: x, nr: 41, arg0: 1 })).toBe(EACCES);
    expect(verdict(p, { arch: x, nr: 41, arg0: 2 })).toBe(ALLOW);
    expect(verdict(p, { arch: x, nr: 41, arg0: 10 })).toBe(ALLOW);
    expect(verdict(p, { arch: x, nr: 53, arg0: 1 })).toBe(ALLOW); // socketpair(AF_UNIX)
    expect(verdict(p, { arch: x, nr: 0, arg0: 1 })).toBe(ALLOW);
    expect(verdict(p, { arch: x, nr: 425, arg0: 0 })).toBe(EPERM); // io_uring_setup
    expect(verdict(p, { arch: x, nr: 0x40000000 + 41, arg0: 1 })).toBe(EPERM); // x32 socket
    expect(verdict(p, { arch: 0x40000003, nr: 102, arg0: 1 })).toBe(EPERM); // i386 socketcall
    for (const nr of [248, 249, 250]) expect(verdict(p, { arch: x, nr, arg0: 0 })).toBe(EPERM); // add_key, request_key, keyctl
    expect(verdict(p, { arch: x, nr: 247, arg0: 0 })).toBe(ALLOW); // waitid, beside them
  });

  it("with UNIX sockets allowed, socket(AF_UNIX) passes and the keyring calls are still refused", () => {
    const x64 = decode(sandboxFilter("x64", "allow"));
    expect(verdict(x64, { arch: 0xc000003e, nr: 41, arg0: 1 })).toBe(ALLOW);
    for (const nr of [248, 249, 250]) expect(verdict(x64, { arch: 0xc000003e, nr, arg0: 0 })).toBe(EPERM);
    expect(verdict(x64, { arch: 0xc000003e, nr: 425, arg0: 0 })).toBe(EPERM);
    const arm = decode(sandboxFilter("arm64", "allow"));
    expect(verdict(arm, { arch: 0xc00000b7, nr: 198, arg0: 1 })).toBe(ALLOW);
    for (const nr of [217, 218, 219]) expect(verdict(arm, { arch: 0xc00000b7, nr, arg0: 0 })).toBe(EPERM);
  });

  it("aarch64: socket is 198, the x32 check is a no-op, arm (32-bit) is refused", () => {
    const p = decode(sandboxFilter("arm64"));
    const a = 0xc00000b7;
    expect(verdict(p, { arch: a, nr: 198, arg0: 1 })).toBe(EACCES);
    expect(verdict(p, { arch: a, nr: 198, arg0: 2 })).toBe(ALLOW);
    expect(verdict(p, { arch: a, nr: 199, arg0: 1 })).toBe(ALLOW); // socketpair
    expect(verdict(p, { arch: a, nr: 425, arg0: 0 })).toBe(EPERM);
    expect(verdict(p, { arch: 0x40000028, nr: 281, arg0: 1 })).toBe(EPERM);
    for (const nr of [217, 218, 219]) expect(verdict(p, { arch: a, nr, arg0: 0 })).toBe(EPERM); // add_key, request_key, keyctl
  });

  it("an architecture without a filter is refused by name, and the sandbox is not built there unless sockets are allowed", (ctx) => {
    expect(sandboxFilterSupported("ia32")).toBe(false);
    expect(() => sandboxFilter("riscv64")).toThrow(/no seccomp filter for riscv64/);
    requireTool(ctx, "bwrap", "building the sandbox");
    const root = tempDir(ctx.onTestFinished, "yolo-seccomp-");
    const config = (limits: object) => resolveConfig({ root, fileConfig: { limits }, file: null, env: {}, flags: {} });
    Object.defineProperty(process, "arch", { value: "riscv64" });
    expect(() => chooseSandbox(config({}), { PATH: process.env.PATH })).toThrow(/limits\.sandboxUnixSockets: "allow"/);
    expect(chooseSandbox(config({ sandboxUnixSockets: "allow" }), { PATH: process.env.PATH }).sandbox.kind).toBe("bwrap");
  });

  it("bubblewrap gets the filter on its fd: the socket-refusing one by default, the keyring-only one when sockets are allowed", (ctx) => {
    const probe = probeBwrap(process.env.PATH);
    if (!probe.available) return ctx.skip();
    const denied = bwrapArgv({ kind: "bwrap", binary: probe.binary }, "/p", "true");
    expect(denied.slice(0, 3)).toEqual(["/bin/sh", "-c", `f=$1; shift 2; exec "$@" ${SECCOMP_FD}<"$f"`]);
    expect(fs.readFileSync(denied[4])).toEqual(sandboxFilter());
    expect(denied.slice(6, 9)).toEqual([probe.binary, "--seccomp", String(SECCOMP_FD)]);
    expect(sandboxFilterFile()).toBe(denied[4]);
    const allowed = bwrapArgv(
      { kind: "bwrap", binary: probe.binary, limits: { processes: 64, memoryBytes: 1 << 30, tmpBytes: 1 << 20, unixSockets: "allow" } },
      "/p",
      "true",
    );
    expect(allowed.slice(6, 9)).toEqual([probe.binary, "--seccomp", String(SECCOMP_FD)]);
    expect(fs.readFileSync(allowed[4])).toEqual(sandboxFilter(process.arch, "allow"));
    // cgroups too: the shell joins each one, then runs bubblewrap with the filter.
    const joined = bwrapArgv(
      {
        kind: "bwrap",
        binary: probe.binary,
        cgroups: ["/cg/pids", "/cg/memory"],
        limits: { processes: 64, memoryBytes: 1 << 30, tmpBytes: 1 << 20, unixSockets: "allow" },
      },
      "/p",
      "true",
    );
    expect(joined.slice(0, 5)).toEqual(["/bin/sh", "-c", expect.stringContaining('echo $$ > "$1/cgroup.procs"'), "yolo-host", allowed[4]]);
    expect(joined.slice(5, 11)).toEqual(["2", "/cg/pids", "/cg/memory", probe.binary, "--seccomp", String(SECCOMP_FD)]);
  });
});

describe("bubblewrap's trial applies the seccomp filter", () => {
  // The real bwrap behind a wrapper that refuses `--seccomp` as a bubblewrap built without it does.
  function noSeccompBwrap(ctx: { onTestFinished: Parameters<typeof tempDir>[0] }, real: string): string {
    const dir = tempDir(ctx.onTestFinished, "yolo-noseccomp-bwrap-");
    fs.writeFileSync(
      path.join(dir, "bwrap"),
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = --seccomp ] && { echo "bwrap: Unknown option --seccomp" >&2; exit 1; }; done\nexec ${real} "$@"\n`,
    );
    fs.chmodSync(path.join(dir, "bwrap"), 0o755);
    return dir;
  }

  it('a bwrap that cannot apply it fails the trial: "required" stops with the reason, "auto" runs without the sandbox and says why', async (ctx) => {
    requireTool(ctx, "bwrap", "building the sandbox");
    const real = probeBwrap(process.env.PATH);
    if (!real.available) return ctx.skip();
    // Control: this machine's bwrap applies the filter.
    expect(real.seccompFails).toBeUndefined();
    const dir = noSeccompBwrap(ctx, real.binary);
    const probe = probeBwrap(dir);
    expect(probe).toEqual({ available: true, binary: path.join(dir, "bwrap"), seccompFails: "bwrap: Unknown option --seccomp" });
    // The trial made without blocking says the same (its own PATH string, so a trial of its own).
    expect(await probeBwrapAsync(`${dir}${path.delimiter}`)).toEqual(probe);
    const root = tempDir(ctx.onTestFinished, "yolo-seccomp-trial-");
    const config = (sandbox: "auto" | "required", limits: object = {}) =>
      resolveConfig({ root, fileConfig: { sandbox, limits }, file: null, env: {}, flags: {} });
    expect(() => chooseSandbox(config("required"), { PATH: dir })).toThrow(/cannot apply yolo's seccomp filter.*Unknown option --seccomp/);
    const auto = chooseSandbox(config("auto"), { PATH: dir });
    expect(auto.sandbox.kind).toBe("none");
    expect(auto.notices.join("\n")).toMatch(/run without a sandbox: .*cannot apply yolo's seccomp filter.*sandboxUnixSockets/);
    // With UNIX sockets allowed no filter is passed, so the same bwrap sandboxes.
    expect(chooseSandbox(config("required", { sandboxUnixSockets: "allow" }), { PATH: dir }).sandbox.kind).toBe("bwrap");
  });
});
