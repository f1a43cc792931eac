import type { UpstreamPool } from '@tool-search/mcp';
import { formatInt, renderTable, type Style } from './format.js';
import { safeText } from './inspect-review.js';

interface Output {
  write(text: string): unknown;
}

const OFFERS = ['resources', 'prompts', 'completions', 'logging'] as const;

/**
 * The table of what each connected server offers besides tools: its capabilities and
 * its resources, templates and prompts as the gateway carries them (held ones apart),
 * then each prompt or resource whose text speaks to the model.
 *
 * @throws nothing
 */
export function printServerFeatures(pool: UpstreamPool, out: Output, style: Style): void {
  const servers = pool.features?.servers() ?? [];
  if (servers.length === 0) return;
  const rows = servers.map((features) => {
    const offers = OFFERS.filter((key) => features.capabilities[key] !== undefined);
    const subscribe =
      (features.capabilities['resources'] as { subscribe?: boolean } | undefined)?.subscribe ===
      true;
    return [
      safeText(features.server),
      offers
        .map((key) => (key === 'resources' && subscribe ? 'resources (subscribe)' : key))
        .join(', ') || '-',
      formatInt(features.resources.length),
      formatInt(features.templates.length),
      formatInt(features.prompts.length),
      features.held.length > 0 ? `${formatInt(features.held.length)} held for review` : '',
    ];
  });
  out.write(
    `\n${renderTable(
      [
        { header: 'server' },
        { header: 'offers besides tools' },
        { header: 'resources', align: 'right' },
        { header: 'templates', align: 'right' },
        { header: 'prompts', align: 'right' },
        { header: 'note' },
      ],
      rows,
      { style },
    ).join('\n')}\n`,
  );
  for (const features of servers) {
    for (const finding of features.findings) {
      out.write(
        `${style.yellow('instruction-like text')} in ${finding.kind} ${safeText(`${features.server}/${finding.name}`)}: ${finding.patterns.join(', ')}\n`,
      );
    }
  }
}
