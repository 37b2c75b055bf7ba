import { cutWords, readInstructions } from "../prompt/instructions.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/** The project instruction files every agent is given (nothing is said when there are none). */
export const instructionsCheck: DoctorCheck = {
  id: "instructions",
  async run({ config }): Promise<CheckResult[]> {
    const read = readInstructions({ root: config.root, names: config.instructionFiles, ...(config.startDir ? { startDir: config.startDir } : {}) });
    if (!read.files.length && !read.refused.length) return [];
    const refused = read.refused.map((r) => `${r.file} not read (${r.reason})`);
    const cut = read.cut.length ? [`cut at 32 KiB from the root's side: ${cutWords(read.cut)}`] : [];
    const problems = [...refused, ...cut];
    return [
      {
        id: "instructions",
        title: "project instructions",
        status: problems.length ? "warn" : "ok",
        detail: [read.files.length ? `given to every agent: ${read.files.join(", ")}` : "none read", ...problems].join("; "),
        ...(problems.length
          ? { fix: "Replace a linked instruction file with a real file inside the project, and keep all of them under 32 KiB together." }
          : {}),
      },
    ];
  },
};
