import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/** A registered OpenTelemetry SDK that keeps spans and metrics in memory, for one test. */
export interface MemoryTelemetry {
  spans(): ReadableSpan[];
  /** The sum of a counter's points whose attributes include `where`. */
  counter(name: string, where?: Record<string, string>): Promise<number>;
  close(): Promise<void>;
}

export function registerMemoryTelemetry(): MemoryTelemetry {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => spans.getFinishedSpans(),
    async counter(name, where = {}) {
      const collected = await reader.collect();
      let sum = 0;
      for (const scope of collected.resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name !== name) continue;
          for (const point of metric.dataPoints) {
            const matches = Object.entries(where).every(([k, v]) => point.attributes[k] === v);
            if (matches) sum += point.value as number;
          }
        }
      }
      return sum;
    },
    async close() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
      propagation.disable();
    },
  };
}
