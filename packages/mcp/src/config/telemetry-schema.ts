import { z } from 'zod/v4';

/** The schema of `telemetry`: OpenTelemetry traces of the gateway (see "Observing the gateway"). */
export const telemetrySchema = z.strictObject({
  /**
   * Export traces over OTLP even when no `OTEL_*` variable asks for them (the endpoint is
   * `OTEL_EXPORTER_OTLP_ENDPOINT`, else the OTLP default http://localhost:4318).
   * @defaultValue false
   */
  traces: z.boolean().optional(),
  /**
   * Record each call's arguments and result on its span, secrets redacted and rendered
   * by the approval question's rules. They may hold secrets: off unless set.
   * @defaultValue false
   */
  recordContent: z.boolean().optional().default(false),
});

/** The `telemetry` section of a gateway config. */
export interface TelemetryConfig extends z.output<typeof telemetrySchema> {}

/** The schema of `metrics`: the Prometheus endpoint of the gateway. */
export const metricsSchema = z.strictObject({
  /**
   * Serve `GET /metrics` on the HTTP listener, to the gateway's token or an operator
   * profile's. @defaultValue true when the section is present
   */
  enabled: z.boolean().optional().default(true),
  /** Serve `GET /metrics` without a token on this loopback port instead (127.0.0.1 only). */
  port: z.number().int().min(0).max(65_535).optional(),
});

/** The `metrics` section of a gateway config. */
export interface MetricsConfig extends z.output<typeof metricsSchema> {}
