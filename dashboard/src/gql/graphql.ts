/* eslint-disable */
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An RFC 3339 date-time in UTC, such as 2026-11-22T10:00:00.000Z. */
  DateTime: { input: string; output: string; }
  /** A decimal number as a string, never a float (such as "64012.5"). */
  Decimal: { input: string; output: string; }
  /** A free-form JSON object. */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
};

export type ActionCapability = {
  /** A GraphQL String, not an enum: action ids are protocol-registry data, and a hidden or newly configured id must still serialize. */
  action: Scalars['String']['output'];
  agentSessionRequired: Scalars['Boolean']['output'];
  allowed: AllowedNow;
  approvalModes: Array<Scalars['String']['output']>;
  blockedBy: Array<GateBlock>;
  certification: CertificationState;
  name: Scalars['String']['output'];
  protocol: Scalars['String']['output'];
  requiredScopes: ScopesByMode;
};

export type ActionCertification = {
  certification: CertificationState;
  id: Scalars['String']['output'];
};

export type AgentInterfaces = {
  mcp: McpInterface;
};

export type AgentSession = {
  /** GraphQL Strings, not an enum: action ids are protocol-registry data, and a hidden or newly configured id must still serialize. */
  actions: Array<Scalars['String']['output']>;
  active: Scalars['Boolean']['output'];
  apiKeyId: Scalars['String']['output'];
  assets: Array<Scalars['String']['output']>;
  expiresAt: Scalars['DateTime']['output'];
  id: Scalars['String']['output'];
  maxOrderNotional: Scalars['Decimal']['output'];
  maxPeriodNotional: Scalars['Decimal']['output'];
  periodSeconds: Scalars['Int']['output'];
  protocols: Array<Scalars['String']['output']>;
  revokedAt: Maybe<Scalars['DateTime']['output']>;
  startsAt: Scalars['DateTime']['output'];
};

export type AgentSessionConnection = {
  edges: Array<AgentSessionEdge>;
  pageInfo: PageInfo;
};

export type AgentSessionEdge = {
  cursor: Scalars['String']['output'];
  node: AgentSession;
};

export type AllowedNow = {
  live: Scalars['Boolean']['output'];
  preview: Scalars['Boolean']['output'];
};

export type Approval = {
  approvalId: Scalars['String']['output'];
  approveRequest: SigningRequest;
  consumedAt: Maybe<Scalars['DateTime']['output']>;
  createdAt: Scalars['DateTime']['output'];
  decidedAt: Maybe<Scalars['DateTime']['output']>;
  /** The execution that consumed this approval; null until one did. */
  execution: Maybe<Execution>;
  executionId: Maybe<Scalars['String']['output']>;
  expiresAt: Scalars['DateTime']['output'];
  instruction: Scalars['JSONObject']['output'];
  instructionHash: Scalars['String']['output'];
  /** On the state sent on subscribe with lastSequence: whether the record changed after it (then refetch); null otherwise. */
  missedEvents: Maybe<Scalars['Boolean']['output']>;
  /** When its latest change was produced. */
  producedAt: Scalars['DateTime']['output'];
  rejectRequest: SigningRequest;
  /** This approval's update number, the same for every subscriber and replica: 1 when requested, 2 once decided, 3 once consumed (a change without an event). */
  sequence: Scalars['Int']['output'];
  /** pending, approved, rejected, expired or consumed. */
  state: ApprovalState;
  wallet: Scalars['String']['output'];
};

export type ApprovalConnection = {
  edges: Array<ApprovalEdge>;
  pageInfo: PageInfo;
};

export type ApprovalEdge = {
  cursor: Scalars['String']['output'];
  node: Approval;
};

export type ApprovalList = {
  approvals: Array<Approval>;
  /** Pass as cursor for the next page; null on the last page. */
  nextCursor: Maybe<Scalars['String']['output']>;
};

