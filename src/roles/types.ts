import type { z } from "zod";
import type { GateResult } from "../events/schema.js";
import type { GateVerdictUpdate } from "../gates/verdict.js";
import type { PipelineStateType, PipelineUpdate, Verdict } from "../state/pipeline.js";

/**
 * A built-in role's id, or `custom` for an agent of a user-defined workflow: the keys of BUILT_IN_ROLES (catalog.ts,
 * which the type checker holds to exactly these), each a file src/roles/<id>.ts holding its record.
 */
export type AnyRole = "analyst" | "pm" | "architect" | "custom" | "dev" | "tea";

/** What a role does that the engine must know, beyond its handoff: the engine asks these, never a role's id. */
export interface RoleCapabilities {
  /** Its node builds pm's stories in parallel, one run of its agent per story (the story node), then merges them. */
  fansOutStories?: boolean;
  /** It judges the gates: yolo runs a node's `gates` before it, and it is never on a fix attempt itself. */
  judgesGates?: boolean;
  /** A question whose asker a checkpoint does not name is credited to it (the first role that may ask). */
  asksHuman?: boolean;
  /** It writes code: the workspace commits its iteration (`--branch`). */
  writesCode?: boolean;
}

/** The escalation fields every handoff accepts besides its role's own. */
export interface Escalation {
  escalate_to_human?: boolean;
  question?: string;
}

/** A handoff as the role's fields validate it, plus escalation (any fields: a plain record, for roles looked up by id). */
export type HandoffOf<F extends z.ZodRawShape> = string extends keyof F ? Record<string, unknown> & Escalation : z.output<z.ZodObject<F>> & Escalation;

/** What a role's `write` needs besides the handoff: where it runs and what the node saw. */
export interface RoleWriteContext {
  node: string;
  state: PipelineStateType;
  /** The gate results yolo ran for this node just now (a node with `gates`), or null. */
  gates: GateResult[] | null;
  /** Files the agent's tools really wrote. */
  written: string[];
  /**
   * Files git says the thread changed so far (its start against the work tree), asked for roles that write code when
   * the agent names a file its tools did not write; null when not asked or git cannot tell (no repository). What an
   * agent claims it changed is checked against it.
   */
  changed: ReadonlySet<string> | null;
  root: string;
  /**
   * The gate verdict (gates/verdict.ts) with this judge's word: the block, its fix attempt and, for gates this node ran,
   * their record (history, the approved gate change, the rulings). A role asks; it never decides a block itself.
   */
  gateVerdict: (judge: Verdict | null) => GateVerdictUpdate;
}

/** The state a handoff writes and the one-line summary the views, hooks and `node.completed` show. */
export interface RoleOutput {
  update: PipelineUpdate;
  summary: string;
}

/**
 * The pieces of earlier work a node brief can show, in the order they appear (the prompt layer renders them).
 * `fix-attempt` shows only while the gate blocks; the others only when there is something to show.
 */
export const BRIEF_SECTIONS = ["requirements", "stories", "decisions", "notes", "fix-attempt", "change", "files-changed", "gate-results"] as const;
export type BriefSection = (typeof BRIEF_SECTIONS)[number];

/**
 * What a review step lends a role: YAML writing and an edit read back against the role's own handoff schema. Given,
 * not imported, so a role's record loads without zod or YAML (`yolo show` and `yolo history` read records too).
 */
export interface ReviewKit<F extends z.ZodRawShape = z.ZodRawShape> {
  yaml(value: unknown): string;
  /** An edited YAML artifact checked against the role's handoff fields: the handoff it stands for, or why not. */
  edit(content: string): { handoff: HandoffOf<F> } | { error: string };
}

