// The A/B's upstream MCP servers, one process each over stdio: `EVAL_SERVER` names which
// (people, crm, billing, exports, tickets, inventory or catalog). Run with
// `node --import tsx fixture-server.ts`. Every answer is JSON text, and the same value as
// `structuredContent` when it is an object; the export is CSV text.
import { createHash } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { catalogTools } from './catalog.js';
import {
  customers,
  EUR_RATES,
  EXPORT_HEADER,
  EXPORT_ROWS,
  exportRow,
  FAILING_SKU,
  invoices,
  orders,
  people,
  stockOf,
} from './data.js';

type Args = Record<string, unknown>;
interface FixtureTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  annotations: { readOnlyHint: boolean };
  run: (args: Args) => CallToolResult;
}

const json = (value: object): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});
const failed = (text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});
const str = (description: string) => ({ type: 'string', description });
const PAGE = 10;

/** A tool of a fixture server: its definition's parts and what a call answers. */
interface ToolSpec {
  name: string;
  description: string;
  properties: Record<string, unknown>;
  required: string[];
  run: (args: Args) => CallToolResult;
  /** @defaultValue true */
  readOnly?: boolean;
}

function tool(spec: ToolSpec): FixtureTool {
  const { name, description, properties, required, run, readOnly = true } = spec;
  return {
    name,
    description,
    inputSchema: { type: 'object', properties, required },
    annotations: { readOnlyHint: readOnly },
    run,
  };
}

/** One page of a list, with an opaque cursor for the next one. */
function page<T>(items: readonly T[], cursor: unknown, key: string): CallToolResult {
  const start =
    typeof cursor === 'string' && cursor !== ''
      ? Number(Buffer.from(cursor, 'base64url').toString())
      : 0;
  if (!Number.isInteger(start) || start < 0)
    return failed(`the cursor ${String(cursor)} is not one this server gave`);
  const end = start + PAGE;
  const next = end < items.length ? Buffer.from(String(end)).toString('base64url') : null;
  return json({ [key]: items.slice(start, end), next_cursor: next, total: items.length });
}

function found<T extends { id: string }>(
  items: readonly T[],
  id: unknown,
  what: string,
): CallToolResult {
  const item = items.find((entry) => entry.id === id);
  return item === undefined ? failed(`no ${what} with id ${String(id)}`) : json(item);
}

function exportPage(args: Args): CallToolResult {
  if (args['day'] !== '2026-11-30')
    return failed(`no export for ${String(args['day'])}: only 2026-11-30 is kept`);
  const from = typeof args['cursor'] === 'string' ? Number(args['cursor'].replace(/^r/, '')) : 0;
  const rows = typeof args['max_rows'] === 'number' ? args['max_rows'] : EXPORT_ROWS;
  const to = Math.min(EXPORT_ROWS, from + rows);
  const lines = [EXPORT_HEADER];
  for (let index = from; index < to; index++) lines.push(exportRow(index));
  lines.push(
    to < EXPORT_ROWS
      ? `# rows ${from + 1}-${to} of ${EXPORT_ROWS}; next_cursor: r${to}`
      : `# rows ${from + 1}-${to} of ${EXPORT_ROWS}; end`,
  );
  return { content: [{ type: 'text', text: lines.join('\n') }] };
}

