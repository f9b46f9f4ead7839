import { TIME } from './price-process.js';

// Regular US session in UTC (daylight-saving shifts are ignored by the simulator).
const OPEN_MINUTE = 14 * 60 + 30;
const CLOSE_MINUTE = 21 * 60;

export function isSessionOpen(t: number): boolean {
  const d = new Date(t);
  const day = d.getUTCDay();
  if (day === 0 || day === 6) return false;
  const minute = d.getUTCHours() * 60 + d.getUTCMinutes();
  return minute >= OPEN_MINUTE && minute < CLOSE_MINUTE;
}

/** The last instant at or before `t` when the session was open: prices do not move while closed. */
export function lastTradingInstant(t: number): number {
  if (isSessionOpen(t)) return t;
  let dayStart = Math.floor(t / TIME.DAY) * TIME.DAY;
  for (let i = 0; i < 8; i++, dayStart -= TIME.DAY) {
    const close = dayStart + CLOSE_MINUTE * TIME.MINUTE;
    if (close <= t && isSessionOpen(close - 1)) return close - 1;
  }
  return t;
}
