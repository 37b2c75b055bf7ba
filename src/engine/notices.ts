import type { NoticeFact } from "../events/facts.js";
import { noGateWarning } from "../gates/no-gate.js";
import { untrustedHooksNotice } from "../hooks/setup.js";
import { textCallsNotice } from "../agents/runner.js";

/** How a front end words a notice whose advice names its commands or options (the CLI: src/cli/wording/notice-text.ts). */
export type NoticeWords = (fact: NoticeFact) => string;

/** A notice in the words of the front end that started the run, else in the engine's neutral words. */
export function sayNotice(fact: NoticeFact, words?: NoticeWords): string {
  if (words) return words(fact);
  if (fact.kind === "no-gate") return noGateWarning(fact.reason);
  return fact.kind === "text-tool-calls" ? textCallsNotice(fact) : untrustedHooksNotice(fact);
}
