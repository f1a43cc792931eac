// The collision resolution lives in core, so that every runtime names tools the same way;
// mcp keeps its exports.
export type { NamedUpstreamTool, UpstreamToolEntry } from '@tool-search/core';
export { resolveToolNames, serverPrefix } from '@tool-search/core';
