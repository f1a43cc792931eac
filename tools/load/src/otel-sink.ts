import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The environment that turns the gateway's OpenTelemetry on. */
export interface OtelSink {
  /** `OTEL_*` variables: traces over OTLP/protobuf to this sink, and a Prometheus reader. */
  env: Record<string, string>;
}

/**
 * Starts an OTLP/HTTP sink on loopback for `pnpm load --baseline --otel`: it accepts
 * every export and drops it, so that the run measures what tracing
 * costs the gateway and not a collector. It does not keep the process alive.
 */
export async function startOtelSink(): Promise<OtelSink> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    },
  };
}
