// The tasks about what calls meet: an approval-gated write, a tool failing mid-program,
// and a deferred tool found by search and then called.
import type { ProgramResult } from '@tool-search/code';
import type { Script } from './runner.js';
import { call, program, programValue, resultOf, type Task } from './task-helpers.js';

const CUSTOMERS = ['C05', 'C17', 'C31'];
type Customer = { id: string; name: string };
type Ticket = { id: string };
const ticketFor = (customer: Customer) =>
  call('tickets_create_ticket', {
    title: `Renew contract: ${customer.name}`,
    customer_id: customer.id,
    priority: 'high',
  });

/** Three lookups, then three writes, each approved by a person (a callback that says yes). */
export const approvedWrite: Task = {
  id: 'approved-write',
  title: 'an approval-gated write',
  prompt: `Open a high-priority ticket "Renew contract: <customer name>" for each of the customers ${CUSTOMERS.join(', ')}. Answer with the ticket ids.`,
  arms: [
    {
      label: 'direct, parallel calls (lookups, then writes)',
      kind: 'direct',
      *script(): Script {
        const found = yield CUSTOMERS.map((id) => call('crm_get_customer', { id }));
        const created = yield found.map((seen) => ticketFor(resultOf<Customer>(seen)));
        return created.map((seen) => resultOf<Ticket>(seen).id);
      },
    },
    {
      label: 'direct, one call per turn',
      kind: 'direct',
      *script(): Script {
        const ids: string[] = [];
        for (const id of CUSTOMERS) {
          const [found] = yield [call('crm_get_customer', { id })];
          const [created] = yield [ticketFor(resultOf<Customer>(found))];
          ids.push(resultOf<Ticket>(created).id);
        }
        return ids;
      },
    },
    {
      label: 'program',
      kind: 'program',
      *script(): Script {
        const [seen] = yield [
          program(`
            const ids = ${JSON.stringify(CUSTOMERS)};
            const tickets = await Promise.all(ids.map(async (id) => {
              const customer = await tools.crm_get_customer({ id });
              return tools.tickets_create_ticket({ title: 'Renew contract: ' + customer.name, customer_id: id, priority: 'high' });
            }));
            return tickets.map((ticket) => ticket.id);
          `),
        ];
        return programValue(seen);
      },
    },
  ],
};

const SKUS = Array.from({ length: 8 }, (_, index) => `SKU-${101 + index}`);
type Stock = { units: number };

/** The direct arms: a failed call is a result the model reads, and goes on. */
function* stockDirect(parallel: boolean): Script {
  let total = 0;
  const unchecked: string[] = [];
  const batches = parallel ? [SKUS] : SKUS.map((sku) => [sku]);
  for (const batch of batches) {
    const seen = yield batch.map((sku) => call('inventory_check_stock', { sku }));
    batch.forEach((sku, index) => {
      if (seen[index]?.status === 'ok') total += resultOf<Stock>(seen[index]).units;
      else unchecked.push(sku);
    });
  }
  return { total, unchecked };
}

const CAREFUL = `
  const skus = ${JSON.stringify(SKUS)};
  const settled = await Promise.allSettled(skus.map((sku) => tools.inventory_check_stock({ sku })));
  let total = 0;
  const unchecked = [];
  settled.forEach((entry, index) => {
    if (entry.status === 'fulfilled') total += entry.value.units;
    else unchecked.push(skus[index]);
  });
  return { total, unchecked };
`;

/** Eight stock checks; one warehouse does not answer. */
export const failingTool: Task = {
  id: 'failing-tool',
  title: 'a tool failing mid-program',
  prompt: `How many units are in stock in total across ${SKUS[0]} to ${SKUS.at(-1)}? Name any SKU that could not be checked.`,
  arms: [
    { label: 'direct, parallel calls', kind: 'direct', script: () => stockDirect(true) },
    { label: 'direct, one call per turn', kind: 'direct', script: () => stockDirect(false) },
    {
      label: 'program that does not expect the failure, then a second one that does',
      kind: 'program',
      *script(): Script {
        const [first] = yield [
          program(`
            let total = 0;
            for (const sku of ${JSON.stringify(SKUS)}) total += (await tools.inventory_check_stock({ sku })).units;
            return { total, unchecked: [] };
          `),
        ];
        const failed = first?.value as ProgramResult | undefined;
        if (failed?.status !== 'error') throw new Error('the first program was expected to fail');
        const [second] = yield [program(CAREFUL)];
        return programValue(second);
      },
    },
    {
      label: 'program that catches the failure',
      kind: 'program',
      informational: true,
      *script(): Script {
        const [seen] = yield [program(CAREFUL)];
        return programValue(seen);
      },
    },
  ],
};

const QUERY = 'convert an amount of money between currencies';
const CONVERSION = { amount: 250, from: 'EUR', to: 'NOK' };
type Match = { name: string; description: string };

/** The name of the match a model would pick: the converter of currencies. */
function converterOf(matches: readonly Match[]): string {
  const match = matches.find(
    (entry) => entry.name.includes('convert') && /currenc/i.test(entry.description),
  );
  if (match === undefined)
    throw new Error(`the search did not find a converter: ${JSON.stringify(matches)}`);
  return match.name;
}

/** A tool of the deferred catalog: searched, described, then called. */
export const deferredTool: Task = {
  id: 'deferred-tool',
  title: 'a deferred tool found by search, then called',
  prompt: 'How much is 250 EUR in Norwegian kroner today?',
  arms: [
    {
      label: 'direct: tool_search, tool_describe, tool_call',
      kind: 'direct',
      *script(): Script {
        const [found] = yield [call('tool_search', { query: QUERY })];
        const name = converterOf(resultOf<{ matches: Match[] }>(found).matches);
        yield [call('tool_describe', { name })];
        const [converted] = yield [call('tool_call', { name, arguments: CONVERSION })];
        return resultOf<{ result: number }>(converted).result;
      },
    },
    {
      label: 'program: tools.search and tools.describe, then a call',
      kind: 'program',
      *script(): Script {
        const [found] = yield [
          program(`
            const matches = await tools.search('${QUERY}', { limit: 5 });
            const best = matches[0];
            return { matches: matches.map((match) => ({ name: match.name, description: match.description })), declaration: await tools.describe(best.name) };
          `),
        ];
        const name = converterOf(programValue<{ matches: Match[] }>(found).matches);
        const [converted] = yield [
          program(`return (await tools.call('${name}', ${JSON.stringify(CONVERSION)})).result;`),
        ];
        return programValue(converted);
      },
    },
  ],
};
