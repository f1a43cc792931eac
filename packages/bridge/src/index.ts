export type { ToolCall } from '@tool-search/core';
export {
  BRIDGE_TOOL_NAMES,
  isBridgeToolName,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
} from '@tool-search/core';
export type { AssembleOptions, Assembly, AssemblyStats } from './assemble.js';
export { assembleTools } from './assemble.js';
export type { BridgeToolsOptions } from './definitions.js';
export { createBridgeTools } from './definitions.js';
export type {
  BridgeDispatch,
  BridgeDispatchContext,
  BridgeErrorResult,
  BridgeResult,
  HandleBridgeCallOptions,
  ToolDescribeResult,
  ToolSearchMatch,
  ToolSearchResult,
} from './handle.js';
export { handleBridgeCall } from './handle.js';
export type {
  IncomingToolCall,
  ResolveFailure,
  ResolveFailureReason,
  ResolveResult,
  ResolveSuccess,
} from './resolve.js';
export { bridgeErrors, echoName, resolveUnderlyingCall } from './resolve.js';
export type { BridgeTelemetry } from './telemetry.js';
export { createBridgeTelemetry } from './telemetry.js';
export type { UnwrappedToolCall } from './unwrap.js';
export { unwrapToolCall } from './unwrap.js';
