export const CERTIFICATION_STATES = ['certified', 'canary', 'disabled', 'blocked', 'partner_required', 'legal_review_only'] as const;
export type CertificationState = (typeof CERTIFICATION_STATES)[number];

export const VISIBILITIES = ['public', 'hidden', 'internal'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const PROTOCOL_KINDS = ['perpetuals', 'equities', 'token_swap', 'lending'] as const;
export type ProtocolKind = (typeof PROTOCOL_KINDS)[number];

export interface ActionDefinition {
  id: string;
  name: string;
  visibility: Visibility;
  certification: CertificationState;
  /** When the current certification state was granted (RFC 3339). */
  certifiedAt: string | null;
}

export interface ProtocolDefinition {
  id: string;
  name: string;
  kind: ProtocolKind;
  /** The market-data source whose health decides the protocol's availability. */
  sourceId: string;
  visibility: Visibility;
  certification: CertificationState;
  certifiedAt: string | null;
  actions: ActionDefinition[];
}

/** Spec: hidden, disabled, canary-only and blocked protocols or actions never reach the public plane. */
const NOT_PUBLIC: ReadonlySet<CertificationState> = new Set(['canary', 'disabled', 'blocked']);

export function isPublic(item: { visibility: Visibility; certification: CertificationState }): boolean {
  return item.visibility === 'public' && !NOT_PUBLIC.has(item.certification);
}
