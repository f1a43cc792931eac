import type { DispatchResult } from '@tool-search/hooks';
import { isCallToolResult } from '../tool-result/call-result.js';
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
    case 'ok': {
      if (!isCallToolResult(result.result) || !result.result.isError) return undefined;
      const first = result.result.content[0];
      return first?.type === 'text' ? first.text.slice(0, 300) : undefined;
    }
    case 'denied':
      return `${result.by.kind} '${result.by.name}': ${result.reason}`;
    case 'error':
      return result.error.message;
    case 'cancelled':
      return result.reason;
  }
}
