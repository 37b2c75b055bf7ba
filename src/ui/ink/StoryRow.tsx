import { Box, Text } from "ink";
import { formatCountShort } from "../format.js";
import { plural } from "../../text/plural.js";
import type { StoryView, StoryViewStatus, ToolCallView } from "../view-state.js";

export interface StoryRowProps {
  story: StoryView;
  /** The current spinner frame, shown while the story's agent runs. */
  spinner: string;
  /** Columns for the story id, the same for every story row so the titles line up. */
  idWidth: number;
}

// Columns for the title: the rest of an 80-column row (nested 4 deep) is the agent and its latest tool call.
export const STORY_TITLE_WIDTH = 22;

const MARKS: Record<StoryViewStatus, { mark: string; color?: string }> = {
  running: { mark: "·" },
  done: { mark: "✓", color: "green" },
  merged: { mark: "✓", color: "green" },
  failed: { mark: "✗", color: "red" },
  stopped: { mark: "■", color: "yellow" },
};

// "✓ write_file src/a.js (+3 −0)", "write_file src/a.js" in flight: a story's latest tool call.
function toolText(t: ToolCallView): string {
  if (t.ok === null) return `${t.tool} ${t.args}`.trimEnd();
  if (t.ok) return `✓ ${t.tool} ${t.summary || t.args}`.trimEnd();
  return `✗ ${t.tool}${t.args ? ` ${t.args}` : ""}${t.summary ? `: ${t.summary}` : ""}`;
}

// What a story's row says after its title: its agent and latest tool call while it runs, else its one-line status.
function detail(st: StoryView): string {
  if (st.agent) return `${st.agent} · ${st.tool ? toolText(st.tool) : "starting"}`;
  const files = st.filesChanged ? ` · ${plural(st.filesChanged, "file")}` : "";
  const tokens = st.tokens ? ` · ${formatCountShort(st.tokens)} tok` : "";
  switch (st.status) {
    case "merged":
      return `merged${st.conflicts ? ` (${plural(st.conflicts, "conflict")} resolved)` : ""}${files}${tokens}`;
    case "done":
      return `done, waiting to merge${files}${tokens}`;
    case "failed":
      return `failed${st.summary ? `: ${st.summary}` : ""}`;
    case "stopped":
      return "stopped; continues on resume";
    default:
      return "waiting for its agent";
  }
}

/** One story run in parallel: mark, id, title, then its agent and latest tool call, or how it ended — one line. */
export function StoryRow({ story, spinner, idWidth }: StoryRowProps) {
  const live = story.agent !== null;
  const { mark, color } = live ? { mark: spinner, color: "cyan" } : MARKS[story.status];
  return (
    <Box>
      <Box width={2} flexShrink={0}>
        <Text color={color}>{mark}</Text>
      </Box>
      <Box width={idWidth} flexShrink={0}>
        <Text wrap="truncate-end" bold={live}>
          {story.id}
        </Text>
      </Box>
      <Box width={STORY_TITLE_WIDTH} flexShrink={0} paddingRight={1}>
        <Text wrap="truncate-end" dimColor={!live}>
          {story.title || " "}
        </Text>
      </Box>
      <Box flexGrow={1} flexShrink={1}>
        <Text wrap="truncate-end" dimColor={!live} color={story.status === "failed" && !live ? "red" : undefined}>
          {detail(story)}
        </Text>
      </Box>
    </Box>
  );
}
