import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

const OPERATOR = 'operator-token-for-introspection-0123';
const OPERATOR_NAMES = ['operatorControls', 'updateOperatorControls', 'OperatorControls', 'ControlReason'];

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ operatorToken: OPERATOR });
});
afterAll(() => gw.close());

async function introspect(authorization?: string): Promise<IntrospectionQuery> {
  const res = await gw.get('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: IntrospectionQuery; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

const names = (data: IntrospectionQuery) => {
  const schema = buildClientSchema(data);
  return new Set([
    ...Object.keys(schema.getQueryType()!.getFields()),
    ...Object.keys(schema.getMutationType()?.getFields() ?? {}),
    ...Object.keys(schema.getTypeMap()),
  ]);
};

describe('introspection', () => {
  it('is on for everyone, without the operator fields and types for callers without the operator token', async () => {
    const anonymous = names(await introspect());
    expect(anonymous.has('market')).toBe(true);
    expect(anonymous.has('execute')).toBe(true);
    for (const n of OPERATOR_NAMES) expect(anonymous.has(n), n).toBe(false);
    const wrong = names(await introspect('Bearer not-the-operator-token-000000'));
    for (const n of OPERATOR_NAMES) expect(wrong.has(n), n).toBe(false);
  });

  it('shows the operator fields to the operator token', async () => {
    const operator = names(await introspect(`Bearer ${OPERATOR}`));
    for (const n of OPERATOR_NAMES) expect(operator.has(n), n).toBe(true);
  });

  it('answers __type for an operator type with null unless the operator asks', async () => {
    const ask = async (authorization?: string) => {
      const res = await gw.get('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ query: '{ __type(name: "OperatorControls") { name } market(asset: "BTC") { data { id } } }' }),
      });
      return (await res.json()) as { data: { __type: { name: string } | null; market: { data: { id: string } } } };
    };
    const anonymous = await ask();
    expect(anonymous.data.__type).toBeNull();
    expect(anonymous.data.market.data.id).toBeTruthy();
    expect((await ask(`Bearer ${OPERATOR}`)).data.__type).toEqual({ name: 'OperatorControls' });
  });
});
