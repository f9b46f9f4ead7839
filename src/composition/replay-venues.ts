import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ReplayPlayer } from '../venues/hyperliquid/replay/player.js';
import { startHyperliquidReplay } from '../venues/hyperliquid/replay/start.js';

/** GATEWAY_REPLAY and GATEWAY_REPLAY_SPEED. */
export interface ReplaySettings {
  /** A folder holding one folder of recordings per venue (`hyperliquid/`), as `npm run record` writes them. */
  dir: string;
  /** How fast the recorded venues' streams move: 1 as the venue, 10 ten times faster. */
  speed: number;
}

/** The venues replayed, and what the venue modules are pointed at. */
export interface StartedReplays {
  /** The venues' own variables, pointing each replayed venue at its local replay. */
  env: Record<string, string>;
  /** Venue id → the folder it replays (status says so). */
  replayed: Record<string, string>;
  close(): Promise<void>;
}

/** The venues a replay can serve, each from its folder under GATEWAY_REPLAY. */
const REPLAYABLE = ['hyperliquid'] as const;

/** The replayable venue folders under `dir`; throws naming GATEWAY_REPLAY when there are none. */
export function replayFolders(dir: string): { venue: (typeof REPLAYABLE)[number]; path: string }[] {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`Invalid configuration: GATEWAY_REPLAY=${dir} is not a folder`);
  const found = REPLAYABLE.map((venue) => ({ venue, path: join(root, venue) })).filter((f) => existsSync(f.path) && statSync(f.path).isDirectory());
  if (found.length === 0) {
    throw new Error(
      `Invalid configuration: GATEWAY_REPLAY=${dir} holds no recordings (expected a ${REPLAYABLE.join(' or ')} folder, as npm run record writes)`,
    );
  }
  return found;
}

/**
 * Starts a local replay of each recorded venue (its wire fake on 127.0.0.1, serving the
 * recordings, its streams played at `speed`) and says how to point the venue at it: the gateway
 * then runs its real adapter, through the venue's SDK, against recorded data: a deterministic
 * real-data demo that needs no network.
 */
export async function startReplays(settings: ReplaySettings): Promise<StartedReplays> {
  const env: Record<string, string> = {};
  const replayed: Record<string, string> = {};
  const closers: (() => Promise<void>)[] = [];
  for (const { venue, path } of replayFolders(settings.dir)) {
    if (venue === 'hyperliquid') {
      const fake = await startHyperliquidReplay({ recordingsDir: path });
      const player = new ReplayPlayer(fake.controls, settings.speed);
      player.start();
      closers.push(async () => {
        player.stop();
        await fake.close();
      });
      Object.assign(env, { HYPERLIQUID_NETWORK: 'mainnet', HYPERLIQUID_API_URL: fake.httpUrl, HYPERLIQUID_WS_URL: fake.wsUrl });
      replayed[venue] = path;
    }
  }
  return { env, replayed, close: async () => void (await Promise.all(closers.map((c) => c()))) };
}
