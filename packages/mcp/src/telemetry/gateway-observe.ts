import type { SearchLearner } from '@tool-search/core';
import { OTEL_ATTRIBUTES as A, activeInstruments } from '@tool-search/core/internal';

/** What {@link observeGateway} reads of an upstream pool (structural: no import of it). */
export interface ObservedPool {
  status?(): readonly { name: string; state: string; toolCount: number }[];
  onProgress?(listener: (event: { kind: string; server: string }) => void): () => void;
}

/**
 * Counts a session opened (`tool_search.sessions`, `tool_search.sessions.active`) and
 * returns what to call when it closes (which records `mcp.server.session.duration`);
 * undefined without an OpenTelemetry meter provider.
 */
export function observeSession(): (() => void) | undefined {
  const instruments = activeInstruments();
  if (instruments === undefined) return undefined;
  instruments.sessionsOpened.add(1);
  instruments.sessionsActive.add(1);
  const began = performance.now();
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    instruments.sessionsActive.add(-1);
    instruments.sessionDuration.record((performance.now() - began) / 1000);
  };
}

/**
 * Observes a gateway's upstreams and learner, when an OpenTelemetry meter provider is
 * registered: `tool_search.upstream.up` (1 for a ready server, 0 otherwise) and
 * `tool_search.upstream.tools` by server, `tool_search.upstream.restarts` (reconnects),
 * and `tool_search.learning.pairs` by outcome (`recorded`, `ignored`).
 *
 * @returns a function that stops observing
 */
export function observeGateway(pool: ObservedPool, learner: SearchLearner | undefined): () => void {
  const instruments = activeInstruments();
  if (instruments === undefined) return () => {};
  const { meter } = instruments;
  const up = meter.createObservableGauge('tool_search.upstream.up', {
    description: 'Whether an upstream server is ready (1) or not (0)',
  });
  const tools = meter.createObservableGauge('tool_search.upstream.tools', {
    description: 'Tools an upstream server serves through the gateway',
    unit: '{tool}',
  });
  const pairs = meter.createObservableCounter('tool_search.learning.pairs', {
    description: 'Search-then-call pairs the learner was given, by outcome',
    unit: '{pair}',
  });
  const observeUpstreams = (result: {
    observe(value: number, attributes: Record<string, string>): void;
  }) => {
    for (const server of pool.status?.() ?? []) {
      result.observe(server.state === 'ready' ? 1 : 0, { [A.server]: server.name });
    }
  };
  up.addCallback(observeUpstreams);
  const observeTools = (result: {
    observe(value: number, attributes: Record<string, string>): void;
  }) => {
    for (const server of pool.status?.() ?? []) {
      result.observe(server.toolCount, { [A.server]: server.name });
    }
  };
  tools.addCallback(observeTools);
  const observePairs = (result: {
    observe(value: number, attributes: Record<string, string>): void;
  }) => {
    if (learner === undefined) return;
    result.observe(learner.stats.recorded, { [A.outcome]: 'recorded' });
    result.observe(learner.stats.ignored, { [A.outcome]: 'ignored' });
  };
  pairs.addCallback(observePairs);
  const unsubscribe = pool.onProgress?.((event) => {
    if (event.kind === 'reconnecting' || event.kind === 'retrying') {
      instruments.upstreamRestarts.add(1, { [A.server]: event.server });
    }
  });
  return () => {
    up.removeCallback(observeUpstreams);
    tools.removeCallback(observeTools);
    pairs.removeCallback(observePairs);
    unsubscribe?.();
  };
}
