import { describe, expectTypeOf, it } from 'vitest';
import {
  type CoreErrorCode,
  defineErrorCodes,
  type ErrorCodeList,
  ToolSearchError,
  type ToolSearchErrorCode,
} from './errors.js';

// Type tests, checked by `pnpm typecheck`: the code lists stay closed at compile time.

describe('ToolSearchErrorCode', () => {
  it("is core's closed list when no package registers codes", () => {
    expectTypeOf<ToolSearchErrorCode>().toEqualTypeOf<CoreErrorCode>();
    expectTypeOf<ToolSearchError['code']>().toEqualTypeOf<ToolSearchErrorCode>();
  });

  it('refuses a code on no list', () => {
    // @ts-expect-error: 'made_up' is on no package's list
    expectTypeOf(new ToolSearchError('made_up', 'x')).not.toBeNever();
    expectTypeOf<'invalid_config'>().toExtend<ToolSearchErrorCode>();
    expectTypeOf<'upstream_timeout'>().not.toExtend<ToolSearchErrorCode>();
  });
});

describe('defineErrorCodes', () => {
  it('takes only registered codes that are not core’s', () => {
    // @ts-expect-error: core's own code cannot be listed again
    defineErrorCodes(['invalid_config']);
    // @ts-expect-error: an unregistered code is refused
    defineErrorCodes(['made_up']);
    expectTypeOf(defineErrorCodes<never>([])).toEqualTypeOf<ErrorCodeList<never>>();
  });
});
