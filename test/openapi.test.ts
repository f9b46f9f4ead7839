import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/contract/route-registry.js';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
let doc: any;
beforeAll(async () => {
  gw = await startGateway();
  doc = await (await gw.get('/api/v1/public/openapi.public.json')).json();
});
afterAll(() => gw.close());

describe('GET /api/v1/public/openapi.public.json', () => {
  it('is a valid OpenAPI 3.1 document (third-party validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info['x-contract-schema-version']).toBe('service.api-contracts.v1');
  });

  it('has exactly the nine public paths, each a GET with security []', () => {
    const publicPaths = ROUTES.filter((r) => r.visibility === 'public').map((r) => r.path);
    expect(Object.keys(doc.paths).sort()).toEqual([...publicPaths].sort());
    for (const item of Object.values<any>(doc.paths)) {
      expect(Object.keys(item)).toEqual(['get']);
      expect(item.get.security).toEqual([]);
    }
  });

  it('declares 400, 401, 403, 409, 429 and 503 with the error schema on every operation, plus 404/503 where the spec says', () => {
    const errorSchemaOf = (response: any) => {
      const schema = response.content['application/json'].schema;
      return schema.allOf ? schema.allOf[0] : schema;
    };
    for (const item of Object.values<any>(doc.paths)) {
      for (const status of ['400', '401', '403', '409', '429', '503']) {
        expect(errorSchemaOf(item.get.responses[status])).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
      }
      expect(item.get.responses['429'].headers['Retry-After']).toBeDefined();
      expect(item.get.responses['200'].headers.RateLimit).toEqual({ $ref: '#/components/headers/RateLimit' });
      expect(item.get.responses['200'].headers['RateLimit-Policy']).toEqual({ $ref: '#/components/headers/RateLimitPolicy' });
      expect(item.get.responses['503'].content['application/json'].schema.allOf[1].properties.code.enum).toContain('shared_state_unavailable');
    }
    const book = doc.paths['/api/v1/public/markets/{asset}/orderbook'].get.responses;
    expect(errorSchemaOf(book['404'])).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    expect(book['404'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['public_orderbook_not_available']);
    expect(book['503'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['shared_state_unavailable', 'public_orderbook_unavailable']);
    const history = doc.paths['/api/v1/public/markets/{asset}/history'].get.responses;
    expect(history['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/MarketHistoryEnvelope');
    expect(history['400'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['invalid_public_market_history_query']);
    expect(doc.paths['/api/v1/public/data/markets.json'].get.responses['304']).toBeDefined();
  });

  it('documents history parameters with enum, bounds and defaults', () => {
    const params = Object.fromEntries(doc.paths['/api/v1/public/markets/{asset}/history'].get.parameters.map((p: any) => [p.name, p]));
    expect(params.asset).toMatchObject({ in: 'path', required: true });
    expect(params.resolution.schema).toEqual({ type: 'string', enum: ['1m', '5m', '15m', '30m', '1h', '4h', '1d'], default: '1d' });
    expect(params.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 366, default: 366 });
    expect(params.from.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(params.to).toMatchObject({ in: 'query', required: false });
  });

  it('has the envelope, freshness and error schemas as components, with nullable fields typed as nullable', () => {
    const s = doc.components.schemas;
    expect(s.PublicEnvelope.required).toEqual(['schemaVersion', 'generatedAt', 'freshness', 'data']);
    expect(s.Freshness.properties.sourceStatus.enum).toEqual(['healthy', 'degraded', 'down', 'unknown']);
    expect(s.ErrorResponse.required).toEqual(['error']);
    expect(s.Market.properties.fundingRate.type).toEqual(['string', 'null']);
    expect(s.Market.properties.price.type).toBe('string');
    const marketEnvelope = s.MarketEnvelope.allOf[1];
    expect(marketEnvelope.properties.data.anyOf).toEqual([{ $ref: '#/components/schemas/Market' }, { type: 'null' }]);
    expect(Object.keys(s)).not.toContain('Query');
    expect(Object.keys(s)).not.toContain('Subscription');
  });
});
