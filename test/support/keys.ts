import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newApiKey, sha256Hex } from '../../src/auth/api-key-secret.js';

/** Keys with known secrets, written into a real bootstrap file for the gateway to read. */
export interface BootstrapKeys {
  path: string;
  full: string;
  readOnly: string;
  previewOnly: string;
  revoked: string;
}

export function writeBootstrap(wallet = '0x1111111111111111111111111111111111111111'): BootstrapKeys {
  const keys = { full: newApiKey(), readOnly: newApiKey(), previewOnly: newApiKey(), revoked: newApiKey() };
  const dir = mkdtempSync(join(tmpdir(), 'gw-bootstrap-'));
  const path = join(dir, 'bootstrap.json');
  writeFileSync(
    path,
    JSON.stringify({
      accounts: [{ id: 'acct-1', wallet, balances: { USDC: '100000', WETH: '2' } }],
      apiKeys: [
        { id: 'k-full', accountId: 'acct-1', sha256: sha256Hex(keys.full), scopes: ['data:read', 'execute:preview', 'execute:live'] },
        { id: 'k-read', accountId: 'acct-1', sha256: sha256Hex(keys.readOnly), scopes: ['data:read'] },
        { id: 'k-preview', accountId: 'acct-1', sha256: sha256Hex(keys.previewOnly), scopes: ['execute:preview'] },
        { id: 'k-revoked', accountId: 'acct-1', sha256: sha256Hex(keys.revoked), scopes: ['data:read'], revoked: true },
      ],
    }),
  );
  return { path, ...keys };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
