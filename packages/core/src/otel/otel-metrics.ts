import {
  type Counter,
  createNoopMeter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
  type UpDownCounter,
} from '@opentelemetry/api';
import { OTEL_SCOPE } from './otel-names.js';
import { telemetrySuppressed } from './otel-trace.js';

export type { Meter } from '@opentelemetry/api';

/** Bucket bounds in seconds: a tool call runs from a millisecond to minutes. */
const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Bucket bounds in seconds of a person's answer: seconds to an hour. */
const HUMAN_SECONDS = [1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** The instruments every package records into (see the "Observing the gateway" guide). */
export interface ToolSearchInstruments {
  meter: Meter;
  /** Dispatched calls by route, outcome and tool. */
  calls: Counter;
  /** Time from dispatch to result, by route and outcome (seconds). */
  callDuration: Histogram;
  /** Approvals asked, by decision. */
  approvals: Counter;
  /** Time waiting for a person's answer (seconds). */
  approvalWait: Histogram;
  /** Searches answered, by outcome (`hits`, `empty`, `error`). */
  searches: Counter;
  /** Describes answered, by outcome. */
  describes: Counter;
  /** Tokens the deferred schemas did not cost, summed over activated assemblies. */
  tokensSaved: Counter;
  /** Program runs by status. */
  programs: Counter;
  /** Upstream requests' duration, the MCP conventions' client metric (seconds). */
  upstreamDuration: Histogram;
  /** Requests the gateway served, the MCP conventions' server metric (seconds). */
  serverDuration: Histogram;
  /** Sessions opened. */
  sessionsOpened: Counter;
  /** Sessions open now. */
  sessionsActive: UpDownCounter;
  /** How long a session lasted, the MCP conventions' server metric (seconds). */
  sessionDuration: Histogram;
  /** Upstream (re)connects after a failure. */
  upstreamRestarts: Counter;
}

function createInstruments(meter: Meter): ToolSearchInstruments {
  const seconds = (name: string, description: string, bounds = SECONDS) =>
    meter.createHistogram(name, {
      description,
      unit: 's',
      advice: { explicitBucketBoundaries: bounds },
    });
  return {
    meter,
    calls: meter.createCounter('tool_search.calls', {
      description: 'Tool calls dispatched, by route and outcome',
      unit: '{call}',
    }),
    callDuration: seconds('tool_search.call.duration', 'Time from dispatch to result'),
    approvals: meter.createCounter('tool_search.approvals', {
      description: 'Approvals asked, by decision',
      unit: '{approval}',
    }),
    approvalWait: seconds(
      'tool_search.approval.wait.duration',
      "Time waiting for a person's answer",
      HUMAN_SECONDS,
    ),
    searches: meter.createCounter('tool_search.searches', {
      description: 'tool_search calls answered, by outcome',
      unit: '{search}',
    }),
    describes: meter.createCounter('tool_search.describes', {
      description: 'tool_describe calls answered, by outcome',
      unit: '{describe}',
    }),
    tokensSaved: meter.createCounter('tool_search.tokens.saved', {
      description: 'Schema tokens not sent to the model, summed over activated tool lists',
      unit: '{token}',
    }),
    programs: meter.createCounter('tool_search.programs', {
      description: 'Program runs, by status',
      unit: '{run}',
    }),
    upstreamDuration: seconds('mcp.client.operation.duration', 'Upstream MCP requests'),
    serverDuration: seconds('mcp.server.operation.duration', 'MCP requests the gateway served'),
    sessionsOpened: meter.createCounter('tool_search.sessions', {
      description: 'Sessions opened',
      unit: '{session}',
    }),
    sessionsActive: meter.createUpDownCounter('tool_search.sessions.active', {
      description: 'Sessions open now',
      unit: '{session}',
    }),
    sessionDuration: seconds(
      'mcp.server.session.duration',
      'How long a session lasted',
      [1, 10, 60, 300, 900, 3600, 14400, 86400],
    ),
    upstreamRestarts: meter.createCounter('tool_search.upstream.restarts', {
      description: 'Upstream reconnects after a failure',
      unit: '{restart}',
    }),
  };
}

let cachedProvider: MeterProvider | undefined;
let cachedInstruments: ToolSearchInstruments | undefined;

/**
 * The packages' instruments, or undefined when no OpenTelemetry meter provider is
 * registered (a read of the API's global and a comparison: nothing is allocated). They are
 * made once per provider, so a provider registered after the packages loaded is used.
 */
export function activeInstruments(): ToolSearchInstruments | undefined {
  const provider = metrics.getMeterProvider();
  if (provider === cachedProvider) {
    return cachedInstruments === undefined || telemetrySuppressed() ? undefined : cachedInstruments;
  }
  cachedProvider = provider;
  const meter = provider.getMeter(OTEL_SCOPE);
  cachedInstruments = meter === createNoopMeter() ? undefined : createInstruments(meter);
  return telemetrySuppressed() ? undefined : cachedInstruments;
}
