import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeBwrap } from "../../src/exec/sandbox.js";
import { underCI } from "../helpers/requires.js";
import { asUser, attackHome, giveTo, pathFor, type SandboxUser, sandboxUsers, shellsAs } from "../helpers/sandbox-users.js";

// A sandboxed command cannot change its mounts, hold a capability or read the keyrings, whoever starts yolo. As root,
// bubblewrap used to stay in the host's user namespace with every capability but one: `umount -l` showed the real
// home folder, `mount -o remount,rw` let a command plant a fsmonitor in ~/.gitconfig and .git/config (run by the user's
// next `git status`), and `keyctl` read the user's keys. Each attack runs in the sandbox as root and as an ordinary
// user (runShell from the built dist/, as run_command runs it), and each has a control run that shows its check can
// see the escape when nothing stops it.
const probe = probeBwrap(process.env.PATH);
if (!probe.available && underCI()) throw new Error(`sandbox-privileges: bubblewrap is needed under CI: ${probe.reason}`);
const CANARY = "privCanarySecret0123456789";
const KEY_SECRET = "privKeyringSecret0123456789";
const RAN = "ATTACK-STARTED";
const GITCONFIG = "[user]\n\tname = someone\n";

/** One attack's world: a project (a git repository with a secret file), a home folder with credentials, a marker path. */
interface World {
  root: string;
  home: string;
  marker: string;
  user: SandboxUser;
}

/** What an attack tries, and how to tell it got through (`control`: how to run it so that it does, to prove the check). */
interface Attack {
  name: string;
  command: (w: World) => string;
  escaped: (w: World, output: string) => boolean;
  control: { sandbox: "none" | "bwrap-home-shown"; command?: (w: World) => string; rootOnly?: boolean };
}

const fsmonitor = (w: World) => `[core]\\n\\tfsmonitor = touch ${w.marker}; false\\n`;
const carries = (output: string, secret: string) => output.includes(secret) || output.includes([...secret].reverse().join(""));

// The user's next `git status` in the project, with the attacked home folder: did it run a planted command?
function gitStatusRanPayload(w: World): boolean {
  const argv = [...asUser(w.user), "git", "status", "--short"];
  try {
    execFileSync(argv[0], argv.slice(1), { cwd: w.root, env: { PATH: pathFor(w.user), HOME: w.home }, stdio: "ignore" });
  } catch {
    // a failing git status still had its chance to run the payload
  }
  return fs.existsSync(w.marker);
}

const ATTACKS: Attack[] = [
  {
    name: "umount the hidden home folder, then read its credentials",
    command: () => `for d in /root /home "$HOME"; do umount -l "$d"; done 2>&1; cat "$HOME/.aws/credentials"`,
    escaped: (_w, output) => carries(output, CANARY),
    control: { sandbox: "bwrap-home-shown", command: () => `cat "$HOME/.aws/credentials"` },
  },
  {
    name: "remount / writable, then plant a fsmonitor in ~/.gitconfig",
    command: (w) =>
      `for d in /root /home "$HOME"; do umount -l "$d"; done 2>/dev/null; mount -o remount,bind,rw / 2>&1; printf '${fsmonitor(w)}' >> "$HOME/.gitconfig"`,
    escaped: (w) => fs.readFileSync(path.join(w.home, ".gitconfig"), "utf8") !== GITCONFIG || gitStatusRanPayload(w),
    control: { sandbox: "none" },
  },
  {
    name: "remount the project's .git writable, then set core.fsmonitor",
    command: (w) => `mount -o remount,bind,rw "$PWD/.git" 2>&1; git config core.fsmonitor "touch ${w.marker}; false"`,
    escaped: (w) => fs.readFileSync(path.join(w.root, ".git/config"), "utf8").includes("fsmonitor") || gitStatusRanPayload(w),
    control: { sandbox: "none" },
  },
  {
    name: "umount a secret file's mask, then read it",
    command: () => `umount -l "$PWD/.env.local" 2>&1; cat .env.local`,
    escaped: (_w, output) => carries(output, CANARY),
    control: { sandbox: "none", command: () => "cat .env.local" },
  },
  {
    name: "mount a new file system over the project's git dir",
    command: () =>
      `mkdir -p /tmp/g && cp -r .git/. /tmp/g/ && printf '[core]\\n\\tbare = false\\n' >> /tmp/g/config && mount --bind /tmp/g "$PWD/.git" 2>&1 && echo MOUNTED-OK`,
    escaped: (_w, output) => output.includes("MOUNTED-OK"),
    control: { sandbox: "none", command: () => "echo MOUNTED-OK" },
  },
  {
    name: "pivot_root into a new root",
    command: () => `mkdir -p /tmp/nr/old && mount --bind /tmp/nr /tmp/nr 2>&1; cd /tmp/nr && pivot_root . old 2>&1 && echo PIVOT-OK`,
    escaped: (_w, output) => output.includes("PIVOT-OK"),
    control: { sandbox: "none", command: () => "echo PIVOT-OK" },
  },
  {
    name: "a nested user namespace to regain capabilities, then umount the home folder",
    command: () => `unshare -Urm sh -c 'for d in /root /home "$HOME"; do umount -l "$d"; done; cat "$HOME/.aws/credentials"; echo NESTED-OK' 2>&1`,
    escaped: (_w, output) => output.includes("NESTED-OK") || carries(output, CANARY),
    control: { sandbox: "none", command: () => `unshare -Urm sh -c 'echo NESTED-OK' 2>&1` },
  },
  {
    name: "hold a capability",
    command: () => "grep CapEff /proc/self/status",
    escaped: (_w, output) => /CapEff:\s*0*[1-9a-f]/.test(output),
    // An ordinary user holds none outside the sandbox either: only root's control can show one.
    control: { sandbox: "none", rootOnly: true },
  },
  {
    name: "read the session and user keyrings",
    command: () => "keyctl print %user:yolo-priv-s 2>&1; keyctl print %user:yolo-priv-u 2>&1; keyctl show @s 2>&1",
    escaped: (_w, output) => carries(output, KEY_SECRET),
    control: { sandbox: "none" },
  },
];

