// The read-only tasks: a fan-out of 20 lookups, a paginated join across two servers, a
// 1 MB result reduced to one line, and a purely sequential chain (the no-regression check).

import type { Script } from './runner.js';
import type { Person } from './servers/data.js';
import { call, countBy, program, programValue, resultOf, type Task } from './task-helpers.js';

const IDS = Array.from({ length: 20 }, (_, index) => `P${String(index + 1).padStart(2, '0')}`);
const officeCounts = (people: readonly Person[]) => countBy(people, (person) => person.office.city);

const FAN_OUT_PROGRAM = `
  const ids = Array.from({ length: 20 }, (_, index) => 'P' + String(index + 1).padStart(2, '0'));
  const people = await Promise.all(ids.map((id) => tools.directory_get_person({ id })));
  const counts = {};
  for (const person of people) counts[person.office.city] = (counts[person.office.city] ?? 0) + 1;
  return Object.fromEntries(Object.keys(counts).sort().map((city) => [city, counts[city]]));
`;

/** The direct arms: the lookups in turns of `perTurn` parallel calls. */
function* fanOutDirect(perTurn: number): Script {
  const found: Person[] = [];
  for (let start = 0; start < IDS.length; start += perTurn) {
    const seen = yield IDS.slice(start, start + perTurn).map((id) =>
      call('directory_get_person', { id }),
    );
    found.push(...seen.map((entry) => resultOf<Person>(entry)));
  }
  return officeCounts(found);
}

/** Twenty lookups whose answers are reduced to a count per office. */
export const fanOut: Task = {
  id: 'fan-out',
  title: 'a fan-out of 20 lookups',
  target: 'fan-out',
  prompt:
    'For the 20 people P01 to P20 of the directory, how many sit in each office city? Answer { city: count }.',
  arms: [
    {
      label: 'direct, parallel calls, all 20 in one turn',
      kind: 'direct',
      script: () => fanOutDirect(20),
    },
    { label: 'direct, parallel calls, 5 per turn', kind: 'direct', script: () => fanOutDirect(5) },
    { label: 'direct, one call per turn', kind: 'direct', script: () => fanOutDirect(1) },
    {
      label: 'program',
      kind: 'program',
      *script(): Script {
        const [seen] = yield [program(FAN_OUT_PROGRAM)];
        return programValue(seen);
      },
    },
    {
      label: 'program, after looking at one record first',
      kind: 'program',
      informational: true,
      *script(): Script {
        yield [call('directory_get_person', { id: 'P01' })];
        const [seen] = yield [program(FAN_OUT_PROGRAM)];
        return programValue(seen);
      },
    },
  ],
};

/** One page of a list: its items under the list's key, and the next cursor. */
type Page = { next_cursor: string | null } & Record<string, unknown>;
type Customer = { id: string; region: string };
type Invoice = { customer_id: string; amount: number; status: string };

function unpaidByRegion(customers: readonly Customer[], invoices: readonly Invoice[]) {
  const region = new Map(customers.map((customer) => [customer.id, customer.region]));
  const totals: Record<string, number> = { AMER: 0, APAC: 0, EMEA: 0 };
  for (const invoice of invoices) {
    if (invoice.status === 'unpaid') totals[region.get(invoice.customer_id)!]! += invoice.amount;
  }
  return totals;
}

const LISTS = [
  { tool: 'crm_list_customers', key: 'customers' },
  { tool: 'billing_list_invoices', key: 'invoices' },
] as const;

/** Pages through both lists; `parallel` asks for the next page of each open list in one turn. */
function* joinDirect(parallel: boolean): Script {
  const items: [Customer[], Invoice[]] = [[], []];
  const cursors: (string | null | undefined)[] = [undefined, undefined];
  const open = () => LISTS.map((_, index) => index).filter((index) => cursors[index] !== null);
  while (open().length > 0) {
    const asked = parallel ? open() : open().slice(0, 1);
    const seen = yield asked.map((index) =>
      call(LISTS[index]!.tool, cursors[index] ? { cursor: cursors[index] } : {}),
    );
    asked.forEach((index, position) => {
      const page = resultOf<Page>(seen[position]);
      (items[index] as unknown[]).push(...(page[LISTS[index]!.key] as unknown[]));
      cursors[index] = page.next_cursor;
    });
  }
  return unpaidByRegion(items[0], items[1]);
}

/** Two paginated lists on two servers, joined. */
export const join: Task = {
  id: 'join',
  title: 'a paginated join across two servers',
  prompt:
    'What is the total of unpaid invoices per customer region (AMER, APAC, EMEA)? Regions are in the CRM, invoices in billing.',
  arms: [
    {
      label: 'direct, both lists paged side by side',
      kind: 'direct',
      script: () => joinDirect(true),
    },
    { label: 'direct, one call per turn', kind: 'direct', script: () => joinDirect(false) },
    {
      label: 'program',
      kind: 'program',
      *script(): Script {
        const [seen] = yield [
          program(`
            async function all(list, key) {
              const items = [];
              let cursor;
              do {
                const page = await list(cursor ? { cursor } : {});
                items.push(...page[key]);
                cursor = page.next_cursor;
              } while (cursor);
              return items;
            }
            const [customers, invoices] = await Promise.all([
              all(tools.crm_list_customers, 'customers'),
              all(tools.billing_list_invoices, 'invoices'),
            ]);
            const region = new Map(customers.map((customer) => [customer.id, customer.region]));
            const totals = { AMER: 0, APAC: 0, EMEA: 0 };
            for (const invoice of invoices) {
              if (invoice.status === 'unpaid') totals[region.get(invoice.customer_id)] += invoice.amount;
            }
            return totals;
          `),
        ];
        return programValue(seen);
      },
    },
  ],
};

