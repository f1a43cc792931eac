import { type Context, context, propagation, type TextMapGetter } from '@opentelemetry/api';

/** The `_meta` keys the MCP specification reserves for trace context (W3C formats). */
export const TRACE_META_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

type Carrier = Record<string, unknown>;

// Reads a `_meta` object or a headers record (Node's lower-case names, or a Headers).
const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value =
      typeof (carrier as { get?: unknown }).get === 'function' &&
      typeof (carrier as { has?: unknown }).has === 'function'
        ? (carrier as unknown as Headers).get(key)
        : carrier[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value;
    return undefined;
  },
};

function carries(carrier: unknown): carrier is Carrier {
  if (typeof carrier !== 'object' || carrier === null) return false;
  if (typeof (carrier as { get?: unknown }).get === 'function') {
    return (carrier as Headers).get('traceparent') !== null;
  }
  return typeof (carrier as Carrier).traceparent === 'string';
}

/**
 * The context a request's trace context makes: from its `params._meta` when that
 * carries a `traceparent`, else from its HTTP headers, else the active context. What a
 * registered propagator (W3C trace context and baggage) reads; with none, the active one.
 *
 * @param meta - the request's `params._meta`
 * @param headers - the HTTP request's headers, when it came over HTTP
 */
export function contextFromRequest(meta: unknown, headers?: unknown): Context {
  const active = context.active();
  if (carries(meta)) return propagation.extract(active, meta, getter);
  if (carries(headers)) return propagation.extract(active, headers, getter);
  return active;
}

/**
 * The active trace context as `_meta` entries (or headers) for an outgoing request:
 * `traceparent`, and `tracestate` and `baggage` when there are any; undefined when the
 * registered propagator writes nothing (no SDK, or no span).
 */
export function traceCarrier(): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent === undefined ? undefined : carrier;
}
