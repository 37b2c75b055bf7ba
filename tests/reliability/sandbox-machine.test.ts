import { underCI } from "../helpers/requires.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { runShell } from "../../src/exec/run-shell.js";
import { probeBwrap, type BwrapSandbox, type Sandbox } from "../../src/exec/sandbox.js";
import { DEFAULT_SANDBOX_LIMITS, sandboxHiddenFolders } from "../../src/exec/sandbox-walls.js";
import { commandEnv } from "../../src/secrets/env.js";
import { attackHome, sandboxUsers, shellAs } from "../helpers/sandbox-users.js";

// The sandbox sees the project, not the machine. The home folder (credentials, tool
// configs) is empty, host UNIX sockets cannot be connected to (hidden folders, and a seccomp filter for the rest), commands get an allow-listed environment
// in CI and out, and processes, memory and /tmp are limited.
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-machine: bubblewrap is needed under CI: ${probe.reason}`);
const sandboxed = (probe.available ? it : it.skip) as typeof it;
const CANARY = "machineCanary0123456789xyz";

let base: string;
let home: string;
let root: string;
beforeAll(() => {
  // A home folder of its own under the real one (which the sandbox hides whole), holding credentials.
  home = fs.mkdtempSync(path.join(os.homedir(), ".yolo-walls-home-"));
  for (const [rel, text] of Object.entries({
    ".aws/credentials": `[default]\naws_secret_access_key = ${CANARY}\n`,
    ".config/gh/hosts.yml": `github.com:\n  oauth_token: ${CANARY}\n`,
    ".ssh/id_ed25519": `${CANARY}\n`,
  })) {
    fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    fs.writeFileSync(path.join(home, rel), text);
  }
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-machine-")));
  root = path.join(base, "repo");
  fs.mkdirSync(root);
  execFileSync("git", ["init", "-q"], { cwd: root });
});
afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(base, { recursive: true, force: true });
});

const sandbox = (extra: Partial<BwrapSandbox> = {}): Sandbox =>
  probe.available ? { kind: "bwrap", binary: probe.binary, hidden: sandboxHiddenFolders(home), limits: DEFAULT_SANDBOX_LIMITS, ...extra } : { kind: "none" };
const run = (command: string, sb: Sandbox, env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home }) =>
  runShell(command, { cwd: root, timeoutS: 60, env, capBytes: 50_000, sandbox: sb });
const carries = (output: string) =>
  [CANARY, [...CANARY].reverse().join(""), Buffer.from(CANARY).toString("base64").slice(0, 20)].some((f) => output.includes(f));

describe("the sandbox sees the project, not the machine", { timeout: 300_000 }, () => {
  sandboxed("the home folder is empty: its credentials reach neither the output nor the project", async () => {
    const commands = [
      "cat ~/.aws/credentials",
      "rev ~/.config/gh/hosts.yml",
      "base64 ~/.ssh/id_ed25519",
      `cat ${home}/.aws/credentials`,
      "cp ~/.aws/credentials notes.txt; cat notes.txt",
      "ls -la ~ ~/.aws; find ~ -type f | xargs cat",
      `find ${os.homedir()} -maxdepth 3 -type f -name credentials | xargs cat`,
      "grep -rs machineCanary ~ /run",
    ];
    const escapes: string[] = [];
    for (const command of commands) {
      const r = await run(command, sandbox());
      if (carries(r.output)) escapes.push(command);
      const notes = path.join(root, "notes.txt");
      if (fs.existsSync(notes) && carries(fs.readFileSync(notes, "utf8"))) escapes.push(`${command} (copied into the project)`);
    }
    // Control: without the sandbox the same home folder is readable (the test can fail).
    expect(carries((await run("cat ~/.aws/credentials", { kind: "none" })).output)).toBe(true);
    console.log(`sandbox-machine: home folder, ${commands.length} routes, ${escapes.length} escapes`);
    expect(escapes).toEqual([]);
  });

  sandboxed("host UNIX sockets in /run and in the home folder cannot be connected to", async () => {
    const folders = [fs.mkdtempSync(path.join("/run", "yolo-sock-")), fs.mkdtempSync(path.join(home, "sock-"))];
    const servers: net.Server[] = [];
    let connections = 0;
    try {
      const sockets = await Promise.all(
        folders.map(
          (dir) =>
            new Promise<string>((resolve) => {
              const file = path.join(dir, "agent.sock");
              const server = net.createServer((c) => {
                connections++;
                c.end("host says hi\n");
              });
              servers.push(server);
              server.listen(file, () => resolve(file));
            }),
        ),
      );
      const connect = (file: string) =>
        `node -e "const s=require('net').connect('${file}');s.on('data',d=>console.log('CONNECTED',String(d)));s.on('error',e=>console.log('ERR',e.code))"`;
      const escapes: string[] = [];
      for (const file of sockets) {
        const r = await run(connect(file), sandbox());
        if (r.output.includes("CONNECTED")) escapes.push(file);
      }
      expect(connections).toBe(0);
      // Control: outside the sandbox the same sockets answer.
      const control = await run(connect(sockets[0]), { kind: "none" });
      expect(control.output).toContain("CONNECTED");
      console.log(`sandbox-machine: host sockets, ${sockets.length} routes, ${escapes.length} escapes`);
      expect(escapes).toEqual([]);
    } finally {
      for (const s of servers) s.close();
      for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  sandboxed("host UNIX sockets the sandbox can see (the project, a /srv-like folder) cannot be connected to", async () => {
    // /var/tmp stands for /srv or /var/lib: a host folder outside the hidden ones, visible read-only in the sandbox.
    const folders = [fs.mkdtempSync(path.join(root, "sock-")), fs.mkdtempSync(path.join("/var/tmp", "yolo-srv-"))];
    const servers: net.Server[] = [];
    let connections = 0;
    try {
      const sockets = await Promise.all(
        folders.map(
          (dir) =>
            new Promise<string>((resolve) => {
              const file = path.join(dir, "docker.sock");
              const server = net.createServer((c) => {
                connections++;
                c.end("host says hi\n");
              });
              servers.push(server);
              server.listen(file, () => resolve(file));
            }),
        ),
      );
      const routes = (file: string) => [
        `node -e "const s=require('net').connect('${file}');s.on('data',d=>console.log('CONNECTED',String(d)));s.on('error',e=>console.log('ERR',e.code))"`,
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${file}'); print('CONNECTED', s.recv(64))"`,
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC); s.connect('${file}'); print('CONNECTED', s.recv(64))"`,
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.connect('${file}'); print('CONNECTED')"`,
      ];
      const escapes: string[] = [];
      let tries = 0;
      for (const file of sockets) {
        for (const command of routes(file)) {
          tries++;
          const r = await run(`${command} 2>&1`, sandbox());
          if (r.output.includes("CONNECTED")) escapes.push(command);
          expect(r.output).toMatch(/EACCES|Permission denied/);
        }
      }
      expect(connections).toBe(0);
      // Control: with limits.sandboxUnixSockets "allow" the same sockets answer from inside the sandbox.
      const allowed = sandbox({ limits: { ...DEFAULT_SANDBOX_LIMITS, unixSockets: "allow" } });
      for (const file of sockets) expect((await run(routes(file)[0], allowed)).output).toContain("CONNECTED");
      console.log(`sandbox-machine: visible host sockets, ${tries} routes, ${escapes.length} escapes`);
      expect(escapes).toEqual([]);
    } finally {
      for (const s of servers) s.close();
      for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  sandboxed("with UNIX sockets denied, socketpair still works: node's child processes and IPC, python's socketpair", async () => {
    const node = await run(
      `node -e "const cp=require('child_process');console.log(cp.execFileSync('echo',['EXEC-OK']).toString().trim());const c=cp.spawn(process.execPath,['-e','process.send(41)'],{stdio:['pipe','pipe','pipe','ipc']});c.on('message',m=>{console.log('IPC-OK',m+1)})" 2>&1`,
      sandbox(),
    );
    expect(node.output).toContain("EXEC-OK");
    expect(node.output).toContain("IPC-OK 42");
    const python = await run(`python3 -c "import socket; a,b=socket.socketpair(); a.send(b'PAIR-OK'); print(b.recv(7).decode())" 2>&1`, sandbox());
    expect(python.output).toContain("PAIR-OK");
    expect(
      (await run("python3 -c \"import socket; socket.socket(socket.AF_INET6); socket.socket(socket.AF_INET); print('INET-OK')\" 2>&1", sandbox())).output,
    ).toContain("INET-OK");
  });

  it("commands get an allow-listed environment in CI and out: credentials under unguessable names stay out", async () => {
    const hostile = {
      MYSQL_PWD: "mysqlPwdCanary0123",
      SLACK_WEBHOOK_URL: "https://hooks.slack.example/services/slackCanary0123",
      CI_JOB_JWT: "eyJjiJobJwtCanary0123",
      DISCORD_WEBHOOK: "https://discord.example/api/webhooks/discordCanary0123",
      STRIPE_SK_LIVE: "sk_live_stripeCanary0123",
    };
    const host = { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8", ...hostile };
    const escapes: string[] = [];
    let tries = 0;
    for (const ci of [{}, { CI: "true" }]) {
      const cfg = resolveConfig({ root, fileConfig: {}, file: null, env: ci, userConfig: { file: null, config: {} } });
      const env = commandEnv({ ...host, ...ci }, [], cfg.env.strict ? cfg.env.allow : null);
      for (const sb of [sandbox(), { kind: "none" as const }]) {
        const r = await run("env | rev; env", sb, env);
        for (const [name, value] of Object.entries(hostile)) {
          tries++;
          if (r.output.includes(value) || r.output.includes([...value].reverse().join("")))
            escapes.push(`${name} (${"CI" in ci ? "CI" : "no CI"}, ${sb.kind})`);
        }
        expect(r.output).toContain("LANG=C.UTF-8");
      }
    }
    console.log(`sandbox-machine: environment, ${tries} tries, ${escapes.length} escapes`);
    expect(escapes).toEqual([]);
  });

  sandboxed("processes are limited for root too where a pids cgroup can be made, and the cgroup goes afterwards", async (ctx) => {
    const pidsRoot = "/sys/fs/cgroup/pids";
    if (process.getuid?.() !== 0 || !fs.existsSync(path.join(pidsRoot, "cgroup.procs"))) return ctx.skip();
    const sb = sandbox({ limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 64 } });
    // As root RLIMIT_NPROC does not hold: only the cgroup stops the 200th background job.
    const forks = await run("for i in $(seq 200); do sleep 5 & done 2>&1 | head -3; echo DONE", sb);
    expect(forks.output).toMatch(/fork|Resource temporarily unavailable|Cannot/i);
    // Control: with a higher limit the same loop runs all of them.
    const roomy = await run(
      "for i in $(seq 200); do sleep 1 & done 2>&1 | head -3; echo DONE",
      sandbox({ limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 1024 } }),
    );
    expect(roomy.output).not.toMatch(/fork|Resource temporarily unavailable|Cannot/i);
    expect(roomy.output).toContain("DONE");
    const own =
      fs
        .readFileSync("/proc/self/cgroup", "utf8")
        .split("\n")
        .find((l) => l.split(":")[1] === "pids")
        ?.split(":")[2] ?? "/";
    const left = () => fs.readdirSync(path.join(pidsRoot, own)).filter((n) => n.startsWith(`yolo-${process.pid}-`));
    for (let i = 0; i < 40 && left().length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(left()).toEqual([]);
  });

  sandboxed("memory is limited for the whole command where a memory cgroup can be made: over it, the command stops with a note", async (ctx) => {
    const memoryRoot = "/sys/fs/cgroup/memory";
    if (process.getuid?.() !== 0 || !fs.existsSync(path.join(memoryRoot, "cgroup.procs"))) return ctx.skip();
    // Four processes of ~140 MB each (node itself and 100 MB written): each under RLIMIT_DATA, together over 256 MB.
    const hog = `for i in 1 2 3 4; do node -e "const b=Buffer.alloc(100<<20,1); console.log('HELD'); setTimeout(()=>{},3000)" & done; wait; echo DONE`;
    const over = await run(hog, sandbox({ limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 256 * 1024 ** 2 } }));
    expect(over.exitCode).toBeNull();
    expect(over.output).not.toContain("DONE");
    expect(over.output).toMatch(/memory limit of 256 MB \(limits\.sandboxMemoryMB\).*OOM kill/);
    // Control: under a limit the four fit in, all of them hold their memory and the command ends normally.
    const under = await run(hog, sandbox({ limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 1024 ** 3 } }));
    expect(under.output.match(/HELD/g)?.length).toBe(4);
    expect(under.output).toContain("DONE");
    expect(under.output).not.toContain("OOM kill");
    const own =
      fs
        .readFileSync("/proc/self/cgroup", "utf8")
        .split("\n")
        .find((l) => l.split(":")[1] === "memory")
        ?.split(":")[2] ?? "/";
    const left = () => fs.readdirSync(path.join(memoryRoot, own)).filter((n) => n.startsWith(`yolo-${process.pid}-`));
    for (let i = 0; i < 40 && left().length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(left()).toEqual([]);
  });

  sandboxed("/tmp, memory and processes are limited, and the command cannot raise the limits", async () => {
    const limits = { processes: 64, memoryBytes: 512 * 1024 ** 2, tmpBytes: 32 * 1024 ** 2 };
    const sb = sandbox({ limits });
    const tmp = await run("dd if=/dev/zero of=/tmp/big bs=1M count=64 2>&1; df -k /tmp | tail -1", sb);
    expect(tmp.output).toMatch(/No space left on device/);
    const memory = await run(`node -e "const b=[];for(let i=0;i<16;i++)b.push(Buffer.alloc(64<<20,1));console.log('ALLOCATED')" 2>&1`, sb);
    expect(memory.output).not.toContain("ALLOCATED");
    const raised = await run("ulimit -d unlimited 2>&1; ulimit -d", sb);
    expect(raised.output).toContain(String(limits.memoryBytes / 1024));
    // RLIMIT_NPROC: the kernel exempts root (root inside the sandbox's namespace is root's uid on the host, and has no
    // capability left to become another user there), so the forks are made by an ordinary user's yolo.
    const ordinary = sandboxUsers().find((user) => user.uid !== 0);
    if (!ordinary) return;
    const { home: userHome, cleanup } = attackHome(ordinary);
    try {
      const forks = shellAs(ordinary, "for i in $(seq 200); do sleep 2 & done 2>&1; wait", { cwd: userHome, home: userHome, sandbox: "bwrap", limits });
      expect(forks.output).toMatch(/fork|Resource temporarily unavailable|Cannot/i);
    } finally {
      cleanup();
    }
  });
});
