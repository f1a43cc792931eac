import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { describeError } from '../errors.js';
import { OTEL_ATTRIBUTES, OTEL_SCOPE } from './otel-names.js';

export type { Context, Span, Tracer } from '@opentelemetry/api';

// The no-op provider of this copy of the API: what a proxy without a delegate answers.
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

// Set on the context of work the packages do for themselves (the gateway's warm-up).
const SUPPRESSED = createContextKey('@tool-search/otel suppressed');

/** Whether the active context is one of the packages' own work (no spans, no metrics). */
export function telemetrySuppressed(): boolean {
  return context.active().getValue(SUPPRESSED) === true;
}

/**
 * Runs `fn` (and what it awaits, where a context manager carries the context) without
 * spans or metrics of the packages: for their own work, such as the gateway's warm-up
 * searches, which no client asked for.
 */
export function withoutTelemetry<T>(fn: () => T): T {
  return context.with(context.active().setValue(SUPPRESSED, true), fn);
}

let cachedProvider: TracerProvider | undefined;
let cachedTracer: Tracer | undefined;

/**
 * The packages' tracer, or undefined when no OpenTelemetry SDK is registered: a caller
 * checks this first, so that without an SDK nothing is allocated for tracing (one read of
 * the API's global and a comparison).
 */
export function activeTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  const real = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  if (real === NOOP_TRACER_PROVIDER || telemetrySuppressed()) return undefined;
  if (real !== cachedProvider) {
    cachedProvider = real;
    cachedTracer = real.getTracer(OTEL_SCOPE);
  }
  return cachedTracer;
}

/** How {@link runInSpan} starts its span. */
export interface SpanStart {
  name: string;
  kind?: 'internal' | 'server' | 'client';
  attributes?: Attributes;
  /** The parent context @defaultValue the active one */
  parent?: Context;
}

const KINDS = { internal: SpanKind.INTERNAL, server: SpanKind.SERVER, client: SpanKind.CLIENT };

/**
 * Runs `fn` in a new span, active for everything `fn` awaits (its children), and ends
 * the span when `fn` settles. A throw marks the span as an error (`error.type` the
 * error's name) and is rethrown.
 */
export async function runInSpan<T>(
  tracer: Tracer,
  start: SpanStart,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = start.parent ?? context.active();
  const span = tracer.startSpan(
    start.name,
    {
      kind: KINDS[start.kind ?? 'internal'],
      ...(start.attributes ? { attributes: start.attributes } : {}),
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    markSpanError(span, error instanceof Error ? error.name : 'Error', describeError(error));
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span as failed, with `error.type` and a status message. */
export function markSpanError(span: Span, type: string, message?: string): void {
  span.setAttribute(OTEL_ATTRIBUTES.errorType, type);
  span.setStatus(
    message === undefined
      ? { code: SpanStatusCode.ERROR }
      : { code: SpanStatusCode.ERROR, message },
  );
}

/** The active context, to hand to work that runs outside the caller's async chain. */
export function activeContext(): Context {
  return context.active();
}

/** Runs `fn` with `parent` as the active context. */
export function withContext<T>(parent: Context, fn: () => T): T {
  return context.with(parent, fn);
}
