import { freshnessAt, type Freshness, type FreshnessBasis } from '../../domain/freshness.js';
import { isoOfEpochMs } from '../../domain/rfc3339.js';
import type { AnswerFacts, TimedAnswer } from './answer-facts.js';
import type { AnswerEncodings } from './answer-encoding.js';

/** One route answer's body cut around its time-dependent values, valid while the snapshot version stands. */
interface Template {
  /** The body's text between the values: before `generatedAt`, after it, after each freshness value, then after each instant. */
  pieces: string[];
  freshness: FreshnessBasis[];
  /** How many members after the freshness values hold the instant (TimedAnswer.instants). */
  instants: number;
  status: number | undefined;
  etag: TimedAnswer['etag'];
  standsAt: TimedAnswer['standsAt'];
  /** The answer of a constant template, made once (bytes and encodings) for the version. */
  constant: RetimedAnswer | undefined;
  /** UTF-16 code units held. */
  size: number;
}

/**
 * A re-timed answer: its body and the facts its finish reads (freshness, status, ETag). Shared by
 * the requests of one millisecond, so read-only; `encodings` holds its bodies as sent (AnswerEncoder).
 */
export interface RetimedAnswer {
  readonly body: string;
  readonly facts: Readonly<Pick<AnswerFacts, 'freshness' | 'status' | 'etag'>>;
  readonly encodings: AnswerEncodings;
}

/** What one snapshot version may hold, in UTF-16 code units of remembered text (~2 bytes each): past it, answers are executed. */
const TEMPLATE_BUDGET = 32 * 1024 * 1024;

/**
 * Public answers rendered once per snapshot version: an answer whose resolver said how it
 * depends on time (its facts' `timed`) is remembered as
 * its executed body, cut at `generatedAt` and at each freshness value; until the snapshot cache
 * changes, a request for the same URL gets that body with those values computed for its own
 * instant (freshnessAt, the resolvers' own function), and everything else as executed. A body in
 * which the values are not found where the resolver said is not remembered (it is executed each time).
 */
export class PublicAnswerCache {
  private readonly templates = new Map<string, Template>();
  /** The snapshot version every remembered template belongs to: one generation, dropped whole when it changes. */
  private generation: string | undefined;
  private held = 0;
  /**
   * The answers re-timed at `instant`, by key: every request of that millisecond gets the same one
   * (its bytes would be the same), with the encodings made for the first. Only one millisecond's
   * answers are ever held.
   */
  private instant = Number.NaN;
  private readonly ofInstant = new Map<string, RetimedAnswer>();

  constructor(
    private readonly version: () => string | undefined,
    private readonly now: () => number,
  ) {}

  /** The answer for `key` at this instant, when one was remembered at the current version. */
  answer(key: string): RetimedAnswer | undefined {
    if (!this.current(this.version())) return undefined;
    const t = this.templates.get(key);
    if (!t) return undefined;
    const now = this.now();
    if (t.standsAt && !t.standsAt(now)) {
      // What else it depends on moved (a candle written, a bucket closed): executed again and remembered anew.
      this.templates.delete(key);
      this.ofInstant.delete(key);
      this.held -= t.size;
      return undefined;
    }
    if (t.constant) return t.constant;
    if (now !== this.instant) {
      this.ofInstant.clear();
      this.instant = now;
    }
    const kept = this.ofInstant.get(key);
    if (kept) return kept;
    const memo = new Map<FreshnessBasis, Freshness>();
    const values = t.freshness.map((b) => freshnessAt(b, now, memo));
    const { pieces } = t;
    const iso = isoOfEpochMs(now);
    let body = pieces[0]! + iso + pieces[1]!;
    let i = 0;
    for (; i < values.length; i++) body += freshnessJson(values[i]!) + pieces[i + 2]!;
    for (let j = 0; j < t.instants; j++) body += iso + pieces[i + j + 2]!;
    const facts: Pick<AnswerFacts, 'freshness' | 'status' | 'etag'> = { freshness: values[0]! };
    if (t.status !== undefined) facts.status = t.status;
    if (t.etag) facts.etag = t.etag(this.generation!, values);
    // Shared by the millisecond's requests: frozen, so a caller that wrote to it would fail instead of changing the others'.
    Object.freeze(values[0]);
    const answer: RetimedAnswer = Object.freeze({ body, facts: Object.freeze(facts), encodings: {} });
    this.ofInstant.set(key, answer);
    return answer;
  }

