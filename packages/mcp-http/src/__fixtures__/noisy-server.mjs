// An upstream over stdio that writes hostile text to its stderr: markup, terminal escapes,
// and the secret it was given (NOISY_SECRET) after `token=`, bare and as a Bearer header.
// Tools: `${NOISY_PREFIX}_echo` { message } answers `echo: <message>`; `${NOISY_PREFIX}_say`
// { text } writes text to stderr. Its process id is in `${NOISY_PREFIX}_pid`'s answer.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const prefix = process.env.NOISY_PREFIX ?? 'noisy';
const secret = process.env.NOISY_SECRET ?? 'no-secret';
process.stderr.write(
  `<img src=x onerror="alert('stderr')"><b>bold</b> \u001b[2J\u001b]0;pwned\u0007 starting with token=${secret} and Authorization: Bearer ${secret} and ${secret}\n`,
);

const server = new Server({ name: prefix, version: '1.0.0' }, { capabilities: { tools: {} } });
const object = (properties) => ({ type: 'object', properties });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: `${prefix}_echo`,
      description: 'Echoes a message.',
      inputSchema: object({ message: { type: 'string' } }),
    },
    {
      name: `${prefix}_say`,
      description: 'Writes a line to stderr.',
      inputSchema: object({ text: { type: 'string' } }),
    },
    { name: `${prefix}_pid`, description: 'Answers its process id.', inputSchema: object({}) },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const args = request.params.arguments ?? {};
  const name = request.params.name.slice(prefix.length + 1);
  if (name === 'say') process.stderr.write(`${String(args.text)}\n`);
  const text =
    name === 'pid'
      ? String(process.pid)
      : name === 'echo'
        ? `echo: ${String(args.message)}`
        : 'said';
  return { content: [{ type: 'text', text }] };
});
await server.connect(new StdioServerTransport());
