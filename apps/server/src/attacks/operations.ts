import { z } from 'zod';

// The operations of the app's API document (`app.swagger()`), walked by the attacker suite: what
// every route takes, so that a new route is attacked without anyone writing a test for it.
const operationSchema = z.object({
  parameters: z
    .array(z.object({ in: z.string(), name: z.string() }))
    .optional()
    .default([]),
  requestBody: z
    .object({
      content: z.record(
        z.string(),
        z.object({
          schema: z.object({ properties: z.record(z.string(), z.unknown()).optional() }).optional(),
        }),
      ),
    })
    .optional(),
});
const documentSchema = z.object({
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

export interface Probe {
  method: string;
  path: string;
  inputs: number;
  query: string[];
  body: string[];
  pathParams: string[];
}

/** Every operation of the API document, with the names of its inputs. */
export function probesOf(document: unknown): Probe[] {
  const { paths } = documentSchema.parse(document);
  const probes: Probe[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, raw] of Object.entries(operations)) {
      if (!METHODS.has(method)) continue;
      const operation = operationSchema.parse(raw);
      const query = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const pathParams = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const body = Object.keys(
        operation.requestBody?.content['application/json']?.schema?.properties ?? {},
      );
      const inputs = query.length + pathParams.length + body.length;
      probes.push({ method: method.toUpperCase(), path, inputs, query, body, pathParams });
    }
  }
  return probes;
}
