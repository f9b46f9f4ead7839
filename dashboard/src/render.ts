import type { ExecutionRow, MarketRow, SourceStatus } from './operations.js';

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

export function setBadge(badge: HTMLElement, state: 'live' | 'stale', label: string): void {
  badge.textContent = label;
  badge.dataset.state = state;
}

export function marketRow(m: MarketRow, selected: boolean, onSelect: () => void): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.market = m.id;
  if (selected) tr.classList.add('selected');
  const badge = document.createElement('span');
  badge.className = 'badge';
  setBadge(badge, m.freshness.stale ? 'stale' : 'live', m.freshness.stale ? `stale (${m.freshness.staleReason ?? 'unknown'})` : 'live');
  const freshness = document.createElement('td');
  freshness.append(badge);
  const change = Number(m.change24hPct);
  tr.append(
    cell(m.id),
    cell(m.protocol),
    cell(m.price, 'num price'),
    cell(`${change >= 0 ? '+' : ''}${m.change24hPct}%`, `num ${change >= 0 ? 'up' : 'down'}`),
    freshness,
  );
  tr.addEventListener('click', onSelect);
  return tr;
}

export function sourceItem(id: string, name: string, status: SourceStatus): HTMLLIElement {
  const li = document.createElement('li');
  li.dataset.source = id;
  const badge = document.createElement('span');
  badge.className = 'badge';
  setBadge(badge, status === 'healthy' ? 'live' : 'stale', status);
  li.append(document.createTextNode(`${name} `), badge);
  return li;
}

export function executionRow(e: ExecutionRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.execution = e.executionId;
  tr.append(cell(e.executionId), cell(e.protocol), cell(e.action), cell(e.state, 'state'), cell(new Date(e.updatedAt).toLocaleTimeString()));
  return tr;
}