  /** Remembers an executed 2xx answer whose resolver said how it is timed; returns whether it could. */
  remember(key: string, body: string, facts: AnswerFacts): boolean {
    const timed = facts.timed;
    if (!timed || !this.current(timed.version) || this.templates.has(key)) return false;
    if (this.held + body.length > TEMPLATE_BUDGET) return false;
    if (timed.standsAt && !timed.standsAt(timed.now)) return false;
    const pieces = cut(body, timed);
    if (!pieces) return false;
    this.held += body.length;
    // A backstop: dropping a template already drops its answer of this millisecond (answer(), current()).
    this.ofInstant.delete(key);
    this.templates.set(key, {
      pieces,
      freshness: withIso(timed.freshness),
      instants: timed.instants?.length ?? 0,
      status: facts.status,
      etag: timed.etag,
      standsAt: timed.standsAt,
      constant: timed.constant ? Object.freeze({ body, facts: Object.freeze({}), encodings: {} }) : undefined,
      size: body.length,
    });
    return true;
  }

  /** Whether `version` is the generation held, starting a new (empty) one when the snapshot version moved. */
  private current(version: string | undefined): boolean {
    if (version === undefined) return false;
    if (version !== this.generation) {
      this.templates.clear();
      this.ofInstant.clear();
      this.held = 0;
      this.generation = version;
    }
    return true;
  }
}

/** The body cut around `"generatedAt":"…"`, each freshness value's JSON and each instant member's value, in order; undefined where one is not found. */
function cut(body: string, timed: TimedAnswer): string[] | undefined {
  if (timed.constant) return [body];
  const generated = `"generatedAt":"${isoOfEpochMs(timed.now)}"`;
  const g = body.indexOf(generated);
  if (g === -1) return undefined;
  const pieces = [body.slice(0, g + '"generatedAt":"'.length)];
  let at = g + generated.length - 1;
  const memo = new Map<FreshnessBasis, Freshness>();
  for (const basis of timed.freshness) {
    const value = freshnessAt(basis, timed.now, memo);
    const text = JSON.stringify(value);
    // The per-request rendering must be JSON.stringify's (its strings are ISO times and enum names, nothing to escape).
    if (freshnessJson(value) !== text) return undefined;
    const f = body.indexOf(text, at);
    if (f === -1) return undefined;
    pieces.push(body.slice(at, f));
    at = f + text.length;
  }
  const iso = isoOfEpochMs(timed.now);
  for (const name of timed.instants ?? []) {
    const member = `${JSON.stringify(name)}:"${iso}"`;
    const m = body.indexOf(member, at);
    if (m === -1) return undefined;
    const value = m + member.length - iso.length - 1;
    pieces.push(body.slice(at, value));
    at = value + iso.length;
  }
  pieces.push(body.slice(at));
  return pieces;
}

/** JSON.stringify of a freshness value, without its generic walk (re-timing renders hundreds per list answer). */
function freshnessJson(f: Freshness): string {
  const reason = f.staleReason === null ? 'null' : `"${f.staleReason}"`;
  return `{"asOf":"${f.asOf}","freshnessMs":${f.freshnessMs},"stale":${f.stale},"staleReason":${reason},"sourceStatus":"${f.sourceStatus}"}`;
}

/** The bases with each snapshot time's ISO text kept, so re-timing does not format it again. */
function withIso(bases: FreshnessBasis[]): FreshnessBasis[] {
  const seen = new Set<FreshnessBasis>();
  const visit = (b: FreshnessBasis) => {
    if (seen.has(b)) return;
    seen.add(b);
    if ('asOf' in b) b.asOfIso ??= new Date(b.asOf).toISOString();
    else if ('parts' in b) {
      b.parts.forEach(visit);
      visit(b.fallback);
    }
  };
  bases.forEach(visit);
  return bases;
}