const DAY = '2026-11-30';
/** Rows per part in the paged arm: about 25,000 o200k tokens of CSV. */
const PART_ROWS = 500;
const EXPORT_PROGRAM = `
  const csv = await tools.exports_download_events({ day: '${DAY}' });
  return csv.split('\\n').filter((line) => line.split(',')[2] === 'payment_failed').length;
`;
/** The rows of a CSV export whose `kind` column is `payment_failed`. */
const failedPayments = (csv: string) =>
  csv.split('\n').filter((line) => line.split(',')[2] === 'payment_failed').length;

/** A 1 MB export reduced to one number. */
export const largeResult: Task = {
  id: 'large-result',
  title: 'a 1 MB result reduced to one line',
  target: 'large-result',
  prompt: `How many payment_failed events are in the product event export of ${DAY}?`,
  arms: [
    {
      label: 'direct, in parts of 500 rows (~55 KB: within a 25k-token cap on a tool result)',
      kind: 'direct',
      *script(): Script {
        let count = 0;
        let cursor: string | undefined;
        for (;;) {
          const [seen] = yield [
            call('exports_download_events', {
              day: DAY,
              max_rows: PART_ROWS,
              ...(cursor ? { cursor } : {}),
            }),
          ];
          const text = resultOf<string>(seen);
          count += failedPayments(text);
          cursor = /next_cursor: (\S+)/.exec(text)?.[1];
          if (cursor === undefined) return count;
        }
      },
    },
    {
      label: 'direct, the whole 1 MB in one result',
      kind: 'direct',
      *script(): Script {
        const [seen] = yield [call('exports_download_events', { day: DAY })];
        return failedPayments(resultOf<string>(seen));
      },
    },
    {
      label: 'program',
      kind: 'program',
      *script(): Script {
        const [seen] = yield [program(EXPORT_PROGRAM)];
        return programValue(seen);
      },
    },
    {
      label: 'program, after looking at the first rows',
      kind: 'program',
      informational: true,
      *script(): Script {
        yield [call('exports_download_events', { day: DAY, max_rows: 3 })];
        const [seen] = yield [program(EXPORT_PROGRAM)];
        return programValue(seen);
      },
    },
  ],
};

type Order = { placed_by: string };
const ORDER = 'O-1042';

function* sequentialDirect(): Script {
  const [order] = yield [call('orders_get_order', { id: ORDER })];
  const [buyer] = yield [call('directory_get_person', { id: resultOf<Order>(order).placed_by })];
  const [manager] = yield [call('directory_get_person', { id: resultOf<Person>(buyer).manager })];
  const found = resultOf<Person>(manager);
  return { manager: found.name, city: found.office.city };
}

/** Each step needs the previous one's result: the no-regression check. */
export const sequential: Task = {
  id: 'sequential',
  title: 'a purely sequential chain of three lookups',
  target: 'sequential',
  prompt: `Who manages the person who placed order ${ORDER}, and in which office city does that manager sit? Answer { manager, city }.`,
  arms: [
    { label: 'direct, one call per turn', kind: 'direct', script: sequentialDirect },
    {
      label: 'program (the chain in one program)',
      kind: 'program',
      *script(): Script {
        const [seen] = yield [
          program(`
            const order = await tools.orders_get_order({ id: '${ORDER}' });
            const buyer = await tools.directory_get_person({ id: order.placed_by });
            const manager = await tools.directory_get_person({ id: buyer.manager });
            return { manager: manager.name, city: manager.office.city };
          `),
        ];
        return programValue(seen);
      },
    },
    {
      label: 'program, one program per step',
      kind: 'program',
      informational: true,
      *script(): Script {
        const [order] = yield [program(`return await tools.orders_get_order({ id: '${ORDER}' });`)];
        const buyerId = programValue<Order>(order).placed_by;
        const [buyer] = yield [
          program(`return await tools.directory_get_person({ id: '${buyerId}' });`),
        ];
        const managerId = programValue<Person>(buyer).manager;
        const [manager] = yield [
          program(`return await tools.directory_get_person({ id: '${managerId}' });`),
        ];
        const found = programValue<Person>(manager);
        return { manager: found.name, city: found.office.city };
      },
    },
    {
      label: 'direct calls, tool_program offered but unused',
      kind: 'direct',
      offersProgram: true,
      informational: true,
      script: sequentialDirect,
    },
  ],
};
