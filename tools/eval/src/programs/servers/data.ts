// The data behind the A/B's fixture servers, generated from fixed seeds so that every run
// (and every server process) sees the same records. The servers serve it over MCP; the
// tests read it only to check an answer against the records themselves.

/** A deterministic generator in [0, 1) (a linear congruential generator). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)]!;

const FIRST = [
  'Ada',
  'Bjørn',
  'Chiara',
  'Dmitri',
  'Elif',
  'Farah',
  'Goran',
  'Hana',
  'Ines',
  'Jonas',
  'Kaito',
  'Lena',
];
const LAST = [
  'Berg',
  'Costa',
  'Dahl',
  'Eriksen',
  'Fischer',
  'Haugen',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Lund',
  'Moreau',
  'Nakamura',
];
const OFFICES = ['Oslo', 'Berlin', 'Lisbon', 'Toronto', 'Singapore'] as const;
const TEAMS = ['Payments', 'Search', 'Platform', 'Mobile', 'Data', 'Support'] as const;
const SKILLS = [
  'TypeScript',
  'Go',
  'SQL',
  'Kubernetes',
  'React',
  'Rust',
  'Python',
  'Terraform',
  'Kafka',
  'GraphQL',
];

/** One person of the directory, as `directory_get_person` answers. */
export interface Person {
  id: string;
  name: string;
  title: string;
  team: string;
  manager: string | null;
  office: { city: string; floor: number; desk: string };
  contact: { email: string; phone: string; chat: string };
  employment: { started: string; type: 'full-time' | 'contractor'; cost_center: string };
  skills: string[];
  bio: string;
}

/** The 24 people P01–P24; P01–P04 manage the others. */
export function people(): Person[] {
  const next = seeded(7);
  return Array.from({ length: 24 }, (_, index) => {
    const id = `P${String(index + 1).padStart(2, '0')}`;
    const name = `${FIRST[index % FIRST.length]} ${pick(next, LAST)}`;
    const team = pick(next, TEAMS);
    const city = pick(next, OFFICES);
    const handle = name.toLowerCase().replace(/[^a-z]+/g, '.');
    return {
      id,
      name,
      title:
        index < 4
          ? `Head of ${team}`
          : pick(next, ['Engineer', 'Senior Engineer', 'Staff Engineer', 'Analyst']),
      team,
      manager: index < 4 ? null : `P0${1 + Math.floor(next() * 4)}`,
      office: {
        city,
        floor: 1 + Math.floor(next() * 9),
        desk: `${city.slice(0, 3).toUpperCase()}-${100 + index}`,
      },
      contact: {
        email: `${handle}@example.test`,
        phone: `+47 ${20000000 + index * 7919}`,
        chat: `@${handle}`,
      },
      employment: {
        started: `20${15 + Math.floor(next() * 10)}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}`,
        type: next() < 0.8 ? 'full-time' : 'contractor',
        cost_center: `CC-${4000 + Math.floor(next() * 90)}`,
      },
      skills: [pick(next, SKILLS), pick(next, SKILLS), pick(next, SKILLS)],
      bio: `${name} works on ${team.toLowerCase()} from the ${city} office. Before joining, they spent several years on ${pick(next, SKILLS)} systems at a consultancy, and they run the internal study group on ${pick(next, SKILLS)}.`,
    };
  });
}

/** One order, as `orders_get_order` answers. */
export interface Order {
  id: string;
  placed_by: string;
  placed_at: string;
  lines: { sku: string; quantity: number; unit_price: number }[];
  status: 'open' | 'shipped' | 'delivered';
}

/** Orders O-1001 to O-1060, each placed by one of the people. */
export function orders(): Order[] {
  const next = seeded(11);
  return Array.from({ length: 60 }, (_, index) => ({
    id: `O-${1001 + index}`,
    placed_by: `P${String(5 + Math.floor(next() * 20)).padStart(2, '0')}`,
    placed_at: `2026-11-${String(1 + (index % 28)).padStart(2, '0')}T0${index % 10}:15:00Z`,
    lines: [
      {
        sku: `SKU-${101 + (index % 8)}`,
        quantity: 1 + (index % 5),
        unit_price: 12.5 + (index % 7),
      },
    ],
    status: pick(next, ['open', 'shipped', 'delivered'] as const),
  }));
}

