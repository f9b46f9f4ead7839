/** Spec, History query parameters: the resolutions a client may ask for. */
export const HISTORY_RESOLUTIONS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
/** Spec, Limits: history points per request. */
export const HISTORY_LIMIT = { min: 1, max: 366, default: 366 } as const;
/** Settled hourly funding entries per request (720 is 30 days). */
export const FUNDING_HISTORY_LIMIT = { min: 1, max: 720, default: 168 } as const;
