import type { Assembly } from '@tool-search/bridge';
import type { ToolCatalog, ToolDefinition } from '@tool-search/core';

/**
 * What a session keeps for the draft methods: a catalog over its whole scope (made again
 * when its assembly changes) and each definition's hash.
 */
export interface DisclosureState {
  /** The assembly the scope catalog was made for. */
  madeFor: Assembly | undefined;
  catalog: ToolCatalog | undefined;
  readonly hashes: WeakMap<ToolDefinition, string>;
}

/** A new, empty disclosure state. */
export function createDisclosureState(): DisclosureState {
  return { madeFor: undefined, catalog: undefined, hashes: new WeakMap() };
}
