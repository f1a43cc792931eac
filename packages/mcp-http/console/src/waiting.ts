// The calls waiting for approval, watched from every page: their count in the navigation
// and the tab title, and a browser notification for a new one when the operator allows it.
import type { PendingApproval } from '@tool-search/mcp';
import { get } from './api.js';
import { h } from './dom.js';

const EVERY_MS = 2000;

/** What the watch tells the page: how many calls wait now. */
export type WaitingListener = (count: number) => void;

function notify(item: PendingApproval): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const where = item.origin ? `${item.origin.server}/${item.origin.name}` : item.tool;
  const notice = new Notification(`A call waits for approval: ${item.tool}`, {
    body: `${where}${item.programId ? ` (from program ${item.programId})` : ''}`,
    tag: item.id,
  });
  notice.onclick = () => {
    window.focus();
    location.hash = '#approvals';
  };
}

/**
 * The button that asks the browser for notifications (absent when the browser has none,
 * or the operator already answered).
 */
export function notificationButton(): HTMLButtonElement | null {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return null;
  const button = h(
    'button',
    {
      type: 'button',
      id: 'notify',
      onclick: () => {
        void Notification.requestPermission().then(() => button.remove());
      },
    },
    'Notify me of waiting calls',
  );
  return button;
}

/** Watches the approvals inbox until stopped; `listener` hears each new count. */
export function watchWaiting(listener: WaitingListener): () => void {
  let seen: Set<string> | undefined;
  let stopped = false;
  let timer: number | undefined;
  const run = async () => {
    try {
      const { approvals } = await get<{ approvals: PendingApproval[] }>('approvals');
      // The calls waiting at sign-in are no news; each one after it is.
      if (seen !== undefined) for (const item of approvals) if (!seen.has(item.id)) notify(item);
      seen = new Set(approvals.map((item) => item.id));
      listener(approvals.length);
    } catch {
      // Signed out or the gateway is gone: the page says so when it loads.
    }
    if (!stopped) timer = window.setTimeout(run, EVERY_MS);
  };
  void run();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
