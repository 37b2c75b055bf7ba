import { type FoundOption, type OptionSpec, scanOptions } from "./options.js";
import type { Nested } from "./nested.js";
import { baseName, shellQuote } from "./patterns.js";

/** How a wrapper program finds the command it runs. */
interface WrapperSpec extends OptionSpec {
  /** Options whose value is the command, as a shell string (`su -c`, `flock -c`, `script -c`, `env -S`). */
  shell?: readonly string[];
  /** Positional words before the command (`timeout DURATION`, `chroot DIR`, `flock FILE`). */
  skip?: number;
  /** The command words are joined and run by a shell (`watch`, `sg`, `parallel`, `eval`). */
  join?: boolean;
  /** Options that make it run argv after all (`watch -x`). */
  exec?: readonly string[];
  /** Options after which nothing is run (`command -v`, `ionice -p`). */
  noRun?: readonly string[];
  /** `NAME=value` words may come before the command (`env`). */
  assignments?: boolean;
  /** The positional words are not a command (`script FILE`): only a shell option runs one. */
  noArgv?: boolean;
  /** Without a command it starts a shell that reads its input (`unshare -r`, `script`, `chroot DIR`). */
  shellByDefault?: boolean;
}

/**
 * Programs that run another program, and how to find it. The policy looks through them to the real argv; those
 * whose argument is a shell string have it parsed as shell.
 */