// A fresh world for one run of one attack, owned by `user`.
function world(user: SandboxUser): World & { cleanup: () => void } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-priv-")));
  const root = path.join(base, "repo");
  fs.mkdirSync(root);
  execFileSync("git", ["init", "-q"], { cwd: root });
  fs.writeFileSync(path.join(root, ".env.local"), `API_TOKEN=${CANARY}\n`);
  fs.writeFileSync(path.join(root, "README.md"), "# p\n");
  const { home, cleanup } = attackHome(user);
  fs.mkdirSync(path.join(home, ".aws"));
  fs.writeFileSync(path.join(home, ".aws/credentials"), `[default]\naws_secret_access_key = ${CANARY}\n`);
  fs.writeFileSync(path.join(home, ".gitconfig"), GITCONFIG);
  giveTo(user, base);
  giveTo(user, home);
  return {
    root,
    home,
    marker: path.join(base, "payload-ran"),
    user,
    cleanup: () => {
      cleanup();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

type Way = "bwrap" | "bwrap-home-shown" | "none";
const KEYS = { session: ["yolo-priv-s", KEY_SECRET] as [string, string], user: ["yolo-priv-u", KEY_SECRET] as [string, string] };

// Each attack in each way, in a fresh world of its own: the sandbox's answer (escaped or not) and the output, for the
// message. All of one user's tries run in one Node process (shellsAs: Node and yolo's modules load once), each its
// own runShell in its own world, in one keyring session holding the keys.
function attempts(user: SandboxUser, tries: Array<{ attack: Attack; sandbox: Way; command?: (w: World) => string }>) {
  const worlds = tries.map(() => world(user));
  try {
    // The sentinel shows the command really ran: a sandbox that fails to start would pass every check.
    const jobs = tries.map((t, i) => ({
      command: `echo ${RAN}; ${(t.command ?? t.attack.command)(worlds[i])}`,
      cwd: worlds[i].root,
      home: worlds[i].home,
      sandbox: t.sandbox,
    }));
    return shellsAs(user, jobs, KEYS).map((r, i) => ({ escaped: tries[i].attack.escaped(worlds[i], r.output), output: r.output, ran: r.output.includes(RAN) }));
  } finally {
    for (const w of worlds) w.cleanup();
  }
}

const users = probe.available ? sandboxUsers() : [];

describe.skipIf(!probe.available)("no sandboxed command changes its mounts, holds a capability or reads a keyring", { timeout: 300_000 }, () => {
  for (const user of users) {
    it(`as ${user.label}: ${ATTACKS.length} attacks, 0 escapes; each control shows its check sees an escape`, () => {
      const escapes: string[] = [];
      const blindChecks: string[] = [];
      const controlled = ATTACKS.filter((attack) => !(attack.control.rootOnly && user.uid !== 0));
      const tried = attempts(user, [
        ...ATTACKS.map((attack) => ({ attack, sandbox: "bwrap" as const })),
        ...controlled.map((attack) => ({ attack, sandbox: attack.control.sandbox, command: attack.control.command })),
      ]);
      ATTACKS.forEach((attack, i) => {
        if (!tried[i].ran) blindChecks.push(`${attack.name}: the sandboxed command did not run:\n${tried[i].output}`);
        if (tried[i].escaped) escapes.push(`${attack.name}:\n${tried[i].output}`);
      });
      controlled.forEach((attack, i) => {
        const control = tried[ATTACKS.length + i];
        if (!control.escaped) blindChecks.push(`${attack.name} (control, ${attack.control.sandbox}):\n${control.output}`);
      });
      console.log(`sandbox-privileges: as ${user.label}, ${ATTACKS.length} attacks, ${escapes.length} escapes`);
      expect(blindChecks).toEqual([]);
      expect(escapes).toEqual([]);
    });
  }
});
