import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { currentRow, databaseExists, databaseName, loadInspect, loadStoredThread, openSession, type ThreadPosition } from "../../engine/api-light.js";
import { killedReason } from "../wording/run-words.js";
import { ConfigError } from "../../errors.js";
import { threadDiffstat } from "../../git/thread-change.js";
import { collectReport, type WaitingOn } from "../../report/data.js";
import { readRecord, type BaselineRecord } from "../../gates/baseline-record.js";
import { renderJunit } from "../../report/junit.js";
import { renderMarkdown } from "../../report/markdown.js";
import { resumeCommandText } from "../wording/resume-command.js";
import { loadResolvedConfig } from "../load-config.js";
import { locateArtifact, noDatabaseYet } from "../thread-home.js";
import { writeOutputFile } from "../write-output.js";
import { escapeControls } from "../../text/control-chars.js";

export const REPORT_FORMATS = ["markdown", "junit"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Bytes of a gate's log file a report carries for an attempt whose output is no longer in the state. */
const LOG_TAIL_BYTES = 4000;

/** `yolo report <thread> --format markdown|junit [--output file]`: a thread for a CI job summary, a PR comment, or a test viewer. */
export async function reportCommand(input: { cwd: string; thread: string; format: string; output?: string }): Promise<number> {
  const format = input.format as ReportFormat;
  if (!REPORT_FORMATS.includes(format)) throw new ConfigError(`Unknown report format "${input.format}"; use ${REPORT_FORMATS.join(" or ")}.`);
  const config = await loadResolvedConfig(input.cwd);
  if (!databaseExists(config)) throw noDatabaseYet(input.thread, databaseName(config));
  const session = await openSession(config);
  let text: string;
  try {
    const stored = await session.threads.get(input.thread);
    const row = stored && (await currentRow(session, stored, killedReason));
    const { values, position } = await (await loadInspect()).inspectThread(config, session, input.thread);
    const change = await threadDiffstat({ root: config.root, startCommit: row?.startCommit ?? null, branch: row?.branch ?? null });
    const data = collectReport({
      threadId: input.thread,
      row,
      values,
      waitingOn: waitingOn(position, (await loadStoredThread()).answerWords),
      diffstat: change.ok ? change.value : null,
      diffNote: change.ok ? null : change.note,
      price: config.model.price,
      readLog: (rel) => {
        const found = locateArtifact(config.root, rel, row);
        return "file" in found ? tail(found.file) : `(${found.missing})`;
      },
      baselineGates: values.gateBaseline?.file ? ((await readRecord<BaselineRecord>(values.gateBaseline.file))?.gates ?? null) : null,
    });
    // Both formats reach a terminal or a renderer: the model's control characters are shown, never acted on.
    text = escapeControls(format === "junit" ? renderJunit(data) : renderMarkdown(data, (fact) => resumeCommandText(fact)));
  } finally {
    await session.close();
  }
  if (input.output) {
    const file = isAbsolute(input.output) ? input.output : resolve(input.cwd, input.output);
    writeOutputFile(file, text);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

function waitingOn(position: ThreadPosition, answerWords: (answer: unknown) => string): WaitingOn | null {
  if (position.kind !== "waiting" && position.kind !== "answered") return null;
  const review = position.request.kind === "approval";
  return position.kind === "answered"
    ? { question: position.question, review, answered: answerWords(position.answer) }
    : { question: position.question, review };
}

function tail(file: string): string | null {
  try {
    const text = readFileSync(file, "utf8");
    return text.length > LOG_TAIL_BYTES ? `…${text.slice(-LOG_TAIL_BYTES)}` : text;
  } catch {
    return null;
  }
}
