import { ToolSearchError } from '@tool-search/core';
import { describeError } from '@tool-search/core/internal';
import type { Guardrail } from './types.js';

/** Options of {@link createArgumentSizeGuardrail}. */
export interface ArgumentSizeGuardrailOptions {
  /** @defaultValue `'argument-size'` */
  name?: string;
}

const encoder = new TextEncoder();

/**
 * Creates a guardrail that denies calls whose arguments, as compact JSON in UTF-8, are
 * larger than `maxBytes`. Arguments that cannot be serialised (cycles, `BigInt`) are
 * denied too. Put it first: it is cheap, and it bounds the work of later guardrails.
 *
 * @param maxBytes - the largest allowed size in bytes
 * @param options.name - the guardrail's name in denials
 * @returns a {@link Guardrail}
 * @throws `ToolSearchError` `invalid_argument` when `maxBytes` is not a positive number
 *
 * @example
 * ```ts
 * const dispatch = createDispatcher({ execute, guardrails: [createArgumentSizeGuardrail(64 * 1024)] });
 * // a 1 MB argument answers:
 * // { status: 'denied', by: { kind: 'guardrail', name: 'argument-size' }, reason: "The arguments of 'write_file' are 1048600 bytes of JSON; at most 65536 are allowed. ..." }
 * ```
 */
export function createArgumentSizeGuardrail(
  maxBytes: number,
  options: ArgumentSizeGuardrailOptions = {},
): Guardrail {
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes <= 0) {
    throw new ToolSearchError(
      'invalid_argument',
      `createArgumentSizeGuardrail: maxBytes must be a positive number, got ${String(maxBytes)}.`,
    );
  }
  return {
    name: options.name ?? 'argument-size',
    check(call) {
      let json: string;
      try {
        json = JSON.stringify(call.arguments) ?? '';
      } catch (error) {
        return {
          allow: false,
          reason: `The arguments of '${call.name}' cannot be serialised as JSON (${describeError(error)}).`,
        };
      }
      // A UTF-16 unit takes at most 3 UTF-8 bytes: most calls are decided without encoding.
      if (json.length * 3 <= maxBytes) return { allow: true };
      const bytes = encoder.encode(json).byteLength;
      if (bytes <= maxBytes) return { allow: true };
      return {
        allow: false,
        reason: `The arguments of '${call.name}' are ${bytes} bytes of JSON; at most ${maxBytes} are allowed. Send less, e.g. in several calls.`,
      };
    },
  };
}
