import type { AuditEntry } from '../src/execution/execution-types.js';
import { auditLog } from '../resolvers/execution/audit-log.js';
import { builder } from './builder.js';

export const AuditEntryRef = builder.objectRef<AuditEntry>('AuditEntry').implement({
  fields: (t) => ({
    seq: t.exposeInt('seq'),
    accountId: t.exposeString('accountId', { description: 'The account whose chain this is (one of the hashed fields).' }),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    type: t.exposeString('type'),
    referenceId: t.exposeString('referenceId', { nullable: true }),
    details: t.field({ type: 'JSONObject', resolve: (e) => e.details }),
    prevHash: t.exposeString('prevHash'),
    hash: t.exposeString('hash', {
      description:
        'SHA-256 (hex) of the RFC 8785 canonical JSON of {seq, accountId, at, type, referenceId, details, prevHash}; prevHash is the previous entry hash (64 zeros for the first).',
    }),
  }),
});

const AuditLogRef = builder.objectRef<{ entries: AuditEntry[]; valid: boolean; brokenAt: number | null; nextCursor: string | null }>('AuditLog').implement({
  fields: (t) => ({
    entries: t.field({ type: [AuditEntryRef], resolve: (l) => l.entries }),
    chainValid: t.exposeBoolean('valid'),
    brokenAt: t.exposeInt('brokenAt', { nullable: true }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'Pass as cursor for the older entries; null at the chain start.' }),
  }),
});

builder.queryFields((t) => ({
  auditLog: t.field({
    type: AuditLogRef,
    description: 'GET /api/v1/audit',
    authScopes: { authenticated: true },
    args: { limit: t.arg.int({ description: '1 to 1000, default 100.' }), cursor: t.arg.string({ description: 'The nextCursor of the previous page.' }) },
    resolve: (_r, a, ctx) => auditLog(ctx, a.limit, a.cursor),
  }),
}));
