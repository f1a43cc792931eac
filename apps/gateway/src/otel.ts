import type { MetricsSource } from '@tool-search/mcp-http';
import type { TelemetryPlan } from './otel-env.js';

/** The gateway's registered OpenTelemetry SDK. */
export interface GatewayTelemetry {
  /** Prometheus text of the gateway's metrics, when the plan keeps a Prometheus reader. */
  metrics?: MetricsSource;
  /** Exports what is pending and unregisters the SDK. @throws nothing */
  shutdown(): Promise<void>;
}

/**
 * Registers the OpenTelemetry SDK the plan asks for: a tracer provider with a batch
 * processor and an OTLP exporter (protobuf or JSON over HTTP; the exporters read the
 * `OTEL_EXPORTER_OTLP_*` endpoint, headers and timeout themselves), W3C trace context and
 * baggage propagation, an async-local context manager, and a meter provider with an
 * OTLP reader and/or a Prometheus reader. The SDK packages are loaded only here, so a
 * gateway without telemetry neither loads nor pays for them.
 *
 * @param plan - from {@link planTelemetry}
 * @returns the registered SDK
 * @throws nothing the plan can cause; an import error when a package is missing
 */
export async function startTelemetry(plan: TelemetryPlan): Promise<GatewayTelemetry> {
  const [api, core, resources, asyncHooks] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
  ]);
  const resource = resources
    .detectResources({ detectors: [resources.envDetector] })
    .merge(resources.resourceFromAttributes({ 'service.name': plan.serviceName }));
  // The context carries spans, and the warm-up's "not a client's work" to the metrics too.
  api.context.setGlobalContextManager(new asyncHooks.AsyncLocalStorageContextManager().enable());
  const stops: (() => Promise<void>)[] = [async () => void api.context.disable()];
  if (plan.traces !== undefined) {
    const sdk = await import('@opentelemetry/sdk-trace');
    const { OTLPTraceExporter } =
      plan.traces === 'http/json'
        ? await import('@opentelemetry/exporter-trace-otlp-http')
        : await import('@opentelemetry/exporter-trace-otlp-proto');
    const provider = new sdk.TracerProvider({
      resource,
      spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
    });
    api.propagation.setGlobalPropagator(
      new core.CompositePropagator({
        propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
      }),
    );
    api.trace.setGlobalTracerProvider(provider);
    stops.push(async () => {
      await provider.shutdown();
      api.trace.disable();
      api.propagation.disable();
    });
  }
  let metrics: MetricsSource | undefined;
  if (plan.otlpMetrics !== undefined || plan.prometheus) {
    const sdk = await import('@opentelemetry/sdk-metrics');
    const readers: InstanceType<typeof sdk.MetricReader>[] = [];
    if (plan.otlpMetrics !== undefined) {
      const { OTLPMetricExporter } =
        plan.otlpMetrics === 'http/json'
          ? await import('@opentelemetry/exporter-metrics-otlp-http')
          : await import('@opentelemetry/exporter-metrics-otlp-proto');
      readers.push(new sdk.PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
    }
    if (plan.prometheus) {
      const { PrometheusExporter, PrometheusSerializer } = await import(
        '@opentelemetry/exporter-prometheus'
      );
      const reader = new PrometheusExporter({ preventServerStart: true });
      const serializer = new PrometheusSerializer();
      readers.push(reader);
      metrics = {
        async collect() {
          const { resourceMetrics } = await reader.collect();
          return serializer.serialize(resourceMetrics);
        },
      };
    }
    const provider = new sdk.MeterProvider({ resource, readers });
    api.metrics.setGlobalMeterProvider(provider);
    stops.push(async () => {
      await provider.shutdown();
      api.metrics.disable();
    });
  }
  return {
    ...(metrics === undefined ? {} : { metrics }),
    async shutdown() {
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}
