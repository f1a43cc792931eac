import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the stand-in: a thinking block, then a tool use or a text. */
export type StandInTurn = { tool: string; input: object } | { text: string };

/** A request the stand-in answered, and how. */
export interface StandInExchange {
  tools: string[];
  status: number;
  error?: string;
}

/** A local stand-in of Anthropic's Messages API that checks the prefix of a thinking conversation. */
export interface AnthropicStandIn {
  /** The base URL for `createAnthropic({ baseURL })`. */
  baseURL: string;
  /** Every request, in order: the tool names it sent, and the status answered. */
  exchanges: StandInExchange[];
  /** Starts a new conversation with these turns. */
  script(turns: readonly StandInTurn[]): void;
  close(): Promise<void>;
}

interface Produced {
  thinking: string;
  tools: string;
  system: string;
  messages: string[];
}

type Body = {
  tools?: unknown[];
  system?: unknown;
  messages?: { role: string; content: unknown }[];
  thinking?: { type?: string };
};

/**
 * Starts the stand-in on loopback. With `thinking` on in a request, each answer opens with
 * a signed thinking block; a later request that carries that block back must send the
 * same `tools`, the same `system` and the same earlier messages as the request that
 * produced it, and the block unchanged, or it is refused with a 400
 * `invalid_request_error`, as Anthropic's API does on its models that check the prefix
 * of a conversation with thinking.
 */
export async function startAnthropicStandIn(): Promise<AnthropicStandIn> {
  let turns: readonly StandInTurn[] = [];
  let turn = 0;
  const produced = new Map<string, Produced>();
  const exchanges: StandInExchange[] = [];

  const check = (body: Body): string | undefined => {
    const tools = JSON.stringify(body.tools ?? []);
    const system = JSON.stringify(body.system ?? null);
    const messages = (body.messages ?? []).map((message) => JSON.stringify(message));
    for (const message of body.messages ?? []) {
      if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
      for (const block of message.content as {
        type?: string;
        signature?: string;
        thinking?: string;
      }[]) {
        if (block.type !== 'thinking' || block.signature === undefined) continue;
        const origin = produced.get(block.signature);
        if (!origin) return 'a thinking block whose signature this API never produced';
        if (origin.thinking !== block.thinking) return 'a thinking block was changed';
        if (origin.tools !== tools) return '`tools` changed after a thinking block was produced';
        if (origin.system !== system) return '`system` changed after a thinking block was produced';
        if (origin.messages.some((sent, index) => messages[index] !== sent)) {
          return 'earlier messages changed after a thinking block was produced';
        }
      }
    }
    return undefined;
  };

  const answer = (body: Body) => {
    turn += 1;
    const next = turns[turn - 1] ?? { text: 'done' };
    const content: object[] = [];
    if (body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive') {
      const signature = `sig-${turn}-${produced.size}`;
      const thinking = `Turn ${turn}: deciding what to do next.`;
      produced.set(signature, {
        thinking,
        tools: JSON.stringify(body.tools ?? []),
        system: JSON.stringify(body.system ?? null),
        messages: (body.messages ?? []).map((message) => JSON.stringify(message)),
      });
      content.push({ type: 'thinking', thinking, signature });
    }
    content.push(
      'text' in next
        ? { type: 'text', text: next.text }
        : { type: 'tool_use', id: `toolu_${turn}`, name: next.tool, input: next.input },
    );
    return {
      id: `msg_${turn}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content,
      stop_reason: 'text' in next ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  };

  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(text) as Body;
      const tools = (body.tools ?? []).map((tool) => String((tool as { name?: unknown }).name));
      const error = check(body);
      if (error !== undefined) {
        exchanges.push({ tools, status: 400, error });
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'invalid_request_error', message: error },
          }),
        );
        return;
      }
      exchanges.push({ tools, status: 200 });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    exchanges,
    script(next) {
      turns = next;
      turn = 0;
      exchanges.length = 0;
      produced.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
