import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { numberInput } from './number-input.js';

const DECIMAL = /^[-+]?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;

const VALUES: unknown[] = [
  0,
  -0,
  1,
  -1,
  2.5,
  1e21,
  Number.MAX_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '0',
  ' 12 ',
  '\t7\n',
  '+3',
  '-4',
  '1.5',
  '1.',
  '.5',
  '1e3',
  '0x10',
  '',
  ' ',
  'abc',
  '12abc',
  '١٢',
  '１２',
  '00012',
  '-0',
  '99999999999999999999999',
  true,
  false,
  null,
  undefined,
  [],
  [1],
  {},
  { valueOf: () => 3 },
  10n,
  Symbol('x'),
];

describe('numberInput', () => {
  for (const [name, pattern] of [
    ['decimal', DECIMAL],
    ['digits', DIGITS],
  ] as const) {
    it(`accepts exactly what the zod union of a finite number or a ${name} string accepts`, () => {
      const schema = z.union([
        z.number().finite(),
        z.string().trim().regex(pattern).transform(Number),
      ]);
      for (const value of VALUES) {
        const parsed = schema.safeParse(value);
        const expected = parsed.success ? parsed.data : undefined;
        expect(Object.is(numberInput(value, pattern), expected), String(value)).toBe(true);
      }
    });
  }
});
