import {
  AreaSeries,
  CandlestickSeries,
  createChart,
  createOptionsChart,
  type IChartApi,
  type IChartApiBase,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Book, Candle } from './operations.js';

// The attribution the charts' licence asks for is the page footer's link (the logo injects an inline <style>).
const LAYOUT = {
  layout: { background: { color: '#11151c' }, textColor: '#c9d1d9', attributionLogo: false },
  grid: { vertLines: { color: '#1f2630' }, horzLines: { color: '#1f2630' } },
};

/** Candles of the selected market (lightweight-charts). */
export class CandleChart {
  private readonly chart: IChartApi;
  private readonly series: ISeriesApi<'Candlestick'>;

  constructor(container: HTMLElement) {
    this.chart = createChart(container, { ...LAYOUT, autoSize: true, timeScale: { timeVisible: true } });
    this.series = this.chart.addSeries(CandlestickSeries, {
      upColor: '#3fb950',
      downColor: '#f85149',
      wickUpColor: '#3fb950',
      wickDownColor: '#f85149',
      borderVisible: false,
    });
  }

  show(candles: readonly Candle[]): void {
    this.series.setData(
      candles.map((c) => ({
        time: (Date.parse(c.time) / 1000) as UTCTimestamp,
        open: Number(c.open),
        high: Number(c.high),
        low: Number(c.low),
        close: Number(c.close),
      })),
    );
    this.chart.timeScale().fitContent();
  }
}

/** Cumulative bid and ask size by price: a depth chart on a price axis. */
export class DepthChart {
  private readonly chart: IChartApiBase<number>;
  private readonly bids: ISeriesApi<'Area', number>;
  private readonly asks: ISeriesApi<'Area', number>;

  constructor(container: HTMLElement) {
    this.chart = createOptionsChart(container, { ...LAYOUT, autoSize: true });
    this.bids = this.chart.addSeries(AreaSeries, { lineColor: '#3fb950', topColor: 'rgba(63,185,80,0.4)', bottomColor: 'rgba(63,185,80,0.05)' });
    this.asks = this.chart.addSeries(AreaSeries, { lineColor: '#f85149', topColor: 'rgba(248,81,73,0.4)', bottomColor: 'rgba(248,81,73,0.05)' });
  }

  show(book: Book | undefined): void {
    const points = (levels: Book['bids']) =>
      levels
        .map((l) => ({ time: Number(l.price), value: Number(l.cumulativeSize) }))
        .sort((a, b) => a.time - b.time)
        .filter((p, i, all) => i === 0 || p.time !== all[i - 1]?.time);
    this.bids.setData(book ? points(book.bids) : []);
    this.asks.setData(book ? points(book.asks) : []);
    this.chart.timeScale().fitContent();
  }
}
