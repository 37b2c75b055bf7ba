import type { CheckResult, DoctorReport } from "../../doctor/checks.js";
import { loadResolvedConfig } from "../load-config.js";
import { wordedCheck } from "../wording/doctor-fix.js";

/** Longest any network probe of the doctor may take, whatever model.timeoutS says: the doctor answers in seconds. */
const DOCTOR_PROBE_TIMEOUT_S = 30;

const MARK: Record<CheckResult["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", skip: "skip" };

/**
 * `yolo doctor [--json]`: checks the configured endpoint and model, the sandbox, git, the database and the gates,
 * and prints what to change for each failure. Exit 0 when a run can work (warnings allowed), 1 when a check failed.
 */
export async function doctorCommand(input: { cwd: string; json: boolean }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  const { runDoctor } = await import("../../doctor/checks.js");
  const found = await runDoctor({ config, env: process.env, timeoutS: Math.min(config.model.timeoutS, DOCTOR_PROBE_TIMEOUT_S) });
  const report = { ...found, results: found.results.map(wordedCheck) };
  if (input.json)
    process.stdout.write(`${JSON.stringify({ ok: report.ok, model: config.model.name, baseURL: config.model.baseURL, checks: report.results }, null, 2)}\n`);
  else process.stdout.write(table(report, config.model.name, config.model.baseURL));
  return report.ok ? 0 : 1;
}

// One row a check, the fix indented under a failed or warned one, and a last line saying whether a run can work.
function table(report: DoctorReport, model: string, baseURL: string | null): string {
  const width = Math.max(...report.results.map((r) => r.title.length));
  const lines = [`yolo doctor — model ${model} at ${baseURL ?? "https://api.openai.com/v1 (default)"}`, ""];
  for (const r of report.results) {
    lines.push(`${MARK[r.status]}  ${r.title.padEnd(width)}  ${r.detail}`);
    if (r.fix && r.status !== "ok") lines.push(`${" ".repeat(6 + width + 2)}→ ${r.fix}`);
  }
  const failed = report.results.filter((r) => r.status === "fail").length;
  lines.push(
    "",
    report.ok
      ? "A run can work with this setup."
      : `${failed} check${failed === 1 ? "" : "s"} failed: a run cannot work until ${failed === 1 ? "it is" : "they are"} fixed.`,
  );
  return `${lines.join("\n")}\n`;
}
