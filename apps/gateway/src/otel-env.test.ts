import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './__fixtures__/prometheus-text.js';
import { planTelemetry } from './otel-env.js';

describe('planTelemetry', () => {
  it('plans nothing without an OTEL_* variable or a config section: no SDK is loaded', () => {
    expect(planTelemetry({}, {})).toBeUndefined();
  });

  it('exports traces and metrics over OTLP/protobuf when only an endpoint is set', () => {
    expect(planTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, {})).toEqual({
      traces: 'http/protobuf',
      otlpMetrics: 'http/protobuf',
      prometheus: false,
      serviceName: 'tool-search-gateway',
      warnings: [],
    });
  });

  it('follows the exporters named, the per-signal protocol, none and the service name', () => {
    const plan = planTelemetry(
      {
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'gw-eu',
      },
      {},
    );
    expect(plan).toMatchObject({ traces: 'http/json', prometheus: true, serviceName: 'gw-eu' });
    expect(plan?.otlpMetrics).toBeUndefined();
    const off = planTelemetry(
      { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'x' },
      {},
    );
    expect(off?.traces).toBeUndefined();
  });

  it('turns on from the config: traces, and /metrics on a port of its own', () => {
    const plan = planTelemetry(
      {},
      { telemetry: { traces: true, recordContent: false }, metrics: { enabled: true, port: 9464 } },
    );
    expect(plan).toMatchObject({ traces: 'http/protobuf', prometheus: true, metricsPort: 9464 });
  });

  it('is off with OTEL_SDK_DISABLED, and warns about what it cannot do', () => {
    expect(
      planTelemetry({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }, {}),
    ).toBeUndefined();
    const grpc = planTelemetry(
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      {},
    );
    expect(grpc?.traces).toBe('http/protobuf');
    expect(grpc?.warnings.join(' ')).toContain("'grpc' is not supported");
  });
});

describe('the strict Prometheus text reader of the tests', () => {
  it('reads a well-formed exposition', () => {
    const text = parsePrometheusText(
      '# HELP a_total Calls\n# TYPE a_total counter\na_total{route="bridge"} 2\n' +
        '# TYPE d histogram\nd_bucket{le="1"} 1\nd_bucket{le="+Inf"} 2\nd_sum 1.5\nd_count 2\n',
    );
    expect(text.sum('a_total', { route: 'bridge' })).toBe(2);
  });

  it.each([
    ['an undeclared family', 'x 1\n'],
    ['a malformed label', '# TYPE a gauge\na{b=1} 1\n'],
    ['a value that is not a number', '# TYPE a gauge\na one\n'],
    ['buckets without +Inf', '# TYPE d histogram\nd_bucket{le="1"} 1\n'],
    ['decreasing buckets', '# TYPE d histogram\nd_bucket{le="1"} 2\nd_bucket{le="+Inf"} 1\n'],
    ['no final line feed', '# TYPE a gauge\na 1'],
  ])('rejects %s', (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
