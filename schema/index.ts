import { reportAnswerFacts } from '../src/http/rest/answer-facts.js';
import { builder } from './builder.js';
import './scalars.js';
import './freshness.js';
import './market.js';
import './history.js';
import './order-book.js';
import './protocol.js';
import './gateway-status.js';
import './subscriptions.js';
import './perps.js';
import './account-data.js';
import './positions.js';
import './agent-capabilities.js';
import './execution-inputs.js';
import './execution-preview.js';
import './approval.js';
import './execution.js';
import './account-records.js';
import './agent-session.js';
import './wallet-auth.js';
import './audit-log.js';
import './operator-controls.js';
import './execution-subscriptions.js';
import './market-graph.js';
import './market-graph-envelope.js';
import './protocol-actions.js';
import './record-links.js';
import './market-funding.js';
import './viewer.js';

/** The one schema: GraphQL, graphql-ws, SSE and every REST route are built from it. */
export function buildSchema() {
  builder.queryType({});
  builder.mutationType({});
  const schema = builder.toSchema({ sortSchema: false });
  // A REST route's answer carries its HTTP facts (status, freshness, ETag) back with its data.
  reportAnswerFacts(schema);
  return schema;
}
