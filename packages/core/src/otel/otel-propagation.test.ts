import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextFromRequest, traceCarrier } from './otel-propagation.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('contextFromRequest and traceCarrier', () => {
  beforeEach(() => {
    propagation.setGlobalPropagator(
      new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
    );
  });
  afterEach(() => {
    propagation.disable();
  });

  it('reads traceparent, tracestate and baggage from _meta, before the headers', () => {
    const parent = contextFromRequest(
      { traceparent: TRACEPARENT, tracestate: 'vendor=1', baggage: 'team=infra' },
      { traceparent: '00-11111111111111111111111111111111-2222222222222222-01' },
    );
    const span = trace.getSpanContext(parent);
    expect(span?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span?.spanId).toBe('00f067aa0ba902b7');
    expect(span?.traceState?.get('vendor')).toBe('1');
    expect(propagation.getBaggage(parent)?.getEntry('team')?.value).toBe('infra');
  });

  it('reads the HTTP headers (a record or a Headers) when _meta carries none', () => {
    for (const headers of [
      { traceparent: TRACEPARENT },
      new Headers({ traceparent: TRACEPARENT }),
    ]) {
      const parent = contextFromRequest({ progressToken: 1 }, headers);
      expect(trace.getSpanContext(parent)?.spanId).toBe('00f067aa0ba902b7');
    }
  });

  it('ignores hostile or malformed context: the active context stays the parent', () => {
    const hostile: unknown[] = [
      null,
      'traceparent',
      { traceparent: 42 },
      { traceparent: ['a', 'b'] },
      { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' },
      { traceparent: `00-${'z'.repeat(32)}-00f067aa0ba902b7-01` },
      { traceparent: 'x'.repeat(100_000) },
      { ['__proto__']: { traceparent: TRACEPARENT } },
    ];
    for (const meta of hostile) {
      const parent = contextFromRequest(meta, undefined);
      expect(trace.getSpanContext(parent)).toBeUndefined();
    }
  });

  it('writes nothing without a span, and the active span with one', () => {
    // A synchronous context manager: enough for one synchronous call.
    let active = ROOT_CONTEXT;
    context.setGlobalContextManager({
      active: () => active,
      with(next, fn, thisArg, ...args) {
        const previous = active;
        active = next;
        try {
          return fn.call(thisArg, ...args);
        } finally {
          active = previous;
        }
      },
      bind: (_context, target) => target,
      enable() {
        return this;
      },
      disable() {
        return this;
      },
    });
    expect(traceCarrier()).toBeUndefined();
    const parent = propagation.extract(ROOT_CONTEXT, { traceparent: TRACEPARENT });
    const carrier = context.with(parent, () => traceCarrier());
    expect(carrier).toEqual({ traceparent: TRACEPARENT });
    context.disable();
  });
});
