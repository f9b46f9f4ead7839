import { describe, expect, it } from 'vitest';
import { immutableJson, renderJson } from '../src/domain/rendered-json.js';

describe('rendered JSON', () => {
  it('renders an immutable copy once: the same text as JSON.stringify, and the copy cannot change', () => {
    const source = { paths: { '/a': { get: { summary: 'A', tags: ['public'] } } }, n: 1, skip: undefined };
    const doc = immutableJson(source);
    expect(doc).not.toBe(source);
    expect(renderJson(doc)).toBe(JSON.stringify(source));
    expect(() => {
      (doc.paths['/a'].get.tags as string[]).push('x');
    }).toThrow(TypeError);
    expect(() => {
      (doc as { n: number }).n = 2;
    }).toThrow(TypeError);
    // The source stays the caller's to change; the copy's text does not follow it.
    source.n = 3;
    expect(renderJson(doc)).toBe(JSON.stringify({ ...source, n: 1 }));
  });

  it('serialises any other value per call', () => {
    const live = { a: 1 };
    expect(renderJson(live)).toBe('{"a":1}');
    live.a = 2;
    expect(renderJson(live)).toBe('{"a":2}');
    expect(renderJson(null)).toBe('null');
    expect(renderJson(undefined)).toBe('');
  });
});