const WRAPPERS: Record<string, WrapperSpec> = {
  env: { value: "uCS", long: ["unset", "chdir", "split-string"], shell: ["-S", "--split-string"], assignments: true },
  nice: { value: "n", long: ["adjustment"] },
  nohup: {},
  setsid: {},
  time: { value: "fo", long: ["format", "output"] },
  command: { noRun: ["-v", "-V"] },
  builtin: {},
  exec: { value: "a" },
  timeout: { value: "ks", long: ["kill-after", "signal"], skip: 1 },
  stdbuf: { value: "ioe", long: ["input", "output", "error"] },
  xargs: { value: "adELInPs", long: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"] },
  flock: { value: "wEc", long: ["timeout", "wait", "conflict-exit-code", "command"], shell: ["-c", "--command"], skip: 1 },
  script: {
    value: "BcEIOmoT",
    long: ["log-io", "command", "echo", "log-in", "log-out", "logging-format", "output-limit", "log-timing"],
    shell: ["-c", "--command"],
    noArgv: true,
    shellByDefault: true,
  },
  strace: { value: "abeIoOpPsSuXE", long: ["trace", "signal", "output", "attach", "string-limit", "user", "env"] },
  ltrace: { value: "aeEnoOpsuxXAD", long: ["output", "library"] },
  unshare: { value: "SGRw", long: ["setuid", "setgid", "root", "wd", "propagation", "setgroups", "map-user", "map-group"], shellByDefault: true },
  watch: { value: "nq", long: ["interval"], join: true, exec: ["-x", "--exec"] },
  ionice: { value: "cnpPu", long: ["class", "classdata", "pid", "pgid", "uid"], noRun: ["-p", "-P", "-u", "--pid", "--pgid", "--uid"] },
  chroot: { long: ["userspec", "groups"], skip: 1, shellByDefault: true },
  busybox: {},
  doas: { value: "uC" },
  sudo: { value: "ugCDhpRrtTU", long: ["user", "group", "close-from", "chdir", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user"] },
  su: {
    value: "sgGwc",
    long: ["shell", "group", "supp-group", "whitelist-environment", "command", "session-command"],
    shell: ["-c", "--command", "--session-command"],
    noArgv: true,
    shellByDefault: true,
  },
  runuser: {
    value: "ugGswc",
    long: ["user", "group", "supp-group", "shell", "whitelist-environment", "command", "session-command"],
    shell: ["-c", "--command", "--session-command"],
    shellByDefault: true,
  },
  parallel: {
    value: "jSadEIlLnNsX",
    long: ["jobs", "sshlogin", "arg-file", "delimiter", "eof", "replace", "max-args", "max-lines", "max-chars", "tmpdir", "joblog", "results"],
    join: true,
  },
  sg: { skip: 1, join: true, shellByDefault: true },
  chrt: { skip: 1, noRun: ["-p", "--pid"] },
  taskset: { skip: 1, noRun: ["-p", "--pid"] },
  prlimit: { value: "p", long: ["pid"] },
  nsenter: { value: "tSGwr", long: ["target", "setuid", "setgid", "wd", "root"], shellByDefault: true },
  setpriv: {},
  faketime: { value: "f", skip: 1 },
  fakeroot: { value: "lsi", long: ["lib", "faked"] },
  eatmydata: {},
  catchsegv: {},
  numactl: { value: "CNmpiP", long: ["physcpubind", "cpunodebind", "membind", "preferred", "interleave"] },
  cgexec: { value: "g" },
  firejail: {},
  "systemd-run": { value: "pMuHEd", long: ["unit", "property", "machine", "setenv", "working-directory", "description", "uid", "gid", "slice", "nice"] },
  "dbus-run-session": { long: ["config-file", "dbus-daemon"] },
  "ssh-agent": { value: "aEtPO" },
  "xvfb-run": { value: "nsfe", long: ["server-num", "server-args", "auth-file", "error-file"] },
  valgrind: {},
  nocache: {},
  caffeinate: { value: "tw" },
  gtimeout: { value: "ks", long: ["kill-after", "signal"], skip: 1 },
  eval: { join: true },
  "cross-env": { assignments: true },
};

/**
 * What a wrapper runs (`env X=1 npm test` → `npm test`, `watch curl x` → the shell string `curl x`), or null when
 * argv is no wrapper. An empty list: it runs nothing (`command -v curl`, `nohup` alone).
 */
export function unwrap(argv: string[], flags: number[] = []): Nested[] | null {
  const name = baseName(argv[0]);
  if (!Object.hasOwn(WRAPPERS, name)) return null;
  const spec = WRAPPERS[name];
  if (name === "eval") return [{ kind: "shell", script: argv.slice(1).join(" ") }];
  let { index, options } = scanOptions(argv, 1, spec);
  const fromOption = shellOption(options, spec, argv.slice(index));
  if (fromOption) return [fromOption];
  if (options.some((o) => spec.noRun?.includes(o.name))) return [];
  if (spec.assignments) while (index < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[index])) index++;
  index += spec.skip ?? 0;
  if (spec.skip && spec.shell?.includes(argv[index])) return [{ kind: "shell", script: argv[index + 1] ?? "" }];
  if (spec.skip) {
    // Options may follow the skipped word (`flock FILE -n cmd`): read them too.
    const more = scanOptions(argv, index, spec);
    index = more.index;
  }
  // A shell reading this command's input: checked as `sh` is (a pipe into it is refused).
  if (spec.shellByDefault && (spec.noArgv || index >= argv.length)) return [{ kind: "argv", argv: ["sh"], inherit: true }];
  if (spec.noArgv || index >= argv.length) return [];
  const rest = argv.slice(index);
  if (name === "parallel") {
    const end = rest.findIndex((w) => /^:::+\+?$/.test(w));
    const words = end < 0 ? rest : rest.slice(0, end);
    return words.length ? [{ kind: "shell", script: words.join(" ") }] : [];
  }
  if (spec.join && !options.some((o) => spec.exec?.includes(o.name))) return [{ kind: "shell", script: rest.join(" ") }];
  return [{ kind: "argv", argv: rest, flags: flags.slice(index), inherit: name !== "xargs" }];
}

// A shell-string option (`-c 'cmd'`); for `env -S`, the split string with the remaining arguments after it.
function shellOption(options: FoundOption[], spec: WrapperSpec, rest: string[]): Nested | null {
  const found = options.find((o) => spec.shell?.includes(o.name));
  if (!found) return null;
  const tail = found.name === "-S" || found.name === "--split-string" ? rest.map(shellQuote).join(" ") : "";
  return { kind: "shell", script: `${found.value ?? ""} ${tail}`.trim() };
}
