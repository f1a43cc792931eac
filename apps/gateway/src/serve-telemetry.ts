import type { GatewayConfig } from '@tool-search/mcp/config';
import {
  listenMetrics,
  type MetricsListener,
  type StartGatewayOptions,
} from '@tool-search/mcp-http';
import { type GatewayTelemetry, startTelemetry } from './otel.js';
import { planTelemetry } from './otel-env.js';

/** What `serve` wires for OpenTelemetry: the SDK, and where `/metrics` is served. */
export interface ServeTelemetry {
  /** `metrics` for `startGateway`, when `/metrics` is served on the HTTP listener. */
  readonly gatewayOptions: Pick<StartGatewayOptions, 'metrics'>;
  /** Flushes the exporters and closes the metrics port. @throws nothing */
  close(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK that the `OTEL_*` variables and the config ask for (none:
 * nothing is loaded) and, with `"metrics": { "port": N }`, the loopback metrics port.
 *
 * @param config - the gateway config
 * @param options.stderr - where warnings go
 * @param options.http - whether the gateway serves HTTP (else `/metrics` needs a port)
 * @param options.env - the environment @defaultValue `process.env`
 * @returns what to pass on and how to stop
 * @throws the listen error when the metrics port is taken
 */
export async function startServeTelemetry(
  config: GatewayConfig,
  options: {
    stderr: { write(text: string): unknown };
    http: boolean;
    env?: Readonly<Record<string, string | undefined>>;
  },
): Promise<ServeTelemetry> {
  const plan = planTelemetry(options.env ?? process.env, config);
  for (const warning of plan?.warnings ?? [])
    options.stderr.write(`warning: telemetry: ${warning}\n`);
  if (
    plan === undefined ||
    (plan.traces === undefined && plan.otlpMetrics === undefined && !plan.prometheus)
  ) {
    return { gatewayOptions: {}, close: async () => {} };
  }
  const telemetry: GatewayTelemetry = await startTelemetry(plan);
  let listener: MetricsListener | undefined;
  const source = telemetry.metrics;
  if (source !== undefined && plan.metricsPort !== undefined) {
    listener = await listenMetrics({ source, port: plan.metricsPort });
    options.stderr.write(`  metrics: ${listener.url}\n`);
  } else if (source !== undefined && !options.http) {
    options.stderr.write(
      'warning: telemetry: /metrics is served on the HTTP listener or on "metrics": { "port": N }; this stdio gateway has neither.\n',
    );
  }
  return {
    gatewayOptions:
      source !== undefined && listener === undefined && options.http ? { metrics: { source } } : {},
    async close() {
      await listener?.close().catch(() => {});
      await telemetry.shutdown();
    },
  };
}
