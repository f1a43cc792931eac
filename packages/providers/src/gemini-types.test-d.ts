import type { FunctionCall, FunctionDeclaration, Part, Schema, Tool, Type } from '@google/genai';
import type { handleBridgeCall } from '@tool-search/bridge';
import type { Dispatcher } from '@tool-search/hooks';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  dispatchGeminiFunctionCall,
  dispatchGeminiInteractionCall,
  GeminiBridgeHandler,
  GeminiFunctionDeclaration,
  GeminiInteractionFunction,
  GeminiSchema,
  prepareGeminiTools,
} from './gemini.js';
import type { ProviderDispatch } from './programmatic.js';

// Type tests against `@google/genai`'s own types (`pnpm typecheck`). Its `Type` is a string
// enum, which a plain string literal never satisfies; the SDK sends the value as it is, so
// the check is against the SDK's shapes with the enum read by value.
type ByValue<S> = S extends Type
  ? `${Type}`
  : S extends (infer E)[]
    ? ByValue<E>[]
    : S extends object
      ? { [K in keyof S]: ByValue<S[K]> }
      : S;

type Prepared = Awaited<ReturnType<typeof prepareGeminiTools>>;

describe('the Gemini types against @google/genai', () => {
  it('sends function declarations in the SDK schema subset, in a generateContent tool', () => {
    expectTypeOf<GeminiSchema>().toExtend<ByValue<Schema>>();
    expectTypeOf<GeminiFunctionDeclaration>().toExtend<ByValue<FunctionDeclaration>>();
    expectTypeOf<Prepared['tools'][number]>().toExtend<ByValue<Tool>>();
  });

  it('reads a real FunctionCall and answers a Part', () => {
    expectTypeOf<FunctionCall & { name: string }>().toExtend<
      Parameters<typeof dispatchGeminiFunctionCall>[1]
    >();
    expectTypeOf<Awaited<ReturnType<typeof dispatchGeminiFunctionCall>>>().toExtend<Part>();
  });

  it('takes handleBridgeCall of @tool-search/bridge and the hooks dispatcher', () => {
    expectTypeOf<typeof handleBridgeCall>().toExtend<GeminiBridgeHandler>();
    expectTypeOf<Dispatcher>().toExtend<ProviderDispatch>();
  });

  it('an interaction function, without defer_loading, is the SDK function tool; a result is an input step', () => {
    type InteractionsCreate = Parameters<
      import('@google/genai').GoogleGenAI['interactions']['create']
    >[0];
    type SdkTool = NonNullable<Extract<InteractionsCreate, { model: unknown }>['tools']>[number];
    expectTypeOf<Omit<GeminiInteractionFunction, 'defer_loading'>>().toExtend<SdkTool>();
    type SdkInput = Extract<
      NonNullable<Extract<InteractionsCreate, { model: unknown }>['input']>,
      unknown[]
    >[number];
    expectTypeOf<Awaited<ReturnType<typeof dispatchGeminiInteractionCall>>>().toExtend<SdkInput>();
  });
});
