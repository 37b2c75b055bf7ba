import { databaseCheck } from "./database-check.js";
import { endpointCheck } from "./endpoint-check.js";
import { gatesCheck } from "./gates-check.js";
import { gitCheck } from "./git-check.js";
import { instructionsCheck } from "./instructions-check.js";
import { mcpCheck } from "./mcp-check.js";
import { sandboxCheck } from "./sandbox-check.js";
import { toolchainCheck } from "./toolchain-check.js";
import type { CheckResult, DoctorCheck, DoctorContext } from "./types.js";

/** Every check `yolo doctor` runs, in order. Add a check by appending it here. */
export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  endpointCheck,
  sandboxCheck,
  gitCheck,
  databaseCheck,
  gatesCheck,
  toolchainCheck,
  mcpCheck,
  instructionsCheck,
];

/** The facts of a doctor run; `ok` is true when nothing failed, i.e. a run can work. */
export interface DoctorReport {
  ok: boolean;
  results: CheckResult[];
}

/** Runs the checks (the endpoint's in sequence, the local ones alongside) and says whether a run can work. */
export async function runDoctor(ctx: DoctorContext, checks: readonly DoctorCheck[] = DOCTOR_CHECKS): Promise<DoctorReport> {
  const groups = await Promise.all(
    checks.map((check) =>
      check
        .run(ctx)
        .catch((error: unknown): CheckResult[] => [
          { id: check.id, title: check.id, status: "fail", detail: `the check itself failed: ${(error as Error).message}` },
        ]),
    ),
  );
  const results = groups.flat();
  return { ok: results.every((r) => r.status !== "fail"), results };
}

export type { CheckResult, CheckStatus, DoctorCheck, DoctorContext } from "./types.js";
