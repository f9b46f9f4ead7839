import type { ControlsChannel, ControlsSnapshot } from '../../controls/shared-controls.js';
import type { SqliteDatabase } from './sqlite-database.js';

/**
 * The operator controls in force, kept in the embedded database so a change made through
 * PATCH /api/v1/operator/controls survives a restart. One process owns a data directory, so
 * there is nobody to tell: `listen` never calls back.
 */
export class SqliteControlsStore implements ControlsChannel {
  private readonly read;
  private readonly write;

  constructor(
    db: SqliteDatabase,
    private readonly now: () => number = Date.now,
  ) {
    this.read = db.prepare<[], { snapshot: string }>('SELECT snapshot FROM operator_controls WHERE id = 1');
    this.write = db.prepare<[string, number]>(
      'INSERT INTO operator_controls (id, snapshot, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at',
    );
  }

  async load(): Promise<ControlsSnapshot | undefined> {
    const row = this.read.get();
    return row && (JSON.parse(row.snapshot) as ControlsSnapshot);
  }

  async save(snapshot: ControlsSnapshot): Promise<void> {
    this.write.run(JSON.stringify(snapshot), this.now());
  }

  async listen(): Promise<() => void> {
    return () => undefined;
  }
}
