import type { Usage } from "../events/schema.js";
import { gateOutcome } from "./pages/gate-words.js";
import type { ThreadSource } from "./source.js";

/** What the list shows of a thread's state: its gate outcome, its usage and whether a saved answer awaits a resume. */
export interface ListReading {
  gate: string;
  usage: Usage | null;
  answered: boolean;
}

/**
 * The list's readings of thread states, kept between requests. Reading a state decodes the thread's checkpoints
 * (about 1.7 ms a thread), so each reading is kept with the version it was read at (the latest checkpoint and the
 * writes saved against it: a reply saved from the page adds one) and read again only when that version moved. A
 * source that cannot give a version cheaply (PostgreSQL) is read every time. Only what a row shows is kept, so the
 * cache stays small whatever the number of threads.
 */
export class ListReadings {
  private readonly kept = new Map<string, { version: string; reading: ListReading | null }>();

  constructor(private readonly source: Pick<ThreadSource, "state" | "stateVersion">) {}

  /** The thread's reading as it stands now; null when its state cannot be read (no checkpoint, unreadable). */
  async of(id: string): Promise<ListReading | null> {
    const version = await this.source.stateVersion(id);
    const kept = this.kept.get(id);
    if (version !== null && kept?.version === version) return kept.reading;
    const state = await this.source.state(id).catch(() => null);
    const reading = state
      ? { gate: gateOutcome(state.values.gateHistory), usage: state.values.usage ?? null, answered: state.position.kind === "answered" }
      : null;
    if (version === null) this.kept.delete(id);
    else this.kept.set(id, { version, reading });
    return reading;
  }
}
