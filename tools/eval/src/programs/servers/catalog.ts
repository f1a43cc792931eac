// The deferred tools of the A/B: a catalog server of 30 utilities the session does not
// load up front. The model finds `currency_convert` among them by searching. Only that
// one answers with data; the others answer that they are not part of the fixture. Like
// every fixture tool, its description states the shape of its answer, which is what a
// program needs to use it without seeing one first.

/** One catalog entry: name, description, and its parameters as [name, type, description]. */
type Entry = [string, string, [string, 'string' | 'number' | 'integer', string][]];

const ENTRIES: Entry[] = [
  [
    'currency_convert',
    'Convert an amount of money from one currency to another at today’s reference rate. Answers { amount, from, to, result, rate_date }.',
    [
      ['amount', 'number', 'The amount to convert'],
      ['from', 'string', 'ISO 4217 code of the source currency, e.g. EUR'],
      ['to', 'string', 'ISO 4217 code of the target currency, e.g. NOK'],
    ],
  ],
  [
    'currency_history',
    'Daily reference rates of a currency pair between two dates.',
    [
      ['base', 'string', 'ISO 4217 code'],
      ['quote', 'string', 'ISO 4217 code'],
      ['from_date', 'string', 'YYYY-MM-DD'],
      ['to_date', 'string', 'YYYY-MM-DD'],
    ],
  ],
  [
    'weather_forecast',
    'Hourly weather forecast for a place for the next days.',
    [
      ['place', 'string', 'City or coordinates'],
      ['days', 'integer', 'Days ahead, 1 to 10'],
    ],
  ],
  [
    'weather_current',
    'Current weather observation at a place.',
    [['place', 'string', 'City or coordinates']],
  ],
  [
    'geo_geocode',
    'Find the coordinates of an address or place name.',
    [['query', 'string', 'Address or place']],
  ],
  [
    'geo_reverse',
    'Find the address at a pair of coordinates.',
    [
      ['lat', 'number', 'Latitude'],
      ['lon', 'number', 'Longitude'],
    ],
  ],
  [
    'geo_distance',
    'Great-circle distance between two coordinates in kilometres.',
    [
      ['from', 'string', 'lat,lon'],
      ['to', 'string', 'lat,lon'],
    ],
  ],
  [
    'timezone_lookup',
    'Time zone and UTC offset of a place at a given moment.',
    [
      ['place', 'string', 'City or coordinates'],
      ['at', 'string', 'ISO 8601 time'],
    ],
  ],
  [
    'calendar_list_events',
    'List the events of a calendar between two times.',
    [
      ['calendar_id', 'string', 'Calendar id'],
      ['from', 'string', 'ISO 8601 time'],
      ['to', 'string', 'ISO 8601 time'],
    ],
  ],
  [
    'calendar_create_event',
    'Create an event in a calendar and invite people.',
    [
      ['calendar_id', 'string', 'Calendar id'],
      ['title', 'string', 'Event title'],
      ['start', 'string', 'ISO 8601 time'],
      ['end', 'string', 'ISO 8601 time'],
      ['attendees', 'string', 'Comma-separated emails'],
    ],
  ],
  [
    'calendar_free_slots',
    'Find free slots common to several people’s calendars.',
    [
      ['people', 'string', 'Comma-separated emails'],
      ['minutes', 'integer', 'Length of the slot'],
    ],
  ],
  [
    'units_convert',
    'Convert a quantity between units of length, mass, volume or temperature.',
    [
      ['value', 'number', 'The quantity'],
      ['from_unit', 'string', 'e.g. km, lb, °F'],
      ['to_unit', 'string', 'e.g. mi, kg, °C'],
    ],
  ],
  [
    'translate_text',
    'Translate a text into another language.',
    [
      ['text', 'string', 'The text'],
      ['target_language', 'string', 'BCP 47 tag, e.g. nb'],
    ],
  ],
  ['detect_language', 'Detect the language of a text.', [['text', 'string', 'The text']]],
  [
    'holidays_list',
    'Public holidays of a country in a year.',
    [
      ['country', 'string', 'ISO 3166 code'],
      ['year', 'integer', 'The year'],
    ],
  ],
  [
    'vat_rate',
    'The standard VAT rate of a country on a date.',
    [
      ['country', 'string', 'ISO 3166 code'],
      ['date', 'string', 'YYYY-MM-DD'],
    ],
  ],
  ['iban_validate', 'Check an IBAN and name its bank.', [['iban', 'string', 'The IBAN']]],
  ['stock_quote', 'Latest price of a listed share.', [['symbol', 'string', 'Ticker symbol']]],
  [
    'crypto_price',
    'Latest price of a crypto asset in a fiat currency.',
    [
      ['asset', 'string', 'e.g. BTC'],
      ['currency', 'string', 'ISO 4217 code'],
    ],
  ],
  [
    'flight_status',
    'Status of a flight on a date.',
    [
      ['flight', 'string', 'e.g. SK4035'],
      ['date', 'string', 'YYYY-MM-DD'],
    ],
  ],
  [
    'train_departures',
    'Next departures from a railway station.',
    [
      ['station', 'string', 'Station name'],
      ['limit', 'integer', 'How many'],
    ],
  ],
  [
    'email_send',
    'Send an email.',
    [
      ['to', 'string', 'Recipient'],
      ['subject', 'string', 'Subject'],
      ['body', 'string', 'Plain text body'],
    ],
  ],
  [
    'sms_send',
    'Send a text message to a phone number.',
    [
      ['to', 'string', 'E.164 number'],
      ['text', 'string', 'The message'],
    ],
  ],
  [
    'qr_encode',
    'Encode a text as a QR code image (PNG, base64).',
    [
      ['text', 'string', 'The text'],
      ['size', 'integer', 'Pixels'],
    ],
  ],
  ['url_shorten', 'Shorten a URL.', [['url', 'string', 'The URL']]],
  [
    'pdf_extract_text',
    'Extract the text of a PDF document at a URL.',
    [['url', 'string', 'The PDF URL']],
  ],
  [
    'image_resize',
    'Resize an image at a URL.',
    [
      ['url', 'string', 'The image URL'],
      ['width', 'integer', 'Pixels'],
      ['height', 'integer', 'Pixels'],
    ],
  ],
  [
    'hash_text',
    'Hash a text with SHA-256, SHA-1 or MD5.',
    [
      ['text', 'string', 'The text'],
      ['algorithm', 'string', 'sha256, sha1 or md5'],
    ],
  ],
  ['uuid_generate', 'Generate random UUIDs.', [['count', 'integer', 'How many']]],
  [
    'password_generate',
    'Generate a random password.',
    [
      ['length', 'integer', 'Characters'],
      ['symbols', 'string', 'yes or no'],
    ],
  ],
];

const WRITES = new Set(['calendar_create_event', 'email_send', 'sms_send']);

/** The catalog's tools as MCP tool definitions (read-only but for the three that send or create). */
export function catalogTools() {
  return ENTRIES.map(([name, description, params]) => ({
    name,
    description,
    inputSchema: {
      type: 'object' as const,
      properties: Object.fromEntries(
        params.map(([param, type, text]) => [param, { type, description: text }]),
      ),
      required: params.map(([param]) => param),
    },
    annotations: { readOnlyHint: !WRITES.has(name) },
  }));
}
