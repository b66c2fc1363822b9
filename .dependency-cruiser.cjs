/**
 * Import rules of the repository, checked by dependency-cruiser (`npm run lint:deps`, part of `npm test`).
 *
 * The layers are described in README.md ("Layout") and docs/ARCHITECTURE.md: pages and components render,
 * `lib/` holds code shared by browser and server, `server/api/` is the HTTP edge, `server/services/` the
 * domain, `server/db/` the storage, `server/providers/` the outside vendors, `server/jobs/` the queue worker.
 * Arrows go from the edge inwards only. Rule reference:
 * https://github.com/sverweij/dependency-cruiser/blob/main/doc/rules-reference.md
 *
 * Type-only imports (`import type`) count: they are erased from the bundle, but they still tie a layer to the
 * inside of another one. The one documented exception is `server/api/routes` → `server/db/schema` for types,
 * see the rule `routes-no-db`. The API's own plumbing outside routes/ (middleware.ts, context.ts) may open the
 * database: it is what hands it to the routes.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A circle of imports makes module evaluation order depend on the entry point and hides what depends on ' +
        'what. Break it by moving the shared part into its own module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'browser-code-no-server',
      severity: 'error',
      comment:
        'components/ and lib/ are bundled for the browser (or shared with it); server code (database, secrets, ' +
        'vendor SDKs) must never reach them. Shared shapes live in lib/.',
      from: { path: '^(components|lib)/' },
      to: { path: '^server/' },
    },
    {
      name: 'browser-settings-node-only',
      severity: 'error',
      comment:
        'lib/settings/ validates the NEXT_PUBLIC_* settings with zod when the build starts and when the server ' +
        'starts; the browser reads the inlined values (lib/site.ts) and must not ship the validator.',
      from: { path: '^(app|components|lib|i18n)/', pathNot: '^lib/settings/' },
      to: { path: '^lib/settings/' },
    },
    {
      name: 'inner-layers-no-api',
      severity: 'error',
      comment:
        'Services, the database layer, providers and jobs do not know about HTTP: they never import server/api/. ' +
        'Errors are domain errors (server/errors.ts) that the API maps to HTTP once.',
      from: { path: '^server/(services|db|providers|jobs|payments)/' },
      to: { path: '^server/api/' },
    },
    {
      name: 'providers-no-services',
      severity: 'error',
      comment:
        'A provider wraps one outside vendor (SMS, e-mail, payments, breach lists) and takes plain values; the ' +
        'domain rules that decide what to send live in services, which call providers, never the other way round.',
      from: { path: '^server/providers/' },
      to: { path: '^server/services/' },
    },
    {
      name: 'ui-no-site',
      severity: 'error',
      comment:
        'components/ui holds the generic building blocks; components/site composes them into the public site. ' +
        'A building block never depends on a site section.',
      from: { path: '^components/ui/' },
      to: { path: '^components/site/' },
    },
    {
      name: 'routes-no-db',
      severity: 'error',
      comment:
        'No SQL in route files: a route validates input, calls a service and shapes the response; it takes the ' +
        'database handle from the request context (`c.var.db()`, server/api/context.ts) and passes it on. Queries ' +
        'live in server/services with a docstring. The one exception is a type-only import of server/db/schema ' +
        '(row types to shape a response), which brings no query and no connection into the route.',
      from: { path: '^server/api/routes/' },
      to: { path: '^server/db/', pathNot: '^server/db/schema/' },
    },
    {
      name: 'routes-db-schema-types-only',
      severity: 'error',
      comment: 'Routes may name row types from server/db/schema, but only with `import type` (see routes-no-db).',
      from: { path: '^server/api/routes/' },
      to: { path: '^server/db/schema/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routes-no-query-builder',
      severity: 'error',
      comment: 'Query builders (drizzle-orm, pg) belong in services, not in route files (see routes-no-db).',
      from: { path: '^server/api/routes/' },
      to: { path: 'node_modules/(drizzle-orm|pg)/' },
    },
    {
      name: 'no-importing-cli',
      severity: 'error',
      comment:
        'A command-line entry (*-cli.ts) runs on import (it opens connections, starts listeners, exits the ' +
        'process); nothing imports one. Code two entries share goes into a module both import (server/lifecycle.ts).',
      from: {},
      to: { path: '-cli\\.ts$' },
    },
    {
      name: 'start-only-from-instrumentation',
      severity: 'error',
      comment:
        'server/start.ts starts the web process (database, in-process workers, signal handlers); its one entry is ' +
        'instrumentation.ts. The worker and tests use server/lifecycle.ts for what they share with it.',
      from: { pathNot: '^instrumentation\\.ts$' },
      to: { path: '^server/start\\.ts$' },
    },
    {
      name: 'domain-folder-one-entry',
      severity: 'error',
      comment:
        'A domain in a folder of its own with one public entry (server/services/safety/, billing/, messaging/, ' +
        'accounts/, lookups/, locate/ and ops/ so far; add each new one here) is imported through its index.ts only: ' +
        'its other files are its inside, free to change without touching the rest of the app ' +
        '(docs/decisions/0020-domain-folders.md).',
      from: { pathNot: '^server/services/(safety|billing|messaging|accounts|lookups|locate|ops)/' },
      to: { path: '^server/services/(safety|billing|messaging|accounts|lookups|locate|ops)/(?!index\\.ts$)' },
    },
    {
      name: 'domain-folder-no-reaching-in',
      severity: 'error',
      comment:
        'One domain folder imports another only through its index.ts, as the rest of the app does: the rule above ' +
        'exempts the folders themselves (their own inside), this one refuses a reach into a sibling folder ' +
        '(docs/decisions/0020-domain-folders.md).',
      from: { path: '^server/services/([^/]+)/' },
      to: { path: '^server/services/[^/]+/(?!index\\.ts$)', pathNot: '^server/services/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: '^(\\.next|\\.data|bench/\\.tmp|test-results|playwright-report|drizzle)/',
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // The server graph: packages resolve through the conditions Node and the server bundle use.
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
