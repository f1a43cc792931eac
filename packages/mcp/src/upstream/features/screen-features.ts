import { capDescription } from '../limits.js';
import { detectToolPoisoning } from '../poisoning.js';
import type { HeldTool } from '../review.js';
import { fingerprintTool } from '../review.js';
import type { JsonObject } from './feature-client.js';

// Prompts and resources are upstream text that lands in the model's context: the same
// screen as tool descriptions (cut to the limit, poisoning patterns reported) and the
// same rug-pull review (fingerprinted; held back while the review holds them).

/** What kind of upstream item a review key or a finding names. */
export type FeatureKind = 'prompt' | 'resource' | 'template';

/** One upstream item whose text matches a poisoning pattern (reported, not changed). */
export interface FeatureFinding {
  /** What it is. */
  kind: FeatureKind;
  /** The prompt's name, the resource's URI or the template's URI template. */
  name: string;
  /** The ids of the patterns it matched. */
  patterns: string[];
}

/** The review's key of a prompt or resource: `prompt:<name>`, `resource:<uri>`. */
export const featureReviewName = (kind: FeatureKind, name: string): string => `${kind}:${name}`;

/** A screened list of one kind. */
export interface ScreenedFeatures {
  items: JsonObject[];
  findings: FeatureFinding[];
  held: HeldTool[];
  fingerprints: Map<string, string>;
}

/** The identity and text of an item, in a tool's shape, for the tools' screen and review. */
function asTool(kind: FeatureKind, item: JsonObject) {
  const name = nameOf(kind, item);
  const description = [item['title'], item['description']]
    .filter((text): text is string => typeof text === 'string')
    .join('\n');
  const schema: Record<string, unknown> = { type: 'object' };
  if (kind === 'prompt' && Array.isArray(item['arguments']))
    schema['properties'] = item['arguments'];
  if (kind !== 'prompt') schema['properties'] = { mimeType: item['mimeType'] ?? null };
  return { name: featureReviewName(kind, name), description, inputSchema: schema };
}

/** The name an item is known by: a prompt's name, a resource's URI, a template's URI template. */
export function nameOf(kind: FeatureKind, item: JsonObject): string {
  const key = kind === 'prompt' ? 'name' : kind === 'resource' ? 'uri' : 'uriTemplate';
  const value = item[key];
  return typeof value === 'string' ? value : '';
}

/**
 * Screens one server's items of one kind: drops nameless ones, cuts descriptions,
 * reports poisoning, fingerprints each and holds back what the review holds.
 *
 * @param held - the review gate's verdict on an item (its review name and fingerprint)
 * @throws nothing
 */
export function screenFeatures(
  kind: FeatureKind,
  items: readonly JsonObject[],
  options: {
    maxDescriptionChars: number;
    held: (name: string, fingerprint: string) => HeldTool | undefined;
  },
): ScreenedFeatures {
  const screened: ScreenedFeatures = { items: [], findings: [], held: [], fingerprints: new Map() };
  for (const item of items) {
    const name = nameOf(kind, item);
    if (name === '') continue;
    const tool = asTool(kind, item);
    const fingerprint = fingerprintTool(tool);
    screened.fingerprints.set(tool.name, fingerprint);
    const patterns = [...new Set(detectToolPoisoning(tool).map((finding) => finding.id))];
    if (patterns.length > 0) screened.findings.push({ kind, name, patterns });
    const hold = options.held(tool.name, fingerprint);
    if (hold !== undefined) {
      screened.held.push(hold);
      continue;
    }
    const description = item['description'];
    screened.items.push(
      typeof description === 'string'
        ? { ...item, description: capDescription(description, options.maxDescriptionChars) }
        : item,
    );
  }
  return screened;
}
