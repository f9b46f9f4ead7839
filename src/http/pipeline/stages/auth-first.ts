import type { Logger } from 'pino';
import { RequestAuth, type Authenticator } from '../../../auth/authenticator.js';
import type { OperatorAccess } from '../../../controls/operator-access.js';
import { refusalAnswer } from '../answer.js';
import { credentialOutage } from '../credential-outage.js';
import { isOpenRoute, routeAuthError } from '../route-access.js';
import type { Stage } from '../stage.js';

/**
 * Authentication before validation: a non-public route answers its 401 before its query or body
 * is read (no argument names reach an anonymous caller). The resolved credential is kept for the
 * resolvers.
 */
export function authFirstStage(options: { authenticator: Authenticator; operator: OperatorAccess; logger: Logger }): Stage {
  return {
    name: 'authFirst',
    appliesTo: (route) => route.serves === 'contract' && !isOpenRoute(route.spec),
    async run(exchange) {
      if (exchange.route.serves !== 'contract') return undefined;
      exchange.auth ??= new RequestAuth(options.authenticator, exchange.header('authorization'));
      try {
        const refusal = await routeAuthError(exchange.route.spec, exchange.auth, options.operator);
        return refusal ? refusalAnswer(exchange, refusal) : undefined;
      } catch (err) {
        return credentialOutage(err, exchange, options.logger);
      }
    },
  };
}
