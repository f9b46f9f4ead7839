import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findRecording,
  findRecordings,
  isRecording,
  loadRecordings,
  RecordingFormatError,
  writeRecording,
  type Recording,
} from '../../src/replay/recording.js';

const HYPERLIQUID = fileURLToPath(new URL('../fixtures/hyperliquid/', import.meta.url));
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'recordings-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('recordings (shared format of all venues)', () => {
  it('loads a directory sorted by file name, each with its provenance', async () => {
    const recordings = await loadRecordings(HYPERLIQUID);
    expect(recordings.map((r) => r.file)).toEqual([...recordings.map((r) => r.file)].sort());
    expect(recordings.length).toBeGreaterThanOrEqual(8);
    for (const r of recordings) {
      expect(isRecording(r)).toBe(true);
      expect(typeof r.source.repo).toBe('string');
      expect(r.status).toBe(200);
    }
  });

  it('finds the recording that answers a request on the fields that matter', async () => {
    const recordings = await loadRecordings(HYPERLIQUID);
    expect(findRecording(recordings, { type: 'l2Book', coin: 'DYDX' }, ['type', 'coin'])?.file).toBe('l2Book.json');
    expect(findRecording(recordings, { type: 'l2Book', coin: 'BTC' }, ['type', 'coin'])).toBeUndefined();
    expect(
      findRecording(recordings, { type: 'candleSnapshot', req: { coin: 'kPEPE', interval: '1h', startTime: 5 } }, ['type', 'req.coin', 'req.interval'])?.file,
    ).toBe('candleSnapshot.json');
    // absent and null are the same parameter
    expect(findRecording(recordings, { type: 'fundingHistory', coin: 'BTC', startTime: 1681923833000, endTime: null }, ['type', 'coin', 'endTime'])?.file).toBe(
      'fundingHistory-noEndTime.json',
    );
    expect(findRecordings(recordings, { type: 'fundingHistory', coin: 'BTC' }, ['type', 'coin']).map((r) => r.file)).toEqual([
      'fundingHistory-noEndTime.json',
      'fundingHistory-withEndTime.json',
    ]);
  });

  it('writes a recording that loads back unchanged, and refuses to overwrite unless told', async () => {
    const dir = await tempDir();
    const recording: Recording = {
      source: { repo: 'example/repo', path: 'x.yaml', commit: 'abc', recordedAt: 'Mon, 17 Jul 2023 21:43:20 GMT' },
      request: { type: 'allMids' },
      status: 200,
      response: { BTC: '30135.0' },
    };
    const path = await writeRecording(join(dir, 'nested'), 'allMids.json', recording);
    expect(path).toBe(join(dir, 'nested', 'allMids.json'));
    expect(await loadRecordings(join(dir, 'nested'))).toEqual([{ ...recording, file: 'allMids.json' }]);
    await expect(writeRecording(join(dir, 'nested'), 'allMids.json', recording)).rejects.toMatchObject({ code: 'EEXIST' });
    await writeRecording(join(dir, 'nested'), 'allMids.json', { ...recording, response: {} }, { overwrite: true });
    expect((await loadRecordings(join(dir, 'nested')))[0]?.response).toEqual({});
    await expect(writeRecording(dir, '../escape.json', recording)).rejects.toBeInstanceOf(RecordingFormatError);
    await expect(writeRecording(dir, 'bad.json', { ...recording, status: 42 })).rejects.toBeInstanceOf(RecordingFormatError);
  });

  it('rejects a file that is not a recording, or skips it when asked', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'a.json'), JSON.stringify({ source: {}, request: null, status: 200, response: [] }));
    await writeFile(join(dir, 'b.json'), JSON.stringify({ source: {}, entries: [] }));
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    await expect(loadRecordings(dir)).rejects.toThrow('b.json: not a recording ("request" is missing)');
    expect((await loadRecordings(dir, { skipInvalid: true })).map((r) => r.file)).toEqual(['a.json']);
  });
});
