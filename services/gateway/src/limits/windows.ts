/** Fixed windows aligned to the UTC clock: minute, hour, calendar month. */
export interface Windows {
  minute: { id: number; resetAt: number };
  hour: { id: number; resetAt: number };
  month: { id: string; resetAt: number; start: Date };
  /** Unix seconds, for Retry-After arithmetic. */
  nowSeconds: number;
}

// Every request asks; the answer changes once a second.
let last: Windows | undefined;

export function windowsAt(nowMs: number): Windows {
  if (last !== undefined && last.nowSeconds === Math.floor(nowMs / 1000)) return last;
  last = computeWindows(nowMs);
  return last;
}

function computeWindows(nowMs: number): Windows {
  const nowSeconds = Math.floor(nowMs / 1000);
  const minute = Math.floor(nowSeconds / 60);
  const hour = Math.floor(nowSeconds / 3600);
  const d = new Date(nowMs);
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return {
    nowSeconds,
    minute: { id: minute, resetAt: (minute + 1) * 60 },
    hour: { id: hour, resetAt: (hour + 1) * 3600 },
    month: { id: `${start.getUTCFullYear()}${String(start.getUTCMonth() + 1).padStart(2, '0')}`, resetAt: next.getTime() / 1000, start },
  };
}