/** The account's approvals, newest first. */
export type ApprovalListEnvelope = {
  data: ApprovalList;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type ApprovalState =
  | 'approved'
  | 'consumed'
  | 'expired'
  | 'pending'
  | 'rejected';

export type AssetInInput = {
  /** Decimal string. */
  amount: Scalars['String']['input'];
  token: Scalars['String']['input'];
};

export type AuditEntry = {
  /** The account whose chain this is (one of the hashed fields). */
  accountId: Scalars['String']['output'];
  at: Scalars['DateTime']['output'];
  details: Scalars['JSONObject']['output'];
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of {seq, accountId, at, type, referenceId, details, prevHash}; prevHash is the previous entry hash (64 zeros for the first). */
  hash: Scalars['String']['output'];
  prevHash: Scalars['String']['output'];
  referenceId: Maybe<Scalars['String']['output']>;
  seq: Scalars['Int']['output'];
  type: Scalars['String']['output'];
};

export type AuditEntryConnection = {
  edges: Array<AuditEntryEdge>;
  pageInfo: PageInfo;
};

export type AuditEntryEdge = {
  cursor: Scalars['String']['output'];
  node: AuditEntry;
};

export type AuditLog = {
  brokenAt: Maybe<Scalars['Int']['output']>;
  chainValid: Scalars['Boolean']['output'];
  entries: Array<AuditEntry>;
  /** Pass as cursor for the older entries; null at the chain start. */
  nextCursor: Maybe<Scalars['String']['output']>;
};

export type Availability =
  | 'available'
  | 'degraded'
  | 'restricted'
  | 'unavailable';

/** What blocks an action or a workflow step: an execution gate, or a missing scope, wallet session or agent session. */
export type BlockingGate =
  | 'agent_session'
  | 'authority'
  | 'balance'
  | 'certification'
  | 'feature_flag'
  | 'idempotency'
  | 'quote'
  | 'scope'
  | 'venue'
  | 'wallet_session';

export type CacheState = {
  marketSnapshots: Scalars['Int']['output'];
  newestSnapshotAt: Maybe<Scalars['DateTime']['output']>;
  oldestSnapshotAt: Maybe<Scalars['DateTime']['output']>;
  orderBookSnapshots: Scalars['Int']['output'];
  /** warm, partial or cold. */
  state: CacheWarmth;
};

/** warm: every market has a snapshot; partial: some; cold: none. */
export type CacheWarmth =
  | 'cold'
  | 'partial'
  | 'warm';

/** One stored candle observation (OHLCV). */
export type Candle = {
  close: Scalars['Decimal']['output'];
  /** False while the bucket is still open. */
  closed: Scalars['Boolean']['output'];
  high: Scalars['Decimal']['output'];
  low: Scalars['Decimal']['output'];
  open: Scalars['Decimal']['output'];
  /** Bucket start. */
  time: Scalars['DateTime']['output'];
  volume: Scalars['Decimal']['output'];
};

export type Capabilities = {
  accountId: Scalars['String']['output'];
  executionEnabled: Scalars['Boolean']['output'];
  interfaces: AgentInterfaces;
  keyId: Maybe<Scalars['String']['output']>;
  killSwitchEngaged: Scalars['Boolean']['output'];
  protocols: Array<ProtocolCapability>;
  scopes: Array<Scalars['String']['output']>;
};

/** Envelope: live capabilities of this key. */
export type CapabilitiesEnvelope = {
  data: Capabilities;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type Certification = {
  certifiedAt: Maybe<Scalars['DateTime']['output']>;
  state: CertificationState;
};

export type CertificationState =
  | 'blocked'
  | 'canary'
  | 'certified'
  | 'disabled'
  | 'legal_review_only'
  | 'partner_required';

export type ControlReason = {
  id: Scalars['String']['output'];
  reason: Maybe<Scalars['String']['output']>;
};

export type Counts = {
  markets: Scalars['Int']['output'];
  protocols: Scalars['Int']['output'];
};

/** How the caller authenticated: an API key or a wallet session (sign-in with Ethereum). */
export type CredentialKind =
  | 'api_key'
  | 'wallet_session';

export type Execution = {
  /** A GraphQL String, not an enum: action ids are protocol-registry data, and a hidden or newly configured id must still serialize. */
  action: Scalars['String']['output'];
  agentSessionId: Maybe<Scalars['String']['output']>;
  /** The approval this execution consumed (interactive clients); null under an agent session. */
  approval: Maybe<Approval>;
  approvalId: Maybe<Scalars['String']['output']>;
  /** The audit entries of this execution, oldest first: its approval's creation and decision, and each state it reached. */
  auditEntries: Array<AuditEntry>;
  createdAt: Scalars['DateTime']['output'];
  executionId: Scalars['String']['output'];
  fill: Maybe<Fill>;
  history: Array<ExecutionStateChange>;
  instructionHash: Scalars['String']['output'];
  /** On the state sent on subscribe with lastSequence: whether the record changed after it (then refetch); null otherwise. */
  missedEvents: Maybe<Scalars['Boolean']['output']>;
  /** What the client should do next: set while the outcome is `unknown` (reconcile by referenceId), null otherwise. */
  nextAction: Maybe<Scalars['String']['output']>;
  /** Set when the order was routed to a real venue; null on the paper venues. */
  order: Maybe<RoutedOrder>;
  principalKind: PrincipalKind;
  /** When its latest change was produced. */
  producedAt: Scalars['DateTime']['output'];
  protocol: Scalars['String']['output'];
  reason: Maybe<Scalars['String']['output']>;
  referenceId: Scalars['String']['output'];
  replayed: Scalars['Boolean']['output'];
  /** This execution's update number, the same for every subscriber and replica: its count of state changes (its first event is 2, after accepted). */
  sequence: Scalars['Int']['output'];
  state: ExecutionState;
  updatedAt: Scalars['DateTime']['output'];
};

export type ExecutionConnection = {
  edges: Array<ExecutionEdge>;
  pageInfo: PageInfo;
};

export type ExecutionEdge = {
  cursor: Scalars['String']['output'];
  node: Execution;
};

export type ExecutionList = {
  executions: Array<Execution>;
  /** Pass as cursor for the next page; null on the last page. */
  nextCursor: Maybe<Scalars['String']['output']>;
};

/** The account's executions, newest first. */
export type ExecutionListEnvelope = {
  data: ExecutionList;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

/** Order details: side, type and price for orders; tokenOut and slippageBps for swaps; leverage for perpetuals. */
export type ExecutionMetadataInput = {
  leverage?: InputMaybe<Scalars['Int']['input']>;
  /** Limit price, decimal string. */
  price?: InputMaybe<Scalars['String']['input']>;
  /** buy or sell */
  side?: InputMaybe<Scalars['String']['input']>;
  slippageBps?: InputMaybe<Scalars['Int']['input']>;
  /** How a limit order rests at a real venue: gtc (default), alo (post-only) or ioc. The paper venues fill or refuse at once. */
  timeInForce?: InputMaybe<Scalars['String']['input']>;
  tokenOut?: InputMaybe<Scalars['String']['input']>;
  /** market or limit */
  type?: InputMaybe<Scalars['String']['input']>;
};

export type ExecutionPreview = {
  createdAt: Scalars['DateTime']['output'];
  executable: Scalars['Boolean']['output'];
  expiresAt: Scalars['DateTime']['output'];
  gates: Array<GateVerdict>;
  instruction: Scalars['JSONObject']['output'];
  /** SHA-256 of the RFC 8785 canonical request without approvalId. */
  instructionHash: Scalars['String']['output'];
  previewId: Scalars['String']['output'];
  quote: Maybe<Quote>;
  referenceId: Scalars['String']['output'];
  replayed: Scalars['Boolean']['output'];
};

export type ExecutionState =
  | 'accepted'
  | 'cancelled'
  | 'failed'
  | 'filled'
  | 'open'
  | 'partially_filled'
  | 'rejected'
  | 'submitted'
  | 'unknown';

export type ExecutionStateChange = {
  at: Scalars['DateTime']['output'];
  reason: Maybe<Scalars['String']['output']>;
  state: ExecutionState;
};

export type Fill = {
  fee: Scalars['Decimal']['output'];
  feeToken: Scalars['String']['output'];
  filledAmount: Scalars['Decimal']['output'];
  notional: Scalars['Decimal']['output'];
  price: Scalars['Decimal']['output'];
  requestedAmount: Scalars['Decimal']['output'];
};

/** How old the data behind a response is, computed at request time. */
export type Freshness = {
  asOf: Scalars['DateTime']['output'];
  freshnessMs: Scalars['Float']['output'];
  sourceStatus: SourceStatus;
  stale: Scalars['Boolean']['output'];
  staleReason: Maybe<Scalars['String']['output']>;
};

export type FundingPoint = {
  annualizedPct: Scalars['Decimal']['output'];
  /** Rate for the interval ending at `time`. */
  rate: Scalars['Decimal']['output'];
  /** Settlement time. */
  time: Scalars['DateTime']['output'];
};

/** A gate that blocks an action right now, in gate order: the first is what a submission would meet first. `gate` is the internal gate name, `check` the check within it; `code` the error a submission would get. */
export type GateBlock = {
  check: Maybe<Scalars['String']['output']>;
  code: Maybe<GateCode>;
  gate: BlockingGate;
  reason: Scalars['String']['output'];
};

/** Public error codes of the execution gates. */
export type GateCode =
  | 'ACTION_CANARY_ONLY'
  | 'ACTION_NOT_CERTIFIED'
  | 'EXECUTION_DISABLED'
  | 'IDEMPOTENCY_CONFLICT'
  | 'INSUFFICIENT_BALANCE'
  | 'POLICY_DENIED'
  | 'POLICY_UNAVAILABLE'
  | 'QUOTE_STALE'
  | 'VENUE_UNHEALTHY';

/** The execution gates, in the order a submission meets them (internal names). */
export type GateName =
  | 'authority'
  | 'balance'
  | 'certification'
  | 'feature_flag'
  | 'idempotency'
  | 'quote'
  | 'venue';

/** pass, block, or not_evaluated when an earlier gate blocks. */
export type GateStatus =
  | 'block'
  | 'not_evaluated'
  | 'pass';

export type GateVerdict = {
  /** The error a submission would get now. */
  code: Maybe<GateCode>;
  /** feature_flag, certification, venue, authority, quote, balance or idempotency. */
  gate: GateName;
  reason: Scalars['String']['output'];
  /** pass, block, or not_evaluated when an earlier gate blocks. */
  status: GateStatus;
};

export type GatewayStatus = {
  cache: CacheState;
  counts: Counts;
  mode: Scalars['String']['output'];
  sharedState: SharedState;
  sources: Array<SourceHealth>;
  /** Which venues are real and which simulated. */
  venues: Array<VenueStatus>;
};

export type LendingPosition = {
  /** In the asset, at the current borrow APY since each fill. */
  accruedBorrowInterest: Scalars['Decimal']['output'];
  /** In the asset, at the current supply APY since each fill. */
  accruedSupplyInterest: Scalars['Decimal']['output'];
  asset: Scalars['String']['output'];
  borrowed: Scalars['Decimal']['output'];
  priceUsd: Maybe<Scalars['Decimal']['output']>;
  stale: Scalars['Boolean']['output'];
  supplied: Scalars['Decimal']['output'];
};

export type LendingYield = {
  asset: Scalars['String']['output'];
  /** Percent. */
  borrowApy: Scalars['Decimal']['output'];
  marketId: Scalars['String']['output'];
  /** Percent. */
  supplyApy: Scalars['Decimal']['output'];
  /** 0 to 1. */
  utilization: Scalars['Decimal']['output'];
};

/** Envelope: lending yield. */
export type LendingYieldEnvelope = {
  data: LendingYield;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

/** A public market record: the latest snapshot of one market. */
export type Market = {
  /** Base asset symbol. */
  asset: Scalars['String']['output'];
  /** Borrow APY in percent (lending). */
  borrowApy: Maybe<Scalars['Decimal']['output']>;
  change24hPct: Scalars['Decimal']['output'];
  freshness: Freshness;
  /** Current funding, as GET /api/v1/data/perps/funding/{asset} (scope data:read); null for other kinds. */
  funding: Maybe<PerpFunding>;
  /** Settled funding, as GET /api/v1/data/perps/funding/history/{asset} (scope data:read); null for other kinds. */
  fundingHistory: Maybe<PerpFundingHistory>;
  /** Hourly funding rate (perpetuals). */
  fundingRate: Maybe<Scalars['Decimal']['output']>;
  hasOrderBook: Scalars['Boolean']['output'];
  /** 24 h high; null while the venue has not reported it. */
  high24h: Maybe<Scalars['Decimal']['output']>;
  /** Stored candles, as GET /api/v1/public/markets/{asset}/history (same validation and codes). */
  history: MarketHistory;
  /** Market id, such as BTC-PERP. */
  id: Scalars['String']['output'];
  kind: MarketKind;
  /** In-range liquidity of a swap pool, as the quote-token reserve of the constant-product pool it equals at the current price (token swap); null where the venue does not report it. */
  liquidity: Maybe<Scalars['Decimal']['output']>;
  /** 24 h low; null while the venue has not reported it. */
  low24h: Maybe<Scalars['Decimal']['output']>;
  /** On the state marketUpdated sends on subscribe with lastSequence: whether events came after it (then refetch); null otherwise. */
  missedEvents: Maybe<Scalars['Boolean']['output']>;
  nextFundingAt: Maybe<Scalars['DateTime']['output']>;
  /** Open interest notional in quote units (perpetuals). */
  openInterest: Maybe<Scalars['Decimal']['output']>;
  /** The cached order book, best first; null when the market has none or its source is down. */
  orderBook: Maybe<OrderBook>;
  price: Scalars['Decimal']['output'];
  /** On marketUpdated events: when the event was produced. */
  producedAt: Maybe<Scalars['DateTime']['output']>;
  protocol: Scalars['String']['output'];
  /** The public protocol listing this market (`protocol` is its id). */
  protocolDetails: Maybe<PublicProtocol>;
  quote: Scalars['String']['output'];
  /** On marketUpdated: this market's snapshot event number, one more per event (the newest known on the state sent on subscribe); null in queries. */
  sequence: Maybe<Scalars['Int']['output']>;
  /** Whether the trading session is open (equities). */
  sessionOpen: Maybe<Scalars['Boolean']['output']>;
  /** Supply APY in percent (lending). */
  supplyApy: Maybe<Scalars['Decimal']['output']>;
  /** Pool utilisation, 0 to 1 (lending). */
  utilization: Maybe<Scalars['Decimal']['output']>;
  /** Traded notional over 24 h, in quote units. */
  volume24h: Scalars['Decimal']['output'];
};


/** A public market record: the latest snapshot of one market. */
export type MarketFundingHistoryArgs = {
  limit?: InputMaybe<Scalars['Int']['input']>;
};


/** A public market record: the latest snapshot of one market. */
export type MarketHistoryArgs = {
  from?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  resolution?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};


/** A public market record: the latest snapshot of one market. */
export type MarketOrderBookArgs = {
  depth?: InputMaybe<Scalars['Int']['input']>;
};

/** Public envelope: one market summary; data is null for an unknown market. */
export type MarketEnvelope = {
  data: Maybe<Market>;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type MarketFreshness = {
  asset: Scalars['String']['output'];
  freshness: Freshness;
  /** True when nothing changed: the state is re-sent so a client knows the feed is alive. */
  heartbeat: Scalars['Boolean']['output'];
  marketId: Scalars['String']['output'];
  /** On the state sent on subscribe with lastSequence: whether events came after it (then refetch); null otherwise. */
  missedEvents: Maybe<Scalars['Boolean']['output']>;
  /** When the event was produced. */
  producedAt: Maybe<Scalars['DateTime']['output']>;
  /** This market's freshness event number, one more per event (the newest known on the state sent on subscribe; null if none yet). */
  sequence: Maybe<Scalars['Int']['output']>;
};

export type MarketGraph = {
  edges: Array<MarketGraphEdge>;
  nodes: Array<MarketGraphNode>;
  returns: ReturnKind;
  windowDays: Scalars['Int']['output'];
};

export type MarketGraphAsset = MarketGraphNode & {
  id: Scalars['ID']['output'];
  kind: MarketGraphNodeKind;
  symbol: Scalars['String']['output'];
};

export type MarketGraphEdge = {
  /** Correlation edges: Pearson's r of the two markets' daily returns, in [-1, 1], computed in float64 and rounded to 6 decimal places. */
  correlation: Maybe<Scalars['Float']['output']>;
  kind: MarketGraphEdgeKind;
  /** Correlation edges: the days both markets have a return for. */
  observations: Maybe<Scalars['Int']['output']>;
  /** Node id the edge starts at. */
  source: Scalars['ID']['output'];
  /** Node id the edge ends at. */
  target: Scalars['ID']['output'];
};

/** listed_on: market → venue and market → protocol; base_asset: market → the asset it prices; quoted_in: market → its quote asset; collateral_for: asset → protocol (a lending pool’s asset backs borrowing, a perpetual’s quote asset is its margin); correlation: market ↔ market, the correlation of their daily returns. */
export type MarketGraphEdgeKind =
  | 'base_asset'
  | 'collateral_for'
  | 'correlation'
  | 'listed_on'
  | 'quoted_in';

/** Public envelope (the spec's market-graph kind): markets, assets, protocols and venues, and the edges between them. */
export type MarketGraphEnvelope = {
  data: MarketGraph;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type MarketGraphMarket = MarketGraphNode & {
  asset: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  kind: MarketGraphNodeKind;
  /** The latest snapshot; null before the first. */
  market: Maybe<Market>;
  marketId: Scalars['String']['output'];
  marketKind: MarketKind;
  quote: Scalars['String']['output'];
};

/** A node of the market graph; `id` is `<kind>:<name>` (market:BTC-PERP, asset:USDC, protocol:paper-perps, venue:paper-perps). */
export type MarketGraphNode = {
  id: Scalars['ID']['output'];
  kind: MarketGraphNodeKind;
};

export type MarketGraphNodeKind =
  | 'asset'
  | 'market'
  | 'protocol'
  | 'venue';

export type MarketGraphProtocol = MarketGraphNode & {
  id: Scalars['ID']['output'];
  kind: MarketGraphNodeKind;
  protocol: PublicProtocol;
  protocolId: Scalars['String']['output'];
};

/** A market-data venue (source) listing markets. */
export type MarketGraphVenue = MarketGraphNode & {
  id: Scalars['ID']['output'];
  kind: MarketGraphNodeKind;
  sourceStatus: SourceStatus;
  venueId: Scalars['String']['output'];
};

export type MarketHistory = {
  asset: Scalars['String']['output'];
  from: Maybe<Scalars['DateTime']['output']>;
  marketId: Maybe<Scalars['String']['output']>;
  /** Pass as cursor for the older page; null when none is left. */
  nextCursor: Maybe<Scalars['String']['output']>;
  points: Array<Candle>;
  resolution: Scalars['String']['output'];
  to: Scalars['DateTime']['output'];
};

/** Public envelope with candle observations. */
export type MarketHistoryEnvelope = {
  data: MarketHistory;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type MarketKind =
  | 'equity'
  | 'lending'
  | 'perpetual'
  | 'swap_pool';

/** Public envelope: list of public markets. */
export type MarketsEnvelope = {
  data: Array<Market>;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

/** The Model Context Protocol endpoint: tools generated from the workflow nodes, with the same Bearer credential and scopes. */
export type McpInterface = {
  endpoint: Scalars['String']['output'];
  tools: Scalars['String']['output'];
  transport: Scalars['String']['output'];
};

export type Mutation = {
  /** POST /api/v1/agent-sessions (wallet session) */
  activateAgentSession: AgentSession;
  /** DELETE /api/v1/execute/executions/{executionId} (scope execute:live): cancels the rest of an order resting at its venue. */
  cancelExecution: Execution;
  /** POST /api/v1/execute/approvals (wallet session) */
  createApproval: Approval;
  /** POST /api/v1/auth/siwe/nonce */
  createSiweNonce: SiweNonce;
  /** PATCH /api/service/ai/approvals/{approvalId} (wallet session and a fresh signature) */
  decideApproval: Approval;
  /** POST /api/v1/execute (scope execute:live) */
  execute: Execution;
  /** POST /api/v1/execute/preview (scope execute:preview) */
  previewExecution: ExecutionPreview;
  /** DELETE /api/v1/agent-sessions/{sessionId} */
  revokeAgentSession: AgentSession;
  /** DELETE /api/v1/keys/{keyId} (wallet session) */
  revokeApiKey: RevokedApiKey;
  /** DELETE /api/v1/auth/session (wallet session): ends every wallet session of the account */
  signOut: Scalars['Boolean']['output'];
  /** PATCH /api/v1/operator/controls (operator token) */
  updateOperatorControls: OperatorControls;
  /** POST /api/v1/auth/siwe/verify */
  verifySiwe: WalletSessionGrant;
};


export type MutationActivateAgentSessionArgs = {
  actions: Array<Scalars['String']['input']>;
  apiKeyId: Scalars['String']['input'];
  assets: Array<Scalars['String']['input']>;
  expiresAt: Scalars['String']['input'];
  maxOrderNotional: Scalars['String']['input'];
  maxPeriodNotional: Scalars['String']['input'];
  periodSeconds: Scalars['Int']['input'];
  protocols: Array<Scalars['String']['input']>;
  startsAt?: InputMaybe<Scalars['String']['input']>;
};


export type MutationCancelExecutionArgs = {
  executionId: Scalars['String']['input'];
};


export type MutationCreateApprovalArgs = {
  action: Scalars['String']['input'];
  assetIn: AssetInInput;
  metadata?: InputMaybe<ExecutionMetadataInput>;
  protocol: Scalars['String']['input'];
  referenceId: Scalars['String']['input'];
};


export type MutationDecideApprovalArgs = {
  approvalId: Scalars['String']['input'];
  decision: Scalars['String']['input'];
  message: Scalars['String']['input'];
  signature: Scalars['String']['input'];
};


export type MutationExecuteArgs = {
  action: Scalars['String']['input'];
  approvalId?: InputMaybe<Scalars['String']['input']>;
  assetIn: AssetInInput;
  metadata?: InputMaybe<ExecutionMetadataInput>;
  protocol: Scalars['String']['input'];
  referenceId: Scalars['String']['input'];
};


export type MutationPreviewExecutionArgs = {
  action: Scalars['String']['input'];
  assetIn: AssetInInput;
  metadata?: InputMaybe<ExecutionMetadataInput>;
  protocol: Scalars['String']['input'];
  referenceId: Scalars['String']['input'];
};


export type MutationRevokeAgentSessionArgs = {
  sessionId: Scalars['String']['input'];
};


export type MutationRevokeApiKeyArgs = {
  keyId: Scalars['String']['input'];
};


export type MutationUpdateOperatorControlsArgs = {
  breakerOpen?: InputMaybe<Scalars['Boolean']['input']>;
  breakerSourceId?: InputMaybe<Scalars['String']['input']>;
  certificationAction?: InputMaybe<Scalars['String']['input']>;
  certificationProtocol?: InputMaybe<Scalars['String']['input']>;
  certificationState?: InputMaybe<Scalars['String']['input']>;
  executionEnabled?: InputMaybe<Scalars['Boolean']['input']>;
  killSwitch?: InputMaybe<Scalars['Boolean']['input']>;
  protocolEnabled?: InputMaybe<Scalars['Boolean']['input']>;
  protocolId?: InputMaybe<Scalars['String']['input']>;
  reason?: InputMaybe<Scalars['String']['input']>;
};


export type MutationVerifySiweArgs = {
  message: Scalars['String']['input'];
  signature: Scalars['String']['input'];
};

export type OperatorControls = {
  circuitBreakers: Array<ControlReason>;
  disabledProtocols: Array<ControlReason>;
  executionEnabled: Scalars['Boolean']['output'];
  killSwitchEngaged: Scalars['Boolean']['output'];
  killSwitchReason: Maybe<Scalars['String']['output']>;
};

export type OrderBook = {
  /** Best first, at most 100. */
  asks: Array<OrderBookLevel>;
  asset: Scalars['String']['output'];
  /** Best first, at most 100. */
  bids: Array<OrderBookLevel>;
  depth: Scalars['Int']['output'];
  marketId: Scalars['String']['output'];
};

/** Order-book envelope (max age 5 000 ms). */
export type OrderBookEnvelope = {
  data: OrderBook;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  /** On the book orderBookUpdated sends on subscribe with lastSequence: whether events came after it (then refetch); null otherwise. */
  missedEvents: Maybe<Scalars['Boolean']['output']>;
  /** On orderBookUpdated events: when the event was produced. */
  producedAt: Maybe<Scalars['DateTime']['output']>;
  schemaVersion: Scalars['String']['output'];
  /** On orderBookUpdated: this market's order-book event number, one more per event (the newest known on the state sent on subscribe); null in queries. */
  sequence: Maybe<Scalars['Int']['output']>;
};

export type OrderBookLevel = {
  /** Size of this level and all better ones. */
  cumulativeSize: Scalars['Decimal']['output'];
  price: Scalars['Decimal']['output'];
  size: Scalars['Decimal']['output'];
};

/** Side of an order or a quote. */
export type OrderSide =
  | 'buy'
  | 'sell';

export type PageInfo = {
  endCursor: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor: Maybe<Scalars['String']['output']>;
};

/** Funding is monitoring data; it places no order and is not an execution signal when stale. */
export type PerpFunding = {
  annualizedPct: Scalars['Decimal']['output'];
  asset: Scalars['String']['output'];
  /** Current hourly rate. */
  fundingRate: Scalars['Decimal']['output'];
  intervalHours: Scalars['Int']['output'];
  lastSettlement: Maybe<FundingPoint>;
  marketId: Scalars['String']['output'];
  nextFundingAt: Maybe<Scalars['DateTime']['output']>;
  openInterest: Maybe<Scalars['Decimal']['output']>;
};

/** Envelope: current funding of a perpetual. */
export type PerpFundingEnvelope = {
  data: PerpFunding;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type PerpFundingHistory = {
  asset: Scalars['String']['output'];
  /** Most recent last. */
  entries: Array<FundingPoint>;
  intervalHours: Scalars['Int']['output'];
  marketId: Scalars['String']['output'];
  /** Pass as cursor for the older page; null when none is kept. */
  nextCursor: Maybe<Scalars['String']['output']>;
};

/** Envelope: settled funding history. */
export type PerpFundingHistoryEnvelope = {
  data: PerpFundingHistory;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

/** An open perpetual position, marked to the snapshot cache. */
export type PerpPosition = {
  /** Average entry (signed cost / size). */
  entryPrice: Maybe<Scalars['Decimal']['output']>;
  /** Position value at mark over margin. */
  leverage: Maybe<Scalars['Decimal']['output']>;
  /** Where equity meets the 0.5 % maintenance margin. */
  liquidationPrice: Maybe<Scalars['Decimal']['output']>;
  marginUsd: Scalars['Decimal']['output'];
  markPrice: Maybe<Scalars['Decimal']['output']>;
  marketId: Scalars['String']['output'];
  /** long or short. */
  side: PositionSide;
  size: Scalars['Decimal']['output'];
  /** The mark is past its max age: not an execution signal. */
  stale: Scalars['Boolean']['output'];
  unrealizedPnlUsd: Maybe<Scalars['Decimal']['output']>;
};

export type PerpPrice = {
  asset: Scalars['String']['output'];
  change24hPct: Scalars['Decimal']['output'];
  /** 24 h high; null while the venue has not reported it. */
  high24h: Maybe<Scalars['Decimal']['output']>;
  /** 24 h low; null while the venue has not reported it. */
  low24h: Maybe<Scalars['Decimal']['output']>;
  marketId: Scalars['String']['output'];
  price: Scalars['Decimal']['output'];
  quote: Scalars['String']['output'];
};

/** Envelope: current price of a perpetual. */
export type PerpPriceEnvelope = {
  data: PerpPrice;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type Portfolio = {
  accountId: Scalars['String']['output'];
  balances: Array<PortfolioBalance>;
  /** The paper ledger valued at snapshot prices (venue accounts are apart). */
  totalValueUsd: Scalars['Decimal']['output'];
  /** Real venues' accounts bound to this account (balances, equity, positions), as the venues report them; never mixed into the paper balances. */
  venues: Array<VenueAccount>;
  wallet: Scalars['String']['output'];
};

export type PortfolioBalance = {
  amount: Scalars['Decimal']['output'];
  priceUsd: Maybe<Scalars['Decimal']['output']>;
  token: Scalars['String']['output'];
  valueUsd: Maybe<Scalars['Decimal']['output']>;
};

/** Envelope: the key's account. */
export type PortfolioEnvelope = {
  data: Portfolio;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

/** Side of a perpetual position. */
export type PositionSide =
  | 'long'
  | 'short';

export type Positions = {
  lending: Array<LendingPosition>;
  /** Borrowed over supplied value (limit 0.75). */
  loanToValue: Maybe<Scalars['Decimal']['output']>;
  perps: Array<PerpPosition>;
  /** Positions real venues hold for this account (their truth), beside the paper ones above; empty when no real venue takes this account's orders. */
  venues: Array<VenueAccount>;
};

/** Envelope: the key's open positions. */
export type PositionsEnvelope = {
  data: Positions;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

/** Who submitted: a wallet session or an API key. */
export type PrincipalKind =
  | 'api_key'
  | 'wallet_session';

export type ProtocolCapability = {
  actions: Array<ActionCapability>;
  id: Scalars['String']['output'];
  kind: ProtocolKind;
  name: Scalars['String']['output'];
  sourceStatus: SourceStatus;
};

/** Public envelope: one protocol. */
export type ProtocolEnvelope = {
  data: PublicProtocol;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type ProtocolIntelligence = {
  actions: Array<ActionCertification>;
  averageFundingRate: Maybe<Scalars['Decimal']['output']>;
  averageSupplyApy: Maybe<Scalars['Decimal']['output']>;
  consecutiveFailures: Scalars['Int']['output'];
  kind: ProtocolKind;
  lastSuccessAt: Maybe<Scalars['DateTime']['output']>;
  marketCount: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  openInterestUsd: Maybe<Scalars['Decimal']['output']>;
  protocolId: Scalars['String']['output'];
  sourceStatus: SourceStatus;
  volume24hUsd: Scalars['Decimal']['output'];
};

/** Envelope: protocol intelligence. */
export type ProtocolIntelligenceEnvelope = {
  data: ProtocolIntelligence;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type ProtocolKind =
  | 'equities'
  | 'lending'
  | 'perpetuals'
  | 'token_swap';

/** Public envelope: every public protocol. */
export type ProtocolsEnvelope = {
  data: Array<PublicProtocol>;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type PublicAction = {
  availability: Availability;
  /** Whether the caller could execute this action now: false without a key or wallet session, and while a standing check blocks it (execution disabled, certification, kill switch, circuit breaker, venue down, missing execute:live scope or agent session), as in capabilities. */
  availableNow: Scalars['Boolean']['output'];
  certification: Certification;
  id: Scalars['String']['output'];
  name: Scalars['String']['output'];
  /** When not available now: the code an execution would meet first (e.g. VENUE_UNHEALTHY, POLICY_DENIED, authentication_required). */
  unavailableCode: Maybe<Scalars['String']['output']>;
  /** When not available now: why, in words. */
  unavailableReason: Maybe<Scalars['String']['output']>;
  visibility: Visibility;
};

export type PublicProtocol = {
  actions: Array<PublicAction>;
  availability: Availability;
  certification: Certification;
  id: Scalars['String']['output'];
  kind: ProtocolKind;
  /** The markets this protocol lists that have a snapshot (`markets` are their ids). */
  marketList: Array<Market>;
  markets: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  sourceStatus: SourceStatus;
  visibility: Visibility;
};

export type Query = {
  /** GET /api/v1/agent-sessions */
  agentSessions: Array<AgentSession>;
  /** GET /api/v1/execute/approvals/{approvalId} */
  approval: Approval;
  /** GET /api/v1/execute/approvals */
  approvals: ApprovalListEnvelope;
  /** GET /api/v1/audit */
  auditLog: AuditLog;
  /** GET /api/v1/capabilities (any valid key) */
  capabilities: CapabilitiesEnvelope;
  /** GET /api/v1/openapi.json: the full contract, OpenAPI 3.1 (any valid key) */
  contractOpenApi: Scalars['JSONObject']['output'];
  /** GET /api/v1/data/orderbook/{asset} (scope data:read) */
  dataOrderBook: OrderBookEnvelope;
  /** GET /api/v1/execute/executions/{executionId} */
  execution: Execution;
  /** GET /api/v1/execute/references/{referenceId} */
  executionByReference: Execution;
  /** GET /api/v1/execute/executions */
  executions: ExecutionListEnvelope;
  /** GET /api/v1/data/lending/yield/{asset} (scope data:read) */
  lendingYield: LendingYieldEnvelope;
  /** GET /api/v1/public/markets/{asset} */
  market: MarketEnvelope;
  /** The market graph (GraphQL only, no REST route). Correlation edges come from the stored daily candles of the last `windowDays` closed days; a pair sharing fewer than 3 daily returns, or with a constant series, has none. */
  marketGraph: MarketGraphEnvelope;
  /** GET /api/v1/public/markets/{asset}/history */
  marketHistory: MarketHistoryEnvelope;
  /** GET /api/v1/public/markets */
  markets: MarketsEnvelope;
  /** GET /api/v1/public/data/markets.json: the markets list as a cacheable mirror. */
  marketsMirror: MarketsEnvelope;
  /** GET /api/v1/operator/controls (operator token) */
  operatorControls: OperatorControls;
  /** GET /api/v1/public/markets/{asset}/orderbook */
  orderBook: OrderBookEnvelope;
  /** GET /api/v1/data/perps/funding/{asset} (scope data:read) */
  perpFunding: PerpFundingEnvelope;
  /** GET /api/v1/data/perps/funding/history/{asset} (scope data:read) */
  perpFundingHistory: PerpFundingHistoryEnvelope;
  /** GET /api/v1/data/perps/price/{asset} (scope data:read) */
  perpPrice: PerpPriceEnvelope;
  /** GET /api/v1/data/portfolio (scope data:read) */
  portfolio: PortfolioEnvelope;
  /** GET /api/v1/data/positions (scope data:read) */
  positions: PositionsEnvelope;
  /** GET /api/v1/public/protocols/{protocol} */
  protocol: ProtocolEnvelope;
  /** GET /api/v1/data/protocols/{protocol}/intelligence (scope data:read) */
  protocolIntelligence: ProtocolIntelligenceEnvelope;
  /** GET /api/v1/public/data/protocols.json */
  protocols: ProtocolsEnvelope;
  /** GET /api/v1/public/openapi.public.json: the public contract (OpenAPI 3.1). */
  publicOpenApi: Scalars['JSONObject']['output'];
  /** GET /api/v1/public/status */
  status: StatusEnvelope;
  /** The caller's account (API key or wallet session); null with the REST routes' 401 error for an unauthenticated caller. */
  viewer: Maybe<Viewer>;
  /** GET /api/v1/workflow-nodes (any valid key) */
  workflowNodes: WorkflowNodesEnvelope;
};


export type QueryApprovalArgs = {
  approvalId: Scalars['String']['input'];
};


export type QueryApprovalsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  protocol?: InputMaybe<Scalars['String']['input']>;
  referenceId?: InputMaybe<Scalars['String']['input']>;
  state?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};


export type QueryAuditLogArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryDataOrderBookArgs = {
  asset: Scalars['String']['input'];
};


export type QueryExecutionArgs = {
  executionId: Scalars['String']['input'];
};


export type QueryExecutionByReferenceArgs = {
  referenceId: Scalars['String']['input'];
};


export type QueryExecutionsArgs = {
  cursor?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  protocol?: InputMaybe<Scalars['String']['input']>;
  referenceId?: InputMaybe<Scalars['String']['input']>;
  state?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};


export type QueryLendingYieldArgs = {
  asset: Scalars['String']['input'];
};


export type QueryMarketArgs = {
  asset: Scalars['String']['input'];
};


export type QueryMarketGraphArgs = {
  minAbsCorrelation?: InputMaybe<Scalars['Float']['input']>;
  returns?: InputMaybe<ReturnKind>;
  windowDays?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryMarketHistoryArgs = {
  asset: Scalars['String']['input'];
  cursor?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  resolution?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};


export type QueryOrderBookArgs = {
  asset: Scalars['String']['input'];
};


export type QueryPerpFundingArgs = {
  asset: Scalars['String']['input'];
};


export type QueryPerpFundingHistoryArgs = {
  asset: Scalars['String']['input'];
  cursor?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryPerpPriceArgs = {
  asset: Scalars['String']['input'];
};


export type QueryProtocolArgs = {
  protocol: Scalars['String']['input'];
};


export type QueryProtocolIntelligenceArgs = {
  protocol: Scalars['String']['input'];
};

export type Quote = {
  amount: Scalars['Decimal']['output'];
  amountOut: Maybe<Scalars['Decimal']['output']>;
  /** Signed ledger changes on a full fill. */
  balanceChanges: Array<TokenAmount>;
  /** filled, partially_filled, open (a limit that rests in full at a real venue: it fills nothing now) or rejected (an immediate-or-cancel limit that would be cancelled, a post-only limit that would cross). */
  expectedFillState: Scalars['String']['output'];
  /** What the venue's fill would take now (same simulation as the submission); a limit that does not cross fills 0. */
  expectedFilledAmount: Scalars['Decimal']['output'];
  fee: Scalars['Decimal']['output'];
  feeToken: Scalars['String']['output'];
  marketId: Scalars['String']['output'];
  minAmountOut: Maybe<Scalars['Decimal']['output']>;
  notionalUsd: Scalars['Decimal']['output'];
  price: Maybe<Scalars['Decimal']['output']>;
  side: Maybe<OrderSide>;
};

/** log: ln(close / previous close); simple: close / previous close − 1. */
export type ReturnKind =
  | 'log'
  | 'simple';

export type RevokedApiKey = {
  keyId: Scalars['String']['output'];
  revokedAt: Maybe<Scalars['DateTime']['output']>;
};

export type RouteRef = {
  method: Scalars['String']['output'];
  path: Scalars['String']['output'];
};

/** An order routed to a real venue (Hyperliquid, Alpaca): the ids it goes by there, and whether part of it still rests. */
export type RoutedOrder = {
  /** The client order id sent to the venue, derived from the account and the referenceId (the same on every retry). */
  clientOrderId: Scalars['String']['output'];
  /** Whether part of the order still rests at the venue (cancel it with DELETE /api/v1/execute/executions/{executionId}). */
  resting: Scalars['Boolean']['output'];
  /** The venue's own id of the order, once it answered. */
  venueOrderId: Maybe<Scalars['String']['output']>;
};

export type ScopesByMode = {
  live: Array<Scalars['String']['output']>;
  preview: Array<Scalars['String']['output']>;
};

/** Where this replica keeps shared state (cache, candles, keys, rate limits, pub/sub) and whether it can reach it. */
export type SharedState = {
  /** False while Redis is unreachable: reads are then served from local copies, marked stale. */
  connected: Scalars['Boolean']['output'];
  /** True while this replica runs ingestion (holds the lease). */
  ingestionLeader: Scalars['Boolean']['output'];
  lastError: Maybe<Scalars['String']['output']>;
  lastErrorAt: Maybe<Scalars['DateTime']['output']>;
  /** The replica that runs ingestion, as this one last saw the lease. */
  leadingReplica: Maybe<Scalars['String']['output']>;
  /** embedded (in-process) or redis. */
  mode: Scalars['String']['output'];
  /** This replica (Redis mode). */
  replica: Maybe<Scalars['String']['output']>;
};

/** What to put in the EIP-4361 message that decides an approval (with a fresh nonce). */
export type SigningRequest = {
  domain: Scalars['String']['output'];
  resources: Array<Scalars['String']['output']>;
  statement: Scalars['String']['output'];
};

export type SiweNonce = {
  domain: Scalars['String']['output'];
  expiresAt: Scalars['DateTime']['output'];
  nonce: Scalars['String']['output'];
};

export type SourceHealth = {
  consecutiveFailures: Scalars['Int']['output'];
  lastAttemptAt: Maybe<Scalars['DateTime']['output']>;
  lastError: Maybe<Scalars['String']['output']>;
  lastSuccessAt: Maybe<Scalars['DateTime']['output']>;
  markets: Scalars['Int']['output'];
  sourceId: Scalars['String']['output'];
  status: SourceStatus;
};

/** Health of a market-data source. */
export type SourceStatus =
  | 'degraded'
  | 'down'
  | 'healthy'
  | 'unknown';

/** Public envelope: cache state, source health and counts. */
export type StatusEnvelope = {
  data: GatewayStatus;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type Subscription = {
  /** Every change of the caller's approvals (or of one). */
  approvalUpdated: Approval;
  /** Every state change of the caller's executions (or of one). */
  executionUpdated: Execution;
  /** Current freshness of the matching markets on subscribe, then every change of stale, staleReason or sourceStatus, plus a heartbeat (FRESHNESS_HEARTBEAT_MS). */
  freshnessChanged: MarketFreshness;
  /** Every new snapshot of the matching markets, with its per-market sequence number and producedAt. With lastSequence, the current snapshots first, each saying whether events were missed. */
  marketUpdated: Market;
  /** Every new order-book snapshot of one market, with its sequence number and producedAt. With lastSequence, the current book first, saying whether events were missed. */
  orderBookUpdated: OrderBookEnvelope;
};


export type SubscriptionApprovalUpdatedArgs = {
  approvalId?: InputMaybe<Scalars['String']['input']>;
  lastSequence?: InputMaybe<Scalars['Int']['input']>;
};


export type SubscriptionExecutionUpdatedArgs = {
  executionId?: InputMaybe<Scalars['String']['input']>;
  lastSequence?: InputMaybe<Scalars['Int']['input']>;
};


export type SubscriptionFreshnessChangedArgs = {
  asset?: InputMaybe<Scalars['String']['input']>;
  lastSequence?: InputMaybe<Scalars['Int']['input']>;
};


export type SubscriptionMarketUpdatedArgs = {
  asset?: InputMaybe<Scalars['String']['input']>;
  lastSequence?: InputMaybe<Scalars['Int']['input']>;
};


export type SubscriptionOrderBookUpdatedArgs = {
  asset: Scalars['String']['input'];
  lastSequence?: InputMaybe<Scalars['Int']['input']>;
};

export type TokenAmount = {
  amount: Scalars['Decimal']['output'];
  token: Scalars['String']['output'];
};

/** A real venue's account bound to this gateway account (Hyperliquid clearinghouse, Alpaca account), as the venue reports it. */
export type VenueAccount = {
  /** The venue account (an address or account number). */
  account: Maybe<Scalars['String']['output']>;
  /** The venue's time of this state. */
  asOf: Maybe<Scalars['DateTime']['output']>;
  /** Free collateral or buying power. */
  available: Array<VenueAmount>;
  /** Account value. */
  equity: Array<VenueAmount>;
  positions: Array<VenuePosition>;
  protocol: Scalars['String']['output'];
  /** Why the venue account could not be read now. */
  unavailable: Maybe<Scalars['String']['output']>;
};

export type VenueAmount = {
  amount: Scalars['Decimal']['output'];
  token: Scalars['String']['output'];
};

/** A position as the venue reports it (signed size: negative is short). */
export type VenuePosition = {
  entryPrice: Maybe<Scalars['Decimal']['output']>;
  marketId: Scalars['String']['output'];
  size: Scalars['Decimal']['output'];
  unrealizedPnl: Maybe<Scalars['Decimal']['output']>;
};

/** A venue the gateway serves: real (its own upstream), simulated (in-process) or replay (recorded traffic played back). */
export type VenueStatus = {
  /** The EVM chain id, for a venue read from a chain (its RPC node must serve this chain). */
  chainId: Maybe<Scalars['Int']['output']>;
  /** Its protocol and source id. */
  id: Scalars['String']['output'];
  /** perpetuals, equities, token_swap or lending. */
  kind: Scalars['String']['output'];
  /** real, simulated or replay. */
  mode: Scalars['String']['output'];
  /** mainnet or testnet, for a venue that has both; the chain, for a venue read from one. */
  network: Maybe<Scalars['String']['output']>;
  /** Where its data comes from (a host, never a credential). */
  upstream: Scalars['String']['output'];
};

/** The caller's account, as its API key or wallet session names it. Fields guarded by a scope are null (with an error) without it. */
export type Viewer = {
  accountId: Scalars['String']['output'];
  /** The agent sessions, newest first (as GET /api/v1/agent-sessions). */
  agentSessions: AgentSessionConnection;
  /** The approvals, newest first, in their state now (scope data:read, as GET /api/v1/execute/approvals). */
  approvals: Maybe<ApprovalConnection>;
  /** The account's audit entries, newest first (as GET /api/v1/audit); from/to bound the time each was written. */
  auditLog: AuditEntryConnection;
  credential: CredentialKind;
  /** The executions, newest first (scope data:read, as GET /api/v1/execute/executions). */
  executions: Maybe<ExecutionConnection>;
  /** As GET /api/v1/data/portfolio (scope data:read). */
  portfolio: Maybe<PortfolioEnvelope>;
  /** As GET /api/v1/data/positions (scope data:read). */
  positions: Maybe<PositionsEnvelope>;
  /** The scopes of this credential (a wallet session has all). */
  scopes: Array<Scalars['String']['output']>;
  wallet: Scalars['String']['output'];
};


/** The caller's account, as its API key or wallet session names it. Fields guarded by a scope are null (with an error) without it. */
export type ViewerAgentSessionsArgs = {
  active?: InputMaybe<Scalars['Boolean']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  protocol?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
};


/** The caller's account, as its API key or wallet session names it. Fields guarded by a scope are null (with an error) without it. */
export type ViewerApprovalsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  protocol?: InputMaybe<Scalars['String']['input']>;
  referenceId?: InputMaybe<Scalars['String']['input']>;
  state?: InputMaybe<ApprovalState>;
  to?: InputMaybe<Scalars['String']['input']>;
};


/** The caller's account, as its API key or wallet session names it. Fields guarded by a scope are null (with an error) without it. */
export type ViewerAuditLogArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  referenceId?: InputMaybe<Scalars['String']['input']>;
  to?: InputMaybe<Scalars['String']['input']>;
  type?: InputMaybe<Scalars['String']['input']>;
};


/** The caller's account, as its API key or wallet session names it. Fields guarded by a scope are null (with an error) without it. */
export type ViewerExecutionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['String']['input']>;
  protocol?: InputMaybe<Scalars['String']['input']>;
  referenceId?: InputMaybe<Scalars['String']['input']>;
  state?: InputMaybe<ExecutionState>;
  to?: InputMaybe<Scalars['String']['input']>;
};

export type Visibility =
  | 'public';

export type WalletSessionGrant = {
  accountId: Scalars['String']['output'];
  expiresAt: Scalars['DateTime']['output'];
  /** Send as Authorization: Bearer <sessionToken>. */
  sessionToken: Scalars['String']['output'];
  wallet: Scalars['String']['output'];
};

export type WorkflowNode = {
  available: Scalars['Boolean']['output'];
  blockedBy: Array<GateBlock>;
  description: Scalars['String']['output'];
  id: Scalars['String']['output'];
  inputSchema: Scalars['JSONObject']['output'];
  /** trigger, data, preview, approval or execute. */
  kind: WorkflowNodeKind;
  outputSchema: Scalars['JSONObject']['output'];
  requiredScopes: Array<Scalars['String']['output']>;
  route: Maybe<RouteRef>;
  subscription: Maybe<Scalars['String']['output']>;
  title: Scalars['String']['output'];
};

/** trigger, data, preview, approval or execute. */
export type WorkflowNodeKind =
  | 'approval'
  | 'data'
  | 'execute'
  | 'preview'
  | 'trigger';

export type WorkflowNodes = {
  nodes: Array<WorkflowNode>;
};

/** Envelope: workflow nodes. */
export type WorkflowNodesEnvelope = {
  data: WorkflowNodes;
  freshness: Freshness;
  generatedAt: Scalars['DateTime']['output'];
  schemaVersion: Scalars['String']['output'];
};

export type DashboardFreshnessFragment = { asOf: string, stale: boolean, staleReason: string | null, sourceStatus: SourceStatus };

export type DashboardMarketFragment = { id: string, asset: string, protocol: string, price: string, change24hPct: string, hasOrderBook: boolean, freshness: { asOf: string, stale: boolean, staleReason: string | null, sourceStatus: SourceStatus } };

export type DashboardBookDataFragment = { marketId: string, bids: Array<{ price: string, cumulativeSize: string }>, asks: Array<{ price: string, cumulativeSize: string }> };

export type DashboardExecutionFragment = { executionId: string, protocol: string, action: string, state: ExecutionState, updatedAt: string };

export type DashboardMarketsQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardMarketsQuery = { markets: { data: Array<{ id: string, asset: string, protocol: string, price: string, change24hPct: string, hasOrderBook: boolean, freshness: { asOf: string, stale: boolean, staleReason: string | null, sourceStatus: SourceStatus } }> }, protocols: { data: Array<{ id: string, name: string, sourceStatus: SourceStatus }> } };

export type DashboardHistoryQueryVariables = Exact<{
  asset: Scalars['String']['input'];
  resolution?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
}>;


export type DashboardHistoryQuery = { marketHistory: { data: { points: Array<{ time: string, open: string, high: string, low: string, close: string }> } } };

export type DashboardBookQueryVariables = Exact<{
  asset: Scalars['String']['input'];
}>;


export type DashboardBookQuery = { orderBook: { data: { marketId: string, bids: Array<{ price: string, cumulativeSize: string }>, asks: Array<{ price: string, cumulativeSize: string }> } } };

export type DashboardBookUpdatesSubscriptionVariables = Exact<{
  asset: Scalars['String']['input'];
}>;


export type DashboardBookUpdatesSubscription = { orderBookUpdated: { data: { marketId: string, bids: Array<{ price: string, cumulativeSize: string }>, asks: Array<{ price: string, cumulativeSize: string }> } } };

export type DashboardMarketUpdatesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardMarketUpdatesSubscription = { marketUpdated: { id: string, asset: string, protocol: string, price: string, change24hPct: string, hasOrderBook: boolean, freshness: { asOf: string, stale: boolean, staleReason: string | null, sourceStatus: SourceStatus } } };

export type DashboardFreshnessSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardFreshnessSubscription = { freshnessChanged: { marketId: string, freshness: { asOf: string, stale: boolean, staleReason: string | null, sourceStatus: SourceStatus } } };

export type DashboardViewerQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
}>;


export type DashboardViewerQuery = { viewer: { accountId: string, credential: CredentialKind, executions: { edges: Array<{ node: { executionId: string, protocol: string, action: string, state: ExecutionState, updatedAt: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null } | null };

export type DashboardExecutionUpdatesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type DashboardExecutionUpdatesSubscription = { executionUpdated: { executionId: string, protocol: string, action: string, state: ExecutionState, updatedAt: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const DashboardFreshnessFragmentDoc = new TypedDocumentString(`
    fragment DashboardFreshness on Freshness {
  asOf
  stale
  staleReason
  sourceStatus
}
    `, {"fragmentName":"DashboardFreshness"}) as unknown as TypedDocumentString<DashboardFreshnessFragment, unknown>;
export const DashboardMarketFragmentDoc = new TypedDocumentString(`
    fragment DashboardMarket on Market {
  id
  asset
  protocol
  price
  change24hPct
  hasOrderBook
  freshness {
    ...DashboardFreshness
  }
}
    fragment DashboardFreshness on Freshness {
  asOf
  stale
  staleReason
  sourceStatus
}`, {"fragmentName":"DashboardMarket"}) as unknown as TypedDocumentString<DashboardMarketFragment, unknown>;
export const DashboardBookDataFragmentDoc = new TypedDocumentString(`
    fragment DashboardBookData on OrderBook {
  marketId
  bids {
    price
    cumulativeSize
  }
  asks {
    price
    cumulativeSize
  }
}
    `, {"fragmentName":"DashboardBookData"}) as unknown as TypedDocumentString<DashboardBookDataFragment, unknown>;
export const DashboardExecutionFragmentDoc = new TypedDocumentString(`
    fragment DashboardExecution on Execution {
  executionId
  protocol
  action
  state
  updatedAt
}
    `, {"fragmentName":"DashboardExecution"}) as unknown as TypedDocumentString<DashboardExecutionFragment, unknown>;
export const DashboardMarketsDocument = new TypedDocumentString(`
    query DashboardMarkets {
  markets {
    data {
      ...DashboardMarket
    }
  }
  protocols {
    data {
      id
      name
      sourceStatus
    }
  }
}
    fragment DashboardFreshness on Freshness {
  asOf
  stale
  staleReason
  sourceStatus
}
fragment DashboardMarket on Market {
  id
  asset
  protocol
  price
  change24hPct
  hasOrderBook
  freshness {
    ...DashboardFreshness
  }
}`) as unknown as TypedDocumentString<DashboardMarketsQuery, DashboardMarketsQueryVariables>;
export const DashboardHistoryDocument = new TypedDocumentString(`
    query DashboardHistory($asset: String!, $resolution: String, $limit: Int) {
  marketHistory(asset: $asset, resolution: $resolution, limit: $limit) {
    data {
      points {
        time
        open
        high
        low
        close
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardHistoryQuery, DashboardHistoryQueryVariables>;
export const DashboardBookDocument = new TypedDocumentString(`
    query DashboardBook($asset: String!) {
  orderBook(asset: $asset) {
    data {
      ...DashboardBookData
    }
  }
}
    fragment DashboardBookData on OrderBook {
  marketId
  bids {
    price
    cumulativeSize
  }
  asks {
    price
    cumulativeSize
  }
}`) as unknown as TypedDocumentString<DashboardBookQuery, DashboardBookQueryVariables>;
export const DashboardBookUpdatesDocument = new TypedDocumentString(`
    subscription DashboardBookUpdates($asset: String!) {
  orderBookUpdated(asset: $asset) {
    data {
      ...DashboardBookData
    }
  }
}
    fragment DashboardBookData on OrderBook {
  marketId
  bids {
    price
    cumulativeSize
  }
  asks {
    price
    cumulativeSize
  }
}`) as unknown as TypedDocumentString<DashboardBookUpdatesSubscription, DashboardBookUpdatesSubscriptionVariables>;
export const DashboardMarketUpdatesDocument = new TypedDocumentString(`
    subscription DashboardMarketUpdates {
  marketUpdated {
    ...DashboardMarket
  }
}
    fragment DashboardFreshness on Freshness {
  asOf
  stale
  staleReason
  sourceStatus
}
fragment DashboardMarket on Market {
  id
  asset
  protocol
  price
  change24hPct
  hasOrderBook
  freshness {
    ...DashboardFreshness
  }
}`) as unknown as TypedDocumentString<DashboardMarketUpdatesSubscription, DashboardMarketUpdatesSubscriptionVariables>;
export const DashboardFreshnessDocument = new TypedDocumentString(`
    subscription DashboardFreshness {
  freshnessChanged {
    marketId
    freshness {
      ...DashboardFreshness
    }
  }
}
    fragment DashboardFreshness on Freshness {
  asOf
  stale
  staleReason
  sourceStatus
}`) as unknown as TypedDocumentString<DashboardFreshnessSubscription, DashboardFreshnessSubscriptionVariables>;
export const DashboardViewerDocument = new TypedDocumentString(`
    query DashboardViewer($first: Int) {
  viewer {
    accountId
    credential
    executions(first: $first) {
      edges {
        node {
          ...DashboardExecution
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    fragment DashboardExecution on Execution {
  executionId
  protocol
  action
  state
  updatedAt
}`) as unknown as TypedDocumentString<DashboardViewerQuery, DashboardViewerQueryVariables>;
export const DashboardExecutionUpdatesDocument = new TypedDocumentString(`
    subscription DashboardExecutionUpdates {
  executionUpdated {
    ...DashboardExecution
  }
}
    fragment DashboardExecution on Execution {
  executionId
  protocol
  action
  state
  updatedAt
}`) as unknown as TypedDocumentString<DashboardExecutionUpdatesSubscription, DashboardExecutionUpdatesSubscriptionVariables>;