/** One customer of the CRM. */
export interface Customer {
  id: string;
  name: string;
  region: 'EMEA' | 'AMER' | 'APAC';
  segment: string;
  account_owner: string;
}

/** 48 customers C01–C48. */
export function customers(): Customer[] {
  const next = seeded(13);
  const words = [
    'Nordic',
    'Blue',
    'Harbor',
    'Summit',
    'Polar',
    'Cedar',
    'Atlas',
    'Vega',
    'Fjord',
    'Orion',
  ];
  const kinds = ['Logistics', 'Foods', 'Energy', 'Health', 'Media', 'Robotics'];
  return Array.from({ length: 48 }, (_, index) => ({
    id: `C${String(index + 1).padStart(2, '0')}`,
    name: `${pick(next, words)} ${pick(next, kinds)} ${index + 1}`,
    region: pick(next, ['EMEA', 'AMER', 'APAC'] as const),
    segment: pick(next, ['enterprise', 'mid-market', 'startup']),
    account_owner: `P${String(1 + Math.floor(next() * 24)).padStart(2, '0')}`,
  }));
}

/** One invoice of billing. */
export interface Invoice {
  id: string;
  customer_id: string;
  amount: number;
  currency: 'EUR';
  status: 'paid' | 'unpaid';
  due: string;
}

/** 40 invoices, about a third unpaid. */
export function invoices(): Invoice[] {
  const next = seeded(17);
  return Array.from({ length: 40 }, (_, index) => ({
    id: `INV-${5001 + index}`,
    customer_id: `C${String(1 + Math.floor(next() * 48)).padStart(2, '0')}`,
    amount: 100 * (5 + Math.floor(next() * 95)),
    currency: 'EUR',
    status: next() < 0.35 ? 'unpaid' : 'paid',
    due: `2026-${String(9 + (index % 4)).padStart(2, '0')}-15`,
  }));
}

/** The event kinds of the export; `payment_failed` is the one the task counts. */
const EVENT_KINDS = [
  'page_view',
  'search',
  'add_to_cart',
  'checkout',
  'payment_ok',
  'payment_failed',
  'refund',
];

/** The rows of the day's event export (about 1 MB of CSV in all). */
export const EXPORT_ROWS = 10_000;
/** The CSV header of the export. */
export const EXPORT_HEADER =
  'event_id,timestamp,kind,user_id,session_id,amount_eur,country,user_agent';

/** Row `index` (0-based) of the export, as one CSV line. */
export function exportRow(index: number): string {
  const next = seeded(1_000_003 + index * 31);
  const kind = EVENT_KINDS[Math.floor(next() * EVENT_KINDS.length)]!;
  const second = index * 8;
  const time = `2026-11-30T${String(Math.floor(second / 3600) % 24).padStart(2, '0')}:${String(Math.floor(second / 60) % 60).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}Z`;
  const amount =
    kind.startsWith('payment') || kind === 'refund' ? (5 + next() * 200).toFixed(2) : '';
  const country = pick(next, ['NO', 'DE', 'PT', 'CA', 'SG', 'FR']);
  const agent = pick(next, [
    'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1) Safari/605.1',
    'okhttp/4.12.0',
  ]);
  return `ev_${(7_000_000 + index).toString(36)},${time},${kind},u${Math.floor(next() * 5000)},s${Math.floor(next() * 90000)},${amount},${country},${agent}`;
}

/** Stock per SKU; `SKU-105`'s warehouse does not answer. */
export const FAILING_SKU = 'SKU-105';

/** Units in stock of a SKU (SKU-101 to SKU-108). */
export function stockOf(sku: string): number {
  const next = seeded(Number(sku.replace(/\D/g, '')) * 97);
  return Math.floor(next() * 400);
}

/** Euro exchange rates of the catalog's `currency_convert`. */
export const EUR_RATES: Readonly<Record<string, number>> = {
  EUR: 1,
  NOK: 11.72,
  USD: 1.08,
  GBP: 0.85,
  JPY: 162.4,
  SEK: 11.41,
};
