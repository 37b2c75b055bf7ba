import { execFile } from "node:child_process";
import type { CheckResult, DoctorCheck } from "./types.js";

/** Whether the project is a git work tree: diffs, `--branch` and "changed files" need one. */
export const gitCheck: DoctorCheck = {
  id: "git",
  async run({ config }): Promise<CheckResult[]> {
    const out = await new Promise<{ ok: boolean; text: string }>((resolve) => {
      execFile("git", ["rev-parse", "--show-toplevel"], { cwd: config.root, timeout: 5000 }, (error, stdout, stderr) =>
        resolve(error ? { ok: false, text: (stderr || error.message).trim().split("\n")[0] } : { ok: true, text: stdout.trim() }),
      );
    });
    if (out.ok) return [{ id: "git", title: "git", status: "ok", detail: `repository at ${out.text}${projectNote(config)}` }];
    return [
      {
        id: "git",
        title: "git",
        status: "warn",
        detail: `not a git repository (${out.text})`,
        fix: "Run yolo inside a git repository (git init) so its changes can be diffed, reviewed and committed on a thread branch.",
        fixFact: { kind: "not-a-git-repository" },
      },
    ];
  },
};

/** Where the project sits in the repository, when that is not simply its top level. */
function projectNote(config: { root: string; gitRoot?: string }): string {
  return config.gitRoot ? `; the project is ${config.root}, whose own yolo.config.ts is nearer than the repository's top level` : "";
}
