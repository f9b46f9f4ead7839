/** The one final table: every part adds rows; a goal's verdict is PASS, FAIL or n/a (not measured). */
export interface Row {
  area: string;
  what: string;
  figure: string;
  goal?: string;
  /** undefined: no goal; null: a goal that could not be measured in this run. */
  pass?: boolean | null;
}

export function verdict(pass: boolean | null | undefined): string {
  return pass === undefined ? '' : pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL';
}

export function table(rows: readonly Row[]): string {
  const header = ['area', 'measurement', 'figure', 'goal', 'verdict'];
  const cells = rows.map((r) => [r.area, r.what, r.figure, r.goal ?? '', verdict(r.pass)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

/** Progress lines go to stderr, so stdout keeps only the final table. */
export function log(message: string): void {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