/** How a human review step shows a role's output and takes an edited one back. */
export interface RoleReview<F extends z.ZodRawShape = z.ZodRawShape> {
  /** The artifact shown to the reviewer, in the same format an edit must come back in. */
  artifact(state: PipelineStateType, node: string, kit: ReviewKit<F>): string;
  /** The state update an edited artifact makes, or why it cannot be used (the thread then keeps waiting). */
  apply(content: string, node: string, kit: ReviewKit<F>): { update: PipelineUpdate } | { error: string };
}

/** One titled block of a role's output in a thread, as `yolo show` prints it (text) and the report (Markdown). */
export interface OutputSection {
  /** `yolo show`'s heading, printed as `Title:`. */
  title: string;
  /** The lines under it in `yolo show`; none: `yolo show` leaves the section out. */
  text: string[];
  /** The section in the report: a heading line (`### Stories`) and the Markdown lines under it; absent: not in the report. */
  markdown?: { heading: string; lines: string[] };
}

/** The zod namespace a role's `fields` are built with (handed in: see ReviewKit). */
export type Zod = typeof z;

/**
 * A role, in one record: what the engine must know of it (its capabilities), its place in the default pipeline and
 * its shipped agent file, what its agent must hand off, what that writes to the state, how it is briefed, reviewed,
 * shown (`yolo show`, the report) and summed up (`yolo history`). Each built-in role is one file under src/roles/
 * holding its record; a user role's record is built from an agent file's `handoff:` fields (user-role.ts).
 */
export interface RoleRecord<F extends z.ZodRawShape = z.ZodRawShape> extends RoleCapabilities {
  /** `analyst` … `tea`, `custom`, or the agent id of a user role. */
  id: string;
  /** How the briefs name it in words when no node is known (the judge's `Test architect`); absent: its id. */
  title?: string;
  /** The built-in role whose per-role settings apply (`context.rolePermissions`, `commands.roles`): itself, or custom. */
  kind: AnyRole;
  /** A step of the default pipeline (in the catalog's order); `custom` and user roles are not. */
  pipeline?: boolean;
  /** A pipeline step that runs only when this workflow condition holds; otherwise the pipeline goes past it. */
  runsWhen?: string;
  /** The shipped agent file that plays it (under the package's `agents/`), for a pipeline role. */
  defaultAgent?: string;
  /**
   * The role's handoff fields (required unless the agent escalates), built with the zod it is given; built once per
   * record by handoff-schema.ts (`handoffFields`).
   */
  fields(z: Zod): F;
  /** Bound on the JSON size of the declared outputs, checked with the fields (user roles: checkpoints stay small). */
  maxOutputBytes?: number;
  /** The state a handoff writes, and its one-line summary. */
  write(handoff: HandoffOf<F>, ctx: RoleWriteContext): RoleOutput;
  brief: {
    /** Which earlier work the node brief shows this role. */
    reads: readonly BriefSection[];
    /** Which earlier work its handoff provides: another role's brief says that work came from this role. */
    writes?: readonly BriefSection[];
    /** What it must deliver in its handoff, in words (the schema enforces it). */
    expected: string;
  };
  review: RoleReview<F>;
  /** One line saying what the node's checkpoint holds (`yolo history`). */
  history(state: PipelineStateType, node: string): string;
  /**
   * How its output is shown by `yolo show` and the report, read from a thread's state (empty when it has not run).
   * The live and plain views show the one-line summary `write` returns, in `node.completed`.
   */
  display(state: PipelineStateType): OutputSection[];
}

/**
 * Declares a role with its handoff typed from its fields, so `write` needs no casts, keeping its id and place in the
 * pipeline as literal types (the catalog's ids are typed from them). The registry holds roles of any fields; the
 * schema has already checked a handoff against these fields before `write` sees it, which is why the one widening
 * below is sound.
 */
export function defineRole<const Id extends string, F extends z.ZodRawShape, const P extends boolean = false>(
  role: RoleRecord<F> & { id: Id; pipeline?: P },
): RoleRecord & { id: Id; pipeline: P } {
  return role as unknown as RoleRecord & { id: Id; pipeline: P };
}
