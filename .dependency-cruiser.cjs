/**
 * The layers (README, Architecture), highest first. A module may import its own layer and the
 * layers listed as below it; never upward, and never in a cycle (type-only imports included).
 */
const LAYERS = {
  entry: {
    path: '^(src/main\\.ts|src/cli/|src/lifecycle/|codegen\\.ts)',
    // fakes: the record CLI writes recordings in the replay fakes' format.
    below: ['composition', 'venues', 'fakes', 'adapters', 'api', 'resolvers', 'transport', 'domain', 'core'],
  },
  composition: { path: '^src/(app\\.ts$|composition/)', below: ['venues', 'fakes', 'adapters', 'api', 'resolvers', 'transport', 'domain', 'core'] },
  // A venue's folder: its source, execution venue, protocol and catalogue (adapters of the outside world).
  venues: { path: '^src/venues/(?![^/]+/replay/)', below: ['domain', 'core'] },
  // The wire-level fakes of the venues and their recordings (tests, GATEWAY_REPLAY's demo, npm run record): only the composition and the entry points import them.
  fakes: { path: '^src/(replay/|venues/[^/]+/replay/)', below: [] },
  adapters: { path: '^src/stores/', below: ['domain', 'core'] },
  api: { path: '^schema/', below: ['resolvers', 'transport', 'domain', 'core'] },
  resolvers: { path: '^resolvers/', below: ['transport', 'domain', 'core'] },
  transport: { path: '^src/http/', below: ['domain', 'core'] },
  domain: { path: '^src/(auth|config|contract|controls|events|execution|ingest|market-data|protocols|rate-limit|sources)/', below: ['core'] },
  core: { path: '^src/(domain|errors)/', below: [] },
};

const allowedFor = (name) => [LAYERS[name].path, ...LAYERS[name].below.map((b) => LAYERS[b].path)].join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle (type-only imports count).', from: {}, to: { circular: true } },
    ...Object.keys(LAYERS).map((name) => ({
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name} imports only ${[name, ...LAYERS[name].below].join(', ')}.`,
      from: { path: LAYERS[name].path },
      to: { path: '^(src|schema|resolvers)/', pathNot: allowedFor(name) },
    })),
    {
      name: 'no-unlayered',
      severity: 'error',
      comment: 'Every source module belongs to a layer.',
      from: {
        path: '^(src|schema|resolvers)/',
        pathNot: Object.values(LAYERS)
          .map((l) => l.path)
          .join('|'),
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test|bench)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
