// One racing process for sqlite-stores.test.ts: opens the shared gateway.db on its own
// connection, prints "ready", waits for "go" on stdin, races, and prints what it won as JSON.
// With a third argument `group`, its stores run in group-commit batches as the gateway's do.
import { openSqliteDatabase } from '../../src/stores/sqlite/sqlite-database.js';
import { groupCommitted, sqliteExecutionStores } from '../../src/stores/sqlite/open-sqlite-stores.js';
import { SqliteGroupCommit } from '../../src/stores/sqlite/sqlite-group-commit.js';

const RACE = { now: 1_800_000_000_000, rounds: 25 };

const [dataDir, worker, mode] = process.argv.slice(2) as [string, string, string | undefined];
const db = openSqliteDatabase(dataDir);
const commits = new SqliteGroupCommit(db);
const stores =
  mode === 'group'
    ? groupCommitted(
        commits,
        sqliteExecutionStores(db, () => RACE.now),
      )
    : sqliteExecutionStores(db, () => RACE.now);
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));

const won = { consumed: false, claimed: false, nonce: false, debits: 0, spends: 0, appended: 0 };
for (let i = 0; i < RACE.rounds; i++) {
  // Interleave every kind of write, so each transaction meets the other processes' ones.
  if (i === 0) won.consumed = (await stores.approvals.consume('a1', 'hash-1', `exe-${worker}`, RACE.now)) === 'consumed';
  if (i === 1) won.claimed = (await stores.idempotency.claim('race-key', `fp-${worker}`, 60_000)).claimed;
  if (i === 2) won.nonce = await stores.walletSessions.consumeNonce('race-nonce');
  if ((await stores.ledger.apply('acct', { USDC: '-1.00000001' }, [])).ok) won.debits++;
  if ((await stores.agentSessions.addSpend('s1', RACE.now, '10', '250', 60_000)).ok) won.spends++;
  await stores.audit.append('acct', { at: new Date(RACE.now).toISOString(), type: 'race', referenceId: `${worker}-${i}`, details: { worker, i } });
  won.appended++;
}
commits.flush();
db.close();
process.stdout.write(`${JSON.stringify(won)}\n`);