const SERVERS: Record<string, () => FixtureTool[]> = {
  people: () => [
    tool({
      name: 'directory_get_person',
      description:
        'Get one person of the company directory by id. Answers { id, name, title, team, manager (a person id, or null), office: { city, floor, desk }, contact, employment, skills, bio }.',
      properties: { id: str('Person id, e.g. P07') },
      required: ['id'],
      run: (args) => found(people(), args['id'], 'person'),
    }),
    tool({
      name: 'orders_get_order',
      description:
        'Get one internal purchase order by id. Answers { id, placed_by (a person id), placed_at, lines, status }.',
      properties: { id: str('Order id, e.g. O-1042') },
      required: ['id'],
      run: (args) => found(orders(), args['id'], 'order'),
    }),
  ],
  crm: () => [
    tool({
      name: 'crm_list_customers',
      description: `List the CRM's customers, ${PAGE} per page. Answers { customers: [{ id, name, region, segment, account_owner }], next_cursor, total }; pass next_cursor to get the next page (null on the last).`,
      properties: { cursor: str('The next_cursor of the previous page; omit for the first') },
      required: [],
      run: (args) => page(customers(), args['cursor'], 'customers'),
    }),
    tool({
      name: 'crm_get_customer',
      description:
        'Get one customer of the CRM by id. Answers { id, name, region, segment, account_owner }.',
      properties: { id: str('Customer id, e.g. C05') },
      required: ['id'],
      run: (args) => found(customers(), args['id'], 'customer'),
    }),
  ],
  billing: () => [
    tool({
      name: 'billing_list_invoices',
      description: `List every invoice, ${PAGE} per page. Answers { invoices: [{ id, customer_id, amount, currency, status: 'paid' | 'unpaid', due }], next_cursor, total }; pass next_cursor to get the next page (null on the last).`,
      properties: { cursor: str('The next_cursor of the previous page; omit for the first') },
      required: [],
      run: (args) => page(invoices(), args['cursor'], 'invoices'),
    }),
  ],
  exports: () => [
    tool({
      name: 'exports_download_events',
      description: `Download a day's product event export as CSV text (about 10,000 rows, 1 MB) with the header ${EXPORT_HEADER}. A last line starting with # says which rows came and the next_cursor, if any.`,
      properties: {
        day: str('YYYY-MM-DD'),
        cursor: str('The next_cursor of the previous part; omit for the first'),
        max_rows: { type: 'integer', description: 'Rows per part (default: all)' },
      },
      required: ['day'],
      run: exportPage,
    }),
  ],
  tickets: () => [
    tool({
      name: 'tickets_create_ticket',
      description:
        'Open a support ticket (a person approves each). Answers { id, title, customer_id, priority, status }.',
      properties: {
        title: str('One-line title'),
        customer_id: str('Customer id'),
        priority: { type: 'string', enum: ['low', 'normal', 'high'] },
      },
      required: ['title', 'customer_id'],
      run: (args) =>
        json({
          id: `TCK-${createHash('sha256').update(String(args['title'])).digest('hex').slice(0, 6)}`,
          title: args['title'],
          customer_id: args['customer_id'],
          priority: args['priority'] ?? 'normal',
          status: 'open',
        }),
      readOnly: false,
    }),
  ],
  inventory: () => [
    tool({
      name: 'inventory_check_stock',
      description:
        'Units in stock of one SKU, summed over the warehouses. Answers { sku, units, warehouses }.',
      properties: { sku: str('e.g. SKU-103') },
      required: ['sku'],
      run: (args) =>
        args['sku'] === FAILING_SKU
          ? failed(`warehouse W2 did not answer for ${FAILING_SKU}: try again later`)
          : json({
              sku: args['sku'],
              units: stockOf(String(args['sku'])),
              warehouses: ['W1', 'W2'],
            }),
    }),
  ],
  catalog: () =>
    catalogTools().map((definition) => ({
      ...definition,
      run: (args: Args): CallToolResult => {
        if (definition.name !== 'currency_convert')
          return failed(`${definition.name} is not part of this fixture`);
        const from = EUR_RATES[String(args['from'])];
        const to = EUR_RATES[String(args['to'])];
        if (from === undefined || to === undefined)
          return failed(`unknown currency: use one of ${Object.keys(EUR_RATES).join(', ')}`);
        const amount = Number(args['amount']);
        return json({
          amount,
          from: args['from'],
          to: args['to'],
          result: Math.round((amount / from) * to * 100) / 100,
          rate_date: '2026-12-03',
        });
      },
    })),
};

const which = process.env['EVAL_SERVER'] ?? '';
const make = SERVERS[which];
if (make === undefined) {
  process.stderr.write(`EVAL_SERVER must be one of ${Object.keys(SERVERS).join(', ')}\n`);
  process.exit(2);
}
const tools = make();
const server = new Server(
  { name: `eval-${which}`, version: '1.0.0' },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: tools.map(({ run: _run, ...definition }) => definition),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const found = tools.find((entry) => entry.name === request.params.name);
  if (found === undefined) return failed(`unknown tool ${request.params.name}`);
  return found.run(request.params.arguments ?? {});
});
await server.connect(new StdioServerTransport());
