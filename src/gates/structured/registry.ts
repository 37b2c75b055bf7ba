import type { Sandbox } from "../../exec/sandbox.js";
import { jestRunner } from "./jest.js";
import { nodeTestRunner } from "./node-test.js";
import { pytestRunner } from "./pytest.js";
import { openReportFolder, readReport, type ReportFolder } from "./report-folder.js";
import type { StructuredReading, StructuredRunner } from "./types.js";
import { vitestRunner } from "./vitest.js";

export type { StructuredReading, StructuredRunner } from "./types.js";

/** The runners yolo asks for a report beside their output; the first whose `command` recognizes the gate's wins. */
export const STRUCTURED_RUNNERS: StructuredRunner[] = [vitestRunner, jestRunner, nodeTestRunner, pytestRunner];

/** A gate run with a structured report asked for: what to run, what to add to its environment, where to read. */
export interface StructuredPlan {
  runner: string;
  command: string;
  env: Record<string, string>;
  folder: ReportFolder;
  /** The report's tests after the run; null when the runner wrote none that reads (then the output is parsed). */
  read(root: string): StructuredReading | null;
}

/**
 * The plan for a gate command a runner recognizes, with a fresh report folder bound into `sandbox`; null when none
 * does (the command runs as written and its output is parsed). The caller removes `folder` after reading.
 */
export function planStructured(command: string, scripts: Record<string, string>, env: NodeJS.ProcessEnv, sandbox: Sandbox | undefined): StructuredPlan | null {
  for (const runner of STRUCTURED_RUNNERS) {
    if (runner.command(command, scripts, "/tmp/probe") === null) continue;
    const folder = openReportFolder(sandbox, "report");
    const run = runner.command(command, scripts, folder.inside) ?? command;
    return {
      runner: runner.runner,
      command: run,
      env: runner.env?.(env, folder.inside) ?? {},
      folder,
      read(root) {
        const text = readReport(folder.host);
        if (text === null) return null;
        try {
          return runner.read(text, root);
        } catch {
          return null;
        }
      },
    };
  }
  return null;
}
