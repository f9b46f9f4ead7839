/**
 * New York wall-clock helpers for the Alpaca fake: the venue's clock answers in New York time
 * (`2024-05-20T10:15:31.123456789-04:00`), daily bars start at New York midnight, and the regular
 * session is 09:30–16:00 on weekdays. Exchange holidays and half days are not modelled.
 */

const NEW_YORK = 'America/New_York';

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: NEW_YORK, timeZoneName: 'longOffset' });
const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: NEW_YORK,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
});

/** Minutes east of UTC in New York at that instant (-240 in summer, -300 in winter). */
export function newYorkOffsetMinutes(at: Date): number {
  const name = offsetFormat.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The New York wall clock at an instant. */
export function newYorkWallClock(at: Date): WallClock {
  const parts = Object.fromEntries(partsFormat.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Sun'),
  };
}

/** The instant of a New York wall-clock time (the calendar may overflow: day 32 is the next month). */
export function newYorkInstant(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  const naive = Date.UTC(year, month - 1, day, hour, minute);
  let at = new Date(naive - newYorkOffsetMinutes(new Date(naive)) * 60_000);
  // Second pass settles instants near a daylight-saving switch.
  at = new Date(naive - newYorkOffsetMinutes(at) * 60_000);
  return at;
}

/** New York midnight of the day that contains `at`. */
export function newYorkMidnight(at: Date): Date {
  const wall = newYorkWallClock(at);
  return newYorkInstant(wall.year, wall.month, wall.day);
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/**
 * RFC 3339 in New York time. `nanos` adds nine fractional digits (the clock's `timestamp`);
 * without it the seconds are whole (`next_open`, `next_close`).
 */
export function formatNewYork(at: Date, nanos = false): string {
  const wall = newYorkWallClock(at);
  const offset = newYorkOffsetMinutes(at);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const fraction = nanos ? `.${pad(at.getUTCMilliseconds(), 3)}000000` : '';
  return (
    `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${fraction}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** UTC RFC 3339 with six fractional digits, as Alpaca's order timestamps look (`…01.942282Z`). */
export function formatMicros(at: Date): string {
  return at.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** UTC RFC 3339 without fractional seconds, as bar timestamps look (`2022-02-01T05:00:00Z`). */
export function formatWhole(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isWeekday(weekday: number): boolean {
  return weekday >= 1 && weekday <= 5;
}

/** Regular-session open and close of the New York day that contains `at` (weekend days included). */
function sessionOf(at: Date): { open: Date; close: Date; weekday: number } {
  const wall = newYorkWallClock(at);
  return {
    open: newYorkInstant(wall.year, wall.month, wall.day, 9, 30),
    close: newYorkInstant(wall.year, wall.month, wall.day, 16, 0),
    weekday: wall.weekday,
  };
}

/** The first weekday session whose open is at or after `at`. */
function nextSessionOpeningFrom(at: Date): { open: Date; close: Date } {
  let probe = at;
  for (let i = 0; i < 10; i += 1) {
    const session = sessionOf(probe);
    if (isWeekday(session.weekday) && session.open.getTime() >= at.getTime()) return session;
    const wall = newYorkWallClock(probe);
    probe = newYorkInstant(wall.year, wall.month, wall.day + 1, 12, 0);
  }
  throw new Error('no weekday session within ten days');
}

/** Whether the regular session is open at `at` (weekdays 09:30–16:00 New York, no holidays). */
export function isRegularSessionOpen(at: Date): boolean {
  const session = sessionOf(at);
  return isWeekday(session.weekday) && at >= session.open && at < session.close;
}

/**
 * `next_open` / `next_close` as the clock reports them, consistent with the `is_open` it reports
 * (which the fake may force either way): when open, the next close is the first 16:00 after now and
 * the next open the session after it; when closed, the next open is the first weekday 09:30 after
 * now and the next close that session's 16:00.
 */
export function nextSessionBounds(at: Date, open: boolean): { nextOpen: Date; nextClose: Date } {
  if (open) {
    const today = sessionOf(at);
    const wall = newYorkWallClock(at);
    const nextClose = today.close.getTime() > at.getTime() ? today.close : sessionOf(newYorkInstant(wall.year, wall.month, wall.day + 1, 12)).close;
    return { nextClose, nextOpen: nextSessionOpeningFrom(new Date(nextClose.getTime() + 1)).open };
  }
  const next = nextSessionOpeningFrom(new Date(at.getTime() + 1));
  return { nextOpen: next.open, nextClose: next.close };
}
