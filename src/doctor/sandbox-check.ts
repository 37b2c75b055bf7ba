import { probeBwrap, probeFor } from "../exec/sandbox.js";
import { privilegeSummary } from "../exec/sandbox-privileges.js";
import { sandboxFilterSupported } from "../exec/seccomp.js";
import type { CheckResult, DoctorCheck } from "./types.js";

/** Whether commands and gates can run in bubblewrap, against the configured `sandbox` mode. */
export const sandboxCheck: DoctorCheck = {
  id: "sandbox",
  async run({ config, env }): Promise<CheckResult[]> {
    const title = "sandbox";
    if (config.sandbox === "off")
      return [
        {
          id: "sandbox",
          title,
          status: "warn",
          detail: 'sandbox is "off": commands run unconfined',
          fix: 'Set sandbox: "auto" to use bubblewrap where it works.',
        },
      ];
    const probe = probeFor(probeBwrap(env.PATH), config.limits.sandbox?.unixSockets);
    if (probe.available)
      return [
        {
          id: "sandbox",
          title,
          status: "ok",
          detail: `bubblewrap works (${probe.binary}): ${privilegeSummary(probe.binary, sandboxFilterSupported() && probe.seccompFails === undefined)}`,
        },
      ];
    const fix = probe.fix
      ? `${probe.fix[0].toUpperCase()}${probe.fix.slice(1)}.`
      : "Install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces.";
    // "required" (older name "bwrap") stops a run where bubblewrap cannot sandbox: a failure, not a caveat.
    if (config.sandbox === "required" || config.sandbox === "bwrap")
      return [{ id: "sandbox", title, status: "fail", detail: `sandbox is "${config.sandbox}" but ${probe.reason}`, fix }];
    return [{ id: "sandbox", title, status: "warn", detail: `commands would run without a sandbox: ${probe.reason}`, fix }];
  },
};
