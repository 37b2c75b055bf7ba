/** Stdout or stderr closed by the reader (`yolo … | head -1`): later writes are dropped, the command goes on. */
const CLOSED_PIPE_CODES = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

/**
 * Keeps a closed pipe from killing the process. Without a listener, the EPIPE of a write to a pipe whose reader
 * has gone is an uncaught 'error' event: a stack trace and exit 1 (the code for "gate failed") in the middle of
 * a run, with the thread left interrupted. Output is the run's side channel, not its purpose: the run goes on
 * with its events dropped and exits with its real outcome. Any other stream error is still thrown.
 */
export function tolerateClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (CLOSED_PIPE_CODES.has(error.code ?? "")) return;
      throw error;
    });
  }
}
