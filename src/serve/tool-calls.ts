import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readTranscript } from "../store/artifacts.js";

/** One tool call an agent made, as its transcript recorded it, with whether the tool answered ok. */
export interface ToolCallLine {
  node: string;
  name: string;
  args: string;
  ok: boolean | null;
}

/** Characters of a call's arguments shown (a write_file's whole content is in the diff, not here). */
const ARGS_SHOWN = 200;

/**
 * The tool calls of a thread, per agent node, from the transcripts its runs wrote (`<thread dir>/transcripts/`,
 * src/store/artifacts.ts); none when the folder is on another machine. Read with the store's own reader.
 */
export function readToolCalls(threadDir: string): ToolCallLine[] {
  let files: string[];
  try {
    files = readdirSync(join(threadDir, "transcripts")).filter((f) => f.endsWith(".jsonl"));
  } catch {
    return [];
  }
  return files.sort().flatMap((f) => callsOf(f.slice(0, -".jsonl".length), readTranscript(threadDir, f.slice(0, -".jsonl".length))));
}

type Entry = { role?: unknown; tool_calls?: unknown; tool_call_id?: unknown; ok?: unknown };

function callsOf(node: string, entries: object[]): ToolCallLine[] {
  const outcome = new Map<string, boolean>();
  for (const e of entries as Entry[]) if (e.role === "tool" && typeof e.tool_call_id === "string") outcome.set(e.tool_call_id, e.ok === true);
  return (entries as Entry[]).flatMap((e) => {
    if (e.role !== "ai" || !Array.isArray(e.tool_calls)) return [];
    return (e.tool_calls as { id?: unknown; name?: unknown; args?: unknown }[]).map((c) => {
      const args = typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? "");
      return {
        node,
        name: String(c.name ?? "?"),
        args: args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args,
        ok: typeof c.id === "string" ? (outcome.get(c.id) ?? null) : null,
      };
    });
  });
}
