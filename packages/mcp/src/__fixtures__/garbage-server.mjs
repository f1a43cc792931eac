// An upstream that answers tool calls with garbage, speaking JSON-RPC over stdio by hand
// (no SDK, so nothing checks what it sends). Every tool says it is read-only, so that a
// program may call it. Tools:
//
//   garbage_shape    a result whose `content` is a string and `isError` is "maybe"
//   garbage_huge     a text of GARBAGE_HUGE_BYTES characters (default 9 MiB)
//   garbage_deep     structuredContent nested GARBAGE_DEPTH levels deep (default 20000)
//   garbage_noise    a line of non-JSON on stdout, then a result full of escape codes
//                    and lone surrogates
//   garbage_error    a JSON-RPC error with a huge message and odd data
//   garbage_ok       { n } answers `ok <n>` (the server still works after the rest)
import { createInterface } from 'node:readline';

const hugeBytes = Number(process.env.GARBAGE_HUGE_BYTES ?? 9 * 1024 * 1024);
const depth = Number(process.env.GARBAGE_DEPTH ?? 20_000);
const readOnly = { readOnlyHint: true };
const tool = (name, description) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
  annotations: readOnly,
});
const TOOLS = [
  tool('garbage_shape', 'Answers a result of the wrong shape.'),
  tool('garbage_huge', 'Answers a very large text.'),
  tool('garbage_deep', 'Answers a very deeply nested structure.'),
  tool('garbage_noise', 'Writes noise on the wire, then escape codes.'),
  tool('garbage_error', 'Answers a JSON-RPC error with a huge message.'),
  tool('garbage_ok', 'Answers ok and the number it was given.'),
];

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

function deepValue() {
  // Built as text: a value this deep would overflow JSON.stringify here too.
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function answer(id, name, args) {
  switch (name) {
    case 'garbage_shape':
      return send({ jsonrpc: '2.0', id, result: { content: 'not a list', isError: 'maybe' } });
    case 'garbage_huge':
      return send({
        jsonrpc: '2.0',
        id,
        result: { content: [{ type: 'text', text: 'x'.repeat(hugeBytes) }] },
      });
    case 'garbage_deep':
      return process.stdout.write(
        `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"deep"}],"structuredContent":${deepValue()}}}\n`,
      );
    case 'garbage_noise':
      process.stdout.write('this line is not JSON-RPC at all }{\n');
      return send({
        jsonrpc: '2.0',
        id,
        result: {
          content: [{ type: 'text', text: '\u001b[2J\u001b]0;pwned\u0007\ud800 \u202eevil' }],
        },
      });
    case 'garbage_error':
      return send({
        jsonrpc: '2.0',
        id,
        error: { code: -32000, message: 'e'.repeat(200_000), data: { nested: [1, { x: null }] } },
      });
    default:
      return send({
        jsonrpc: '2.0',
        id,
        result: { content: [{ type: 'text', text: `ok ${args?.n ?? ''}` }] },
      });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  const { id, method, params } = message;
  if (id === undefined) return;
  if (method === 'initialize') {
    return send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'garbage-fixture', version: '1.0.0' },
      },
    });
  }
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools: TOOLS } });
  if (method === 'tools/call') return answer(id, params?.name, params?.arguments);
  if (method === 'ping') return send({ jsonrpc: '2.0', id, result: {} });
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
});
