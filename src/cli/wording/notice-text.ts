import type { NoticeFact } from "../../events/facts.js";

/** A run's notice in the CLI's words: the command or flag that helps (`yolo hooks trust`, `--require-gate`). */
export function noticeText(fact: NoticeFact): string {
  switch (fact.kind) {
    case "hooks-untrusted":
      // What to do comes first: the live view cuts a long notice at its end, the plain view in its middle.
      return (
        `${fact.configFile} hooks are not trusted, so they do not run: read them, then \`yolo hooks trust\` ` +
        `(a pipeline on your own repository: YOLO_TRUST_PROJECT_HOOKS=1). They run in the agents' sandbox, or on your machine with your environment where they say \`host: true\`: ${fact.hooks}.`
      );
    case "text-tool-calls":
      return `${fact.node}: the model wrote its tool calls in its reply text (${fact.shape}) instead of as tool calls; yolo parsed them and checks them like native calls. Configure the server's tool-call parser to avoid this (see yolo doctor).`;
    case "no-gate":
      return `No gate: ${fact.reason}. Nothing but the agents' own verdicts decides whether the change works; the run will end "completed without a gate". Add a test script or \`gates\` in yolo.config.ts (requireGate: true / --require-gate refuses such runs).`;
  }
}
