// Input tokens of a scripted conversation: each round trip sends the whole conversation so
// far (the system prompt, the tool definitions as assembled, and every message), and its
// tokens are summed over the round trips. Two counters: core's default estimate
// (`charsPerTokenCounter`, what the bridge's estimates use) and gpt-tokenizer's o200k.
import {
  charsPerTokenCounter,
  estimateToolTokens,
  type TokenCounter,
  type ToolDefinition,
} from '@tool-search/core';
import { countTokens } from 'gpt-tokenizer';

/** Token counts by counter. */
export interface Tokens {
  /** Core's `charsPerTokenCounter` (characters / 4). */
  core: number;
  /** gpt-tokenizer's `countTokens` (o200k_base). */
  o200k: number;
}

/** gpt-tokenizer's o200k count as core's `TokenCounter`. */
export const o200kCounter: TokenCounter = Object.freeze({
  count: (text: string) => countTokens(text),
});

const COUNTERS: Readonly<Record<keyof Tokens, TokenCounter>> = {
  core: charsPerTokenCounter,
  o200k: o200kCounter,
};

const zero = (): Tokens => ({ core: 0, o200k: 0 });

function add(into: Tokens, more: Tokens): void {
  into.core += more.core;
  into.o200k += more.o200k;
}

function countText(text: string): Tokens {
  return { core: COUNTERS.core.count(text), o200k: COUNTERS.o200k.count(text) };
}

/** One conversation's running count. */
export interface Conversation {
  /** The tokens of the system prompt and the tool definitions, sent on every round trip. */
  readonly perRoundTrip: Tokens;
  /** The input tokens summed over the round trips charged. */
  readonly input: Tokens;
  /** Round trips charged. */
  readonly roundTrips: number;
  /** The tokens of the tool calls the model wrote (its output; the final answer aside). */
  readonly written: Tokens;
  /** Appends a message (a user text, an assistant's tool calls, a tool result), counted once. */
  addMessage(text: string, from?: 'model'): void;
  /** One round trip: the model is sent everything so far. */
  charge(): void;
}

/**
 * Starts a conversation: the fixed part every round trip sends (the system prompt and the
 * tools), no messages yet.
 *
 * @param system - the system prompt
 * @param tools - the model-visible tools, as `assembleTools` lists them
 * @returns the conversation
 */
export function createConversation(system: string, tools: readonly ToolDefinition[]): Conversation {
  const fixed = countText(system);
  fixed.core += estimateToolTokens(tools, COUNTERS.core);
  fixed.o200k += estimateToolTokens(tools, COUNTERS.o200k);
  const messages = zero();
  const input = zero();
  const written = zero();
  let roundTrips = 0;
  return {
    perRoundTrip: { ...fixed },
    input,
    get roundTrips() {
      return roundTrips;
    },
    written,
    addMessage(text, from) {
      const tokens = countText(text);
      add(messages, tokens);
      if (from === 'model') add(written, tokens);
    },
    charge() {
      roundTrips += 1;
      add(input, fixed);
      add(input, messages);
    },
  };
}
