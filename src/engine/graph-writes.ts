import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EventBody } from "../events/schema.js";
import type { Route } from "./routing.js";
import type { PipelineStateType } from "../state/pipeline.js";

/**
 * What the graph's nodes and routers write to the run through LangGraph's `config.writer`, which the run sets to its
 * own handler (src/engine/run/start.ts) and which is called synchronously: yolo's events, in the order they happen,
 * and a node's end, which only keeps the thread row's progress and is never an event. (Through LangGraph's `custom`
 * stream each write cost more, and a step's `updates`/`values` chunks reached the run later than the next node's
 * first events: docs/performance.md.)
 */
export type GraphWrite = EventBody | NodeEnd;

const NODE_END = Symbol("yolo.nodeEnd");
export interface NodeEnd {
  readonly [NODE_END]: string;
}

/** The node whose end `write` marks, or undefined when it is an event. */
export function endedNode(write: GraphWrite): string | undefined {
  return (write as Partial<NodeEnd>)[NODE_END];
}

type NodeFn<S, U> = (state: S, config: LangGraphRunnableConfig) => Promise<U>;

/** A node that writes its end once it returns (not when it throws or waits for a human: its task did not complete). */
export function reportingEnd<S, U>(node: string, fn: NodeFn<S, U>): NodeFn<S, U> {
  return async (state, config) => {
    const update = await fn(state, config);
    config.writer?.({ [NODE_END]: node } satisfies NodeEnd);
    return update;
  };
}

/**
 * A conditional edge that says its decision: the `route` event is written by the very call the graph takes its next
 * node from, with the state that call sees (the node's writes applied).
 */
export function sayingRoute<T>(
  from: string,
  router: (state: PipelineStateType) => Route,
  target: (route: Route, state: PipelineStateType) => T,
): (state: PipelineStateType, config: LangGraphRunnableConfig) => T {
  return (state, config) => {
    const route = router(state);
    config.writer?.({ type: "route", from, to: route.to, reason: route.reason } satisfies EventBody);
    return target(route, state);
  };
}
