import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_CALLS, type ApiCall } from '@/lib/contracts/calls';
import { API, app } from './support/api';

// The pages' calls of the API (lib/contracts/calls.ts API_CALLS) against the API's own route table: each key is a
// route with that method, documented with that answer and those fields (docs/decisions/0010-one-contract-per-payload.md),
// so a route renamed, moved to another method or answered with another schema fails here rather than in a browser.

type Schema = z.ZodType & { shape?: Record<string, z.ZodType> };
type RouteConfig = {
  method: string;
  path: string;
  request?: { body?: { content: Record<string, { schema: Schema }> }; query?: Schema };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

/** The routes the API serves and documents (`createRoute` + `.openapi`), keyed `METHOD /path` as API_CALLS is. */
function routeTable(): Map<string, RouteConfig> {
  const { definitions } = (
    app as unknown as { openAPIRegistry: { definitions: { type: string; route?: RouteConfig }[] } }
  ).openAPIRegistry;
  return new Map(
    definitions
      .filter((d) => d.type === 'route' && d.route)
      .map((d) => [`${d.route!.method.toUpperCase()} ${d.route!.path}`, d.route!]),
  );
}

/** The payload schema (`obj`, or `page` of a paged list) of a route's success answer (200 or 201). */
function answerOf(route: RouteConfig): Schema | undefined {
  const success = route.responses['200'] ?? route.responses['201'];
  const envelope = success?.content?.['application/json']?.schema;
  return envelope?.shape?.obj ?? envelope?.shape?.page;
}

/** A request part's schema as the route declares it and as the map gives it: the same, or an object of the same fields. */
function sameFields(declared: Schema | undefined, given: Schema | undefined): boolean {
  if (!declared || !given) return declared === given;
  if (declared === given) return true;
  return (
    !!declared.shape &&
    !!given.shape &&
    Object.keys(declared.shape).sort().join() === Object.keys(given.shape).sort().join()
  );
}

const calls = Object.keys(API_CALLS) as ApiCall[];
const entry = (call: ApiCall) => API_CALLS[call] as { answer: Schema; body?: Schema; query?: Schema };

describe("the pages' calls of the API", () => {
  const routes = routeTable();

  it.each(calls)('%s is a route of the API with that method', (call) => {
    expect(routes.has(call)).toBe(true);
  });

  it.each(calls)('%s answers the schema the route documents', (call) => {
    expect(answerOf(routes.get(call)!)).toBe(entry(call).answer);
  });

  it.each(calls)('%s sends the body and query the route reads', (call) => {
    const route = routes.get(call)!;
    const { body, query } = entry(call);
    if (body) expect(sameFields(route.request?.body?.content['application/json']?.schema, body)).toBe(true);
    if (query) expect(sameFields(route.request?.query, query)).toBe(true);
  });

  it('leaves untyped only the bodies and queries whose schema the route keeps to itself (lib/contracts/calls.ts)', () => {
    const untyped = calls.filter((call) => {
      const route = routes.get(call)!;
      return (!entry(call).body && route.request?.body) || (!entry(call).query && route.request?.query);
    });
    expect(untyped.sort()).toEqual(
      [
        'GET /other/ipInfo',
        'POST /portal/order/{code}/sandboxPay',
        'POST /spyContent/phoneLocation/{id}/presence',
      ].sort(),
    );
  });

  it('are in the public OpenAPI document', async () => {
    const doc = (await (await app.request(`${API}/openapi.json`)).json()) as { paths: Record<string, object> };
    for (const call of calls) {
      const [method, route] = call.split(' ');
      expect(doc.paths[`/api_f/v1${route}`], call).toHaveProperty(method.toLowerCase());
    }
  });

  it('are made by key: no page pairs a path with a type of its own (api.get<T>(path), api.post(path, …))', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) return files(full);
        return /\.tsx?$/.test(name) ? [full] : [];
      });
    const byHand = /\bapi\s*\.\s*(get|post|put|delete)\s*[<(]|\bfetchApi\s*</;
    const offenders = ['app', 'components', 'lib']
      .flatMap((dir) => files(path.join(root, dir)))
      .filter((file) => !file.includes(`${path.sep}lib${path.sep}api${path.sep}`))
      .filter((file) => byHand.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(offenders).toEqual([]);
  });
});
