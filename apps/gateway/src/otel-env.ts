import type { MetricsConfig, TelemetryConfig } from '@tool-search/mcp/config';

/** The OTLP wire formats the gateway exports in (gRPC is not bundled). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What the gateway's OpenTelemetry SDK does, decided from `OTEL_*` and the config. */
export interface TelemetryPlan {
  /** Export spans over OTLP in this format; undefined: no tracing at all. */
  traces?: OtlpProtocol;
  /** Export metrics over OTLP in this format. */
  otlpMetrics?: OtlpProtocol;
  /** Keep a Prometheus reader for `GET /metrics`. */
  prometheus: boolean;
  /** Serve `/metrics` on this loopback port of its own (no token) instead of the listener. */
  metricsPort?: number;
  /** `service.name` @defaultValue `tool-search-gateway` */
  serviceName: string;
  /** What was asked for and is not supported, for a warning line each. */
  warnings: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
}

function protocolOf(env: Env, signal: 'TRACES' | 'METRICS', warnings: string[]): OtlpProtocol {
  const raw = (
    env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ??
    env['OTEL_EXPORTER_OTLP_PROTOCOL'] ??
    'http/protobuf'
  ).trim();
  if (raw === 'http/json' || raw === 'http/protobuf') return raw;
  warnings.push(
    `OTEL_EXPORTER_OTLP_PROTOCOL '${raw}' is not supported by the gateway (http/protobuf and http/json are); using http/protobuf`,
  );
  return 'http/protobuf';
}

/**
 * Decides what to export from the standard OpenTelemetry variables and the config.
 * Nothing is exported unless asked: `OTEL_TRACES_EXPORTER` / `OTEL_METRICS_EXPORTER`
 * naming `otlp` (metrics also `prometheus`), an `OTEL_EXPORTER_OTLP_ENDPOINT` (or its
 * per-signal form) with no exporter named, `"telemetry": { "traces": true }`, or a
 * `"metrics"` section. `OTEL_SDK_DISABLED=true` turns everything off; `none` one signal.
 */
export function planTelemetry(
  env: Env,
  config: { telemetry?: TelemetryConfig; metrics?: MetricsConfig },
): TelemetryPlan | undefined {
  if ((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true') return undefined;
  const warnings: string[] = [];
  const endpoint = (signal: 'TRACES' | 'METRICS') =>
    (env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT']) !==
    undefined;
  const traceExporters = list(env['OTEL_TRACES_EXPORTER']);
  const metricExporters = list(env['OTEL_METRICS_EXPORTER']);
  for (const name of traceExporters) {
    if (name !== 'otlp' && name !== 'none')
      warnings.push(`OTEL_TRACES_EXPORTER '${name}' is not supported (otlp and none are)`);
  }
  for (const name of metricExporters) {
    if (name !== 'otlp' && name !== 'prometheus' && name !== 'none') {
      warnings.push(
        `OTEL_METRICS_EXPORTER '${name}' is not supported (otlp, prometheus and none are)`,
      );
    }
  }
  const tracesOn = traceExporters.includes('none')
    ? false
    : traceExporters.includes('otlp') ||
      (traceExporters.length === 0 && (endpoint('TRACES') || config.telemetry?.traces === true));
  const otlpMetricsOn = metricExporters.includes('none')
    ? false
    : metricExporters.includes('otlp') || (metricExporters.length === 0 && endpoint('METRICS'));
  const prometheus =
    !metricExporters.includes('none') &&
    (metricExporters.includes('prometheus') || (config.metrics?.enabled ?? false));
  if (!tracesOn && !otlpMetricsOn && !prometheus) {
    return warnings.length === 0 ? undefined : { prometheus: false, serviceName: '', warnings };
  }
  return {
    ...(tracesOn ? { traces: protocolOf(env, 'TRACES', warnings) } : {}),
    ...(otlpMetricsOn ? { otlpMetrics: protocolOf(env, 'METRICS', warnings) } : {}),
    prometheus,
    ...(prometheus && config.metrics?.port !== undefined
      ? { metricsPort: config.metrics.port }
      : {}),
    serviceName: env['OTEL_SERVICE_NAME']?.trim() || 'tool-search-gateway',
    warnings,
  };
}
