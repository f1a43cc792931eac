import type { DispatchResult } from '@tool-search/hooks';
import { isCallToolResult, toolErrorText } from '../tool-result/call-result.js';
import type { GatewayActivity } from './types.js';

/** The activity status of a dispatched call. */
export function activityStatus(result: DispatchResult): GatewayActivity['status'] {
  if (result.status === 'ok') {
    return isCallToolResult(result.result) && result.result.isError ? 'tool_error' : 'ok';
  }
  return result.status;
}

/** Why a dispatched call did not succeed, for the activity feed. */
export function activityDetail(result: DispatchResult): string | undefined {
  switch (result.status) {
    case 'ok':
      return toolErrorText(result.result) || undefined;
    case 'denied':
      return `${result.by.kind} '${result.by.name}': ${result.reason}`;
    case 'error':
      return result.error.message;
    case 'cancelled':
      return result.reason;
  }
}
